//! `precedence`: seed 000's fixed precedence list, played under any rule set.
//!
//! The list is the seed's (`uno::courses::csce322::precedence`, shared with the `.uno` operations), read
//! in the engine's terms: a colour match is a card of the colour in play, a symbol match a card
//! with the top card's face, and only cards the rules accept count.
//!
//! 1. with a draw penalty pending (stacking rules, or a Wild Draw Four to answer), extend it:
//!    the left-most Wild Draw Four, else the left-most Draw Two, that the rules let stack;
//! 2. otherwise the left-most colour match, the left-most Wild Draw Four, the left-most symbol
//!    match, the left-most Wild, in that order;
//! 3. otherwise draw (or take the penalty); after a draw, play the drawn card if allowed.
//!
//! A wild names the seed's marker colour: the colour of the left-most non-wild card left in
//! the hand, or the rules' first colour when only wilds are left. The bot calls UNO for
//! itself, never challenges a Wild Draw Four and never catches anyone. It has no randomness.

use uno::courses::csce322::{marker_colour, precedence};
use uno::game::View;
use uno::{Action, Card, Color, Observation, Phase};

use crate::any_view::AnyViewExt;
use crate::Bot;

#[derive(Clone, Copy, Debug, Default)]
pub struct PrecedenceBot;

impl PrecedenceBot {
    pub fn new() -> PrecedenceBot {
        PrecedenceBot
    }
}

/// The colour a wild played from `hand[played]` names (`usize::MAX`: nothing is played).
fn marker<S: AnyViewExt>(s: &S, hand: &[Card], played: usize) -> Color {
    marker_colour(hand, played).or_else(|| s.wild_colors().first()).unwrap_or(Color::Red)
}

pub(crate) fn decide<S: AnyViewExt>(s: &S, fallback: impl FnOnce() -> Action) -> Action {
    let phase = s.phase();
    if matches!(phase, Phase::RoundOver | Phase::GameOver) {
        return if s.is_legal(Action::NextRound) { Action::NextRound } else { fallback() };
    }
    if s.can_call_own_uno() {
        return Action::CallUno;
    }
    if s.current() != s.seat() {
        return fallback();
    }
    let hand = s.hand();
    match phase {
        // Not in the seed: a same-number run goes on by the same precedence, then passes.
        Phase::Play | Phase::Challenge { .. } | Phase::SameNumber => {
            let answering = s.pending_draw() > 0 || matches!(phase, Phase::Challenge { .. });
            let (top, color) = (s.top(), s.color());
            let colour = |c: Card| color.is_some() && c.color() == color;
            let symbol = |c: Card| !top.is_wild() && !c.is_wild() && c.face_index() == top.face_index();
            let playable = s.playable();
            let allowed = |c: Card| playable.contains(c);
            if let Some((i, _rule)) = precedence(hand, answering, colour, symbol, allowed) {
                let card = hand[i];
                let color = card.is_wild().then(|| marker(s, hand, i));
                return Action::Play { card, color };
            }
            for a in [Action::Accept, Action::Draw, Action::Pass] {
                if s.is_legal(a) {
                    return a;
                }
            }
            fallback()
        }
        Phase::DrawnCard => {
            if let Some(card) = s.drawn_card() {
                if s.playable().contains(card) {
                    let i = hand.iter().rposition(|&c| c == card).unwrap_or(usize::MAX);
                    let color = card.is_wild().then(|| marker(s, hand, i));
                    return Action::Play { card, color };
                }
            }
            if s.is_legal(Action::Pass) {
                Action::Pass
            } else {
                fallback()
            }
        }
        Phase::ChooseColor => Action::DeclareColor { color: marker(s, hand, usize::MAX) },
        // Not in the seed: the 7–0 swap takes the smallest other hand.
        Phase::ChooseSwap => Action::SwapHands { with: s.smallest_other_hand() },
        Phase::RoundOver | Phase::GameOver => fallback(),
    }
}

impl Bot for PrecedenceBot {
    fn name(&self) -> &str {
        "precedence"
    }

    fn choose(&mut self, obs: &Observation) -> Action {
        decide(obs, || obs.legal_actions.first().copied().unwrap_or(Action::Draw))
    }

    fn choose_view(&mut self, view: &View<'_>) -> Action {
        decide(view, || view.legal_actions().first().copied().unwrap_or(Action::Draw))
    }
}
