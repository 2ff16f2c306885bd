//! The server against an attacker's inputs: bounded bot names and rules numbers, tables that end
//! when no person is there, and seat sockets that stop serving a seat once it changes hands.

use std::time::Duration;

use axum::http::StatusCode;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

mod common;
use common::call;

/// A server on a loopback port with the given settings: the router and the address.
async fn serve(config: server::Config) -> (axum::Router, std::net::SocketAddr, server::AppState) {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let state = server::AppState::new(store, config).await.expect("state");
    let app = server::app(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(server::serve(listener, state.clone(), std::future::pending()));
    (app, addr, state)
}

async fn create(app: &axum::Router, body: Value) -> (StatusCode, Value) {
    call(app, "POST", "/api/tables", None, Some(body.to_string())).await
}

#[tokio::test]
async fn bot_names_are_bounded_and_stored_by_their_canonical_name() {
    let (app, _, _) = serve(server::Config::default()).await;
    for bad in ["ismcts:4294967295", "ismcts:4294967295:heuristic", "ismcts:50001", "ismcts:0"] {
        let (s, v) = create(&app, json!({"seats": [{"kind": "human"}, {"kind": "bot", "bot": bad}]})).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{bad}: {v}");
        assert_eq!(v["code"], "unknown_bot", "{bad}: {v}");
    }
    let (s, v) = create(&app, json!({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "ismcts:500"}]})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["table"]["seats"][1]["bot"], "ismcts:500:random");
}

#[tokio::test]
async fn rules_numbers_a_client_sends_are_bounded() {
    let (app, _, _) = serve(server::Config::default()).await;
    let bots = json!([{"kind": "bot", "bot": "first"}, {"kind": "bot", "bot": "first"}]);
    let huge = u32::MAX;
    for body in [
        json!({"seats": bots, "house_rules": {"match_target": huge}}),
        json!({"seats": bots, "rules": {"scoring": {"target": huge}}}),
        json!({"seats": bots, "rules": {"scoring": {"wild": huge}}}),
        json!({"seats": bots, "rules": {"play": {"turn_cap": huge}}}),
        json!({"seats": bots, "rules": {"name": "n".repeat(65)}}),
    ] {
        let (s, v) = create(&app, body.clone()).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {v}");
        assert_eq!(v["code"], "invalid_rules", "{body}: {v}");
    }
}

/// Two bots with no delay and nobody watching: the table closes after the idle time, its bots
/// stop, and the store holds it as abandoned with no action after that.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_with_no_person_connected_closes_and_its_bots_stop() {
    let config = server::Config { idle_timeout: Duration::from_millis(300), ..Default::default() };
    let (app, _, state) = serve(config).await;
    let body = json!({
        "house_rules": {"match_target": 10_000}, "bot_delay_ms": 0,
        "seats": [{"kind": "bot", "bot": "first"}, {"kind": "bot", "bot": "first"}]
    });
    let (s, v) = create(&app, body).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    let mut gone = false;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let (s, _) = call(&app, "GET", &format!("/api/tables/{id}"), None, None).await;
        if s == StatusCode::NOT_FOUND {
            gone = true;
            break;
        }
    }
    assert!(gone, "the table is still open after 5 s");
    let stored = state.store().load(&id).await.expect("load").expect("stored");
    assert_eq!(stored.standing, store::Standing::Abandoned);
    let actions = stored.actions.len();
    assert!(actions > 0, "the bots played before the table closed");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let later = state.store().load(&id).await.expect("load").expect("stored");
    assert_eq!(later.actions.len(), actions, "a bot acted at a closed table");
}

/// An open WebSocket is a person there: the table stays open while it is, and closes after the
/// idle time once it is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connected_spectator_keeps_a_table_open() {
    let config = server::Config { idle_timeout: Duration::from_millis(300), ..Default::default() };
    let (app, addr, _) = serve(config).await;
    let body =
        json!({"bot_delay_ms": 200, "seats": [{"kind": "bot", "bot": "first"}, {"kind": "bot", "bot": "first"}]});
    let (s, v) = create(&app, body).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/tables/{id}/ws")).await.expect("ws");
    let reader = tokio::spawn(async move {
        // Keep reading so the socket stays healthy; stop after a while.
        let until = tokio::time::Instant::now() + Duration::from_millis(1200);
        while let Ok(Some(Ok(_))) = tokio::time::timeout_at(until, ws.next()).await {}
        let _ = ws.close(None).await;
    });
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let (s, v) = call(&app, "GET", &format!("/api/tables/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK, "closed while a spectator watched: {v}");
    reader.await.expect("reader");
    let mut gone = false;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if call(&app, "GET", &format!("/api/tables/{id}"), None, None).await.0 == StatusCode::NOT_FOUND {
            gone = true;
            break;
        }
    }
    assert!(gone, "the table is still open 5 s after its last viewer left");
}

/// The seat's holder leaves and another person takes the seat while the first holder's socket
/// is still open: that socket's action is refused, it is closed with 4001, and it never shows
/// the new holder's hand.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_socket_stops_serving_once_the_seat_changes_hands() {
    let (app, addr, _) = serve(server::Config::default()).await;
    for round in 0..5 {
        let body = json!({"name": "Ann", "seed": round, "seats": [{"kind": "human"}, {"kind": "human"}]});
        let (s, v) = create(&app, body).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let id = v["id"].as_str().expect("id").to_string();
        let ann = v["token"].as_str().expect("token").to_string();
        let (s, v) =
            call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(json!({"name": "Bob"}).to_string())).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let bob = v["token"].as_str().expect("token").to_string();
        // Whoever is to move is the one whose socket outlives the seat.
        let (_, view) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&ann), None).await;
        let ann_moves = view["legal_actions"].as_array().is_some_and(|l| !l.is_empty());
        let (old, seat) = if ann_moves { (ann, 0) } else { (bob, 1) };
        let (_, view) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&old), None).await;
        let version = view["version"].as_u64().expect("version");
        let action = view["legal_actions"]
            .as_array()
            .and_then(|l| l.iter().find(|a| *a != "call_uno").cloned())
            .expect("a legal action");

        let (mut ws, _) =
            tokio_tungstenite::connect_async(common::ws_request(addr, &id, Some(&old))).await.expect("ws");
        let first = ws.next().await.expect("first").expect("frame");
        assert!(first.is_text());
        let (s, _) = call(&app, "POST", &format!("/api/tables/{id}/leave"), Some(&old), None).await;
        assert_eq!(s, StatusCode::NO_CONTENT);
        let join = json!({"name": "Cy", "seat": seat}).to_string();
        let (s, v) = call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(join)).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let cy = v["token"].as_str().expect("token").to_string();
        let hand = v["table"]["view"]["hand"].clone();
        // The old socket acts at once, before reading anything.
        let msg = json!({"type": "action", "action": action, "version": version}).to_string();
        let _ = ws.send(Message::Text(msg.into())).await;

        let mut closed_with = None;
        while let Ok(Some(Ok(m))) = tokio::time::timeout(Duration::from_secs(5), ws.next()).await {
            match m {
                Message::Close(frame) => {
                    closed_with = frame.map(|f| f.code);
                    break;
                }
                Message::Text(t) => {
                    let m: Value = serde_json::from_str(t.as_str()).expect("json");
                    assert_ne!(m["view"]["hand"], hand, "the old socket was shown the new holder's hand");
                    assert_eq!(m["type"], "error", "the old socket was sent {m}");
                }
                _ => {}
            }
        }
        assert_eq!(closed_with, Some(CloseCode::from(4001)), "round {round}");
        let (_, view) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&cy), None).await;
        assert_eq!(view["version"].as_u64(), Some(version), "the old socket's action was accepted");
    }
}

#[tokio::test]
async fn the_turn_timer_counts_down_in_the_view() {
    let (app, _, _) = serve(server::Config::default()).await;
    let body = json!({"name": "Ann", "turn_seconds": 60, "seats": [{"kind": "human"}, {"kind": "human"}]});
    let (_, v) = create(&app, body).await;
    let id = v["id"].as_str().expect("id").to_string();
    assert_eq!(v["table"]["turn_ms_left"], Value::Null, "no timer runs while the table waits");
    let (_, j) =
        call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(json!({"name": "Bob"}).to_string())).await;
    let first = j["table"]["turn_ms_left"].as_u64().expect("a running timer");
    assert!(first > 0 && first <= 60_000, "{first}");
    tokio::time::sleep(Duration::from_millis(120)).await;
    let (_, v) = call(&app, "GET", &format!("/api/tables/{id}"), None, None).await;
    let later = v["turn_ms_left"].as_u64().expect("a running timer");
    assert!(later < first, "{later} is not below {first}");
}

#[tokio::test]
async fn a_table_closed_to_spectators_refuses_them_and_is_not_listed() {
    let (app, _, _) = serve(server::Config::default()).await;
    let body =
        json!({"name": "Ann", "spectators": false, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "first"}]});
    let (_, v) = create(&app, body).await;
    let id = v["id"].as_str().expect("id").to_string();
    let (s, v) = call(&app, "GET", &format!("/api/tables/{id}"), None, None).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
    assert_eq!(v["code"], "spectators_not_allowed");
    let (_, list) = call(&app, "GET", "/api/tables", None, None).await;
    let listed = list["tables"].as_array().expect("tables").iter().any(|t| t["id"] == id.as_str());
    assert!(!listed, "{list}");
}

#[tokio::test]
async fn unknown_api_routes_answer_404_with_a_body() {
    let (app, _, _) = serve(server::Config::default()).await;
    let (s, v) = call(&app, "GET", "/api/nothing/here", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(v["code"], "not_found");
}

#[tokio::test]
async fn names_must_be_visible_and_distinct_at_a_table() {
    let (app, _, _) = serve(server::Config::default()).await;
    let (s, v) =
        create(&app, json!({"name": "\u{200B}\u{200D}", "seats": [{"kind": "human"}, {"kind": "human"}]})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let (_, v) = create(&app, json!({"name": "Ann", "seats": [{"kind": "human"}, {"kind": "human"}]})).await;
    let id = v["id"].as_str().expect("id").to_string();
    let join = |name: &str| json!({ "name": name }).to_string();
    let (s, v) = call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(join(" ann "))).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "name_taken");
    let (s, v) = call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(join("Bob"))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // At creation too: the creator and a named seat, or a person and a bot, never share a name.
    let human = |name: &str| json!({"kind": "human", "name": name});
    let bot = json!({"kind": "bot", "bot": "random"});
    for seats in [json!([human("Ann"), human("ANN")]), json!([human("random"), bot.clone()])] {
        let (s, v) = create(&app, json!({ "seats": seats })).await;
        assert_eq!((s, v["code"].as_str()), (StatusCode::CONFLICT, Some("name_taken")), "{seats}");
    }
    let (s, v) = create(&app, json!({"name": "ann", "seats": [human("Bea"), human("Ann")], "creator_seat": 0})).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::CONFLICT, Some("name_taken")), "{v}");
    // Bots of one kind share their name.
    let (s, v) = create(&app, json!({"name": "Ann", "seats": [human("Ann"), bot.clone(), bot]})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

/// The creator closes a table: it frees a slot of the per-client limit, its sockets close with
/// 4002, and the store keeps it as abandoned. Nobody else may close it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_closes_a_table_and_frees_its_slot() {
    let config = server::Config { max_tables_per_client: 1, ..Default::default() };
    let (app, addr, state) = serve(config).await;
    let body = json!({"name": "Ann", "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]});
    let (s, v) = create(&app, body.clone()).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    let ann = v["token"].as_str().expect("token").to_string();
    let (s, v) = create(&app, body.clone()).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    let (_, j) =
        call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(json!({"name": "Bob"}).to_string())).await;
    let bob = j["token"].as_str().expect("token").to_string();
    let (s, v) = call(&app, "POST", &format!("/api/tables/{id}/close"), Some(&bob), None).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
    assert_eq!(v["code"], "not_owner");

    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/tables/{id}/ws")).await.expect("ws");
    assert!(ws.next().await.expect("first").expect("frame").is_text());
    let (s, v) = call(&app, "POST", &format!("/api/tables/{id}/close"), Some(&ann), None).await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
    let mut closed_with = None;
    while let Ok(Some(Ok(m))) = tokio::time::timeout(Duration::from_secs(5), ws.next()).await {
        if let Message::Close(frame) = m {
            closed_with = frame.map(|f| f.code);
            break;
        }
    }
    assert_eq!(closed_with, Some(CloseCode::from(4002)));
    assert_eq!(call(&app, "GET", &format!("/api/tables/{id}"), None, None).await.0, StatusCode::NOT_FOUND);
    let stored = state.store().load(&id).await.expect("load").expect("stored");
    assert_eq!(stored.standing, store::Standing::Abandoned);
    let (s, v) = create(&app, body).await;
    assert_eq!(s, StatusCode::CREATED, "the closed table still counts: {v}");
}

#[tokio::test]
async fn a_rematch_counts_against_the_table_limit() {
    let config = server::Config { max_tables_per_client: 1, ..Default::default() };
    let (app, _, _) = serve(config).await;
    let one_round = json!({"name": "Ann", "seed": 4, "bot_delay_ms": 0, "house_rules": {"match_target": 0},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "first"}]});
    let (s, v) = create(&app, one_round.clone()).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    let ann = v["token"].as_str().expect("token").to_string();
    // Ann plays her first legal action each turn until the round (the game) is over.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        assert!(std::time::Instant::now() < deadline, "the game did not end");
        let (_, view) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&ann), None).await;
        if view["status"] == "finished" {
            break;
        }
        match view["legal_actions"].as_array().and_then(|l| l.first()) {
            Some(action) => {
                let body = json!({"action": action, "version": view["version"]}).to_string();
                call(&app, "POST", &format!("/api/tables/{id}/actions"), Some(&ann), Some(body)).await;
            }
            None => tokio::time::sleep(Duration::from_millis(5)).await,
        }
    }
    // The finished table freed its slot; another takes it, and the rematch finds none left.
    let (s, other) = create(&app, one_round).await;
    assert_eq!(s, StatusCode::CREATED, "{other}");
    let (s, v) = call(&app, "POST", &format!("/api/tables/{id}/rematch"), Some(&ann), None).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_many_tables")), "{v}");
    let (other_id, other_token) = (other["id"].as_str().expect("id"), other["token"].as_str().expect("token"));
    let (s, _) = call(&app, "POST", &format!("/api/tables/{other_id}/close"), Some(other_token), None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, v) = call(&app, "POST", &format!("/api/tables/{id}/rematch"), Some(&ann), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["generation"], 1, "{v}");
}

/// A socket closed while its client is still sending: the client reads the close and its reason
/// (4001, the seat left), never a connection reset (the server waits for the client's own Close
/// instead of dropping the connection with the client's messages unread).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_still_sending_reads_why_its_socket_closed() {
    let (app, addr) = common::serve_on_loopback().await;
    for round in 0..20 {
        let (id, token) = common::two_humans(&app).await;
        let (ws, _) = tokio_tungstenite::connect_async(common::ws_request(addr, &id, Some(&token))).await.expect("ws");
        let (mut tx, mut rx) = ws.split();
        let first = rx.next().await.expect("first").expect("frame");
        assert!(first.is_text());
        // The client keeps sending while its seat is given up.
        let sender = tokio::spawn(async move {
            let ping = json!({"type": "ping"}).to_string();
            for _ in 0..2_000 {
                if tx.send(Message::text(ping.clone())).await.is_err() {
                    break;
                }
            }
        });
        let (s, _) = call(&app, "POST", &format!("/api/tables/{id}/leave"), Some(&token), None).await;
        assert_eq!(s, StatusCode::NO_CONTENT);
        let mut closed = None;
        while let Some(msg) = rx.next().await {
            match msg {
                Ok(Message::Close(f)) => {
                    closed = Some(f.map(|f| f.code));
                    break;
                }
                Ok(_) => {}
                Err(e) => panic!("round {round}: the connection broke before its close was read: {e}"),
            }
        }
        assert_eq!(closed, Some(Some(CloseCode::Library(4001))), "round {round}");
        sender.abort();
    }
}

/// One request with the given headers: status, headers and JSON body.
async fn raw(
    app: &axum::Router,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: Option<String>,
) -> (StatusCode, axum::http::HeaderMap, Value) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let mut b = axum::http::Request::builder().method(method).uri(uri);
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    let req = match body {
        Some(s) => b.header("content-type", "application/json").body(axum::body::Body::from(s)),
        None => b.body(axum::body::Body::empty()),
    }
    .expect("request");
    let resp = app.clone().oneshot(req).await.expect("response");
    let (status, headers) = (resp.status(), resp.headers().clone());
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    (status, headers, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

/// The low findings of a review: security headers on every answer, the `Bearer` scheme in any
/// case, `?token=` refused on every route, a seat that does not exist is 400 (not
/// `seat_taken`), names with direction overrides, tag characters or only U+2800 refused, a
/// refusal's message bounded, and a `Host` that is not a host left out of the invite link.
#[tokio::test]
async fn review_findings_of_the_low_kind() {
    let (app, _, _) = serve(server::Config::default()).await;
    for uri in ["/", "/api/health", "/api/tables", "/api/nosuchroute"] {
        let (_, h, _) = raw(&app, "GET", uri, &[], None).await;
        for (name, value) in
            [("x-content-type-options", "nosniff"), ("x-frame-options", "DENY"), ("referrer-policy", "no-referrer")]
        {
            assert_eq!(h.get(name).and_then(|v| v.to_str().ok()), Some(value), "{uri}: {name}");
        }
        let csp = h.get("content-security-policy").and_then(|v| v.to_str().ok()).unwrap_or("");
        assert!(csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"), "{uri}: {csp}");
    }

    let (id, token) = common::two_humans(&app).await;
    for scheme in ["Bearer", "bearer", "BEARER"] {
        let auth = format!("{scheme} {token}");
        let (s, _, v) = raw(&app, "GET", &format!("/api/tables/{id}"), &[("authorization", &auth)], None).await;
        assert_eq!((s, v["you"].as_u64()), (StatusCode::OK, Some(0)), "{scheme}: {v}");
    }
    for uri in [
        "/api/health?token=x",
        "/api/tables?token=x",
        "/api/stats?a=1&token=x",
        "/api/uno/options?token=",
        // Percent-encoded, the key is still `token` to whoever reads the query.
        "/api/health?%74oken=x",
        "/api/tables?a=1&%74oken=x&%74oken=y",
    ] {
        let (s, _, v) = raw(&app, "GET", uri, &[], None).await;
        assert_eq!((s, v["code"].as_str()), (StatusCode::BAD_REQUEST, Some("token_in_url")), "{uri}: {v}");
    }

    let join = |name: &str, seat: Option<usize>| json!({"name": name, "seat": seat}).to_string();
    let (s, v) = call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(join("Bo", Some(99)))).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")), "{v}");
    for bad in ["Ann\u{202E}nimda", "\u{E0041}\u{E0042}x", "\u{2800}", "a\u{2066}b"] {
        let (s, v) = call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(join(bad, None))).await;
        assert_eq!((s, v["code"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")), "{bad:?}: {v}");
    }
    // A name that shows as a seated one (an invisible character added) is taken: seat 0 is
    // `common::two_humans`' creator.
    let (_, v) = call(&app, "GET", &format!("/api/tables/{id}"), Some(&token), None).await;
    let seated = v["seats"][0]["name"].as_str().expect("the creator's name").to_string();
    for alike in [format!("{seated}\u{200B}"), format!("\u{2800}{seated}"), seated.to_uppercase()] {
        let (s, v) = call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(join(&alike, None))).await;
        assert_eq!((s, v["code"].as_str()), (StatusCode::CONFLICT, Some("name_taken")), "{alike:?}: {v}");
    }

    // A rules file with a 60 KB line: the refusal quotes at most a bounded part of it.
    let rules = format!("name = \"{}", "x".repeat(60_000));
    let (s, v) = create(&app, json!({"rules": rules, "seats": [{"kind": "human"}, {"kind": "human"}]})).await;
    assert!(s.is_client_error(), "{s}");
    let message = v["message"].as_str().unwrap_or("");
    assert!(!message.is_empty() && message.chars().count() <= 501, "{} characters", message.chars().count());

    let body = json!({"seats": [{"kind": "human"}, {"kind": "human"}]}).to_string();
    for (host, absolute) in [("example.org:8080", true), ("[::1]:80", true), ("x\"><script>", false), ("a/b", false)] {
        let (s, _, v) = raw(&app, "POST", "/api/tables", &[("host", host)], Some(body.clone())).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let invite = v["invite"].as_str().expect("invite");
        assert_eq!(invite.starts_with(&format!("http://{host}/")), absolute, "{host}: {invite}");
        assert!(invite.starts_with("http://") || invite.starts_with('/'), "{invite}");
    }
}

/// A spectator's socket does not keep a table of people waiting for ever: once its people are
/// gone (no seat socket, no activity) it closes after the idle time like any other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_alone_does_not_keep_a_table_of_people_open() {
    let config = server::Config { idle_timeout: Duration::from_millis(300), ..Default::default() };
    let (app, addr, _) = serve(config).await;
    let (s, v) = create(&app, json!({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "first"}]})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/tables/{id}/ws")).await.expect("ws");
    let reader = tokio::spawn(async move {
        let until = tokio::time::Instant::now() + Duration::from_millis(6000);
        while let Ok(Some(Ok(_))) = tokio::time::timeout_at(until, ws.next()).await {}
    });
    let mut gone = false;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if call(&app, "GET", &format!("/api/tables/{id}"), None, None).await.0 == StatusCode::NOT_FOUND {
            gone = true;
            break;
        }
    }
    reader.abort();
    assert!(gone, "a spectator kept a table of people open");
}

/// A WebSocket message that is not JSON, or not a message, is refused with the HTTP codes, in
/// words about a message (there is no request body on a socket).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_websocket_message_is_called_a_message() {
    let (app, addr, _) = serve(server::Config::default()).await;
    let (id, _) = common::two_humans(&app).await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/tables/{id}/ws")).await.expect("ws");
    for (sent, code) in [("not json", "malformed_json"), ("{\"type\":\"dance\"}", "invalid_body")] {
        ws.send(Message::text(sent)).await.expect("send");
        let error = loop {
            let Some(Ok(Message::Text(t))) = ws.next().await else { panic!("the socket closed") };
            let v: Value = serde_json::from_str(t.as_str()).expect("json");
            if v["type"] == "error" {
                break v;
            }
        };
        assert_eq!(error["code"], code, "{error}");
        let message = error["message"].as_str().expect("message");
        assert!(message.starts_with("the message") && !message.contains("request body"), "{message}");
    }
}

/// The creator who leaves gives up the right to close: whoever takes the creator's seat next may
/// not close the table (only the creator could, and now nobody can).
#[tokio::test]
async fn the_next_holder_of_the_creators_seat_may_not_close_the_table() {
    let (app, _, _) = serve(server::Config::default()).await;
    let body = json!({"name": "Ann", "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]});
    let (s, v) = create(&app, body).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    let ann = v["token"].as_str().expect("token").to_string();
    let (s, v) = call(&app, "POST", &format!("/api/tables/{id}/leave"), Some(&ann), None).await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
    let join = json!({"name": "Mallory", "seat": 0}).to_string();
    let (s, j) = call(&app, "POST", &format!("/api/tables/{id}/join"), None, Some(join)).await;
    assert_eq!((s, j["seat"].as_u64()), (StatusCode::OK, Some(0)), "{j}");
    let mallory = j["token"].as_str().expect("token").to_string();
    let (s, v) = call(&app, "POST", &format!("/api/tables/{id}/close"), Some(&mallory), None).await;
    assert_eq!((s, v["code"].as_str()), (StatusCode::FORBIDDEN, Some("not_owner")), "{v}");
    assert_eq!(call(&app, "GET", &format!("/api/tables/{id}"), None, None).await.0, StatusCode::OK);
}

/// A seed the creator chose tells the creator every hidden card: every person sees that before
/// taking a seat (the lobby's list and the table as a newcomer reads it).
#[tokio::test]
async fn a_chosen_seed_is_shown_to_every_person_before_they_sit() {
    let (app, _, _) = serve(server::Config::default()).await;
    let (s, seeded) =
        create(&app, json!({"name": "Ann", "seed": 7, "seats": [{"kind": "human"}, {"kind": "human"}]})).await;
    assert_eq!(s, StatusCode::CREATED, "{seeded}");
    let (s, fair) = create(&app, json!({"name": "Cy", "seats": [{"kind": "human"}, {"kind": "human"}]})).await;
    assert_eq!(s, StatusCode::CREATED, "{fair}");
    let seeded_id = seeded["id"].as_str().expect("id").to_string();
    let fair_id = fair["id"].as_str().expect("id").to_string();
    assert_eq!(seeded["table"]["chosen_seed"], true);
    // The lobby.
    let (_, list) = call(&app, "GET", "/api/tables", None, None).await;
    let listed = |id: &str| list["tables"].as_array().and_then(|t| t.iter().find(|t| t["id"] == id).cloned());
    assert_eq!(listed(&seeded_id).expect("listed")["chosen_seed"], true, "{list}");
    assert_eq!(listed(&fair_id).expect("listed")["chosen_seed"], false, "{list}");
    // The table as a newcomer reads it before joining.
    let (_, view) = call(&app, "GET", &format!("/api/tables/{seeded_id}"), None, None).await;
    assert_eq!(view["chosen_seed"], true, "{view}");
    let (_, view) = call(&app, "GET", &format!("/api/tables/{fair_id}"), None, None).await;
    assert_eq!(view["chosen_seed"], false, "{view}");
    // The joiner's own view says it too.
    let (s, joined) =
        call(&app, "POST", &format!("/api/tables/{seeded_id}/join"), None, Some(json!({"name": "Bob"}).to_string()))
            .await;
    assert_eq!(s, StatusCode::OK, "{joined}");
    let bob = joined["token"].as_str().expect("token").to_string();
    let (_, view) = call(&app, "GET", &format!("/api/tables/{seeded_id}"), Some(&bob), None).await;
    assert_eq!(view["chosen_seed"], true, "{view}");
}

/// Per-client limits count an IPv6 client by its /64, as the connection caps do: the addresses
/// of one /64 are one client, and another /64 is another (an IPv4-mapped address is its IPv4).
#[tokio::test]
async fn an_ipv6_client_is_counted_by_its_slash_64() {
    use axum::extract::ConnectInfo;
    use tower::ServiceExt;
    let config = server::Config { max_tables_per_client: 2, ..Default::default() };
    let (app, _, _) = serve(config).await;
    let create_from = |ip: &str| {
        let addr = std::net::SocketAddr::new(ip.parse().expect("an address"), 40000);
        let body = json!({"seats": [{"kind": "human"}, {"kind": "human"}]}).to_string();
        let mut req = axum::http::Request::builder()
            .method("POST")
            .uri("/api/tables")
            .header("content-type", "application/json")
            .body(axum::body::Body::from(body))
            .expect("request");
        req.extensions_mut().insert(ConnectInfo(addr));
        let app = app.clone();
        async move { app.oneshot(req).await.expect("response").status() }
    };
    for ip in ["2001:db8:1:2::1", "2001:db8:1:2:ffff::7"] {
        assert_eq!(create_from(ip).await, StatusCode::CREATED, "{ip}");
    }
    assert_eq!(create_from("2001:db8:1:2:aaaa:bbbb:cccc:dddd").await, StatusCode::TOO_MANY_REQUESTS, "the same /64");
    assert_eq!(create_from("2001:db8:1:3::1").await, StatusCode::CREATED, "another /64");
    for ip in ["10.1.2.3", "::ffff:10.1.2.3"] {
        assert_eq!(create_from(ip).await, StatusCode::CREATED, "{ip}");
    }
    assert_eq!(create_from("10.1.2.3").await, StatusCode::TOO_MANY_REQUESTS, "an IPv4-mapped address is its IPv4");
}
