//! The game's mutable state, in one place: what a position is made of.

use crate::card::{Card, Color, Direction, Seat};
use crate::event::Outcome;
use crate::hand::Hand;
use crate::rules::Rules;

use super::Phase;

/// Everything about a game that changes as it is played; the rules and the generator aside.
#[derive(Clone, Debug)]
pub(crate) struct State {
    pub(crate) players: usize,
    pub(crate) hands: Vec<Hand>,
    /// Bottom card first: the next card drawn is the last.
    pub(crate) draw_pile: Vec<Card>,
    /// Bottom card first: the top card is the last.
    pub(crate) discard: Vec<Card>,
    pub(crate) color: Color,
    pub(crate) current: Seat,
    pub(crate) direction: Direction,
    pub(crate) dealer: Seat,
    pub(crate) phase: Phase,
    /// Cards the current player must draw unless they stack (stacking rules, challenges).
    pub(crate) pending: u32,
    /// The card the current player drew and decides about (`Phase::DrawnCard`).
    pub(crate) drawn: Option<Card>,
    /// Whether the last Wild Draw Four was played while holding the colour in play (hidden).
    pub(crate) wd4_guilty: bool,
    /// Seats that called UNO for their current low hand, one bit per seat. A full word: a load
    /// wider than the last store to a field cannot be forwarded from the store buffer.
    pub(crate) uno_called: u32,
    /// The seat that went down to one card without calling, until the next player acts.
    pub(crate) uno_exposed: Option<Seat>,
    /// Something was drawn or played during the current turn (stalemate detection).
    pub(crate) acted: bool,
    /// Turns in a row in which nobody drew or played.
    pub(crate) dead_turns: usize,
    pub(crate) turns: u32,
    pub(crate) round: u32,
    pub(crate) scores: Vec<u32>,
    pub(crate) round_winner: Option<Seat>,
    pub(crate) outcome: Option<Outcome>,
}

impl State {
    /// Before the first deal: empty hands and piles, nothing played.
    pub(crate) fn empty(rules: &Rules, players: usize) -> State {
        State {
            players,
            hands: vec![Hand::with_capacity(rules.hand_size() * 2); players],
            draw_pile: Vec::with_capacity(rules.deck().len()),
            discard: Vec::with_capacity(rules.deck().len()),
            color: rules.colors()[0],
            current: Seat(0),
            direction: rules.direction(),
            dealer: Seat(0),
            phase: Phase::Play,
            pending: 0,
            drawn: None,
            wd4_guilty: false,
            uno_called: 0,
            uno_exposed: None,
            acted: false,
            dead_turns: 0,
            turns: 0,
            round: 0,
            scores: vec![0; players],
            round_winner: None,
            outcome: None,
        }
    }

    /// Becomes a copy of `other`, reusing this state's buffers (the search loop's form).
    pub(crate) fn copy_from(&mut self, other: &State) {
        self.players = other.players;
        self.hands.resize_with(other.players, Default::default);
        for (hand, from) in self.hands.iter_mut().zip(&other.hands) {
            hand.copy_from(from);
        }
        self.draw_pile.clear();
        self.draw_pile.extend_from_slice(&other.draw_pile);
        self.discard.clear();
        self.discard.extend_from_slice(&other.discard);
        self.color = other.color;
        self.current = other.current;
        self.direction = other.direction;
        self.dealer = other.dealer;
        self.phase = other.phase;
        self.pending = other.pending;
        self.drawn = other.drawn;
        self.wd4_guilty = other.wd4_guilty;
        self.uno_called = other.uno_called;
        self.uno_exposed = other.uno_exposed;
        self.acted = other.acted;
        self.dead_turns = other.dead_turns;
        self.turns = other.turns;
        self.round = other.round;
        self.scores.clear();
        self.scores.extend_from_slice(&other.scores);
        self.round_winner = other.round_winner;
        self.outcome.clone_from(&other.outcome);
    }

    /// Hashes every field, in declaration order.
    pub(super) fn hash_into(&self, h: &mut Fnv) {
        h.u64(self.players as u64);
        for hand in &self.hands {
            h.u64(hand.len() as u64);
            for c in hand {
                h.byte(c.index() as u8);
            }
        }
        for pile in [&self.draw_pile, &self.discard] {
            h.u64(pile.len() as u64);
            for c in pile.iter() {
                h.byte(c.index() as u8);
            }
        }
        h.byte(self.color as u8);
        h.byte(self.current.0);
        h.byte(self.direction as u8);
        h.byte(self.dealer.0);
        let (tag, extra) = match self.phase {
            Phase::Play => (0, 0),
            Phase::DrawnCard => (1, 0),
            Phase::ChooseColor => (2, 0),
            Phase::Challenge { offender } => (3, offender.0),
            Phase::ChooseSwap => (4, 0),
            Phase::RoundOver => (5, 0),
            Phase::GameOver => (6, 0),
            Phase::SameNumber => (7, 0),
        };
        h.byte(tag);
        h.byte(extra);
        h.u64(self.pending as u64);
        h.byte(self.drawn.map_or(255, |c| c.index() as u8));
        h.byte(self.wd4_guilty as u8);
        h.u64(self.uno_called as u64);
        h.byte(self.uno_exposed.map_or(255, |s| s.0));
        h.byte(self.acted as u8);
        h.u64(self.dead_turns as u64);
        h.u64(self.turns as u64);
        h.u64(self.round as u64);
        for s in &self.scores {
            h.u64(*s as u64);
        }
    }
}

/// FNV-1a: tiny, stable, good enough to compare states.
pub(super) struct Fnv(u64);

impl Fnv {
    pub(super) fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    pub(super) fn byte(&mut self, b: u8) {
        self.0 ^= b as u64;
        self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
    }
    pub(super) fn u64(&mut self, v: u64) {
        for b in v.to_le_bytes() {
            self.byte(b);
        }
    }
    pub(super) fn finish(&self) -> u64 {
        self.0
    }
}
