//! Seed 000's precedence as the engine's rule (`forced_play = "precedence"`, the `csce322`
//! preset): on its turn a player has exactly one move, the one the precedence list
//! ([`crate::rules::precedence`]) picks, so every front door (the terminal, the bots, the
//! server, the Python package, the analysis) sees the same single move and none enforces it
//! for itself.
//!
//! The list is read in the engine's terms, as the `precedence` bot reads it: a colour match is
//! a card of the colour in play, a symbol match a card with the top card's face, and only the
//! cards the rules let the player play now count (stacking decides what extends a penalty). A
//! wild names the seed's marker colour: the colour of the left-most non-wild card left in the
//! hand, or the rules' first colour when only wilds are left. Nothing to play: draw (taking a
//! pending penalty), accept a Wild Draw Four, end a same-number run, keep a drawn card that
//! cannot be played. The precedence never challenges. Calls and catches of UNO, jump-ins out of
//! turn and the 7–0 swap's choice (none of them in the seed) stay the players'.

use crate::action::Action;
use crate::card::{Card, Color, Seat};
use crate::hand::CardSet;
use crate::rules::precedence::{marker_colour, precedence};

use super::{Game, Phase};

/// Every colour, for handing out one as a slice.
static COLORS: [Color; 4] = Color::ALL;

impl Game {
    /// The one move the current player may make under seed 000's precedence (besides calls
    /// and catches of UNO); `None` under other rules, and where the precedence has no say (the
    /// 7–0 swap's choice, between rounds).
    pub fn precedence_move(&self) -> Option<Action> {
        if !self.rules.precedence_decides() {
            return None;
        }
        let seat = self.state.current;
        let hand = self.hand(seat);
        let marker = || marker_colour(hand, usize::MAX).unwrap_or(self.rules.colors()[0]);
        let play = |card: Card| Action::Play { card, color: card.is_wild().then(marker) };
        match self.state.phase {
            phase @ (Phase::Play | Phase::Challenge { .. } | Phase::SameNumber) => {
                let answering = self.state.pending > 0 || matches!(phase, Phase::Challenge { .. });
                let allowed = self.playable_by_rules(seat);
                let (top, color) = (self.top(), self.color());
                let colour = |c: Card| color.is_some() && c.color() == color;
                let symbol = |c: Card| !top.is_wild() && !c.is_wild() && c.face_index() == top.face_index();
                if let Some((i, _rule)) = precedence(hand, answering, colour, symbol, |c| allowed.contains(c)) {
                    return Some(play(hand[i]));
                }
                Some(match phase {
                    Phase::Challenge { .. } => Action::Accept,
                    Phase::SameNumber => Action::Pass,
                    _ => Action::Draw,
                })
            }
            Phase::DrawnCard => Some(match self.state.drawn {
                Some(card) if self.playable_by_rules(seat).contains(card) => play(card),
                _ => Action::Pass,
            }),
            Phase::ChooseColor => Some(Action::DeclareColor { color: marker() }),
            Phase::ChooseSwap | Phase::RoundOver | Phase::GameOver => None,
        }
    }

    /// The colours `seat` may name now, for a wild it plays or a first-card Wild: the rules'
    /// colours, in their order, or under seed 000's precedence the marker colour alone.
    pub fn colors_to_name(&self, seat: Seat) -> &[Color] {
        if seat == self.state.current && self.rules.precedence_decides() {
            if let Some(Action::Play { color: Some(c), .. } | Action::DeclareColor { color: c }) =
                self.precedence_move()
            {
                return std::slice::from_ref(&COLORS[c.index()]);
            }
        }
        self.rules.colors()
    }

    /// [`Game::playable`] narrowed to the precedence's card, for the current seat under seed
    /// 000's precedence: the card of its move, or none.
    #[inline]
    pub(super) fn precedence_plays(&self, seat: Seat, by_rules: CardSet) -> CardSet {
        if seat != self.state.current || by_rules.is_empty() {
            return by_rules;
        }
        match self.precedence_move() {
            Some(Action::Play { card, .. }) => CardSet::single(card),
            _ => CardSet::EMPTY,
        }
    }
}
