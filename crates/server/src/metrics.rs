//! `GET /metrics`: this process's counters in Prometheus' text format (version 0.0.4), for an
//! operator's scraper. Counts only, no table ids or names: nothing in it is private to a player.
//!
//! The counters are the process's (one server per process): actions acknowledged, tables
//! adopted from another owner (failovers), lease renewals and their failures (the PostgreSQL
//! store's), the time each action took to store (a histogram), and the WebSockets connected
//! (served here, and relayed from another instance's table).

use std::fmt::Write;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

static ACTIONS: AtomicU64 = AtomicU64::new(0);
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

/// The route, merged into the app.
pub(crate) fn routes() -> Router {
    Router::new().route("/metrics", get(render))
}

async fn render() -> axum::response::Response {
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text()).into_response()
}

fn text() -> String {
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
}
