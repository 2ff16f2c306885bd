//! Through the router: a bot gives a person a fair moment to call UNO before catching them, at
//! the fastest pace too (docs/pages.md). A person who plays their second-to-last card without
//! calling may still call until the next player acts; a bot that acted at once would always be
//! first. Bots are caught at the bots' pace.

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use serde_json::{json, Value};

mod common;
use common::call;

/// The grace the server gives (`HUMAN_CATCH_GRACE`, 2 s), less a little for the clocks' grain.
const GRACE_SEEN: Duration = Duration::from_millis(1900);

struct Table {
    app: axum::Router,
    id: String,
    token: String,
}

impl Table {
    async fn read(&self) -> Value {
        let (s, v) = call(&self.app, "GET", &format!("/api/tables/{}", self.id), Some(&self.token), None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        v
    }

    async fn act(&self, action: &Value, version: u64) -> (StatusCode, Value) {
        let body = json!({"action": action, "version": version}).to_string();
        call(&self.app, "POST", &format!("/api/tables/{}/actions", self.id), Some(&self.token), Some(body)).await
    }
}

/// A person (seat 0, to play first) with two cards, one of them playable, against a heuristic
/// bot (it catches whoever it can) that plays at once: the table and the play.
async fn person_about_to_go_to_one_card() -> (Table, Value) {
    for seed in 1..200u64 {
        let store = store::SqliteStore::open_in_memory().expect("store");
        let config = server::Config { bot_delay: Duration::from_millis(0), ..Default::default() };
        let app = server::app(server::AppState::new(store, config).await.expect("state"));
        let create = json!({
            "rules": {"deal": {"hand_size": 2, "first_player": "seat0", "first_card": "no_effect"}},
            "name": "Ann",
            "seed": seed.to_string(),
            "bot_delay_ms": 0,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
        });
        let (s, created) = call(&app, "POST", "/api/tables", None, Some(create.to_string())).await;
        assert_eq!(s, StatusCode::CREATED, "{created}");
        let table = Table {
            app,
            id: created["id"].as_str().expect("id").to_string(),
            token: created["token"].as_str().expect("token").to_string(),
        };
        let v = table.read().await;
        if v["view"]["current"] != 0 {
            continue;
        }
        let play = v["legal_actions"].as_array().expect("legal").iter().find(|a| a["type"] == "play").cloned();
        if let Some(play) = play {
            return (table, play);
        }
    }
    panic!("no seed deals the person a playable card");
}

/// Reads the table until its version passes `version` (the bot has acted), or gives up after
/// 20 s (a loaded machine may be slow to run the bot after its moment).
async fn after(table: &Table, version: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        let v = table.read().await;
        if v["version"].as_u64().expect("version") > version {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the bot never acted");
}

/// Reads the table until the bot has caught seat 0 or ended its turn (played or drew), or 20 s.
async fn turn_over(table: &Table, mut v: Value) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    let ended = |v: &Value| {
        v["events"].as_array().expect("events").iter().any(|e| {
            e["event"]["seat"] == 1 && (e["event"]["type"] == "card_played" || e["event"]["type"] == "cards_drawn")
        })
    };
    while !caught(&v) && !ended(&v) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(25)).await;
        v = table.read().await;
    }
    v
}

fn caught(v: &Value) -> bool {
    v["events"]
        .as_array()
        .expect("events")
        .iter()
        .any(|e| e["event"]["type"] == "uno_penalty" && e["event"]["seat"] == 0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_waits_a_fair_moment_before_catching_a_person() {
    let (table, play) = person_about_to_go_to_one_card().await;
    let version = table.read().await["version"].as_u64().expect("version");
    // Timed from before the request: the server's moment starts while it handles the play, so
    // the time seen here can only be longer than the server's grace, however slow the answer.
    let played = Instant::now();
    let (s, answer) = table.act(&play, version).await;
    assert_eq!(s, StatusCode::OK, "{answer}");
    let now = answer["version"].as_u64().expect("version");
    assert_eq!(answer["view"]["uno_exposed"], 0, "one card and no call: the person may be caught");
    let v = after(&table, now).await;
    let waited = played.elapsed();
    assert!(waited >= GRACE_SEEN, "the bot acted {waited:?} after the person's card (bots play at once here)");
    // The bot may first call UNO for its own hand (it holds two cards too); the catch comes
    // before its turn ends.
    let v = turn_over(&table, v).await;
    assert!(caught(&v), "after the moment, the bot catches: {}", v["events"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_who_calls_uno_within_the_moment_is_not_caught() {
    let (table, play) = person_about_to_go_to_one_card().await;
    let version = table.read().await["version"].as_u64().expect("version");
    let (s, answer) = table.act(&play, version).await;
    assert_eq!(s, StatusCode::OK, "{answer}");
    // A person's reaction: a moment later, the late call.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let now = answer["version"].as_u64().expect("version");
    let (s, called) = table.act(&json!({"type": "call_uno"}), now).await;
    assert_eq!(s, StatusCode::OK, "the late call is in time: {called}");
    let v = after(&table, now + 1).await;
    assert!(!caught(&v), "called in time, not caught: {}", v["events"]);
}
