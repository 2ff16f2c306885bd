//! Refusals that come from below the handlers still say what went wrong: a wrong method, a
//! WebSocket route read as plain HTTP, an over-long WebSocket message, a malformed frame (1002)
//! and a text frame that is not UTF-8 (1007).

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

/// Opens a WebSocket to table `id` by hand over TCP (so the test can send frames no client
/// library would) and reads the upgrade's answer.
async fn raw_socket(addr: SocketAddr, id: &str) -> tokio::net::TcpStream {
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let req = format!(
        "GET /api/tables/{id}/ws HTTP/1.1\r\nhost: x\r\nupgrade: websocket\r\nconnection: upgrade\r\n\
         sec-websocket-version: 13\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.expect("write");
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut b = [0u8; 1];
        s.read_exact(&mut b).await.expect("the upgrade's answer");
        head.push(b[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 101"), "{}", String::from_utf8_lossy(&head));
    s
}

/// A masked client frame: FIN, `first` as the opcode byte's rest (reserved bits included).
fn frame(first: u8, payload: &[u8]) -> Vec<u8> {
    let mask = [1u8, 2, 3, 4];
    let mut f = vec![first, 0x80 | payload.len() as u8];
    f.extend_from_slice(&mask);
    f.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    f
}

/// Reads server frames until a Close; its code.
async fn close_code(s: &mut tokio::net::TcpStream) -> u16 {
    let read = async {
        loop {
            let mut h = [0u8; 2];
            s.read_exact(&mut h).await.expect("a frame, not a dropped connection");
            let mut len = u64::from(h[1] & 0x7f);
            if len == 126 {
                let mut l = [0u8; 2];
                s.read_exact(&mut l).await.expect("length");
                len = u64::from(u16::from_be_bytes(l));
            } else if len == 127 {
                let mut l = [0u8; 8];
                s.read_exact(&mut l).await.expect("length");
                len = u64::from_be_bytes(l);
            }
            let mut payload = vec![0u8; len as usize];
            s.read_exact(&mut payload).await.expect("payload");
            if h[0] & 0x0f == 0x8 {
                assert!(payload.len() >= 2, "a close frame with a code");
                return u16::from_be_bytes([payload[0], payload[1]]);
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(5), read).await.expect("a close in time")
}

#[tokio::test]
async fn a_malformed_websocket_frame_closes_with_1002_and_text_not_utf8_with_1007() {
    let (app, addr) = serve_on_loopback().await;
    let id = table(&app).await;
    for (name, bytes, code) in [
        ("reserved bits set", frame(0x80 | 0x40 | 0x1, b"{}"), 1002),
        ("an unknown opcode", frame(0x80 | 0x3, b"{}"), 1002),
        ("a continuation with nothing to continue", frame(0x80, b"{}"), 1002),
        ("a fragmented ping", frame(0x9, b"p"), 1002),
        ("an unmasked frame", vec![0x81, 0x02, b'{', b'}'], 1002),
        ("text that is not UTF-8", frame(0x81, &[0xff, 0xfe, 0x41]), 1007),
    ] {
        let mut s = raw_socket(addr, &id).await;
        s.write_all(&bytes).await.expect("write");
        assert_eq!(close_code(&mut s).await, code, "{name}");
    }
}
