//! Bot-against-bot games from seeded random setups, and their tally.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::bot::Bot;
use crate::error::DuelError;
use crate::game::{DuelGame, EndReason, Stage};
use crate::opponent::BotKind;
use crate::pieces::Outcome;
use crate::setup::{random_setup, SetupMode};

/// What one simulation run plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimConfig {
    /// The bot playing red (moving first).
    pub red: BotKind,
    /// The bot playing black.
    pub black: BotKind,
    /// The run's seed: with it, game `index`'s setup and bots are fixed ([`seeding::duel_game_seed`]).
    pub seed: u64,
    /// Grid columns, 1 to 26.
    pub width: u8,
    /// Grid rows, 1 to 26 (the grid needs at least two cells).
    pub height: u8,
    /// Play rounds after which a game ends in a draw ([`EndReason::RoundLimit`]).
    pub max_rounds: u32,
    /// How the random setups are drawn.
    pub setup: SetupMode,
}

/// How one game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimGame {
    /// Who won, or a draw.
    pub outcome: Outcome,
    /// Why the play stage ended.
    pub reason: EndReason,
    /// The play round in which it ended.
    pub rounds: u32,
}

/// Plays a game from `position` (red first) to its end or the round cap.
///
/// # Errors
///
/// What [`DuelGame::bot_move`] refuses: a bot that finds no move or offers an illegal one.
pub fn play_game(
    position: Board,
    red: &mut dyn Bot,
    black: &mut dyn Bot,
    max_rounds: u32,
) -> Result<SimGame, DuelError> {
    let mut game = DuelGame::from_position(position);
    game.set_max_rounds(Some(max_rounds));
    loop {
        match game.stage() {
            Stage::End { round, outcome, reason } => return Ok(SimGame { outcome, reason, rounds: round }),
            Stage::Play { to_move, .. } => {
                let bot: &mut dyn Bot = match to_move {
                    crate::Side::Red => red,
                    crate::Side::Black => black,
                };
                game.bot_move(bot)?;
            }
            Stage::Setup { .. } => return Err(DuelError::NotPlaying),
        }
    }
}

/// The setup of game `index` of a run.
///
/// # Errors
///
/// [`DuelError::BadSize`] when `cfg`'s grid cannot hold a setup (see [`random_setup`]).
pub fn setup_for(cfg: &SimConfig, index: u64) -> Result<Board, DuelError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seeding::duel_game_seed(cfg.seed, index));
    random_setup(cfg.width, cfg.height, cfg.setup, &mut rng)
}

/// Plays game `index` of a run.
///
/// # Errors
///
/// As [`setup_for`] and [`play_game`].
pub fn simulate_one(cfg: &SimConfig, index: u64) -> Result<SimGame, DuelError> {
    let position = setup_for(cfg, index)?;
    let s = seeding::duel_game_seed(cfg.seed, index);
    let mut red = cfg.red.build_deterministic(seeding::duel_red_seed(s));
    let mut black = cfg.black.build_deterministic(seeding::duel_black_seed(s));
    play_game(position, red.as_mut(), black.as_mut(), cfg.max_rounds)
}

/// Wins, draws and losses with scores and a 95% confidence interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games red won.
    pub red_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games black won.
    pub black_wins: u64,
    /// Play rounds summed over all games.
    pub rounds: u64,
}

impl Tally {
    /// Counts one finished game.
    pub fn add(&mut self, r: &SimGame) {
        match r.outcome {
            Outcome::RedWins => self.red_wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::BlackWins => self.black_wins += 1,
        }
        self.rounds += u64::from(r.rounds);
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.red_wins + self.draws + self.black_wins
    }

    /// Red's mean score (win 1, draw ½, loss 0).
    pub fn red_score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        (self.red_wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Black's mean score, 1 minus red's (0 with no games).
    pub fn black_score(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            1.0 - self.red_score()
        }
    }

    /// Half-width of the normal 95% interval of the mean score (the same for both sides).
    pub fn ci95(&self) -> f64 {
        let n = self.games() as f64;
        if n < 2.0 {
            return 0.0;
        }
        let m = self.red_score();
        let sq = self.red_wins as f64 * (1.0 - m).powi(2)
            + self.draws as f64 * (0.5 - m).powi(2)
            + self.black_wins as f64 * m.powi(2);
        let var = sq / (n - 1.0);
        1.96 * (var / n).sqrt()
    }
}
