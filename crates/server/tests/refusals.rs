//! Refusals that come from below the handlers still say what went wrong: a wrong method, a
//! WebSocket route read as plain HTTP, an over-long WebSocket message.

use std::net::SocketAddr;
use std::time::Duration;

use axum::http::StatusCode;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

mod common;
use common::{call, serve_on_loopback};

/// A plain HTTP GET on a fresh connection: status, `allow` header, JSON body.
async fn get(addr: SocketAddr, path: &str) -> (u16, Value) {
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let req = format!("GET {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.expect("write");
    let mut text = String::new();
    s.read_to_string(&mut text).await.expect("read");
    let status = text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let raw = text.split("\r\n\r\n").nth(1).unwrap_or("");
    let json = match (raw.find('{'), raw.rfind('}')) {
        (Some(a), Some(b)) => serde_json::from_str(&raw[a..=b]).unwrap_or(Value::Null),
        _ => Value::Null,
    };
    (status, json)
}

async fn table(app: &axum::Router) -> String {
    let body = json!({"seats": [{"kind": "human"}, {"kind": "human"}]}).to_string();
    let (s, created) = call(app, "POST", "/api/tables", None, Some(body)).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    created["id"].as_str().expect("id").to_string()
}

#[tokio::test]
async fn a_wrong_method_answers_405_with_a_body() {
    let (app, _) = serve_on_loopback().await;
    let id = table(&app).await;
    for (method, path) in [("DELETE", "/api/tables".to_string()), ("GET", format!("/api/tables/{id}/join"))] {
        let (s, v) = call(&app, method, &path, None, None).await;
        assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
        assert_eq!(v["code"], "method_not_allowed", "{method} {path}: {v}");
        assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()), "{v}");
    }
}

#[tokio::test]
async fn the_websocket_route_read_as_plain_http_answers_with_a_body() {
    let (app, addr) = serve_on_loopback().await;
    let id = table(&app).await;
    let (s, v) = get(addr, &format!("/api/tables/{id}/ws")).await;
    assert!((400..500).contains(&s), "status {s}");
    assert_eq!(v["code"], "websocket_required", "{v}");
}

#[tokio::test]
async fn an_over_long_websocket_message_closes_with_1009() {
    let (app, addr) = serve_on_loopback().await;
    let id = table(&app).await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/tables/{id}/ws")).await.expect("ws");
    ws.next().await.expect("state").expect("frame");
    ws.send(Message::text("x".repeat(20 * 1024))).await.expect("send");
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(5), ws.next()).await.expect("an answer in time");
        match msg {
            Some(Ok(Message::Close(Some(f)))) => {
                assert_eq!(f.code, CloseCode::Size);
                assert!(f.reason.contains("too big"), "{}", f.reason);
                break;
            }
            Some(Ok(Message::Text(_))) => continue,
            other => panic!("expected a close frame with a code, got {other:?}"),
        }
    }
}
