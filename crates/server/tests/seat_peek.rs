//! No seat peek (issue 42, item 1), through the HTTP API: a table deals only when every
//! person's seat is taken, so a seat taken and left while the table waits shows no card; and a
//! seat left before anyone acted drops the deal, so whoever sits there next is dealt afresh,
//! not the hand its leaver saw.

use axum::http::StatusCode;
use serde_json::{json, Value};

mod common;
use common::call;

async fn app() -> axum::Router {
    let store = store::SqliteStore::open_in_memory().expect("store");
    server::app(server::AppState::new(store, server::Config::default()).await.expect("state"))
}

async fn create(app: &axum::Router, humans: usize) -> (String, String, Value) {
    let seats: Vec<Value> = (0..humans).map(|_| json!({"kind": "human"})).collect();
    let body = json!({"name": "Ann", "seats": seats}).to_string();
    let (s, v) = call(app, "POST", "/api/tables", None, Some(body)).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    (id, v["token"].as_str().expect("token").to_string(), v["table"].clone())
}

async fn join(app: &axum::Router, id: &str, name: &str) -> (String, Value) {
    let body = json!({ "name": name }).to_string();
    let (s, v) = call(app, "POST", &format!("/api/tables/{id}/join"), None, Some(body)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    (v["token"].as_str().expect("token").to_string(), v["table"].clone())
}

async fn leave(app: &axum::Router, id: &str, token: &str) {
    let (s, v) = call(app, "POST", &format!("/api/tables/{id}/leave"), Some(token), None).await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
}

async fn read(app: &axum::Router, id: &str, token: &str) -> Value {
    let (s, v) = call(app, "GET", &format!("/api/tables/{id}"), Some(token), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

/// Every card a view shows: the viewer's hand, the pile, any hand revealed.
fn cards_shown(v: &Value) -> usize {
    let hand = v["view"]["hand"].as_array().map_or(0, Vec::len);
    let pile = v["view"]["discard"].as_array().map_or(0, Vec::len);
    hand + pile + usize::from(!v["view"]["top"].is_null())
}

#[tokio::test]
async fn a_seat_taken_and_left_while_the_table_waits_sees_no_card() {
    let app = app().await;
    let (id, ann, created) = create(&app, 3).await;
    assert_eq!((created["status"].as_str(), &created["view"]), (Some("waiting"), &Value::Null), "{created}");
    assert_eq!(cards_shown(&read(&app, &id, &ann).await), 0);
    // "peek" sits, reads, and leaves: nothing was dealt, so nothing was seen.
    let (peek, seen) = join(&app, &id, "peek").await;
    assert_eq!(seen["view"], Value::Null, "{seen}");
    assert_eq!(cards_shown(&read(&app, &id, &peek).await), 0);
    leave(&app, &id, &peek).await;
    // The seats are taken: the game is dealt now, to the people who hold them.
    join(&app, &id, "Bob").await;
    let (_, cy) = join(&app, &id, "Cy").await;
    assert_eq!(cy["status"], "playing", "{cy}");
    assert!(cy["view"]["hand"].as_array().is_some_and(|h| !h.is_empty()), "{cy}");
    assert!(cards_shown(&read(&app, &id, &ann).await) > 0);
}

#[tokio::test]
async fn a_seat_left_before_anyone_acted_is_dealt_afresh_to_the_next_person() {
    let app = app().await;
    let (id, ann, _) = create(&app, 2).await;
    // "peek" takes the last seat, so the game is dealt, and reads its hand.
    let (peek, seen) = join(&app, &id, "peek").await;
    let peeked = seen["view"]["hand"].clone();
    assert!(peeked.as_array().is_some_and(|h| h.len() == 7), "{seen}");
    let before = read(&app, &id, &ann).await;
    leave(&app, &id, &peek).await;
    // Nobody has acted: the deal is dropped and the table waits again, showing no card.
    let waiting = read(&app, &id, &ann).await;
    assert_eq!((waiting["status"].as_str(), &waiting["view"]), (Some("waiting"), &Value::Null), "{waiting}");
    // Bob sits where "peek" sat: a fresh deal, not the hand "peek" saw, nor Ann's as it was.
    let (bob, bobs) = join(&app, &id, "Bob").await;
    assert_eq!(bobs["you"], 1);
    assert_ne!(bobs["view"]["hand"], peeked, "Bob was dealt the hand that was peeked at");
    let now = read(&app, &id, &ann).await;
    assert_ne!(now["view"]["hand"], before["view"]["hand"], "the deal was not made afresh");
    assert_eq!(read(&app, &id, &bob).await["view"]["hand"], bobs["view"]["hand"]);
}
