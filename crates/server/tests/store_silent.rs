//! A database that goes silent (neither answering nor refusing: a network cut, a stalled
//! PostgreSQL) holds no read for longer than `limits::STORE_READ_TIMEOUT`: the request is answered
//! 503 `store_unavailable` with `Retry-After`, rather than waiting until the connection gives up
//! (up to a lease, in a cluster).

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::call;
use http_body_util::BodyExt;
use tower::ServiceExt;

/// The store, with its reads silent once `silent` is set: they never answer (the answer's
/// sender is kept, so the read is neither answered nor refused).
struct Silent {
    inner: store::SharedStore,
    silent: Arc<std::sync::atomic::AtomicBool>,
    held: Mutex<Vec<Box<dyn std::any::Any + Send>>>,
}

impl Silent {
    fn read<T: Send + 'static>(&self, reply: store::Reply<T>) -> store::Reply<T> {
        if !self.silent.load(std::sync::atomic::Ordering::Relaxed) {
            return reply;
        }
        let (tx, never) = store::Reply::channel();
        self.held.lock().expect("held").push(Box::new(tx));
        never
    }
}

impl store::GameStore for Silent {
    store::forward_to_inner!(
        backend,
        location,
        create,
        append,
        set_meta,
        set_standing,
        reset,
        add_result,
        load_active,
        forget_results,
        untallied,
        tally
    );
    fn load(&self, id: &str) -> store::Reply<Option<store::StoredGame>> {
        self.read(self.inner.load(id))
    }
    fn results(&self, kind: store::Kind) -> store::Reply<Vec<store::GameResult>> {
        self.read(self.inner.results(kind))
    }
    fn results_of(&self, game_id: &str) -> store::Reply<Vec<store::GameResult>> {
        self.read(self.inner.results_of(game_id))
    }
    fn tallies(&self, kind: store::Kind, offset: u64, limit: u64) -> store::Reply<store::TallyPage> {
        self.read(self.inner.tallies(kind, offset, limit))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_while_the_database_is_silent_is_answered_503_in_bounded_time() {
    let silent = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let inner = store::SharedStore::from(store::SqliteStore::open_in_memory().expect("store"));
    let store: store::SharedStore = Arc::new(Silent { inner, silent: silent.clone(), held: Mutex::default() });
    let state = server::AppState::new(store, server::Config::default()).await.expect("state");
    let app = server::app(state);
    // Warm up the statistics' one-time backfill while the store still answers.
    let (s, _) = call(&app, "GET", "/api/stats", None, None).await;
    assert_eq!(s, StatusCode::OK);
    silent.store(true, std::sync::atomic::Ordering::Relaxed);

    let limit = server::limits::STORE_READ_TIMEOUT;
    // Reads that need the store: a table not in memory (read back from the store when
    // finished), its kept records, a Duel game, the statistics.
    for uri in ["/api/tables/0123abcd", "/api/games/0123abcd/record", "/api/duel/0123abcd", "/api/stats"] {
        let started = Instant::now();
        let req = Request::builder().uri(uri).body(Body::empty()).expect("request");
        let answered = tokio::time::timeout(limit + Duration::from_secs(8), app.clone().oneshot(req)).await;
        let Ok(resp) = answered else {
            panic!("{uri}: still waiting for the silent store {:?} later", started.elapsed());
        };
        let resp = resp.expect("response");
        let took = started.elapsed();
        assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE, "{uri}");
        assert_eq!(resp.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("2"), "{uri}");
        assert!(took >= limit && took < limit + Duration::from_secs(2), "{uri}: answered after {took:?}");
        let bytes = resp.into_body().collect().await.expect("body").to_bytes();
        let body: serde_json::Value = serde_json::from_slice(&bytes).expect("json");
        assert_eq!(body["code"], "store_unavailable", "{uri}: {body}");
    }
}
