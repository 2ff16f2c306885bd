//! Finished Duel games kept as their records (docs/replays.md), by the host's records as UNO's
//! are: the whole `duel::GameRecord` (size, difficulty, seed, every action with who took it),
//! exported by `GET /api/duel/{id}/record`, and replayed a frame at a time by
//! `GET /api/duel/{id}/replay?ply=K` (the game's view after `K` actions, as the page showed it).

use duel::{GameRecord, LoggedAction, Status};
use serde::Serialize;

use super::{Duel, DuelView};
use crate::host::records::{kept_one, Kept};
use crate::host::{TableError, Tables};

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

/// A Duel game keeps one record: every row of its kind is whole.
fn whole(_: &GameRecord, _: &store::GameResult) -> bool {
    true
}

/// The kept record of game `id`: 403 while the game is played, 404 if none is kept.
pub(crate) async fn kept(tables: &Tables, id: &str) -> Result<DuelExport, TableError> {
    let Kept { record, outcome, finished_at, .. } = kept_one::<Duel, GameRecord>(tables, id, None, whole).await?;
    let status = outcome.decode().map_err(|e| TableError::Internal(e.to_string()))?;
    Ok(DuelExport { id: id.to_string(), record, status, finished_at })
}

/// The frame of kept game `id` after `ply` actions (none: the last).
pub(crate) async fn frame(tables: &Tables, id: &str, ply: Option<usize>) -> Result<DuelFrame, TableError> {
    let export = kept(tables, id).await?;
    let plies = export.record.actions.len();
    let ply = ply.unwrap_or(plies);
    if ply > plies {
        return Err(TableError::NoSuchPly { ply, last: plies });
    }
    let upto = GameRecord { actions: export.record.actions[..ply].to_vec(), ..export.record };
    let (game, events) = Duel::rebuild(&upto).map_err(|e| TableError::Internal(format!("duel game {id}: {e}")))?;
    let last_ply = ply as u64;
    let events = events.into_iter().filter(|(p, _)| *p == last_ply && ply > 0).map(|(_, e)| e.event).collect();
    let last = ply.checked_sub(1).and_then(|i| upto.actions.get(i).cloned());
    Ok(DuelFrame { ply, plies, last, view: game.render(id, Vec::new(), events, Vec::new()) })
}
