//! The UNO rules engine: one state machine for every rule set, rules as data.
//!
//! No IO happens here: the CLI, the server and the Python package are thin shells around this
//! crate, and the bots play through it. Everything random follows a seed, with generators that
//! deal the same game on every platform.
//!
//! ```
//! use uno::{Game, Rules, Seat};
//! let rules = Rules::preset("official").expect("a shipped preset");
//! let mut game = Game::new(rules, 4, 42).expect("4 players fit");
//! while !game.is_round_over() {
//!     let seat = game.current();
//!     let action = game.legal_actions()[0];
//!     game.apply(seat, action).expect("a listed action is legal");
//! }
//! assert!(game.outcome().is_some() || game.round_winner().is_some());
//! ```
//!
//! # The vocabulary
//!
//! Each module holds one idea; the types most callers need are also at the crate root.
//!
//! * **Cards** ([`card`], [`hand`]): a [`Card`] is a [`Face`] with a [`Color`] (none for the
//!   wilds) and a short text form (`R7`, `BS`, `W4`); a [`Seat`] numbers the players from 0
//!   and a [`Direction`] says which way play goes. A [`Hand`] keeps its cards in the order they
//!   arrived; a [`CardSet`] is a set of card kinds, which makes matching one mask operation.
//! * **Rules** ([`rules`], [`effect`]): a [`RulesConfig`] (what a TOML or JSON file says) is
//!   validated once into [`Rules`] (what a game runs on); [`Rules::preset`] loads the shipped
//!   rule sets named in [`PRESET_NAMES`]. From the rules, [`CardEffect`] says what each card
//!   kind does and [`next_seat`] how the turn moves on.
//! * **Playing** ([`game`], [`action`], [`event`]): [`Game::new`] deals (or [`Game::from_position`]
//!   starts from a [`Position`], for instance a [`Deal`] of given hands); the [`Phase`] says who must decide what;
//!   [`Game::legal_actions`] lists the [`Action`]s the player to act may take, and
//!   [`Game::apply`] takes one, returning the [`Event`]s it caused, or refuses it with an
//!   [`IllegalAction`] and changes nothing. A finished game has an [`Outcome`].
//! * **Observations** ([`observation`]): an [`Observation`] is what one seat (or a spectator)
//!   may know, and all a bot or a client ever receives; [`Game::view`] gives the same as a
//!   borrowed [`View`](game::View), which allocates nothing, for bots deciding every turn.
//! * **Positions** ([`position`]): a [`Position`] is a whole game state written down, hidden
//!   parts and the generator included; [`Game::position`] takes one and
//!   [`Game::from_position`] checks one against a rule set and plays on from it.
//! * **Records** ([`record`]): a [`GameRecord`] (engine version, rules, seed, players and every
//!   [`Move`]) rebuilds its game exactly with [`GameRecord::replay`]; a record names the
//!   [`ENGINE_VERSION`] that made it, since another version may not replay it the same.
//! * **Courses** ([`courses`]): the interfaces the course documents ask for (the project's
//!   "seeds" 000–004), each a thin layer over [`Game`] or beside it, in its document's words.
//!   ("Seed" in code means a generator's seed.)
//! * **Sampling** ([`sample`]): a [`Sampler`](sample::Sampler) deals the cards an observer
//!   cannot see, consistently with its [`Observation`], for search bots;
//!   [`Observation::sample_world`] deals one such game. Simulation draws from the fast
//!   [`SimRng`](game::SimRng) ([`Game::new_fast`]) instead of the generator records replay.

#![warn(missing_docs, clippy::missing_errors_doc)]

pub mod action;
pub mod card;
pub mod event;
pub mod game;
pub mod hand;
pub mod house;
pub mod observation;
mod phase;
pub mod players;
pub mod position;
pub mod record;
mod rng;
pub mod rules;
pub use rules::effect;
pub mod courses;
pub mod sample;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod wide;

#[doc(inline)]
pub use action::{Action, ActionParseError, IllegalAction};
#[doc(inline)]
pub use card::{Card, Color, Direction, Face, ParseError, Seat};
#[doc(inline)]
pub use effect::{next_seat, CardEffect, FirstEffect, NumberEffect, StackedBy};
#[doc(inline)]
pub use event::{DrawReason, EndReason, Event, Outcome};
#[doc(inline)]
pub use game::{Deal, Game, HandResult, Phase, RoundResult, SetupError, TurnPolicy, TURN_DECISIONS};
#[doc(inline)]
pub use hand::{CardSet, Hand};
#[doc(inline)]
pub use house::HouseRules;
#[doc(inline)]
pub use observation::Observation;
#[doc(inline)]
pub use players::{PlayerCount, PlayerCountError};
#[doc(inline)]
pub use position::{Position, PositionError, RngState};
#[doc(inline)]
pub use record::{GameRecord, Move, ReplayError, ENGINE_VERSION};
#[doc(inline)]
pub use rules::{Rules, RulesConfig, RulesError, PRESET_NAMES};

/// The Rust examples of `docs/positions.md`, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/positions.md")]
pub struct PositionsDoc;
