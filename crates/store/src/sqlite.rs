//! The SQLite backend, the default: one file in WAL mode, migrations embedded and run at open.
//! All writes go through one writer thread that drains whatever is queued and commits it as one
//! transaction (group commit): many tables' actions share one `fsync`. Appended actions reach the
//! database in insertion order first ([`crate::journal`]).

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;

use rusqlite::{params, Connection, OptionalExtension};
use tokio::sync::oneshot;

use crate::command::{forward_commands, Cmd, Queue, Write};
use crate::journal::Journal;
use crate::{
    now, tallies_from_json, tallies_json, Entry, GameResult, GameStore, Kind, Meta, NewGame, NewResult, Outcome,
    Record, Status, StoreError, StoredGame, Tally, TallyPage, ADD_TALLY, UNTALLIED,
};

/// Migrations, in order; `PRAGMA user_version` counts those applied.
pub(crate) const MIGRATIONS: &[&str] = &[
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
    // 3: a game's results are read by its id (its records, for replays).
    "CREATE INDEX results_game ON results (game_id, id);",
    // 4: statistics kept as totals, updated with each result: `counted` is 1 for a result whose
    // `tallies` are in the totals, 0 for one that counts for nothing, -1 for one stored before
    // (the server tallies those once).
    "ALTER TABLE results ADD COLUMN counted INTEGER NOT NULL DEFAULT -1;
    ALTER TABLE results ADD COLUMN tallies TEXT NOT NULL DEFAULT '';
    CREATE INDEX results_counted ON results (kind, counted);
    CREATE TABLE tallies (
        kind           TEXT NOT NULL,
        name           TEXT NOT NULL,
        games          INTEGER NOT NULL,
        wins           INTEGER NOT NULL,
        points         INTEGER NOT NULL,
        challenges_won INTEGER NOT NULL,
        uno_missed     INTEGER NOT NULL,
        PRIMARY KEY (kind, name)
    ) WITHOUT ROWID;
    CREATE INDEX tallies_rank ON tallies (kind, games DESC, wins DESC, name);",
];

/// A handle to a SQLite store; cheap to clone. The writer thread stops when the last handle goes.
#[derive(Clone)]
pub struct SqliteStore {
    tx: mpsc::Sender<Cmd>,
    path: Option<PathBuf>,
}

/// At most this many queued commands go into one transaction, so one commit stays short.
const MAX_BATCH: usize = 4096;

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
        migrate(&mut conn)?;
        let journal = Journal::load(&conn)?;
        let (tx, rx) = mpsc::channel();
        thread::Builder::new()
            .name("store-writer".into())
            .spawn(move || writer(conn, journal, rx))
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

impl GameStore for SqliteStore {
    fn backend(&self) -> &'static str {
        "sqlite"
    }

    fn location(&self) -> String {
        self.path.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| ":memory:".into())
    }

    forward_commands!();
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
                .execute(params![id, record.as_json(), meta.as_json(), t, journal.fresh_from()])?;
            touched(n, id)?;
            journal.restart(id);
            Ok(())
        }
        Write::Result(result) => add_result(tx, result, t),
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
    let NewGame { id, kind, record, meta } = game;
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
    .execute(params![id, kind.as_str(), record.as_json(), meta.as_json(), t])?;
    Ok(())
}

/// A finished game's result, its tallies added to the totals.
fn add_result(tx: &rusqlite::Transaction<'_>, result: &NewResult, t: i64) -> Result<(), StoreError> {
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

fn answer(conn: &Connection, journal: &mut Journal, cmd: Cmd) {
    if let Err(e) = journal.ensure(conn) {
        let msg = || StoreError::Commit(e.to_string());
        match cmd {
            Cmd::Adopt(_, _, reply) => drop(reply.send(Err(msg()))),
            Cmd::Holder(_, reply) => drop(reply.send(Err(msg()))),
            Cmd::Load(_, reply) => drop(reply.send(Err(msg()))),
            Cmd::Results(_, reply) | Cmd::ResultsOf(_, reply) | Cmd::Untallied(_, reply) => {
                drop(reply.send(Err(msg())))
            }
            Cmd::Tallies(.., reply) => drop(reply.send(Err(msg()))),
            Cmd::Write(..) | Cmd::Release(_) => {}
        }
        return;
    }
    let journal = &*journal;
    match cmd {
        // No leases: every active game is this store's, and none is ever adopted.
        Cmd::Adopt(kind, true, reply) => {
            let _ = reply.send(load_where(conn, journal, "kind = ?1 AND status = 'active'", kind.as_str()));
        }
        Cmd::Adopt(_, false, reply) => drop(reply.send(Ok(Vec::new()))),
        Cmd::Holder(_, reply) => drop(reply.send(Ok(None))),
        Cmd::Load(id, reply) => {
            let _ = reply.send(load_where(conn, journal, "id = ?1", &id).map(|mut v| v.pop()));
        }
        Cmd::Results(kind, reply) => {
            let _ = reply.send(results_where(conn, "kind = ?1", kind.as_str()));
        }
        Cmd::ResultsOf(id, reply) => {
            let _ = reply.send(results_where(conn, "game_id = ?1", &id));
        }
        Cmd::Untallied(kind, reply) => {
            let _ = reply.send(results_where(conn, "kind = ?1 AND counted = -1", kind.as_str()));
        }
        Cmd::Tallies(kind, offset, limit, reply) => {
            let _ = reply.send(tallies_page(conn, kind, offset, limit));
        }
        Cmd::Write(..) | Cmd::Release(_) => {}
    }
}

fn load_where(conn: &Connection, journal: &Journal, cond: &str, arg: &str) -> Result<Vec<StoredGame>, StoreError> {
    let sql = format!(
        "SELECT id, kind, record, meta, status, created_at, updated_at FROM games WHERE {cond} ORDER BY created_at"
    );
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt
        .query_map(params![arg], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, i64>(5)?,
                r.get::<_, i64>(6)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut games = Vec::with_capacity(rows.len());
    for (id, kind, record, meta, status, created_at, updated_at) in rows {
        games.push(StoredGame {
            id,
            kind: Kind::parse(&kind)?,
            record: Record::stored(record),
            meta: Meta::stored(meta),
            status: Status::parse(&status),
            actions: Vec::new(),
            created_at,
            updated_at,
        });
    }
    let mut log = conn.prepare_cached("SELECT action FROM actions WHERE game_id = ?1 ORDER BY seq")?;
    for g in &mut games {
        g.actions = log.query_map(params![g.id], |r| r.get(0).map(Entry::stored))?.collect::<Result<Vec<_>, _>>()?;
        g.actions.extend(journal.pending(&g.id).iter().cloned().map(Entry::stored));
    }
    Ok(games)
}

fn tallies_page(conn: &Connection, kind: Kind, offset: u64, limit: u64) -> Result<TallyPage, StoreError> {
    let k = kind.as_str();
    let players =
        conn.prepare_cached("SELECT COUNT(*) FROM tallies WHERE kind = ?1")?.query_row(params![k], |r| r.get(0))?;
    let games = conn
        .prepare_cached("SELECT COUNT(*) FROM results WHERE kind = ?1 AND counted = 1")?
        .query_row(params![k], |r| r.get(0))?;
    let page = conn
        .prepare_cached(
            "SELECT name, games, wins, points, challenges_won, uno_missed FROM tallies WHERE kind = ?1
             ORDER BY games DESC, wins DESC, name LIMIT ?2 OFFSET ?3",
        )?
        .query_map(params![k, limit.min(i64::MAX as u64) as i64, offset.min(i64::MAX as u64) as i64], |r| {
            Ok(Tally {
                name: r.get(0)?,
                games: r.get(1)?,
                wins: r.get(2)?,
                points: r.get(3)?,
                challenges_won: r.get(4)?,
                uno_missed: r.get(5)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(TallyPage { players, games, page })
}

fn results_where(conn: &Connection, cond: &str, arg: &str) -> Result<Vec<GameResult>, StoreError> {
    let sql =
        format!("SELECT game_id, kind, record, actions, result, finished_at FROM results WHERE {cond} ORDER BY id");
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt
        .query_map(params![arg], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, i64>(5)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter()
        .map(|(game_id, kind, record, actions, outcome, finished_at)| {
            Ok(GameResult {
                game_id,
                kind: Kind::parse(&kind)?,
                record: Record::stored(record),
                actions,
                outcome: Outcome::stored(outcome),
                finished_at,
            })
        })
        .collect()
}

/// Whether a game id exists (used by tests and tools; not on the hot path).
pub fn exists(path: &Path, id: &str) -> Result<bool, StoreError> {
    let conn = Connection::open(path)?;
    Ok(conn.query_row("SELECT 1 FROM games WHERE id = ?1", params![id], |_| Ok(())).optional()?.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Forgetting old games gives their pages back: the file's page count falls and no free
    /// page is left in it.
    #[tokio::test]
    async fn forgetting_shrinks_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("shrink.db");
        let s = SqliteStore::open(&path).expect("open");
        let long = "x".repeat(2000);
        for g in 0..40 {
            let id = format!("g{g}");
            s.create(crate::testing::new_game(&id, Kind::Uno)).await.expect("create");
            for seq in 0..20 {
                s.append(&id, seq, crate::testing::entry(&long)).await.expect("append");
            }
            s.set_status(&id, Status::Finished).await.expect("status");
        }
        let pages = |c: &Connection| -> (i64, i64) {
            let n = c.query_row("PRAGMA page_count", [], |r| r.get(0)).expect("pages");
            let free = c.query_row("PRAGMA freelist_count", [], |r| r.get(0)).expect("free");
            (n, free)
        };
        let (before, _) = pages(&Connection::open(&path).expect("open"));
        s.forget_results(Kind::Uno, now() + 1).await.expect("forget");
        let (after, free) = pages(&Connection::open(&path).expect("open"));
        assert!(after * 4 < before, "{before} pages before, {after} after");
        assert_eq!(free, 0);
    }

    /// A database from before tallies: its results are untallied until the server tallies
    /// them, once.
    #[tokio::test]
    async fn results_from_before_tallies_are_tallied_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("old.db");
        {
            let mut c = Connection::open(&path).expect("open");
            let tx = c.transaction().expect("tx");
            for sql in &MIGRATIONS[..3] {
                tx.execute_batch(sql).expect("old schema");
            }
            tx.pragma_update(None, "user_version", 3).expect("pragma");
            tx.execute(
                "INSERT INTO results (game_id, kind, record, actions, result, finished_at)
                 VALUES ('old', 'uno', '1', 0, '0', 5)",
                [],
            )
            .expect("old result");
            tx.commit().expect("commit");
        }
        let s = SqliteStore::open(&path).expect("open");
        let old = s.untallied(Kind::Uno).await.expect("untallied");
        assert_eq!(old.iter().map(|r| (r.game_id.as_str(), r.finished_at)).collect::<Vec<_>>(), [("old", 5)]);
        assert_eq!(s.tallies(Kind::Uno, 0, 10).await.expect("tallies").games, 0);
        let ann = Tally { name: "ann".into(), games: 1, wins: 1, points: 9, ..Default::default() };
        for _ in 0..2 {
            s.tally(Kind::Uno, "old", 5, Some(vec![ann.clone()])).await.expect("tally");
        }
        let page = s.tallies(Kind::Uno, 0, 10).await.expect("tallies");
        assert_eq!((page.players, page.games, page.page), (1, 1, vec![ann]));
        assert!(s.untallied(Kind::Uno).await.expect("untallied").is_empty());
    }

    #[test]
    fn a_newer_schema_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.db");
        {
            let c = Connection::open(&path).expect("open");
            c.pragma_update(None, "user_version", 99).expect("pragma");
        }
        assert!(matches!(SqliteStore::open(&path), Err(StoreError::NewerSchema { found: 99, .. })));
    }
}
