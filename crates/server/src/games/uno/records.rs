//! UNO games kept as their records (for `Config::record_retention`, by the host's records,
//! `host::records`): the engine's `GameRecord` with the seats it was played by, and what one
//! game adds to the statistics; and record files sent in (`POST /api/records`), checked by
//! replaying them.

use serde::{Deserialize, Serialize};
use uno::{Event, GameRecord};

use super::Uno;
use crate::host::records::{kept_one, Kept as KeptResult};
use crate::host::{self, Facts, Kept, TableError, Tables};
use crate::limits;
use crate::messages::{Occupant, SeatKind};

/// A finished game as kept: its record (the engine's fields, so a file of it is a `GameRecord`
/// any engine tool reads) and who played it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct KeptGame {
    #[serde(flatten)]
    pub(crate) record: GameRecord,
    pub(crate) seats: Vec<Occupant>,
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

/// The fields a record file may hold: the engine's record, its seats, and what an export adds
/// beside them (read and ignored, so an export imports as it is).
const RECORD_FIELDS: &[&str] = &[
    "engine_version",
    "rules",
    "players",
    "seed",
    "start",
    "actions",
    "seats",
    "id",
    "game",
    "result",
    "finished_at",
    "imported",
];
/// The fields of a seat in a record file (an export's `Occupant`; only `name` and `bot` are read).
const SEAT_FIELDS: &[&str] =
    &["seat", "kind", "name", "taken", "bot", "away", "timeouts", "replaced", "account", "rating"];

impl ImportRecord {
    /// Reads a record file's JSON, refusing what a record file never holds: a field no export
    /// has (at the top or in a seat), `rules` other than an object (serde would read `[]` as
    /// the default rules).
    pub(crate) fn from_json(body: serde_json::Value) -> Result<ImportRecord, String> {
        let serde_json::Value::Object(fields) = &body else {
            return Err("a record file is a JSON object".into());
        };
        let unknown = |fields: &serde_json::Map<String, serde_json::Value>, known: &[&str], of: &str| {
            fields
                .keys()
                .find(|k| !known.contains(&k.as_str()))
                .map(|k| format!("unknown field `{k}` {of}: expected one of {}", known.join(", ")))
        };
        if let Some(e) = unknown(fields, RECORD_FIELDS, "in a record file") {
            return Err(e);
        }
        if fields.get("rules").is_some_and(|r| !r.is_object()) {
            return Err("`rules` must be an object (a rules file's fields)".into());
        }
        if let Some(seats) = fields.get("seats").and_then(|s| s.as_array()) {
            for seat in seats.iter().filter_map(|s| s.as_object()) {
                if let Some(e) = unknown(seat, SEAT_FIELDS, "in a seat") {
                    return Err(e);
                }
            }
        }
        serde_json::from_value(body).map_err(|e| e.to_string())
    }
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

/// The finished game at a table, as kept: its record, its outcome and what it adds to the
/// statistics.
pub(crate) fn kept(uno: &Uno, facts: &Facts<'_, Uno>) -> Result<Kept, TableError> {
    let kept = KeptGame { record: uno.record.clone(), seats: facts.occupants(), imported: false };
    let outcome = uno.game.outcome();
    let tallies = match outcome.map(|o| share(&kept, o)).transpose() {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!(table = %facts.id, error = %e, "a finished game does not replay: counted in no statistics");
            None
        }
    };
    Ok(Kept {
        record: store::Record::new(&kept).map_err(|e| TableError::Internal(e.to_string()))?,
        outcome: store::Outcome::new(&outcome).map_err(|e| TableError::Internal(e.to_string()))?,
        tallies,
    })
}

/// A kept game's record holds every action it kept a result for (results stored before records
/// were kept hold none, and are left out).
fn whole(kept: &KeptGame, r: &store::GameResult) -> bool {
    kept.record.actions.len() as i64 == r.actions
}

/// One kept game of table `id`: the `game`th, or the table's last one. A table whose current
/// game is still played answers `game_not_over` unless an earlier game is asked for: its
/// record (the seed) would tell every hidden card.
pub(crate) async fn kept_game(tables: &Tables, id: &str, game: Option<usize>) -> Result<RecordExport, TableError> {
    let KeptResult { game, mut record, outcome, finished_at } =
        kept_one::<Uno, KeptGame>(tables, id, game, whole).await?;
    let result = outcome.decode().map_err(|e| TableError::Internal(e.to_string()))?;
    // Seats a since-deleted account held are shown under "deleted player".
    for i in tables.deleted_seats(id).await {
        if let Some(s) = record.seats.get_mut(i) {
            s.name = Some(crate::host::person::DELETED_NAME.to_string());
            s.account = None;
            s.rating = None;
        }
    }
    Ok(RecordExport { id: id.to_string(), game, kept: record, result, finished_at })
}

/// Keeps a record sent in as a file, after checking that it replays (every action legal),
/// under a new id, for the same retention as a game played here.
pub(crate) async fn import_record(tables: &Tables, import: ImportRecord) -> Result<Imported, TableError> {
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
    if record.engine_version.chars().count() > limits::MAX_ENGINE_VERSION_CHARS {
        return Err(TableError::TooLong { field: "engine_version", max: limits::MAX_ENGINE_VERSION_CHARS });
    }
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
    let seats: Vec<Occupant> = host::seats::all(seats.len())
        .zip(seats)
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
            let name =
                name.map(|n| host::seats::check_name(&n, "a seat's name", limits::MAX_NAME_CHARS)).transpose()?;
            // A bot is one the server knows, kept under its canonical name, as at a table.
            let bot = bot.map(|b| b.parse::<uno_bots::BotSpec>().map(|spec| spec.to_string())).transpose()?;
            let kind = if bot.is_some() { SeatKind::Bot } else { SeatKind::Human };
            Ok(Occupant {
                seat,
                kind,
                name,
                taken: true,
                bot,
                away: false,
                timeouts: 0,
                replaced: None,
                account: None,
                rating: None,
            })
        })
        .collect::<Result<_, _>>()?;
    let moved = record.clone();
    // The engine checks every action on the way: a blocking thread, since a record may be long.
    let game = tokio::task::spawn_blocking(move || moved.replay())
        .await
        .map_err(|e| TableError::Internal(format!("a record import stopped: {e}")))?
        .map_err(|e| {
            // A game the engine would not play at a table (rules or a start past its limits)
            // is not kept either: each frame, export and analysis of it would replay it.
            if e.is_over_limit() {
                TableError::RecordOverLimits(e.to_string())
            } else {
                TableError::InvalidRecord(e.to_string())
            }
        })?;
    let id = host::seats::random_hex(8);
    let plies = record.actions.len();
    let kept = KeptGame { record, seats, imported: true };
    let internal = |e: store::StoreError| TableError::Internal(e.to_string());
    let result = store::NewResult {
        game_id: id.clone(),
        kind: store::Kind::UNO,
        record: store::Record::new(&kept).map_err(internal)?,
        actions: plies as u64,
        outcome: store::Outcome::new(&game.outcome()).map_err(internal)?,
        tallies: None,
    };
    tables.store().add_import(result, tables.config().import_budget_bytes).await?;
    Ok(Imported { id, plies, over: game.is_over() })
}

/// What one kept game adds: a game for every seat a person held to the end, a win for the
/// winner, the final scores, and from its events the challenges won and the UNO calls missed.
pub(crate) fn share(kept: &KeptGame, outcome: &uno::Outcome) -> Result<Vec<store::Tally>, uno::ReplayError> {
    let mut out: Vec<store::Tally> = kept
        .seats
        .iter()
        .map(|s| {
            // A signed-in person's games count for their account (whatever it is named now);
            // a guest's for the name they typed.
            let name = match (s.kind, &s.account) {
                (SeatKind::Human, Some(account)) => crate::host::person::account_tally(account),
                (SeatKind::Human, None) => s.name.clone().unwrap_or_default(),
                (SeatKind::Bot, _) => String::new(),
            };
            let won = outcome.winner == Some(s.seat);
            let points = outcome.scores.get(s.seat.index()).copied().unwrap_or(0);
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

#[cfg(test)]
mod tests {
    /// Every field an export's seat has is one a record file may hold, so an export imports as
    /// it is whatever fields `Occupant` gains.
    #[test]
    fn an_exported_seat_is_a_known_seat() {
        let seat = crate::messages::Occupant {
            seat: uno::Seat(0),
            kind: crate::messages::SeatKind::Human,
            name: Some("Ann".into()),
            taken: true,
            bot: None,
            away: false,
            timeouts: 0,
            replaced: None,
            account: Some("a1".into()),
            rating: Some(crate::messages::SeatRating { points: 1500, provisional: true }),
        };
        let v = serde_json::to_value(&seat).expect("json");
        for key in v.as_object().expect("an object").keys() {
            assert!(super::SEAT_FIELDS.contains(&key.as_str()), "{key}");
        }
    }
}
