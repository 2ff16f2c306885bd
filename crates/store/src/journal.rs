//! Where appended actions go first: `log`, a table in insertion order.
//!
//! The keyed `actions` table (`game_id, seq`) keeps each game's log together, which is what
//! reading a game wants, but an append there lands on the B-tree page of *its* game: a commit
//! of actions from twenty tables wrote twenty 4 KiB pages to the WAL (and later checkpointed
//! them), nearly all of the writer thread's time under load. Appends now go to `log`, whose
//! rowids rise, so a commit writes the table's last page or two whatever games acted. A game's
//! rows are copied to `actions` in one go (a page or two) when it leaves play, or when its
//! oldest row in `log` falls far behind; `log` is trimmed from the front, in whole ranges, up
//! to the oldest row not yet copied.
//!
//! The writer thread holds the rows not yet copied in memory (the games in play), so neither an
//! append nor a read searches `log`: it is read once, when the store opens, to rebuild that.

use std::collections::{BTreeMap, HashMap};

use rusqlite::{params, Connection, Transaction};

use crate::StoreError;

/// A game whose oldest row in `log` lies this many rows behind the newest is copied to
/// `actions` while still in play, so one slow game cannot hold back the trimming for long.
/// (Small in tests, so that a test's few hundred appends go through both.)
const FAR_BEHIND: i64 = if cfg!(test) { 40 } else { 50_000 };
/// `log` is trimmed once this many rows at its front are no longer needed.
const TRIM_EVERY: i64 = if cfg!(test) { 16 } else { 4_096 };

/// One game's log as the writer knows it.
#[derive(Default)]
struct GameLog {
    /// The sequence number the next append must carry.
    next: i64,
    /// The rowid in `log` of the oldest row not yet copied to `actions`.
    first: Option<i64>,
    /// The actions not yet copied, the last `pending.len()` of the game's log.
    pending: Vec<String>,
}

/// The writer thread's view of `log`.
#[derive(Default)]
pub(crate) struct Journal {
    games: HashMap<String, GameLog>,
    /// `first` rowid → game, for the oldest row still needed.
    firsts: BTreeMap<i64, String>,
    /// The newest rowid in `log` (0 when it was never written).
    head: i64,
    /// Every row below this is gone from `log`.
    trimmed_below: i64,
    /// A commit failed and the database could not be read back: this view may be wrong.
    broken: bool,
}

impl Journal {
    /// The view after a failed commit that could not be read back: nothing is served from it
    /// until [`Journal::ensure`] reads the database again.
    pub(crate) fn broken() -> Journal {
        Journal { broken: true, ..Journal::default() }
    }

    /// Reads the view back from the database if a failed commit left it unknown.
    pub(crate) fn ensure(&mut self, conn: &Connection) -> Result<(), StoreError> {
        if self.broken {
            *self = Journal::load(conn)?;
        }
        Ok(())
    }

    /// Rebuilds the writer's view from the database: every row of `log` of a game in play
    /// that `actions` does not hold yet (rows from before a rematch excluded).
    pub(crate) fn load(conn: &Connection) -> Result<Journal, StoreError> {
        let mut journal = Journal::default();
        let (low, head): (Option<i64>, Option<i64>) =
            conn.query_row("SELECT MIN(id), MAX(id) FROM log", [], |r| Ok((r.get(0)?, r.get(1)?)))?;
        journal.head = head.unwrap_or(0);
        journal.trimmed_below = low.unwrap_or(journal.head + 1);
        let mut rows = conn.prepare(
            "SELECT l.id, l.game_id, l.seq, l.action FROM log l JOIN games g ON g.id = l.game_id
             WHERE g.status = 'active' AND l.id >= g.log_from ORDER BY l.id",
        )?;
        let mut rows = rows.query([])?;
        while let Some(r) = rows.next()? {
            let (rowid, id, seq, action): (i64, String, i64, String) = (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?);
            if !journal.games.contains_key(&id) {
                let next = copied(conn, &id)?;
                journal.games.insert(id.clone(), GameLog { next, ..GameLog::default() });
            }
            let Some(game) = journal.games.get_mut(&id) else { continue };
            // Rows copied to `actions` while the game was in play are still in `log`.
            if seq < game.next {
                continue;
            }
            if seq != game.next {
                return Err(StoreError::OutOfOrder { id, expected: game.next, got: seq });
            }
            game.next += 1;
            game.pending.push(action);
            if game.first.is_none() {
                game.first = Some(rowid);
                journal.firsts.insert(rowid, id);
            }
        }
        Ok(journal)
    }

    /// Appends action `seq` of game `id`: refused unless the game exists and `seq` is the next.
    pub(crate) fn append(&mut self, tx: &Transaction<'_>, id: &str, seq: i64, action: &str) -> Result<(), StoreError> {
        if !self.games.contains_key(id) {
            let exists = tx
                .prepare_cached("SELECT EXISTS (SELECT 1 FROM games WHERE id = ?1)")?
                .query_row(params![id], |r| r.get::<_, bool>(0))?;
            if !exists {
                return Err(StoreError::NoSuchGame(id.to_string()));
            }
            let next = copied(tx, id)?;
            self.games.insert(id.to_string(), GameLog { next, ..GameLog::default() });
        }
        let Some(game) = self.games.get_mut(id) else {
            return Err(StoreError::NoSuchGame(id.to_string()));
        };
        if seq != game.next {
            return Err(StoreError::OutOfOrder { id: id.to_string(), expected: game.next, got: seq });
        }
        tx.prepare_cached("INSERT INTO log (game_id, seq, action) VALUES (?1, ?2, ?3)")?
            .execute(params![id, seq, action])?;
        let rowid = tx.last_insert_rowid();
        self.head = rowid;
        game.next += 1;
        game.pending.push(action.to_string());
        if game.first.is_none() {
            game.first = Some(rowid);
            self.firsts.insert(rowid, id.to_string());
        }
        Ok(())
    }

    /// The game left play (finished or abandoned): its rows go to `actions`, and the writer
    /// forgets it.
    pub(crate) fn close(&mut self, tx: &Transaction<'_>, id: &str) -> Result<(), StoreError> {
        self.copy(tx, id)?;
        self.games.remove(id);
        Ok(())
    }

    /// A rematch: the game's log starts over. Its rows in `log` stay until trimmed, and
    /// `games.log_from` (set by the caller to `self.fresh_from()`) tells the rebuild to skip them.
    pub(crate) fn restart(&mut self, id: &str) {
        if let Some(game) = self.games.remove(id) {
            if let Some(first) = game.first {
                self.firsts.remove(&first);
            }
        }
        self.games.insert(id.to_string(), GameLog::default());
    }

    /// The rowid from which rows of `log` belong to a log started now.
    pub(crate) fn fresh_from(&self) -> i64 {
        self.head + 1
    }

    /// The end of a batch: copies a game that fell far behind, then trims the front of `log`.
    pub(crate) fn maintain(&mut self, tx: &Transaction<'_>) -> rusqlite::Result<()> {
        while let Some((&first, id)) = self.firsts.first_key_value() {
            if self.head - first < FAR_BEHIND {
                break;
            }
            let id = id.clone();
            self.copy(tx, &id)?;
        }
        // Keep the newest row: rowids then keep rising, which `log_from` relies on.
        let keep = self.firsts.first_key_value().map_or(self.head, |(&first, _)| first.min(self.head));
        if keep - self.trimmed_below >= TRIM_EVERY {
            tx.prepare_cached("DELETE FROM log WHERE id < ?1")?.execute(params![keep])?;
            self.trimmed_below = keep;
        }
        Ok(())
    }

    /// The actions of game `id` not yet in `actions`, after those that are.
    pub(crate) fn pending(&self, id: &str) -> &[String] {
        self.games.get(id).map_or(&[], |g| g.pending.as_slice())
    }

    /// Copies game `id`'s pending rows to `actions` (its rows sit together there: one or two
    /// pages for the whole batch). The view changes only once every row is in: a failed insert
    /// leaves it as it was, for the caller's savepoint to undo the rest.
    fn copy(&mut self, tx: &Transaction<'_>, id: &str) -> rusqlite::Result<()> {
        let Some(game) = self.games.get_mut(id) else { return Ok(()) };
        let Some(first) = game.first else { return Ok(()) };
        let start = game.next - game.pending.len() as i64;
        let mut insert = tx.prepare_cached("INSERT INTO actions (game_id, seq, action) VALUES (?1, ?2, ?3)")?;
        for (i, action) in game.pending.iter().enumerate() {
            insert.execute(params![id, start + i as i64, action])?;
        }
        game.first = None;
        game.pending.clear();
        self.firsts.remove(&first);
        Ok(())
    }
}

/// How many actions of game `id` the keyed `actions` table holds (its next sequence number there).
fn copied(conn: &Connection, id: &str) -> Result<i64, StoreError> {
    Ok(conn
        .prepare_cached("SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE game_id = ?1")?
        .query_row(params![id], |r| r.get(0))?)
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    use crate::sqlite::MIGRATIONS;
    use crate::testing::{entries, entry, new_game};
    use crate::{GameStore, Kind, SqliteStore, Standing};

    /// A game whose log cannot be moved (here a row in the way, put there behind the store's
    /// back) keeps its status and its log: the failed write is undone whole, the writer's view
    /// included, and the same write goes through once the way is clear.
    #[tokio::test]
    async fn a_move_that_fails_loses_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("f.db");
        let store = SqliteStore::open(&path).expect("open");
        store.create(new_game("g", Kind::UNO)).done().await.expect("create");
        for i in 0..3 {
            store.append("g", i, entry(&format!("a{i}"))).done().await.expect("append");
        }
        let other = Connection::open(&path).expect("second connection");
        other.execute("INSERT INTO actions (game_id, seq, action) VALUES ('g', 1, '\"x\"')", []).expect("in the way");
        assert!(store.set_standing("g", Standing::Finished).done().await.is_err());
        other.execute("DELETE FROM actions WHERE game_id = 'g'", []).expect("clear the way");
        let g = store.load("g").await.expect("load").expect("stored");
        assert_eq!((g.standing, g.actions.as_slice()), (Standing::Active, &entries(&["a0", "a1", "a2"])[..]));
        store.set_standing("g", Standing::Finished).done().await.expect("status");
        drop(store);
        let store = SqliteStore::open(&path).expect("reopen");
        let g = store.load("g").await.expect("load").expect("stored");
        assert_eq!((g.standing, g.actions.as_slice()), (Standing::Finished, &entries(&["a0", "a1", "a2"])[..]));
    }

    /// A database written before `log` existed (schema 1) opens, reads and appends on.
    #[tokio::test]
    async fn a_schema_one_database_reads_and_appends_on() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("v1.db");
        {
            let conn = Connection::open(&path).expect("open");
            conn.execute_batch(MIGRATIONS[0]).expect("schema 1");
            conn.pragma_update(None, "user_version", 1).expect("version");
            conn.execute(
                "INSERT INTO games (id, kind, record, meta, status, created_at, updated_at)
                 VALUES ('old', 'uno', '{}', '{}', 'active', 0, 0)",
                [],
            )
            .expect("game");
            for seq in 0..3 {
                conn.execute(
                    "INSERT INTO actions (game_id, seq, action) VALUES ('old', ?1, ?2)",
                    (seq, format!("\"a{seq}\"")),
                )
                .expect("action");
            }
        }
        let store = SqliteStore::open(&path).expect("migrate");
        store.append("old", 3, entry("a3")).done().await.expect("append after the old log");
        assert!(store.append("old", 3, entry("again")).done().await.is_err());
        let g = store.load_active(Kind::UNO).await.expect("load");
        assert_eq!(g[0].actions, entries(&["a0", "a1", "a2", "a3"]));
    }
}
