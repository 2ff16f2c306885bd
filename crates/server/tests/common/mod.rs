//! What the router tests share: one request through the app, answered as status and JSON.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// Sends one request (with a bearer token and a JSON body when given) and reads the answer;
/// a body that is not JSON reads as `Value::Null`.
pub async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<String>,
) -> (StatusCode, Value) {
    let mut b = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        b = b.header("authorization", format!("Bearer {t}"));
    }
    let req = match body {
        Some(s) => b.header("content-type", "application/json").body(Body::from(s)),
        None => b.body(Body::empty()),
    }
    .expect("request");
    let resp = app.clone().oneshot(req).await.expect("response");
    let status = resp.status();
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

/// A fresh server (in-memory store, default config) on a loopback port: the router, for
/// `call`, and the address, for WebSockets.
#[allow(dead_code)] // not every test binary opens sockets
pub async fn serve_on_loopback() -> (axum::Router, std::net::SocketAddr) {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let state = server::AppState::new(store, server::Config::default()).await.expect("state");
    let app = server::app(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let served_state = state;
    tokio::spawn(server::serve(listener, served_state, std::future::pending()));
    (app, addr)
}

// Not every test binary reads pushes.
#[allow(dead_code)]
pub mod hidden;
#[allow(dead_code)]
mod merge;
#[allow(dead_code)]
pub mod people;
#[allow(unused_imports)]
pub use merge::merge;

/// A WebSocket request to a table, the seat token (if any) offered as the subprotocol
/// `bearer.<token>`, as the pages do: the token never goes in the URL.
#[allow(dead_code)] // not every test binary opens sockets
pub fn ws_request(
    addr: std::net::SocketAddr,
    table: &str,
    token: Option<&str>,
) -> tokio_tungstenite::tungstenite::handshake::client::Request {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/tables/{table}/ws").into_client_request().expect("request");
    let offer = match token {
        Some(t) => format!("tabletop, bearer.{t}"),
        None => "tabletop".to_string(),
    };
    req.headers_mut().insert("sec-websocket-protocol", offer.parse().expect("header"));
    req
}

/// A new table of two human seats: its id and the creator's seat token.
#[allow(dead_code)] // not every test binary makes such a table
pub async fn two_humans(app: &axum::Router) -> (String, String) {
    let body = serde_json::json!({"seats": [{"kind": "human"}, {"kind": "human"}]}).to_string();
    let (s, created) = call(app, "POST", "/api/tables", None, Some(body)).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let field = |k: &str| created[k].as_str().expect("a table's id and token").to_string();
    (field("id"), field("token"))
}

/// Writes into `s` a game as a stop on its finishing path left it: created, its whole log,
/// then (as asked) its kept result and its finished mark. `game` and `result` are as another
/// store held them once the game was over.
#[allow(dead_code)] // not every test binary stops a game midway
pub async fn stopped_at(
    s: &dyn store::GameStore,
    game: &store::StoredGame,
    result: Option<&store::GameResult>,
    marked: bool,
) {
    let id = &game.id;
    let new = store::NewGame { id: id.clone(), kind: game.kind, header: game.header.clone(), meta: game.meta.clone() };
    s.create(new).done().await.expect("create");
    for (seq, entry) in game.actions.iter().enumerate() {
        s.append(id, seq as u64, entry.clone()).done().await.expect("append");
    }
    if marked {
        s.set_standing(id, store::Standing::Finished).done().await.expect("finished");
    }
    if let Some(r) = result {
        let new = store::NewResult {
            game_id: id.clone(),
            kind: r.kind,
            record: r.record.clone(),
            actions: r.actions as u64,
            outcome: r.outcome.clone(),
            tallies: None,
        };
        s.add_result(new).done().await.expect("result");
    }
}

/// One request over a real connection to a server at `addr` (HTTP/1.1, closed after the
/// answer), with a bearer token and a JSON body when given: the status and the JSON answer.
#[allow(dead_code)] // not every test binary talks to a real server
pub async fn http(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut head =
        format!("{method} {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\ncontent-length: {}\r\n", body.len());
    if let Some(t) = token {
        head.push_str(&format!("authorization: Bearer {t}\r\n"));
    }
    if !body.is_empty() {
        head.push_str("content-type: application/json\r\n");
    }
    s.write_all(format!("{head}\r\n{body}").as_bytes()).await.expect("write");
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).await.expect("read");
    let text = String::from_utf8_lossy(&answer);
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).expect("a status line");
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    // A chunked answer's JSON is its one chunk.
    let json = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        rest.split_once("\r\n").map(|(_, r)| r.rsplit_once("\r\n0\r\n").map_or(r, |(j, _)| j)).unwrap_or("")
    } else {
        rest
    };
    (status, serde_json::from_str(json.trim()).unwrap_or(Value::Null))
}
