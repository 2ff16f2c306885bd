//! What one seat sees of a game, borrowed.

use crate::action::Action;
use crate::card::{Card, Color, Direction, Seat};
use crate::hand::{CardSet, Hand};
use crate::observation::Observation;
use crate::rules::Rules;

use super::{Game, Phase};

/// The distinct cards a seat may play, in hand order, held inline (at most one per card kind).
#[derive(Clone, Copy)]
pub struct Plays {
    cards: [Card; Card::KINDS],
    len: u8,
}

impl Default for Plays {
    fn default() -> Plays {
        Plays { cards: [Card::WILD; Card::KINDS], len: 0 }
    }
}

impl Plays {
    #[inline]
    pub(super) fn push(&mut self, card: Card) {
        if (self.len as usize) < Card::KINDS {
            self.cards[self.len as usize] = card;
            self.len += 1;
        }
    }
    /// The cards, in order.
    #[inline]
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
}

impl std::ops::Deref for Plays {
    type Target = [Card];
    fn deref(&self) -> &[Card] {
        self.as_slice()
    }
}

impl std::fmt::Debug for Plays {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// One seat's view of a game, borrowed from it: the seat's own hand and everything public,
/// nothing else. It is what an [`Observation`](crate::Observation) holds, without the copies,
/// so a bot can decide every turn without allocating.
#[derive(Clone, Copy)]
pub struct View<'a> {
    pub(super) game: &'a Game,
    pub(super) seat: Seat,
}

impl<'a> View<'a> {
    /// The seat this view belongs to.
    pub fn seat(&self) -> Seat {
        self.seat
    }
    /// The rules the game runs on.
    pub fn rules(&self) -> &'a Rules {
        &self.game.rules
    }
    /// The number of seats.
    pub fn players(&self) -> usize {
        self.game.state.players
    }
    /// This seat's own hand.
    pub fn hand(&self) -> &'a [Card] {
        self.game.hand(self.seat)
    }
    /// How many copies of each kind this seat's hand holds, by [`Card::index`].
    pub fn hand_counts(&self) -> &'a [u8; Card::KINDS] {
        const NONE: [u8; Card::KINDS] = [0; Card::KINDS];
        self.game.hands().get(self.seat.index()).map_or(&NONE, Hand::counts)
    }
    /// How many cards `seat` holds (public; 0 past the table).
    pub fn hand_size(&self, seat: Seat) -> usize {
        self.game.hands().get(seat.index()).map_or(0, Hand::len)
    }
    /// The card in play.
    pub fn top(&self) -> Card {
        self.game.top()
    }
    /// The colour in play (the declared colour when the top card is a wild); `None` while a
    /// first-card Wild waits for its colour.
    pub fn color(&self) -> Option<Color> {
        self.game.color()
    }
    /// The seat to act.
    pub fn current(&self) -> Seat {
        self.game.state.current
    }
    /// Whether this seat is the one to act.
    pub fn is_my_turn(&self) -> bool {
        self.game.state.current == self.seat
    }
    /// The direction of play.
    pub fn direction(&self) -> Direction {
        self.game.state.direction
    }
    /// The seat that dealt this round.
    pub fn dealer(&self) -> Seat {
        self.game.state.dealer
    }
    /// Who must decide what now.
    pub fn phase(&self) -> Phase {
        self.game.state.phase
    }
    /// Cards a stacked penalty makes the seat to act draw, if it does not stack on it.
    pub fn pending_draw(&self) -> u32 {
        self.game.state.pending
    }
    /// The card this seat just drew, while it decides about it.
    pub fn drawn_card(&self) -> Option<Card> {
        self.game.state.drawn.filter(|_| self.is_my_turn())
    }
    /// The discard pile, bottom card first: it is face up.
    pub fn discard_pile(&self) -> &'a [Card] {
        &self.game.state.discard
    }
    /// Cards left in the draw pile.
    pub fn draw_pile_size(&self) -> usize {
        self.game.state.draw_pile.len()
    }
    /// Whether `seat` has called UNO for its current hand.
    pub fn uno_called(&self, seat: Seat) -> bool {
        self.game.uno_called(seat)
    }
    /// The seat that can be caught for not calling UNO, if any.
    pub fn uno_exposed(&self) -> Option<Seat> {
        self.game.state.uno_exposed
    }
    /// Completed turns this round.
    pub fn turns(&self) -> u32 {
        self.game.state.turns
    }
    /// The round of the match, from 1.
    pub fn round(&self) -> u32 {
        self.game.state.round
    }
    /// Each seat's match points so far.
    pub fn scores(&self) -> &'a [u32] {
        &self.game.state.scores
    }
    /// The distinct cards this seat may play now, in hand order ([`View::playable`] in the
    /// hand's order).
    #[inline]
    pub fn plays(&self) -> Plays {
        self.game.plays_for(self.seat)
    }
    /// The kinds this seat may play now: [`Game::playable`] for this seat.
    #[inline]
    pub fn playable(&self) -> CardSet {
        self.game.playable(self.seat)
    }
    /// The colours this seat may name now for a wild: [`Game::colors_to_name`].
    #[inline]
    pub fn colors_to_name(&self) -> &'a [Color] {
        self.game.colors_to_name(self.seat)
    }
    /// Whether this seat may take `action` now.
    pub fn is_legal(&self, action: Action) -> bool {
        self.game.check(self.seat, action).is_ok()
    }
    /// What this seat may do now (allocates; see `legal_actions_into`).
    pub fn legal_actions(&self) -> Vec<Action> {
        self.game.legal_actions_for(self.seat)
    }
    /// What this seat may do now, into `out` (cleared first), without allocating.
    pub fn legal_actions_into(&self, out: &mut Vec<Action>) {
        self.game.legal_actions_into(self.seat, out);
    }
    /// Whether this seat may call UNO for itself now (two cards or fewer on its turn, or
    /// exposed with one), the call being neither repeated nor false.
    #[inline]
    pub fn can_call_own_uno(&self) -> bool {
        self.game.state.phase != Phase::RoundOver
            && self.game.state.phase != Phase::GameOver
            && self.game.own_uno(self.seat).is_ok()
    }
    /// The owned observation of the same seat (allocates).
    pub fn observation(&self) -> crate::Observation {
        self.game.observation(Some(self.seat))
    }
}

impl Game {
    /// The game as `viewer` sees it (`None`: a spectator).
    pub fn observation(&self, viewer: Option<Seat>) -> Observation {
        let seat = viewer.filter(|s| s.index() < self.players());
        let players = self.players();
        Observation {
            rules: self.rules_arc().clone(),
            viewer: seat,
            players,
            hand: seat.map(|s| self.hand(s).to_vec()).unwrap_or_default(),
            hand_sizes: self.hands().iter().map(|h| h.len()).collect(),
            uno_called: (0..players).map(|s| self.uno_called(Seat(s as u8))).collect(),
            uno_exposed: self.uno_exposed(),
            top: self.top(),
            color: self.color(),
            discard: self.discard_pile().to_vec(),
            draw_pile_size: self.draw_pile().len(),
            current: self.current(),
            direction: self.direction(),
            dealer: self.dealer(),
            phase: self.phase(),
            pending_draw: self.pending_draw(),
            drawn_card: self.drawn_card().filter(|_| seat == Some(self.current())),
            turns: self.turns(),
            round: self.round(),
            scores: self.scores().to_vec(),
            legal_actions: seat.map(|s| self.legal_actions_for(s)).unwrap_or_default(),
            outcome: self.outcome().cloned(),
        }
    }
}
