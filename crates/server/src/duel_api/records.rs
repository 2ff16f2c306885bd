//! Finished Duel games kept as their records (docs/replays.md), as UNO's are: the whole
//! `duel::GameRecord` (size, difficulty, seed, every action with who took it) stored with the
//! results when the game ends, forgotten after the same retention (`--record-days`), exported
//! by `GET /api/duel/{id}/record`, and replayed a frame at a time by
//! `GET /api/duel/{id}/replay?ply=K` (the game's view after `K` actions, as the page showed it).

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::Json;
use duel::{GameRecord, LoggedAction, Status};
use serde::{Deserialize, Serialize};
use store::{Kind, SharedStore, Status as StoreStatus};

use super::{rebuild, view, whole_record, DuelGames, DuelView};
use crate::{ApiError, TableError};

/// Stores the whole record of finished game `id` with the results.
pub(crate) async fn keep(store: &SharedStore, id: &str) -> Result<(), ApiError> {
    let Some(g) = store.load(id).await? else { return Ok(()) };
    keep_stored(store, &g).await.map(|_| ())
}

/// Stores the whole record of stored game `g` with the results, if it is over; whether it is.
async fn keep_stored(store: &SharedStore, g: &store::StoredGame) -> Result<bool, ApiError> {
    let id = &g.id;
    let record = whole_record(g).map_err(|e| ApiError::Internal(format!("duel game {id}: {e}")))?;
    let game = record.replay().map_err(|e| ApiError::Internal(format!("duel game {id}: {e}")))?;
    if !game.is_over() {
        return Ok(false);
    }
    let new = store::NewResult {
        game_id: id.to_string(),
        kind: Kind::Duel,
        actions: record.actions.len() as u64,
        record: store::Record::new(&record).map_err(|e| ApiError::Internal(e.to_string()))?,
        outcome: store::Outcome::new(&game.status()).map_err(|e| ApiError::Internal(e.to_string()))?,
        // Duel keeps no statistics.
        tallies: None,
    };
    store.add_result(new).await?;
    Ok(true)
}

/// Finishes what a stop left undone on stored game `g`'s finishing path: a game whose log is
/// over gets its record kept (when no record of it is) and is marked finished. Whether `g` is a
/// finished Duel game with its record kept now. One game is mended at a time (`games`' lock),
/// so readers arriving together keep its record once.
pub(crate) async fn keep_unkept(
    games: &DuelGames,
    store: &SharedStore,
    g: &store::StoredGame,
) -> Result<bool, ApiError> {
    if g.kind != Kind::Duel || g.status == StoreStatus::Abandoned {
        return Ok(false);
    }
    let _one = games.mending.lock().await;
    let results = crate::tables::store_read(store.results_of(&g.id)).await?;
    if !results.iter().any(|r| r.kind == Kind::Duel) && !keep_stored(store, g).await? {
        return Ok(false);
    }
    if g.status != StoreStatus::Finished {
        store.set_status(&g.id, StoreStatus::Finished).await?;
    }
    Ok(true)
}

/// `GET /api/duel/{id}/record`: the kept record, with the game's final status and when it ended.
#[derive(Debug, Serialize)]
pub struct DuelExport {
    pub id: String,
    #[serde(flatten)]
    pub record: GameRecord,
    pub status: Status,
    /// Unix milliseconds.
    pub finished_at: i64,
}

/// The kept record of game `id`: 403 while the game is played, 404 if none is kept.
async fn kept(games: &DuelGames, id: &str) -> Result<DuelExport, ApiError> {
    if games.is_live(id) {
        return Err(TableError::GameNotOver.into());
    }
    let not_kept = || ApiError::from(TableError::NotKept(id.chars().take(64).collect()));
    let Some(store) = games.store() else { return Err(not_kept()) };
    if id.len() > 64 {
        return Err(not_kept());
    }
    let last_kept = || async {
        let results = crate::tables::store_read(store.results_of(id)).await?;
        Ok::<_, ApiError>(results.into_iter().rev().find(|r| r.kind == Kind::Duel))
    };
    let r = match last_kept().await? {
        Some(r) => r,
        None => {
            // A game over whose server stopped before its record was kept: kept now.
            let Some(g) = crate::tables::store_read(store.load(id)).await? else { return Err(not_kept()) };
            if !keep_unkept(games, store, &g).await? {
                return Err(not_kept());
            }
            last_kept().await?.ok_or_else(not_kept)?
        }
    };
    let record: GameRecord = r.record.decode().map_err(|e| ApiError::Internal(e.to_string()))?;
    let status = r.outcome.decode().map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(DuelExport { id: id.to_string(), record, status, finished_at: r.finished_at })
}

pub(crate) async fn record(
    State(games): State<DuelGames>,
    Path(id): Path<String>,
) -> Result<Json<DuelExport>, ApiError> {
    Ok(Json(kept(&games, &id).await?))
}

#[derive(Debug, Deserialize)]
pub(crate) struct FrameQuery {
    ply: Option<usize>,
}

/// `GET /api/duel/{id}/replay?ply=K`: the view after `K` actions (default: the last).
#[derive(ts_rs::TS, Debug, Serialize)]
pub struct DuelFrame {
    pub ply: usize,
    pub plies: usize,
    /// The action that led here (`null` at ply 0).
    #[serde(rename = "move")]
    pub last: Option<LoggedAction>,
    /// The game as the page showed it then; `events` are that action's.
    pub view: DuelView,
}

pub(crate) async fn replay(
    State(games): State<DuelGames>,
    Path(id): Path<String>,
    q: Result<Query<FrameQuery>, QueryRejection>,
) -> Result<Json<DuelFrame>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let export = kept(&games, &id).await?;
    let plies = export.record.actions.len();
    let ply = q.ply.unwrap_or(plies);
    if ply > plies {
        return Err(TableError::NoSuchPly { ply, last: plies }.into());
    }
    let upto = GameRecord { actions: export.record.actions[..ply].to_vec(), ..export.record };
    let (game, events) = rebuild(&upto).map_err(|e| ApiError::Internal(format!("duel game {id}: {e}")))?;
    let last = ply.checked_sub(1).and_then(|i| upto.actions.get(i).cloned());
    Ok(Json(DuelFrame { ply, plies, last, view: view(&id, &game, events, Vec::new()) }))
}
