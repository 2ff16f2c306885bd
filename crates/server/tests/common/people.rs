//! What the people tests (accounts, passkeys) share: one request from a client address, with
//! its headers, answered as status, headers and JSON; and a server on a fresh SQLite store.

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
}

impl Answer {
    /// The session cookie this answer sets (`name=value`), if any.
    pub fn cookie(&self) -> Option<String> {
        let set = self.headers.get("set-cookie")?.to_str().ok()?;
        let pair = set.split(';').next()?.trim().to_string();
        (!pair.ends_with('=')).then_some(pair)
    }
}

/// One request to `host` from `addr`, with the headers given, JSON when a body is given.
pub async fn send_from(
    app: &axum::Router,
    host: &str,
    addr: &str,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> Answer {
    let mut b = Request::builder().method(method).uri(uri).header("host", host);
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    let mut req = match body {
        Some(v) => b.header("content-type", "application/json").body(Body::from(v.to_string())),
        None => b.body(Body::empty()),
    }
    .expect("request");
    let peer: SocketAddr = format!("{addr}:40000").parse().expect("address");
    req.extensions_mut().insert(ConnectInfo(peer));
    let resp = app.clone().oneshot(req).await.expect("response");
    let status = resp.status();
    let headers = resp.headers().clone();
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    Answer { status, headers, body: serde_json::from_slice(&bytes).unwrap_or(Value::Null) }
}

/// A server with `config` on a fresh SQLite store (kept while the folder lives).
pub async fn server(config: server::Config) -> (axum::Router, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("dir");
    let store = store::SqliteStore::open(dir.path().join("t.db")).expect("store");
    let state = server::AppState::new(store, config).await.expect("state");
    (server::app(state), dir)
}
