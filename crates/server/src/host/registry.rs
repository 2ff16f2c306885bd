//! What [`Tables`], the registry of every game's tables in play, does: opening the host, finding
//! a table, admitting a new one, the sweep; and the host's settings ([`Config`]). The registry
//! itself (what it holds, what the tables share) is declared in the host's `mod.rs`: the tables'
//! own modules (`hosting`, `lifecycle`, `schedule`) take it as their context, and this module,
//! which calls them, is named by none of them.

use std::sync::Arc;
use std::time::Duration;

use store::{Kind, SharedStore, Standing};

use super::hosting::{GameHost, Hosting, Swept};
use super::table::{Closing, Table, TableState};
use super::thinking::Thinkers;
use super::{store_read, Core, Hosted, Kept, TableError, Tables};
use crate::limits;
use crate::registry::{Entry, Refused, Registry};

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
    /// Unfinished tables of one game one client (IP address) may have created at a time.
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
    /// Bytes the records of every import together may take in the store (as JSON); past that,
    /// the oldest imports are forgotten as new ones come in.
    pub import_budget_bytes: u64,
    /// Where `/metrics` is served on the game port: not at all (the default), or behind the
    /// operator's token.
    pub metrics: crate::metrics::Metrics,
    /// Time between quick-match waves (`POST /api/queue`): a person's bots come within one
    /// interval of the wait they chose.
    pub queue_interval: Duration,
    /// A person in the quick-match queue with no queue socket open who has not read where they
    /// stand (`GET /api/queue`) for this long is taken out of it.
    pub queue_stale: Duration,
    /// A seat quick match gave that its person has not taken (read or opened a socket with its
    /// token) this long after the table was made goes to a bot.
    pub seat_grace: Duration,
    /// The turn time of quick-match tables (they always have a clock).
    pub quick_turn_seconds: u32,
    /// Accounts: how often one may try to sign in or up, and how long a session lasts.
    pub accounts: AccountLimits,
    /// The origin people reach the site at, which passkeys are bound to (`--public-origin`):
    /// `http://localhost` on any port unless set.
    pub public_origin: crate::origin::PublicOrigin,
}

/// How often one may try to sign in or up (counted in the store, so across every instance),
/// and how long a session lasts.
#[derive(Clone, Copy, Debug)]
pub struct AccountLimits {
    /// Sign-ins under one name (whether it is an account's or not), in a window.
    pub sign_in_per_name: store::people::Limit,
    /// Sign-ins from one client address, in a window.
    pub sign_in_per_address: store::people::Limit,
    /// Sign-ups from one client address, in a window.
    pub sign_up_per_address: store::people::Limit,
    /// A session ends this long after it began (a person signs in again then).
    pub session: Duration,
    /// A leaderboard shows players with at least this many rated games in its pool...
    pub board_min_games: i64,
    /// ...who played a rated game there within this long.
    pub board_active: Duration,
    /// Passkey ceremonies (a registration or a sign-in between its two requests) under way at
    /// once in the whole store, each for at most `passkeys::CEREMONY_LIFE`; past that, starting
    /// one is refused (429) until some finish or run out.
    pub passkey_ceremonies: i64,
    /// How often the store forgets the sessions and passkey ceremonies that ran out and the
    /// sign-in attempts whose window is over (one instance's sweep serves a whole cluster's store).
    pub sweep_every: Duration,
}

impl Default for AccountLimits {
    fn default() -> Self {
        use store::people::Limit;
        const MINUTE: i64 = 60_000;
        AccountLimits {
            sign_in_per_name: Limit { limit: 10, window_ms: 15 * MINUTE },
            sign_in_per_address: Limit { limit: 30, window_ms: 15 * MINUTE },
            sign_up_per_address: Limit { limit: 5, window_ms: 60 * MINUTE },
            session: Duration::from_secs(30 * 24 * 3600),
            board_min_games: 10,
            board_active: Duration::from_secs(30 * 24 * 3600),
            passkey_ceremonies: 10_000,
            sweep_every: Duration::from_secs(600),
        }
    }
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
            import_budget_bytes: 256 << 20,
            metrics: crate::metrics::Metrics::Off,
            queue_interval: Duration::from_secs(1),
            queue_stale: Duration::from_secs(20),
            seat_grace: Duration::from_secs(10),
            quick_turn_seconds: 30,
            accounts: AccountLimits::default(),
            public_origin: crate::origin::PublicOrigin::localhost(),
        }
    }
}

impl Entry for dyn Hosting {
    fn creator(&self) -> &str {
        Hosting::creator(self)
    }

    fn kind(&self) -> Kind {
        Hosting::kind(self)
    }

    /// An unfinished table counts against its creator's limit.
    fn counts(&self) -> bool {
        Hosting::counts(self)
    }
}

impl Tables {
    /// Opens the host on a store (any backend) for `games`, rebuilding every unfinished table
    /// of theirs from it, and starts its background work (the idle sweep, adoption in a
    /// cluster, the records' retention), which ends when the last clone is dropped.
    pub(crate) async fn open(
        store: SharedStore,
        config: Config,
        games: Vec<Arc<dyn GameHost>>,
    ) -> Result<Tables, TableError> {
        let tables = Tables {
            inner: Arc::new(Core {
                store,
                config,
                thinkers: Arc::default(),
                tables: Registry::default(),
                games,
                mending: tokio::sync::Mutex::new(()),
                adopt_now: Arc::default(),
            }),
        };
        tables.restore().await?;
        tables.spawn_janitor();
        tables.spawn_people_sweep();
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

    /// The instance is stopping (after [`Tables::drain`]): ends every lease it holds, so that
    /// the other instances adopt its tables at their next look rather than a lease later; the
    /// tables leave memory (their sockets are closed already). Answers how many.
    pub async fn hand_over(&self) -> usize {
        let n = match self.store().hand_over().await {
            Ok(n) => n,
            Err(e) => {
                tracing::warn!(error = %e, "handing the tables over failed: they are adopted once their leases run out");
                0
            }
        };
        if n > 0 {
            tracing::info!(tables = n, "handed tables over: their leases end now");
        }
        n
    }

    /// Looks for tables to adopt now, not at the next scan (another instance handed its over).
    pub fn adopt_now(&self) {
        self.inner.adopt_now.notify_one();
    }

    /// The clients' lanes bots think in.
    pub(crate) fn thinkers(&self) -> &Arc<Thinkers> {
        &self.inner.thinkers
    }

    /// Bots thinking now (each client's bots think one at a time: see `host/thinking.rs`).
    pub fn bots_thinking(&self) -> usize {
        self.inner.thinkers.thinking()
    }

    /// Tables in memory.
    pub fn table_count(&self) -> usize {
        self.inner.tables.len()
    }

    /// The table `id` if it is in memory now.
    pub(crate) fn in_memory(&self, id: &str) -> Option<Arc<dyn Hosting>> {
        self.inner.tables.get(id)
    }

    pub(crate) fn game(&self, kind: Kind) -> Option<&Arc<dyn GameHost>> {
        self.inner.games.iter().find(|g| g.kind() == kind)
    }

    /// The game hosted under `name` (a create request's `game`).
    pub(crate) fn game_named(&self, name: &str) -> Option<&Arc<dyn GameHost>> {
        self.inner.games.iter().find(|g| g.kind().as_str() == name)
    }

    /// The table `id` to read: in memory, or a finished table read back from the store (after a
    /// restart, or after it left memory), kept again for `finished_ttl` so its result and a
    /// rematch stay reachable. Not while its lease may have lapsed (see `GameStore::fresh`).
    pub(crate) async fn table(&self, id: &str) -> Result<Arc<dyn Hosting>, TableError> {
        self.table_checked(id, true).await
    }

    /// [`Tables::table`] for an action: served while the lease is not known to run, since the
    /// write itself is fenced (refused if another instance adopted the table meanwhile).
    pub(crate) async fn table_to_act(&self, id: &str) -> Result<Arc<dyn Hosting>, TableError> {
        self.table_checked(id, false).await
    }

    /// The table `id` of game `G` if it is in memory now.
    pub(crate) fn typed_in_memory<G: Hosted>(&self, id: &str) -> Option<Arc<Table<G>>> {
        self.inner.tables.get(id)?.as_any().downcast::<Table<G>>().ok()
    }

    async fn table_checked(&self, id: &str, fresh: bool) -> Result<Arc<dyn Hosting>, TableError> {
        if let Some(t) = self.inner.tables.get(id) {
            if !self.inner.store.holds(id) {
                // Another instance adopted it: what this one has in memory is stale.
                self.drop_lost(&t).await;
                return Err(TableError::OwnedElsewhere(t.id().to_string()));
            }
            if fresh && !self.inner.store.fresh(id) {
                // The lease was not renewed in time (this process paused, or the database
                // away): another instance may have adopted the table and played on, so memory
                // is not served until the renewal says whose it is.
                return Err(TableError::OwnerUnavailable(t.id().to_string()));
            }
            return Ok(t);
        }
        let missing = || TableError::NoSuchTable(id.chars().take(64).collect());
        // Ids are 64 characters at most: a longer one cannot be stored, so costs no lookup.
        if id.len() > 64 {
            return Err(missing());
        }
        let Some(g) = store_read(self.inner.store.load(id)).await? else { return Err(missing()) };
        let Some(game) = self.game(g.kind).cloned() else { return Err(missing()) };
        if g.standing == Standing::Active && self.inner.store.lease().is_some() {
            // A live table another instance holds, or one between owners (its lease ran out,
            // or its adopter is still rebuilding it): served again shortly, so a retryable 503
            // (with Retry-After), not a 404 that tells a client to give up.
            return Err(TableError::OwnerUnavailable(g.id));
        }
        if g.standing != Standing::Finished {
            return Err(missing());
        }
        // Seats a since-deleted account held are shown under "deleted player".
        let deleted = self.deleted_seats(&g.id).await;
        let mut g = g;
        if let Some(meta) = (!deleted.is_empty()).then(|| super::person::anonymised(&g.meta, &deleted)).flatten() {
            g.meta = meta;
        }
        let rebuilt = match game.rebuild(&g) {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(table = %g.id, error = %e, "a finished table cannot be rebuilt");
                return Err(missing());
            }
        };
        if rebuilt.over {
            // A stop between its mark and its result (as once Duel's finishing path did)
            // left it without its record: kept now, once.
            let _one = self.inner.mending.lock().await;
            game.mend(self, &g).await?;
        }
        // Another request may have read it back first: keep one copy.
        Ok(self.inner.tables.insert_first(id, rebuilt.table))
    }

    /// Keeps a table just opened in the registry.
    pub(crate) fn insert(&self, id: &str, table: Arc<dyn Hosting>) {
        self.inner.tables.insert(id, table);
    }

    pub(crate) fn remove(&self, id: &str) {
        self.inner.tables.remove(id);
    }

    /// Whether `client` may open another table of `kind` (or play table `again` again: a
    /// rematch); past its limit, its tables left idle are closed first (so a slot they hold is
    /// not waited for until the next sweep).
    pub(crate) fn check_capacity(&self, client: &str, kind: Kind, again: Option<&str>) -> Result<(), TableError> {
        let c = &self.inner.config;
        let admit = || self.inner.tables.admit(client, kind, again, c.max_tables, c.max_tables_per_client);
        let refused = match admit() {
            Err(Refused::TooMany(_)) => {
                self.sweep();
                admit()
            }
            other => other,
        };
        refused.map_err(|r| match r {
            Refused::Full => TableError::ServerFull,
            Refused::TooMany(n) => TableError::TooManyTables(n),
        })
    }

    /// Every table in the lobby's list: a glance (busy tables are left out rather than waited
    /// for), in id order, at most [`limits::MAX_LISTED`].
    pub fn list_tables(&self) -> Vec<crate::messages::TableSummary> {
        let mut out: Vec<_> = self.inner.tables.all().iter().filter_map(|t| t.summary()).collect();
        out.sort_by(|a, b| a.id.cmp(&b.id));
        out.truncate(limits::MAX_LISTED);
        out
    }

    /// A finished game's result, as the store keeps it.
    pub(crate) fn new_result<G: Hosted>(&self, id: &str, plies: u64, kept: Kept) -> store::NewResult {
        store::NewResult {
            game_id: id.to_string(),
            kind: G::KIND,
            record: kept.record,
            actions: plies,
            outcome: kept.outcome,
            tallies: kept.tallies,
        }
    }

    /// Forgets a table whose lease went to another instance: nothing acts at it any more here,
    /// and its sockets are closed (clients reload from whichever instance owns it).
    pub(crate) async fn drop_lost(&self, table: &Arc<dyn Hosting>) {
        table.lost().await;
        if self.inner.tables.remove_if_same(table.id(), table) {
            tracing::info!(table = %table.id(), "the table is owned by another instance now; dropped here");
        }
    }

    /// [`Tables::drop_lost`] for a table whose lock the caller holds.
    pub(crate) fn drop_lost_locked<G: Hosted>(&self, table: &Table<G>, st: &mut TableState<G>) {
        table.close(st, Closing::Moved);
        if let Some(t) = self.inner.tables.get(&table.id) {
            let same = std::ptr::eq(Arc::as_ptr(&t) as *const (), table as *const Table<G> as *const ());
            if same && self.inner.tables.remove_if_same(&table.id, &t) {
                tracing::info!(table = %table.id, "the table is owned by another instance now; dropped here");
            }
        }
    }

    /// Drops finished tables after their time, and closes tables left idle.
    pub fn sweep(&self) {
        let now = std::time::Instant::now();
        for t in self.inner.tables.all() {
            match t.sweep(now, self) {
                Swept::Keep => continue,
                Swept::Closed => drop(self.inner.store.set_standing(t.id(), Standing::Abandoned)),
                Swept::Forget => {}
            }
            self.inner.tables.remove_if_same(t.id(), &t);
            self.inner.store.release(t.id());
        }
    }

    /// Forgets, every `sweep_every`, what ran out in the people's store: sessions, ceremonies,
    /// and attempts past the longest of the limits' windows (so no window is cut short).
    fn spawn_people_sweep(&self) {
        let Some(people) = self.inner.store.people() else { return };
        let a = self.inner.config.accounts;
        let window =
            a.sign_in_per_name.window_ms.max(a.sign_in_per_address.window_ms).max(a.sign_up_per_address.window_ms);
        let every = a.sweep_every.max(Duration::from_millis(10));
        let weak = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                if weak.upgrade().is_none() {
                    return;
                }
                match super::store_read(people.sweep(super::person::now_ms(), window)).await {
                    Ok(s) => tracing::debug!(
                        sessions = s.sessions,
                        ceremonies = s.ceremonies,
                        attempts = s.attempts,
                        "people swept"
                    ),
                    Err(e) => tracing::warn!(error = %e, "the people's store was not swept"),
                }
            }
        });
    }

    fn spawn_janitor(&self) {
        let c = &self.inner.config;
        let every = (c.idle_timeout.min(c.finished_ttl).min(c.unwatched_bots_timeout) / 4)
            .clamp(Duration::from_millis(200), Duration::from_secs(30));
        let weak = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let Some(inner) = weak.upgrade() else { return };
                Tables { inner }.sweep();
            }
        });
    }
}
