//! The bots' published ratings: fixed numbers on the people's scale, so a person can see where
//! they stand ("between `heuristic` and `net`") and a quick-match table can be filled with bots
//! of a level near its people.
//!
//! Measured, not chosen: each is the mean the rating code itself reaches for that bot over the
//! stored 4-seat rounds between the four bots (`tests/data/bot-rounds.txt`, one league of every
//! round in order, the fitted model), so a person who plays like a bot settles where the bot is.
//! `tests/fit.rs` measures them again and fails if these drift. They are measured on the
//! `official` rules at 4 seats and stand for every pool until each is measured on its own.

use serde::{Serialize, Serializer};

use crate::rating::Rating;

/// A bot's name, as the engine's bot list spells it (`heuristic`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BotName(&'static str);

impl BotName {
    pub const fn as_str(self) -> &'static str {
        self.0
    }
}

impl Serialize for BotName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

/// A bot and its fixed rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BotLevel {
    pub name: BotName,
    pub rating: Rating,
}

/// The published levels, weakest first (shown as 1474, 1501, 1509 and 1517).
pub const BOT_LEVELS: [BotLevel; 4] = [
    BotLevel { name: BotName("random"), rating: Rating::fixed(17.107, 1.868) },
    BotLevel { name: BotName("precedence"), rating: Rating::fixed(25.235, 1.862) },
    BotLevel { name: BotName("heuristic"), rating: Rating::fixed(27.629, 1.863) },
    BotLevel { name: BotName("net"), rating: Rating::fixed(30.021, 1.865) },
];

/// The bot whose level is nearest to `mean` (the stronger of two equally near).
pub fn nearest(mean: f64) -> &'static BotLevel {
    let mut best = &BOT_LEVELS[0];
    for level in &BOT_LEVELS {
        if (level.rating.mean() - mean).abs() <= (best.rating.mean() - mean).abs() {
            best = level;
        }
    }
    best
}
