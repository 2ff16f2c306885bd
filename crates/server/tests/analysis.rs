//! The analysis route through the router: its numbers are the engine's for the same record, seat,
//! seed and samples; a second viewer is answered from the cache; a live game is refused; and
//! the bounds (one analysis per client, the workers and their queue, the time limit) answer
//! 429 and 503 with `{code, message}`. `method=value` answers the value network's analysis
//! (the engine's `analyse_with_value`), says so, and is not held up by a playout analysis.

use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;
use uno::{GameRecord, Seat};
use uno_lab::analysis::{analyse, analyse_with_value, AnalysisConfig, DEFAULT_MISTAKE, DEFAULT_SEED, VALUE_WORLDS};

mod common;
use common::call;

async fn open(config: server::Config) -> (server::AppState, axum::Router) {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let state = server::AppState::new(store, config).await.expect("state");
    let app = server::app(state.clone());
    (state, app)
}

/// A table of heuristic bots played to its end (`target`: the match's points, 0 for one round):
/// its id.
async fn finished(app: &axum::Router, seed: u64, players: usize, target: u32) -> String {
    let seats: Vec<Value> = (0..players).map(|_| json!({"kind": "bot", "bot": "heuristic"})).collect();
    let create = json!({"preset": "official", "house_rules": {"match_target": target}, "seed": seed, "seats": seats});
    let (s, created) = call(app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    for _ in 0..6000 {
        let (_, v) = call(app, "GET", &format!("/api/tables/{id}"), None, None).await;
        if v["status"] == "finished" {
            return id;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("the bots did not finish");
}

/// One GET from the client at `ip` (the router tells clients apart by their address).
async fn get_from(app: &axum::Router, uri: &str, ip: [u8; 4]) -> (StatusCode, Value) {
    let mut req = Request::builder().uri(uri).body(Body::empty()).expect("request");
    req.extensions_mut().insert(ConnectInfo(SocketAddr::from((ip, 40_000))));
    let resp = app.clone().oneshot(req).await.expect("response");
    let status = resp.status();
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

fn quick() -> server::Config {
    server::Config { bot_delay: Duration::ZERO, ..Default::default() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_is_the_engines_and_a_second_viewer_gets_it_from_the_cache() {
    let (state, app) = open(quick()).await;
    let id = finished(&app, 21, 3, 0).await;
    let (_, export) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    let record = GameRecord::from_json(&export.to_string()).expect("record");

    let uri = format!("/api/games/{id}/analysis?seat=1&samples=24");
    let (s, first) = call(&app, "GET", &uri, None, None).await;
    assert_eq!(s, StatusCode::OK, "{first}");
    assert_eq!((first["cached"].as_bool(), first["game"].as_u64()), (Some(false), Some(0)));
    // The engine's analysis of the exported record, with the server's seed and threshold.
    let config =
        AnalysisConfig { seat: Seat(1), samples: 24, seed: DEFAULT_SEED, mistake: DEFAULT_MISTAKE, deadline: None };
    // Through text, as the answer came: the JSON reader rounds a few floats' last digit.
    let engine: Value = serde_json::from_str(
        &serde_json::to_string(&analyse(&record, &config, &|_, _| {}).expect("analysis")).expect("json"),
    )
    .expect("json");
    for field in ["seat", "samples", "seed", "decisions", "rounds", "skill", "luck"] {
        assert_eq!(first[field], engine[field], "{field}");
    }
    assert!(!first["decisions"].as_array().expect("decisions").is_empty());
    assert_eq!(first["mistake_threshold"], DEFAULT_MISTAKE);
    // Every field docs/api.md shows.
    assert_eq!(first["method"], "playouts");
    for key in
        ["id", "game", "method", "seat", "samples", "seed", "mistake_threshold", "ms", "cached", "decisions", "rounds"]
    {
        assert!(first.get(key).is_some(), "no {key:?} in {first}");
    }
    assert_eq!(state.analyses_run(), 1);

    // A second viewer: the same numbers, from the cache, nothing run again.
    let (s, second) = call(&app, "GET", &uri, None, None).await;
    assert_eq!(s, StatusCode::OK, "{second}");
    assert_eq!(second["cached"], true);
    assert_eq!(second["decisions"], first["decisions"]);
    assert_eq!(state.analyses_run(), 1);
    // Another sample count is another analysis; another seat too.
    let (s, other) = call(&app, "GET", &format!("/api/games/{id}/analysis?seat=1&samples=12"), None, None).await;
    assert_eq!((s, other["cached"].as_bool()), (StatusCode::OK, Some(false)), "{other}");
    assert_eq!(state.analyses_run(), 2);

    // Two viewers at once, for an analysis not made yet: it runs once, and one of them waits for it.
    let uri = format!("/api/games/{id}/analysis?seat=2&samples=16");
    let (a, b) = tokio::join!(get_from(&app, &uri, [10, 0, 0, 7]), get_from(&app, &uri, [10, 0, 0, 8]));
    assert_eq!((a.0, b.0), (StatusCode::OK, StatusCode::OK), "{} {}", a.1, b.1);
    assert_eq!(a.1["decisions"], b.1["decisions"]);
    assert_eq!(state.analyses_run(), 3);
    assert!(a.1["cached"] == true || b.1["cached"] == true, "both ran: {} {}", a.1["cached"], b.1["cached"]);

    for (q, status, code) in [
        ("seat=3", StatusCode::BAD_REQUEST, "bad_request"),
        ("seat=0&samples=0", StatusCode::BAD_REQUEST, "bad_request"),
        ("seat=0&samples=2001", StatusCode::BAD_REQUEST, "bad_request"),
        ("seat=0&samples=-1", StatusCode::BAD_REQUEST, "bad_request"),
        ("samples=10", StatusCode::BAD_REQUEST, "bad_request"),
        ("seat=0&game=1", StatusCode::NOT_FOUND, "not_found"),
    ] {
        let (s, v) = call(&app, "GET", &format!("/api/games/{id}/analysis?{q}"), None, None).await;
        assert_eq!((s, v["code"].as_str()), (status, Some(code)), "{q}: {v}");
    }
    let (s, v) = call(&app, "GET", "/api/games/nosuchtable/analysis?seat=0", None, None).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")), "{v}");
    assert_eq!(state.analyses_under_way(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_value_network_answers_as_the_engine_and_names_its_method() {
    let (state, app) = open(quick()).await;
    let id = finished(&app, 21, 3, 0).await;
    let (_, export) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    let record = GameRecord::from_json(&export.to_string()).expect("record");

    let (s, valued) = call(&app, "GET", &format!("/api/games/{id}/analysis?seat=1&method=value"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{valued}");
    assert_eq!((valued["method"].as_str(), valued["cached"].as_bool()), (Some("value"), Some(false)));
    // Every world the network looks at, unless asked for fewer.
    assert_eq!(valued["samples"], VALUE_WORLDS);
    let config = AnalysisConfig {
        seat: Seat(1),
        samples: VALUE_WORLDS,
        seed: DEFAULT_SEED,
        mistake: DEFAULT_MISTAKE,
        deadline: None,
    };
    let engine =
        analyse_with_value(&record, &config, &uno_lab::shipped_value(), &|_, _| {}, &|| false).expect("analysis");
    let engine: Value = serde_json::from_str(&serde_json::to_string(&engine).expect("json")).expect("json");
    for field in ["method", "seat", "samples", "seed", "decisions", "rounds", "skill", "luck"] {
        assert_eq!(valued[field], engine[field], "{field}");
    }
    assert!(!valued["decisions"].as_array().expect("decisions").is_empty());

    // The playouts' analysis of the same seat and samples is another one, and says so.
    let (s, played) =
        call(&app, "GET", &format!("/api/games/{id}/analysis?seat=1&samples={VALUE_WORLDS}"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{played}");
    assert_eq!((played["method"].as_str(), played["cached"].as_bool()), (Some("playouts"), Some(false)));
    assert_ne!(played["decisions"], valued["decisions"]);
    let (s, named) = call(
        &app,
        "GET",
        &format!("/api/games/{id}/analysis?seat=1&samples={VALUE_WORLDS}&method=playouts"),
        None,
        None,
    )
    .await;
    assert_eq!(
        (s, named["cached"].as_bool(), named["method"].as_str()),
        (StatusCode::OK, Some(true), Some("playouts")),
        "{named}"
    );
    // The value network's, asked again: from the cache.
    let (s, again) =
        call(&app, "GET", &format!("/api/games/{id}/analysis?seat=1&samples={VALUE_WORLDS}&method=value"), None, None)
            .await;
    assert_eq!(
        (s, again["cached"].as_bool(), again["method"].as_str()),
        (StatusCode::OK, Some(true), Some("value")),
        "{again}"
    );
    assert_eq!(again["decisions"], valued["decisions"]);
    assert_eq!(state.analyses_run(), 2);

    for q in [
        "seat=1&method=network",
        "seat=1&method=",
        "seat=1&method=Value",
        "seat=1&method=value&samples=33",
        "seat=1&method=value&samples=0",
    ] {
        let (s, v) = call(&app, "GET", &format!("/api/games/{id}/analysis?{q}"), None, None).await;
        assert_eq!((s, v["code"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")), "{q}: {v}");
        assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()), "{v}");
    }
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}/analysis?seat=1&method=network"), None, None).await;
    assert!(v["message"].as_str().is_some_and(|m| m.contains("playouts") && m.contains("value")), "{v}");
    assert_eq!((state.analyses_run(), state.analyses_under_way()), (2, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_in_play_is_never_analysed() {
    let (state, app) = open(quick()).await;
    let create = json!({"preset": "official", "seed": 4, "name": "Ann",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]});
    let (s, created) = call(&app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id");
    let token = created["token"].as_str().expect("token");
    for t in [None, Some(token)] {
        let (s, v) = call(&app, "GET", &format!("/api/games/{id}/analysis?seat=0"), t, None).await;
        assert_eq!((s, v["code"].as_str()), (StatusCode::FORBIDDEN, Some("game_not_over")), "{v}");
    }
    assert_eq!(state.analyses_run(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bounds_refuse_with_429_and_503() {
    let config = server::Config {
        analysis_workers: 1,
        analysis_queue: 0,
        analysis_time_limit: Duration::from_millis(1500),
        ..quick()
    };
    let (state, app) = open(config).await;
    // A whole match of four: far more than the time limit at the most samples.
    let id = finished(&app, 5, 4, 500).await;
    let long = format!("/api/games/{id}/analysis?seat=0&samples=2000");
    let running = tokio::spawn({
        let app = app.clone();
        let long = long.clone();
        async move { get_from(&app, &long, [10, 0, 0, 1]).await }
    });
    for _ in 0..2000 {
        if state.analyses_under_way() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    assert_eq!(state.analyses_under_way(), 1, "the long analysis did not start");
    // The same client again: 429. Another client: no worker and no queue left, 503.
    let (s, v) = get_from(&app, &format!("/api/games/{id}/analysis?seat=1&samples=5"), [10, 0, 0, 1]).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_many_analyses")), "{v}");
    let (s, v) = get_from(&app, &format!("/api/games/{id}/analysis?seat=1&samples=5"), [10, 0, 0, 2]).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("analysis_busy")), "{v}");
    assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()));
    // The value network's analyses have workers and limits of their own: the same client is
    // served one while its playouts run.
    let (s, v) = get_from(&app, &format!("/api/games/{id}/analysis?seat=1&method=value"), [10, 0, 0, 1]).await;
    assert_eq!((s, v["method"].as_str()), (StatusCode::OK, Some("value")), "{v}");
    assert_eq!(state.analyses_under_way(), 1, "the long analysis ended early");
    // The long one is given up at the time limit.
    let (s, v) = running.await.expect("request");
    assert_eq!((s, v["code"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("analysis_timeout")), "{v}");
    assert_eq!(state.analyses_under_way(), 0);
    // Nothing is left held: both clients are served again.
    for ip in [[10, 0, 0, 1], [10, 0, 0, 2]] {
        let (s, v) = get_from(&app, &format!("/api/games/{id}/analysis?seat=1&samples=2"), ip).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    assert_eq!(state.analyses_run(), 2);
}

/// A client that hangs up stops its analysis (before the next sampled world, long before the
/// time limit), and until the work has stopped it counts against the client's limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_request_stops_its_analysis() {
    let config = server::Config {
        analysis_workers: 2,
        analysis_queue: 4,
        analysis_time_limit: Duration::from_secs(600),
        ..quick()
    };
    let (state, app) = open(config).await;
    let id = finished(&app, 5, 4, 500).await;
    let long = format!("/api/games/{id}/analysis?seat=0&samples=2000");
    let running = tokio::spawn({
        let app = app.clone();
        async move { get_from(&app, &long, [10, 0, 0, 1]).await }
    });
    for _ in 0..5000 {
        if state.analyses_working() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    assert_eq!(state.analyses_working(), 1, "the long analysis did not start");
    // The client hangs up: the request's future is dropped.
    running.abort();
    assert!(running.await.is_err_and(|e| e.is_cancelled()));
    // The work stops (a whole analysis at these samples takes minutes, the limit is 600 s).
    for _ in 0..20_000 {
        if state.analyses_working() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    assert_eq!(state.analyses_working(), 0, "the analysis of a dropped request ran on");
    assert_eq!((state.analyses_run(), state.analyses_under_way()), (0, 0));
    // Nothing stays held: the client is served again.
    let (s, v) = get_from(&app, &format!("/api/games/{id}/analysis?seat=1&samples=2"), [10, 0, 0, 1]).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}
