//! Players as everyone sees them: a profile per account (`GET /api/players/{id}`: its rating in
//! each pool with the history behind it, games played and won, its recent games) and a
//! leaderboard per preset (`GET /api/leaderboard/{preset}`), both in the shown number of
//! `league` (a newcomer shows 1500; a `?` while provisional), with the bots' published levels
//! on the same scale.

use axum::extract::{Path, Query, State};
use axum::routing::get;
use axum::{Json, Router};
use league::rating::RatingFields;
use league::{Model, Rating, Time};
use serde::{Deserialize, Serialize};
use store::people::{BoardQuery, RatingState};

use crate::host::person::now_ms;
use crate::host::store_read;
use crate::{AccountError, ApiError, AppState, TableError};

pub fn routes(state: AppState) -> Router {
    Router::new()
        .route("/api/players/{id}", get(player))
        .route("/api/leaderboard/{preset}", get(leaderboard))
        .with_state(state)
}

/// A rating as the pages show it.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct ShownRating {
    /// The number shown (a newcomer's is 1500), as of now (uncertainty grows while away).
    pub points: i32,
    /// Too uncertain yet to mean much: shown with a `?`.
    pub provisional: bool,
    /// Rated games in the pool.
    #[ts(type = "number")]
    pub games: i64,
}

/// One point of a rating's graph: the rating after a rated game.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct HistoryPoint {
    /// When the game was rated (Unix milliseconds).
    #[ts(type = "number")]
    pub at: i64,
    pub points: i32,
    /// The seat's finish: its place (`"1"` won), or `"left"`.
    pub finish: String,
    /// The table and which of its games (its replay: `/replay.html?game=ID`).
    pub game_id: String,
    #[ts(type = "number")]
    pub game: i64,
    #[ts(type = "number")]
    pub seats: i64,
}

/// A player's rating in one pool (a preset and a table size: `official/table`).
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct PoolView {
    pub pool: String,
    pub rating: ShownRating,
    /// Oldest first, the newest 200.
    pub history: Vec<HistoryPoint>,
}

/// A game the player sat at.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct RecentGame {
    pub game_id: String,
    #[ts(type = "number")]
    pub seat: i64,
    /// When they sat down (Unix milliseconds).
    #[ts(type = "number")]
    pub since: i64,
}

/// `GET /api/players/{id}`: a player's profile.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct PlayerView {
    pub id: String,
    pub name: String,
    #[ts(type = "number")]
    pub created_at: i64,
    pub ratings: Vec<PoolView>,
    /// Rated games played and won (finished first), over every pool.
    #[ts(type = "number")]
    pub rated_played: i64,
    #[ts(type = "number")]
    pub rated_won: i64,
    /// The newest 20 tables they sat at, newest first.
    pub recent: Vec<RecentGame>,
}

/// The rating shown for a stored one, as of `now`.
pub fn shown(state: &RatingState, now: i64) -> Option<ShownRating> {
    let rating = Rating::from_fields(RatingFields {
        mean: state.mean,
        deviation: state.deviation,
        games: u32::try_from(state.games.max(0)).unwrap_or(u32::MAX),
        last_played: state.last_played.map(|t| Time::from_millis(t.max(0) as u64)),
    })
    .ok()?;
    let s = Model::FITTED.shown(&rating, Time::from_millis(now.max(0) as u64));
    Some(ShownRating { points: s.points.0, provisional: s.provisional, games: state.games })
}

fn people(app: &AppState) -> Result<store::SharedPeople, ApiError> {
    app.store().people().ok_or(AccountError::Unavailable.into())
}

async fn player(State(app): State<AppState>, Path(id): Path<String>) -> Result<Json<PlayerView>, ApiError> {
    let people = people(&app)?;
    if id.len() > 64 {
        return Err(AccountError::NoSuchPlayer.into());
    }
    let Some(account) = store_read(people.account(&id)).await?.filter(|a| a.deleted_at.is_none()) else {
        return Err(AccountError::NoSuchPlayer.into());
    };
    let now = now_ms();
    let mut ratings = Vec::new();
    let (mut played, mut won) = (0, 0);
    for r in store_read(people.ratings(&id)).await? {
        let Some(rating) = shown(&r.rating, now) else { continue };
        let points = store_read(people.rating_history(&id, &r.pool, 200)).await?;
        played += r.rating.games;
        won +=
            store_read(people.rating_history(&id, &r.pool, i64::MAX)).await?.iter().filter(|p| p.finish == "1").count()
                as i64;
        let history = points
            .into_iter()
            .filter_map(|p| {
                let after = shown(&p.after, p.at)?;
                Some(HistoryPoint {
                    at: p.at,
                    points: after.points,
                    finish: p.finish,
                    game_id: p.game_id,
                    game: p.game,
                    seats: p.seats,
                })
            })
            .collect();
        ratings.push(PoolView { pool: r.pool, rating, history });
    }
    let recent = store_read(people.seat_links(&id, 20))
        .await?
        .into_iter()
        .map(|l| RecentGame { game_id: l.game_id, seat: l.seat, since: l.since })
        .collect();
    Ok(Json(PlayerView {
        id: account.id,
        name: account.name,
        created_at: account.created_at,
        ratings,
        rated_played: played,
        rated_won: won,
        recent,
    }))
}

/// The query of `GET /api/leaderboard/{preset}`: the table size (`duel`, `table` (default),
/// `crowd`) and the page.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardParams {
    pub size: Option<String>,
    pub offset: Option<i64>,
}

/// One row of a leaderboard.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct BoardEntry {
    /// 1 for the best.
    #[ts(type = "number")]
    pub rank: i64,
    pub id: String,
    pub name: String,
    pub rating: ShownRating,
}

/// A bot's published level on the same scale.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct BotEntry {
    pub bot: String,
    pub points: i32,
}

/// `GET /api/leaderboard/{preset}`: the players of a pool with enough rated games who played
/// lately, best first (100 a page), and where the bots stand.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct Leaderboard {
    pub pool: String,
    /// Only players with at least this many rated games in the pool...
    #[ts(type = "number")]
    pub min_games: i64,
    /// ...and a rated game in the last this many days.
    #[ts(type = "number")]
    pub active_days: i64,
    /// Players who qualify.
    #[ts(type = "number")]
    pub total: i64,
    pub rows: Vec<BoardEntry>,
    pub bots: Vec<BotEntry>,
}

/// Rows a leaderboard page holds.
const BOARD_PAGE: i64 = 100;

async fn leaderboard(
    State(app): State<AppState>,
    Path(preset): Path<String>,
    params: Result<Query<BoardParams>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Leaderboard>, ApiError> {
    let Query(params) = params.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    if !uno::PRESET_NAMES.contains(&preset.as_str()) {
        return Err(TableError::Invalid(format!("no preset {:?}", preset.chars().take(40).collect::<String>())).into());
    }
    let size = params.size.unwrap_or_else(|| "table".into());
    if !matches!(size.as_str(), "duel" | "table" | "crowd") {
        return Err(TableError::Invalid("size is duel, table or crowd".into()).into());
    }
    let people = people(&app)?;
    let limits = app.config().accounts;
    let now = now_ms();
    let pool = format!("{preset}/{size}");
    let offset = params.offset.unwrap_or(0).clamp(0, 1_000_000);
    let active_ms = limits.board_active.as_millis() as i64;
    let query = BoardQuery {
        pool: pool.clone(),
        min_games: limits.board_min_games,
        active_since: now.saturating_sub(active_ms),
        offset,
        limit: BOARD_PAGE,
    };
    let board = store_read(people.leaderboard(query)).await?;
    let rows = board
        .rows
        .into_iter()
        .enumerate()
        .filter_map(|(i, r)| {
            Some(BoardEntry {
                rank: offset + i as i64 + 1,
                id: r.account,
                name: r.name,
                rating: shown(&r.rating, now)?,
            })
        })
        .collect();
    let bots = league::bots::BOT_LEVELS
        .iter()
        .map(|b| BotEntry {
            bot: b.name.as_str().to_string(),
            points: Model::FITTED.shown(&b.rating, Time::from_millis(now.max(0) as u64)).points.0,
        })
        .collect();
    Ok(Json(Leaderboard {
        pool,
        min_games: limits.board_min_games,
        active_days: active_ms / 86_400_000,
        total: board.total,
        rows,
        bots,
    }))
}
