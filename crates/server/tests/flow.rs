//! Through the router: a table with two humans and two bots, played to the end; auth refusals.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{json, Value};

mod common;
use common::call;

async fn setup() -> (axum::Router, String, String, String) {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let config = server::Config { bot_delay: Duration::from_millis(0), ..Default::default() };
    let state = server::AppState::new(store, config).await.expect("state");
    let app = server::app(state);
    let create = json!({
        "preset": "official", "house_rules": {"match_target": 0}, "name": "Ann", "seed": 7,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "human"}, {"kind": "bot", "bot": "first"}]
    });
    let (s, created) = call(&app, "POST", "/api/tables", None, Some(create.to_string())).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let ann = created["token"].as_str().expect("token").to_string();
    assert_eq!(ann.len(), 32);
    assert_eq!(created["table"]["status"], "waiting");
    let (s, joined) =
        call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(json!({"name": "Bob"}).to_string())).await;
    assert_eq!(s, StatusCode::OK, "{joined}");
    assert_eq!(joined["seat"], 2);
    let bob = joined["token"].as_str().expect("token").to_string();
    (app, id, ann, bob)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_humans_and_two_bots_play_to_the_end() {
    let (app, id, ann, bob) = setup().await;
    let tokens = [(0usize, ann.as_str()), (2, bob.as_str())];
    let mut finished = false;
    for _ in 0..20_000 {
        let (s, v) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&ann), None).await;
        assert_eq!(s, StatusCode::OK);
        if v["status"] == "finished" {
            finished = true;
            break;
        }
        let current = v["view"]["current"].as_u64().expect("current") as usize;
        let Some((_, tok)) = tokens.iter().find(|(seat, _)| *seat == current) else {
            tokio::time::sleep(Duration::from_millis(1)).await;
            continue;
        };
        let (_, mine) = call(&app, "GET", &format!("/api/tables/{id}"), Some(tok), None).await;
        let legal = mine["legal_actions"].as_array().cloned().unwrap_or_default();
        let Some(action) = legal.iter().find(|a| a["type"] != "call_uno").or(legal.first()) else { continue };
        let body = json!({"action": action, "version": mine["version"]}).to_string();
        let (s, r) = call(&app, "POST", &format!("/api/tables/{id}/actions"), Some(tok), Some(body)).await;
        // A bot may have moved between our read and our action: stale is fine, nothing else is.
        assert!(s == StatusCode::OK || s == StatusCode::CONFLICT, "{s} {r}");
    }
    assert!(finished, "the game did not finish");
    let (s, r) = call(&app, "POST", &format!("/api/tables/{id}/rematch"), Some(&bob), None).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["generation"], 1);
}

#[tokio::test]
async fn wrong_tokens_spectators_and_bad_input_are_refused() {
    let (app, id, ann, bob) = setup().await;
    let (_, v) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&ann), None).await;
    let version = v["version"].clone();
    let current = v["view"]["current"].as_u64().expect("current");
    let draw = json!({"action": {"type": "draw"}, "version": version}).to_string();
    let url = format!("/api/tables/{id}/actions");
    let (s, e) = call(&app, "POST", &url, None, Some(draw.clone())).await;
    assert_eq!((s, e["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("missing_token")));
    let (s, e) = call(&app, "POST", &url, Some("0123456789abcdef0123456789abcdef"), Some(draw.clone())).await;
    assert_eq!((s, e["code"].as_str()), (StatusCode::FORBIDDEN, Some("bad_token")));
    // Another seat's token acts as that seat, never as the current one.
    let other = if current == 0 { &bob } else { &ann };
    if current == 0 || current == 2 {
        let (s, e) = call(&app, "POST", &url, Some(other), Some(draw.clone())).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    }
    let (s, e) = call(&app, "POST", &url, Some(&ann), Some("{not json".into())).await;
    assert_eq!((s, e["code"].as_str()), (StatusCode::BAD_REQUEST, Some("malformed_json")));
    let (s, e) =
        call(&app, "POST", &url, Some(&ann), Some(json!({"action": {"type": "fly"}, "version": 0}).to_string())).await;
    assert_eq!((s, e["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("invalid_body")));
    let stale = json!({"action": {"type": "draw"}, "version": 9999}).to_string();
    let (s, e) = call(&app, "POST", &url, Some(&ann), Some(stale)).await;
    assert_eq!((s, e["code"].as_str()), (StatusCode::CONFLICT, Some("stale_state")));
    let huge = format!("{{\"name\": \"{}\"}}", "x".repeat(200_000));
    let (s, e) = call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(huge)).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{e}");
    let (s, e) = call(&app, "POST", "/api/tables/nope/join", None, Some(json!({"name": "Z"}).to_string())).await;
    assert_eq!((s, e["code"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")));
    let long = json!({"name": "n".repeat(100)}).to_string();
    let (s, _) = call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(long)).await;
    assert!(s.is_client_error());
    // The spectator view holds no hand; the server still answers after all of the above.
    let (s, v) = call(&app, "GET", &format!("/api/tables/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["view"]["hand"], json!([]));
    assert_eq!(v["you"], Value::Null);
}

#[tokio::test]
async fn an_uno_call_or_catch_that_means_nothing_is_refused_with_its_reason() {
    let (app, id, ann, _bob) = setup().await;
    let url = format!("/api/tables/{id}/actions");
    let hand = |v: &Value| v["view"]["hand"].as_array().map(Vec::len);
    let (_, before) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&ann), None).await;
    let cases = [
        (json!({"type": "call_uno"}), "nothing_to_call"),
        (json!({"type": "catch_uno", "seat": 2}), "not_on_one_card"),
        (json!({"type": "catch_uno", "seat": 0}), "cannot_catch_yourself"),
    ];
    for (action, code) in cases {
        // A bot may move between the read and the action: read again until the version holds.
        let mut answer = None;
        for _ in 0..50 {
            let (_, v) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&ann), None).await;
            let body = json!({"action": action, "version": v["version"]}).to_string();
            let (s, e) = call(&app, "POST", &url, Some(&ann), Some(body)).await;
            if s != StatusCode::CONFLICT {
                answer = Some((s, e));
                break;
            }
        }
        let (s, e) = answer.expect("an answer that is not stale");
        assert_eq!((s, e["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(code)), "{action}: {e}");
    }
    let (_, v) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&ann), None).await;
    assert_eq!(hand(&v), hand(&before), "a refused call costs nothing");
    assert_eq!(hand(&v), Some(7));
}

/// `Prefer: return=minimal`: the action is taken and answered 204 without a view; a refusal is
/// still a `{code, message}` body.
#[tokio::test]
async fn an_action_answered_minimally_is_taken_without_a_view() {
    use axum::body::Body;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    let store = store::SqliteStore::open_in_memory().expect("store");
    let state = server::AppState::new(store, server::Config::default()).await.expect("state");
    let app = server::app(state);
    let create = json!({"preset": "official", "seed": 3, "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (_, created) = call(&app, "POST", "/api/tables", None, Some(create.to_string())).await;
    let id = created["id"].as_str().expect("id").to_string();
    let ann = created["token"].as_str().expect("token").to_string();
    let (_, joined) =
        call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(r#"{"name":"Bob"}"#.into())).await;
    let bob = joined["token"].as_str().expect("token").to_string();

    let minimal = |token: &str, body: String| {
        Request::builder()
            .method("POST")
            .uri(format!("/api/tables/{id}/actions"))
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", "application/json")
            .header("prefer", "respond-async, return=minimal")
            .body(Body::from(body))
            .expect("request")
    };
    let (_, view) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&ann), None).await;
    let mover = if view["view"]["current"] == 0 { &ann } else { &bob };
    let (_, mine) = call(&app, "GET", &format!("/api/tables/{id}"), Some(mover), None).await;
    let action = mine["legal_actions"][0].clone();
    let body = json!({"action": action, "version": 0}).to_string();

    let resp = app.clone().oneshot(minimal(mover, body.clone())).await.expect("response");
    assert_eq!(resp.status(), StatusCode::NO_CONTENT);
    assert_eq!(resp.headers().get("preference-applied").and_then(|v| v.to_str().ok()), Some("return=minimal"));
    assert!(resp.into_body().collect().await.expect("body").to_bytes().is_empty());
    let (_, after) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&ann), None).await;
    assert_eq!(after["version"], 1, "the action was not taken: {after}");

    // The same action again is stale: refused with its body, minimal or not.
    let resp = app.clone().oneshot(minimal(mover, body)).await.expect("response");
    assert_eq!(resp.status(), StatusCode::CONFLICT);
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    let e: Value = serde_json::from_slice(&bytes).expect("json");
    assert_eq!(e["code"], "stale_state");
}
