//! The turn clock every viewer sees, a person taken to be gone after their time ran out twice
//! in a row (a bot plays their seat until they are back), and resigning during play (a bot
//! takes the seat for the rest of the game).

mod common;

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use common::call;
use serde_json::{json, Value};

/// Seat 0 moves first, and the first card does nothing: the first turn is Ann's.
fn first_rules() -> Value {
    json!({"deal": {"first_player": "seat0", "first_card": "no_effect"}})
}

async fn app() -> axum::Router {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let config = server::Config { bot_delay: Duration::from_millis(50), ..server::Config::default() };
    server::app(server::AppState::new(store, config).await.expect("state"))
}

/// Ann (seat 0) and Bob (seat 1) at a table with `turn_seconds`: its id and both tokens.
async fn two_people(app: &axum::Router, turn_seconds: Option<u32>) -> (String, String, String) {
    let mut body = json!({"name": "Ann", "rules": first_rules(), "seats": [{"kind": "human"}, {"kind": "human"}]});
    if let Some(t) = turn_seconds {
        body["turn_seconds"] = json!(t);
    }
    let (s, created) = call(app, "POST", "/api/tables", None, Some(body.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let ann = created["token"].as_str().expect("token").to_string();
    let (s, joined) =
        call(app, "POST", &format!("/api/tables/{id}/join"), None, Some(json!({"name": "Bob"}).to_string())).await;
    assert_eq!(s, StatusCode::OK, "{joined}");
    (id, ann, joined["token"].as_str().expect("token").to_string())
}

async fn read(app: &axum::Router, id: &str, token: Option<&str>) -> Value {
    let (s, v) = call(app, "GET", &format!("/api/tables/{id}"), token, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

/// Plays the first legal action (not an UNO call or catch) for the seat of `token` when it is
/// that seat's turn; whether it acted.
async fn play_if_mine(app: &axum::Router, id: &str, token: &str) -> bool {
    let v = read(app, id, Some(token)).await;
    if v["view"]["current"] != v["you"] || v["status"] != "playing" {
        return false;
    }
    let legal = v["legal_actions"].as_array().cloned().unwrap_or_default();
    let Some(action) = legal.iter().find(|a| a["type"] != "call_uno" && a["type"] != "catch_uno") else {
        return false;
    };
    let body = json!({"action": action, "version": v["version"]}).to_string();
    let (s, _) = call(app, "POST", &format!("/api/tables/{id}/actions"), Some(token), Some(body)).await;
    s == StatusCode::OK
}

#[tokio::test]
async fn every_viewer_sees_whose_time_runs_and_how_much_is_left() {
    let app = app().await;
    let (id, ann, _bob) = two_people(&app, Some(30)).await;
    for token in [Some(ann.as_str()), None] {
        let v = read(&app, &id, token).await;
        assert_eq!(v["turn_seconds"], 30);
        assert_eq!(v["turn_seat"], 0, "Ann's clock runs: {v}");
        let left = v["turn_ms_left"].as_u64().expect("time left");
        assert!(left <= 30_000 && left > 25_000, "{left}");
    }
    // A table without a turn time has no clock.
    let (id, _, _) = two_people(&app, None).await;
    let v = read(&app, &id, None).await;
    assert!(v["turn_ms_left"].is_null() && v["turn_seat"].is_null(), "{v}");
}

#[tokio::test]
async fn twice_out_of_time_a_bot_plays_the_seat_until_its_person_is_back() {
    let app = app().await;
    let (id, ann, bob) = two_people(&app, Some(1)).await;
    // Bob plays every turn of his; Ann never does.
    let end = Instant::now() + Duration::from_secs(20);
    let mut once = false;
    loop {
        assert!(Instant::now() < end, "Ann was never taken to be away");
        play_if_mine(&app, &id, &bob).await;
        let v = read(&app, &id, None).await;
        let seat = &v["seats"][0];
        if seat["timeouts"] == 1 {
            once = true;
            assert_eq!(seat["away"], false, "one time out is not away: {seat}");
        }
        if seat["away"] == true {
            assert_eq!(seat["timeouts"], 2, "{seat}");
            assert_eq!(seat["kind"], "human", "the seat stays Ann's: {seat}");
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(once, "the first time out was shown before the second");
    // Now her stand-in plays her turns at the bots' pace, not at the end of her time: her count
    // stays at two while her turns go by, and no clock runs for her.
    let turns_before = read(&app, &id, None).await["view"]["turns"].as_u64().expect("turns");
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        assert!(Instant::now() < end, "the stand-in never played");
        play_if_mine(&app, &id, &bob).await;
        let v = read(&app, &id, None).await;
        if v["status"] != "playing" {
            break;
        }
        assert_eq!(v["seats"][0]["timeouts"], 2, "a bot, not the timer, played Ann's turn: {v}");
        assert_ne!(v["turn_seat"], 0, "no clock runs for a seat its stand-in plays: {v}");
        if v["view"]["turns"].as_u64().expect("turns") >= turns_before + 4 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Ann is back: the seat is hers, her count forgotten.
    let (s, v) = call(&app, "POST", &format!("/api/tables/{id}/back"), Some(&ann), None).await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
    let v = read(&app, &id, Some(&ann)).await;
    assert_eq!(v["seats"][0]["away"], false, "{v}");
    assert_eq!(v["seats"][0]["timeouts"], 0, "{v}");
    // A stranger's back is refused.
    let (s, _) = call(&app, "POST", &format!("/api/tables/{id}/back"), None, None).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_person_who_resigns_in_play_gives_the_seat_to_a_bot() {
    let app = app().await;
    let (id, ann, bob) = two_people(&app, None).await;
    assert!(play_if_mine(&app, &id, &ann).await, "Ann moves first");
    let (s, v) = call(&app, "POST", &format!("/api/tables/{id}/resign"), Some(&bob), None).await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
    let v = read(&app, &id, Some(&ann)).await;
    let seat = &v["seats"][1];
    assert_eq!(seat["kind"], "bot", "{seat}");
    assert_eq!(seat["replaced"], "Bob", "the seat says whose it was: {seat}");
    assert_eq!(v["status"], "playing", "the game goes on: {v}");
    // Bob's token is no longer a seat's.
    let (s, _) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&bob), None).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    // The bot plays Bob's turns: Ann keeps getting hers.
    let end = Instant::now() + Duration::from_secs(10);
    let mut mine = 0;
    while mine < 3 {
        assert!(Instant::now() < end, "the bot never played the resigned seat");
        if play_if_mine(&app, &id, &ann).await {
            mine += 1;
        }
        if read(&app, &id, None).await["status"] != "playing" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn resigning_before_anyone_moved_opens_the_seat_again() {
    let app = app().await;
    let (id, _ann, bob) = two_people(&app, None).await;
    let (s, _) = call(&app, "POST", &format!("/api/tables/{id}/resign"), Some(&bob), None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let v = read(&app, &id, None).await;
    assert_eq!(v["seats"][1]["kind"], "human", "{v}");
    assert_eq!(v["seats"][1]["taken"], false, "{v}");
    assert_eq!(v["status"], "waiting", "{v}");
}
