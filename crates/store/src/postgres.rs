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
//! that game.
//!
//! Which server may write a game at all is settled by a lease: a row of `leases` per game names
//! its owner, an epoch and when the lease runs out (the database's clock). A store takes the
//! lease of the games it creates, and adopts (epoch + 1) the active games whose lease ran out, or
//! that its own owner name held before a restart; a task renews the leases it holds. Every write
//! to a game carries the epoch the store holds it at and takes a share lock on the lease row in
//! the transaction that writes, so an adoption (which updates the row) waits for a write in
//! flight, and a write after an adoption finds the epoch moved on and is refused as
//! [`StoreError::Fenced`]: a paused or cut-off old owner never writes after losing its lease.
//!
//! Connections come from a pool that replaces broken ones, so once the database is back after an
//! outage, the next batch goes through. The connection is plain TCP or a Unix socket (no TLS):
//! run the database on the same host or a private network.

use std::collections::{HashMap, HashSet};
use std::str::FromStr;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio::sync::mpsc;
use tokio_postgres::NoTls;

use crate::command::{forward_commands, Answer, Cmd, Queue, Write};
use crate::{
    now, tallies_from_json, tallies_json, Entry, GameResult, GameStore, Kind, Meta, Outcome, Record, Reply, Status,
    StoreError, StoredGame, Tally, TallyPage, ADD_TALLY, UNTALLIED,
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
    // 2: one owner per game, with an epoch that fences the owners before it. Games from before
    // leases get one that has run out, so the first store to look adopts them.
    "CREATE TABLE leases (
        game_id    TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        owner      TEXT NOT NULL,
        epoch      BIGINT NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
    );
    INSERT INTO leases (game_id, owner, epoch, expires_at) SELECT id, '', 0, '-infinity' FROM games;",
    // 3: a game's results are read by its id (its records, for replays).
    "CREATE INDEX results_game ON results (game_id, id);",
    // 4: statistics kept as totals, updated with each result: `counted` is 1 for a result whose
    // `tallies` are in the totals, 0 for one that counts for nothing, -1 for one stored before
    // (the server tallies those once).
    "ALTER TABLE results ADD COLUMN counted BIGINT NOT NULL DEFAULT -1;
    ALTER TABLE results ADD COLUMN tallies TEXT NOT NULL DEFAULT '';
    CREATE INDEX results_counted ON results (kind, counted);
    CREATE TABLE tallies (
        kind           TEXT NOT NULL,
        name           TEXT NOT NULL,
        games          BIGINT NOT NULL,
        wins           BIGINT NOT NULL,
        points         BIGINT NOT NULL,
        challenges_won BIGINT NOT NULL,
        uno_missed     BIGINT NOT NULL,
        PRIMARY KEY (kind, name)
    );
    CREATE INDEX tallies_rank ON tallies (kind, games DESC, wins DESC, name COLLATE \"C\");",
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

/// How a store holds its games: under which owner name, for how long a lease lasts.
#[derive(Clone, Debug)]
pub struct Lease {
    /// The instance's name. A store that starts under the name of one before it (a restart)
    /// takes that one's games back at once, without waiting for their leases to run out; two
    /// live instances must have different names.
    pub owner: String,
    /// How long a lease lasts unless renewed; renewed every third of it. Another instance adopts
    /// a game this long after its owner last renewed.
    pub duration: Duration,
}

/// The lease a store gets unless told otherwise.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(5);

impl Default for Lease {
    fn default() -> Lease {
        Lease { owner: "tabletop".into(), duration: DEFAULT_LEASE }
    }
}

/// The games a store holds, each at its epoch; shared by the writer, the renewer and `holds`.
struct Held {
    lease: Lease,
    games: Mutex<HashMap<String, i64>>,
    /// Games this store lost to another holder: never taken back under its own name (only
    /// adopted once their lease runs out), since what this process holds of them is stale.
    lost: Mutex<HashSet<String>>,
    /// Per held game, until when its lease is known to run: from before the last renewal that
    /// found it ours (or, for a game just taken, a tenth of a lease short of then). Past it the
    /// lease may have lapsed and been adopted elsewhere while this process was paused or cut
    /// off, so what it holds of the game may be stale (`fresh`).
    fresh: Mutex<HashMap<String, Instant>>,
}

impl Held {
    fn epoch(&self, id: &str) -> Option<i64> {
        self.games.lock().ok().and_then(|g| g.get(id).copied())
    }
    fn insert(&self, id: &str, epoch: i64) {
        if let Ok(mut g) = self.games.lock() {
            g.insert(id.to_string(), epoch);
        }
        let now = Instant::now();
        self.renewed(std::iter::once(id), now.checked_sub(self.lease.duration / 10).unwrap_or(now));
    }
    /// The leases of `ids` were found ours by a statement sent at `sent`.
    fn renewed<'a>(&self, ids: impl Iterator<Item = &'a str>, sent: Instant) {
        if let Ok(mut f) = self.fresh.lock() {
            for id in ids {
                f.insert(id.to_string(), sent + self.lease.duration);
            }
        }
    }
    fn is_fresh(&self, id: &str) -> bool {
        self.fresh.lock().ok().and_then(|f| f.get(id).copied()).is_some_and(|until| Instant::now() < until)
    }
    fn unfresh(&self, id: &str) {
        if let Ok(mut f) = self.fresh.lock() {
            f.remove(id);
        }
    }
    /// Forgets a game lost to another holder, unless it was taken again at another epoch
    /// meanwhile.
    /// Forgets a game whose creation failed: nobody took it, there is just nothing to hold.
    fn forget(&self, id: &str) {
        if let Ok(mut g) = self.games.lock() {
            g.remove(id);
        }
        self.unfresh(id);
    }

    fn lose(&self, id: &str, epoch: i64) {
        if let Ok(mut g) = self.games.lock() {
            if g.get(id).copied() == Some(epoch) {
                g.remove(id);
                self.unfresh(id);
                if let Ok(mut lost) = self.lost.lock() {
                    lost.insert(id.to_string());
                }
            }
        }
    }
    fn release(&self, id: &str) {
        if let Ok(mut g) = self.games.lock() {
            g.remove(id);
        }
        self.unfresh(id);
    }
    fn may_take_back(&self, id: &str) -> bool {
        self.epoch(id).is_none() && self.lost.lock().map(|l| !l.contains(id)).unwrap_or(false)
    }
    fn snapshot(&self) -> Vec<(String, i64)> {
        self.games.lock().map(|g| g.iter().map(|(k, v)| (k.clone(), *v)).collect()).unwrap_or_default()
    }
    fn millis(&self) -> f64 {
        self.lease.duration.as_secs_f64() * 1000.0
    }
}

/// A handle to a PostgreSQL store; cheap to clone. The writer task stops when the last handle goes.
#[derive(Clone)]
pub struct PgStore {
    tx: mpsc::UnboundedSender<Cmd>,
    location: String,
    held: Arc<Held>,
}

impl PgStore {
    /// Connects (a URL such as `postgres://user:password@host:5432/tabletop`, or
    /// `postgres://user@%2Frun%2Fpostgresql/tabletop` for a Unix socket) and runs the migrations.
    /// Must be called inside a Tokio runtime: the writer is a task on it. Holds games under the
    /// default [`Lease`].
    pub async fn connect(url: &str) -> Result<PgStore, StoreError> {
        PgStore::connect_with(url, Lease::default()).await
    }

    /// [`PgStore::connect`], holding games under `lease`.
    pub async fn connect_with(url: &str, lease: Lease) -> Result<PgStore, StoreError> {
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
        let held = Arc::new(Held {
            lease,
            games: Mutex::new(HashMap::new()),
            lost: Mutex::new(HashSet::new()),
            fresh: Mutex::new(HashMap::new()),
        });
        tokio::spawn(renewer(pool.clone(), Arc::downgrade(&held)));
        tokio::spawn(writer(pool, held.clone(), rx));
        Ok(PgStore { tx, location, held })
    }

    /// The owner name this store holds its games under.
    pub fn owner(&self) -> &str {
        &self.held.lease.owner
    }
}

impl Queue for PgStore {
    fn queue(&self, cmd: Cmd) {
        // A send error drops the command and its answer: the caller's reply reports `Closed`.
        let _ = self.tx.send(cmd);
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

    // `load_active` adopts the games of its kind whose lease ran out (or that this owner held
    // before a restart), and answers every active game of the kind this store holds.
    forward_commands!();

    fn lease(&self) -> Option<Duration> {
        Some(self.held.lease.duration)
    }

    fn holds(&self, id: &str) -> bool {
        self.held.epoch(id).is_some()
    }

    fn fresh(&self, id: &str) -> bool {
        self.held.epoch(id).is_some() && self.held.is_fresh(id)
    }

    fn adopt(&self, kind: Kind) -> Reply<Vec<StoredGame>> {
        self.ask(|tx| Cmd::Adopt(kind, false, tx))
    }

    fn release(&self, id: &str) {
        // The lease row stays and runs out; the game is no longer active, so nobody adopts it.
        self.queue(Cmd::Release(id.to_string()));
    }

    fn holder(&self, id: &str) -> Reply<Option<String>> {
        self.ask(|tx| Cmd::Holder(id.into(), tx))
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

/// Renews every lease the store holds, a third of the lease time apart; a game whose lease has
/// moved to another owner (or epoch) is forgotten, so `holds` says no and writes are refused
/// without asking the database.
/// Lease renewals of every store in this process: those that reached the database, those that
/// failed (for an operator's `/metrics`).
static RENEWALS: [std::sync::atomic::AtomicU64; 2] =
    [std::sync::atomic::AtomicU64::new(0), std::sync::atomic::AtomicU64::new(0)];

/// (renewals done, renewals failed) so far in this process.
pub fn lease_renewals() -> (u64, u64) {
    use std::sync::atomic::Ordering::Relaxed;
    (RENEWALS[0].load(Relaxed), RENEWALS[1].load(Relaxed))
}

async fn renewer(pool: Pool, held: Weak<Held>) {
    let Some(every) = held.upgrade().map(|h| h.lease.duration / 3) else { return };
    loop {
        tokio::time::sleep(every).await;
        let Some(held) = held.upgrade() else { return };
        let games = held.snapshot();
        if games.is_empty() {
            continue;
        }
        let (ids, epochs): (Vec<String>, Vec<i64>) = games.iter().cloned().unzip();
        let sent = Instant::now();
        let renewed = async {
            let mut client = pool.get().await.map_err(|e| StoreError::Connect(e.to_string()))?;
            let tx = client.transaction().await?;
            // The rows are locked in id order first, as every write batch locks them (see
            // `lock_in_order`): two transactions that lock in one order never wait on each other
            // in a circle, which PostgreSQL would break by failing one (a renewal that fails
            // again and again lets every lease run out under load).
            let rows = tx
                .query(
                    "SELECT game_id, owner, epoch FROM leases WHERE game_id = ANY ($1::text[])
                     ORDER BY game_id FOR UPDATE",
                    &[&ids],
                )
                .await?;
            tx.execute(
                "UPDATE leases l SET expires_at = clock_timestamp() + $3::float8 * interval '1 millisecond'
                 FROM unnest($1::text[], $2::bigint[]) AS h (id, epoch)
                 WHERE l.game_id = h.id AND l.epoch = h.epoch AND l.owner = $4",
                &[&ids, &epochs, &held.millis(), &held.lease.owner],
            )
            .await?;
            tx.commit().await?;
            let found = rows.into_iter().map(|r| (r.get::<_, String>(0), (r.get::<_, String>(1), r.get::<_, i64>(2))));
            Ok::<_, StoreError>(found.collect::<HashMap<String, (String, i64)>>())
        }
        .await;
        match renewed {
            Ok(found) => {
                // A game whose lease row is not there yet is being created (its batch has not
                // committed; a failed creation leaves no game to write): only a row naming
                // another owner or epoch means the game was taken.
                let mut ours = Vec::with_capacity(games.len());
                for (id, epoch) in games {
                    match found.get(&id) {
                        Some((owner, e)) if *owner != held.lease.owner || *e != epoch => held.lose(&id, epoch),
                        Some(_) => ours.push(id),
                        None => {}
                    }
                }
                held.renewed(ours.iter().map(String::as_str), sent);
                RENEWALS[0].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            // The database is away: the leases may run out meanwhile, and then the writes are
            // refused by the epoch when it is back.
            Err(e) => {
                RENEWALS[1].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                tracing::warn!(error = %e, "renewing leases failed")
            }
        }
    }
}

/// Takes the leases of the active games of `kind` that ran out, or that this owner's name held
/// before (a restart), at the next epoch; then reads them (all the held ones when `all`).
async fn adopt(pool: &Pool, held: &Held, kind: Kind, all: bool) -> Result<(Vec<StoredGame>, Vec<String>), StoreError> {
    let client = pool.get().await.map_err(|e| StoreError::Connect(e.to_string()))?;
    let mine: Vec<String> = held.snapshot().into_iter().map(|(id, _)| id).collect();
    // Run alone, this statement commits before the log is read: an old owner's append still in
    // flight holds a share lock on the row, so this waits for it, and reads it below.
    let rows = client
        .query(
            "UPDATE leases l SET owner = $2, epoch = l.epoch + 1,
                 expires_at = clock_timestamp() + $3::float8 * interval '1 millisecond'
             FROM games g
             WHERE g.id = l.game_id AND g.kind = $1 AND g.status = 'active'
               AND (l.expires_at < clock_timestamp() OR l.owner = $2)
               AND NOT (l.game_id = ANY ($4::text[]))
             RETURNING l.game_id, l.epoch",
            &[&kind.as_str(), &held.lease.owner, &held.millis(), &mine],
        )
        .await?;
    let mut adopted = Vec::with_capacity(rows.len());
    for r in rows {
        let id: String = r.get(0);
        held.insert(&id, r.get(1));
        adopted.push(id);
    }
    let ids: Vec<String> = if all { held.snapshot().into_iter().map(|(id, _)| id).collect() } else { adopted.clone() };
    drop(client);
    let games =
        load_where(pool, "kind = $1 AND status = 'active' AND id = ANY ($2::text[])", &[&kind.as_str(), &ids]).await?;
    Ok((games, adopted))
}

async fn writer(pool: Pool, held: Arc<Held>, mut rx: mpsc::UnboundedReceiver<Cmd>) {
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
                Some(Cmd::Adopt(kind, all, reply)) => {
                    commit(&pool, &held, &mut next, &mut lost, &mut batch).await;
                    let r = adopt(&pool, &held, kind, all).await.map(|(games, adopted)| {
                        // Written by another owner meanwhile: what this writer knew is stale.
                        for id in &adopted {
                            next.remove(id);
                            lost.remove(id);
                        }
                        games
                    });
                    let _ = reply.send(r);
                }
                Some(Cmd::Release(id)) => {
                    commit(&pool, &held, &mut next, &mut lost, &mut batch).await;
                    held.release(&id);
                    next.remove(&id);
                }
                Some(read) => {
                    commit(&pool, &held, &mut next, &mut lost, &mut batch).await;
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
        commit(&pool, &held, &mut next, &mut lost, &mut batch).await;
    }
}

/// Commits a batch in one transaction: each write gets its own answer, or, if the transaction
/// fails, all of them the same refusal.
async fn commit(
    pool: &Pool,
    held: &Held,
    next: &mut HashMap<String, i64>,
    lost: &mut HashSet<String>,
    batch: &mut Vec<(Write, Answer<()>)>,
) {
    if batch.is_empty() {
        return;
    }
    take_back(pool, held, batch).await;
    let mut seen = HashMap::new();
    let mut now_lost = lost.clone();
    match run_batch(pool, held, next, &mut seen, &mut now_lost, batch).await {
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
            for (w, _) in batch.iter() {
                // Not created after all: no lease to hold (the renewer leaves a lease it cannot
                // find alone, since a creation may be committing while it looks).
                if let Write::Create(g) = w {
                    held.forget(&g.id);
                }
            }
            for (_, reply) in batch.drain(..) {
                let _ = reply.send(Err(StoreError::Commit(why.clone())));
            }
        }
    }
}

/// A store started under the name of one before it (a restart) holds that one's games: the
/// first write to such a game takes its lease back at the next epoch, fencing the old process
/// should it still be alive. So does the first write to a game whose lease ran out (a game read
/// from the store on demand, as Duel's are): were what the writer holds stale, the log's own
/// checks (`OutOfOrder`, `Conflict`) refuse the write. Never a game this store lost: it is only
/// adopted again. Committed on its own, before the batch, so the epoch held is the one in the
/// database whatever becomes of the batch.
async fn take_back(pool: &Pool, held: &Held, batch: &[(Write, Answer<()>)]) {
    let ids: HashSet<&str> = batch
        .iter()
        .filter_map(|(w, _)| match w {
            Write::Append { id, .. } | Write::Meta { id, .. } | Write::Status { id, .. } | Write::Reset { id, .. } => {
                Some(id.as_str())
            }
            Write::Create(_) | Write::Result(_) | Write::ForgetResults { .. } | Write::Tally { .. } => None,
        })
        .filter(|id| held.may_take_back(id))
        .collect();
    if ids.is_empty() {
        return;
    }
    let ids: Vec<&str> = ids.into_iter().collect();
    let Ok(client) = pool.get().await else { return };
    // A database error leaves the games unheld: their writes are refused, as they would be.
    if let Ok(rows) = client
        .query(
            "UPDATE leases SET owner = $2, epoch = epoch + 1,
                 expires_at = clock_timestamp() + $3::float8 * interval '1 millisecond'
             WHERE game_id = ANY ($1::text[]) AND (owner = $2 OR expires_at < clock_timestamp())
             RETURNING game_id, epoch",
            &[&ids, &held.lease.owner, &held.millis()],
        )
        .await
    {
        for r in rows {
            held.insert(r.get(0), r.get(1));
        }
    }
}

/// The outer error fails the whole batch; the inner ones are the writes refused on their own.
/// `seen` collects the next numbers as this batch leaves them, for after the commit.
async fn run_batch(
    pool: &Pool,
    held: &Held,
    known: &HashMap<String, i64>,
    seen: &mut HashMap<String, i64>,
    lost: &mut HashSet<String>,
    batch: &[(Write, Answer<()>)],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let mut client = pool.get().await.map_err(|e| StoreError::Connect(e.to_string()))?;
    let tx = client.transaction().await?;
    lock_in_order(&tx, held, batch).await?;
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
            _ => group.flush(&tx, held, &insert, &mut each, seen, lost).await?,
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
                    tx.execute(
                        &tx.prepare_cached(
                            "INSERT INTO leases (game_id, owner, epoch, expires_at)
                             VALUES ($1, $2, 1, clock_timestamp() + $3::float8 * interval '1 millisecond')",
                        )
                        .await?,
                        &[&g.id, &held.lease.owner, &held.millis()],
                    )
                    .await?;
                    // Should the commit fail, the batch's failure forgets it (`commit`).
                    held.insert(&g.id, 1);
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
                let epoch = held.epoch(id);
                match expected {
                    None => Err(StoreError::NoSuchGame(id.clone())),
                    Some(_) if epoch.is_none() => Err(StoreError::Fenced { id: id.clone() }),
                    Some(expected) if expected != *seq => {
                        seen.insert(id.clone(), expected);
                        Err(StoreError::OutOfOrder { id: id.clone(), expected, got: *seq })
                    }
                    Some(_) => {
                        // Answered when the group is flushed.
                        let epoch = epoch.unwrap_or_default();
                        group.inserts.push(Insert { at: each.len(), id, seq: *seq, json: entry.as_json(), epoch });
                        group.games.insert(id);
                        seen.insert(id.clone(), seq + 1);
                        Ok(())
                    }
                }
            }
            Write::Meta { id, .. } | Write::Status { id, .. } | Write::Reset { id, .. }
                if !fence(&tx, held, id).await? =>
            {
                Err(if exists(&tx, id).await? {
                    StoreError::Fenced { id: id.clone() }
                } else {
                    StoreError::NoSuchGame(id.clone())
                })
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
                let (counted, json) = tallies_json(&r.tallies)?;
                tx.execute(
                    &tx.prepare_cached(
                        "INSERT INTO results (game_id, kind, record, actions, result, finished_at, counted, tallies)
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                    )
                    .await?,
                    &[
                        &r.game_id,
                        &r.kind.as_str(),
                        &r.record.as_json(),
                        &(r.actions as i64),
                        &r.outcome.as_json(),
                        &t,
                        &counted,
                        &json,
                    ],
                )
                .await?;
                add_tallies(&tx, r.kind, r.tallies.as_deref().unwrap_or(&[]), 1).await
            }
            Write::Tally { kind, game_id, finished_at, tallies } => {
                let (counted, json) = tallies_json(tallies)?;
                let n = tx
                    .execute(
                        &tx.prepare_cached(
                            "UPDATE results SET counted = $1, tallies = $2
                             WHERE kind = $3 AND game_id = $4 AND finished_at = $5 AND counted = $6",
                        )
                        .await?,
                        &[&counted, &json, &kind.as_str(), game_id, finished_at, &UNTALLIED],
                    )
                    .await?;
                for _ in 0..n {
                    add_tallies(&tx, *kind, tallies.as_deref().unwrap_or(&[]), 1).await?;
                }
                Ok(())
            }
            Write::ForgetResults { kind, before } => {
                // Everything of a game that left play before `before`: its row, with its log
                // and lease (`ON DELETE CASCADE`), and its results. PostgreSQL's autovacuum
                // reuses the space (docs/server.md).
                tx.execute(
                    &tx.prepare_cached("DELETE FROM games WHERE kind = $1 AND status <> 'active' AND updated_at < $2")
                        .await?,
                    &[&kind.as_str(), before],
                )
                .await?;
                let gone = tx
                    .query(
                        &tx.prepare_cached(
                            "SELECT tallies FROM results WHERE kind = $1 AND finished_at < $2 AND counted = 1",
                        )
                        .await?,
                        &[&kind.as_str(), before],
                    )
                    .await?;
                for row in gone {
                    add_tallies(&tx, *kind, &tallies_from_json(row.get(0))?, -1).await?;
                }
                tx.execute(
                    &tx.prepare_cached("DELETE FROM results WHERE kind = $1 AND finished_at < $2").await?,
                    &[&kind.as_str(), before],
                )
                .await?;
                Ok(())
            }
        };
        each.push(r);
    }
    group.flush(&tx, held, &insert, &mut each, seen, lost).await?;
    tx.commit().await?;
    Ok(each)
}

/// Share-locks, in id order, the lease rows of every game the batch writes, before any write:
/// the fences below would otherwise lock them in the batch's order, and the renewer (which
/// locks in id order too) could wait on this batch while it waits on the renewer.
async fn lock_in_order(
    tx: &deadpool_postgres::Transaction<'_>,
    held: &Held,
    batch: &[(Write, Answer<()>)],
) -> Result<(), StoreError> {
    let mut ids: Vec<&str> = batch
        .iter()
        .filter_map(|(w, _)| match w {
            Write::Append { id, .. } | Write::Meta { id, .. } | Write::Status { id, .. } | Write::Reset { id, .. } => {
                held.epoch(id).is_some().then_some(id.as_str())
            }
            Write::Create(_) | Write::Result(_) | Write::ForgetResults { .. } | Write::Tally { .. } => None,
        })
        .collect();
    if ids.is_empty() {
        return Ok(());
    }
    ids.sort_unstable();
    ids.dedup();
    tx.execute(
        &tx.prepare_cached(
            "SELECT 1 FROM leases WHERE game_id = ANY ($1::text[]) AND owner = $2 ORDER BY game_id FOR SHARE",
        )
        .await?,
        &[&ids, &held.lease.owner],
    )
    .await?;
    Ok(())
}

/// Whether this store still holds the game at its epoch; the row stays share-locked until the
/// transaction ends, so no adoption slips in before the write commits.
async fn fence(tx: &deadpool_postgres::Transaction<'_>, held: &Held, id: &str) -> Result<bool, StoreError> {
    let Some(epoch) = held.epoch(id) else { return Ok(false) };
    let row = tx
        .query_opt(
            &tx.prepare_cached("SELECT 1 FROM leases WHERE game_id = $1 AND owner = $2 AND epoch = $3 FOR SHARE")
                .await?,
            &[&id, &held.lease.owner, &epoch],
        )
        .await?;
    if row.is_none() {
        held.lose(id, epoch);
    }
    Ok(row.is_some())
}

async fn exists(tx: &deadpool_postgres::Transaction<'_>, id: &str) -> Result<bool, StoreError> {
    Ok(tx.query_opt(&tx.prepare_cached("SELECT 1 FROM games WHERE id = $1").await?, &[&id]).await?.is_some())
}

/// Appends the action if this owner holds the game's lease at this epoch (share-locking the
/// lease row until the commit), unless its number is taken, or the action before it is not in
/// the log.
const INSERT_ACTION: &str = "INSERT INTO actions (game_id, seq, action)
     SELECT $1::text, $2::bigint, $3::text
     WHERE EXISTS (SELECT 1 FROM leases WHERE game_id = $1::text AND owner = $5::text AND epoch = $4::bigint FOR SHARE)
       AND ($2::bigint = 0 OR EXISTS (SELECT 1 FROM actions WHERE game_id = $1::text AND seq = $2::bigint - 1))
     ON CONFLICT (game_id, seq) DO NOTHING";

struct Insert<'a> {
    /// Its write's place in the batch.
    at: usize,
    id: &'a String,
    seq: i64,
    json: &'a str,
    epoch: i64,
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
        held: &Held,
        insert: &tokio_postgres::Statement,
        each: &mut [Result<(), StoreError>],
        seen: &mut HashMap<String, i64>,
        lost: &mut HashSet<String>,
    ) -> Result<(), StoreError> {
        if self.inserts.is_empty() {
            return Ok(());
        }
        let owner = &held.lease.owner;
        let params: Vec<[&(dyn tokio_postgres::types::ToSql + Sync); 5]> =
            self.inserts.iter().map(|i| [i.id as _, &i.seq as _, &i.json as _, &i.epoch as _, owner as _]).collect();
        let counts = futures_util::future::try_join_all(params.iter().map(|p| tx.execute(insert, p))).await?;
        for (i, n) in self.inserts.iter().zip(counts) {
            if n == 0 && !fence(tx, held, i.id).await? {
                seen.remove(i.id);
                each[i.at] = Err(StoreError::Fenced { id: i.id.clone() });
            } else if n == 0 {
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
        Cmd::Load(id, reply) => {
            let _ = reply.send(load_where(pool, "id = $1", &[&id]).await.map(|mut v| v.pop()));
        }
        Cmd::Results(kind, reply) => {
            let _ = reply.send(results_where(pool, "kind = $1", kind.as_str()).await);
        }
        Cmd::ResultsOf(id, reply) => {
            let _ = reply.send(results_where(pool, "game_id = $1", &id).await);
        }
        Cmd::Untallied(kind, reply) => {
            let _ = reply.send(results_where(pool, "kind = $1 AND counted = -1", kind.as_str()).await);
        }
        Cmd::Tallies(kind, offset, limit, reply) => {
            let _ = reply.send(tallies_page(pool, kind, offset, limit).await);
        }
        Cmd::Holder(id, reply) => {
            let _ = reply.send(holder(pool, &id).await);
        }
        Cmd::Write(..) | Cmd::Adopt(..) | Cmd::Release(_) => {}
    }
}

async fn load_where(
    pool: &Pool,
    cond: &str,
    args: &[&(dyn tokio_postgres::types::ToSql + Sync)],
) -> Result<Vec<StoredGame>, StoreError> {
    let client = pool.get().await.map_err(|e| StoreError::Connect(e.to_string()))?;
    let sql = format!(
        "SELECT id, kind, record, meta, status, created_at, updated_at FROM games WHERE {cond}
         ORDER BY created_at, id"
    );
    let rows = client.query(&sql, args).await?;
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

async fn holder(pool: &Pool, id: &str) -> Result<Option<String>, StoreError> {
    let client = pool.get().await.map_err(|e| StoreError::Connect(e.to_string()))?;
    // Games from before leases have the empty owner: nobody holds them until adopted.
    let row = client.query_opt("SELECT owner FROM leases WHERE game_id = $1 AND owner <> ''", &[&id]).await?;
    Ok(row.map(|r| r.get(0)))
}

/// Adds `sign` times each tally to the totals of `kind`, and forgets the players left at none.
async fn add_tallies(
    tx: &deadpool_postgres::Transaction<'_>,
    kind: Kind,
    tallies: &[Tally],
    sign: i64,
) -> Result<(), StoreError> {
    let add = tx.prepare_cached(ADD_TALLY).await?;
    for t in tallies {
        tx.execute(
            &add,
            &[
                &kind.as_str(),
                &t.name,
                &(sign * t.games),
                &(sign * t.wins),
                &(sign * t.points),
                &(sign * t.challenges_won),
                &(sign * t.uno_missed),
            ],
        )
        .await?;
    }
    if sign < 0 {
        tx.execute(&tx.prepare_cached("DELETE FROM tallies WHERE kind = $1 AND games <= 0").await?, &[&kind.as_str()])
            .await?;
    }
    Ok(())
}

async fn tallies_page(pool: &Pool, kind: Kind, offset: u64, limit: u64) -> Result<TallyPage, StoreError> {
    let client = pool.get().await.map_err(|e| StoreError::Connect(e.to_string()))?;
    let k = kind.as_str();
    let players: i64 = client.query_one("SELECT COUNT(*) FROM tallies WHERE kind = $1", &[&k]).await?.get(0);
    let games: i64 =
        client.query_one("SELECT COUNT(*) FROM results WHERE kind = $1 AND counted = 1", &[&k]).await?.get(0);
    let (limit, offset) = (limit.min(i64::MAX as u64) as i64, offset.min(i64::MAX as u64) as i64);
    let rows = client
        .query(
            "SELECT name, games, wins, points, challenges_won, uno_missed FROM tallies WHERE kind = $1
             ORDER BY games DESC, wins DESC, name COLLATE \"C\" LIMIT $2 OFFSET $3",
            &[&k, &limit, &offset],
        )
        .await?;
    let page = rows
        .into_iter()
        .map(|r| Tally {
            name: r.get(0),
            games: r.get(1),
            wins: r.get(2),
            points: r.get(3),
            challenges_won: r.get(4),
            uno_missed: r.get(5),
        })
        .collect();
    Ok(TallyPage { players, games, page })
}

async fn results_where(pool: &Pool, cond: &str, arg: &str) -> Result<Vec<GameResult>, StoreError> {
    let client = pool.get().await.map_err(|e| StoreError::Connect(e.to_string()))?;
    let sql =
        format!("SELECT game_id, kind, record, actions, result, finished_at FROM results WHERE {cond} ORDER BY id");
    let rows = client.query(&sql, &[&arg]).await?;
    rows.into_iter()
        .map(|r| {
            Ok(GameResult {
                game_id: r.get(0),
                kind: Kind::parse(r.get(1))?,
                record: Record::stored(r.get(2)),
                actions: r.get(3),
                outcome: Outcome::stored(r.get(4)),
                finished_at: r.get(5),
            })
        })
        .collect()
}
