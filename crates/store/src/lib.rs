//! Persistence for tabletop: every game is kept as its record (a JSON blob naming the engine
//! version, rules, seed and seats), an append-only log of JSON actions, and a JSON blob of
//! server metadata (seat names, hashed tokens, settings). A game is rebuilt by replaying the log.
//!
//! SQLite by default: one file in WAL mode, migrations embedded and run at open. All writes go
//! through one writer thread that drains whatever is queued and commits it as one transaction
//! (group commit): many tables' actions share one `fsync`, and every caller is told only once
//! its write is durable. Writes are applied in the order they were queued. Appended actions
//! reach the database in insertion order first ([`journal`]).
//!
//! The store knows nothing about UNO or Duel: `kind` names the game ("uno", "duel"), and the
//! blobs are the game's own JSON.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use thiserror::Error;
use tokio::sync::oneshot;

mod journal;
use journal::Journal;

/// Migrations, in order; `PRAGMA user_version` counts those applied.
const MIGRATIONS: &[&str] = &[
    // 1: games, their action logs and their results.
    "CREATE TABLE games (
        id          TEXT PRIMARY KEY,
        kind        TEXT NOT NULL,
        record      TEXT NOT NULL,
        meta        TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('active', 'finished', 'abandoned')),
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
    );
    CREATE INDEX games_status ON games (status);
    CREATE TABLE actions (
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq     INTEGER NOT NULL,
        action  TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE results (
        id          INTEGER PRIMARY KEY,
        game_id     TEXT NOT NULL,
        kind        TEXT NOT NULL,
        record      TEXT NOT NULL,
        actions     INTEGER NOT NULL,
        result      TEXT NOT NULL,
        finished_at INTEGER NOT NULL
    );
    CREATE INDEX results_kind ON results (kind, finished_at);",
    // 2: appends go to `log`, in insertion order, and reach `actions` a game at a time (see
    // `journal`); `log_from` marks where a game's current log starts in `log` (a rematch).
    "CREATE TABLE log (
        id      INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL,
        seq     INTEGER NOT NULL,
        action  TEXT NOT NULL
    );
    ALTER TABLE games ADD COLUMN log_from INTEGER NOT NULL DEFAULT 0;",
];

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("the database was written by a newer tabletop (schema {found}, this build knows {known})")]
    NewerSchema { found: i64, known: i64 },
    #[error("no game {0} in the store")]
    NoSuchGame(String),
    #[error("game {id}: expected action number {expected}, got {got}")]
    OutOfOrder { id: String, expected: i64, got: i64 },
    #[error("the store's writer has stopped")]
    Closed,
    #[error("commit failed: {0}")]
    Commit(String),
}

/// Where a game stands, as the store sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Rebuilt when the server starts.
    Active,
    Finished,
    /// Left idle too long; kept for the record, never rebuilt.
    Abandoned,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Finished => "finished",
            Status::Abandoned => "abandoned",
        }
    }
    fn parse(s: &str) -> Status {
        match s {
            "finished" => Status::Finished,
            "abandoned" => Status::Abandoned,
            _ => Status::Active,
        }
    }
}

/// A game as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    pub id: String,
    pub kind: String,
    pub record: String,
    pub meta: String,
    pub status: Status,
    /// The action log, in order (JSON texts).
    pub actions: Vec<String>,
    pub created_at: i64,
    /// The last change to the game itself (created, meta, status, reset); appends leave it.
    pub updated_at: i64,
}

/// One finished game, for statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    pub game_id: String,
    pub kind: String,
    pub record: String,
    pub actions: i64,
    pub result: String,
    pub finished_at: i64,
}

enum Write {
    Create {
        id: String,
        kind: String,
        record: String,
        meta: String,
    },
    Append {
        id: String,
        seq: i64,
        action: String,
    },
    Meta {
        id: String,
        meta: String,
    },
    Status {
        id: String,
        status: Status,
    },
    /// A rematch: a new record, the log emptied.
    Reset {
        id: String,
        record: String,
        meta: String,
    },
    Result {
        id: String,
        kind: String,
        record: String,
        actions: i64,
        result: String,
    },
}

enum Cmd {
    Write(Write, oneshot::Sender<Result<(), StoreError>>),
    LoadActive(String, oneshot::Sender<Result<Vec<StoredGame>, StoreError>>),
    Load(String, oneshot::Sender<Result<Option<StoredGame>, StoreError>>),
    Results(String, oneshot::Sender<Result<Vec<GameResult>, StoreError>>),
}

/// A write that was queued: await it (or `wait` outside async code) to know it is durable.
pub struct Ticket(oneshot::Receiver<Result<(), StoreError>>);

impl Ticket {
    pub async fn done(self) -> Result<(), StoreError> {
        self.0.await.unwrap_or(Err(StoreError::Closed))
    }
    /// Blocks the thread until the write is committed. Not for async code.
    pub fn wait(self) -> Result<(), StoreError> {
        self.0.blocking_recv().unwrap_or(Err(StoreError::Closed))
    }
}

/// A handle to the store; cheap to clone. The writer thread stops when the last handle goes.
#[derive(Clone)]
pub struct Store {
    tx: mpsc::Sender<Cmd>,
    path: Option<PathBuf>,
}

/// At most this many queued commands go into one transaction, so one commit stays short.
const MAX_BATCH: usize = 4096;

impl Store {
    /// Opens (creating if needed) the database file and runs the migrations.
    pub fn open(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        let path = path.as_ref().to_path_buf();
        let conn = Connection::open(&path)?;
        Store::start(conn, Some(path))
    }

    /// A store that lives in memory only (tests).
    pub fn open_in_memory() -> Result<Store, StoreError> {
        Store::start(Connection::open_in_memory()?, None)
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    fn start(mut conn: Connection, path: Option<PathBuf>) -> Result<Store, StoreError> {
        // WAL: readers never block the writer; synchronous=FULL: a commit is on disk when it returns.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        migrate(&mut conn)?;
        let journal = Journal::load(&conn)?;
        let (tx, rx) = mpsc::channel();
        thread::Builder::new()
            .name("store-writer".into())
            .spawn(move || writer(conn, journal, rx))
            .map_err(|_| StoreError::Closed)?;
        Ok(Store { tx, path })
    }

    fn write(&self, w: Write) -> Ticket {
        let (tx, rx) = oneshot::channel();
        // A send error drops `tx`, and the ticket then reports `Closed`.
        let _ = self.tx.send(Cmd::Write(w, tx));
        Ticket(rx)
    }

    /// Stores a new game (status active, empty log).
    pub fn create(&self, id: &str, kind: &str, record: String, meta: String) -> Ticket {
        self.write(Write::Create { id: id.into(), kind: kind.into(), record, meta })
    }

    /// Appends action number `seq` (0-based) to a game's log; refused unless it is the next one.
    pub fn append(&self, id: &str, seq: u64, action: String) -> Ticket {
        self.write(Write::Append { id: id.into(), seq: seq as i64, action })
    }

    pub fn set_meta(&self, id: &str, meta: String) -> Ticket {
        self.write(Write::Meta { id: id.into(), meta })
    }

    pub fn set_status(&self, id: &str, status: Status) -> Ticket {
        self.write(Write::Status { id: id.into(), status })
    }

    /// Starts the game over with a new record (a rematch): the log is emptied, status active.
    pub fn reset(&self, id: &str, record: String, meta: String) -> Ticket {
        self.write(Write::Reset { id: id.into(), record, meta })
    }

    /// Keeps a finished game's result for statistics, with its record and log length.
    pub fn add_result(&self, id: &str, kind: &str, record: String, actions: u64, result: String) -> Ticket {
        self.write(Write::Result { id: id.into(), kind: kind.into(), record, actions: actions as i64, result })
    }

    /// Every active game of `kind`, with its log: what a starting server rebuilds.
    pub async fn load_active(&self, kind: &str) -> Result<Vec<StoredGame>, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.tx.send(Cmd::LoadActive(kind.into(), tx)).map_err(|_| StoreError::Closed)?;
        rx.await.unwrap_or(Err(StoreError::Closed))
    }

    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.tx.send(Cmd::Load(id.into(), tx)).map_err(|_| StoreError::Closed)?;
        rx.await.unwrap_or(Err(StoreError::Closed))
    }

    /// The results kept for `kind`, oldest first.
    pub async fn results(&self, kind: &str) -> Result<Vec<GameResult>, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.tx.send(Cmd::Results(kind.into(), tx)).map_err(|_| StoreError::Closed)?;
        rx.await.unwrap_or(Err(StoreError::Closed))
    }
}

fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let known = MIGRATIONS.len() as i64;
    let found: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if found > known {
        return Err(StoreError::NewerSchema { found, known });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        tx.commit()?;
    }
    Ok(())
}

fn now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

fn writer(mut conn: Connection, mut journal: Journal, rx: mpsc::Receiver<Cmd>) {
    let mut batch: Vec<(Write, oneshot::Sender<Result<(), StoreError>>)> = Vec::new();
    while let Ok(first) = rx.recv() {
        let mut next = Some(first);
        // Gather every write queued right now; reads are answered in order between batches.
        loop {
            match next.take() {
                Some(Cmd::Write(w, reply)) => batch.push((w, reply)),
                Some(read) => {
                    commit(&mut conn, &mut journal, &mut batch);
                    answer(&conn, &mut journal, read);
                }
                None => {}
            }
            if batch.len() >= MAX_BATCH {
                break;
            }
            match rx.try_recv() {
                Ok(cmd) => next = Some(cmd),
                Err(_) => break,
            }
        }
        commit(&mut conn, &mut journal, &mut batch);
    }
}

/// Commits a batch in one transaction. A write that fails on its own (a bad sequence number) is
/// refused alone; if the commit itself fails, every write of the batch is refused (and the
/// journal, which the batch changed as it went, is read back from the database).
fn commit(
    conn: &mut Connection,
    journal: &mut Journal,
    batch: &mut Vec<(Write, oneshot::Sender<Result<(), StoreError>>)>,
) {
    if batch.is_empty() {
        return;
    }
    if let Err(e) = journal.ensure(conn) {
        refuse_all(batch, &e.to_string());
        return;
    }
    let outcome: Result<Vec<Result<(), StoreError>>, rusqlite::Error> = (|| {
        let tx = conn.transaction()?;
        let mut each = Vec::with_capacity(batch.len());
        for (w, _) in batch.iter() {
            // A reset and a change of status (which moves the game's log) write more than one
            // statement; any other write is one, which SQLite already undoes on its own when it
            // fails. Three statements fewer per action.
            let guarded = matches!(w, Write::Reset { .. } | Write::Status { .. });
            if guarded {
                tx.prepare_cached("SAVEPOINT one")?.execute([])?;
            }
            let r = apply(&tx, journal, w);
            if r.is_err() && tx.is_autocommit() {
                // The failure ended the whole transaction (I/O error, full disk): refuse the batch
                // rather than run the rest outside it.
                return Err(match r {
                    Err(StoreError::Sqlite(e)) => e,
                    _ => rusqlite::Error::SqliteFailure(
                        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ABORT),
                        Some("the transaction was rolled back".into()),
                    ),
                });
            }
            if guarded {
                if r.is_err() {
                    tx.prepare_cached("ROLLBACK TO one")?.execute([])?;
                }
                tx.prepare_cached("RELEASE one")?.execute([])?;
            }
            each.push(r);
        }
        journal.maintain(&tx)?;
        tx.commit()?;
        Ok(each)
    })();
    match outcome {
        Ok(each) => {
            for ((_, reply), r) in batch.drain(..).zip(each) {
                let _ = reply.send(r);
            }
        }
        Err(e) => {
            match Journal::load(conn) {
                Ok(j) => *journal = j,
                // The database cannot be read back: refuse everything from now on rather than
                // append to a log whose state is unknown.
                Err(_) => *journal = Journal::broken(),
            }
            refuse_all(batch, &e.to_string());
        }
    }
}

/// Tells every write of the batch that it was not committed, and why.
fn refuse_all(batch: &mut Vec<(Write, oneshot::Sender<Result<(), StoreError>>)>, why: &str) {
    for (_, reply) in batch.drain(..) {
        let _ = reply.send(Err(StoreError::Commit(why.to_string())));
    }
}

fn apply(tx: &rusqlite::Transaction<'_>, journal: &mut Journal, w: &Write) -> Result<(), StoreError> {
    let t = now();
    let touched = |n: usize, id: &str| if n == 0 { Err(StoreError::NoSuchGame(id.to_string())) } else { Ok(()) };
    match w {
        Write::Create { id, kind, record, meta } => {
            tx.prepare_cached(
                "INSERT INTO games (id, kind, record, meta, status, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, 'active', ?5, ?5)",
            )?
            .execute(params![id, kind, record, meta, t])?;
            Ok(())
        }
        // The games row is not touched: rewriting it (record and meta blobs included) for
        // every action was most of an append's cost. Its `updated_at` is the row's last change.
        Write::Append { id, seq, action } => journal.append(tx, id, *seq, action),
        Write::Meta { id, meta } => {
            let n = tx
                .prepare_cached("UPDATE games SET meta = ?2, updated_at = ?3 WHERE id = ?1")?
                .execute(params![id, meta, t])?;
            touched(n, id)
        }
        Write::Status { id, status } => {
            let n = tx
                .prepare_cached("UPDATE games SET status = ?2, updated_at = ?3 WHERE id = ?1")?
                .execute(params![id, status.as_str(), t])?;
            touched(n, id)?;
            if *status != Status::Active {
                journal.close(tx, id)?;
            }
            Ok(())
        }
        Write::Reset { id, record, meta } => {
            tx.prepare_cached("DELETE FROM actions WHERE game_id = ?1")?.execute(params![id])?;
            let n = tx
                .prepare_cached(
                    "UPDATE games SET record = ?2, meta = ?3, status = 'active', updated_at = ?4, log_from = ?5
                     WHERE id = ?1",
                )?
                .execute(params![id, record, meta, t, journal.fresh_from()])?;
            touched(n, id)?;
            journal.restart(id);
            Ok(())
        }
        Write::Result { id, kind, record, actions, result } => {
            tx.prepare_cached(
                "INSERT INTO results (game_id, kind, record, actions, result, finished_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![id, kind, record, actions, result, t])?;
            Ok(())
        }
    }
}

fn answer(conn: &Connection, journal: &mut Journal, cmd: Cmd) {
    if let Err(e) = journal.ensure(conn) {
        let msg = || StoreError::Commit(e.to_string());
        match cmd {
            Cmd::LoadActive(_, reply) => drop(reply.send(Err(msg()))),
            Cmd::Load(_, reply) => drop(reply.send(Err(msg()))),
            Cmd::Results(_, reply) => drop(reply.send(Err(msg()))),
            Cmd::Write(..) => {}
        }
        return;
    }
    let journal = &*journal;
    match cmd {
        Cmd::LoadActive(kind, reply) => {
            let _ = reply.send(load_where(conn, journal, "kind = ?1 AND status = 'active'", &kind));
        }
        Cmd::Load(id, reply) => {
            let _ = reply.send(load_where(conn, journal, "id = ?1", &id).map(|mut v| v.pop()));
        }
        Cmd::Results(kind, reply) => {
            let _ = reply.send(results(conn, &kind));
        }
        Cmd::Write(..) => {}
    }
}

fn load_where(conn: &Connection, journal: &Journal, cond: &str, arg: &str) -> Result<Vec<StoredGame>, StoreError> {
    let sql = format!(
        "SELECT id, kind, record, meta, status, created_at, updated_at FROM games WHERE {cond} ORDER BY created_at"
    );
    let mut stmt = conn.prepare(&sql)?;
    let mut games = stmt
        .query_map(params![arg], |r| {
            Ok(StoredGame {
                id: r.get(0)?,
                kind: r.get(1)?,
                record: r.get(2)?,
                meta: r.get(3)?,
                status: Status::parse(&r.get::<_, String>(4)?),
                actions: Vec::new(),
                created_at: r.get(5)?,
                updated_at: r.get(6)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut log = conn.prepare_cached("SELECT action FROM actions WHERE game_id = ?1 ORDER BY seq")?;
    for g in &mut games {
        g.actions = log.query_map(params![g.id], |r| r.get(0))?.collect::<Result<Vec<String>, _>>()?;
        g.actions.extend_from_slice(journal.pending(&g.id));
    }
    Ok(games)
}

fn results(conn: &Connection, kind: &str) -> Result<Vec<GameResult>, StoreError> {
    let mut stmt = conn.prepare(
        "SELECT game_id, kind, record, actions, result, finished_at FROM results WHERE kind = ?1 ORDER BY id",
    )?;
    let rows = stmt
        .query_map(params![kind], |r| {
            Ok(GameResult {
                game_id: r.get(0)?,
                kind: r.get(1)?,
                record: r.get(2)?,
                actions: r.get(3)?,
                result: r.get(4)?,
                finished_at: r.get(5)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// Whether a game id exists (used by tests and tools; not on the hot path).
pub fn exists(path: &Path, id: &str) -> Result<bool, StoreError> {
    let conn = Connection::open(path)?;
    Ok(conn.query_row("SELECT 1 FROM games WHERE id = ?1", params![id], |_| Ok(())).optional()?.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_game_survives_reopening_with_its_log_in_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.db");
        {
            let s = Store::open(&path).expect("open");
            s.create("g1", "uno", "{\"seed\":1}".into(), "{}".into()).done().await.expect("create");
            s.create("g2", "duel", "{}".into(), "{}".into()).done().await.expect("create");
            let tickets: Vec<Ticket> = (0..50).map(|i| s.append("g1", i, format!("{{\"n\":{i}}}"))).collect();
            for t in tickets {
                t.done().await.expect("append");
            }
            s.set_meta("g1", "{\"m\":1}".into()).done().await.expect("meta");
        }
        let s = Store::open(&path).expect("reopen");
        let uno = s.load_active("uno").await.expect("load");
        assert_eq!(uno.len(), 1);
        assert_eq!(uno[0].meta, "{\"m\":1}");
        assert_eq!(uno[0].actions.len(), 50);
        assert_eq!(uno[0].actions[7], "{\"n\":7}");
        assert_eq!(s.load_active("duel").await.expect("load").len(), 1);
    }

    #[tokio::test]
    async fn an_out_of_order_append_is_refused_alone() {
        let s = Store::open_in_memory().expect("open");
        s.create("g", "uno", "{}".into(), "{}".into()).done().await.expect("create");
        let a = s.append("g", 0, "a".into());
        let bad = s.append("g", 5, "x".into());
        let b = s.append("g", 1, "b".into());
        a.done().await.expect("first");
        assert!(matches!(bad.done().await, Err(StoreError::OutOfOrder { expected: 1, got: 5, .. })));
        b.done().await.expect("second");
        assert!(matches!(s.append("nope", 0, "a".into()).done().await, Err(StoreError::NoSuchGame(_))));
        let g = s.load("g").await.expect("load").expect("exists");
        assert_eq!(g.actions, vec!["a".to_string(), "b".to_string()]);
    }

    #[tokio::test]
    async fn finished_and_abandoned_games_are_not_rebuilt_and_results_are_kept() {
        let s = Store::open_in_memory().expect("open");
        for id in ["a", "b", "c"] {
            s.create(id, "uno", "{}".into(), "{}".into()).done().await.expect("create");
        }
        s.set_status("a", Status::Finished).done().await.expect("status");
        s.set_status("b", Status::Abandoned).done().await.expect("status");
        s.add_result("a", "uno", "{}".into(), 12, "{\"winner\":0}".into()).done().await.expect("result");
        let active = s.load_active("uno").await.expect("load");
        assert_eq!(active.iter().map(|g| g.id.as_str()).collect::<Vec<_>>(), vec!["c"]);
        let r = s.results("uno").await.expect("results");
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].actions, 12);
        s.append("c", 0, "x".into()).done().await.expect("append");
        s.reset("c", "{\"seed\":2}".into(), "{}".into()).done().await.expect("reset");
        let c = s.load("c").await.expect("load").expect("c");
        assert!(c.actions.is_empty());
        assert_eq!(c.record, "{\"seed\":2}");
    }

    #[test]
    fn a_newer_schema_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.db");
        {
            let c = Connection::open(&path).expect("open");
            c.pragma_update(None, "user_version", 99).expect("pragma");
        }
        assert!(matches!(Store::open(&path), Err(StoreError::NewerSchema { found: 99, .. })));
    }
}
