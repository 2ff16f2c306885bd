//! Fitting the rating model's `β` to games between bots of known, different strength, and the
//! figures that say how well the fitted model works (`docs/ratings.md`).
//!
//! **Why fit.** `β` is the luck of one game measured against the spread of skill the prior
//! assumes (`σ₀ = 25/3`). The crate's default, 25/6, says a player one `σ₀` better wins most
//! head-to-head contests; in UNO the best bot wins 29–31% of 4-seat rounds where 25% is fair. A `β`
//! too small makes the ratings jump after every lucky round and predict with a confidence the
//! game does not support; too large, they learn nothing.
//!
//! **How.** The bots are a league of newcomers: each *league* rates the four bots from the prior
//! over a run of games, and before every game the model predicts each bot's chance to win.
//! The fitted `β` maximises the mean log-probability of the actual winners ([`log_score`]): the
//! prequential likelihood, which for an exact Bayesian update is the marginal likelihood of `β`
//! (the chain rule), and which rewards predictions that are both confident and right. The
//! bots stand for the range of skill between a beginner and a strong player.
//!
//! The games are the stored outcomes (one line of places per game, [`parse_games`]), so the fit
//! is a pure function of a file the tests read.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::rating::{Finish, Model, Place, RateError, RatedSeat, Rating};
use crate::Time;

/// One game between the same entrants: each entrant's place, in the entrants' order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotGame {
    places: Vec<Place>,
}

impl BotGame {
    /// A game from its places (exactly one winner; places within the table).
    ///
    /// # Errors
    /// [`DataError::Winners`] unless exactly one place is first; [`DataError::Place`] for a
    /// place past the table.
    pub fn new(places: Vec<Place>) -> Result<BotGame, DataError> {
        let winners = places.iter().filter(|p| **p == Place::FIRST).count();
        if winners != 1 {
            return Err(DataError::Winners(winners));
        }
        if let Some(p) = places.iter().find(|p| usize::from(p.get()) > places.len()) {
            return Err(DataError::Place(p.get()));
        }
        Ok(BotGame { places })
    }

    pub fn places(&self) -> &[Place] {
        &self.places
    }

    /// The same game with every loser tied second: how a single round is rated, as the
    /// game's own scoring gives the losers of a round nothing.
    pub fn winner_only(&self) -> BotGame {
        let second = Place::new(2).unwrap_or(Place::FIRST);
        BotGame { places: self.places.iter().map(|&p| if p == Place::FIRST { p } else { second }).collect() }
    }

    /// The winning entrant.
    pub fn winner(&self) -> usize {
        self.places.iter().position(|p| *p == Place::FIRST).unwrap_or(0)
    }
}

/// Why the stored games could not be read.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum DataError {
    #[error("line {line}: {reason}")]
    Line { line: usize, reason: String },
    #[error("a game has exactly one winner, not {0}")]
    Winners(usize),
    #[error("place {0} is past the table")]
    Place(u8),
    #[error("no games")]
    Empty,
    #[error(transparent)]
    Rate(#[from] RateError),
}

/// Reads games: one per line, each entrant's place separated by spaces; `#` starts a comment.
///
/// # Errors
/// [`DataError::Line`] naming the first bad line; [`DataError::Empty`] without a game.
pub fn parse_games(text: &str, entrants: usize) -> Result<Vec<BotGame>, DataError> {
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |reason: String| DataError::Line { line: i + 1, reason };
        let places = line
            .split_whitespace()
            .map(|w| w.parse::<u8>().map_err(|e| e.to_string()).and_then(|n| Place::new(n).map_err(|e| e.to_string())))
            .collect::<Result<Vec<_>, _>>()
            .map_err(bad)?;
        if places.len() != entrants {
            return Err(bad(format!("{} places, not {entrants}", places.len())));
        }
        games.push(BotGame::new(places).map_err(|e| bad(e.to_string()))?);
    }
    if games.is_empty() {
        return Err(DataError::Empty);
    }
    Ok(games)
}

/// Rates the entrants of `games` from newcomers, in order; before each game `each` gets the
/// model's win chances and the game, after it the ratings.
///
/// # Errors
/// A game the model refuses (a place past its table).
pub fn league<'a>(
    model: &Model,
    games: impl IntoIterator<Item = &'a BotGame>,
    entrants: usize,
    mut each: impl FnMut(&[f64], &BotGame, &[Rating]),
) -> Result<Vec<Rating>, DataError> {
    let mut ratings = vec![Rating::newcomer(); entrants];
    let now = Time::default();
    for game in games {
        let chances = model.win_chances(&ratings, now);
        let seats: Vec<RatedSeat> =
            ratings.iter().zip(game.places()).map(|(r, p)| RatedSeat::new(*r, Finish::Placed(*p))).collect();
        ratings = model.rate(&seats, now)?;
        each(&chances, game, &ratings);
    }
    Ok(ratings)
}

fn entrants(games: &[BotGame]) -> usize {
    games.first().map_or(0, |g| g.places.len())
}

/// The mean natural log of the probability the model gave the winner, over every game, the
/// games cut into consecutive leagues of `league_len` (each starting from newcomers).
///
/// # Errors
/// [`DataError::Empty`] without games.
pub fn log_score(model: &Model, games: &[BotGame], league_len: usize) -> Result<f64, DataError> {
    if games.is_empty() || league_len == 0 {
        return Err(DataError::Empty);
    }
    let mut sum = 0.0;
    for chunk in games.chunks(league_len) {
        league(model, chunk, entrants(games), |chances, game, _| sum += chances[game.winner()].ln())?;
    }
    Ok(sum / games.len() as f64)
}

/// The `β` in `[lo, hi]` of the best [`log_score`] (golden-section search on `ln β`, to 0.1%).
///
/// # Errors
/// [`DataError::Empty`] without games; [`RateError::BadModel`] for bounds that are not
/// positive and finite.
pub fn fit_beta(games: &[BotGame], league_len: usize, lo: f64, hi: f64) -> Result<f64, DataError> {
    let score =
        |ln_beta: f64| -> Result<f64, DataError> { log_score(&Model::with_beta(ln_beta.exp())?, games, league_len) };
    Model::with_beta(lo)?;
    Model::with_beta(hi)?;
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (lo.ln(), hi.ln());
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (score(c)?, score(d)?);
    while b - a > 1e-3 {
        if fc > fd {
            (b, d, fd) = (d, c, fc);
            c = b - ratio * (b - a);
            fc = score(c)?;
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + ratio * (b - a);
            fd = score(d)?;
        }
    }
    Ok(((a + b) / 2.0).exp())
}

/// Each entrant's share of the games won.
pub fn win_shares(games: &[BotGame]) -> Vec<f64> {
    let mut wins = vec![0.0; entrants(games)];
    for g in games {
        wins[g.winner()] += 1.0;
    }
    wins.iter().map(|w| w / games.len().max(1) as f64).collect()
}

/// One bin of predicted win chances and how often those predictions came true.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bin {
    /// The bin's bounds on the predicted chance, `[low, high)`.
    pub low: f64,
    pub high: f64,
    /// Predictions that fell in the bin.
    pub count: usize,
    /// Their mean.
    pub predicted: f64,
    /// The share of them whose entrant won.
    pub measured: f64,
}

impl Bin {
    /// The standard error of `measured` were the predictions right (binomial).
    pub fn standard_error(&self) -> f64 {
        (self.predicted * (1.0 - self.predicted) / self.count.max(1) as f64).sqrt()
    }
}

/// Every prediction of every league (as [`log_score`] makes them), binned by `edges`
/// (ascending; bins `[edges[i], edges[i+1])`, predictions outside are dropped).
///
/// # Errors
/// [`DataError::Empty`] without games.
pub fn calibration(model: &Model, games: &[BotGame], league_len: usize, edges: &[f64]) -> Result<Vec<Bin>, DataError> {
    if games.is_empty() || league_len == 0 {
        return Err(DataError::Empty);
    }
    let bins = edges.len().saturating_sub(1);
    let (mut count, mut predicted, mut won) = (vec![0usize; bins], vec![0.0; bins], vec![0.0; bins]);
    for chunk in games.chunks(league_len) {
        league(model, chunk, entrants(games), |chances, game, _| {
            for (e, &p) in chances.iter().enumerate() {
                if let Some(b) = edges.windows(2).position(|w| w[0] <= p && p < w[1]) {
                    count[b] += 1;
                    predicted[b] += p;
                    won[b] += f64::from(u8::from(game.winner() == e));
                }
            }
        })?;
    }
    Ok((0..bins)
        .map(|b| {
            let n = count[b].max(1) as f64;
            Bin {
                low: edges[b],
                high: edges[b + 1],
                count: count[b],
                predicted: predicted[b] / n,
                measured: won[b] / n,
            }
        })
        .collect())
}

/// How often the ratings order the entrants as their win shares do, after each checkpoint.
#[derive(Clone, Debug, PartialEq)]
pub struct Ordering {
    /// `(games, share of leagues ordered correctly after that many)`, one per checkpoint.
    pub correct: Vec<(usize, f64)>,
    /// The first checkpoint from which at least 95% of the leagues were ordered correctly at
    /// every later checkpoint too; `None` if the last checkpoint is short of it.
    pub games_for_95: Option<usize>,
}

/// `leagues` leagues, each of games drawn at random (with replacement, seeded) from `games`,
/// rated from newcomers; at each of `checkpoints` (ascending), whether the ratings' means order
/// the entrants as their win shares over all of `games` do.
///
/// # Errors
/// [`DataError::Empty`] without games or checkpoints.
pub fn games_to_order(
    model: &Model,
    games: &[BotGame],
    leagues: usize,
    checkpoints: &[usize],
    seed: u64,
) -> Result<Ordering, DataError> {
    let last = *checkpoints.last().ok_or(DataError::Empty)?;
    if games.is_empty() {
        return Err(DataError::Empty);
    }
    let shares = win_shares(games);
    let mut truth: Vec<usize> = (0..shares.len()).collect();
    truth.sort_by(|&a, &b| shares[a].total_cmp(&shares[b]));
    let mut hits = vec![0usize; checkpoints.len()];
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..leagues {
        let drawn: Vec<&BotGame> = (0..last).map(|_| &games[rng.gen_range(0..games.len())]).collect();
        let (mut played, mut next) = (0usize, 0usize);
        league(model, drawn, shares.len(), |_, _, ratings| {
            played += 1;
            if next < checkpoints.len() && checkpoints[next] == played {
                let ordered = truth.windows(2).all(|w| ratings[w[0]].mean() < ratings[w[1]].mean());
                hits[next] += usize::from(ordered);
                next += 1;
            }
        })?;
    }
    let correct: Vec<(usize, f64)> =
        checkpoints.iter().zip(&hits).map(|(&n, &h)| (n, h as f64 / leagues.max(1) as f64)).collect();
    let games_for_95 = (0..correct.len()).find(|&i| correct[i..].iter().all(|&(_, s)| s >= 0.95)).map(|i| correct[i].0);
    Ok(Ordering { correct, games_for_95 })
}

/// Each entrant's skill on the model's scale, measured from the games: the win shares' log
/// odds (the maximum likelihood of Luce's choice model when every entrant is at every game)
/// times the model's scale `√2·β`, centred on a newcomer's mean; and its standard error.
pub fn levels(games: &[BotGame], beta: f64) -> Vec<(f64, f64)> {
    let n = games.len() as f64;
    let logs: Vec<f64> = win_shares(games).iter().map(|s| (s * n).max(0.5).ln()).collect();
    let centre = logs.iter().sum::<f64>() / logs.len().max(1) as f64;
    let scale = std::f64::consts::SQRT_2 * beta;
    win_shares(games)
        .iter()
        .zip(&logs)
        .map(|(s, l)| (crate::rating::INITIAL_MEAN + scale * (l - centre), scale / (s * n).max(0.5).sqrt()))
        .collect()
}
