//! The PostgreSQL backend: the same tables as SQLite's, in a database the operator runs.
//!
//! One writer task takes every queued write and commits whatever queued while the last commit
//! was in flight as one transaction (group commit), so under load many tables' actions share one
//! commit. A write that is refused on its own (a bad sequence number, an unknown game) is found
//! without an SQL error, so it never spoils the batch it is in; an error of the database itself
//! refuses the whole batch, and nothing of it is acknowledged.
//!
//! The primary key `(game_id, seq)` of `actions` is what makes an append single-writer across
//! servers: an action number another writer already wrote is refused as
//! [`StoreError::Conflict`], never overwritten; so is an action whose predecessor is not in the
//! log (another writer started the game over), and every later append of the losing writer to
//! that game. (Which server may write a game at all is for a lease with an epoch to settle.)
//!
//! Connections come from a pool that replaces broken ones, so once the database is back after an
//! outage, the next batch goes through. The connection is plain TCP or a Unix socket (no TLS):
//! run the database on the same host or a private network.

use std::collections::{HashMap, HashSet};
use std::str::FromStr;
use std::time::Duration;

use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::NoTls;

use crate::{
    now, Entry, GameResult, GameStore, Kind, Meta, NewGame, NewResult, Outcome, Record, Reply, Status, StoreError,
    StoredGame, Ticket,
};

/// Migrations, in order; `tabletop_schema.version` counts those applied.
const MIGRATIONS: &[&str] = &[
    // 1: games, their action logs and their results.
    "CREATE TABLE games (
        id          TEXT PRIMARY KEY,
        kind        TEXT NOT NULL,
        record      TEXT NOT NULL,
        meta        TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('active', 'finished', 'abandoned')),
        created_at  BIGINT NOT NULL,
        updated_at  BIGINT NOT NULL
    );
    CREATE INDEX games_kind_status ON games (kind, status);
    CREATE TABLE actions (
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq     BIGINT NOT NULL,
        action  TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE results (
        id          BIGSERIAL PRIMARY KEY,
        game_id     TEXT NOT NULL,
        kind        TEXT NOT NULL,
        record      TEXT NOT NULL,
        actions     BIGINT NOT NULL,
        result      TEXT NOT NULL,
        finished_at BIGINT NOT NULL
    );
    CREATE INDEX results_kind ON results (kind, finished_at);",
];

/// Taken (for the transaction) by whoever migrates, so two servers starting together on a new
/// database do not both create the tables.
const MIGRATION_LOCK: i64 = 0x7461_626c_6574_6f70;

/// At most this many queued writes go into one transaction, so one commit stays short.
const MAX_BATCH: usize = 4096;

/// Whether a `--db` value names a PostgreSQL database rather than a SQLite file.
pub fn is_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

type Answer<T> = oneshot::Sender<Result<T, StoreError>>;

enum Write {
    Create(NewGame),
    Append { id: String, seq: i64, entry: Entry },
    Meta { id: String, meta: Meta },
    Status { id: String, status: Status },
    Reset { id: String, record: Record, meta: Meta },
    Result(NewResult),
}

enum Cmd {
    Write(Write, Answer<()>),
    LoadActive(Kind, Answer<Vec<StoredGame>>),
    Load(String, Answer<Option<StoredGame>>),
    Results(Kind, Answer<Vec<GameResult>>),
}

/// A handle to a PostgreSQL store; cheap to clone. The writer task stops when the last handle goes.
#[derive(Clone)]
pub struct PgStore {
    tx: mpsc::UnboundedSender<Cmd>,
    location: String,
}

impl PgStore {
    /// Connects (a URL such as `postgres://user:password@host:5432/tabletop`, or
    /// `postgres://user@%2Frun%2Fpostgresql/tabletop` for a Unix socket) and runs the migrations.
    /// Must be called inside a Tokio runtime: the writer is a task on it.
    pub async fn connect(url: &str) -> Result<PgStore, StoreError> {
        let mut config = tokio_postgres::Config::from_str(url)?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(5));
        }
        let location = describe(&config);
        let manager = Manager::from_config(config, NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
        // Few connections: one writer, and reads that are rare (a server start, a cache miss).
        let pool = Pool::builder(manager)
            .max_size(4)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(Duration::from_secs(10)))
            .create_timeout(Some(Duration::from_secs(5)))
            .build()
            .map_err(|e| StoreError::Connect(e.to_string()))?;
        let mut client = pool.get().await.map_err(|e| StoreError::Connect(format!("{location}: {e}")))?;
        migrate(&mut client).await?;
        drop(client);
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(writer(pool, rx));
        Ok(PgStore { tx, location })
    }

    fn send<T>(&self, cmd: impl FnOnce(Answer<T>) -> Cmd) -> Reply<T> {
        let (tx, reply) = Reply::channel();
        // A send error drops `tx`, and the reply then reports `Closed`.
        let _ = self.tx.send(cmd(tx));
        reply
    }

    fn write(&self, w: Write) -> Ticket {
        self.send(|tx| Cmd::Write(w, tx))
    }
}

/// The database as logs may show it: no password.
fn describe(config: &tokio_postgres::Config) -> String {
    let host = match config.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(h)) => h.clone(),
        #[cfg(unix)]
        Some(tokio_postgres::config::Host::Unix(p)) => p.display().to_string(),
        None => "localhost".into(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    format!("postgres://{}@{host}:{port}/{}", config.get_user().unwrap_or(""), config.get_dbname().unwrap_or(""))
}

impl GameStore for PgStore {
    fn backend(&self) -> &'static str {
        "postgres"
    }

    fn location(&self) -> String {
        self.location.clone()
    }

    fn create(&self, game: NewGame) -> Ticket {
        self.write(Write::Create(game))
    }

    fn append(&self, id: &str, seq: u64, entry: Entry) -> Ticket {
        self.write(Write::Append { id: id.into(), seq: seq as i64, entry })
    }

    fn set_meta(&self, id: &str, meta: Meta) -> Ticket {
        self.write(Write::Meta { id: id.into(), meta })
    }

    fn set_status(&self, id: &str, status: Status) -> Ticket {
        self.write(Write::Status { id: id.into(), status })
    }

    fn reset(&self, id: &str, record: Record, meta: Meta) -> Ticket {
        self.write(Write::Reset { id: id.into(), record, meta })
    }

    fn add_result(&self, result: NewResult) -> Ticket {
        self.write(Write::Result(result))
    }

    fn load_active(&self, kind: Kind) -> Reply<Vec<StoredGame>> {
        self.send(|tx| Cmd::LoadActive(kind, tx))
    }

    fn load(&self, id: &str) -> Reply<Option<StoredGame>> {
        self.send(|tx| Cmd::Load(id.into(), tx))
    }

    fn results(&self, kind: Kind) -> Reply<Vec<GameResult>> {
        self.send(|tx| Cmd::Results(kind, tx))
    }
}

async fn migrate(client: &mut deadpool_postgres::Object) -> Result<(), StoreError> {
    let known = MIGRATIONS.len() as i64;
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS tabletop_schema (
            one     BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one),
            version BIGINT NOT NULL
        );
        INSERT INTO tabletop_schema (version) VALUES (0) ON CONFLICT DO NOTHING;",
    )
    .await?;
    let found: i64 = tx.query_one("SELECT version FROM tabletop_schema", &[]).await?.get(0);
    if found > known {
        return Err(StoreError::NewerSchema { found, known });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        tx.batch_execute(sql).await?;
        tx.execute("UPDATE tabletop_schema SET version = $1", &[&((i + 1) as i64)]).await?;
    }
    tx.commit().await?;
    Ok(())
}

async fn writer(pool: Pool, mut rx: mpsc::UnboundedReceiver<Cmd>) {
    // The number the next append of each game must carry, as far as this writer knows: read
    // from the database on a game's first append, then kept, so an append is one INSERT.
    let mut next: HashMap<String, i64> = HashMap::new();
    // Games where another writer got in first: whatever this writer appends to them after that
    // was made on top of the refused action, so it is refused too (until a reset here).
    let mut lost: HashSet<String> = HashSet::new();
    let mut batch: Vec<(Write, Answer<()>)> = Vec::new();
    while let Some(first) = rx.recv().await {
        let mut cmd = Some(first);
        // Gather every write queued right now; reads are answered in order between batches.
        loop {
            match cmd.take() {
                Some(Cmd::Write(w, reply)) => batch.push((w, reply)),
                Some(read) => {
                    commit(&pool, &mut next, &mut lost, &mut batch).await;
                    answer(&pool, read).await;
                }
                None => {}
            }
            if batch.len() >= MAX_BATCH {
                break;
            }
            match rx.try_recv() {
                Ok(c) => cmd = Some(c),
                Err(_) => break,
            }
        }
        commit(&pool, &mut next, &mut lost, &mut batch).await;
    }
}

/// Commits a batch in one transaction: each write gets its own answer, or, if the transaction
/// fails, all of them the same refusal.
async fn commit(
    pool: &Pool,
    next: &mut HashMap<String, i64>,
    lost: &mut HashSet<String>,
    batch: &mut Vec<(Write, Answer<()>)>,
) {
    if batch.is_empty() {
        return;
    }
    let mut seen = HashMap::new();
    let mut now_lost = lost.clone();
    match run_batch(pool, next, &mut seen, &mut now_lost, batch).await {
        Ok(each) => {
            next.extend(seen);
            *lost = now_lost;
            for ((_, reply), r) in batch.drain(..).zip(each) {
                let _ = reply.send(r);
            }
        }
        Err(e) => {
            // What the database holds is unknown now: read each game's next number again.
            next.clear();
            let why = e.to_string();
            for (_, reply) in batch.drain(..) {
                let _ = reply.send(Err(StoreError::Commit(why.clone())));
            }
        }
    }
}

/// The outer error fails the whole batch; the inner ones are the writes refused on their own.
/// `seen` collects the next numbers as this batch leaves them, for after the commit.
async fn run_batch(
    pool: &Pool,
    known: &HashMap<String, i64>,
    seen: &mut HashMap<String, i64>,
    lost: &mut HashSet<String>,
    batch: &[(Write, Answer<()>)],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let mut client = pool.get().await.map_err(|e| StoreError::Connect(e.to_string()))?;
    let tx = client.transaction().await?;
    let t = now();
    let mut each = Vec::with_capacity(batch.len());
    let insert = tx.prepare_cached(INSERT_ACTION).await?;
    let mut group = Group::default();
    for (w, _) in batch {
        // Appends are sent together (pipelined) and answered together: one round trip for the
        // actions of many tables. A second append to a game in the group, or any other write,
        // waits for the group's answers, since it depends on them.
        match w {
            Write::Append { id, .. } if !group.games.contains(id.as_str()) => {}
            _ => group.flush(&tx, &insert, &mut each, seen, lost).await?,
        }
        let r = match w {
            Write::Create(g) => {
                let n = tx
                    .execute(
                        &tx.prepare_cached(
                            "INSERT INTO games (id, kind, record, meta, status, created_at, updated_at)
                             VALUES ($1, $2, $3, $4, 'active', $5, $5) ON CONFLICT (id) DO NOTHING",
                        )
                        .await?,
                        &[&g.id, &g.kind.as_str(), &g.record.as_json(), &g.meta.as_json(), &t],
                    )
                    .await?;
                if n == 0 {
                    Err(StoreError::Duplicate(g.id.clone()))
                } else {
                    seen.insert(g.id.clone(), 0);
                    Ok(())
                }
            }
            Write::Append { id, seq, .. } if lost.contains(id) => {
                Err(StoreError::Conflict { id: id.clone(), seq: *seq })
            }
            Write::Append { id, seq, entry } => {
                let expected = match seen.get(id).or_else(|| known.get(id)) {
                    Some(&n) => Some(n),
                    None => {
                        let row = tx
                            .query_opt(
                                &tx.prepare_cached(
                                    "SELECT COALESCE((SELECT MAX(seq) + 1 FROM actions WHERE game_id = $1), 0)
                                     FROM games WHERE id = $1",
                                )
                                .await?,
                                &[id],
                            )
                            .await?;
                        row.map(|r| r.get::<_, i64>(0))
                    }
                };
                match expected {
                    None => Err(StoreError::NoSuchGame(id.clone())),
                    Some(expected) if expected != *seq => {
                        seen.insert(id.clone(), expected);
                        Err(StoreError::OutOfOrder { id: id.clone(), expected, got: *seq })
                    }
                    Some(_) => {
                        // Answered when the group is flushed.
                        group.inserts.push(Insert { at: each.len(), id, seq: *seq, json: entry.as_json() });
                        group.games.insert(id);
                        seen.insert(id.clone(), seq + 1);
                        Ok(())
                    }
                }
            }
            Write::Meta { id, meta } => {
                let n = tx
                    .execute(
                        &tx.prepare_cached("UPDATE games SET meta = $2, updated_at = $3 WHERE id = $1").await?,
                        &[id, &meta.as_json(), &t],
                    )
                    .await?;
                touched(n, id)
            }
            Write::Status { id, status } => {
                let n = tx
                    .execute(
                        &tx.prepare_cached("UPDATE games SET status = $2, updated_at = $3 WHERE id = $1").await?,
                        &[id, &status.as_str(), &t],
                    )
                    .await?;
                touched(n, id)
            }
            Write::Reset { id, record, meta } => {
                tx.execute(&tx.prepare_cached("DELETE FROM actions WHERE game_id = $1").await?, &[id]).await?;
                let n = tx
                    .execute(
                        &tx.prepare_cached(
                            "UPDATE games SET record = $2, meta = $3, status = 'active', updated_at = $4
                             WHERE id = $1",
                        )
                        .await?,
                        &[id, &record.as_json(), &meta.as_json(), &t],
                    )
                    .await?;
                let r = touched(n, id);
                if r.is_ok() {
                    seen.insert(id.clone(), 0);
                    lost.remove(id);
                }
                r
            }
            Write::Result(r) => {
                tx.execute(
                    &tx.prepare_cached(
                        "INSERT INTO results (game_id, kind, record, actions, result, finished_at)
                         VALUES ($1, $2, $3, $4, $5, $6)",
                    )
                    .await?,
                    &[&r.game_id, &r.kind.as_str(), &r.record.as_json(), &(r.actions as i64), &r.outcome.as_json(), &t],
                )
                .await?;
                Ok(())
            }
        };
        each.push(r);
    }
    group.flush(&tx, &insert, &mut each, seen, lost).await?;
    tx.commit().await?;
    Ok(each)
}

/// Appends the action unless its number is taken, or the action before it is not in the log.
const INSERT_ACTION: &str = "INSERT INTO actions (game_id, seq, action)
     SELECT $1::text, $2::bigint, $3::text
     WHERE $2::bigint = 0 OR EXISTS (SELECT 1 FROM actions WHERE game_id = $1::text AND seq = $2::bigint - 1)
     ON CONFLICT (game_id, seq) DO NOTHING";

struct Insert<'a> {
    /// Its write's place in the batch.
    at: usize,
    id: &'a String,
    seq: i64,
    json: &'a str,
}

/// Appends sent but not yet answered, at most one per game.
#[derive(Default)]
struct Group<'a> {
    inserts: Vec<Insert<'a>>,
    games: HashSet<&'a str>,
}

impl Group<'_> {
    async fn flush(
        &mut self,
        tx: &deadpool_postgres::Transaction<'_>,
        insert: &tokio_postgres::Statement,
        each: &mut [Result<(), StoreError>],
        seen: &mut HashMap<String, i64>,
        lost: &mut HashSet<String>,
    ) -> Result<(), StoreError> {
        if self.inserts.is_empty() {
            return Ok(());
        }
        let params: Vec<[&(dyn tokio_postgres::types::ToSql + Sync); 3]> =
            self.inserts.iter().map(|i| [i.id as _, &i.seq as _, &i.json as _]).collect();
        let counts = futures_util::future::try_join_all(params.iter().map(|p| tx.execute(insert, p))).await?;
        for (i, n) in self.inserts.iter().zip(counts) {
            if n == 0 {
                // Someone else's action holds this number, or the action before it is gone
                // (someone else started the game over): whatever this writer believed about the
                // game is stale.
                seen.remove(i.id);
                lost.insert(i.id.clone());
                each[i.at] = Err(StoreError::Conflict { id: i.id.clone(), seq: i.seq });
            }
        }
        self.inserts.clear();
        self.games.clear();
        Ok(())
    }
}

fn touched(n: u64, id: &str) -> Result<(), StoreError> {
    if n == 0 {
        Err(StoreError::NoSuchGame(id.to_string()))
    } else {
        Ok(())
    }
}

async fn answer(pool: &Pool, cmd: Cmd) {
    match cmd {
        Cmd::LoadActive(kind, reply) => {
            let _ = reply.send(load_where(pool, "kind = $1 AND status = 'active'", kind.as_str()).await);
        }
        Cmd::Load(id, reply) => {
            let _ = reply.send(load_where(pool, "id = $1", &id).await.map(|mut v| v.pop()));
        }
        Cmd::Results(kind, reply) => {
            let _ = reply.send(results(pool, kind).await);
        }
        Cmd::Write(..) => {}
    }
}

async fn load_where(pool: &Pool, cond: &str, arg: &str) -> Result<Vec<StoredGame>, StoreError> {
    let client = pool.get().await.map_err(|e| StoreError::Connect(e.to_string()))?;
    let sql = format!(
        "SELECT id, kind, record, meta, status, created_at, updated_at FROM games WHERE {cond}
         ORDER BY created_at, id"
    );
    let rows = client.query(&sql, &[&arg]).await?;
    let log = client.prepare_cached("SELECT action FROM actions WHERE game_id = $1 ORDER BY seq").await?;
    let mut games = Vec::with_capacity(rows.len());
    for r in rows {
        let id: String = r.get(0);
        let actions = client.query(&log, &[&id]).await?.into_iter().map(|a| Entry::stored(a.get(0))).collect();
        games.push(StoredGame {
            kind: Kind::parse(r.get(1))?,
            record: Record::stored(r.get(2)),
            meta: Meta::stored(r.get(3)),
            status: Status::parse(r.get(4)),
            actions,
            created_at: r.get(5),
            updated_at: r.get(6),
            id,
        });
    }
    Ok(games)
}

async fn results(pool: &Pool, kind: Kind) -> Result<Vec<GameResult>, StoreError> {
    let client = pool.get().await.map_err(|e| StoreError::Connect(e.to_string()))?;
    let rows = client
        .query(
            "SELECT game_id, record, actions, result, finished_at FROM results WHERE kind = $1 ORDER BY id",
            &[&kind.as_str()],
        )
        .await?;
    Ok(rows
        .into_iter()
        .map(|r| GameResult {
            game_id: r.get(0),
            kind,
            record: Record::stored(r.get(1)),
            actions: r.get(2),
            outcome: Outcome::stored(r.get(3)),
            finished_at: r.get(4),
        })
        .collect())
}
