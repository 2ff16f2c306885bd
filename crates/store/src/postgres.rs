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

mod batch;
mod held;
mod lease;
mod people;
mod reads;
mod schema;
mod writer;

use std::collections::{HashMap, HashSet};
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio::sync::mpsc;
use tokio_postgres::NoTls;

use crate::command::{forward_commands, people_commands, Cmd, Queue};
use crate::{GameStore, Kind, Reply, StoreError, StoredGame};
pub(crate) use batch::insert_result;
use held::Held;
pub use lease::lease_renewals;
#[cfg(test)]
pub(crate) use schema::MIGRATIONS;

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

/// A handle to a PostgreSQL store; cheap to clone. The writer task stops when the last handle goes.
#[derive(Clone)]
pub struct PgStore {
    tx: mpsc::UnboundedSender<Cmd>,
    location: String,
    held: Arc<Held>,
    /// For a renewal the tests start by hand (`renewal_begun_now`).
    #[cfg(any(test, feature = "testing"))]
    pool: Pool,
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
        session_settings(&mut config, lease.duration);
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
        let mut client = pool.get().await.map_err(|e| StoreError::Connect(format!("{location}: {}", chain(&e))))?;
        schema::migrate(&mut client).await?;
        drop(client);
        let (tx, rx) = mpsc::unbounded_channel();
        let held = Arc::new(Held {
            lease,
            games: Mutex::new(HashMap::new()),
            lost: Mutex::new(HashSet::new()),
            fresh: Mutex::new(HashMap::new()),
            handed_over: Default::default(),
        });
        tokio::spawn(lease::renewer(pool.clone(), Arc::downgrade(&held)));
        #[cfg(any(test, feature = "testing"))]
        let for_tests = pool.clone();
        tokio::spawn(writer::writer(pool, held.clone(), rx));
        Ok(PgStore {
            tx,
            location,
            held,
            #[cfg(any(test, feature = "testing"))]
            pool: for_tests,
        })
    }

    /// The owner name this store holds its games under.
    pub fn owner(&self) -> &str {
        &self.held.lease.owner
    }

    /// A renewal of the leases held now, as the renewer begins one, to be awaited later: what
    /// the renewer does when its statement reaches the database after something else (a
    /// hand-over) changed the leases.
    #[cfg(any(test, feature = "testing"))]
    pub fn renewal_begun_now(&self) -> impl std::future::Future<Output = ()> {
        let (pool, held, games) = (self.pool.clone(), self.held.clone(), self.held.snapshot());
        async move { lease::renew(&pool, &held, games).await }
    }
}

impl Queue for PgStore {
    fn queue(&self, cmd: Cmd) {
        // A send error drops the command and its answer: the caller's reply reports `Closed`.
        let _ = self.tx.send(cmd);
    }
}

/// The database as logs may show it: no password.
/// What went wrong, in one line: PostgreSQL's own words for a refusal (`ERROR 28P01: password
/// authentication failed for user "x"`), else the driver's error and each of its causes
/// (`error connecting to server: Connection refused (os error 111)`).
pub(crate) fn reason(e: &tokio_postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        let detail = db.detail().map(|d| format!(" ({d})")).unwrap_or_default();
        return format!("{} {}: {}{detail}", db.severity(), db.code().code(), db.message());
    }
    chain(e)
}

/// An error and its causes, joined by ": " (repeated words left out).
pub(crate) fn chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let text = match c.downcast_ref::<tokio_postgres::Error>() {
            Some(pg) => reason(pg),
            None => c.to_string(),
        };
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        cause = c.source();
    }
    out
}

/// The session settings every connection gets, unless the URL's `options` set its own: a
/// statement is given up after 30 s, a session left idle inside a transaction (its instance
/// paused or cut off mid-write) is ended by the server after a lease, so its row locks cannot
/// hold the lease rows past its takeover; and TCP keepalives find a vanished peer within about
/// 8 s (5 s idle, then 3 probes 1 s apart).
pub(crate) fn session_settings(config: &mut tokio_postgres::Config, lease: Duration) {
    if config.get_options().is_none() {
        let idle_in_tx = lease.as_millis().max(1_000);
        config.options(format!(
            "-c statement_timeout={STATEMENT_TIMEOUT_MS} -c idle_in_transaction_session_timeout={idle_in_tx}"
        ));
    }
    config.keepalives(true).keepalives_idle(Duration::from_secs(5));
    config.keepalives_interval(Duration::from_secs(1)).keepalives_retries(3);
}

/// The longest one statement may run (`statement_timeout`), in milliseconds.
pub const STATEMENT_TIMEOUT_MS: u64 = 30_000;

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

impl crate::PeopleStore for PgStore {
    people_commands!();
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

    fn hand_over(&self) -> Reply<usize> {
        self.ask(Cmd::HandOver)
    }

    fn people(&self) -> Option<crate::SharedPeople> {
        Some(Arc::new(self.clone()))
    }
}
