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

use crate::command::{forward_commands, Cmd, Queue};
use crate::{GameStore, Kind, Reply, StoreError, StoredGame};
use held::Held;
pub use lease::lease_renewals;

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
        schema::migrate(&mut client).await?;
        drop(client);
        let (tx, rx) = mpsc::unbounded_channel();
        let held = Arc::new(Held {
            lease,
            games: Mutex::new(HashMap::new()),
            lost: Mutex::new(HashSet::new()),
            fresh: Mutex::new(HashMap::new()),
        });
        tokio::spawn(lease::renewer(pool.clone(), Arc::downgrade(&held)));
        tokio::spawn(writer::writer(pool, held.clone(), rx));
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
