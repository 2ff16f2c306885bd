//! Finished Duel games kept as records, through the router: the export replays to the game the
//! page showed, every frame is the view after that many actions, a game still played has
//! neither, and the record is forgotten after the retention, as UNO's are.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{json, Value};

mod common;
use common::call;

async fn post(app: &axum::Router, uri: &str, body: Option<Value>) -> Value {
    let (s, v) = call(app, "POST", uri, None, body.map(|b| b.to_string())).await;
    assert!(s.is_success(), "{uri}: {s} {v}");
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_duel_is_kept_exported_and_replayed() {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let config = server::Config { record_retention: Duration::from_millis(1500), ..Default::default() };
    let state = server::AppState::new(store, config).await.expect("state");
    let app = server::app(state.clone());

    let id = post(&app, "/api/duel", Some(json!({"difficulty": "easy", "width": 5, "height": 4}))).await["id"]
        .as_str()
        .expect("id")
        .to_string();
    // Every view the page was shown, after each logged action (a move logs the computer's too).
    let mut shown = vec![call(&app, "GET", &format!("/api/duel/{id}"), None, None).await.1];
    let steps = [
        ("place", Some(json!({"cell": "c2", "key": "b"}))),
        ("next-round", None),
        ("place", Some(json!({"cell": "a1", "key": "6"}))),
        ("next-round", None),
        ("place", Some(json!({"cell": "e4", "key": "1"}))),
    ];
    for (route, body) in steps {
        shown.push(post(&app, &format!("/api/duel/{id}/{route}"), body).await);
    }
    // Still played: no record, no frames.
    for route in ["record", "replay?ply=0"] {
        let (s, v) = call(&app, "GET", &format!("/api/duel/{id}/{route}"), None, None).await;
        assert_eq!((s, v["code"].as_str()), (StatusCode::FORBIDDEN, Some("game_not_over")), "{v}");
    }
    shown.push(post(&app, &format!("/api/duel/{id}/next-round"), None).await);
    post(&app, &format!("/api/duel/{id}/move"), Some(json!({"cell": "a1", "key": "s"}))).await;
    let end = post(&app, &format!("/api/duel/{id}/end"), None).await;
    assert_eq!(end["status"]["stage"]["stage"], "end", "{end}");

    let (s, export) = call(&app, "GET", &format!("/api/duel/{id}/record"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{export}");
    let record: duel::GameRecord = serde_json::from_value(export.clone()).expect("a duel record");
    // place, next, place, next, place, next, the move and the computer's answer, end.
    assert_eq!(record.actions.len(), 9);
    let game = record.replay().expect("replays");
    assert_eq!(json!(game.status()), end["status"]);
    assert_eq!(export["status"], end["status"]);

    // The frames: the view the page had after each of the setup's actions, and the end.
    for (ply, view) in shown.iter().enumerate() {
        let (s, f) = call(&app, "GET", &format!("/api/duel/{id}/replay?ply={ply}"), None, None).await;
        assert_eq!(s, StatusCode::OK, "{f}");
        assert_eq!((f["ply"].as_u64(), f["plies"].as_u64()), (Some(ply as u64), Some(9)));
        for key in ["cells", "status", "last_move", "events"] {
            assert_eq!(f["view"][key], view[key], "{key} at ply {ply}");
        }
    }
    let (_, last) = call(&app, "GET", &format!("/api/duel/{id}/replay"), None, None).await;
    assert_eq!(last["view"]["cells"], end["cells"]);
    assert_eq!(last["move"]["by"], "user");
    let (s, v) = call(&app, "GET", &format!("/api/duel/{id}/replay?ply=10"), None, None).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::NOT_FOUND, Some("no_such_ply")), "{v}");
    let (s, _) = call(&app, "GET", "/api/duel/nosuchgame/record", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // Forgotten after the retention, as UNO's records are.
    tokio::time::sleep(Duration::from_millis(1600)).await;
    state.forget_old_records().await.expect("forget");
    let (s, v) = call(&app, "GET", &format!("/api/duel/{id}/record"), None, None).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")), "{v}");
}
