//! After each fault: safety (what clients were told against the stored logs) and liveness
//! (every table moves on, no socket stays silent), and the row of the fault's table.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use store::GameStore;

use super::world::World;
use crate::serving::try_http;

#[derive(Default)]
pub struct Row {
    pub trials: u64,
    pub acked: u64,
    pub kept: u64,
    pub longest_stall: Duration,
    /// The longest a table stood still from the fault's start (what its players saw).
    pub longest_pause: Duration,
    pub silent: u64,
    /// Stored actions in the harness's audit of who wrote each (see `audit`).
    pub audited: u64,
}

/// Compares what clients were told with the stored logs; the violations found.
pub fn check_safety(world: &World, rt: &tokio::runtime::Runtime, store: &store::PgStore, row: &mut Row) -> Vec<String> {
    let (acks, seen): (Vec<_>, Vec<_>) = {
        let obs = world.obs();
        (
            obs.acks.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            obs.seen.iter().map(|(k, v)| (k.clone(), v.1.clone())).collect(),
        )
    };
    let mut logs: HashMap<String, Vec<uno::record::Move>> = HashMap::new();
    let mut bad = Vec::new();
    for (id, _) in acks.iter().map(|(k, _)| k).chain(seen.iter().map(|(k, _)| k)) {
        if logs.contains_key(id) {
            continue;
        }
        let game = rt.block_on(async { store.load(id).done().await });
        let moves = match game {
            Ok(Some(g)) => g.actions.iter().filter_map(|e| e.decode::<uno::record::Move>().ok()).collect(),
            Ok(None) => Vec::new(),
            Err(e) => {
                bad.push(format!("the log of {id} could not be read: {e}"));
                Vec::new()
            }
        };
        logs.insert(id.clone(), moves);
    }
    row.acked = acks.len() as u64;
    row.kept = 0;
    for ((id, ver), (seat, action)) in &acks {
        let log = &logs[id];
        let kept = ver.checked_sub(1).and_then(|i| log.get(i as usize)).is_some_and(|m| {
            u64::from(m.seat.0) == *seat
                && serde_json::from_value::<uno::Action>(action.clone()).is_ok_and(|a| a == m.action)
        });
        if kept {
            row.kept += 1;
        } else {
            bad.push(format!(
                "{id} v{ver}: acknowledged {action} by seat {seat}, the log holds {:?}",
                log.get(*ver as usize - 1)
            ));
        }
    }
    for ((id, ver), played) in &seen {
        let log = &logs[id];
        if *ver as usize > log.len() {
            bad.push(format!("{id}: a client saw v{ver}, the log has {} actions", log.len()));
        } else if let Some((seat, card)) = played {
            let m = &log[*ver as usize - 1];
            let same = u64::from(m.seat.0) == *seat
                && matches!(m.action, uno::Action::Play { card: c, .. } if c.to_string() == *card);
            if !same {
                bad.push(format!("{id} v{ver}: a client saw {card} played by {seat}, the log holds {m:?}"));
            }
        }
    }
    let mut obs = world.obs();
    bad.append(&mut obs.double_acks);
    bad.append(&mut obs.disagreements);
    bad.append(&mut obs.backwards);
    bad
}

/// Every table in play at `healed` must move on by `healed + within`; the longest wait, and the
/// tables that did not.
pub fn check_liveness(
    world: &World,
    before: &HashMap<String, u64>,
    healed: Instant,
    within: Duration,
) -> (Duration, Vec<String>) {
    let obs = world.obs();
    let mut longest = Duration::ZERO;
    let mut bad = Vec::new();
    for (id, v0) in before {
        let Some(t) = obs.tables.get(id) else { continue };
        let moved = t.progress.iter().find(|(_, v)| v > v0).map(|(at, _)| at.saturating_duration_since(healed));
        match moved {
            Some(d) => {
                longest = longest.max(d);
                if d > within {
                    bad.push(format!("{id} stood at v{v0} for {d:?} after the fault healed"));
                }
            }
            None if t.finished => {}
            None => {
                longest = longest.max(within);
                let mut now = String::new();
                for (i, addr) in world.addrs.iter().enumerate() {
                    let (s, v) = try_http(addr, "GET", &format!("/api/tables/{id}"), Some(&t.token), None);
                    now += &format!(
                        " node{}: {s} {} v{} current {} phase {} {};",
                        i + 1,
                        v["status"],
                        v["version"],
                        v["view"]["current"],
                        v["view"]["phase"]["phase"],
                        v["code"]
                    );
                }
                bad.push(format!("{id} ({}) stood at v{v0} since the fault healed (over {within:?}):{now}", t.kind));
            }
        }
    }
    (longest, bad)
}

/// The longest any of these tables stood still between `from` and `to`.
pub fn longest_pause(world: &World, tables: &HashMap<String, u64>, from: Instant, to: Instant) -> Duration {
    let obs = world.obs();
    let mut longest = Duration::ZERO;
    for id in tables.keys() {
        let Some(t) = obs.tables.get(id) else { continue };
        let mut last = t.progress.iter().rev().find(|(at, _)| *at <= from).map(|p| p.0).unwrap_or(from);
        for (at, _) in t.progress.iter().filter(|(at, _)| *at > from && *at <= to) {
            longest = longest.max(at.saturating_duration_since(last));
            last = *at;
        }
        if !t.finished {
            longest = longest.max(to.saturating_duration_since(last));
        }
    }
    longest
}

/// Sockets open and silent for longer than `within` while their table moved past them.
pub fn silent_sockets(world: &World, within: Duration) -> Vec<String> {
    let obs = world.obs();
    let now = Instant::now();
    let mut bad = Vec::new();
    for (sock, s) in &obs.sockets {
        let (id, last, ver) = (&s.table, &s.last, &s.version);
        if s.closed {
            continue;
        }
        let Some(t) = obs.tables.get(id) else { continue };
        // When the table first went past what the socket holds.
        let Some((ahead, _)) = t.progress.iter().find(|(_, v)| v > ver) else { continue };
        let since = now.saturating_duration_since(*ahead.max(last));
        if since > within {
            bad.push(format!("socket {sock} on {id} silent at v{ver} for {since:?} while the table moved on"));
        }
    }
    bad
}
