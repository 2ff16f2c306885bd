//! Statistics per player at this server (`GET /api/stats`, documented in docs/api.md), from
//! the finished UNO games kept: games, wins, points, Wild Draw Four challenges won and missed
//! UNO calls (caught). People only: a bot is a kind, not a player (three heuristic seats at one
//! table would count three games). A signed-in person's games count for their account, shown
//! under its name now (a deleted one's as "deleted player"), with a link to its profile; a
//! guest's for the name typed at the table, marked as a guest's (anyone may type it).
//!
//! Kept as totals in the store (`store::Tally`): a game's share is worked out once, when it
//! ends, and written with its result in one transaction; forgetting a result takes its share
//! off. A request reads one page of the totals, so its cost is the page's, never the
//! history's. Results kept before the totals existed are tallied once (the first request after
//! an upgrade replays them, on a blocking thread). The answer is one page of at most
//! [`MAX_STATS_PAGE`] players, the most games first.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use store::Kind;

use crate::limits::MAX_STATS_PAGE;
use crate::{ApiError, AppState};

/// Players per page unless asked otherwise.
const DEFAULT_PAGE: usize = 50;

use crate::host::person::ACCOUNT_TALLY;

/// One player's totals.
/// (Counts far below 2^53: numbers on the wire and in the pages' types.)
#[derive(ts_rs::TS, Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlayerStats {
    /// The account's name now, or the name a guest typed.
    pub name: String,
    /// The signed-in person's account (their profile: `player.html?id=…`); `null` for a guest.
    pub account: Option<String>,
    #[ts(type = "number")]
    pub games: u64,
    #[ts(type = "number")]
    pub wins: u64,
    /// Points won (the game's final scores).
    #[ts(type = "number")]
    pub points: u64,
    /// Wild Draw Fours this player challenged and the challenge found played illegally.
    #[ts(type = "number")]
    pub challenges_won: u64,
    /// Times this player was caught with one card without calling UNO.
    #[ts(type = "number")]
    pub uno_missed: u64,
}

impl From<store::Tally> for PlayerStats {
    fn from(t: store::Tally) -> PlayerStats {
        let n = |v: i64| u64::try_from(v).unwrap_or(0);
        PlayerStats {
            name: t.name,
            account: None,
            games: n(t.games),
            wins: n(t.wins),
            points: n(t.points),
            challenges_won: n(t.challenges_won),
            uno_missed: n(t.uno_missed),
        }
    }
}

/// One page of the answer of `GET /api/stats`.
#[derive(ts_rs::TS, Debug, Serialize)]
#[ts(rename = "StatsPage")]
pub(crate) struct Page {
    /// Players with at least one kept game.
    #[ts(type = "number")]
    total: u64,
    /// Kept games counted.
    #[ts(type = "number")]
    games: u64,
    offset: usize,
    limit: usize,
    /// When the page was read (Unix ms).
    #[ts(type = "number")]
    computed_at: i64,
    players: Vec<PlayerStats>,
}

/// The page's tallies as players: an account's under its name now.
async fn named(app: &AppState, page: Vec<store::Tally>) -> Result<Vec<PlayerStats>, ApiError> {
    let mut out = Vec::with_capacity(page.len());
    for t in page {
        let account = t.name.strip_prefix(ACCOUNT_TALLY).map(str::to_string);
        let mut p = PlayerStats::from(t);
        if let Some(id) = account {
            let live = match app.store().people() {
                Some(people) => crate::host::store_read(people.account(&id)).await?.filter(|a| a.deleted_at.is_none()),
                None => None,
            };
            match live {
                Some(a) => (p.name, p.account) = (a.name, Some(id)),
                None => p.name = crate::host::person::DELETED_NAME.to_string(),
            }
        }
        out.push(p);
    }
    Ok(out)
}

fn store_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

pub fn routes(state: AppState) -> Router {
    Router::new().route("/api/stats", get(stats)).with_state(state)
}

#[derive(Debug, Deserialize)]
struct StatsQuery {
    limit: Option<usize>,
    offset: Option<usize>,
}

async fn stats(
    State(app): State<AppState>,
    q: Result<Query<StatsQuery>, QueryRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let limit = q.limit.unwrap_or(DEFAULT_PAGE);
    if limit == 0 || limit > MAX_STATS_PAGE {
        return Err(ApiError::BadRequest(format!("limit must be 1 to {MAX_STATS_PAGE} (got {limit})")));
    }
    let offset = q.offset.unwrap_or(0);
    app.inner.stats.tally_old_results(app.tables()).await?;
    let page = crate::host::store_read(app.store().tallies(Kind::UNO, offset as u64, limit as u64)).await?;
    let answer = Page {
        total: u64::try_from(page.players).unwrap_or(0),
        games: u64::try_from(page.games).unwrap_or(0),
        offset,
        limit,
        computed_at: store_now(),
        players: named(&app, page.page).await?,
    };
    serde_json::to_value(answer).map(Json).map_err(|e| ApiError::Internal(e.to_string()))
}
