//! Draws decided outside the engine: for front ends that model every dealt or drawn card as an
//! explicit chance outcome over the cards left (the OpenSpiel game of the Python package).
//!
//! [`Game::restart_with_draws`] and [`Game::apply_with_draws`] take the cards their draws must
//! take, in order; each is taken from wherever it lies in the draw pile (after a reshuffle, in
//! the new pile). Draws past the given cards follow the generator as usual. Both also return
//! the draw pile as it stood before each draw they made: the cards that draw could have taken.
//! A caller finds the outcomes of draw `k` by running the transition with its first `k` cards
//! given and reading entry `k`.

use super::{Game, GameRng, Mute};
use crate::action::{Action, IllegalAction};
use crate::card::{Card, Seat};

#[derive(Clone, Debug, Default)]
pub(crate) struct DrawScript {
    /// The cards still to take, the next one last.
    cards: Vec<Card>,
    /// The draw pile before each draw made so far.
    piles: Vec<Vec<Card>>,
}

/// The draw pile before each draw a transition made, in order.
pub type DrawPiles = Vec<Vec<Card>>;

impl Game {
    /// Deals again like [`Game::restart`] (the same seats, dealer and generator), but the
    /// deal and the first card turned take `draws` in order (hands round by round, seat 0
    /// first, then the start card and any card turned after one the rules send back).
    pub fn restart_with_draws(&mut self, seed: u64, draws: &[Card]) -> DrawPiles {
        self.reset(seed);
        self.script = Some(Box::new(DrawScript { cards: draws.iter().rev().copied().collect(), piles: Vec::new() }));
        self.start_round(&mut Mute);
        self.script.take().map(|s| s.piles).unwrap_or_default()
    }

    /// Applies `action` like [`Game::apply`], its draws taking `draws` in order.
    ///
    /// # Errors
    /// The action is not legal: nothing changes.
    pub fn apply_with_draws(&mut self, seat: Seat, action: Action, draws: &[Card]) -> Result<DrawPiles, IllegalAction> {
        self.check(seat, action)?;
        self.script = Some(Box::new(DrawScript { cards: draws.iter().rev().copied().collect(), piles: Vec::new() }));
        self.step(seat, action, &mut Mute);
        Ok(self.script.take().map(|s| s.piles).unwrap_or_default())
    }

    /// The next card of the draw pile while a script runs: the scripted card when there is one
    /// left and it is in the pile, otherwise as [`Game::pop_draw`] would.
    pub(super) fn pop_scripted(&mut self) -> Option<Card> {
        let pile = &mut self.state.draw_pile;
        let script = self.script.as_deref_mut()?;
        script.piles.push(pile.clone());
        if let Some(card) = script.cards.pop() {
            if let Some(at) = pile.iter().rposition(|&c| c == card) {
                return Some(pile.remove(at));
            }
        }
        if let GameRng::Fast(rng) = &mut self.rng {
            let n = pile.len();
            if n > 1 {
                let i = rng.below(n);
                pile.swap(i, n - 1);
            }
        }
        pile.pop()
    }
}
