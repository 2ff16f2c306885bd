//! Statistics per player name at this server (`GET /api/stats`, documented in docs/api.md),
//! from the kept records of finished UNO games: games, wins, points, Wild Draw Four challenges
//! won and missed UNO calls (caught). People only: a bot is a kind, not a player (three
//! heuristic seats at one table would count three games).
//!
//! A record's events are got by replaying it, so each game is replayed once and its share kept
//! (by table and finish time); the totals are rebuilt from the store at most every
//! [`REFRESH`], however many ask, on a blocking thread. The answer is one page of at most
//! [`MAX_STATS_PAGE`] players, the most games first.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use store::Kind;
use uno::Event;

use crate::limits::MAX_STATS_PAGE;
use crate::tables::KeptGame;
use crate::types::SeatKind;
use crate::{ApiError, AppState};

/// How long computed totals are answered before the store is read again.
pub const REFRESH: Duration = Duration::from_secs(30);
/// Players per page unless asked otherwise.
const DEFAULT_PAGE: usize = 50;

/// One player's totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlayerStats {
    pub name: String,
    pub games: u64,
    pub wins: u64,
    /// Points won (the game's final scores).
    pub points: u64,
    /// Wild Draw Fours this player challenged and the challenge found played illegally.
    pub challenges_won: u64,
    /// Times this player was caught with one card without calling UNO.
    pub uno_missed: u64,
}

impl PlayerStats {
    fn add(&mut self, other: &PlayerStats) {
        self.games += other.games;
        self.wins += other.wins;
        self.points += other.points;
        self.challenges_won += other.challenges_won;
        self.uno_missed += other.uno_missed;
    }
}

/// One page of the answer.
#[derive(Debug, Serialize)]
struct Page<'a> {
    /// Players with at least one kept game.
    total: usize,
    /// Kept games counted.
    games: usize,
    offset: usize,
    limit: usize,
    /// When the totals were computed (Unix ms).
    computed_at: i64,
    players: &'a [PlayerStats],
}

/// What one kept game adds, per player.
type Share = Vec<PlayerStats>;

#[derive(Default)]
struct Computed {
    at: Option<Instant>,
    computed_at: i64,
    games: usize,
    /// The most games first, then the most wins, then by name.
    players: Arc<Vec<PlayerStats>>,
    /// Each kept game's share, by (table, finish time).
    shares: HashMap<(String, i64), Arc<Share>>,
}

/// The totals, computed at most every [`REFRESH`] (one per server).
#[derive(Default)]
pub(crate) struct Stats(tokio::sync::Mutex<Computed>);

/// What one kept game adds: a game for every seat a person held to the end, a win for the
/// winner, the final scores, and from its events the challenges won and the UNO calls missed.
fn share(kept: &KeptGame, outcome: &uno::Outcome) -> Result<Share, uno::ReplayError> {
    let mut out: Vec<PlayerStats> = kept
        .seats
        .iter()
        .map(|s| {
            let name = match s.kind {
                SeatKind::Human => s.name.clone().unwrap_or_default(),
                SeatKind::Bot => String::new(),
            };
            let won = outcome.winner.is_some_and(|w| w.index() == s.seat);
            let points = outcome.scores.get(s.seat).copied().unwrap_or(0);
            PlayerStats { name, games: 1, wins: u64::from(won), points: u64::from(points), ..Default::default() }
        })
        .collect();
    kept.record.replay_with_events(|_, events| {
        for e in events {
            let seat = match e {
                Event::ChallengeResolved { challenger, guilty: true, .. } => challenger,
                Event::UnoPenalty { seat, .. } => seat,
                _ => continue,
            };
            if let Some(s) = out.get_mut(seat.index()) {
                match e {
                    Event::ChallengeResolved { .. } => s.challenges_won += 1,
                    _ => s.uno_missed += 1,
                }
            }
        }
    })?;
    // Bots, and a seat nobody held at the end (its person left), count for nobody.
    out.retain(|p| !p.name.is_empty());
    Ok(out)
}

impl AppState {
    /// The totals, read again from the store when older than [`REFRESH`].
    async fn stats(&self) -> Result<(Arc<Vec<PlayerStats>>, usize, i64), ApiError> {
        let mut c = self.inner.stats.0.lock().await;
        if c.at.is_some_and(|at| at.elapsed() < REFRESH) {
            return Ok((c.players.clone(), c.games, c.computed_at));
        }
        let results = self.inner.store.results(Kind::Uno).await?;
        let old = std::mem::take(&mut c.shares);
        let (shares, players, games) = tokio::task::spawn_blocking(move || {
            let mut shares = HashMap::new();
            let mut totals: BTreeMap<String, PlayerStats> = BTreeMap::new();
            for r in results {
                let key = (r.game_id.clone(), r.finished_at);
                let share = match old.get(&key) {
                    Some(s) => s.clone(),
                    None => {
                        // Results kept before records were (no actions) tell no events: left out.
                        let Ok(kept) = r.record.decode::<KeptGame>() else { continue };
                        let Ok(outcome) = r.outcome.decode::<uno::Outcome>() else { continue };
                        // An imported file names whom it likes: it counts for nobody.
                        if kept.record.actions.len() as i64 != r.actions || kept.imported {
                            continue;
                        }
                        match share(&kept, &outcome) {
                            Ok(s) => Arc::new(s),
                            Err(e) => {
                                tracing::warn!(table = %r.game_id, error = %e, "a kept game does not replay");
                                continue;
                            }
                        }
                    }
                };
                for s in share.iter() {
                    totals.entry(s.name.clone()).or_default().add(s);
                }
                shares.insert(key, share);
            }
            let games = shares.len();
            let mut players: Vec<PlayerStats> = totals.into_iter().map(|(name, s)| PlayerStats { name, ..s }).collect();
            players.sort_by(|a, b| b.games.cmp(&a.games).then(b.wins.cmp(&a.wins)).then(a.name.cmp(&b.name)));
            (shares, players, games)
        })
        .await
        .map_err(|e| ApiError::Internal(format!("statistics stopped: {e}")))?;
        c.shares = shares;
        c.players = Arc::new(players);
        c.games = games;
        c.at = Some(Instant::now());
        c.computed_at = store_now();
        Ok((c.players.clone(), c.games, c.computed_at))
    }
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
    let (players, games, computed_at) = app.stats().await?;
    let page = players.get(offset.min(players.len())..).unwrap_or(&[]);
    let page = &page[..limit.min(page.len())];
    let answer = Page { total: players.len(), games, offset, limit, computed_at, players: page };
    serde_json::to_value(answer).map(Json).map_err(|e| ApiError::Internal(e.to_string()))
}
