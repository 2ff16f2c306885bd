//! One client's tables of search bots take one core at most: its bots think one at a time over
//! all its tables, beside other clients' bots; and a table of bots nobody watches ends.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

mod common;
use common::call;

async fn state(config: server::Config) -> (axum::Router, server::AppState) {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let state = server::AppState::new(store, config).await.expect("state");
    (server::app(state.clone()), state)
}

/// Creates a table as the client at `ip` would (the server sees its peer address).
async fn create_from(app: &axum::Router, ip: [u8; 4], body: Value) -> (StatusCode, Value) {
    let mut req = Request::builder()
        .method("POST")
        .uri("/api/tables")
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .expect("request");
    req.extensions_mut().insert(ConnectInfo(SocketAddr::from((ip, 40000))));
    let resp = app.clone().oneshot(req).await.expect("response");
    let status = resp.status();
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

fn search_bots() -> Value {
    // Each move is a full second of search (the server's bound per move).
    json!({"bot_delay_ms": 0, "seats": [{"kind": "bot", "bot": "ismcts:50000"}, {"kind": "bot", "bot": "ismcts:50000"}]})
}

/// The most bots seen thinking at once over `span`.
async fn peak_thinking(state: &server::AppState, span: Duration) -> usize {
    let until = Instant::now() + span;
    let mut peak = 0;
    while Instant::now() < until {
        peak = peak.max(state.bots_thinking());
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    peak
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_clients_bots_think_one_at_a_time_beside_another_clients() {
    let (app, state) = state(server::Config::default()).await;
    for _ in 0..4 {
        let (s, v) = create_from(&app, [10, 0, 0, 1], search_bots()).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    // Four tables, every bot with a move to think about at once: one thinks at a time.
    assert_eq!(peak_thinking(&state, Duration::from_secs(3)).await, 1, "one client's bots thought at once");
    // Another client's bot thinks beside them, not after them.
    let (s, v) = create_from(&app, [10, 0, 0, 2], search_bots()).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(peak_thinking(&state, Duration::from_secs(3)).await, 2, "another client's bots waited");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_of_bots_nobody_watches_ends() {
    let config = server::Config { unwatched_bots_timeout: Duration::from_millis(300), ..Default::default() };
    let (app, _) = state(config).await;
    let body =
        json!({"bot_delay_ms": 200, "seats": [{"kind": "bot", "bot": "first"}, {"kind": "bot", "bot": "first"}]});
    let (s, v) = call(&app, "POST", "/api/tables", None, Some(body.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    // A table with a person seated is not ended as soon (the idle time, two hours, holds).
    let body = json!({"bot_delay_ms": 200, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "first"}]});
    let (s, v) = call(&app, "POST", "/api/tables", None, Some(body.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let kept = v["id"].as_str().expect("id").to_string();
    let mut gone = false;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if call(&app, "GET", &format!("/api/tables/{id}"), None, None).await.0 == StatusCode::NOT_FOUND {
            gone = true;
            break;
        }
    }
    assert!(gone, "a table of bots nobody watched still played 5 s on");
    assert_eq!(call(&app, "GET", &format!("/api/tables/{kept}"), None, None).await.0, StatusCode::OK);
}
