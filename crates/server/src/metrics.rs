//! `GET /metrics`: this process's counters in Prometheus' text format (version 0.0.4), for an
//! operator's scraper. Counts only, no table ids or names: nothing in it is private to a player.
//! Served on the operator's own address (`--metrics-addr`), or on the game port behind a token
//! (`--metrics-token`); with neither, not at all (`Metrics`).
//!
//! The counters are the process's (one server per process): actions acknowledged, tables
//! adopted from another owner (failovers), lease renewals and their failures (the PostgreSQL
//! store's), the time each action took to store (a histogram), and the WebSockets connected
//! (served here, and relayed from another instance's table); whether the store and NATS answer
//! (an idle instance and one cut off from its database read alike by their counters alone), the
//! tables and leases held, requests forwarded to another instance, refusals by code, bots' moves
//! tried again, and the time spent waiting in the bots' lanes and the analyses' queue.

use std::fmt::Write;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

static ACTIONS: AtomicU64 = AtomicU64::new(0);
static BOT_RETRIES: AtomicU64 = AtomicU64::new(0);
static FORWARDS: AtomicU64 = AtomicU64::new(0);
static FORWARD_FAILURES: AtomicU64 = AtomicU64::new(0);
/// 1 after a store write or read succeeded, 0 after one failed; -1 before either.
static STORE_UP: AtomicI64 = AtomicI64::new(-1);
/// 1 while the NATS connection is up, 0 while it is not; -1 without NATS.
static NATS_UP: AtomicI64 = AtomicI64::new(-1);
static TABLES: AtomicI64 = AtomicI64::new(0);
static REFUSALS: std::sync::Mutex<std::collections::BTreeMap<&'static str, u64>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());
/// Waits, as (count, total microseconds): a bot's turn for its client's lane, an analysis for
/// a worker.
static LANE_WAITS: [AtomicU64; 2] = [const { AtomicU64::new(0) }; 2];
static ANALYSIS_WAITS: [AtomicU64; 2] = [const { AtomicU64::new(0) }; 2];
static ADOPTED: AtomicU64 = AtomicU64::new(0);
static SOCKETS: AtomicI64 = AtomicI64::new(0);
static RELAYED: AtomicI64 = AtomicI64::new(0);

/// Upper bounds (seconds) of the store-write histogram's buckets.
const BOUNDS: [f64; 10] = [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0];
static WRITE_BUCKETS: [AtomicU64; 10] = [const { AtomicU64::new(0) }; 10];
static WRITE_COUNT: AtomicU64 = AtomicU64::new(0);
static WRITE_MICROS: AtomicU64 = AtomicU64::new(0);

/// An action acknowledged (stored, then applied).
pub(crate) fn action() {
    ACTIONS.fetch_add(1, Relaxed);
}

/// A bot's move the store refused, to be tried again.
pub(crate) fn bot_retry() {
    BOT_RETRIES.fetch_add(1, Relaxed);
}

/// A request or socket forwarded to the instance that holds its table; `ok`: it answered.
pub(crate) fn forward(ok: bool) {
    FORWARDS.fetch_add(1, Relaxed);
    if !ok {
        FORWARD_FAILURES.fetch_add(1, Relaxed);
    }
}

/// Whether the store just answered (a write or read that reached it) or failed.
pub(crate) fn store_up(up: bool) {
    STORE_UP.store(i64::from(up), Relaxed);
}

/// Whether the NATS connection is up now.
pub(crate) fn nats_up(up: bool) {
    NATS_UP.store(i64::from(up), Relaxed);
}

/// Tables held in memory now (with leases: the leases this instance holds).
pub(crate) fn tables(n: usize) {
    TABLES.store(n as i64, Relaxed);
}

/// A request refused with `code` (every `{code, message}` answer, the connection caps' too).
pub(crate) fn refusal(code: &'static str) {
    let mut r = REFUSALS.lock().unwrap_or_else(|p| p.into_inner());
    *r.entry(code).or_insert(0) += 1;
}

fn wait(into: &[AtomicU64; 2], took: Duration) {
    into[0].fetch_add(1, Relaxed);
    into[1].fetch_add(took.as_micros() as u64, Relaxed);
}

/// How long a bot waited for its client's lane.
pub(crate) fn lane_wait(took: Duration) {
    wait(&LANE_WAITS, took);
}

/// How long an analysis waited for a worker.
pub(crate) fn analysis_wait(took: Duration) {
    wait(&ANALYSIS_WAITS, took);
}

/// Tables taken over from an owner whose lease ran out.
pub(crate) fn adopted(n: usize) {
    ADOPTED.fetch_add(n as u64, Relaxed);
}

/// How long one action's write to the store took (whether it succeeded or not).
pub(crate) fn store_write(took: Duration) {
    let secs = took.as_secs_f64();
    for (b, bound) in WRITE_BUCKETS.iter().zip(BOUNDS) {
        if secs <= bound {
            b.fetch_add(1, Relaxed);
        }
    }
    WRITE_COUNT.fetch_add(1, Relaxed);
    WRITE_MICROS.fetch_add(took.as_micros() as u64, Relaxed);
}

/// Counts a WebSocket as connected while it is held.
pub(crate) struct Connected(&'static AtomicI64);

impl Drop for Connected {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Relaxed);
    }
}

/// A socket served by this instance's tables.
pub(crate) fn socket() -> Connected {
    SOCKETS.fetch_add(1, Relaxed);
    Connected(&SOCKETS)
}

/// A socket relayed to another instance's table.
pub(crate) fn relayed() -> Connected {
    RELAYED.fetch_add(1, Relaxed);
    Connected(&RELAYED)
}

/// Where `/metrics` is served (`Config::metrics`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Metrics {
    /// Not on the game port (the default: served on an operator address of its own, if any,
    /// by [`crate::serve_metrics`]).
    #[default]
    Off,
    /// On the game port, to a request with `Authorization: Bearer TOKEN` only.
    Token(String),
}

pub(crate) fn text() -> String {
    let mut out = String::new();
    let mut one = |name: &str, kind: &str, help: &str, value: String| {
        let _ = write!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}\n");
    };
    one(
        "tabletop_actions_total",
        "counter",
        "Actions acknowledged (stored, then applied).",
        ACTIONS.load(Relaxed).to_string(),
    );
    one(
        "tabletop_tables_adopted_total",
        "counter",
        "Tables taken over from an instance whose lease ran out (failovers).",
        ADOPTED.load(Relaxed).to_string(),
    );
    let (renewals, failures) = store::lease_renewals();
    one("tabletop_lease_renewals_total", "counter", "Lease renewals that reached the database.", renewals.to_string());
    one("tabletop_lease_renewal_failures_total", "counter", "Lease renewals that failed.", failures.to_string());
    one("tabletop_sockets", "gauge", "WebSockets connected to tables held here.", SOCKETS.load(Relaxed).to_string());
    one(
        "tabletop_relayed_sockets",
        "gauge",
        "WebSockets connected here to tables another instance holds.",
        RELAYED.load(Relaxed).to_string(),
    );
    one(
        "tabletop_store_up",
        "gauge",
        "1 if the store's last write or read succeeded, 0 if it failed (-1: none yet).",
        STORE_UP.load(Relaxed).to_string(),
    );
    one(
        "tabletop_nats_up",
        "gauge",
        "1 while connected to NATS, 0 while not (-1: no NATS).",
        NATS_UP.load(Relaxed).to_string(),
    );
    one(
        "tabletop_tables_held",
        "gauge",
        "Tables held in memory (with leases: the leases this instance holds).",
        TABLES.load(Relaxed).to_string(),
    );
    one(
        "tabletop_forwards_total",
        "counter",
        "Requests and sockets forwarded to the instance that holds their table.",
        FORWARDS.load(Relaxed).to_string(),
    );
    one(
        "tabletop_forward_failures_total",
        "counter",
        "Forwards that got no answer from the owner.",
        FORWARD_FAILURES.load(Relaxed).to_string(),
    );
    one(
        "tabletop_bot_retries_total",
        "counter",
        "Bots' moves the store refused, tried again.",
        BOT_RETRIES.load(Relaxed).to_string(),
    );
    for (name, help, w) in [
        ("tabletop_bot_lane_wait_seconds", "Time bots waited for their client's lane.", &LANE_WAITS),
        ("tabletop_analysis_queue_wait_seconds", "Time analyses waited for a worker.", &ANALYSIS_WAITS),
    ] {
        let _ = write!(out, "# HELP {name} {help}\n# TYPE {name} summary\n");
        let _ = writeln!(out, "{name}_sum {}", w[1].load(Relaxed) as f64 / 1e6);
        let _ = writeln!(out, "{name}_count {}", w[0].load(Relaxed));
    }
    let name = "tabletop_refusals_total";
    let _ = write!(out, "# HELP {name} Requests refused, by code.\n# TYPE {name} counter\n");
    for (code, n) in REFUSALS.lock().unwrap_or_else(|p| p.into_inner()).iter() {
        let _ = writeln!(out, "{name}{{code=\"{code}\"}} {n}");
    }
    let name = "tabletop_store_write_seconds";
    let _ = write!(out, "# HELP {name} Time to store one action.\n# TYPE {name} histogram\n");
    for (b, bound) in WRITE_BUCKETS.iter().zip(BOUNDS) {
        let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {}", b.load(Relaxed));
    }
    let count = WRITE_COUNT.load(Relaxed);
    let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
    let _ = writeln!(out, "{name}_sum {}", WRITE_MICROS.load(Relaxed) as f64 / 1e6);
    let _ = writeln!(out, "{name}_count {count}");
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_text_is_prometheus_exposition() {
        super::action();
        super::store_write(std::time::Duration::from_millis(3));
        let _s = super::socket();
        let t = super::text();
        for line in t.lines() {
            assert!(line.starts_with('#') || line.split(' ').count() == 2, "{line}");
        }
        assert!(t.contains("tabletop_store_write_seconds_bucket{le=\"0.005\"} "), "{t}");
        assert!(!t.contains("tabletop_sockets 0\n"), "{t}");
        let n = |name: &str| -> f64 {
            t.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok()).unwrap_or(-1.0)
        };
        assert!(n("tabletop_actions_total") >= 1.0 && n("tabletop_store_write_seconds_count") >= 1.0, "{t}");
    }

    #[test]
    fn what_an_operator_alerts_on_is_there() {
        super::store_up(false);
        super::refusal("store_unavailable");
        super::bot_retry();
        super::lane_wait(std::time::Duration::from_millis(2));
        let t = super::text();
        for line in t.lines() {
            assert!(line.starts_with('#') || line.split(' ').count() == 2, "{line}");
        }
        for want in [
            "tabletop_store_up 0\n",
            "tabletop_refusals_total{code=\"store_unavailable\"} ",
            "tabletop_nats_up ",
            "tabletop_tables_held ",
            "tabletop_forwards_total ",
            "tabletop_bot_retries_total ",
            "tabletop_bot_lane_wait_seconds_count ",
            "tabletop_analysis_queue_wait_seconds_sum ",
        ] {
            assert!(t.contains(want), "{want:?} in {t}");
        }
        super::store_up(true);
        assert!(super::text().contains("tabletop_store_up 1\n"));
    }
}
