//! The one state machine every rule set runs on.
//!
//! A game starts in one of two ways: [`Game::new`] deals (its twin [`Game::new_fast`] on the
//! simulation generator), and [`Game::from_position`] plays on from a checked
//! [`Position`](crate::Position): one taken from a game, read from JSON or text, or made up for
//! a test or a lesson from a [`Deal`] ([`Deal::into_position`]).
//! [`Game::restart`] and its `_with_events` and `_with_draws` forms deal again in place.
//! `legal_actions` lists what the player to act may do; `apply` validates an
//! action and returns the events it caused, leaving the state untouched when it refuses;
//! `apply_unchecked` skips validation and event building for bots and simulation.
//!
//! # Pile order
//!
//! The crate has one convention, stated here: **every pile is listed bottom card first**. The
//! last card of a draw pile is the next one drawn; the last card of a discard pile is the top
//! card, the card in play. [`Game::draw_pile`], [`Game::discard_pile`], a [`Deal`], a
//! [`Position`](crate::Position) (JSON and text) and an [`Observation`](crate::Observation) all
//! follow it. The course documents' own formats keep the order their documents fix (top card
//! first: seed 000's `.uno` files, seed 002's `Choice`, seed 004's printed status); their
//! modules under [`courses`](crate::courses) convert where they meet the engine.

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::card::{Card, Color, Direction, Seat};
use crate::event::{Event, Mute, Outcome};
use crate::hand::Hand;
use crate::players::PlayerCount;
use crate::rules::{Rules, RulesError};

mod legality;
mod precedence;
mod result;
mod scripted;
mod state;
mod transitions;
mod turn;
mod view;

pub use crate::phase::Phase;
use crate::rng::GameRng;
pub use crate::rng::SimRng;
pub use legality::LegalMoves;
pub use result::{HandResult, RoundResult};
pub(crate) use state::State;
pub use turn::{TurnPolicy, TURN_DECISIONS};
pub use view::{Plays, View};

/// Why a game cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    /// The rules cannot seat or deal this many players.
    #[error(transparent)]
    Rules(#[from] RulesError),
}

/// The few fields of a made-up position, for tests, scenarios and the course layers: hands in
/// seat order, piles bottom card first (the [pile order](self#pile-order)), in the play phase,
/// played with exactly these cards. [`Deal::into_position`] makes it a
/// [`Position`](crate::Position), which [`Game::from_position`] checks and starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    /// Each seat's hand, in seat order.
    pub hands: Vec<Vec<Card>>,
    /// The draw pile, bottom card first: the last card is drawn next.
    pub draw_pile: Vec<Card>,
    /// The discard pile, bottom card first: the last card is the card in play.
    pub discard: Vec<Card>,
    /// The colour in play; defaults to the top card's colour (or the first rule colour).
    pub color: Option<Color>,
    /// The seat to play.
    pub current: Seat,
    /// The direction of play.
    pub direction: Direction,
    /// The seat that dealt (the first-card rules count from it).
    pub dealer: Seat,
}

impl Deal {
    /// A position with `current` to play, going clockwise, dealt by seat 0, the colour in play
    /// that of the top card: the usual start for a test or a scenario.
    pub fn new(hands: Vec<Vec<Card>>, draw_pile: Vec<Card>, discard: Vec<Card>, current: Seat) -> Deal {
        Deal { hands, draw_pile, discard, color: None, current, direction: Direction::Clockwise, dealer: Seat(0) }
    }
}

/// A game: its rules, its generator and its state. Everything that changes as the game is
/// played lives in `State`; the rules are shared and never change.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) rules: Arc<Rules>,
    pub(crate) rng: GameRng,
    /// The seed the generator started from.
    pub(crate) seed: u64,
    pub(crate) state: State,
    /// Draws decided outside the engine (`scripted.rs`), only while such a call runs.
    pub(crate) script: Option<Box<scripted::DrawScript>>,
}

impl Game {
    /// Deals a new game of `players` seats; everything random follows `seed`.
    ///
    /// # Errors
    ///
    /// [`SetupError::Rules`] when the rules refuse `players` seats.
    pub fn new(rules: impl Into<Arc<Rules>>, players: usize, seed: u64) -> Result<Game, SetupError> {
        let rules = rules.into();
        let players = rules.check_players(players)?.get();
        let mut game = Game::empty(rules, players, seed);
        game.start_round(&mut Mute);
        Ok(game)
    }

    /// Like [`Game::new`], but everything random follows [`SimRng`], a small portable
    /// generator several times faster than ChaCha: for simulation and bots' playouts. The same
    /// seed gives the same game on every platform, but not the game `Game::new` deals; records
    /// and the store keep using `Game::new`. Its draw pile has no fixed order: each draw takes
    /// a uniformly random card of it (see `pop_draw`), so `draw_pile()` lists its cards only.
    ///
    /// # Errors
    /// As [`Game::new`].
    pub fn new_fast(rules: impl Into<Arc<Rules>>, players: usize, seed: u64) -> Result<Game, SetupError> {
        let rules = rules.into();
        let players = rules.check_players(players)?.get();
        let mut game = Game::empty(rules, players, seed);
        game.rng = GameRng::Fast(SimRng::seed_from_u64(seed));
        game.start_round(&mut Mute);
        Ok(game)
    }

    /// Deals a new game on the same rules and seats, reusing every buffer: the game
    /// `new` (or `new_fast`, if this game was made by it) deals for `seed`.
    pub fn restart(&mut self, seed: u64) {
        self.reset(seed);
        self.start_round(&mut Mute);
    }

    /// [`Game::restart`], also giving the events of the deal (start card, first turn): what a
    /// front end that shows the deal calls after [`Game::new`], with the same seed.
    pub fn restart_with_events(&mut self, seed: u64, events: &mut Vec<Event>) {
        self.reset(seed);
        self.start_round(events);
    }

    /// Everything of a finished or fresh game put back as before the first deal of `seed`.
    pub(crate) fn reset(&mut self, seed: u64) {
        self.seed = seed;
        self.rng = match self.rng {
            GameRng::Portable(_) => GameRng::Portable(ChaCha8Rng::seed_from_u64(seed)),
            GameRng::Fast(_) => GameRng::Fast(SimRng::seed_from_u64(seed)),
        };
        self.state.scores.iter_mut().for_each(|s| *s = 0);
        self.state.round = 0;
        self.state.outcome = None;
        self.state.wd4_guilty = false;
        self.state.color = self.rules.colors()[0];
    }

    /// What `seat` may see, borrowed: no allocation, for bots on the hot path.
    #[inline]
    pub fn view(&self, seat: Seat) -> View<'_> {
        View { game: self, seat }
    }

    pub(crate) fn empty(rules: Arc<Rules>, players: usize, seed: u64) -> Game {
        Game {
            rng: GameRng::Portable(ChaCha8Rng::seed_from_u64(seed)),
            seed,
            state: State::empty(&rules, players),
            rules,
            script: None,
        }
    }

    // ---- reading the state ----

    /// The rules the game runs on.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The rules, shared: what an observation carries and a new game may reuse.
    pub fn rules_arc(&self) -> &Arc<Rules> {
        &self.rules
    }
    /// The seed the game was dealt from.
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// The number of seats.
    pub fn players(&self) -> usize {
        self.state.players
    }
    /// The number of players as the checked count it was made from.
    pub fn player_count(&self) -> PlayerCount {
        // Every constructor checks the count (`Rules::check_players`, `PlayerCount::new`).
        PlayerCount::new(self.state.players).unwrap_or(PlayerCount::MIN)
    }
    /// Who must decide what now.
    pub fn phase(&self) -> Phase {
        self.state.phase
    }
    /// The seat to act.
    pub fn current(&self) -> Seat {
        self.state.current
    }
    /// The direction of play.
    pub fn direction(&self) -> Direction {
        self.state.direction
    }
    /// The seat that dealt this round.
    pub fn dealer(&self) -> Seat {
        self.state.dealer
    }
    /// The colour in play (the declared colour when the top card is a wild); `None` while a
    /// first-card Wild waits for its colour (phase [`Phase::ChooseColor`]).
    pub fn color(&self) -> Option<Color> {
        (self.state.phase != Phase::ChooseColor).then_some(self.state.color)
    }
    /// The card in play: the top of the discard pile.
    pub fn top(&self) -> Card {
        // Every phase after the deal has a card on the discard pile.
        self.state.discard.last().copied().unwrap_or(Card::WILD)
    }
    /// The cards `seat` holds (none for a seat past the table).
    pub fn hand(&self, seat: Seat) -> &[Card] {
        self.state.hands.get(seat.index()).map(Hand::as_slice).unwrap_or(&[])
    }
    /// Every hand, in seat order.
    pub fn hands(&self) -> &[Hand] {
        &self.state.hands
    }
    /// The draw pile, bottom card first (the next card drawn is the last).
    pub fn draw_pile(&self) -> &[Card] {
        &self.state.draw_pile
    }
    /// The discard pile, bottom card first (the top card is the last).
    pub fn discard_pile(&self) -> &[Card] {
        &self.state.discard
    }
    /// Cards the current player must draw unless they stack.
    pub fn pending_draw(&self) -> u32 {
        self.state.pending
    }
    /// The card the current player just drew, while they decide about it.
    pub fn drawn_card(&self) -> Option<Card> {
        self.state.drawn
    }
    /// Whether `seat` has called UNO for its current hand (false for a seat past the table).
    pub fn uno_called(&self, seat: Seat) -> bool {
        // A seat past the table (or past the mask's 16 bits) has called nothing.
        seat.index() < self.state.players && self.state.uno_called & (1 << seat.0) != 0
    }
    /// The seat that can be caught for not calling UNO, if any.
    pub fn uno_exposed(&self) -> Option<Seat> {
        self.state.uno_exposed
    }
    /// Completed turns this round.
    pub fn turns(&self) -> u32 {
        self.state.turns
    }
    /// The round of the match, from 1.
    pub fn round(&self) -> u32 {
        self.state.round
    }
    /// Each seat's match points so far, in seat order.
    pub fn scores(&self) -> &[u32] {
        &self.state.scores
    }
    /// The seat that won the round just ended, if one did.
    pub fn round_winner(&self) -> Option<Seat> {
        self.state.round_winner
    }
    /// Whether the game (or the match) has ended.
    pub fn is_over(&self) -> bool {
        self.state.phase == Phase::GameOver
    }
    /// Whether the current round has ended (also true once the game is over).
    pub fn is_round_over(&self) -> bool {
        matches!(self.state.phase, Phase::RoundOver | Phase::GameOver)
    }
    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.state.outcome.as_ref()
    }

    /// Every card in the game, wherever it is, sorted: equal to the deck at all times.
    pub fn all_cards(&self) -> Vec<Card> {
        let mut all: Vec<Card> = self.state.hands.iter().flatten().copied().collect();
        all.extend_from_slice(&self.state.draw_pile);
        all.extend_from_slice(&self.state.discard);
        all.sort();
        all
    }

    /// A hash of the whole state (RNG position included), stable across runs and platforms.
    pub fn state_hash(&self) -> u64 {
        let mut h = state::Fnv::new();
        h.u64(self.seed);
        self.state.hash_into(&mut h);
        h.u64(self.rng.position());
        h.finish()
    }
}

// ---- Restoring a sampled state (determinization: see `crate::sample`) ----
impl Game {
    /// A game in the position `state` describes, its randomness on a [`SimRng`] seeded `seed`.
    pub(crate) fn from_state(rules: Arc<Rules>, state: &State, seed: u64) -> Game {
        let mut game = Game::empty(rules, state.players, seed);
        game.load_state(state, seed);
        game
    }

    /// Overwrites this game with `state` (the rules stay), reusing its buffers, its generator
    /// a [`SimRng`] seeded `seed`.
    pub(crate) fn load_state(&mut self, state: &State, seed: u64) {
        self.seed = seed;
        self.rng = GameRng::Fast(SimRng::seed_from_u64(seed));
        self.state.copy_from(state);
    }
}
