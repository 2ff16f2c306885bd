//! No rigged deal (issue 42, item 2), through the HTTP API: a record imported with a hand-made
//! start (seat 0 holding every Wild) and played "from here" is marked, in the lobby and in the
//! view before anyone sits, as started from an imported position; and its hands are dealt
//! afresh, so nobody sits with the hand the file chose.

use axum::http::StatusCode;
use serde_json::{json, Value};
use uno::{Card, GameRecord, Rules};

mod common;
use common::call;

async fn app() -> axum::Router {
    let store = store::SqliteStore::open_in_memory().expect("store");
    server::app(server::AppState::new(store, server::Config::default()).await.expect("state"))
}

/// A two-player official deal in which seat 0 holds the 4 Wilds and 3 Wild Draw Fours.
fn rigged() -> (GameRecord, Vec<Card>) {
    let rules = Rules::preset("official").expect("preset");
    let game = uno::Game::new(rules.clone(), 2, 7).expect("deal");
    let mut p = game.position();
    let wild = |c: &Card| *c == Card::WILD || *c == Card::WILD_DRAW_FOUR;
    let mut wilds: Vec<Card> = Vec::new();
    for pile in [&mut p.draw_pile, &mut p.hands[1]] {
        let (w, rest): (Vec<Card>, Vec<Card>) = pile.iter().partition(|c| wild(c));
        wilds.extend(w);
        *pile = rest;
    }
    let hand0: Vec<Card> = p.hands[0].clone();
    let (mut mine, others): (Vec<Card>, Vec<Card>) = hand0.into_iter().partition(|c| wild(c));
    mine.extend(wilds);
    let mut spare: Vec<Card> = others;
    while mine.len() > 7 {
        // Keep seven cards: what leaves goes to the draw pile.
        let c = mine.iter().rposition(|c| *c == Card::WILD_DRAW_FOUR).map(|i| mine.remove(i)).expect("a card");
        spare.push(c);
    }
    p.draw_pile.extend(spare);
    // Seat 1 keeps seven cards, topped up from the draw pile.
    while p.hands[1].len() < 7 {
        let c = p.draw_pile.pop().expect("a card");
        p.hands[1].push(c);
    }
    p.hands[0] = mine.clone();
    (GameRecord::from_position(&rules, p), mine)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_from_an_imported_position_is_marked_and_dealt_afresh() {
    let app = app().await;
    let (record, chosen) = rigged();
    assert_eq!(chosen.iter().filter(|c| **c == Card::WILD || **c == Card::WILD_DRAW_FOUR).count(), 7);
    let (s, imported) = call(&app, "POST", "/api/records", None, Some(record.to_json())).await;
    assert_eq!(s, StatusCode::CREATED, "{imported}");
    let from = imported["id"].as_str().expect("id").to_string();
    let create = json!({"from": {"table": from, "ply": 0}, "name": "Ann", "creator_seat": 0,
        "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (s, created) = call(&app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let ann = created["token"].as_str().expect("token").to_string();

    // Before anyone else sits: the lobby and the view say where it started, and that it was
    // an imported record.
    let (_, lobby) = call(&app, "GET", "/api/tables", None, None).await;
    let listed = lobby["tables"].as_array().expect("tables").iter().find(|t| t["id"] == id.as_str()).cloned();
    let listed = listed.expect("listed");
    assert_eq!(listed["started_from"]["table"], from.as_str(), "{listed}");
    assert_eq!(listed["started_from"]["imported"], true, "{listed}");
    let (_, seen) = call(&app, "GET", &format!("/api/tables/{id}"), None, None).await;
    assert_eq!(seen["started_from"]["imported"], true, "{seen}");

    let (s, joined) =
        call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(json!({"name": "Bob"}).to_string())).await;
    assert_eq!(s, StatusCode::OK, "{joined}");
    let (_, mine) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&ann), None).await;
    let hand: Vec<Card> = serde_json::from_value::<Vec<Value>>(mine["view"]["hand"].clone())
        .expect("a hand")
        .iter()
        .map(|c| serde_json::from_value(c.clone()).expect("a card"))
        .collect();
    assert_eq!(hand.len(), 7, "{mine}");
    let mut sorted = hand.clone();
    sorted.sort();
    let mut wanted = chosen.clone();
    wanted.sort();
    assert_ne!(sorted, wanted, "the creator sits with the hand the file chose");
    let wilds = hand.iter().filter(|c| **c == Card::WILD || **c == Card::WILD_DRAW_FOUR).count();
    assert!(wilds < 7, "{wilds} wild cards of 8 in the creator's hand");
}
