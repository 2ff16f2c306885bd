//! The lobby of the whole site: `GET /api/tables` on any instance lists the open tables of
//! every instance.
//!
//! Each instance publishes the tables it holds on [`LOBBY_SUBJECT`] every [`LOBBY_EVERY`], and
//! keeps the latest listing of every other instance for [`STALE`]. A listing is a glance, like
//! the single instance's (busy tables are skipped there too): it may be a period old, and an
//! instance that stops publishing drops out of it after [`STALE`]. Only what the single
//! instance lists crosses the bus (tables open to spectators, their public summary), so no seat
//! token or hidden card travels with it. Answering a list costs no message: the fan-out is
//! paid once a period, not once per client.

use std::collections::HashMap;
use std::sync::{Mutex, Weak};
use std::time::{Duration, Instant};

use async_nats::Subscriber;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

use super::Inner;
use crate::limits::MAX_LISTED;
use crate::messages::TableSummary;

/// Where every instance publishes the tables it holds.
pub(super) const LOBBY_SUBJECT: &str = "tabletop.lobby";
/// How often an instance publishes its tables.
pub(super) const LOBBY_EVERY: Duration = Duration::from_secs(1);
/// An instance whose last listing is older than this is taken for gone.
const STALE: Duration = Duration::from_secs(3);
/// Instances remembered at most (a bound on memory whatever the bus carries).
const MAX_INSTANCES: usize = 1_000;

/// One instance's tables, as published.
#[derive(Debug, Serialize, Deserialize)]
struct Listing {
    instance: String,
    tables: Vec<TableSummary>,
}

/// The other instances' latest listings.
#[derive(Default)]
pub(super) struct Lobby {
    others: Mutex<HashMap<String, (Instant, Vec<TableSummary>)>>,
}

impl Lobby {
    fn heard(&self, me: &str, mut listing: Listing, at: Instant) {
        if listing.instance == me {
            return;
        }
        listing.tables.truncate(MAX_LISTED);
        let Ok(mut others) = self.others.lock() else { return };
        others.retain(|_, (when, _)| at.saturating_duration_since(*when) < STALE);
        if others.len() >= MAX_INSTANCES && !others.contains_key(&listing.instance) {
            return;
        }
        others.insert(listing.instance, (at, listing.tables));
    }

    /// The other instances heard from within [`STALE`], by name.
    pub(super) fn instances(&self, now: Instant) -> Vec<String> {
        let Ok(others) = self.others.lock() else { return Vec::new() };
        let mut names: Vec<String> = others
            .iter()
            .filter(|(_, (when, _))| now.saturating_duration_since(*when) < STALE)
            .map(|(name, _)| name.clone())
            .collect();
        names.sort();
        names
    }

    /// This instance's tables with every other instance's fresh ones: one entry per table (a
    /// table that moved between instances is listed at its highest version), in id order, at
    /// most [`MAX_LISTED`].
    pub(super) fn list(&self, own: Vec<TableSummary>, now: Instant) -> Vec<TableSummary> {
        let mut by_id: HashMap<String, TableSummary> = HashMap::new();
        let mut add = |t: TableSummary| match by_id.get(&t.id) {
            Some(held) if held.version >= t.version => {}
            _ => {
                by_id.insert(t.id.clone(), t);
            }
        };
        own.into_iter().for_each(&mut add);
        if let Ok(others) = self.others.lock() {
            for (when, tables) in others.values() {
                if now.saturating_duration_since(*when) < STALE {
                    tables.iter().cloned().for_each(&mut add);
                }
            }
        }
        let mut out: Vec<TableSummary> = by_id.into_values().collect();
        out.sort_by(|a, b| a.id.cmp(&b.id));
        out.truncate(MAX_LISTED);
        out
    }
}

impl Inner {
    /// The tables this instance lists and holds (one it lost is another's to list).
    pub(super) fn own_listing(&self) -> Vec<TableSummary> {
        let store = self.state.store();
        self.state.list_tables().into_iter().filter(|t| store.holds(&t.id)).collect()
    }
}

/// Publishes this instance's tables every [`LOBBY_EVERY`] while the cluster lives.
pub(super) async fn publish(inner: Weak<Inner>) {
    let mut tick = tokio::time::interval(LOBBY_EVERY);
    loop {
        tick.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        let listing = Listing { instance: inner.me.clone(), tables: inner.own_listing() };
        match serde_json::to_vec(&listing) {
            // At most once is enough: the next period publishes again.
            Ok(bytes) => {
                let _ = inner.nats.publish(LOBBY_SUBJECT, bytes.into()).await;
            }
            Err(e) => tracing::warn!(error = %e, "the lobby listing could not be written"),
        }
    }
}

/// Keeps the other instances' listings as they arrive.
pub(super) async fn listen(inner: Weak<Inner>, mut listings: Subscriber) {
    while let Some(msg) = listings.next().await {
        let Some(inner) = inner.upgrade() else { return };
        match serde_json::from_slice::<Listing>(&msg.payload) {
            Ok(listing) => inner.lobby.heard(&inner.me, listing, Instant::now()),
            Err(e) => tracing::warn!(error = %e, "a malformed lobby listing from another instance"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::TableStatus;

    fn table(id: &str, version: u64) -> TableSummary {
        TableSummary {
            id: id.to_string(),
            status: TableStatus::Waiting,
            rules: "official".into(),
            seats: Vec::new(),
            open_seats: 1,
            spectators: true,
            chosen_seed: false,
            started_from: None,
            version,
            progress: None,
            people: 0,
        }
    }

    fn ids(list: &[TableSummary]) -> Vec<(&str, u64)> {
        list.iter().map(|t| (t.id.as_str(), t.version)).collect()
    }

    #[test]
    fn the_list_merges_instances_once_per_table_and_forgets_the_silent() {
        let lobby = Lobby::default();
        let t0 = Instant::now();
        let listing = |instance: &str, tables| Listing { instance: instance.into(), tables };
        lobby.heard("a", listing("b", vec![table("02", 5), table("03", 1)]), t0);
        lobby.heard("a", listing("c", vec![table("03", 4), table("04", 0)]), t0 + Duration::from_secs(2));
        // Its own listing, echoed by the bus, is not another instance's.
        lobby.heard("a", listing("a", vec![table("09", 0)]), t0);

        let own = vec![table("01", 2), table("02", 3)];
        let now = t0 + Duration::from_secs(1);
        assert_eq!(ids(&lobby.list(own.clone(), now)), [("01", 2), ("02", 5), ("03", 4), ("04", 0)]);
        // b has been silent for longer than STALE: only c's tables remain.
        let later = t0 + STALE + Duration::from_millis(1);
        assert_eq!(ids(&lobby.list(own, later)), [("01", 2), ("02", 3), ("03", 4), ("04", 0)]);
    }

    #[test]
    fn the_list_is_bounded() {
        let lobby = Lobby::default();
        let t0 = Instant::now();
        let many: Vec<TableSummary> = (0..MAX_LISTED * 2).map(|i| table(&format!("{i:05}"), 0)).collect();
        lobby.heard("a", Listing { instance: "b".into(), tables: many.clone() }, t0);
        lobby.heard("a", Listing { instance: "c".into(), tables: many[MAX_LISTED..].to_vec() }, t0);
        let list = lobby.list(Vec::new(), t0);
        assert_eq!(list.len(), MAX_LISTED);
        assert_eq!(list[0].id, "00000");
    }
}
