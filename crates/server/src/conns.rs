//! The connections [`crate::serve`] holds, as its caps see them: each one's address, whether it
//! is idle, busy or slow (a request body still arriving), the choice of which to shed, and the
//! place a connection (or its WebSocket) holds until it closes. Kept apart from `serve`'s
//! accept loop so that the WebSocket code (here and in the cluster) names only this.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use hyper::body::{Body as _, Frame, Incoming, SizeHint};
use tokio::sync::{watch, Notify};

/// Why a connection was not admitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The server is at its cap with nothing idle or slow to shed.
    Busy,
    /// The client's address is at its own cap with nothing of its own to shed.
    Address,
}

/// The address a connection counts under for [`ServeConfig::max_per_address`]: an IPv4 address
/// as it is (an IPv4-mapped IPv6 one too), an IPv6 address by its /64, since one IPv6 client
/// usually holds a whole /64.
pub(crate) fn address_key(ip: IpAddr) -> IpAddr {
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
pub(crate) struct Limits {
    pub(crate) max: usize,
    pub(crate) per_address: usize,
    pub(crate) slow_body: Duration,
}

/// One open connection as the cap sees it.
pub(crate) struct Conn {
    /// Its client's address (as [`address_key`] gives it).
    addr: IpAddr,
    /// Requests in progress, and an upgraded WebSocket while it is open.
    busy: AtomicUsize,
    /// Since when a request body has been arriving, while one is.
    body_since: Mutex<Option<Instant>>,
    /// Chosen to be shed: closes once idle (at once if its body is slow), and no longer counts
    /// toward the caps.
    shed_chosen: AtomicBool,
    pub(crate) shed: Notify,
    /// When it last did something (a request began, a WebSocket message came in): the
    /// idlest of an address's busy connections is the one that did least lately.
    last_seen: Mutex<Instant>,
}

impl Conn {
    fn new(addr: IpAddr) -> Conn {
        Conn {
            addr,
            busy: AtomicUsize::new(0),
            body_since: Mutex::new(None),
            shed_chosen: AtomicBool::new(false),
            shed: Notify::new(),
            last_seen: Mutex::new(Instant::now()),
        }
    }

    /// Notes that the connection did something now.
    pub(crate) fn seen(&self) {
        *self.last_seen.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
    }

    fn last_seen(&self) -> Instant {
        *self.last_seen.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether it was chosen to be shed.
    pub(crate) fn shed_chosen(&self) -> bool {
        self.shed_chosen.load(Ordering::Acquire)
    }

    /// Since when a request body has been arriving, if one is.
    pub(crate) fn receiving(&self) -> Option<Instant> {
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
pub(crate) struct Conns {
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

    /// At the whole cap with nothing idle or slow: the idlest connection (a body arriving
    /// first, the oldest such; else the one that did least lately, a WebSocket or a request)
    /// of the address holding the most, if it holds more than its share of the cap once
    /// `newcomer` counts among the addresses, and more than `newcomer` would. So a few
    /// addresses' plain WebSockets cannot lock a fresh address out; among addresses at their
    /// share, the newcomer is refused.
    fn fair_victim(&self, newcomer: IpAddr, limits: &Limits) -> Option<Arc<Conn>> {
        let addresses = self.per_address.len() + usize::from(!self.per_address.contains_key(&newcomer));
        let share = (limits.max / addresses.max(1)).max(1);
        let own = self.per_address.get(&newcomer).copied().unwrap_or(0);
        let (&top, &held) = self.per_address.iter().filter(|(a, _)| **a != newcomer).max_by_key(|(_, n)| **n)?;
        if held <= share || held <= own + 1 {
            return None;
        }
        let live = || self.open.values().filter(|k| !k.shed_chosen.load(Ordering::Acquire) && k.addr == top);
        live()
            .filter_map(|k| k.receiving().map(|since| (since, k)))
            .min_by_key(|(since, _)| *since)
            .map(|(_, k)| k)
            .or_else(|| live().min_by_key(|k| k.last_seen()))
            .cloned()
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
    pub(crate) fn admit(self: &Arc<Self>, addr: IpAddr, limits: &Limits, now: Instant) -> Result<ConnGuard, Refusal> {
        let mut c = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if c.per_address.get(&addr).copied().unwrap_or(0) >= limits.per_address {
            let victim = c.victim(Some(addr), limits, now).ok_or(Refusal::Address)?;
            c.shed(&victim);
        }
        if c.live >= limits.max {
            let victim = c.victim(None, limits, now).or_else(|| c.fair_victim(addr, limits)).ok_or(Refusal::Busy)?;
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
    pub(crate) async fn wait_empty(&self, limit: Duration) {
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
pub(crate) struct ConnGuard {
    id: u64,
    pub(crate) conn: Arc<Conn>,
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
pub(crate) struct DeadlineBody {
    inner: Incoming,
    deadline: Pin<Box<tokio::time::Sleep>>,
    conn: Arc<Conn>,
    receiving: bool,
}

impl DeadlineBody {
    pub(crate) fn new(inner: Incoming, limit: Duration, conn: Arc<Conn>) -> DeadlineBody {
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
    pub(crate) guard: Arc<ConnGuard>,
    pub(crate) stop: watch::Receiver<bool>,
}

impl ConnSlot {
    /// Marks the connection busy (not to be shed) while the answer lives.
    pub(crate) fn busy(&self) -> Busy {
        self.guard.conn.seen();
        self.guard.conn.busy.fetch_add(1, Ordering::AcqRel);
        Busy(self.guard.clone())
    }

    /// Resolves when the server begins shutting down.
    pub(crate) async fn stopping(&mut self) {
        let _ = self.stop.wait_for(|s| *s).await;
    }
}

/// Why a WebSocket session should end: the server stops (`false`), or its connection was shed
/// to make room under the cap (`true`); never for a socket served without a slot (the router's
/// tests). A WebSocket session makes this future once, not once per message.
pub(crate) async fn ending(slot: Option<ConnSlot>) -> bool {
    match slot {
        Some(mut s) => {
            let conn = s.guard.conn.clone();
            let shed = async {
                loop {
                    let notified = conn.shed.notified();
                    if conn.shed_chosen() {
                        return;
                    }
                    notified.await;
                }
            };
            tokio::select! {
                _ = s.stopping() => false,
                _ = shed => true,
            }
        }
        None => std::future::pending().await,
    }
}

pub(crate) struct Busy(Arc<ConnGuard>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.conn.busy.fetch_sub(1, Ordering::AcqRel);
    }
}
