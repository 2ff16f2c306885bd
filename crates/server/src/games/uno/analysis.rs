//! Analysis of kept games on the server (`GET /api/games/{id}/analysis`, documented in
//! docs/replays.md): `uno_lab::analysis` run on a blocking thread, never on the async runtime,
//! and bounded so that no client can occupy the server:
//!
//! * at most [`Config::analysis_workers`] analyses run at once, and at most
//!   [`Config::analysis_queue`] more wait; past that a request is refused (`analysis_busy`);
//! * one client has at most [`ANALYSES_PER_CLIENT`] under way (`too_many_analyses`);
//! * the sample count is at most [`MAX_ANALYSIS_SAMPLES`];
//! * analyses by the value network (`method=value`, `uno_lab::analysis::analyse_with_value`),
//!   about 70× cheaper, have a lane of their own with looser bounds: as many workers, a queue
//!   [`VALUE_ANALYSIS_QUEUE_FACTOR`] times as long, [`VALUE_ANALYSES_PER_CLIENT`] per client,
//!   and at most `uno_lab::analysis::VALUE_WORLDS` samples; a long playout analysis never
//!   holds them up;
//! * one analysis runs at most [`Config::analysis_time_limit`] (`analysis_timeout`);
//! * an analysis whose request is dropped (its client hung up) is stopped before its next
//!   sampled world, and the limits count the work while it runs: a client that hangs up is
//!   not admitted again until its analysis has stopped;
//! * a finished analysis is kept per (game, seat, samples, method) for the next viewer (the newest
//!   [`ANALYSIS_CACHE_ENTRIES`]), and viewers asking for one being made wait for that one.
//!
//! Only finished games are analysed: the analysis of a game in play would value the moves of a
//! seat at a live table, which is help no player may have (`game_not_over`).

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::{OnceCell, Semaphore};
use uno::Seat;
use uno_lab::analysis::{analyse_with, Analysis, AnalysisConfig, AnalysisError, Method, DEFAULT_MISTAKE, DEFAULT_SEED};

use crate::host::{TableError, Tables};
use crate::limits;

#[cfg(doc)]
use crate::limits::{
    ANALYSES_PER_CLIENT, ANALYSIS_CACHE_ENTRIES, MAX_ANALYSIS_SAMPLES, VALUE_ANALYSES_PER_CLIENT,
    VALUE_ANALYSIS_QUEUE_FACTOR,
};
#[cfg(doc)]
use crate::Config;

/// Which analysis: of which table, which of its kept games, which seat, how many samples, by
/// which method.
type Key = (String, usize, Seat, u32, Method);

/// A finished analysis and what it cost.
struct Done {
    analysis: Analysis,
    ms: u64,
}

type Slot = Arc<OnceCell<Arc<Done>>>;

/// The workers and the admission of one method's analyses.
struct Lane {
    workers: Arc<Semaphore>,
    /// Requests admitted (running or waiting for a worker).
    admitted: AtomicUsize,
    admit_max: usize,
    per_client: Mutex<HashMap<String, usize>>,
    per_client_max: usize,
}

impl Lane {
    fn new(workers: usize, queue: usize, per_client_max: usize) -> Lane {
        Lane {
            workers: Arc::new(Semaphore::new(workers)),
            admitted: AtomicUsize::new(0),
            admit_max: workers + queue,
            per_client: Mutex::new(HashMap::new()),
            per_client_max,
        }
    }
}

/// The analyses under way and the finished ones kept (one per server).
pub(crate) struct Analyses {
    playouts: Lane,
    value: Lane,
    cache: Mutex<Cache>,
    time_limit: Duration,
    /// Analyses run to their end (not answered from the cache).
    runs: AtomicUsize,
    /// Analyses whose work is running on a blocking thread.
    working: AtomicUsize,
}

#[derive(Default)]
struct Cache {
    slots: HashMap<Key, Slot>,
    /// Keys oldest first, to forget the oldest past the limit.
    order: VecDeque<Key>,
}

/// The answer of `GET /api/games/{id}/analysis`: the engine's analysis with what it is of.
#[derive(Serialize, ts_rs::TS)]
#[ts(rename = "AnalysisAnswer")]
pub(crate) struct Answer<'a> {
    id: &'a str,
    /// Which kept game of the table.
    game: usize,
    /// The loss that marks a mistake (0–1).
    mistake_threshold: f64,
    /// How long the analysis took when it ran, in milliseconds.
    #[ts(type = "number")]
    ms: u64,
    /// Whether it was made for an earlier request.
    cached: bool,
    #[serde(flatten)]
    analysis: &'a Analysis,
}

/// Takes back a client's admission when its request ends, however it ends, or, once its
/// analysis runs, when that work ends.
struct Admission {
    analyses: Arc<Analyses>,
    method: Method,
    client: String,
}

impl Drop for Admission {
    fn drop(&mut self) {
        let lane = self.analyses.lane(self.method);
        lane.admitted.fetch_sub(1, Ordering::AcqRel);
        if let Ok(mut m) = lane.per_client.lock() {
            if let Some(n) = m.get_mut(&self.client) {
                *n -= 1;
                if *n == 0 {
                    m.remove(&self.client);
                }
            }
        }
    }
}

/// Stops an analysis when the request waiting for it is dropped.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Counts an analysis's work while it runs.
struct Working<'a>(&'a AtomicUsize);

impl<'a> Working<'a> {
    fn new(n: &'a AtomicUsize) -> Working<'a> {
        n.fetch_add(1, Ordering::AcqRel);
        Working(n)
    }
}

impl Drop for Working<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Analyses {
    pub(crate) fn new(config: &crate::Config) -> Analyses {
        let workers = config.analysis_workers.max(1);
        Analyses {
            playouts: Lane::new(workers, config.analysis_queue, limits::ANALYSES_PER_CLIENT),
            value: Lane::new(
                workers,
                config.analysis_queue.saturating_mul(limits::VALUE_ANALYSIS_QUEUE_FACTOR),
                limits::VALUE_ANALYSES_PER_CLIENT,
            ),
            cache: Mutex::new(Cache::default()),
            time_limit: config.analysis_time_limit,
            runs: AtomicUsize::new(0),
            working: AtomicUsize::new(0),
        }
    }

    fn lane(&self, method: Method) -> &Lane {
        match method {
            Method::Playouts => &self.playouts,
            Method::Value => &self.value,
        }
    }

    fn cached(&self, key: &Key) -> Option<Arc<Done>> {
        self.cache.lock().ok()?.slots.get(key).and_then(|s| s.get().cloned())
    }

    /// The slot of `key`, made (and the oldest forgotten past the limit) if there is none.
    fn slot(&self, key: &Key) -> Result<Slot, TableError> {
        let mut cache = self.cache.lock().map_err(|_| TableError::Internal("analysis cache poisoned".into()))?;
        if let Some(s) = cache.slots.get(key) {
            return Ok(s.clone());
        }
        while cache.order.len() >= limits::ANALYSIS_CACHE_ENTRIES {
            let Some(old) = cache.order.pop_front() else { break };
            cache.slots.remove(&old);
        }
        let slot = Slot::default();
        cache.slots.insert(key.clone(), slot.clone());
        cache.order.push_back(key.clone());
        Ok(slot)
    }

    /// Admits one more request of `client` by `method`, or says why not.
    fn admit(self: &Arc<Self>, client: &str, method: Method) -> Result<Admission, TableError> {
        let lane = self.lane(method);
        let mut m = lane.per_client.lock().map_err(|_| TableError::Internal("analysis clients poisoned".into()))?;
        let mine = m.get(client).copied().unwrap_or(0);
        if mine >= lane.per_client_max {
            return Err(TableError::TooManyAnalyses(lane.per_client_max));
        }
        if lane.admitted.fetch_add(1, Ordering::AcqRel) >= lane.admit_max {
            lane.admitted.fetch_sub(1, Ordering::AcqRel);
            return Err(TableError::AnalysisBusy);
        }
        m.insert(client.to_string(), mine + 1);
        Ok(Admission { analyses: self.clone(), method, client: client.to_string() })
    }

    /// Runs one analysis on a worker (waiting for one first). The worker and the client's
    /// `admission` are held by the work itself, so they are given back when it stops, and it
    /// stops before its next world once this future is dropped.
    async fn run(
        self: &Arc<Self>,
        record: uno::GameRecord,
        seat: Seat,
        samples: u32,
        method: Method,
        admission: Option<Admission>,
    ) -> Result<Arc<Done>, TableError> {
        let waiting = Instant::now();
        let worker = self
            .lane(method)
            .workers
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| TableError::Internal("analysis workers closed".into()))?;
        crate::metrics::analysis_wait(waiting.elapsed());
        let stop = Arc::new(AtomicBool::new(false));
        let _stop_on_drop = StopOnDrop(stop.clone());
        let start = Instant::now();
        let config = AnalysisConfig {
            seat,
            samples,
            seed: DEFAULT_SEED,
            mistake: DEFAULT_MISTAKE,
            deadline: Some(start + self.time_limit),
        };
        let me = self.clone();
        let result = tokio::task::spawn_blocking(move || {
            let _held = (worker, admission, Working::new(&me.working));
            analyse_with(&record, &config, method, &|_, _| {}, &|| stop.load(Ordering::Relaxed))
        })
        .await
        .map_err(|e| TableError::Internal(format!("the analysis stopped: {e}")))?;
        match result {
            Ok(analysis) => {
                self.runs.fetch_add(1, Ordering::Relaxed);
                Ok(Arc::new(Done { analysis, ms: start.elapsed().as_millis() as u64 }))
            }
            Err(AnalysisError::OutOfTime { .. }) => Err(TableError::AnalysisTimeout(self.time_limit.as_secs())),
            // Only when this future was dropped: nobody reads this.
            Err(AnalysisError::Stopped { .. }) => Err(TableError::Internal("the analysis was stopped".into())),
            Err(e) => Err(TableError::Internal(format!("a kept game does not analyse: {e}"))),
        }
    }
}

/// What `GET /api/games/{id}/analysis` asks for.
#[derive(Clone, Debug)]
pub(crate) struct AnalysisRequest {
    /// Which kept game of the table (none: its last).
    pub(crate) game: Option<usize>,
    pub(crate) seat: Seat,
    /// Worlds per action (none: the engine's default for playouts, every world the value
    /// network looks at for `value`).
    pub(crate) samples: Option<u32>,
    pub(crate) method: Method,
}

impl Analyses {
    /// The analysis of one seat's decisions in a kept game of table `id`, as JSON.
    pub(crate) async fn analysis(
        self: &Arc<Self>,
        tables: &Tables,
        id: &str,
        req: AnalysisRequest,
        client: &str,
    ) -> Result<serde_json::Value, TableError> {
        let (default, max) = match req.method {
            Method::Playouts => (uno_lab::analysis::DEFAULT_SAMPLES, limits::MAX_ANALYSIS_SAMPLES),
            Method::Value => (Method::Value.max_samples(), Method::Value.max_samples()),
        };
        let samples = req.samples.unwrap_or(default);
        if samples == 0 || samples > max {
            let by = match req.method {
                Method::Playouts => "",
                Method::Value => " with method=value",
            };
            return Err(TableError::Invalid(format!("samples must be 1 to {max}{by} (got {samples})")));
        }
        let kept = super::records::kept_game(tables, id, req.game).await?;
        let record = kept.kept.record;
        if req.seat.index() >= record.players {
            return Err(TableError::Invalid(format!(
                "seat {}: the game has seats 0 to {}",
                req.seat,
                record.players - 1
            )));
        }
        let analyses = self;
        let key: Key = (id.to_string(), kept.game, req.seat, samples, req.method);
        let (done, cached) = match analyses.cached(&key) {
            Some(done) => (done, true),
            None => {
                let mut admission = Some(analyses.admit(client, req.method)?);
                let slot = analyses.slot(&key)?;
                let seat = req.seat;
                let mut ran = false;
                let done = slot
                    .get_or_try_init(|| {
                        ran = true;
                        analyses.run(record, seat, samples, req.method, admission.take())
                    })
                    .await?
                    .clone();
                (done, !ran)
            }
        };
        let answer = Answer {
            id,
            game: kept.game,
            mistake_threshold: DEFAULT_MISTAKE,
            ms: done.ms,
            cached,
            analysis: &done.analysis,
        };
        serde_json::to_value(answer).map_err(|e| TableError::Internal(e.to_string()))
    }

    /// Analyses run to their end since the server started (answers from the cache not counted).
    pub(crate) fn analyses_run(&self) -> usize {
        self.runs.load(Ordering::Relaxed)
    }

    /// Analyses admitted and not yet answered (running or waiting for a worker), and those
    /// whose request is gone but whose work has not stopped yet.
    pub(crate) fn analyses_under_way(&self) -> usize {
        let a = self;
        a.playouts.admitted.load(Ordering::Acquire) + a.value.admitted.load(Ordering::Acquire)
    }

    /// Analyses whose work is running on a blocking thread now.
    pub(crate) fn analyses_working(&self) -> usize {
        self.working.load(Ordering::Acquire)
    }
}
