//! The quick-match queue of a cluster: one queue for the whole site.
//!
//! A join (`POST /api/queue`) goes to the *queue instance*: the one of the smallest name among
//! this instance and those heard on the lobby subject within its staleness (3 s), so people who
//! reach different instances wait, and are grouped, in one queue. The ticket it makes starts
//! with its tag (`wire::instance_tag`): every later request about the ticket (`GET` and
//! `DELETE /api/queue`) is forwarded to that home, and a queue socket opened on another
//! instance is relayed: that instance polls the home every [`RELAY_POLL`] (which holds the
//! ticket as an open socket would) and sends its client each change, the seat and its token
//! included. The table a wave makes is the home's, an ordinary table: its requests and sockets
//! reach it from any instance as any table's do.
//!
//! While the instances' views of who is alive differ (for up to the lobby's staleness after
//! one starts or stops), two of them may each take joins: those tickets wait at their own home,
//! which stays their home, so nothing is lost or seated twice; people are only grouped
//! separately for that moment. A home that stops takes its waiting tickets with it: their
//! relayed sockets say `left`, and the page joins again.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequestParts, Request};
use axum::http::{header, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::wire::{instance_subject, instance_tag, now_ms, subject_of_tag, Answer, Ask};
use super::{http_answer, http_response, Inner, PERSON_HEADERS, REQUEST_TIMEOUT};
use crate::quick::QueueStatus;
use crate::{bearer, limits, ApiError, TableError};

/// How often a relayed queue socket asks the ticket's home where it stands.
pub(super) const RELAY_POLL: Duration = Duration::from_millis(200);

/// Whether a path (or a path and query) is one of the queue's or the arenas' routes: answered
/// by the instance a ticket's or an arena's id names, not a table's owner.
pub(super) fn is_queue_path(uri: &str) -> bool {
    let path = uri.split('?').next().unwrap_or("");
    path == "/api/queue" || path == "/api/queue/ws" || path == "/api/arenas" || path.starts_with("/api/arenas/")
}

/// The home tag an arena's id starts with, when an instance of a cluster opened it.
fn arena_home(path: &str) -> Option<&str> {
    let id = path.strip_prefix("/api/arenas/")?.split('/').next()?;
    let cluster_made = id.len() == crate::quick::HOME_TAG_LEN + 2 * crate::arena::ARENA_ID_BYTES
        && id.bytes().all(|b| b.is_ascii_hexdigit());
    cluster_made.then(|| &id[..crate::quick::HOME_TAG_LEN])
}

/// The instance that takes the site's joins now: the smallest name alive.
fn queue_instance(inner: &Inner) -> String {
    let mut alive = inner.lobby.instances(std::time::Instant::now());
    alive.push(inner.me.clone());
    alive.into_iter().min().unwrap_or_default()
}

fn unavailable() -> Response {
    ApiError::from(TableError::OwnerUnavailable("of the quick-match ticket".into())).into_response()
}

/// One request to another instance, answered or not (no answer in time, nobody there).
async fn send(inner: &Inner, subject: &str, ask: &Ask) -> Option<Answer> {
    let payload = serde_json::to_vec(ask).ok()?;
    let request = async_nats::Request::new().payload(payload.into()).timeout(Some(REQUEST_TIMEOUT));
    let msg = inner.nats.send_request(subject.to_string(), request).await.ok()?;
    serde_json::from_slice(&msg.payload).ok()
}

/// The queue's and the arenas' routes in a cluster: a join to the queue instance, a ticket's
/// requests to its home, an arena's to the instance that opened it, and the list of arenas
/// from every instance.
pub(super) async fn forward(inner: &Arc<Inner>, req: Request, next: Next) -> Response {
    let path = req.uri().path().to_string();
    if path == "/api/arenas" {
        return match *req.method() {
            Method::GET => list_arenas(inner, req, next).await,
            // Opened here: its id names this instance.
            _ => next.run(req).await,
        };
    }
    if path.starts_with("/api/arenas/") {
        return match arena_home(&path) {
            Some(tag) if tag != instance_tag(&inner.me) => {
                let home = subject_of_tag(tag);
                forward_http(inner, &home, req, None).await
            }
            _ => next.run(req).await,
        };
    }
    let join = req.method() == Method::POST && path == "/api/queue";
    let (home, req) = if join {
        let leader = queue_instance(inner);
        if leader == inner.me {
            return next.run(req).await;
        }
        (instance_subject(&leader), req)
    } else {
        let (parts, body) = req.into_parts();
        let token = match bearer::asker(&parts) {
            Ok(a) => a.token().map(str::to_string),
            Err(e) => return e.into_response(),
        };
        let req = Request::from_parts(parts, body);
        let Some(token) = token else { return next.run(req).await };
        let Some(tag) = crate::quick::home_of(&token) else { return next.run(req).await };
        if tag == instance_tag(&inner.me) {
            return next.run(req).await;
        }
        let home = subject_of_tag(tag);
        if req.uri().path() == "/api/queue/ws" {
            return relay_socket(inner.clone(), home, token, req).await;
        }
        (home, req)
    };
    forward_http(inner, &home, req, join.then_some(next)).await
}

/// Sends an API request to the instance at `home` and answers what it answered; when it does
/// not answer, runs it here through `local` if given (else 503).
async fn forward_http(inner: &Inner, home: &str, req: Request, local: Option<Next>) -> Response {
    let (parts, body) = req.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, limits::MAX_BODY_BYTES).await else {
        return ApiError::BodyTooLarge(limits::MAX_BODY_BYTES).into_response();
    };
    let header_text = |name| parts.headers.get(name).and_then(|v: &HeaderValue| v.to_str().ok()).map(str::to_string);
    let ask = Ask::Http {
        table: "queue".into(),
        method: parts.method.to_string(),
        uri: parts.uri.path_and_query().map(|p| p.to_string()).unwrap_or_default(),
        authorization: header_text(header::AUTHORIZATION),
        content_type: header_text(header::CONTENT_TYPE),
        prefer: None,
        person: PERSON_HEADERS
            .iter()
            .filter_map(|name| header_text(name.clone()).map(|v| (name.as_str().to_string(), v)))
            .collect(),
        body: String::from_utf8_lossy(&bytes).into_owned(),
        client: crate::client::client_ip(&parts.extensions),
        sent_ms: now_ms(),
    };
    let answer = send(inner, home, &ask).await;
    crate::metrics::forward(answer.is_some());
    match (answer, local) {
        (Some(answer @ Answer::Http { .. }), _) => http_response(answer),
        // The queue instance did not answer (it stopped, or the bus is down): the person waits
        // here rather than not at all.
        (_, Some(next)) => next.run(Request::from_parts(parts, Body::from(bytes))).await,
        (_, None) => unavailable(),
    }
}

/// `GET /api/arenas` in a cluster: this instance's arenas and every other live instance's, in
/// the order one instance lists them (running first, the longest to go first).
async fn list_arenas(inner: &Inner, req: Request, next: Next) -> Response {
    let own = next.run(req).await;
    if !own.status().is_success() {
        return own;
    }
    let Ok(bytes) = axum::body::to_bytes(own.into_body(), limits::MAX_BODY_BYTES * 64).await else {
        return ApiError::Internal("the list of arenas".into()).into_response();
    };
    let mut all: Vec<serde_json::Value> = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|v| v["arenas"].as_array().cloned())
        .unwrap_or_default();
    let others = inner.lobby.instances(std::time::Instant::now());
    let asks = others.iter().filter(|o| **o != inner.me).map(|o| {
        let ask = Ask::Http {
            table: "arenas".into(),
            method: "GET".into(),
            uri: "/api/arenas".into(),
            authorization: None,
            content_type: None,
            prefer: None,
            person: Vec::new(),
            body: String::new(),
            client: None,
            sent_ms: now_ms(),
        };
        let subject = instance_subject(o);
        async move { send(inner, &subject, &ask).await }
    });
    for answer in futures_util::future::join_all(asks).await {
        if let Some(Answer::Http { status: 200, body }) = answer {
            let listed = serde_json::from_str::<serde_json::Value>(&body).ok();
            all.extend(listed.and_then(|v| v["arenas"].as_array().cloned()).unwrap_or_default());
        }
    }
    all.sort_by(|a, b| {
        let finished = |v: &serde_json::Value| v["finished"].as_bool().unwrap_or(false);
        let left = |v: &serde_json::Value| v["ends_in_ms"].as_u64().unwrap_or(0);
        finished(a).cmp(&finished(b)).then(left(b).cmp(&left(a)))
    });
    axum::Json(serde_json::json!({ "arenas": all })).into_response()
}

/// Where the ticket stands at its home (`open`), or that its relayed socket closed (`!open`).
async fn poll(inner: &Inner, home: &str, ticket: &str, open: bool) -> Option<(u16, String)> {
    match send(inner, home, &Ask::QueueRelay { ticket: ticket.to_string(), open }).await? {
        Answer::Http { status, body } => Some((status, body)),
        _ => None,
    }
}

/// The home's side of [`Ask::QueueRelay`].
pub(super) fn relayed(inner: &Inner, ticket: &str, open: bool) -> Answer {
    match inner.state.inner.quick.relay(ticket, open) {
        Ok(status) => Answer::Http { status: 200, body: serde_json::to_string(&status).unwrap_or_default() },
        Err(e) => http_answer(&ApiError::from(e)),
    }
}

/// `GET /api/queue/ws` for a ticket another instance (`home`, its subject) holds: served here
/// from the home's answers.
async fn relay_socket(inner: Arc<Inner>, home: String, ticket: String, req: Request) -> Response {
    let (mut parts, _) = req.into_parts();
    let ws = match WebSocketUpgrade::from_request_parts(&mut parts, &()).await {
        Ok(ws) => ws,
        Err(r) => return ApiError::WebSocketRequired { status: r.status(), reason: r.to_string() }.into_response(),
    };
    // Refused before the upgrade, as a plain 403, as the home's own socket is.
    let first = match poll(&inner, &home, &ticket, true).await {
        Some((200, body)) => body,
        Some((status, body)) => return http_response(Answer::Http { status, body }),
        None => return unavailable(),
    };
    ws.protocols([bearer::PROTOCOL])
        .max_message_size(limits::MAX_WS_MESSAGE_BYTES)
        .on_upgrade(move |socket| relay(inner, home, ticket, first, socket))
}

async fn relay(inner: Arc<Inner>, home: String, ticket: String, first: String, mut socket: WebSocket) {
    let left = serde_json::to_string(&QueueStatus::Left).unwrap_or_default();
    let mut shown = first.clone();
    let mut ok = socket.send(Message::Text(first.into())).await.is_ok() && shown != left;
    let mut tick = tokio::time::interval(RELAY_POLL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut unanswered = Duration::ZERO;
    while ok {
        tokio::select! {
            _ = tick.tick() => {
                let now = match poll(&inner, &home, &ticket, true).await {
                    Some((200, body)) => body,
                    // The home no longer knows the ticket: it is out of the queue.
                    Some(_) => left.clone(),
                    None => {
                        unanswered += RELAY_POLL;
                        // The home is gone (its tickets with it): the client joins again.
                        if unanswered < Duration::from_secs(3) {
                            continue;
                        }
                        left.clone()
                    }
                };
                unanswered = Duration::ZERO;
                if now != shown {
                    ok = socket.send(Message::Text(now.clone().into())).await.is_ok();
                    shown = now;
                }
                if shown == left {
                    break;
                }
            }
            msg = socket.recv() => match msg {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => {}
            },
        }
    }
    if shown != left {
        let _ = poll(&inner, &home, &ticket, false).await;
    }
}
