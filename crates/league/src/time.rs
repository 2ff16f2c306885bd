//! The one clock type of the crate. The crate never reads a clock: the server passes the time
//! it read, so every function here is a function of its arguments and a test can play a month
//! of waiting in a microsecond.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// A moment, in milliseconds since the Unix epoch (the server's wall clock; any fixed origin
/// works, as only differences are used).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Time(u64);

impl Time {
    /// The moment `millis` milliseconds after the origin.
    pub const fn from_millis(millis: u64) -> Time {
        Time(millis)
    }

    /// Milliseconds since the origin.
    pub const fn millis(self) -> u64 {
        self.0
    }

    /// The time from `earlier` to `self`; zero when `earlier` is later (clocks of a cluster's
    /// instances may disagree a little, and a moment of disagreement is no reason to fail).
    pub fn since(self, earlier: Time) -> Duration {
        Duration::from_millis(self.0.saturating_sub(earlier.0))
    }

    /// The moment `after` later than `self` (saturating at the end of time).
    pub fn plus(self, after: Duration) -> Time {
        let ms = u64::try_from(after.as_millis()).unwrap_or(u64::MAX);
        Time(self.0.saturating_add(ms))
    }
}
