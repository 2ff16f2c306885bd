//! Several `tabletop serve` instances as one site: any instance serves any client.
//!
//! Each table has one owner at a time (its lease in PostgreSQL, see `store::postgres`); the
//! instances talk over NATS. A request about a table another instance owns is forwarded to that
//! owner (NATS request/reply on the owner's subject) and its answer relayed, so an action is
//! checked, stored and acknowledged by the owner alone. A WebSocket to a non-owner is relayed
//! (`relay`): the owner renders each change for that viewer as for one of its own sockets
//! (`watch`) and publishes it on a subject of that table and viewer, so a hidden card never
//! crosses the bus to an instance whose viewer may not see it. Delivery is at most once:
//! updates carry versions, and a viewer that misses one reads its state again.
//!
//! Who owns a table is read from its lease (and remembered until a forward fails). While an
//! owner is gone and its lease runs on, requests wait and retry until another instance adopts
//! the table, up to two leases and two seconds. An action whose answer is lost on the way is
//! sent again only when it names its version (taken at most once then); otherwise it answers
//! 503 `owner_unavailable` (the owner may have taken it).

mod lobby;
mod relay;
mod watch;
mod wire;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use async_nats::{RequestErrorKind, Subscriber};
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use futures_util::StreamExt;
use thiserror::Error;
use tower::ServiceExt;

use crate::tables::Table;
use crate::{ApiError, AppState, TableError};
use wire::{instance_subject, is_table_id, now_ms, Answer, Ask};

/// How long one forwarded request may take before its owner counts as not answering.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(2);
/// A forwarded API request older than this when it reaches the owner is not run: its asker
/// gives up at `REQUEST_TIMEOUT`, and the rest is room for the two machines' clocks to differ.
const RUN_WITHIN: Duration = Duration::from_secs(1);
/// Between two tries while a table's owner is gone.
const RETRY_PAUSE: Duration = Duration::from_millis(100);
/// Owners remembered at most; the memory is emptied past it (each is read again on use).
const MAX_REMEMBERED: usize = 100_000;

#[derive(Debug, Error)]
pub enum ClusterError {
    #[error("cluster mode needs a store shared by the instances (a PostgreSQL `--db`)")]
    NoSharedStore,
    #[error("connecting to NATS at {url}: {detail}")]
    Connect { url: String, detail: String },
    #[error("subscribing on NATS: {0}")]
    Subscribe(String),
}

/// This instance's place in the cluster; cheap to clone.
#[derive(Clone)]
pub struct Cluster {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster").field("instance", &self.inner.me).finish()
    }
}

struct Inner {
    nats: async_nats::Client,
    /// This instance's name: the one its store holds leases under.
    me: String,
    state: AppState,
    /// The app without the forwarding layer: what a forwarded request runs through here.
    app: OnceLock<Router>,
    /// Table id → the instance name its lease named when last asked.
    owners: Mutex<HashMap<String, String>>,
    watches: watch::Watches,
    relays: relay::Relays,
    lobby: lobby::Lobby,
}

/// An answer, and the subject of the instance that gave it.
struct Sent {
    answer: Answer,
    owner: String,
}

/// Where a table is served.
enum Place {
    /// This instance answers: it holds the table, or nobody does (a finished table, no table).
    Here,
    /// The instance with this subject holds it.
    There(String),
    /// Not held here, and the store cannot say who holds it (PostgreSQL away).
    Unknown,
}

impl Cluster {
    /// Joins the cluster on the NATS server at `url`, as `instance` (the name the state's store
    /// holds its leases under).
    pub async fn connect(url: &str, instance: &str, state: AppState) -> Result<Cluster, ClusterError> {
        if state.store().lease().is_none() {
            return Err(ClusterError::NoSharedStore);
        }
        let connect = |detail: String| ClusterError::Connect { url: url.to_string(), detail };
        let nats = async_nats::ConnectOptions::new()
            .name(instance)
            .connection_timeout(Duration::from_secs(5))
            .request_timeout(Some(REQUEST_TIMEOUT))
            .connect(url)
            .await
            .map_err(|e| connect(e.to_string()))?;
        let subscribe = |e: async_nats::SubscribeError| ClusterError::Subscribe(e.to_string());
        let requests = nats.subscribe(instance_subject(instance)).await.map_err(subscribe)?;
        let listings = nats.subscribe(lobby::LOBBY_SUBJECT).await.map_err(subscribe)?;
        let inner = Arc::new(Inner {
            nats,
            me: instance.to_string(),
            state,
            app: OnceLock::new(),
            owners: Mutex::new(HashMap::new()),
            watches: watch::Watches::default(),
            relays: relay::Relays::default(),
            lobby: lobby::Lobby::default(),
        });
        tokio::spawn(answer_requests(Arc::downgrade(&inner), requests));
        tokio::spawn(renew_relays(Arc::downgrade(&inner)));
        tokio::spawn(lobby::publish(Arc::downgrade(&inner)));
        tokio::spawn(lobby::listen(Arc::downgrade(&inner), listings));
        Ok(Cluster { inner })
    }

    /// The app with forwarding in front: requests about tables another instance holds go there.
    pub fn route(&self, app: Router) -> Router {
        let _ = self.inner.app.set(app.clone());
        app.layer(axum::middleware::from_fn_with_state(self.clone(), forward))
    }
}

impl Inner {
    /// The table, when this instance holds it.
    fn held(&self, id: &str) -> Option<Arc<Table>> {
        let t = self.state.in_memory(id).ok().flatten()?;
        self.state.store().holds(id).then_some(t)
    }

    async fn place(&self, id: &str) -> Place {
        if self.held(id).is_some() {
            return Place::Here;
        }
        let known = self.owners.lock().ok().and_then(|o| o.get(id).cloned());
        let owner = match known {
            Some(o) => Some(o),
            None => match crate::tables::store_read(self.state.store().holder(id)).await {
                Ok(Some(o)) => {
                    if let Ok(mut owners) = self.owners.lock() {
                        if owners.len() >= MAX_REMEMBERED {
                            owners.clear();
                        }
                        owners.insert(id.to_string(), o.clone());
                    }
                    Some(o)
                }
                Ok(None) => None,
                // Unreadable, or no answer in time (PostgreSQL silent): the instances heard from
                // are asked in turn (see `forward`).
                Err(_) => return Place::Unknown,
            },
        };
        match owner {
            Some(o) if o != self.me => Place::There(instance_subject(&o)),
            _ => Place::Here,
        }
    }

    fn forget(&self, id: &str) {
        if let Ok(mut o) = self.owners.lock() {
            o.remove(id);
        }
    }

    /// Sends `ask` about `table` to its owner (first `owner`), following the table when it
    /// moves. Tries again while the owner is missing (no instance listens on its subject, or
    /// it says it does not hold the table) until the table has an owner that answers or the
    /// wait is over; on a time-out only when `again` (the request may be made twice). An
    /// answer `NotHere` means this instance holds the table now, or nobody does.
    async fn ask(&self, table: &str, mut owner: String, mut ask: Ask, again: bool) -> Result<Sent, ApiError> {
        let lease = self.state.store().lease().unwrap_or_default();
        let deadline = Instant::now() + lease * 2 + Duration::from_secs(2);
        let unavailable = || ApiError::from(TableError::OwnerUnavailable(table.to_string()));
        loop {
            if let Ask::Http { sent_ms, .. } = &mut ask {
                *sent_ms = now_ms();
            }
            let payload = Bytes::from(serde_json::to_vec(&ask).map_err(|e| ApiError::Internal(e.to_string()))?);
            let request = async_nats::Request::new().payload(payload).timeout(Some(REQUEST_TIMEOUT));
            let retry = match self.nats.send_request(owner.clone(), request).await {
                Ok(msg) => match serde_json::from_slice::<Answer>(&msg.payload) {
                    Ok(Answer::NotHere) => true,
                    Ok(answer) => return Ok(Sent { answer, owner }),
                    Err(e) => return Err(ApiError::Internal(format!("a malformed answer from another instance: {e}"))),
                },
                Err(e) if e.kind() == RequestErrorKind::NoResponders => true,
                Err(_) => again,
            };
            if !retry || Instant::now() >= deadline {
                return Err(unavailable());
            }
            self.forget(table);
            match self.place(table).await {
                Place::Here | Place::Unknown => return Ok(Sent { answer: Answer::NotHere, owner }),
                Place::There(o) if o != owner => owner = o,
                // Still the one that did not answer: its lease has not run out yet.
                Place::There(_) => tokio::time::sleep(RETRY_PAUSE).await,
            }
        }
    }

    /// Runs an API request forwarded by another instance through this instance's app.
    async fn run_http(&self, ask: Ask) -> Answer {
        let Ask::Http { table, method, uri, authorization, content_type, prefer, body, sent_ms } = ask else {
            return Answer::Done;
        };
        if now_ms().saturating_sub(sent_ms) > RUN_WITHIN.as_millis() as u64 {
            tracing::warn!(table, "a forwarded request arrived too late to be run");
            return http_answer(&ApiError::from(TableError::OwnerUnavailable(table)));
        }
        if self.held(&table).is_none() {
            return Answer::NotHere;
        }
        let Some(app) = self.app.get() else { return Answer::NotHere };
        let mut req = Request::new(Body::from(body));
        *req.method_mut() = Method::from_bytes(method.as_bytes()).unwrap_or(Method::GET);
        *req.uri_mut() = match uri.parse() {
            Ok(u) => u,
            Err(_) => return http_answer(&ApiError::NoSuchRoute),
        };
        let prefer = (header::HeaderName::from_static("prefer"), prefer);
        for (name, value) in [(header::AUTHORIZATION, authorization), (header::CONTENT_TYPE, content_type), prefer] {
            if let Some(v) = value.and_then(|v| HeaderValue::from_str(&v).ok()) {
                req.headers_mut().insert(name, v);
            }
        }
        let Ok(resp) = app.clone().oneshot(req).await;
        let status = resp.status().as_u16();
        match axum::body::to_bytes(resp.into_body(), usize::MAX).await {
            Ok(b) => Answer::Http { status, body: String::from_utf8_lossy(&b).into_owned() },
            Err(e) => http_answer(&ApiError::Internal(e.to_string())),
        }
    }
}

/// An API refusal as an answer over the bus.
fn http_answer(e: &ApiError) -> Answer {
    Answer::Http { status: e.status().as_u16(), body: serde_json::to_string(&e.body()).unwrap_or_default() }
}

/// An answer over the bus as the client's response.
fn http_response(answer: Answer) -> Response {
    match answer {
        Answer::Http { status, body } => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
            if body.is_empty() {
                return status.into_response();
            }
            (status, [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], body).into_response()
        }
        _ => ApiError::Internal("an unexpected answer from another instance".into()).into_response(),
    }
}

/// The table a request is about: `/api/tables/{id}` and everything under it.
fn table_of(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/api/tables/")?;
    let id = rest.split('/').next()?;
    is_table_id(id).then_some(id)
}

/// Whether a request's body names the version it was made at (an action's `version`): sent
/// twice, it is taken at most once (the second finds the version moved on and is refused
/// `409 stale_state`), so it may be sent again when its owner did not answer.
fn carries_version(body: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(body).is_ok_and(|v| v["version"].is_u64())
}

/// The forwarding layer.
async fn forward(State(cluster): State<Cluster>, req: Request, next: Next) -> Response {
    let inner = &cluster.inner;
    if req.method() == Method::GET && req.uri().path() == "/api/tables" {
        let tables = inner.lobby.list(inner.own_listing(), Instant::now());
        return axum::Json(crate::messages::TableList { tables }).into_response();
    }
    let Some(id) = table_of(req.uri().path()).map(str::to_string) else { return next.run(req).await };
    let owners = match inner.place(&id).await {
        Place::Here => return next.run(req).await,
        Place::There(owner) => vec![owner],
        // The store cannot say who holds the table (PostgreSQL away): the owner still serves
        // it while its lease runs, so every instance heard from is asked; only the holder
        // answers, the others say it is not theirs.
        Place::Unknown => inner.lobby.instances(Instant::now()).iter().map(|i| instance_subject(i)).collect(),
    };
    if req.uri().path().ends_with("/ws") {
        let mut req = req;
        for owner in owners {
            match relay::upgrade(inner, &id, owner, req).await {
                Ok(resp) => return resp,
                Err(back) => req = back,
            }
        }
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, crate::limits::MAX_BODY_BYTES).await else {
        return ApiError::BodyTooLarge(crate::limits::MAX_BODY_BYTES).into_response();
    };
    let Ok(text) = String::from_utf8(bytes.to_vec()) else {
        return ApiError::MalformedJson("the body is not UTF-8".into()).into_response();
    };
    let again = parts.method == Method::GET || carries_version(&text);
    let header_text = |name| parts.headers.get(name).and_then(|v: &HeaderValue| v.to_str().ok()).map(str::to_string);
    let ask = Ask::Http {
        table: id.clone(),
        method: parts.method.to_string(),
        uri: parts.uri.path_and_query().map(|p| p.to_string()).unwrap_or_default(),
        authorization: header_text(header::AUTHORIZATION),
        content_type: header_text(header::CONTENT_TYPE),
        prefer: header_text(header::HeaderName::from_static("prefer")),
        body: text,
        sent_ms: 0,
    };
    for owner in owners {
        match inner.ask(&id, owner, ask.clone(), again).await {
            Ok(Sent { answer: Answer::NotHere, .. }) => continue,
            Ok(sent) => return http_response(sent.answer),
            Err(e) => return e.into_response(),
        }
    }
    next.run(Request::from_parts(parts, Body::from(bytes))).await
}

/// Answers the requests other instances send this one.
async fn answer_requests(inner: std::sync::Weak<Inner>, mut requests: Subscriber) {
    while let Some(msg) = requests.next().await {
        let Some(inner) = inner.upgrade() else { return };
        tokio::spawn(async move {
            let answer = match serde_json::from_slice::<Ask>(&msg.payload) {
                Ok(ask @ Ask::Http { .. }) => inner.run_http(ask).await,
                Ok(Ask::Watch { table, token, watch }) => watch::open(&inner, &table, token.as_deref(), watch).await,
                Ok(Ask::Renew { watches }) => {
                    Answer::Unknown { watches: inner.watches.renew(watches, |t| inner.held(t).is_some()) }
                }
                Ok(Ask::Unwatch { watch }) => {
                    inner.watches.stop(&watch);
                    Answer::Done
                }
                Err(e) => {
                    tracing::warn!(error = %e, "a malformed request from another instance");
                    return;
                }
            };
            if let Some(reply) = msg.reply {
                let bytes = serde_json::to_vec(&answer).unwrap_or_default();
                let _ = inner.nats.publish(reply, bytes.into()).await;
            }
        });
    }
}

/// Tells each owner, every `RENEW_EVERY`, which of its viewers are still connected here; ends
/// the relays an owner no longer serves or that lost their owner.
async fn renew_relays(inner: std::sync::Weak<Inner>) {
    let mut tick = tokio::time::interval(watch::RENEW_EVERY);
    loop {
        tick.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        for (owner, watches) in inner.relays.by_owner() {
            let payload = serde_json::to_vec(&Ask::Renew { watches: watches.clone() }).unwrap_or_default();
            let request = async_nats::Request::new().payload(payload.into()).timeout(Some(REQUEST_TIMEOUT));
            let gone = match inner.nats.send_request(owner, request).await {
                Ok(msg) => match serde_json::from_slice::<Answer>(&msg.payload) {
                    Ok(Answer::Unknown { watches }) => watches,
                    _ => Vec::new(),
                },
                Err(_) => watches,
            };
            inner.relays.lose(&gone);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_a_table_s_routes_are_forwarded() {
        assert_eq!(super::table_of("/api/tables/0a1b/ws"), Some("0a1b"));
        assert_eq!(super::table_of("/api/tables/0a1b"), Some("0a1b"));
        assert_eq!(super::table_of("/api/tables"), None);
        assert_eq!(super::table_of("/api/tables/"), None);
        assert_eq!(super::table_of("/api/tables/a.b/actions"), None);
        assert_eq!(super::table_of("/api/duel/games/0a1b"), None);
    }
}
