//! A whole turn in one call: the engine's own transitions, driven by a policy's answers to the
//! turn's few questions instead of one [`Action`] value per decision.
//!
//! A simulation spends most of its time in turns of one shape: perhaps an UNO call, then a
//! card or a draw, then perhaps an UNO call and the drawn card. Through the general protocol
//! each of those is a decision of its own: a [`View`], an `Action` built, matched and
//! dispatched, the phase and the legality asked again. [`Game::play_turn`] asks the policy the
//! questions directly and runs the same transitions (`play`, `draw`, the pass, the UNO call)
//! that [`Game::apply_unchecked`] runs for those actions, so it is the same game, seed for seed,
//! with the protocol's cost taken out. Every other decision (a colour for a first-card wild, a
//! challenge, a swap, a run of numbers, seed 000's precedence) goes through
//! [`TurnPolicy::decide`] and `apply_unchecked`, one at a time.

use crate::action::Action;
use crate::card::{Card, Color, Seat};
use crate::effect::may_call_uno;
use crate::event::Mute;
use crate::hand::CardSet;
use crate::rules::UnoCall;

use super::{Game, Phase, View};

/// The most decisions one [`Game::play_turn`] takes: a loop with a cap on decisions fuses a
/// turn only while this many more stay within it, so it stops where the one-by-one loop stops.
pub const TURN_DECISIONS: u32 = 5;

/// A policy that answers a turn's questions one by one ([`Game::play_turn`]).
///
/// The contract that makes a fused turn the same game as the decisions taken one by one: asked
/// in the state `decide` would see, `call_uno` answers `true` exactly when `decide` would call
/// UNO, `catch_uno` when it would catch (asked after the call, as `decide` answers in that
/// order), `pick` picks the card `decide` would play (or `None` where it would draw or pass), and
/// `color` the colour it would name with it, each drawing the policy's random numbers in the
/// order `decide` draws them.
pub trait TurnPolicy {
    /// The action for a decision the fused turn does not ask for itself: the general
    /// protocol ([`crate::game::View`] in, a legal [`Action`] out).
    fn decide(&mut self, view: &View<'_>) -> Action;
    /// Whether the seat calls UNO for itself now. Asked only when that call is its own and
    /// legal ([`View::can_call_own_uno`]).
    fn call_uno(&mut self, view: &View<'_>) -> bool;
    /// Whether the seat, on its turn and before its card, catches `victim` for not calling
    /// UNO. Asked only when the catch is legal.
    fn catch_uno(&mut self, view: &View<'_>, victim: Seat) -> bool;
    /// The card to play among `playable` (never empty: the kinds [`Game::playable`] allows),
    /// or `None` to draw (in the `Play` phase) or keep the drawn card (after a draw).
    fn pick(&mut self, view: &View<'_>, playable: CardSet) -> Option<Card>;
    /// The colour a wild the policy just picked names, one of [`View::colors_to_name`].
    fn color(&mut self, view: &View<'_>, card: Card) -> Color;
}

impl Game {
    /// Plays the current seat's next decisions with `policy`: from the `Play` phase the whole
    /// turn (UNO call, a catch, card or draw, UNO call, the drawn card), otherwise one decision
    /// through [`TurnPolicy::decide`]. Returns how many decisions that was (1 to [`TURN_DECISIONS`]), the count
    /// [`Game::apply_unchecked`] would have been called.
    ///
    /// The contract: for a policy that keeps [`TurnPolicy`]'s, the game after `play_turn` is
    /// the game after those decisions taken one by one (`decide`, then `apply_unchecked`),
    /// every field and generator alike; no events are built. `uno-bots`' `tests/turn.rs` plays
    /// every preset and house rule both ways and compares the states after every turn.
    pub fn play_turn<P: TurnPolicy>(&mut self, policy: &mut P) -> u32 {
        let seat = self.state.current;
        if self.state.phase != Phase::Play || self.rules.precedence_decides() {
            let action = policy.decide(&self.view(seat));
            self.step(seat, action, &mut Mute);
            return 1;
        }
        let mut decisions = 1 + self.ask_uno(seat, policy) + self.ask_catch(seat, policy);
        let held = self.state.hands[seat.index()].kinds();
        if let Some(card) = self.ask_card(seat, held, policy) {
            let color = card.is_wild().then(|| policy.color(&self.view(seat), card));
            self.play(seat, card, color, &mut Mute);
            return decisions;
        }
        self.draw(&mut Mute);
        let (Phase::DrawnCard, Some(drawn)) = (self.state.phase, self.state.drawn) else {
            return decisions;
        };
        decisions += 1 + self.ask_uno(seat, policy);
        match self.ask_card(seat, CardSet::single(drawn), policy) {
            Some(card) => {
                let color = card.is_wild().then(|| policy.color(&self.view(seat), card));
                self.play(seat, card, color, &mut Mute);
            }
            None => self.pass(seat, &mut Mute),
        }
        decisions
    }

    /// Asks `policy` whether `seat` calls UNO, when it may; applies the call. Returns the
    /// decisions it took (0 or 1).
    #[inline]
    fn ask_uno<P: TurnPolicy>(&mut self, seat: Seat, policy: &mut P) -> u32 {
        // No branch on the answer where the policy's is known (the random bot always calls).
        let call = self.may_call_on_turn(seat) && policy.call_uno(&self.view(seat));
        self.call_own_uno(seat, call);
        u32::from(call)
    }

    /// Asks `policy` whether `seat` catches the seat exposed without its UNO call, when it may;
    /// applies the catch. Returns the decisions it took (0 or 1).
    #[inline]
    fn ask_catch<P: TurnPolicy>(&mut self, seat: Seat, policy: &mut P) -> u32 {
        let Some(victim) = self.state.uno_exposed.filter(|&v| v != seat) else {
            return 0;
        };
        let catch = Action::CatchUno { seat: victim };
        if self.check(seat, catch).is_err() || !policy.catch_uno(&self.view(seat), victim) {
            return 0;
        }
        self.step(seat, catch, &mut Mute);
        1
    }

    /// Whether the seat to move may call UNO for itself, on its turn in the `Play` or
    /// `DrawnCard` phase: [`Game::own_uno`] told what the fused turn knows (the seat is at the
    /// table, it is its own turn), so it asks only what can change.
    #[inline]
    fn may_call_on_turn(&self, seat: Seat) -> bool {
        let may = self.rules.uno_call() != UnoCall::Off
            && may_call_uno(
                self.state.uno_called & (1 << seat.0) != 0,
                true,
                self.state.hands[seat.index()].len(),
                self.state.uno_exposed == Some(seat),
            );
        debug_assert_eq!(may, self.own_uno(seat).is_ok(), "the fused turn's UNO call is the rule book's");
        may
    }

    /// The card `policy` plays now, among `held` (the hand's kinds in the `Play` phase, the
    /// drawn card after a draw), if one may go and the policy plays it. The seat is the
    /// current one, on its turn: the rule is [`Game::playable_by_rules`]' for that phase.
    #[inline]
    fn ask_card<P: TurnPolicy>(&self, seat: Seat, held: CardSet, policy: &mut P) -> Option<Card> {
        let playable = self.playable_among(seat, held);
        debug_assert_eq!(playable, self.playable_by_rules(seat), "the fused turn's plays are the rule book's");
        if playable.is_empty() {
            return None;
        }
        policy.pick(&self.view(seat), playable)
    }
}
