//! What each write does to the database, inside its batch's transaction.

use rusqlite::{params, OptionalExtension};

use crate::command::Write;
use crate::journal::Journal;
use crate::{
    now, tallies_from_json, tallies_json, Kind, NewGame, NewResult, Standing, StoreError, Tally, ADD_TALLY, UNTALLIED,
};

/// Applies one write; an error refuses this write alone (the batch goes on).
pub(super) fn apply(tx: &rusqlite::Transaction<'_>, journal: &mut Journal, w: &Write) -> Result<(), StoreError> {
    let t = now();
    let touched = |n: usize, id: &str| if n == 0 { Err(StoreError::NoSuchGame(id.to_string())) } else { Ok(()) };
    match w {
        Write::Create(game) => create(tx, game, t),
        // The games row is not touched: rewriting it (record and meta blobs included) for
        // every action was most of an append's cost. Its `updated_at` is the row's last change.
        Write::Append { id, seq, entry } => journal.append(tx, id, *seq, entry.as_json()),
        Write::Meta { id, meta } => {
            let n = tx
                .prepare_cached("UPDATE games SET meta = ?2, updated_at = ?3 WHERE id = ?1")?
                .execute(params![id, meta.as_json(), t])?;
            touched(n, id)
        }
        Write::Standing { id, standing } => {
            let n = tx
                .prepare_cached("UPDATE games SET status = ?2, updated_at = ?3 WHERE id = ?1")?
                .execute(params![id, standing.as_str(), t])?;
            touched(n, id)?;
            if *standing != Standing::Active {
                journal.close(tx, id)?;
            }
            Ok(())
        }
        Write::Reset { id, header, meta } => {
            tx.prepare_cached("DELETE FROM actions WHERE game_id = ?1")?.execute(params![id])?;
            let n = tx
                .prepare_cached(
                    "UPDATE games SET record = ?2, meta = ?3, status = 'active', updated_at = ?4, log_from = ?5
                     WHERE id = ?1",
                )?
                .execute(params![id, header.as_json(), meta.as_json(), t, journal.fresh_from()])?;
            touched(n, id)?;
            journal.restart(id);
            Ok(())
        }
        Write::Result(result) => add_result(tx, result, t),
        Write::Import { result, budget } => {
            add_result(tx, result, t)?;
            tx.prepare_cached("UPDATE results SET imported = 1 WHERE id = last_insert_rowid()")?.execute([])?;
            // The newest imports first: those past the budget are the oldest.
            tx.prepare_cached(
                "DELETE FROM results WHERE id IN (
                     SELECT id FROM (
                         SELECT id, SUM(length(CAST(record AS BLOB))) OVER (ORDER BY id DESC) AS total
                         FROM results WHERE imported = 1
                     ) WHERE total > ?1
                 )",
            )?
            .execute(params![i64::try_from(*budget).unwrap_or(i64::MAX)])?;
            Ok(())
        }
        Write::Tally { kind, game_id, finished_at, tallies } => {
            let (counted, json) = tallies_json(tallies)?;
            let n = tx
                .prepare_cached(
                    "UPDATE results SET counted = ?1, tallies = ?2
                     WHERE kind = ?3 AND game_id = ?4 AND finished_at = ?5 AND counted = ?6",
                )?
                .execute(params![counted, json, kind.as_str(), game_id, finished_at, UNTALLIED])?;
            for _ in 0..n {
                add_tallies(tx, *kind, tallies.as_deref().unwrap_or(&[]), 1)?;
            }
            Ok(())
        }
        Write::ForgetResults { kind, before } => forget_results(tx, journal, *kind, *before),
    }
}

/// A new game's row, refused if the id is taken.
fn create(tx: &rusqlite::Transaction<'_>, game: &NewGame, t: i64) -> Result<(), StoreError> {
    let NewGame { id, kind, header, meta } = game;
    let taken = tx
        .prepare_cached("SELECT 1 FROM games WHERE id = ?1")?
        .query_row(params![id], |_| Ok(()))
        .optional()?
        .is_some();
    if taken {
        return Err(StoreError::Duplicate(id.clone()));
    }
    tx.prepare_cached(
        "INSERT INTO games (id, kind, record, meta, status, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, 'active', ?5, ?5)",
    )?
    .execute(params![id, kind.as_str(), header.as_json(), meta.as_json(), t])?;
    Ok(())
}

/// A finished game's result, its tallies added to the totals (also a rated game's, `people`).
pub(crate) fn add_result(tx: &rusqlite::Transaction<'_>, result: &NewResult, t: i64) -> Result<(), StoreError> {
    let NewResult { game_id, kind, record, actions, outcome, tallies } = result;
    let (counted, json) = tallies_json(tallies)?;
    tx.prepare_cached(
        "INSERT INTO results (game_id, kind, record, actions, result, finished_at, counted, tallies)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        game_id,
        kind.as_str(),
        record.as_json(),
        *actions as i64,
        outcome.as_json(),
        t,
        counted,
        json
    ])?;
    add_tallies(tx, *kind, tallies.as_deref().unwrap_or(&[]), 1)
}

/// Everything of a game that left play before `before`: its row, its log (the `actions` rows
/// go with it) and its results; the freed pages go back to the file system (`auto_vacuum` is
/// incremental).
fn forget_results(
    tx: &rusqlite::Transaction<'_>,
    journal: &mut Journal,
    kind: Kind,
    before: i64,
) -> Result<(), StoreError> {
    let games: Vec<String> = tx
        .prepare_cached("SELECT id FROM games WHERE kind = ?1 AND status <> 'active' AND updated_at < ?2")?
        .query_map(params![kind.as_str(), before], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for id in &games {
        journal.close(tx, id)?;
        tx.prepare_cached("DELETE FROM games WHERE id = ?1")?.execute(params![id])?;
    }
    let gone: Vec<String> = tx
        .prepare_cached("SELECT tallies FROM results WHERE kind = ?1 AND finished_at < ?2 AND counted = 1")?
        .query_map(params![kind.as_str(), before], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for json in gone {
        add_tallies(tx, kind, &tallies_from_json(&json)?, -1)?;
    }
    tx.prepare_cached("DELETE FROM results WHERE kind = ?1 AND finished_at < ?2")?
        .execute(params![kind.as_str(), before])?;
    let mut vacuum = tx.prepare_cached("PRAGMA incremental_vacuum")?;
    let mut freed = vacuum.query([])?;
    while freed.next()?.is_some() {}
    Ok(())
}

/// Adds `sign` times each tally to the totals of `kind`, and forgets the players left at none.
fn add_tallies(tx: &rusqlite::Transaction<'_>, kind: Kind, tallies: &[Tally], sign: i64) -> Result<(), StoreError> {
    let mut add = tx.prepare_cached(ADD_TALLY)?;
    for t in tallies {
        add.execute(params![
            kind.as_str(),
            t.name,
            sign * t.games,
            sign * t.wins,
            sign * t.points,
            sign * t.challenges_won,
            sign * t.uno_missed
        ])?;
    }
    if sign < 0 {
        tx.prepare_cached("DELETE FROM tallies WHERE kind = ?1 AND games <= 0")?.execute(params![kind.as_str()])?;
    }
    Ok(())
}
