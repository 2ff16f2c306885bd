//! Through the router: every round end carries the engine's result (`round_result`): the winner
//! and the points of its `round_scored` event, each hand with its points under the table's
//! rules, the match totals and, at the end, the game's winner; under `official` and `two-color`
//! scoring. The pages show these figures and count none themselves.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{json, Value};

mod common;
use common::call;

/// Points of a card under the preset's scoring, counted here to hold the server's figures to.
fn card_points(preset: &str, card: &str) -> u64 {
    let (action, reverse, draw_two, wild) = match preset {
        "two-color" => (20, 30, 40, 0),
        _ => (20, 20, 20, 50),
    };
    match card {
        "W" | "W4" => wild,
        c if c.ends_with("D2") => draw_two,
        c if c.ends_with('R') => reverse,
        c if c.ends_with('S') => action,
        c => c[1..].parse().expect("a digit card"),
    }
}

async fn play(preset: &str, seed: u64, target: Option<u32>) -> usize {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let config = server::Config { bot_delay: Duration::from_millis(0), ..Default::default() };
    let app = server::app(server::AppState::new(store, config).await.expect("state"));
    let mut create = json!({"preset": preset, "name": "Ann", "seed": seed.to_string(),
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]});
    if let Some(t) = target {
        create["house_rules"] = json!({"match_target": t});
    }
    let (s, created) = call(&app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let tok = created["token"].as_str().expect("token").to_string();
    let mut rounds = 0;
    for _ in 0..50_000 {
        let (s, v) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&tok), None).await;
        assert_eq!(s, StatusCode::OK);
        let phase = v["view"]["phase"]["phase"].as_str().expect("phase").to_string();
        if phase == "round_over" || phase == "game_over" {
            check(preset, &v);
            rounds += 1;
            if phase == "game_over" {
                return rounds;
            }
        } else {
            assert!(v.get("round_result").is_none(), "no result while a round is played: {v}");
        }
        if v["view"]["current"] != 0 && phase != "round_over" {
            tokio::time::sleep(Duration::from_millis(1)).await;
            continue;
        }
        let legal = v["legal_actions"].as_array().cloned().unwrap_or_default();
        let Some(action) = legal
            .iter()
            .find(|a| a["type"] == "play")
            .or(legal.iter().find(|a| a["type"] != "call_uno"))
            .or(legal.first())
        else {
            continue;
        };
        let body = json!({"action": action, "version": v["version"]}).to_string();
        let (s, r) = call(&app, "POST", &format!("/api/tables/{id}/actions"), Some(&tok), Some(body)).await;
        assert!(s == StatusCode::OK || s == StatusCode::CONFLICT, "{s} {r}");
    }
    panic!("the game did not finish");
}

fn check(preset: &str, v: &Value) {
    let r = &v["round_result"];
    assert_eq!(r["round"], v["view"]["round"], "{r}");
    assert_eq!(r["totals"], v["view"]["scores"], "{r}");
    let hands = r["hands"].as_array().expect("hands");
    let mut sum = 0;
    for (i, h) in hands.iter().enumerate() {
        let cards: Vec<&str> =
            h["cards"].as_array().expect("cards").iter().map(|c| c.as_str().expect("card")).collect();
        assert_eq!(h["cards"], v["revealed_hands"][i], "{r}");
        let points: u64 = cards.iter().map(|c| card_points(preset, c)).sum();
        assert_eq!(h["points"], points, "seat {i}: {r}");
        sum += points;
    }
    let scored = v["events"].as_array().expect("events").iter().rev().find(|e| e["event"]["type"] == "round_scored");
    match r["winner"].as_u64() {
        Some(w) => {
            let e = &scored.expect("a round_scored event")["event"];
            assert_eq!(e["winner"], w, "{r}");
            assert_eq!(e["points"], r["points"], "{r}");
            assert_eq!(e["totals"], r["totals"], "{r}");
            assert_eq!(r["points"], sum, "{r}");
            assert_eq!(hands[w as usize]["cards"], json!([]), "{r}");
        }
        None => assert_eq!(r["points"], 0, "{r}"),
    }
    let over = v["view"]["phase"]["phase"] == "game_over";
    assert_eq!(r["game_over"], over, "{r}");
    if over {
        assert_eq!(r["match_winner"], v["view"]["outcome"]["winner"], "{r}");
        assert_eq!(r["end_reason"], v["view"]["outcome"]["reason"], "{r}");
    } else {
        assert_eq!(r["match_winner"], Value::Null, "{r}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_round_end_carries_the_engines_result() {
    let mut rounds = 0;
    for seed in [1, 2, 3] {
        rounds += play("official", seed, Some(150)).await;
    }
    for seed in 4..10 {
        rounds += play("two-color", seed, None).await;
    }
    assert!(rounds >= 12, "{rounds} round ends");
}
