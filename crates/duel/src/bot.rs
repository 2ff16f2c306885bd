//! The computer opponents behind one small trait: `random`, `greedy` and `search`.

use std::fmt;
use std::str::FromStr;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::board::{beats, code_rank, Move, Position};
use crate::search::{Difficulty, SearchBot};

/// A player that picks a move for the side to move of a position. The returned move is always
/// one of `position.legal_moves` (so black's duty to attack is kept); `None` only when there
/// is no legal move.
pub trait Bot: Send {
    /// How the bot is named in results and logs (`random`, `greedy`, `search:hard`).
    fn name(&self) -> String;
    /// The move for `position`'s side to move.
    fn choose(&mut self, position: &Position) -> Option<Move>;
}

/// Uniformly random legal moves.
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A bot whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> String {
        "random".to_string()
    }
    fn choose(&mut self, position: &Position) -> Option<Move> {
        position.legal_moves_vec().choose(&mut self.rng).copied()
    }
}

/// The best immediate capture (the highest enemy rank it wins against, with the lowest own
/// rank that does it), otherwise a random legal move. When every legal move is a losing attack
/// (black forced to attack) it gives up its lowest piece.
pub struct GreedyBot {
    rng: ChaCha8Rng,
}

impl GreedyBot {
    /// A bot whose tie-breaks and random moves are fixed by `seed`.
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Bot for GreedyBot {
    fn name(&self) -> String {
        "greedy".to_string()
    }
    fn choose(&mut self, position: &Position) -> Option<Move> {
        let moves = position.legal_moves_vec();
        let capture_value = |m: &Move| {
            let a = code_rank(position.code(usize::from(m.from)));
            let d = code_rank(position.code(usize::from(m.to)));
            (beats(a, d), d, std::cmp::Reverse(a))
        };
        let wins: Vec<Move> = moves.iter().copied().filter(|m| position.is_capture(*m) && capture_value(m).0).collect();
        if let Some(best) = wins.iter().map(capture_value).max() {
            let top: Vec<Move> = wins.into_iter().filter(|m| capture_value(m) == best).collect();
            return top.choose(&mut self.rng).copied();
        }
        if !moves.is_empty() && moves.iter().all(|m| position.is_capture(*m)) {
            // Only losing attacks are left: lose the cheapest piece.
            return moves.iter().copied().min_by_key(|m| code_rank(position.code(usize::from(m.from))));
        }
        moves.choose(&mut self.rng).copied()
    }
}

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
            BotKind::Search(d) => Box::new(SearchBot::with_limits(
                d,
                crate::search::Limits { time: std::time::Duration::MAX, ..d.limits() },
            )),
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
