//! Playing with strangers, the pure parts: [`rating`]s over finishing places (Weng-Lin with a
//! `β` [`fit`]ted to the project's bot games, decay, provisional marks, the shown number), the
//! bots' published [`bots`] levels, quick-match waves ([`queue`]) and arena tournaments
//! ([`arena`]).
//!
//! Every function takes facts (ratings, places, who is queued, the time) and returns what
//! follows from them; the server stores what comes back and commits it with the game's end.
//! No IO, no clock (the time is an argument), no randomness that is not seeded: so the
//! simulations in `tests/` exercise exactly the code the server runs.

pub mod arena;
pub mod bots;
pub mod fit;
pub mod queue;
pub mod rating;
mod time;

pub use rating::{Finish, Model, Place, Pool, PresetName, RateError, RatedSeat, Rating, Shown, SizeGroup};
pub use time::Time;
