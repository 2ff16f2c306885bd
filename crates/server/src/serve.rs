//! Serving the app on a TCP listener: the one entry point the binary and the tests share.
//!
//! Every connection is HTTP/1.1 (WebSockets upgrade from it). What a public server needs beyond
//! the router:
//! - **A connection cap** ([`ServeConfig::max_connections`]). A connection counts from its accept
//!   until it closes, an upgraded WebSocket included. At the cap, a new connection sheds the
//!   oldest *idle* one (no request in progress, not a WebSocket: a client waiting to send, or a
//!   keep-alive connection between requests), so idle sockets cannot lock people out; with no
//!   idle connection to shed, the newcomer gets `503 {"code":"server_busy"}` and is closed.
//! - **A header timeout** ([`ServeConfig::header_timeout`]): a request's headers must arrive
//!   within it, counted from the connection's opening or the end of the previous answer, so it
//!   also bounds how long a keep-alive connection may sit idle.
//! - **A body idle timeout** ([`ServeConfig::body_timeout`]): a request body that stops arriving
//!   for this long is dropped (a slow body cannot hold a handler).
//! - **Graceful shutdown**: once `shutdown` resolves, the listener closes, idle connections close,
//!   requests in progress finish (for up to [`ServeConfig::grace`]), WebSockets get close code
//!   1001, and every write queued in the store is committed before [`serve`] returns.

use std::collections::BTreeMap;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use axum::Router;
use hyper::body::Incoming;
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
    /// The longest a client may take to send a request's headers (and to start the next request
    /// on a kept-alive connection).
    pub header_timeout: Duration,
    /// The longest a request body may pause between two pieces.
    pub body_timeout: Duration,
    /// At shutdown, how long requests in progress may take to finish.
    pub grace: Duration,
    /// With other instances over NATS: requests for their tables are forwarded to them.
    pub cluster: Option<crate::cluster::Cluster>,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            max_connections: 4096,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            grace: Duration::from_secs(10),
            cluster: None,
        }
    }
}

impl ServeConfig {
    /// Lowers the connection cap to fit under a file-descriptor limit, keeping [`FD_RESERVE`]
    /// free (and at least one connection).
    pub fn fit_fd_limit(mut self, fd_limit: u64) -> ServeConfig {
        let room = fd_limit.saturating_sub(FD_RESERVE).max(1);
        self.max_connections = self.max_connections.min(usize::try_from(room).unwrap_or(usize::MAX)).max(1);
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
        let Some(guard) = conns.admit(config.max_connections) else {
            tokio::spawn(refuse_busy(tcp));
            continue;
        };
        let slot = ConnSlot { guard: Arc::new(guard), stop: stop_rx.clone() };
        tokio::spawn(connection(tcp, peer, router.clone(), http.clone(), slot));
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
) {
    let conn = slot.guard.conn.clone();
    let mut stop = slot.stop.clone();
    let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
        let busy = slot.busy();
        req.extensions_mut().insert(ConnectInfo(peer));
        req.extensions_mut().insert(slot.clone());
        let router = router.clone();
        async move {
            let answer = router.oneshot(req.map(Body::new)).await;
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

/// Answers a connection over the cap and closes it.
async fn refuse_busy(mut tcp: TcpStream) {
    const BODY: &str =
        r#"{"code":"server_busy","message":"the server has as many connections as it may; try again shortly"}"#;
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{BODY}",
        BODY.len()
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

/// One open connection as the cap sees it.
#[derive(Default)]
struct Conn {
    /// Requests in progress, and an upgraded WebSocket while it is open.
    busy: AtomicUsize,
    /// Chosen to be shed: closes once idle, and no longer counts toward the cap.
    shed_chosen: AtomicBool,
    shed: Notify,
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
}

impl Conns {
    /// Registers a new connection if the cap allows, shedding the oldest idle one to make room.
    fn admit(self: &Arc<Self>, cap: usize) -> Option<ConnGuard> {
        let mut c = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if c.live >= cap {
            let idle = c
                .open
                .values()
                .find(|k| !k.shed_chosen.load(Ordering::Acquire) && k.busy.load(Ordering::Acquire) == 0)?;
            idle.shed_chosen.store(true, Ordering::Release);
            idle.shed.notify_one();
            c.live -= 1;
        }
        let id = c.next;
        c.next += 1;
        let conn = Arc::new(Conn::default());
        c.open.insert(id, conn.clone());
        c.live += 1;
        Some(ConnGuard { id, conn, conns: self.clone() })
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
            c.live -= 1;
        }
        if c.open.is_empty() {
            self.conns.emptied.notify_waiters();
        }
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
