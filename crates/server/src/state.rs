//! The HTTP side's state, [`AppState`]: the host's registry ([`Tables`]) and what only the
//! routes need besides it (UNO's analyses' admission and statistics' one-time tally, the import
//! quota).

use std::sync::Arc;
use std::time::{Duration, Instant};

use store::SharedStore;

use crate::games::uno::analysis::Analyses;
use crate::games::uno::tallies::Stats;
use crate::host::{GameHost, Hosted};
use crate::quota::Quota;
use crate::{Config, TableError, Tables};

/// The games a server hosts: UNO and Duel ([`Games::standard`]), or any others
/// ([`Games::with`]: one line for a game, its [`Hosted`] implementation the rest).
#[derive(Clone, Default)]
pub struct Games(Vec<Arc<dyn GameHost>>);

impl Games {
    /// No game yet.
    pub fn new() -> Games {
        Games::default()
    }

    /// UNO and Duel.
    pub fn standard() -> Games {
        Games::new().with::<crate::games::uno::Uno>().with::<crate::games::duel::Duel>()
    }

    /// `G` hosted too.
    pub fn with<G: Hosted>(mut self) -> Games {
        self.0.push(Arc::new(crate::host::hosting_of::<G>()));
        self
    }
}

/// The server's shared state: the host's registry, and what the HTTP routes keep beside it. The
/// registry's calls are reached through it (it dereferences to [`Tables`]).
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
    /// This instance's quick-match queue (`crate::quick`): the tickets whose home it is.
    pub(crate) quick: Arc<crate::quick::Quick>,
}

impl AppState {
    /// Opens the server state on a store (any backend) for UNO and Duel, rebuilding every
    /// unfinished table from it.
    pub async fn new(store: impl Into<SharedStore>, config: Config) -> Result<AppState, TableError> {
        AppState::hosting(store, config, Games::standard()).await
    }

    /// Opens the server state on a store for `games`.
    pub async fn hosting(store: impl Into<SharedStore>, config: Config, games: Games) -> Result<AppState, TableError> {
        let analyses = Arc::new(Analyses::new(&config));
        let imports = Quota::new(config.imports_per_hour, Duration::from_secs(3600));
        let tables = Tables::open(store.into(), config, games.0).await?;
        Ok(AppState {
            inner: Arc::new(Shared { analyses, stats: Stats::default(), imports, quick: Arc::default() }),
            tables,
        })
    }

    /// The host's registry.
    pub fn tables(&self) -> &Tables {
        &self.tables
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
        self.inner.imports.take(client, Instant::now()).map_err(|wait| self.too_many_imports(wait))
    }

    /// Refuses a record import from `client` past its hourly quota, counting nothing.
    pub(crate) fn check_import(&self, client: &str) -> Result<(), TableError> {
        self.inner.imports.check(client, Instant::now()).map_err(|wait| self.too_many_imports(wait))
    }

    fn too_many_imports(&self, wait: std::time::Duration) -> TableError {
        TableError::TooManyImports { limit: self.config().imports_per_hour, retry: wait.as_secs_f64().ceil() as u64 }
    }
}

impl std::ops::Deref for AppState {
    type Target = Tables;

    fn deref(&self) -> &Tables {
        &self.tables
    }
}
