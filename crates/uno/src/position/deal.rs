//! A hand-made deal's position: written with the other ways a position is made, so the game
//! module (where `Deal` lives) needs nothing of this one.

use super::Position;
use crate::card::Card;
use crate::game::Deal;

impl Deal {
    /// The position this deal describes, the first round in the play phase, its generator
    /// seeded with `seed`, played with exactly its cards (its own `deck`). The colour in play
    /// is the one given, else the top card's.
    pub fn into_position(self, seed: u64) -> Position {
        let mut deck: Vec<Card> =
            self.hands.iter().flatten().chain(&self.draw_pile).chain(&self.discard).copied().collect();
        deck.sort();
        let color = self.color.or_else(|| self.discard.last().and_then(|c| c.color()));
        Position {
            seed,
            deck: Some(deck),
            hands: self.hands,
            draw_pile: self.draw_pile,
            discard: self.discard,
            color,
            current: self.current,
            direction: self.direction,
            dealer: self.dealer,
            ..Position::defaults()
        }
    }
}
