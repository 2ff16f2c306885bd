//! Duel games have the limits UNO tables have: a per-client cap on unfinished games, and idle
//! games are closed.

use std::time::Duration;

use store::GameStore;

use axum::http::StatusCode;
use serde_json::json;

mod common;
use common::call;

#[tokio::test]
async fn a_client_may_hold_only_so_many_unfinished_duel_games() {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let config = server::Config { max_tables_per_client: 2, ..Default::default() };
    let app = server::app(server::AppState::new(store, config).await.expect("state"));
    for _ in 0..2 {
        let (s, v) = call(&app, "POST", "/api/duel", None, Some(json!({}).to_string())).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    let (s, v) = call(&app, "POST", "/api/duel", None, Some(json!({}).to_string())).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert_eq!(v["code"], "too_many_tables");
}

#[tokio::test]
async fn an_idle_duel_game_is_closed_and_frees_its_slot() {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let config =
        server::Config { max_tables_per_client: 1, idle_timeout: Duration::from_millis(200), ..Default::default() };
    let app = server::app(server::AppState::new(store.clone(), config).await.expect("state"));
    let (s, v) = call(&app, "POST", "/api/duel", None, Some(json!({}).to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let old = v["id"].as_str().expect("id").to_string();
    let (s, _) = call(&app, "POST", "/api/duel", None, Some(json!({}).to_string())).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (s, v) = call(&app, "POST", "/api/duel", None, Some(json!({}).to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "the idle game still holds its slot: {v}");
    // Closed for good: not brought back from the store.
    let (s, v) = call(&app, "GET", &format!("/api/duel/{old}"), None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    let stored = store.load(&old).await.expect("load").expect("kept");
    assert_eq!(stored.standing, store::Standing::Abandoned);
}
