//! The computer opponents' one small trait, and the two simple ones: `random` and `greedy`
//! (`search` is in its own module; `opponent` names them all).

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::board::{code_rank, Board};
use crate::pieces::{beats, Move};

/// A player that picks a move for the side to move of a position. The returned move is always
/// one of `position.legal_moves` (so black's duty to attack is kept); `None` only when there
/// is no legal move.
pub trait Bot: Send {
    /// How the bot is named in results and logs (`random`, `greedy`, `search:hard`).
    fn name(&self) -> String;
    /// The move for `position`'s side to move.
    fn choose(&mut self, position: &Board) -> Option<Move>;
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
    fn choose(&mut self, position: &Board) -> Option<Move> {
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
    fn choose(&mut self, position: &Board) -> Option<Move> {
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
