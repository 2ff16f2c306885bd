//! Serving the app on a TCP listener: the one entry point the binary and the tests share.
//!
//! Every connection is HTTP/1.1 (WebSockets upgrade from it). What a public server needs beyond
//! the router:
//! - **A connection cap** ([`ServeConfig::max_connections`]). A connection counts from its accept
//!   until it closes, an upgraded WebSocket included. At the cap, a new connection sheds the
//!   oldest *idle* one (no request in progress, not a WebSocket: a client waiting to send, or a
//!   keep-alive connection between requests), else the oldest *slow* one (a request body still
//!   arriving after [`ServeConfig::slow_body`]), so neither idle sockets nor trickled bodies can
//!   lock people out; else the idlest connection of the address holding the most, while it holds
//!   more than its share of the cap (so a few addresses' WebSockets cannot lock a fresh address
//!   out); with nothing to shed, the newcomer gets `503 {"code":"server_busy"}` and is closed.
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

use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;
use tower_http::timeout::RequestBodyTimeoutLayer;

use crate::conns::{address_key, ConnSlot, Conns, DeadlineBody, Limits, Refusal};
use crate::{ApiError, AppState};

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
    /// Reverse proxies whose `X-Forwarded-For` / `Forwarded` name the client (`crate::proxy`);
    /// their own connections count against the whole cap only (the clients behind them are
    /// counted by the proxy's limits and by every per-client limit here).
    pub trusted_proxies: crate::proxy::TrustedProxies,
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
            trusted_proxies: crate::proxy::TrustedProxies::default(),
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
    // A trusted proxy's connections carry many clients: only the whole cap holds them.
    let proxy_limits = Limits { per_address: limits.max, ..limits };
    let trusted = Arc::new(config.trusted_proxies.clone());
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
        let caps = if trusted.trusts(peer.ip()) { &proxy_limits } else { &limits };
        let guard = match conns.admit(address_key(peer.ip()), caps, Instant::now()) {
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
        let trusted = trusted.clone();
        tokio::spawn(connection(tcp, peer, router.clone(), http.clone(), slot, config.body_deadline, trusted));
    }
    drop(listener);
    let _ = stop_tx.send(true);
    conns.wait_empty(config.grace).await;
    state.drain().await;
    // Every acknowledged write is in: the leases end now, and the other instances are told to
    // adopt at once, so a rolling restart stops its tables for a moment, not a lease.
    let handed = state.tables().hand_over().await > 0;
    if let Some(cluster) = &config.cluster {
        cluster.leave(handed).await;
    }
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
    trusted: Arc<crate::proxy::TrustedProxies>,
) {
    let conn = slot.guard.conn.clone();
    let mut stop = slot.stop.clone();
    let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
        let busy = slot.busy();
        req.extensions_mut().insert(ConnectInfo(peer));
        let client = trusted.client(peer.ip(), req.headers());
        req.extensions_mut().insert(crate::client::ClientAddr(client));
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

/// Answers a connection that was not admitted, and closes it.
async fn refuse(mut tcp: TcpStream, refusal: Refusal) {
    let e = match refusal {
        Refusal::Busy => ApiError::ServerBusy,
        Refusal::Address => ApiError::TooManyConnections,
    };
    let status = e.status();
    let body = e.body();
    crate::metrics::refusal(body.code);
    let body = serde_json::to_string(&body).unwrap_or_default();
    let retry = e.retry_after().unwrap_or(1);
    let headers: String = crate::SECURITY_HEADERS.iter().map(|(name, value)| format!("{name}: {value}\r\n")).collect();
    let answer = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: {retry}\r\n{headers}connection: close\r\n\r\n{body}",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
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
