//! The whole connection cap on a real socket, filled by plain WebSockets (busy, never idle):
//! a fresh address still gets in, by shedding the idlest socket of the address holding the
//! most (closed with 1013, try again later), while any address holds more than its share; when
//! every address holds its share and no more, the newcomer is refused (503 `server_busy`).

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

async fn start(max_connections: usize) -> SocketAddr {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let state = server::AppState::new(store, server::Config::default()).await.expect("state");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let config = server::ServeConfig { max_connections, max_per_address: max_connections, ..Default::default() };
    tokio::spawn(server::serve_with(listener, state, config, std::future::pending()));
    addr
}

async fn connect_from(source: u8, addr: SocketAddr) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.bind(SocketAddr::from(([127, 0, 0, source], 0))).expect("bind the source address");
    socket.connect(addr).await.expect("connect")
}

/// A request from 127.0.0.`source` on a fresh connection: the status and the JSON body.
async fn request_from(source: u8, addr: SocketAddr, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let mut s = connect_from(source, addr).await;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.expect("write");
    let mut text = String::new();
    tokio::time::timeout(Duration::from_secs(10), s.read_to_string(&mut text)).await.expect("answered").expect("read");
    let status = text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let raw = text.split("\r\n\r\n").nth(1).unwrap_or("");
    let json = match (raw.find('{'), raw.rfind('}')) {
        (Some(a), Some(b)) => serde_json::from_str(&raw[a..=b]).unwrap_or(Value::Null),
        _ => Value::Null,
    };
    (status, json)
}

/// A spectator's WebSocket on `table` from 127.0.0.`source`, its first state read.
async fn watch_from(source: u8, addr: SocketAddr, table: &str) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let tcp = connect_from(source, addr).await;
    let mut req = format!("ws://{addr}/api/tables/{table}/ws").into_client_request().expect("request");
    req.headers_mut().insert("sec-websocket-protocol", "tabletop".parse().expect("header"));
    let (mut ws, _) = tokio_tungstenite::client_async(req, tcp).await.expect("upgrade");
    let first = tokio::time::timeout(Duration::from_secs(5), ws.next()).await.expect("in time");
    assert!(matches!(first, Some(Ok(Message::Text(_)))), "{first:?}");
    ws
}

/// Whether `ws` was closed with `code` within a moment.
async fn closed_with(ws: &mut Socket, code: u16) -> bool {
    loop {
        match tokio::time::timeout(Duration::from_millis(500), ws.next()).await {
            Ok(Some(Ok(Message::Close(Some(f))))) => return u16::from(f.code) == code,
            Ok(Some(Ok(_))) => continue,
            _ => return false,
        }
    }
}

async fn table(addr: SocketAddr) -> String {
    let create = json!({"seats": [{"kind": "human"}, {"kind": "human"}]});
    let (s, created) = request_from(1, addr, "POST", "/api/tables", Some(create)).await;
    assert_eq!(s, 201, "{created}");
    created["id"].as_str().expect("id").to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fresh_address_gets_in_while_another_holds_more_than_its_share() {
    const CAP: usize = 12;
    let addr = start(CAP).await;
    let id = table(addr).await;
    // Three addresses fill the cap with plain WebSockets (4 each): nothing idle, nothing slow.
    let mut held = Vec::new();
    for source in [2, 3, 4] {
        for _ in 0..4 {
            held.push((source, watch_from(source, addr, &id).await));
        }
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    // A fresh address: its request is answered, by shedding one socket of an address that
    // holds more than its share (12 / 4 addresses = 3).
    let (s, v) = request_from(9, addr, "GET", "/api/tables", None).await;
    assert_eq!(s, 200, "{v}");
    let mut shed = 0;
    for (_, ws) in &mut held {
        if closed_with(ws, 1013).await {
            shed += 1;
        }
    }
    assert_eq!(shed, 1, "one socket made room");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_every_addresss_share_a_newcomer_is_refused() {
    const CAP: usize = 4;
    let addr = start(CAP).await;
    let id = table(addr).await;
    let mut held = Vec::new();
    for source in [2, 3, 4, 5] {
        held.push(watch_from(source, addr, &id).await);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (s, v) = request_from(9, addr, "GET", "/api/tables", None).await;
    assert_eq!((s, v["code"].as_str()), (503, Some("server_busy")), "{v}");
    for ws in &mut held {
        assert!(!closed_with(ws, 1013).await, "nobody holds more than their share: nobody is shed");
    }
}
