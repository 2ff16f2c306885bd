//! The evaluation lab: whatever measures bots rather than plays. Parallel simulation runs
//! ([`simulate`], with the random-table [`kernel`]), duplicate matches with their intervals
//! ([`play_match`], luck-adjusted with a value network by [`adjust`]), Plackett–Luce [`ratings`], the sequential test ([`Sprt`]) and the
//! move-by-move [`analysis`] of recorded games. The bots themselves are `uno-bots`.

pub mod adjust;
pub mod analysis;
pub mod duplicate;
pub mod kernel;
pub mod moments;
pub mod ratings;
pub mod sim;
pub mod sprt;

pub use duplicate::{play_match, Format, MatchConfig, MatchError, MatchResults};
pub use sim::{simulate, SeatStats, SimConfig, SimError, SimResults};
pub use sprt::{Decision, Sprt, SprtError, SprtReport};
pub use uno_nn::{shipped_value, ValueNet};

/// Decisions after which a round is abandoned as stuck (a bot bug, not a game outcome).
pub(crate) const MAX_DECISIONS: u32 = 100_000;
