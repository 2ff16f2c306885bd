//! The games the server hosts, each one implementation of `host::Hosted`, and what is each
//! game's own beside it (its views, its records' routes, its analyses).

pub mod duel;
pub mod uno;
