//! The HTTP side's state, [`AppState`]: the table core ([`Tables`]) and what only the routes
//! need besides it (analyses' admission, the statistics' one-time tally, the import quota, the
//! Duel games).

use std::sync::Arc;
use std::time::{Duration, Instant};

use store::SharedStore;

use crate::duel_api::DuelGames;
use crate::quota::Quota;
use crate::tables::{Analyses, Stats};
use crate::{Config, TableError, Tables};

/// The server's shared state: the table core, and what the HTTP routes keep beside it. Every
/// method of the table core is reached through it (it dereferences to [`Tables`]).
#[derive(Clone)]
pub struct AppState {
    tables: Tables,
    pub(crate) inner: Arc<Shared>,
}

pub(crate) struct Shared {
    pub(crate) analyses: Arc<Analyses>,
    pub(crate) stats: Stats,
    /// Records imported, per client, in the last hour.
    imports: Quota,
    duel: DuelGames,
}

impl AppState {
    /// Opens the server state on a store (any backend), rebuilding every unfinished table from it.
    pub async fn new(store: impl Into<SharedStore>, config: Config) -> Result<AppState, TableError> {
        let analyses = Arc::new(Analyses::new(&config));
        let imports = Quota::new(config.imports_per_hour, Duration::from_secs(3600));
        let tables = Tables::open(store, config).await?;
        let c = tables.config();
        let duel = DuelGames::with_store(tables.store().clone())
            .with_limits(c.max_tables_per_client, c.idle_timeout)
            .with_thinkers(tables.thinkers().clone());
        Ok(AppState { inner: Arc::new(Shared { analyses, stats: Stats::default(), imports, duel }), tables })
    }

    /// The table core.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The Duel games (kept in the same store, under the same per-client limits).
    pub fn duel_games(&self) -> &DuelGames {
        &self.inner.duel
    }

    /// Analyses run to their end since the server started (answers from the cache not counted).
    pub fn analyses_run(&self) -> usize {
        self.inner.analyses.analyses_run()
    }

    /// Analyses admitted and not yet answered (running or waiting for a worker), and those
    /// whose request is gone but whose work has not stopped yet.
    pub fn analyses_under_way(&self) -> usize {
        self.inner.analyses.analyses_under_way()
    }

    /// Analyses whose work is running on a blocking thread now.
    pub fn analyses_working(&self) -> usize {
        self.inner.analyses.analyses_working()
    }

    /// Counts one more record imported by `client`, or refuses it past
    /// [`Config::imports_per_hour`] in the last hour.
    pub(crate) fn take_import(&self, client: &str) -> Result<(), TableError> {
        self.inner.imports.take(client, Instant::now()).map_err(|wait| TableError::TooManyImports {
            limit: self.config().imports_per_hour,
            retry: wait.as_secs_f64().ceil() as u64,
        })
    }
}

impl std::ops::Deref for AppState {
    type Target = Tables;

    fn deref(&self) -> &Tables {
        &self.tables
    }
}
