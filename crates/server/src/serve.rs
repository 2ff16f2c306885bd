//! Serving the app on a TCP listener: the one entry point the binary and the tests share.
//!
//! Every connection is HTTP/1.1 (WebSockets upgrade from it). What a public server needs beyond
//! the router:
//! - **A connection cap** ([`ServeConfig::max_connections`]). A connection counts from its accept
//!   until it closes, an upgraded WebSocket included. At the cap, a new connection sheds the
//!   oldest *idle* one (no request in progress, not a WebSocket: a client waiting to send, or a
//!   keep-alive connection between requests), else the oldest *slow* one (a request body still
//!   arriving after [`ServeConfig::slow_body`]), so neither idle sockets nor trickled bodies can
//!   lock people out; with nothing to shed, the newcomer gets `503 {"code":"server_busy"}` and is
//!   closed.
//! - **A cap per address** ([`ServeConfig::max_per_address`]; an IPv6 client counts by its /64):
//!   one address at its cap sheds its own oldest idle-or-slow connection, else is refused with
//!   `429 {"code":"too_many_connections"}`. So one address's sockets and slow bodies never take
//!   more than its share, and never make another address's request wait or fail.
//! - **A header timeout** ([`ServeConfig::header_timeout`]): a request's headers must arrive
//!   within it, counted from the connection's opening or the end of the previous answer, so it
//!   also bounds how long a keep-alive connection may sit idle.
//! - **A body idle timeout** ([`ServeConfig::body_timeout`]): a request body that stops arriving
//!   for this long is dropped; and **a body deadline** ([`ServeConfig::body_deadline`]): a body
//!   not whole this long after its headers is dropped however steadily it trickles.
//! - **The descriptor limit**: [`raise_fd_limit`] reads (and raises) it at start, and
//!   [`ServeConfig::fit_fd_limit`] fits both caps inside it; refusals in flight are bounded too.
//! - **Graceful shutdown**: once `shutdown` resolves, the listener closes, idle connections close,
//!   requests in progress finish (for up to [`ServeConfig::grace`]), WebSockets get close code
//!   1001, and every write queued in the store is committed before [`serve`] returns.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use axum::Router;
use hyper::body::{Body as _, Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify};
use tower::ServiceExt;
use tower_http::timeout::RequestBodyTimeoutLayer;

use crate::AppState;

/// File descriptors kept free under the process's limit for everything but client connections
/// (the database and its WAL, standard streams, a connection being shed while its replacement is
/// accepted).
pub const FD_RESERVE: u64 = 64;

/// Connection settings of [`serve`].
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Open connections at most (HTTP and WebSocket together).
    pub max_connections: usize,
    /// Open connections one client address (an IPv6 /64) may hold at most.
    pub max_per_address: usize,
    /// The longest a client may take to send a request's headers (and to start the next request
    /// on a kept-alive connection).
    pub header_timeout: Duration,
    /// The longest a request body may pause between two pieces.
    pub body_timeout: Duration,
    /// The longest a request body may take to arrive whole, counted from its headers.
    pub body_deadline: Duration,
    /// A request body still arriving after this long is slow: its connection may be shed to make
    /// room for a newcomer.
    pub slow_body: Duration,
    /// At shutdown, how long requests in progress may take to finish.
    pub grace: Duration,
    /// With other instances over NATS: requests for their tables are forwarded to them.
    pub cluster: Option<crate::cluster::Cluster>,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            max_connections: 4096,
            max_per_address: 256,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            body_deadline: Duration::from_secs(30),
            slow_body: Duration::from_secs(5),
            grace: Duration::from_secs(10),
            cluster: None,
        }
    }
}

impl ServeConfig {
    /// Lowers the connection caps to fit under a file-descriptor limit, keeping [`FD_RESERVE`]
    /// free (and at least one connection); the per-address cap never exceeds the whole cap.
    pub fn fit_fd_limit(mut self, fd_limit: u64) -> ServeConfig {
        let room = fd_limit.saturating_sub(FD_RESERVE).max(1);
        self.max_connections = self.max_connections.min(usize::try_from(room).unwrap_or(usize::MAX)).max(1);
        self.max_per_address = self.max_per_address.clamp(1, self.max_connections);
        self
    }
}

/// Raises the soft limit on open files to the hard limit; answers the limit now in force (the
/// soft one, unchanged if it could not be raised). `None` where the platform has no such limit.
pub fn raise_fd_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
        let lim = getrlimit(Resource::Nofile);
        if let Some(hard) = lim.maximum {
            if lim.current.is_none_or(|soft| soft < hard) {
                let raised = Rlimit { current: Some(hard), maximum: Some(hard) };
                if setrlimit(Resource::Nofile, raised).is_ok() {
                    return Some(hard);
                }
            }
        }
        lim.current.or(Some(u64::MAX))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Serves the app with the default [`ServeConfig`] until `shutdown` resolves, then shuts down
/// gracefully (see the module documentation).
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send,
) -> std::io::Result<()> {
    serve_with(listener, state, ServeConfig::default(), shutdown).await
}

/// [`serve`] with explicit connection settings.
pub async fn serve_with(
    listener: TcpListener,
    state: AppState,
    config: ServeConfig,
    shutdown: impl Future<Output = ()> + Send,
) -> std::io::Result<()> {
    let mut router = crate::app(state.clone());
    if let Some(cluster) = &config.cluster {
        router = cluster.route(router);
    }
    let router = router.layer(RequestBodyTimeoutLayer::new(config.body_timeout));
    let conns = Arc::new(Conns::default());
    let refusing = Arc::new(AtomicUsize::new(0));
    let limits = Limits {
        max: config.max_connections.max(1),
        per_address: config.max_per_address.clamp(1, config.max_connections.max(1)),
        slow_body: config.slow_body,
    };
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(config.header_timeout);
    tokio::pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of descriptors (or a connection reset before its accept): the cap
                    // should prevent the first; pause rather than spin either way.
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        // Small pushes must go out at once: Nagle would hold them behind unacknowledged data.
        let _ = tcp.set_nodelay(true);
        let guard = match conns.admit(address_key(peer.ip()), &limits, Instant::now()) {
            Ok(guard) => guard,
            Err(refusal) => {
                // Each refusal in flight holds a descriptor for up to a second: past half the
                // reserve, close at once instead of answering.
                if refusing.fetch_add(1, Ordering::AcqRel) < (FD_RESERVE / 2) as usize {
                    let refusing = refusing.clone();
                    tokio::spawn(async move {
                        refuse(tcp, refusal).await;
                        refusing.fetch_sub(1, Ordering::AcqRel);
                    });
                } else {
                    refusing.fetch_sub(1, Ordering::AcqRel);
                    drop(tcp);
                }
                continue;
            }
        };
        let slot = ConnSlot { guard: Arc::new(guard), stop: stop_rx.clone() };
        tokio::spawn(connection(tcp, peer, router.clone(), http.clone(), slot, config.body_deadline));
    }
    drop(listener);
    let _ = stop_tx.send(true);
    conns.wait_empty(config.grace).await;
    state.drain().await;
    Ok(())
}

/// One connection: its requests through the router, until it closes, is shed, or the server
/// stops.
async fn connection(
    tcp: TcpStream,
    peer: SocketAddr,
    router: Router,
    http: hyper::server::conn::http1::Builder,
    slot: ConnSlot,
    body_deadline: Duration,
) {
    let conn = slot.guard.conn.clone();
    let mut stop = slot.stop.clone();
    let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
        let busy = slot.busy();
        req.extensions_mut().insert(ConnectInfo(peer));
        req.extensions_mut().insert(slot.clone());
        let router = router.clone();
        let conn = slot.guard.conn.clone();
        async move {
            let req = req.map(|body| Body::new(DeadlineBody::new(body, body_deadline, conn)));
            let answer = router.oneshot(req).await;
            drop(busy);
            answer
        }
    });
    let served = http.serve_connection(TokioIo::new(tcp), service).with_upgrades();
    tokio::pin!(served);
    let mut closing = false;
    loop {
        tokio::select! {
            _ = served.as_mut() => break,
            _ = conn.shed.notified(), if !closing => {
                // A slow body would hold a graceful close open: such a connection is cut.
                if conn.receiving().is_some() {
                    break;
                }
                served.as_mut().graceful_shutdown();
                closing = true;
            }
            _ = stop.wait_for(|s| *s), if !closing => {
                served.as_mut().graceful_shutdown();
                closing = true;
            }
        }
    }
}

/// Why a connection was not admitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    /// The server is at its cap with nothing idle or slow to shed.
    Busy,
    /// The client's address is at its own cap with nothing of its own to shed.
    Address,
}

/// Answers a connection that was not admitted, and closes it.
async fn refuse(mut tcp: TcpStream, refusal: Refusal) {
    let (status, body) = match refusal {
        Refusal::Busy => (
            "503 Service Unavailable",
            r#"{"code":"server_busy","message":"the server has as many connections as it may; try again shortly"}"#,
        ),
        Refusal::Address => (
            "429 Too Many Requests",
            r#"{"code":"too_many_connections","message":"this address has as many connections open as it may; close one and try again"}"#,
        ),
    };
    let answer = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = tcp.write_all(answer.as_bytes()).await;
        let _ = tcp.shutdown().await;
        // Read what the client sent until it closes: closing with unread data would reset the
        // connection, and the client could lose the answer.
        let mut sink = [0u8; 1024];
        while matches!(tcp.read(&mut sink).await, Ok(n) if n > 0) {}
    })
    .await;
}

/// The address a connection counts under for [`ServeConfig::max_per_address`]: an IPv4 address
/// as it is (an IPv4-mapped IPv6 one too), an IPv6 address by its /64, since one IPv6 client
/// usually holds a whole /64.
fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut s = v6.segments();
                s[4..].fill(0);
                IpAddr::V6(s.into())
            }
        },
    }
}

/// The caps [`Conns::admit`] holds to.
struct Limits {
    max: usize,
    per_address: usize,
    slow_body: Duration,
}

/// One open connection as the cap sees it.
struct Conn {
    /// Its client's address (as [`address_key`] gives it).
    addr: IpAddr,
    /// Requests in progress, and an upgraded WebSocket while it is open.
    busy: AtomicUsize,
    /// Since when a request body has been arriving, while one is.
    body_since: Mutex<Option<Instant>>,
    /// Chosen to be shed: closes once idle (at once if its body is slow), and no longer counts
    /// toward the caps.
    shed_chosen: AtomicBool,
    shed: Notify,
}

impl Conn {
    fn new(addr: IpAddr) -> Conn {
        Conn {
            addr,
            busy: AtomicUsize::new(0),
            body_since: Mutex::new(None),
            shed_chosen: AtomicBool::new(false),
            shed: Notify::new(),
        }
    }

    /// Since when a request body has been arriving, if one is.
    fn receiving(&self) -> Option<Instant> {
        *self.body_since.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn set_receiving(&self, since: Option<Instant>) {
        *self.body_since.lock().unwrap_or_else(|p| p.into_inner()) = since;
    }

    fn idle(&self) -> bool {
        self.busy.load(Ordering::Acquire) == 0
    }

    /// Busy only with a request body that has been arriving for at least `slow_after`.
    fn slow(&self, now: Instant, slow_after: Duration) -> bool {
        self.receiving().is_some_and(|since| now.saturating_duration_since(since) >= slow_after)
    }
}

#[derive(Default)]
struct Conns {
    inner: Mutex<ConnsInner>,
    emptied: Notify,
}

#[derive(Default)]
struct ConnsInner {
    next: u64,
    /// Open connections by accept order (oldest first).
    open: BTreeMap<u64, Arc<Conn>>,
    /// Open connections not chosen to be shed.
    live: usize,
    /// Of those, how many each address holds (addresses holding none are absent).
    per_address: HashMap<IpAddr, usize>,
}

impl ConnsInner {
    /// The oldest live connection (of `addr` only, if given) that is idle, else the oldest that
    /// is slow.
    fn victim(&self, addr: Option<IpAddr>, limits: &Limits, now: Instant) -> Option<Arc<Conn>> {
        let candidates = || {
            self.open.values().filter(|k| !k.shed_chosen.load(Ordering::Acquire) && addr.is_none_or(|a| k.addr == a))
        };
        candidates().find(|k| k.idle()).or_else(|| candidates().find(|k| k.slow(now, limits.slow_body))).cloned()
    }

    fn shed(&mut self, conn: &Conn) {
        conn.shed_chosen.store(true, Ordering::Release);
        conn.shed.notify_one();
        self.forget_live(conn.addr);
    }

    fn forget_live(&mut self, addr: IpAddr) {
        self.live -= 1;
        if let Some(n) = self.per_address.get_mut(&addr) {
            *n -= 1;
            if *n == 0 {
                self.per_address.remove(&addr);
            }
        }
    }
}

impl Conns {
    /// Registers a new connection from `addr` if the caps allow, shedding to make room: first
    /// the address's own oldest idle-or-slow connection when the address is at its cap, then
    /// the server's oldest idle (else slow) one when the server is at its cap.
    fn admit(self: &Arc<Self>, addr: IpAddr, limits: &Limits, now: Instant) -> Result<ConnGuard, Refusal> {
        let mut c = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if c.per_address.get(&addr).copied().unwrap_or(0) >= limits.per_address {
            let victim = c.victim(Some(addr), limits, now).ok_or(Refusal::Address)?;
            c.shed(&victim);
        }
        if c.live >= limits.max {
            let victim = c.victim(None, limits, now).ok_or(Refusal::Busy)?;
            c.shed(&victim);
        }
        let id = c.next;
        c.next += 1;
        let conn = Arc::new(Conn::new(addr));
        c.open.insert(id, conn.clone());
        c.live += 1;
        *c.per_address.entry(addr).or_insert(0) += 1;
        Ok(ConnGuard { id, conn, conns: self.clone() })
    }

    /// Waits until every connection has closed, or `limit` has passed.
    async fn wait_empty(&self, limit: Duration) {
        let _ = tokio::time::timeout(limit, async {
            loop {
                let emptied = self.emptied.notified();
                tokio::pin!(emptied);
                emptied.as_mut().enable();
                if self.inner.lock().unwrap_or_else(|p| p.into_inner()).open.is_empty() {
                    return;
                }
                emptied.await;
            }
        })
        .await;
    }
}

/// Holds a connection's place under the cap until the connection (and its WebSocket, if it
/// upgraded) is gone.
struct ConnGuard {
    id: u64,
    conn: Arc<Conn>,
    conns: Arc<Conns>,
}

impl Drop for ConnGuard {
    fn drop(&mut self) {
        let mut c = self.conns.inner.lock().unwrap_or_else(|p| p.into_inner());
        if c.open.remove(&self.id).is_some() && !self.conn.shed_chosen.load(Ordering::Acquire) {
            c.forget_live(self.conn.addr);
        }
        if c.open.is_empty() {
            self.conns.emptied.notify_waiters();
        }
    }
}

/// The body deadline's refusal, as the handler's body extractor sees it.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive whole in time")]
struct BodyTooSlow;

/// A request body with a deadline for the whole of it; while it arrives, its connection is
/// marked as receiving (see [`Conn::slow`]).
struct DeadlineBody {
    inner: Incoming,
    deadline: Pin<Box<tokio::time::Sleep>>,
    conn: Arc<Conn>,
    receiving: bool,
}

impl DeadlineBody {
    fn new(inner: Incoming, limit: Duration, conn: Arc<Conn>) -> DeadlineBody {
        let receiving = !inner.is_end_stream();
        if receiving {
            conn.set_receiving(Some(Instant::now()));
        }
        DeadlineBody { inner, deadline: Box::pin(tokio::time::sleep(limit)), conn, receiving }
    }

    fn done(&mut self) {
        if std::mem::take(&mut self.receiving) {
            self.conn.set_receiving(None);
        }
    }
}

impl Drop for DeadlineBody {
    fn drop(&mut self) {
        self.done();
    }
}

impl hyper::body::Body for DeadlineBody {
    type Data = hyper::body::Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = &mut *self;
        if this.receiving && this.deadline.as_mut().poll(cx).is_ready() {
            this.done();
            return Poll::Ready(Some(Err(Box::new(BodyTooSlow))));
        }
        let polled = Pin::new(&mut this.inner).poll_frame(cx);
        match &polled {
            Poll::Ready(None) | Poll::Ready(Some(Err(_))) => this.done(),
            Poll::Ready(Some(Ok(_))) if this.inner.is_end_stream() => this.done(),
            _ => {}
        }
        polled.map(|frame| frame.map(|r| r.map_err(axum::BoxError::from)))
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// A request's connection, in the request's extensions: a WebSocket keeps it to hold the
/// connection's place and to hear of shutdown.
#[derive(Clone)]
pub(crate) struct ConnSlot {
    guard: Arc<ConnGuard>,
    stop: watch::Receiver<bool>,
}

impl ConnSlot {
    /// Marks the connection busy (not to be shed) while the answer lives.
    pub(crate) fn busy(&self) -> Busy {
        self.guard.conn.busy.fetch_add(1, Ordering::AcqRel);
        Busy(self.guard.clone())
    }

    /// Resolves when the server begins shutting down.
    pub(crate) async fn stopping(&mut self) {
        let _ = self.stop.wait_for(|s| *s).await;
    }
}

/// Resolves when the server begins shutting down; never for a socket served without a slot
/// (the router's tests). A WebSocket session makes this future once, not once per message.
pub(crate) async fn stopping(slot: Option<ConnSlot>) {
    match slot {
        Some(mut s) => s.stopping().await,
        None => std::future::pending().await,
    }
}

pub(crate) struct Busy(Arc<ConnGuard>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.conn.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

impl AppState {
    /// Waits until every write queued in the store so far is committed.
    pub async fn drain(&self) {
        // The store's writer answers a read only after committing every write queued before it.
        let _ = self.store().load("").await;
    }
}
