//! The UNO rules engine: one state machine for every rule set, rules as data.
//!
//! No IO happens here: the CLI and the server are thin shells around this crate.

pub mod card;

pub use card::{Card, Color, Direction, Face, ParseError, Seat};
pub mod csce322;
pub mod notation;
