//! The SQLite backend, the default: one file in WAL mode, migrations embedded and run at open.
//! All writes go through one writer thread that drains whatever is queued and commits it as one
//! transaction (group commit): many tables' actions share one `fsync`. Appended actions reach the
//! database in insertion order first ([`crate::journal`]).

mod apply;
mod people;
mod reads;
mod schema;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;

use rusqlite::{params, Connection, OptionalExtension};

use crate::command::{forward_commands, people_commands, Cmd, Queue};
use crate::journal::Journal;
use crate::{GameStore, StoreError};
pub(crate) use apply::add_result as insert_result;
#[cfg(test)]
pub(crate) use schema::MIGRATIONS;

/// A handle to a SQLite store; cheap to clone. The writer thread stops when the last handle goes.
#[derive(Clone)]
pub struct SqliteStore {
    tx: mpsc::Sender<Cmd>,
    path: Option<PathBuf>,
}

impl SqliteStore {
    /// Opens (creating if needed) the database file and runs the migrations.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        let path = path.as_ref().to_path_buf();
        let conn = Connection::open(&path)?;
        SqliteStore::start(conn, Some(path))
    }

    /// A store that lives in memory only (tests).
    pub fn open_in_memory() -> Result<SqliteStore, StoreError> {
        SqliteStore::start(Connection::open_in_memory()?, None)
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    fn start(mut conn: Connection, path: Option<PathBuf>) -> Result<SqliteStore, StoreError> {
        // WAL: readers never block the writer; synchronous=FULL: a commit is on disk when it returns.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // Pages freed by forgetting old games go back to the file system (2: incremental). A
        // file made before is rewritten once to take the setting.
        let vacuum: i64 = conn.query_row("PRAGMA auto_vacuum", [], |r| r.get(0))?;
        if vacuum != 2 {
            conn.pragma_update(None, "auto_vacuum", 2)?;
            conn.execute_batch("VACUUM")?;
        }
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        schema::migrate(&mut conn)?;
        let journal = Journal::load(&conn)?;
        let (tx, rx) = mpsc::channel();
        thread::Builder::new()
            .name("store-writer".into())
            .spawn(move || writer::writer(conn, journal, rx))
            .map_err(|_| StoreError::Closed)?;
        Ok(SqliteStore { tx, path })
    }
}

impl Queue for SqliteStore {
    fn queue(&self, cmd: Cmd) {
        // A send error drops the command and its answer: the caller's reply reports `Closed`.
        let _ = self.tx.send(cmd);
    }
}

impl crate::PeopleStore for SqliteStore {
    people_commands!();
}

impl GameStore for SqliteStore {
    fn backend(&self) -> &'static str {
        "sqlite"
    }

    fn location(&self) -> String {
        self.path.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| ":memory:".into())
    }

    forward_commands!();

    fn people(&self) -> Option<crate::SharedPeople> {
        Some(std::sync::Arc::new(self.clone()))
    }
}

/// Whether a game id exists (used by tests and tools; not on the hot path).
pub fn exists(path: &Path, id: &str) -> Result<bool, StoreError> {
    let conn = Connection::open(path)?;
    Ok(conn.query_row("SELECT 1 FROM games WHERE id = ?1", params![id], |_| Ok(())).optional()?.is_some())
}

#[cfg(test)]
mod tests;
