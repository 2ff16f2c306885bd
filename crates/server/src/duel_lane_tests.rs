//! The computer's search in a Duel game thinks in the lane of the client whose game it is (who
//! created it and holds its token), the lane that client's UNO bots think in: one address's searches take one core at most, however many
//! games it plays at once, and other addresses' searches do not wait for it.

use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};
use tower::ServiceExt;

async fn post_from(
    app: axum::Router,
    ip: [u8; 4],
    uri: String,
    body: Option<Value>,
    token: Option<String>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method("POST").uri(uri);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let body = match body {
        Some(v) => {
            req = req.header("content-type", "application/json");
            Body::from(v.to_string())
        }
        None => Body::empty(),
    };
    let mut req = req.body(body).expect("request");
    req.extensions_mut().insert(ConnectInfo(SocketAddr::from((ip, 40000))));
    let resp = app.oneshot(req).await.expect("response");
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20).await.expect("body");
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

/// A game of the client at `ip`, at the play stage with red to move (`a1` down).
async fn ready_to_move(app: &axum::Router, ip: [u8; 4]) -> (String, String) {
    let body = Some(json!({"difficulty": "easy", "width": 5, "height": 4}));
    let (s, v) = post_from(app.clone(), ip, "/api/duel".into(), body, None).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    let token = v["token"].as_str().expect("token").to_string();
    for (route, body) in [
        ("next-round", None),
        ("place", Some(json!({"cell": "a1", "key": "6"}))),
        ("next-round", None),
        ("place", Some(json!({"cell": "e4", "key": "1"}))),
        ("next-round", None),
    ] {
        let (s, v) = post_from(app.clone(), ip, format!("/api/duel/{id}/{route}"), body, Some(token.clone())).await;
        assert_eq!(s, StatusCode::OK, "{route}: {v}");
    }
    (id, token)
}

fn the_move((id, token): &(String, String)) -> (String, Option<Value>, Option<String>) {
    (format!("/api/duel/{id}/move"), Some(json!({"cell": "a1", "key": "s"})), Some(token.clone()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duel_search_thinks_in_its_clients_lane() {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let state = crate::AppState::new(store, crate::Config::default()).await.expect("state");
    let app = crate::app(state.clone());
    let mine = ready_to_move(&app, [10, 0, 0, 1]).await;
    let other = ready_to_move(&app, [10, 0, 0, 2]).await;

    // The client's lane is taken, as by one of its bots thinking at an UNO table.
    let held = state.tables().thinkers().take("10.0.0.1").await;
    let (uri, body, token) = the_move(&mine);
    let waiting = tokio::spawn(post_from(app.clone(), [10, 0, 0, 1], uri, body, token));
    // Another client's search does not wait for it.
    let (uri, body, token) = the_move(&other);
    let (s, v) = post_from(app.clone(), [10, 0, 0, 2], uri, body, token).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["computer"].as_array().is_some_and(|c| !c.is_empty()), "{v}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!waiting.is_finished(), "the computer searched while its client's lane was taken");

    drop(held);
    let (s, v) = tokio::time::timeout(Duration::from_secs(20), waiting).await.expect("answered").expect("the move");
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["computer"].as_array().is_some_and(|c| !c.is_empty()), "{v}");
    assert_eq!(state.bots_thinking(), 0);
}
