//! Duel, the grid game of seed 001: its rules engine, its computer opponents and simulations.
//!
//! Red pieces belong to the user, black pieces to the computer; blocks never move. The grid is
//! 6×6 by default ([`DEFAULT_WIDTH`], [`DEFAULT_HEIGHT`]) and any size from 1 to 26 each way.
//! The crate does no IO.
//!
//! # The game as a state machine
//!
//! [`DuelGame`] holds the grid and the [`Stage`]:
//! `Setup { round: 1 }` (blocks, key `b`) → `Setup { round: 2 }` (red pieces, keys `1`–`6`) →
//! `Setup { round: 3 }` (black pieces) → `Play { round, to_move }` → `End { outcome, reason, .. }`.
//! Everything the user does is an [`Action`], applied through one entry point:
//!
//! ```text
//! DuelGame::new(width: u8, height: u8) -> Result<DuelGame, DuelError>
//! DuelGame::default()                                   // 6x6
//! DuelGame::apply(&mut self, Action) -> Result<Vec<Event>, DuelError>
//!     Action::Place { cell: Coord, key: Key }           // setup: "b", or "1".."6"
//!     Action::NextRound                                 // setup: the next-round button
//!     Action::Move { cell: Coord, key: Key }            // play: "w" | "a" | "s" | "d"
//!     Action::End                                       // play: the user ends the play stage
//! DuelGame::computer_move(&mut self, &mut dyn Bot) -> Result<Vec<Event>, DuelError>
//!                                                       // black's turn, chosen by the bot
//! DuelGame::status(&self) -> Status                     // stage, round, red/black left, outcome
//! DuelGame::stage(&self) -> Stage;  DuelGame::cell(&self, Coord) -> Option<Cell>
//! DuelGame::position(&self) -> &Board                // the grid; Display is its text form
//! ```
//!
//! A refused action returns a [`DuelError`] and changes nothing; its `Display` is exactly the
//! message to show the user (every error condition of the seed has its own variant). In the
//! end stage every action is refused with [`DuelError::GameOver`].
//!
//! After the user's move ([`Action::Move`] in red's turn) the stage is `Play { to_move: Black }`
//! unless the game ended; the server then calls `computer_move` with a bot built from a
//! [`BotKind`] (`BotKind::Search(Difficulty::Hard)` by default) and returns both event lists in
//! one response. `DuelGame`, [`Action`], [`Event`], [`Status`], [`Stage`] and [`DuelError`] are
//! `serde` Serialize/Deserialize, so a game is stored as JSON and resumed as it was; bots hold
//! only caches, so a fresh bot per request plays the same moves.
//!
//! ```
//! use duel::{Action, BotKind, Coord, DuelGame, Stage};
//! let mut g = DuelGame::default();
//! let c = |s: &str| s.parse::<Coord>().expect("cell");
//! g.apply(Action::place(c("c3"), "b")).expect("block");
//! g.apply(Action::NextRound).expect("round 2");
//! g.apply(Action::place(c("a6"), "5")).expect("red 5");
//! assert_eq!(
//!     g.apply(Action::place(c("a6"), "4")).expect_err("occupied").to_string(),
//!     "Cell a6 already holds a red 5; an object on the grid cannot be changed. Nothing changed."
//! );
//! g.apply(Action::NextRound).expect("round 3");
//! g.apply(Action::place(c("a1"), "3")).expect("black 3");
//! g.apply(Action::NextRound).expect("play");
//! g.apply(Action::mv(c("a6"), "w")).expect("red moves up");
//! let mut bot = BotKind::Random.build(7);
//! g.computer_move(bot.as_mut()).expect("black answers");
//! assert!(matches!(g.stage(), Stage::Play { round: 2, .. } | Stage::End { .. }));
//! ```
//!
//! # Rules as implemented
//!
//! * Combat: the attacker wins if its number is greater, or if it is a 1 attacking a 6;
//!   otherwise the attacker is eliminated (so 6 attacking 1 wins, equal numbers lose).
//! * Black must attack when any black piece can move onto a red piece (it picks the pair).
//! * At the start of every turn, if either side has no piece that can move, the play stage
//!   ends. Outcome: red wins with no black piece left, black with no red piece left, else draw.
//!
//! # Search and simulation
//!
//! [`Board`] is the compact form (one byte per cell, Zobrist hash, make/unmake); [`Bot`] is
//! the opponent trait with [`RandomBot`], [`GreedyBot`] and [`SearchBot`]; [`random_setup`]
//! draws legal setups and [`sim`] plays bot against bot.

#![warn(missing_docs, clippy::missing_errors_doc)]

mod board;
mod bot;
mod endgame;
mod error;
mod game;
mod key;
mod opponent;
mod pieces;
mod record;
mod search;
mod setup;
pub mod sim;

pub use board::{Board, Undo};
pub use bot::{Bot, GreedyBot, RandomBot};
pub use error::DuelError;
pub use game::{Action, DuelGame, EndReason, Event, Stage, Status};
pub use key::Key;
pub use opponent::BotKind;
pub use pieces::{
    Cell, Coord, Dir, Move, MoveList, Outcome, Piece, Rank, Side, DEFAULT_HEIGHT, DEFAULT_WIDTH, MAX_DIMENSION,
    MAX_PIECES, RANK_LIMITS,
};
pub use record::{move_action, Actor, GameRecord, LoggedAction, ReplayError};
pub use search::{Difficulty, Limits, SearchBot, SearchInfo, WIN};
pub use setup::{random_setup, SetupMode};
