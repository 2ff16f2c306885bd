//! The UNO rules engine: one state machine for every rule set, rules as data.
//!
//! No IO happens here: the CLI and the server are thin shells around this crate.
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

pub mod action;
pub mod card;
pub mod effect;
pub mod event;
pub mod game;
pub mod hand;
pub mod house;
pub mod observation;
pub mod position;
pub mod record;
mod rng;
pub mod rules;

pub use action::{Action, ActionParseError, IllegalAction};
pub use card::{Card, Color, Direction, Face, ParseError, Seat};
pub use effect::{next_seat, CardEffect, FirstEffect};
pub use event::{DrawReason, EndReason, Event, Outcome};
pub use game::{Deal, Game, Phase, SetupError};
pub use hand::{CardSet, Hand};
pub use house::HouseRules;
pub use observation::Observation;
pub use position::{Position, PositionError, RngState};
pub use record::{GameRecord, Move, ReplayError, ENGINE_VERSION};
pub use rules::{Rules, RulesConfig, RulesError, PRESET_NAMES};
pub mod sample;
pub mod seeds;

/// The Rust examples of `docs/positions.md`, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/positions.md")]
pub struct PositionsDoc;
