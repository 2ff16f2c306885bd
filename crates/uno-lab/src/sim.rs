//! The simulation runner: many independent rounds, spread over threads, with results that do
//! not depend on the thread count.
//!
//! Game `g` of a run seeded `s` is dealt from [`seeding::sim_game_seed`]`(s, g)` and each bot is reseeded
//! from it, so every game is the same whichever thread plays it and in whatever order;
//! totals are integer sums, so the reduction order does not matter either.

use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;
use uno::{Game, Rules, RulesError, Seat, SetupError, TURN_DECISIONS};

use crate::kernel::{RandomKernel, Round};
use crate::MAX_DECISIONS;
use uno_bots::{make_bot, Bot, BotSpecError, RandomBot};

/// Games handed to a thread at a time: large enough to amortise the set-up, small enough to
/// balance two threads and to move a progress bar.
const BLOCK: u64 = 2048;

#[derive(Clone, Debug)]
pub struct SimConfig {
    pub rules: Arc<Rules>,
    pub players: usize,
    /// One bot name per seat.
    pub bots: Vec<String>,
    pub games: u64,
    pub seed: u64,
    /// Worker threads; 0: all cores.
    pub threads: usize,
    /// Validate every action with `Game::check` (then apply it) instead of trusting the bots.
    pub checked: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SeatStats {
    pub bot: String,
    pub wins: u64,
    /// Points this seat won, summed over the games.
    pub points: u64,
    /// Turns this seat completed, summed over the games.
    pub turns: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SimResults {
    pub rules: String,
    pub players: usize,
    pub games: u64,
    /// A decimal string in JSON, as every 64-bit seed the project writes.
    #[serde(with = "uno::wide")]
    pub seed: u64,
    pub seats: Vec<SeatStats>,
    /// Games that ended without a winner (stalemate, turn cap).
    pub no_winner: u64,
    /// Turns completed over all games (`Game::turns` at the end of each round).
    pub turns: u64,
    /// Decisions taken (UNO calls and colour choices included).
    pub decisions: u64,
    /// Actions a bot chose that the engine refused (only counted with `checked`).
    pub illegal: u64,
    /// Rounds abandoned after too many decisions.
    pub stuck: u64,
}

impl SimResults {
    pub fn turns_per_game(&self) -> f64 {
        self.turns as f64 / self.games.max(1) as f64
    }
    pub fn win_rate(&self, seat: usize) -> f64 {
        self.seats[seat].wins as f64 / self.games.max(1) as f64
    }
    /// The 95% Wilson score interval of a seat's win rate.
    pub fn win_rate_ci(&self, seat: usize) -> (f64, f64) {
        wilson(self.seats[seat].wins as f64, self.games)
    }

    /// Adds one round the kernel played.
    fn add_round(&mut self, round: &Round) {
        self.games += 1;
        self.decisions += round.decisions as u64;
        self.turns += round.turns as u64;
        self.stuck += round.stuck as u64;
        for (seat, turns) in self.seats.iter_mut().zip(round.seat_turns) {
            seat.turns += turns as u64;
        }
        match round.winner {
            Some(w) => {
                let s = &mut self.seats[w];
                s.wins += 1;
                s.points += round.points as u64;
            }
            None => self.no_winner += 1,
        }
    }

    fn merge(mut self, other: SimResults) -> SimResults {
        if self.seats.is_empty() {
            return other;
        }
        for (a, b) in self.seats.iter_mut().zip(other.seats) {
            a.wins += b.wins;
            a.points += b.points;
            a.turns += b.turns;
        }
        self.games += other.games;
        self.no_winner += other.no_winner;
        self.turns += other.turns;
        self.decisions += other.decisions;
        self.illegal += other.illegal;
        self.stuck += other.stuck;
        self
    }
}

/// The Wilson score interval at 95% for `successes` out of `n` trials (a draw may count ½):
/// unlike the normal approximation it stays within 0..1 and is honest for a handful of games.
pub fn wilson(successes: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = n as f64;
    let p = (successes / n).clamp(0.0, 1.0);
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error(transparent)]
    Bot(#[from] BotSpecError),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error("{bots} bot names for {players} seats: give one per seat")]
    BotCount { bots: usize, players: usize },
    #[error("cannot start the thread pool: {0}")]
    Threads(String),
}

/// Plays `config.games` rounds and totals them. `progress` is called from the worker threads
/// with the number of games just finished.
pub fn simulate(config: &SimConfig, progress: &(dyn Fn(u64) + Sync)) -> Result<SimResults, SimError> {
    if config.bots.len() != config.players {
        return Err(SimError::BotCount { bots: config.bots.len(), players: config.players });
    }
    config.rules.check_players(config.players)?;
    for name in &config.bots {
        make_bot(name, 0)?;
    }
    let blocks = config.games.div_ceil(BLOCK);
    let run = || {
        (0..blocks)
            .into_par_iter()
            .map(|b| {
                let start = b * BLOCK;
                let end = (start + BLOCK).min(config.games);
                let r = run_block(config, start..end);
                progress(end - start);
                r
            })
            .reduce(SimResults::default, SimResults::merge)
    };
    let threads = if config.threads == 0 { num_cpus() } else { config.threads };
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| SimError::Threads(e.to_string()))?;
    let mut results = pool.install(run);
    if results.seats.is_empty() {
        results.seats = config.bots.iter().map(|b| SeatStats { bot: b.clone(), ..SeatStats::default() }).collect();
    }
    results.rules = config.rules.name().to_string();
    results.players = config.players;
    results.seed = config.seed;
    Ok(results)
}

fn num_cpus() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// Plays the games `range` on one thread, reusing one game and one set of bots.
fn run_block(config: &SimConfig, range: std::ops::Range<u64>) -> SimResults {
    let players = config.players;
    let mut out = SimResults {
        seats: config.bots.iter().map(|b| SeatStats { bot: b.clone(), ..SeatStats::default() }).collect(),
        ..SimResults::default()
    };
    let all_random = config.bots.iter().all(|b| b == "random");
    // All-`random` tables (the speed benchmark) play on the kernel, which plays the same
    // games on a state of its own (see `kernel`); `checked` runs go through the engine.
    if all_random && !config.checked {
        if let Some(mut kernel) = RandomKernel::new(&config.rules, players) {
            for g in range {
                out.add_round(&kernel.play(seeding::sim_game_seed(config.seed, g)));
            }
            return out;
        }
    }
    // Other all-`random` tables get a loop compiled for that bot alone, so its decisions
    // inline into the game loop instead of going through a vtable.
    if all_random {
        let mut bots: Vec<RandomBot> = (0..players).map(|_| RandomBot::new(0)).collect();
        play_block(config, range, &mut bots, &mut out);
    } else {
        // The names were checked by `simulate`.
        let mut bots: Vec<Box<dyn Bot>> = config.bots.iter().filter_map(|n| make_bot(n, 0).ok()).collect();
        play_block(config, range, &mut bots, &mut out);
    }
    out
}

fn play_block<B: Bot>(config: &SimConfig, range: std::ops::Range<u64>, bots: &mut [B], out: &mut SimResults) {
    let players = config.players;
    let mut game: Option<Game> = None;
    for g in range {
        let seed = seeding::sim_game_seed(config.seed, g);
        let game = match &mut game {
            Some(game) => {
                game.restart(seed);
                game
            }
            None => match Game::new_fast(config.rules.clone(), players, seed) {
                Ok(fresh) => game.insert(fresh),
                Err(_) => return,
            },
        };
        for (s, bot) in bots.iter_mut().enumerate() {
            bot.reseed(seeding::sim_bot_seed(seed, s));
        }
        let mut decisions = 0u32;
        while !game.is_round_over() {
            if decisions >= MAX_DECISIONS {
                out.stuck += 1;
                break;
            }
            let seat = game.current();
            let before = game.turns();
            // Unchecked, a whole turn at a time while the cap is more than a turn away: the
            // same game (`Game::play_turn`); a turn ends once, so the seat's count is the same.
            if !config.checked && decisions + TURN_DECISIONS <= MAX_DECISIONS {
                decisions += bots[seat.index()].play_turn(game);
                if game.turns() != before {
                    out.seats[seat.index()].turns += 1;
                }
                continue;
            }
            let action = bots[seat.index()].choose_view(&game.view(seat));
            // Checked: validated once, then applied without the events nobody reads
            // (`Game::apply_unchecked`'s contract: the same game as `apply`).
            if config.checked && game.check(seat, action).is_err() {
                out.illegal += 1;
                out.stuck += 1;
                break;
            }
            game.apply_unchecked(seat, action);
            decisions += 1;
            if game.turns() != before {
                out.seats[seat.index()].turns += 1;
            }
        }
        out.games += 1;
        out.decisions += decisions as u64;
        out.turns += game.turns() as u64;
        match game.round_winner() {
            Some(Seat(w)) => {
                let s = &mut out.seats[w as usize];
                s.wins += 1;
                s.points += game.scores()[w as usize] as u64;
            }
            None => out.no_winner += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_stays_inside_zero_and_one_and_narrows_with_games() {
        let (lo, hi) = wilson(1.0, 2);
        assert!(lo > 0.0 && hi < 1.0 && lo < 0.5 && hi > 0.5, "{lo} {hi}");
        let (lo2, hi2) = wilson(500.0, 1000);
        assert!(hi2 - lo2 < hi - lo);
        assert_eq!(wilson(0.0, 10).0, 0.0);
        // Half wins count: 1.5 of 3 is the middle.
        let (lo3, hi3) = wilson(1.5, 3);
        assert!((lo3 + hi3 - 1.0).abs() < 1e-12, "{lo3} {hi3}");
    }
}
