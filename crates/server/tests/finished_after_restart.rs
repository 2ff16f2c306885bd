//! A finished table outlives a restart: its final view, scores and rematch stay reachable for
//! `finished_ttl`, read back from the store on first request (it answered 404 before).

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::json;

mod common;
use common::call;

async fn open(path: &std::path::Path) -> (server::AppState, axum::Router) {
    let store = store::SqliteStore::open(path).expect("store");
    let config = server::Config { bot_delay: Duration::from_millis(0), ..Default::default() };
    let state = server::AppState::new(store, config).await.expect("state");
    let app = server::app(state.clone());
    (state, app)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_table_answers_its_final_view_after_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("tables.db");
    let (state, app) = open(&path).await;
    let create = json!({
        "preset": "official", "house_rules": {"match_target": 0}, "name": "Ann", "seed": 3,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
    });
    let (s, created) = call(&app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let ann = created["token"].as_str().expect("token").to_string();
    let mut last = serde_json::Value::Null;
    for _ in 0..20_000 {
        let (s, v) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&ann), None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        if v["status"] == "finished" {
            last = v;
            break;
        }
        let legal = v["legal_actions"].as_array().cloned().unwrap_or_default();
        let Some(action) = legal.iter().find(|a| a["type"] != "call_uno").or(legal.first()).cloned() else {
            tokio::time::sleep(Duration::from_millis(1)).await;
            continue;
        };
        let body = json!({"action": action, "version": v["version"]}).to_string();
        let (s, r) = call(&app, "POST", &format!("/api/tables/{id}/actions"), Some(&ann), Some(body)).await;
        assert!(s == StatusCode::OK || s == StatusCode::CONFLICT, "{s} {r}");
    }
    assert_eq!(last["status"], "finished", "the game did not finish");
    state.drain().await;
    drop(app);
    drop(state);

    let (_state, app) = open(&path).await;
    let (s, again) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&ann), None).await;
    assert_eq!(s, StatusCode::OK, "{again}");
    assert_eq!(again["status"], "finished");
    assert_eq!(again["version"], last["version"]);
    assert_eq!(again["view"]["scores"], last["view"]["scores"]);
    assert_eq!(again["view"]["hand"], last["view"]["hand"]);
    // Still a table: the seat's token holds, and a rematch deals a new game.
    let (s, r) = call(&app, "POST", &format!("/api/tables/{id}/rematch"), Some(&ann), None).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["generation"], 1);
    // An id the store never saw is still unknown.
    let (s, v) = call(&app, "GET", "/api/tables/nosuchtable", Some(&ann), None).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
}
