//! Ratings: Weng-Lin (OpenSkill, the `skillratings` crate's multi-team form, every seat its own
//! team) over a game's finishing places, with what the crate leaves out: uncertainty that grows
//! while a player is away, a provisional mark, leaving as last place, and the number pages show.
//!
//! **The model.** A player's skill is believed normal, mean `μ`, deviation `σ`; a newcomer starts
//! at `μ = 25, σ = 25/3`, the crate's prior. In a game each seat performs at its skill plus noise
//! of deviation `β`; every pair of seats is a Bradley–Terry contest of who finished ahead, at
//! scale `c = sqrt(2β² + σ_i² + σ_j²)`, and the update moves each `μ` by how much it beat the
//! expectation and shrinks each `σ`. `β` says how much a game is luck: UNO is mostly luck, so
//! ours is fitted to bot games ([`crate::fit`], `docs/ratings.md`), far above the crate's
//! default of 25/6 which assumes skill decides most games.
//!
//! **Away from the table** (the crate has no decay). Skill drifts while nobody watches, so its
//! variance grows linearly with the time away, as Glicko's does: `σ² ← min(σ₀², σ² + τ²·days)`.
//! [`Model::at`] applies it before every update and every display, so nothing needs to run
//! while a player is away. `τ` ([`FITTED_TAU`]) is chosen so that a player settled by 300 games
//! (σ ≈ 6.34) becomes provisional again after about 90 days away, as lichess's Glicko-2 takes
//! about as long to turn a settled deviation back into a provisional one; `σ` never exceeds a
//! newcomer's.
//!
//! **Provisional** while `σ` is above [`PROVISIONAL_DEVIATION`] (7.15): until the rating pins the
//! player's chance of winning a round against three players of their own level to within ±5
//! points (95%), the gap between the `precedence` and `heuristic` bots' win shares. That chance
//! is `e^x / (e^x + 3)` with `x = Δμ / (√2·β)`, whose slope at 25% is `0.1875 / (√2·β)` per unit
//! of `μ`: so `σ = 0.05·√2·β / (1.96·0.1875)`. UNO being mostly luck, a newcomer takes about 140
//! rated games to get there (at tables of newcomers; `tests` asks for 100 to 300).
//!
//! **Shown** as a lichess-like number, `1500 + μ` on a scale where a 100-point gap means the
//! higher-rated player finishes ahead of the lower 64% of the time (Elo's scale for who finishes
//! ahead of whom): ([`Model::shown`]). Not the conservative `μ − 3σ`: that number rises with every
//! game played whatever the result, which rewards grinding, and it starts every newcomer far below
//! everyone; the provisional mark says the same thing honestly.

mod place;
mod pool;

use serde::{Deserialize, Serialize};
use skillratings::weng_lin::{expected_score_multi_team, weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;
use thiserror::Error;

pub use place::{Finish, Place, RatedSeat};
pub use pool::{Pool, PoolError, PresetName, SizeGroup, MAX_PRESET_NAME};

use crate::Time;

/// A newcomer's mean skill (the crate's prior).
pub const INITIAL_MEAN: f64 = 25.0;
/// A newcomer's deviation (the crate's prior), and the most any rating's deviation grows to.
pub const INITIAL_DEVIATION: f64 = 25.0 / 3.0;
/// The crate's default `β` (25/6), which takes most games to be decided by skill.
pub const DEFAULT_BETA: f64 = 25.0 / 6.0;
/// `β` fitted to 4-seat rounds between the project's bots (`docs/ratings.md`,
/// `tests/fit.rs` refits it from the stored rounds).
pub const FITTED_BETA: f64 = 37.14;
/// The most seats a rated game has (the engine seats at most 10).
pub const MAX_SEATS: usize = 10;
/// The shown number of a newcomer's mean.
pub const SHOWN_START: f64 = 1500.0;
const MS_PER_DAY: f64 = 86_400_000.0;

/// One player's rating in one [`Pool`]: what the store keeps.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RatingFields", into = "RatingFields")]
pub struct Rating {
    mean: f64,
    deviation: f64,
    games: u32,
    last_played: Option<Time>,
}

/// The stored form of a [`Rating`], checked when read back.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingFields {
    pub mean: f64,
    pub deviation: f64,
    pub games: u32,
    pub last_played: Option<Time>,
}

impl TryFrom<RatingFields> for Rating {
    type Error = RateError;
    fn try_from(f: RatingFields) -> Result<Rating, RateError> {
        Rating::from_fields(f)
    }
}

impl From<Rating> for RatingFields {
    fn from(r: Rating) -> RatingFields {
        RatingFields { mean: r.mean, deviation: r.deviation, games: r.games, last_played: r.last_played }
    }
}

impl Rating {
    /// A rating from its stored fields.
    ///
    /// # Errors
    /// [`RateError::BadRating`] for a non-finite mean, or a deviation not in `(0, σ₀]`.
    pub fn from_fields(f: RatingFields) -> Result<Rating, RateError> {
        let ok = f.mean.is_finite() && f.deviation > 0.0 && f.deviation <= INITIAL_DEVIATION;
        if !ok {
            return Err(RateError::BadRating { mean: f.mean, deviation: f.deviation });
        }
        Ok(Rating { mean: f.mean, deviation: f.deviation, games: f.games, last_played: f.last_played })
    }

    /// A newcomer's rating.
    pub const fn newcomer() -> Rating {
        Rating { mean: INITIAL_MEAN, deviation: INITIAL_DEVIATION, games: 0, last_played: None }
    }

    /// A fixed rating that no game changes (a bot's published level).
    pub(crate) const fn fixed(mean: f64, deviation: f64) -> Rating {
        Rating { mean, deviation, games: 0, last_played: None }
    }

    /// The mean skill `μ`.
    pub const fn mean(&self) -> f64 {
        self.mean
    }

    /// The deviation `σ` as of the last game (see [`Model::at`] for now).
    pub const fn deviation(&self) -> f64 {
        self.deviation
    }

    /// Rated games played in this pool.
    pub const fn games(&self) -> u32 {
        self.games
    }

    /// When the last rated game ended.
    pub const fn last_played(&self) -> Option<Time> {
        self.last_played
    }
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::newcomer()
    }
}

/// Why a game could not be rated, or a model or rating not made.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum RateError {
    #[error("a rated game has 2 to {MAX_SEATS} seats, not {0}")]
    Seats(usize),
    #[error("place {place} at a table of {seats}")]
    PlaceOutOfRange { place: u8, seats: usize },
    #[error("places start at 1")]
    PlaceZero,
    #[error("every seat left: nobody finished the game")]
    NobodyFinished,
    #[error("a rating needs a finite mean and a deviation in (0, 25/3], not {mean} and {deviation}")]
    BadRating { mean: f64, deviation: f64 },
    #[error("a model needs a positive, finite beta, decay and provisional deviation")]
    BadModel,
}

/// What a rating is shown as on the pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shown {
    /// The lichess-like number (a newcomer shows 1500).
    pub points: ShownPoints,
    /// Too uncertain yet to mean much: shown with a `?`.
    pub provisional: bool,
}

/// The number a page shows for a rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ShownPoints(pub i32);

/// The rating model's constants.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Model {
    beta: f64,
    /// `τ`: deviation added per square root of a day away.
    tau: f64,
    provisional: f64,
}

/// A deviation above which a rating is provisional (see the module's docs):
/// `0.05·√2·β / (1.96·0.1875)` at the fitted `β`.
pub const PROVISIONAL_DEVIATION: f64 = 7.15;
/// `τ` of the fitted model (see the module's docs).
pub const FITTED_TAU: f64 = 0.35;

impl Model {
    /// The model the project rates with: `β` fitted to bot games, the decay and provisional
    /// threshold above.
    pub const FITTED: Model = Model { beta: FITTED_BETA, tau: FITTED_TAU, provisional: PROVISIONAL_DEVIATION };

    /// A model with this `β`, `τ` and provisional deviation.
    ///
    /// # Errors
    /// [`RateError::BadModel`] unless each is positive and finite.
    pub fn new(beta: f64, tau: f64, provisional: f64) -> Result<Model, RateError> {
        let ok = [beta, tau, provisional].iter().all(|x| x.is_finite() && *x > 0.0);
        if ok {
            Ok(Model { beta, tau, provisional })
        } else {
            Err(RateError::BadModel)
        }
    }

    /// The fitted model with another `β` (the crate's default, for comparison).
    ///
    /// # Errors
    /// [`RateError::BadModel`] unless `beta` is positive and finite.
    pub fn with_beta(beta: f64) -> Result<Model, RateError> {
        Model::new(beta, FITTED_TAU, PROVISIONAL_DEVIATION)
    }

    pub const fn beta(&self) -> f64 {
        self.beta
    }

    pub const fn tau(&self) -> f64 {
        self.tau
    }

    /// The deviation above which a rating is provisional.
    pub const fn provisional(&self) -> f64 {
        self.provisional
    }

    fn config(&self) -> WengLinConfig {
        WengLinConfig { beta: self.beta, ..WengLinConfig::new() }
    }

    /// The rating as of `now`: its deviation grown by the time since its last game,
    /// `σ² + τ²·days`, capped at a newcomer's.
    pub fn at(&self, rating: &Rating, now: Time) -> Rating {
        let Some(last) = rating.last_played else { return *rating };
        let days = now.since(last).as_millis() as f64 / MS_PER_DAY;
        let grown = (rating.deviation.powi(2) + self.tau.powi(2) * days).sqrt();
        Rating { deviation: grown.min(INITIAL_DEVIATION), ..*rating }
    }

    /// The ratings after a game that ended at `now`, one per seat in the seats' order. A seat
    /// that [`Finish::Left`] ranks last.
    ///
    /// # Errors
    /// [`RateError::Seats`] outside 2..=[`MAX_SEATS`], [`RateError::PlaceOutOfRange`] for a place
    /// past the table's size, [`RateError::NobodyFinished`] when every seat left.
    pub fn rate(&self, seats: &[RatedSeat], now: Time) -> Result<Vec<Rating>, RateError> {
        if !(2..=MAX_SEATS).contains(&seats.len()) {
            return Err(RateError::Seats(seats.len()));
        }
        let ranks = place::ranks(seats)?;
        let before: Vec<[WengLinRating; 1]> = seats
            .iter()
            .map(|s| {
                let r = self.at(&s.rating, now);
                [WengLinRating { rating: r.mean, uncertainty: r.deviation }]
            })
            .collect();
        let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> =
            before.iter().zip(&ranks).map(|(t, &rank)| (&t[..], MultiTeamOutcome::new(rank))).collect();
        let after = weng_lin_multi_team(&teams, &self.config());
        Ok(seats
            .iter()
            .zip(after)
            .map(|(s, team)| {
                let new = team
                    .first()
                    .copied()
                    .unwrap_or(WengLinRating { rating: s.rating.mean, uncertainty: s.rating.deviation });
                Rating {
                    mean: new.rating,
                    deviation: new.uncertainty.clamp(f64::MIN_POSITIVE, INITIAL_DEVIATION),
                    games: s.rating.games.saturating_add(1),
                    last_played: Some(now),
                }
            })
            .collect())
    }

    /// Each seat's chance to win a game among these ratings as of `now` (summing to 1): the
    /// crate's multi-team expectation, a softmax of `μ / sqrt(2β² + Σσ²)`.
    pub fn win_chances(&self, ratings: &[Rating], now: Time) -> Vec<f64> {
        let teams: Vec<[WengLinRating; 1]> = ratings
            .iter()
            .map(|r| {
                let r = self.at(r, now);
                [WengLinRating { rating: r.mean, uncertainty: r.deviation }]
            })
            .collect();
        let refs: Vec<&[WengLinRating]> = teams.iter().map(|t| &t[..]).collect();
        expected_score_multi_team(&refs, &self.config())
    }

    /// Shown points per unit of `μ`: Elo's 400 per factor of 10 in the odds of finishing ahead,
    /// which the model puts at `exp(Δμ / (√2·β))` between two settled players.
    pub fn points_per_mean(&self) -> f64 {
        400.0 / (std::f64::consts::LN_10 * std::f64::consts::SQRT_2 * self.beta)
    }

    /// What the pages show for `rating` as of `now`.
    pub fn shown(&self, rating: &Rating, now: Time) -> Shown {
        let r = self.at(rating, now);
        let points = SHOWN_START + (r.mean - INITIAL_MEAN) * self.points_per_mean();
        Shown { points: ShownPoints(points.round() as i32), provisional: r.deviation > self.provisional }
    }
}

impl Default for Model {
    fn default() -> Model {
        Model::FITTED
    }
}

#[cfg(test)]
mod tests;
