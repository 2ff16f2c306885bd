//! Trusted proxies (`ServeConfig::trusted_proxies`, `--trusted-proxy`) on a real socket: behind
//! one, each client forwarded is counted apart by the per-client limits, and the proxy's own
//! connections only by the whole cap; from any other address the headers change nothing, and
//! without the option nothing changes.

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

async fn start(config: server::ServeConfig) -> SocketAddr {
    let store = store::SqliteStore::open_in_memory().expect("store");
    let limits = server::Config { max_tables_per_client: 1, ..server::Config::default() };
    let state = server::AppState::new(store, limits).await.expect("state");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(server::serve_with(listener, state, config, std::future::pending()));
    addr
}

/// Creates a table from `source` (any of 127.0.0.0/8) with these extra headers: the status and
/// the answer's code.
async fn create_from(source: [u8; 4], addr: SocketAddr, headers: &str) -> (u16, Value) {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.bind(SocketAddr::from((source, 0))).expect("bind the source address");
    let mut s = socket.connect(addr).await.expect("connect");
    let body = json!({"seats": [{"kind": "human"}, {"kind": "human"}]}).to_string();
    let req = format!(
        "POST /api/tables HTTP/1.1\r\nhost: x\r\nconnection: close\r\n{headers}content-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
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
    (status, json["code"].clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_each_forwarded_client_is_counted_apart() {
    let trusted = server::proxy::TrustedProxies(vec!["127.0.0.1".parse().expect("an address")]);
    let addr = start(server::ServeConfig { trusted_proxies: trusted, ..Default::default() }).await;
    // Two clients through the proxy (nginx appends the address it saw): one table each.
    assert_eq!(create_from([127, 0, 0, 1], addr, "x-forwarded-for: 203.0.113.1\r\n").await.0, 201);
    assert_eq!(create_from([127, 0, 0, 1], addr, "x-forwarded-for: 203.0.113.2\r\n").await.0, 201);
    // The first again, having written an address of its own before nginx's: still the first.
    let again = create_from([127, 0, 0, 1], addr, "x-forwarded-for: 198.51.100.9, 203.0.113.1\r\n").await;
    assert_eq!(again, (429, json!("too_many_tables")));
    // `Forwarded` is read too.
    assert_eq!(create_from([127, 0, 0, 1], addr, "forwarded: for=\"[2001:db8::1]:4711\"\r\n").await.0, 201);
    // From an address that is no trusted proxy the header is the client's own, and ignored.
    assert_eq!(create_from([127, 0, 0, 2], addr, "x-forwarded-for: 203.0.113.3\r\n").await.0, 201);
    let spoofed = create_from([127, 0, 0, 2], addr, "x-forwarded-for: 203.0.113.4\r\n").await;
    assert_eq!(spoofed, (429, json!("too_many_tables")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_option_the_headers_change_nothing() {
    let addr = start(server::ServeConfig::default()).await;
    assert_eq!(create_from([127, 0, 0, 1], addr, "x-forwarded-for: 203.0.113.1\r\n").await.0, 201);
    let other = create_from([127, 0, 0, 1], addr, "x-forwarded-for: 203.0.113.2\r\n").await;
    assert_eq!(other, (429, json!("too_many_tables")));
}

/// A trusted proxy's connections count against the whole cap only: with a per-address cap of
/// 2, the proxy holds more connections than that while an ordinary address is held to it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_proxys_connections_count_against_the_whole_cap_only() {
    let trusted = server::proxy::TrustedProxies(vec!["127.0.0.1".parse().expect("an address")]);
    let config =
        server::ServeConfig { trusted_proxies: trusted, max_per_address: 2, max_connections: 64, ..Default::default() };
    let addr = start(config).await;
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
        // A request in progress (its body still to come), so the connection is not idle.
        s.write_all(
            b"POST /api/tables HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{",
        )
        .await
        .expect("write");
        held.push(s);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    for s in &mut held {
        let mut b = [0u8; 1];
        let read = tokio::time::timeout(Duration::from_millis(100), s.read(&mut b)).await;
        assert!(read.is_err(), "the proxy's connection is still open and unanswered");
    }
    let (status, code) = create_from([127, 0, 0, 3], addr, "").await;
    assert_eq!(status, 201, "{code}");
}
