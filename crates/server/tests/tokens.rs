//! The seat token stays out of URLs: a header for HTTP, a subprotocol for the WebSocket, and the
//! pages use nothing else.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use futures_util::StreamExt;
use http_body_util::BodyExt;
use serde_json::Value;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tower::ServiceExt;

mod common;
use common::{call, serve_on_loopback, two_humans};

fn offer(url: &str, protocols: &str) -> tokio_tungstenite::tungstenite::handshake::client::Request {
    let mut req = url.into_client_request().expect("request");
    req.headers_mut().insert("sec-websocket-protocol", protocols.parse().expect("header"));
    req
}

#[tokio::test]
async fn a_websocket_takes_its_seat_from_the_offered_subprotocol() {
    let (app, addr) = serve_on_loopback().await;
    let (id, token) = two_humans(&app).await;
    let (id, token) = (id.as_str(), token.as_str());
    let url = format!("ws://{addr}/api/tables/{id}/ws");

    let (mut ws, answer) =
        tokio_tungstenite::connect_async(offer(&url, &format!("tabletop, bearer.{token}"))).await.expect("seat socket");
    assert_eq!(answer.headers().get("sec-websocket-protocol").and_then(|v| v.to_str().ok()), Some("tabletop"));
    let first = ws.next().await.expect("message").expect("frame");
    let state: Value = serde_json::from_str(first.to_text().expect("text")).expect("json");
    assert_eq!(state["type"], "state");
    assert_eq!(state["you"], 0, "the socket does not hold the creator's seat: {state}");

    // A token that holds no seat is refused before the upgrade, as a header token would be.
    let refused =
        tokio_tungstenite::connect_async(offer(&url, "tabletop, bearer.00112233445566778899aabbccddeeff")).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => assert_eq!(r.status(), StatusCode::FORBIDDEN),
        other => panic!("expected 403, got {other:?}"),
    }

    // Without a token offered: a spectator.
    let (mut ws, _) = tokio_tungstenite::connect_async(offer(&url, "tabletop")).await.expect("spectator socket");
    let first = ws.next().await.expect("message").expect("frame");
    let state: Value = serde_json::from_str(first.to_text().expect("text")).expect("json");
    assert_eq!(state["you"], Value::Null);
}

#[tokio::test]
async fn the_pages_never_put_a_token_in_a_url() {
    let (app, _) = serve_on_loopback().await;
    for page in ["/uno.js", "/api.js", "/duel.js", "/index.html", "/uno.html"] {
        let req = Request::builder().uri(page).body(Body::empty()).expect("request");
        let resp = app.clone().oneshot(req).await.expect("response");
        assert_eq!(resp.status(), StatusCode::OK, "{page}");
        let bytes = resp.into_body().collect().await.expect("body").to_bytes();
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains("token="), "{page} builds a URL with the token");
    }
}

#[tokio::test]
async fn a_token_in_the_url_is_refused_everywhere() {
    let (app, addr) = serve_on_loopback().await;
    let (id, token) = two_humans(&app).await;
    let (id, token) = (id.as_str(), token.as_str());

    // HTTP, with or without the header beside it: the URL must not carry it.
    for header in [None, Some(token)] {
        for (method, path) in [
            ("GET", format!("/api/tables/{id}?token={token}")),
            ("POST", format!("/api/tables/{id}/leave?token={token}")),
            ("GET", format!("/api/games/{id}/replay?token={token}")),
        ] {
            let (s, v) = call(&app, method, &path, header, None).await;
            assert_eq!(s, StatusCode::BAD_REQUEST, "{method} {path}: {v}");
            assert_eq!(v["code"], "token_in_url", "{v}");
        }
    }
    // The seat is still held: the refused leave did nothing.
    let (s, v) = call(&app, "GET", &format!("/api/tables/{id}"), Some(token), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["you"], 0, "{v}");

    // The WebSocket, even with the subprotocol offered too.
    let url = format!("ws://{addr}/api/tables/{id}/ws?token={token}");
    for protocols in ["tabletop", &format!("tabletop, bearer.{token}")] {
        match tokio_tungstenite::connect_async(offer(&url, protocols)).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(r)) => assert_eq!(r.status(), StatusCode::BAD_REQUEST),
            other => panic!("expected 400, got {other:?}"),
        }
    }
}
