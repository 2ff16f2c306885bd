//! UNO tables: the authoritative games, their seats and tokens, bots, timers, and persistence.
//!
//! Each table is one engine `Game` behind an async mutex. An action is checked by the engine,
//! appended to the store, and only once the store has committed it is it acknowledged and pushed
//! to the table's viewers (each one redacted for that viewer). The store batches concurrent
//! appends of all tables into one commit, so holding a table's lock across its commit costs that
//! table one commit latency and no other table anything.
//!
//! The table core, [`Tables`], has no HTTP in it: it refuses with a [`TableError`], which the
//! HTTP adapter (`crate::error`, `crate::AppState`) maps to a status and a code.
//!
//! This module holds the table and the core's state; the rest is by concern: [`auth`] (tokens,
//! who is asking), [`view`] (what a viewer sees), [`lifecycle`] (create, join, leave, rematch,
//! close), [`play`] (actions and their pushes), [`schedule`] (bots and turn timers),
//! [`restore`] (start, adoption, the idle sweep), [`records`] (finished games' records) and
//! [`replay`] (frames of a game from its record), [`analysis`] (decisions of a kept game
//! weighed, with its own admission) and [`tallies`] (the statistics' totals).

mod analysis;
pub(crate) mod auth;
mod error;
mod lifecycle;
mod play;
mod records;
mod replay;
mod restore;
mod schedule;
mod tallies;
mod thinking;
mod view;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use store::{Kind, SharedStore, Status as StoreStatus};
use tokio::sync::{broadcast, Mutex};
use uno::{Game, GameRecord};
use uno_bots::Bot;

use crate::limits;
use crate::messages::{LoggedEvent, SeatKind};
use crate::registry::{Entry, Registry};
use crate::text::Text;
use crate::update::Told;
/// The analysis answer's type, for the pages' generated declarations.
#[cfg(test)]
pub(crate) use analysis::Answer as AnalysisAnswer;
pub(crate) use analysis::{Analyses, AnalysisRequest};
pub(crate) use auth::Viewer;
pub use error::TableError;
pub(crate) use records::KeptGame;
pub use records::{ImportRecord, Imported, RecordExport};
#[cfg(test)]
pub(crate) use replay::UnoFiles;
pub use replay::{Frame, FrameRequest, Perspective, PositionExport, Step};
pub(crate) use tallies::Stats;
pub(crate) use thinking::Thinkers;

/// Server settings; the defaults suit a server for friends.
#[derive(Clone, Debug)]
pub struct Config {
    /// How long a bot waits before acting, so people can follow (a table may set its own).
    pub bot_delay: Duration,
    /// A table with no person connected (no WebSocket open, seat or spectator) and no person's
    /// action for this long is closed (its bots stop; it is marked abandoned in the store). Bot
    /// moves and turn-timer moves are not activity.
    pub idle_timeout: Duration,
    /// A table of bots only with no WebSocket open (nobody watches) is closed this long after
    /// its last person's activity (its creation, a socket opening or closing), if that is sooner
    /// than `idle_timeout`: its bots would think for nobody.
    pub unwatched_bots_timeout: Duration,
    /// A finished table stays in memory this long (for a rematch), then leaves it.
    pub finished_ttl: Duration,
    /// Unfinished tables one client (IP address) may have created at a time.
    pub max_tables_per_client: usize,
    /// Tables in memory at most.
    pub max_tables: usize,
    /// Messages per second one WebSocket may send (a burst of as many is allowed).
    pub ws_messages_per_second: u32,
    /// How long a finished game's record is kept (for its export and replays).
    pub record_retention: Duration,
    /// Analyses (`GET /api/games/{id}/analysis`) run at once, each on a thread of its own.
    pub analysis_workers: usize,
    /// Analyses that may wait for a worker; past that a request is refused (503 `analysis_busy`).
    pub analysis_queue: usize,
    /// The longest one analysis may run (from when a worker takes it) before it is given up
    /// (503 `analysis_timeout`).
    pub analysis_time_limit: Duration,
    /// Records one client (IP address) may import (`POST /api/records`) in an hour; past that
    /// it is refused (429 `too_many_imports`) until its oldest import is an hour old.
    pub imports_per_hour: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bot_delay: Duration::from_millis(700),
            idle_timeout: Duration::from_secs(2 * 3600),
            unwatched_bots_timeout: Duration::from_secs(60),
            finished_ttl: Duration::from_secs(15 * 60),
            max_tables_per_client: 20,
            max_tables: 20_000,
            ws_messages_per_second: 20,
            record_retention: Duration::from_secs(90 * 24 * 3600),
            analysis_workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            analysis_queue: 4,
            analysis_time_limit: Duration::from_secs(60),
            imports_per_hour: 60,
        }
    }
}

/// The table core: the tables in play, the store they are kept in, the settings, and the lanes
/// bots think in. Every table's lifecycle, play, scheduling and restoring is a method here, and
/// refuses with a [`TableError`]; nothing here knows HTTP (the adapter, `crate::AppState`, holds
/// one and maps its refusals). Cheap to clone (shared).
#[derive(Clone)]
pub struct Tables {
    pub(crate) inner: Arc<Core>,
}

pub(crate) struct Core {
    pub(crate) store: SharedStore,
    pub(crate) config: Config,
    /// Bots' thinking, in one lane per client (see [`thinking`]).
    thinkers: Arc<thinking::Thinkers>,
    tables: Registry<Table>,
}

pub(crate) struct Table {
    pub(crate) id: String,
    creator: String,
    /// Mirrors "the game is over" outside the lock, for counting a client's open tables.
    done: AtomicBool,
    /// Set (under the lock) when the table is closed for idleness: nothing acts at it any more.
    closed: AtomicBool,
    /// Set with `closed` when the table went to another instance (its lease moved on): the game
    /// goes on there, so a socket here is told to connect again rather than that it ended.
    moved: AtomicBool,
    /// Set when an append failed in a way that may have committed all the same and the log
    /// could not be read to tell: the log is read again before the next action.
    unsure: AtomicBool,
    /// Per seat, how often its holder changed (a join or a leave), bumped under the lock. A
    /// socket opened for a seat serves it only while this is what it was at the upgrade, so a
    /// socket that missed the close (it lagged) neither reads nor acts for the seat's next holder.
    seat_epochs: Vec<AtomicU64>,
    pub(crate) state: Mutex<TableState>,
    pub(crate) tx: broadcast::Sender<Arc<Push>>,
}

/// One change, rendered for every viewer that has a WebSocket open (`views[seat]`, spectators at
/// `views[players]`).
pub(crate) struct Push {
    /// The table's version after the change.
    pub(crate) version: u64,
    /// An `update` (to merge into what the viewer holds) rather than a full `state`.
    pub(crate) update: bool,
    pub(crate) views: Vec<Option<Text>>,
}

/// A seat as stored (the token only as its SHA-256).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct SeatMeta {
    kind: SeatKind,
    name: Option<String>,
    token_hash: Option<String>,
    bot: Option<String>,
    bot_seed: u64,
    delay_ms: Option<u32>,
}

/// Everything about a table besides the game record, as stored.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Meta {
    seats: Vec<SeatMeta>,
    spectators: bool,
    turn_seconds: Option<u32>,
    bot_delay_ms: Option<u32>,
    /// The version the current game started at (rematches keep versions rising).
    version_base: u64,
    generation: u32,
    creator: String,
    /// The creator's seat: its holder may close the table.
    #[serde(default)]
    owner_seat: Option<usize>,
    /// Whether the creator chose the current game's seed.
    #[serde(default)]
    chosen_seed: bool,
    /// Where the current game started, for a "play from here" game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    started_from: Option<crate::messages::StartedFrom>,
}

pub(crate) struct TableState {
    record: GameRecord,
    game: Game,
    meta: Meta,
    bots: Vec<Option<Box<dyn Bot>>>,
    events: VecDeque<LoggedEvent>,
    /// Open WebSockets per viewer index.
    watchers: Vec<usize>,
    /// Per seat, what the updates so far told it (updates carry only what changed).
    told: Vec<Told>,
    last_activity: Instant,
    finished_at: Option<Instant>,
    turn_deadline: Option<Instant>,
}

impl Table {
    fn new(id: String, creator: String, st: TableState) -> Table {
        let players = st.players();
        let (tx, _) = broadcast::channel(256);
        Table {
            id,
            creator,
            done: AtomicBool::new(st.game.is_over()),
            closed: AtomicBool::new(false),
            moved: AtomicBool::new(false),
            unsure: AtomicBool::new(false),
            seat_epochs: (0..players).map(|_| AtomicU64::new(0)).collect(),
            state: Mutex::new(st),
            tx,
        }
    }

    /// The seat's holder generation now (see `seat_epochs`); 0 for a spectator's index.
    pub(crate) fn seat_epoch(&self, viewer: Viewer) -> u64 {
        match viewer {
            Viewer::Seat(s) => self.seat_epochs.get(s).map(|e| e.load(Ordering::Acquire)).unwrap_or(0),
            Viewer::Spectator => 0,
        }
    }

    /// Whether the table was closed (by its owner or for idleness).
    pub(crate) fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }

    /// Whether the table was closed here because another instance holds it now.
    pub(crate) fn is_moved(&self) -> bool {
        self.moved.load(Ordering::Acquire)
    }

    fn bump_epoch(&self, seat: usize) {
        if let Some(e) = self.seat_epochs.get(seat) {
            e.fetch_add(1, Ordering::AcqRel);
        }
    }
}

impl Entry for Table {
    fn creator(&self) -> &str {
        &self.creator
    }

    /// An unfinished table counts against its creator's limit.
    fn counts(&self) -> bool {
        !self.done.load(Ordering::Relaxed)
    }
}

/// A read from the store on a request's path, given up after [`limits::STORE_READ_TIMEOUT`]
/// (503 `store_unavailable`, retry): a silent database holds no request for longer.
pub(crate) async fn store_read<T>(reply: store::Reply<T>) -> Result<T, TableError> {
    match tokio::time::timeout(limits::STORE_READ_TIMEOUT, reply).await {
        Ok(answer) => Ok(answer?),
        Err(_) => Err(TableError::StoreSilent(limits::STORE_READ_TIMEOUT)),
    }
}

fn stored_outcome(game: &Game) -> Result<store::Outcome, TableError> {
    store::Outcome::new(&game.outcome()).map_err(|e| TableError::Internal(e.to_string()))
}

/// The record without its actions: those are the store's log.
fn stored_header(record: &GameRecord) -> Result<store::Record, TableError> {
    let header = GameRecord { actions: Vec::new(), ..record.clone() };
    store::Record::new(&header).map_err(|e| TableError::Internal(e.to_string()))
}

fn stored_meta(meta: &Meta) -> Result<store::Meta, TableError> {
    store::Meta::new(meta).map_err(|e| TableError::Internal(e.to_string()))
}

impl Tables {
    /// Opens the table core on a store (any backend), rebuilding every unfinished table from it,
    /// and starts its background work (the idle sweep, adoption in a cluster, the records'
    /// retention), which ends when the last clone is dropped.
    pub async fn open(store: impl Into<SharedStore>, config: Config) -> Result<Tables, TableError> {
        let tables = Tables {
            inner: Arc::new(Core {
                store: store.into(),
                config,
                thinkers: Arc::default(),
                tables: Registry::default(),
            }),
        };
        tables.restore().await?;
        tables.spawn_janitor();
        tables.spawn_adopter();
        tables.spawn_record_keeper();
        Ok(tables)
    }

    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    pub fn store(&self) -> &SharedStore {
        &self.inner.store
    }

    /// Waits until every write queued in the store so far is committed.
    pub async fn drain(&self) {
        // The store's writer answers a read only after committing every write queued before it.
        let _ = self.store().load("").await;
    }

    /// The clients' lanes bots think in (Duel's computer thinks in them too).
    pub(crate) fn thinkers(&self) -> &Arc<Thinkers> {
        &self.inner.thinkers
    }

    /// Bots thinking now (each client's bots think one at a time: see `tables/thinking.rs`).
    pub fn bots_thinking(&self) -> usize {
        self.inner.thinkers.thinking()
    }

    /// Tables in memory.
    pub fn table_count(&self) -> usize {
        self.inner.tables.len()
    }

    /// The table `id`: in memory, or a finished table read back from the store (after a restart,
    /// or after it left memory), kept again for `finished_ttl` so its result and a rematch stay
    /// reachable. Not while its lease may have lapsed (see `GameStore::fresh`).
    pub(crate) async fn table(&self, id: &str) -> Result<Arc<Table>, TableError> {
        self.table_checked(id, true).await
    }

    /// [`Tables::table`] for an action: served while the lease is not known to run, since the
    /// write itself is fenced (refused if another instance adopted the table meanwhile).
    pub(crate) async fn table_to_act(&self, id: &str) -> Result<Arc<Table>, TableError> {
        self.table_checked(id, false).await
    }

    async fn table_checked(&self, id: &str, fresh: bool) -> Result<Arc<Table>, TableError> {
        if let Some(t) = self.in_memory(id)? {
            if !self.inner.store.holds(id) {
                // Another instance adopted it: what this one has in memory is stale.
                self.drop_lost(&t);
                return Err(TableError::OwnedElsewhere(t.id.clone()));
            }
            if fresh && !self.inner.store.fresh(id) {
                // The lease was not renewed in time (this process paused, or the database
                // away): another instance may have adopted the table and played on, so memory
                // is not served until the renewal says whose it is.
                return Err(TableError::OwnerUnavailable(t.id.clone()));
            }
            return Ok(t);
        }
        let missing = || TableError::NoSuchTable(id.chars().take(64).collect());
        // Ids are 64 characters at most: a longer one cannot be stored, so costs no lookup.
        if id.len() > 64 {
            return Err(missing());
        }
        let Some(g) = store_read(self.inner.store.load(id)).await? else { return Err(missing()) };
        if g.kind == Kind::Uno && g.status == StoreStatus::Active && self.inner.store.lease().is_some() {
            // A live table another instance holds, or one between owners (its lease ran out,
            // or its adopter is still rebuilding it): served again shortly, so a retryable 503
            // (with Retry-After), not a 404 that tells a client to give up.
            return Err(TableError::OwnerUnavailable(g.id));
        }
        if g.kind != Kind::Uno || g.status != StoreStatus::Finished {
            return Err(missing());
        }
        let table = match self.rebuild_any(&g) {
            Ok(t) => Arc::new(t),
            Err(e) => {
                tracing::warn!(table = %g.id, error = %e, "a finished table cannot be rebuilt");
                return Err(missing());
            }
        };
        table.state.lock().await.finished_at = Some(Instant::now());
        // Another request may have read it back first: keep one copy.
        Ok(self.inner.tables.insert_first(id, table))
    }

    pub(crate) fn in_memory(&self, id: &str) -> Result<Option<Arc<Table>>, TableError> {
        Ok(self.inner.tables.get(id))
    }

    /// Forgets a table whose lease went to another instance: nothing acts at it any more here,
    /// and its connections are closed (clients reload from whichever instance owns it).
    fn drop_lost(&self, table: &Arc<Table>) {
        table.moved.store(true, Ordering::Release);
        table.closed.store(true, Ordering::Release);
        // Every socket on the table sees the move on this push and is closed with 4003.
        let _ = table.tx.send(Arc::new(Push { version: 0, update: false, views: Vec::new() }));
        if self.inner.tables.remove_if_same(&table.id, table) {
            tracing::info!(table = %table.id, "the table is owned by another instance now; dropped here");
        }
    }
}

#[cfg(test)]
mod bot_panic_tests;
