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
mod queue;
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

use crate::host::Hosting;
use crate::{ApiError, AppState, TableError};
use wire::{instance_subject, is_table_id, now_ms, Answer, Ask};

/// How long one forwarded request may take before its owner counts as not answering.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(2);
/// A forwarded API request older than this when it reaches the owner is not run: its asker
/// gives up at `REQUEST_TIMEOUT`, and the rest is room for the two machines' clocks to differ.
const RUN_WITHIN: Duration = Duration::from_secs(1);
/// Between two tries while a table's owner is gone.
const RETRY_PAUSE: Duration = Duration::from_millis(100);
/// The headers a forwarded request carries for the person asking (see `wire::Ask::Http`).
const PERSON_HEADERS: [header::HeaderName; 4] =
    [header::COOKIE, header::HOST, header::ORIGIN, header::HeaderName::from_static("sec-fetch-site")];
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
    /// Told when the instance leaves the cluster (`Cluster::leave`): the task answering
    /// requests unsubscribes, answers what already came, and says so on `drained`.
    leaving: Arc<tokio::sync::Notify>,
    drained: Arc<tokio::sync::Notify>,
    /// Requests from other instances being answered now.
    answering: std::sync::atomic::AtomicUsize,
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
        let nats = connect_nats(url, instance).await?;
        let subscribe = |e: async_nats::SubscribeError| ClusterError::Subscribe(e.to_string());
        let requests = nats.subscribe(instance_subject(instance)).await.map_err(subscribe)?;
        let listings = nats.subscribe(lobby::LOBBY_SUBJECT).await.map_err(subscribe)?;
        let handovers = nats.subscribe(HANDOVER_SUBJECT).await.map_err(subscribe)?;
        state.inner.quick.set_home(wire::instance_tag(instance));
        let inner = Arc::new(Inner {
            nats,
            me: instance.to_string(),
            state,
            app: OnceLock::new(),
            owners: Mutex::new(HashMap::new()),
            watches: watch::Watches::default(),
            relays: relay::Relays::default(),
            lobby: lobby::Lobby::default(),
            leaving: Arc::new(tokio::sync::Notify::new()),
            drained: Arc::new(tokio::sync::Notify::new()),
            answering: std::sync::atomic::AtomicUsize::new(0),
        });
        let (leaving, drained) = (inner.leaving.clone(), inner.drained.clone());
        tokio::spawn(answer_requests(Arc::downgrade(&inner), requests, leaving, drained));
        tokio::spawn(renew_relays(Arc::downgrade(&inner)));
        tokio::spawn(lobby::publish(Arc::downgrade(&inner)));
        tokio::spawn(lobby::listen(Arc::downgrade(&inner), listings));
        tokio::spawn(hear_handovers(Arc::downgrade(&inner), handovers));
        Ok(Cluster { inner })
    }

    /// This instance is stopping and has ended its leases (`Tables::hand_over`; `handed` when it
    /// held any): tells every other instance to look for tables to adopt now, rather than at its
    /// next scan, and the viewers relayed from its tables that they moved; then stops taking
    /// requests (an asker gets NATS "no responders" at once and looks the owner up again) and
    /// answers those already here. Before, a request that reached the instance as it exited got
    /// no answer, and its asker waited out the 2 s request time-out: a table stood still 2.1 s
    /// in a rolling restart (the fault harness).
    pub async fn leave(&self, handed: bool) {
        if handed {
            self.handed_over().await;
        }
        let inner = &self.inner;
        inner.leaving.notify_one();
        let _ = tokio::time::timeout(Duration::from_millis(500), async {
            inner.drained.notified().await;
            while inner.answering.load(std::sync::atomic::Ordering::Acquire) > 0 {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
        .await;
        let _ = tokio::time::timeout(Duration::from_secs(1), inner.nats.flush()).await;
    }

    async fn handed_over(&self) {
        let inner = &self.inner;
        let sent = inner.nats.publish(HANDOVER_SUBJECT, inner.me.clone().into()).await;
        // The viewers relayed through other instances are told the table moved now, so they
        // connect again to its new owner at once; before, each relay found out at its next
        // renewal (up to a second) or when this process was gone, and its table stood still
        // that long after the adoption.
        let moved = wire::Pushed::Close {
            code: crate::ws::moved_frame().code,
            reason: crate::ws::moved_frame().reason.to_string(),
        };
        let moved = Bytes::from(moved.encode());
        for subject in inner.watches.end_all() {
            let _ = inner.nats.publish(subject, moved.clone()).await;
        }
        // Out before the process ends (a flush waits for the server to have it).
        let flushed = tokio::time::timeout(Duration::from_secs(1), inner.nats.flush()).await;
        if sent.is_err() || !matches!(flushed, Ok(Ok(()))) {
            tracing::warn!("telling the other instances to adopt now failed: they adopt at their next scan");
        }
    }

    /// The app with forwarding in front: requests about tables another instance holds go there.
    pub fn route(&self, app: Router) -> Router {
        let _ = self.inner.app.set(app.clone());
        app.layer(axum::middleware::from_fn_with_state(self.clone(), forward))
    }
}

/// How long connecting to NATS may take, the server's greeting included: a port that accepts
/// TCP and never answers (not a NATS server, or one hung) is reported, not waited on forever.
pub const NATS_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Connects to the NATS server at `url` within [`NATS_CONNECT_TIMEOUT`], and keeps
/// `/metrics`' `tabletop_nats_up` told of the connection's state from then on.
pub(crate) async fn connect_nats(url: &str, instance: &str) -> Result<async_nats::Client, ClusterError> {
    let connect = |detail: String| ClusterError::Connect { url: url.to_string(), detail };
    let options = async_nats::ConnectOptions::new()
        .name(instance)
        .connection_timeout(NATS_CONNECT_TIMEOUT)
        .request_timeout(Some(REQUEST_TIMEOUT))
        .event_callback(|event| async move {
            match event {
                async_nats::Event::Connected => crate::metrics::nats_up(true),
                async_nats::Event::Disconnected => crate::metrics::nats_up(false),
                _ => {}
            }
        });
    let secs = NATS_CONNECT_TIMEOUT.as_secs();
    let nats = tokio::time::timeout(NATS_CONNECT_TIMEOUT, options.connect(url))
        .await
        .map_err(|_| {
            connect(format!("no answer within {secs} s (the port accepts connections but does not speak NATS)"))
        })?
        .map_err(|e| connect(e.to_string()))?;
    crate::metrics::nats_up(true);
    Ok(nats)
}

impl Inner {
    /// The table, when this instance holds it.
    fn held(&self, id: &str) -> Option<Arc<dyn Hosting>> {
        let t = self.state.in_memory(id)?;
        self.state.store().holds(id).then_some(t)
    }

    async fn place(&self, id: &str) -> Place {
        if self.held(id).is_some() {
            return Place::Here;
        }
        let known = self.owners.lock().ok().and_then(|o| o.get(id).cloned());
        let owner = match known {
            Some(o) => Some(o),
            None => match crate::host::store_read(self.state.store().holder(id)).await {
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
                Err(e) => {
                    tracing::warn!(table, owner = %owner, error = %e, "a request to the table's owner got no answer");
                    again
                }
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
        let Ask::Http { table, uri, sent_ms, .. } = &ask else {
            return Answer::Done;
        };
        if now_ms().saturating_sub(*sent_ms) > RUN_WITHIN.as_millis() as u64 {
            tracing::warn!(table, "a forwarded request arrived too late to be run");
            return http_answer(&ApiError::from(TableError::OwnerUnavailable(table.clone())));
        }
        // The quick-match queue's requests are about a ticket, which its home answers (or refuses).
        if !queue::is_queue_path(uri) && self.held(table).is_none() {
            return Answer::NotHere;
        }
        let Some(app) = self.app.get() else { return Answer::NotHere };
        let req = match forwarded_request(ask) {
            Ok(req) => req,
            Err(e) => return http_answer(&e),
        };
        let Ok(resp) = app.clone().oneshot(req).await;
        let status = resp.status().as_u16();
        match axum::body::to_bytes(resp.into_body(), usize::MAX).await {
            Ok(b) => Answer::Http { status, body: String::from_utf8_lossy(&b).into_owned() },
            Err(e) => http_answer(&ApiError::Internal(e.to_string())),
        }
    }
}

/// A request another instance forwarded, as this instance's routes read it: its method, path,
/// the headers it carries for the person asking, and the client's address the asker read (so
/// every per-client limit here counts that client, not one "client" for all that is forwarded).
fn forwarded_request(ask: Ask) -> Result<Request, ApiError> {
    let Ask::Http { method, uri, authorization, content_type, prefer, person, client, body, .. } = ask else {
        return Err(ApiError::Internal("not a forwarded API request".into()));
    };
    let mut req = Request::new(Body::from(body));
    *req.method_mut() = Method::from_bytes(method.as_bytes()).unwrap_or(Method::GET);
    *req.uri_mut() = uri.parse().map_err(|_| ApiError::NoSuchRoute)?;
    let prefer = (header::HeaderName::from_static("prefer"), prefer);
    for (name, value) in [(header::AUTHORIZATION, authorization), (header::CONTENT_TYPE, content_type), prefer] {
        if let Some(v) = value.and_then(|v| HeaderValue::from_str(&v).ok()) {
            req.headers_mut().insert(name, v);
        }
    }
    for (name, value) in person {
        let name = header::HeaderName::from_bytes(name.as_bytes()).ok().filter(|n| PERSON_HEADERS.contains(n));
        if let (Some(name), Ok(v)) = (name, HeaderValue::from_str(&value)) {
            req.headers_mut().insert(name, v);
        }
    }
    if let Some(ip) = client {
        req.extensions_mut().insert(crate::client::ClientAddr(ip));
    }
    Ok(req)
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

/// The table a request is about: `/api/tables/{id}` and everything under it, and a Duel
/// game's routes (`/api/duel/{id}/...`, the page's words for its table's).
fn table_of(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/api/tables/").or_else(|| path.strip_prefix("/api/duel/"))?;
    let id = rest.split('/').next()?;
    (is_table_id(id) && id != "config").then_some(id)
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
    if req.method() == Method::GET && req.uri().path() == "/api/games/live" {
        let tables = inner.lobby.list(inner.own_listing(), Instant::now());
        return axum::Json(crate::api::live_games(tables)).into_response();
    }
    if queue::is_queue_path(req.uri().path()) {
        return queue::forward(inner, req, next).await;
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
        person: PERSON_HEADERS
            .iter()
            .filter_map(|name| header_text(name.clone()).map(|v| (name.as_str().to_string(), v)))
            .collect(),
        client: crate::client::client_ip(&parts.extensions),
        body: text,
        sent_ms: 0,
    };
    for owner in owners {
        let asked = inner.ask(&id, owner, ask.clone(), again).await;
        crate::metrics::forward(asked.is_ok());
        match asked {
            Ok(Sent { answer: Answer::NotHere, .. }) => continue,
            Ok(sent) => return http_response(sent.answer),
            Err(e) => return e.into_response(),
        }
    }
    next.run(Request::from_parts(parts, Body::from(bytes))).await
}

/// Where a draining instance says it has ended its leases (the payload: its name).
const HANDOVER_SUBJECT: &str = "tabletop.handover";

/// Looks for tables to adopt whenever another instance hands its tables over.
async fn hear_handovers(inner: std::sync::Weak<Inner>, mut handovers: Subscriber) {
    while let Some(msg) = handovers.next().await {
        let Some(inner) = inner.upgrade() else { return };
        if msg.payload.as_ref() != inner.me.as_bytes() {
            inner.state.tables().adopt_now();
        }
    }
}

/// Counts a request being answered while it is.
struct Answering<'a>(&'a std::sync::atomic::AtomicUsize);

impl Drop for Answering<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
    }
}

/// Answers the requests other instances send this one.
async fn answer_requests(
    inner: std::sync::Weak<Inner>,
    mut requests: Subscriber,
    leaving: Arc<tokio::sync::Notify>,
    drained: Arc<tokio::sync::Notify>,
) {
    let mut left = false;
    loop {
        let msg = if left {
            requests.next().await
        } else {
            tokio::select! {
                msg = requests.next() => msg,
                _ = leaving.notified() => {
                    // New requests find no responder; those already received are answered.
                    let _ = requests.unsubscribe().await;
                    left = true;
                    continue;
                }
            }
        };
        let Some(msg) = msg else {
            drained.notify_one();
            return;
        };
        let Some(inner) = inner.upgrade() else { return };
        inner.answering.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        tokio::spawn(async move {
            let _answered = Answering(&inner.answering);
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
                Ok(Ask::QueueRelay { ticket, open }) => queue::relayed(&inner, &ticket, open),
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
        // A Duel game is a table: its owner serves its routes.
        assert_eq!(super::table_of("/api/duel/0a1b/move"), Some("0a1b"));
        assert_eq!(super::table_of("/api/duel/config"), None);
        assert_eq!(super::table_of("/api/duel"), None);
    }
}

#[cfg(test)]
mod forwarded_tests {
    use axum::extract::FromRequestParts;

    use super::wire::Ask;

    fn ask(client: Option<std::net::IpAddr>) -> Ask {
        Ask::Http {
            table: "0a1b".into(),
            method: "POST".into(),
            uri: "/api/tables/0a1b/join".into(),
            authorization: None,
            content_type: Some("application/json".into()),
            prefer: None,
            // A header a client wrote: forwarded only when it is one of the person's.
            person: vec![("x-forwarded-for".into(), "198.51.100.7".into())],
            client,
            body: "{}".into(),
            sent_ms: 0,
        }
    }

    /// The client a route on the owner counts a request as.
    async fn counted(ask: Ask) -> String {
        let (mut parts, _) = super::forwarded_request(ask).expect("a request").into_parts();
        let Ok(client) = crate::client::Client::from_request_parts(&mut parts, &()).await;
        client.0
    }

    /// Before, a request another instance forwarded came to the owner's routes with no address:
    /// every client of every other instance counted there as one ("local"). The address the
    /// asker read travels with it (over the bus, which only instances reach; no client header
    /// sets it) and the owner counts that client, an IPv6 one by its /64 as everywhere.
    #[tokio::test]
    async fn a_forwarded_request_counts_the_client_the_asker_read() {
        let v4: std::net::IpAddr = "203.0.113.9".parse().expect("ip");
        let v6: std::net::IpAddr = "2001:db8:1:2:3:4:5:6".parse().expect("ip");
        let through_the_bus =
            |a: Ask| serde_json::from_slice::<Ask>(&serde_json::to_vec(&a).expect("json")).expect("read");
        assert_eq!(counted(through_the_bus(ask(Some(v4)))).await, "203.0.113.9");
        assert_eq!(counted(through_the_bus(ask(Some(v6)))).await, crate::conns::address_key(v6).to_string());
        // From an instance of before (no address sent): no address, never a header's.
        assert_eq!(counted(through_the_bus(ask(None))).await, "local");
        let old = r#"{"kind":"http","table":"0a1b","method":"GET","uri":"/api/tables/0a1b","authorization":null,
            "content_type":null,"body":"","sent_ms":0}"#;
        assert_eq!(counted(serde_json::from_str(old).expect("an old peer's ask")).await, "local");
    }
}

#[cfg(test)]
mod connect_tests {
    /// A port that accepts TCP and never answers is reported within the connect timeout, with
    /// its own reason, rather than hanging the start.
    #[tokio::test]
    async fn a_silent_nats_is_reported_in_bounded_time() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let held = tokio::spawn(async move {
            let mut open = Vec::new();
            while let Ok((s, _)) = listener.accept().await {
                open.push(s);
            }
        });
        let start = std::time::Instant::now();
        let err = super::connect_nats(&format!("nats://{addr}"), "test").await.map(|_| ()).expect_err("silent");
        let took = start.elapsed();
        assert!(took < super::NATS_CONNECT_TIMEOUT + std::time::Duration::from_secs(2), "{took:?}");
        let text = err.to_string();
        assert!(text.contains(&addr.to_string()) && text.contains("does not speak NATS"), "{text}");
        held.abort();
    }
}
