//! Every finished game kept as its record, for [`Config::record_retention`]: the engine's
//! `GameRecord` with the seats it was played by, stored with the game's result (the store's
//! `results`, one row a game: a table's rematches are kept too), and forgotten once older.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use store::Kind;
use uno::{Event, GameRecord};

#[cfg(doc)]
use super::Config;
use super::{TableError, TableState, Tables};
use crate::limits;
use crate::messages::{SeatKind, SeatView};

/// How often records older than the retention are looked for.
const FORGET_EVERY: Duration = Duration::from_secs(3600);

/// A finished game as kept: its record (the engine's fields, so a file of it is a `GameRecord`
/// any engine tool reads) and who played it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct KeptGame {
    #[serde(flatten)]
    pub(crate) record: GameRecord,
    pub(crate) seats: Vec<SeatView>,
    /// Sent in as a file (`POST /api/records`) rather than played here: its names are whatever
    /// the file says, so it counts in no statistics.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) imported: bool,
}

/// The body of `POST /api/records`: a record file, as `GET /api/games/{id}/record` exports it
/// (its `seats` optional; every other field of the export is ignored).
#[derive(Debug, Deserialize)]
pub struct ImportRecord {
    #[serde(flatten)]
    record: GameRecord,
    #[serde(default)]
    seats: Option<Vec<ImportSeat>>,
}

/// A seat of an imported record: its name, or the bot that played it.
#[derive(Debug, Deserialize)]
struct ImportSeat {
    name: Option<String>,
    bot: Option<String>,
}

/// The answer to `POST /api/records`.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct Imported {
    /// The id the record is kept under: `GET /api/games/{id}/...` and the replay page read it.
    pub id: String,
    pub plies: usize,
    /// Whether the record plays to the game's end.
    pub over: bool,
}

/// A kept game as `GET /api/games/{id}/record` exports it: the kept game, which of the table's
/// games it is, when it ended and how.
#[derive(Debug, Serialize)]
pub struct RecordExport {
    pub id: String,
    /// Which game of the table (0: the first; a rematch is the next).
    pub game: usize,
    #[serde(flatten)]
    pub(crate) kept: KeptGame,
    /// The engine's outcome: the winner and the scores.
    pub result: serde_json::Value,
    /// Unix milliseconds.
    pub finished_at: i64,
}

impl TableState {
    /// The result of the finished game at this table (table `id`), as kept: its record, its
    /// outcome and what it adds to the statistics.
    pub(super) fn finished_result(&self, id: &str) -> Result<store::NewResult, TableError> {
        let kept = KeptGame { record: self.record.clone(), seats: self.seat_views(), imported: false };
        let outcome = self.game.outcome();
        let tallies = match outcome.map(|o| share(&kept, o)).transpose() {
            Ok(t) => t,
            Err(e) => {
                tracing::warn!(table = %id, error = %e, "a finished game does not replay: counted in no statistics");
                None
            }
        };
        Ok(store::NewResult {
            game_id: id.to_string(),
            kind: Kind::Uno,
            actions: self.record.actions.len() as u64,
            record: store::Record::new(&kept).map_err(|e| TableError::Internal(e.to_string()))?,
            outcome: store::Outcome::new(&outcome).map_err(|e| TableError::Internal(e.to_string()))?,
            tallies,
        })
    }
}

impl Tables {
    /// The games kept for table `id`, oldest first (results stored before records were kept,
    /// which hold no actions, are left out).
    pub(crate) async fn kept_games(&self, id: &str) -> Result<Vec<RecordExport>, TableError> {
        if id.len() > 64 {
            return Ok(Vec::new());
        }
        let results = super::store_read(self.inner.store.results_of(id)).await?;
        let mut out = Vec::new();
        for r in results.into_iter().filter(|r| r.kind == Kind::Uno) {
            let Ok(kept) = r.record.decode::<KeptGame>() else { continue };
            if kept.record.actions.len() as i64 != r.actions {
                continue;
            }
            let result = r.outcome.decode().map_err(|e| TableError::Internal(e.to_string()))?;
            out.push(RecordExport { id: id.to_string(), game: out.len(), kept, result, finished_at: r.finished_at });
        }
        Ok(out)
    }

    /// One kept game of table `id`: the `game`th, or the table's last one. A table whose
    /// current game is still played answers `game_not_over` unless an earlier game is asked
    /// for: its record (the seed) would tell every hidden card.
    pub(crate) async fn kept_game(&self, id: &str, game: Option<usize>) -> Result<RecordExport, TableError> {
        if game.is_none() && self.in_memory(id)?.is_some_and(|t| !t.done.load(Ordering::Relaxed)) {
            return Err(TableError::GameNotOver);
        }
        let mut kept = self.kept_games(id).await?;
        match game.or(kept.len().checked_sub(1)) {
            Some(g) if g < kept.len() => Ok(kept.swap_remove(g)),
            _ => Err(TableError::NotKept(id.chars().take(64).collect())),
        }
    }

    /// Keeps a record sent in as a file, after checking that it replays (every action legal),
    /// under a new id, for the same retention as a game played here.
    pub(crate) async fn import_record(&self, import: ImportRecord) -> Result<Imported, TableError> {
        let record = import.record;
        if record.actions.len() > limits::MAX_IMPORTED_ACTIONS {
            return Err(TableError::InvalidRecord(format!(
                "{} actions: a record may have at most {}",
                record.actions.len(),
                limits::MAX_IMPORTED_ACTIONS
            )));
        }
        // Every count the file states is bounded before anything is made by it: a record of
        // 10^12 players is refused here, not after a seat a player has been allocated.
        uno::PlayerCount::new(record.players).map_err(|e| TableError::InvalidRecord(e.to_string()))?;
        if let Some(start) = &record.start {
            if start.hands.len() != record.players {
                return Err(TableError::InvalidRecord(format!(
                    "the start position has {} hands for {} players",
                    start.hands.len(),
                    record.players
                )));
            }
        }
        let seats = match import.seats {
            Some(seats) if seats.len() != record.players => {
                return Err(TableError::InvalidRecord(format!("{} seats for {} players", seats.len(), record.players)))
            }
            Some(seats) => seats,
            None => (0..record.players).map(|_| ImportSeat { name: None, bot: None }).collect(),
        };
        let seats: Vec<SeatView> = seats
            .into_iter()
            .enumerate()
            .map(|(seat, s)| {
                let bot = s.bot.filter(|b| !b.is_empty());
                let name = s.name.filter(|n| !n.is_empty());
                if name.as_ref().is_some_and(|n| n.chars().count() > limits::MAX_NAME_CHARS)
                    || bot.as_ref().is_some_and(|b| b.chars().count() > limits::MAX_BOT_NAME_CHARS)
                {
                    return Err(TableError::TooLong { field: "a seat's name", max: limits::MAX_NAME_CHARS });
                }
                // The checks a name taken at a table passes (visible, no control characters,
                // direction overrides or tag characters).
                let name = name
                    .map(|n| super::lifecycle::check_name(&n, "a seat's name", limits::MAX_NAME_CHARS))
                    .transpose()?;
                let kind = if bot.is_some() { SeatKind::Bot } else { SeatKind::Human };
                Ok(SeatView { seat, kind, name, taken: true, bot })
            })
            .collect::<Result<_, _>>()?;
        let moved = record.clone();
        // The engine checks every action on the way: a blocking thread, since a record may be long.
        let game = tokio::task::spawn_blocking(move || moved.replay())
            .await
            .map_err(|e| TableError::Internal(format!("a record import stopped: {e}")))?
            .map_err(|e| TableError::InvalidRecord(e.to_string()))?;
        let id = super::auth::random_hex(8);
        let plies = record.actions.len();
        let kept = KeptGame { record, seats, imported: true };
        let stored = store::Record::new(&kept).map_err(|e| TableError::Internal(e.to_string()))?;
        self.inner
            .store
            .add_result(store::NewResult {
                game_id: id.clone(),
                kind: Kind::Uno,
                record: stored,
                actions: plies as u64,
                outcome: super::stored_outcome(&game)?,
                tallies: None,
            })
            .await?;
        Ok(Imported { id, plies, over: game.is_over() })
    }

    /// Forgets the kept games (UNO and Duel) that ended longer than the retention ago.
    pub async fn forget_old_records(&self) -> Result<(), TableError> {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0);
        let keep = self.inner.config.record_retention.as_millis() as i64;
        for kind in [Kind::Uno, Kind::Duel] {
            self.inner.store.forget_results(kind, now.saturating_sub(keep)).await?;
        }
        Ok(())
    }

    /// Forgets old records at start and every [`FORGET_EVERY`].
    pub(super) fn spawn_record_keeper(&self) {
        let weak = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            loop {
                let Some(inner) = weak.upgrade() else { return };
                if let Err(e) = (Tables { inner }).forget_old_records().await {
                    tracing::warn!(error = %e, "forgetting old game records failed");
                }
                tokio::time::sleep(FORGET_EVERY).await;
            }
        });
    }
}

/// What one kept game adds: a game for every seat a person held to the end, a win for the
/// winner, the final scores, and from its events the challenges won and the UNO calls missed.
pub(crate) fn share(kept: &KeptGame, outcome: &uno::Outcome) -> Result<Vec<store::Tally>, uno::ReplayError> {
    let mut out: Vec<store::Tally> = kept
        .seats
        .iter()
        .map(|s| {
            let name = match s.kind {
                SeatKind::Human => s.name.clone().unwrap_or_default(),
                SeatKind::Bot => String::new(),
            };
            let won = outcome.winner.is_some_and(|w| w.index() == s.seat);
            let points = outcome.scores.get(s.seat).copied().unwrap_or(0);
            store::Tally { name, games: 1, wins: i64::from(won), points: i64::from(points), ..Default::default() }
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
