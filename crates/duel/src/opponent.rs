//! The computer opponents by name (`random`, `greedy`, `search:hard`…), for the command line,
//! the server and the simulator: the one place that knows every kind of bot.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::bot::{Bot, GreedyBot, RandomBot};
use crate::search::{Difficulty, Limits, SearchBot};

/// Names a bot for the command line and the server: `random`, `greedy`, `search` (default
/// difficulty) or `search:easy|medium|hard|expert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BotKind {
    /// [`RandomBot`].
    Random,
    /// [`GreedyBot`].
    Greedy,
    /// [`SearchBot`] at a difficulty.
    Search(Difficulty),
}

impl BotKind {
    /// Builds the bot; `seed` fixes every random choice it makes.
    pub fn build(self, seed: u64) -> Box<dyn Bot> {
        match self {
            BotKind::Random => Box::new(RandomBot::new(seed)),
            BotKind::Greedy => Box::new(GreedyBot::new(seed)),
            BotKind::Search(d) => Box::new(SearchBot::new(d)),
        }
    }

    /// Like `build`, but a search bot has no time cap, only its node budget: its moves then
    /// depend on nothing but the position, however loaded the machine is (simulations).
    pub fn build_deterministic(self, seed: u64) -> Box<dyn Bot> {
        match self {
            BotKind::Search(d) => {
                Box::new(SearchBot::with_limits(d, Limits { time: std::time::Duration::MAX, ..d.limits() }))
            }
            other => other.build(seed),
        }
    }
}

impl fmt::Display for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotKind::Random => f.write_str("random"),
            BotKind::Greedy => f.write_str("greedy"),
            BotKind::Search(d) => write!(f, "search:{d}"),
        }
    }
}

impl FromStr for BotKind {
    type Err = String;
    fn from_str(s: &str) -> Result<BotKind, String> {
        match s {
            "random" => Ok(BotKind::Random),
            "greedy" => Ok(BotKind::Greedy),
            "search" => Ok(BotKind::Search(Difficulty::default())),
            other => match other.strip_prefix("search:") {
                Some(d) => d.parse().map(BotKind::Search),
                None => {
                    Err(format!("unknown bot {other:?}: use random, greedy, search or search:easy|medium|hard|expert"))
                }
            },
        }
    }
}
