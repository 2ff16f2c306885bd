//! The games a store holds, at which epoch, and until when it knows its leases to be its own.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::Lease;

/// The games a store holds, each at its epoch; shared by the writer, the renewer and `holds`.
pub(super) struct Held {
    pub(super) lease: Lease,
    pub(super) games: Mutex<HashMap<String, i64>>,
    /// Games this store lost to another holder: never taken back under its own name (only
    /// adopted once their lease runs out), since what this process holds of them is stale.
    pub(super) lost: Mutex<HashSet<String>>,
    /// Per held game, until when its lease is known to run: from before the last renewal that
    /// found it ours (or, for a game just taken, a tenth of a lease short of then). Past it the
    /// lease may have lapsed and been adopted elsewhere while this process was paused or cut
    /// off, so what it holds of the game may be stale (`fresh`).
    pub(super) fresh: Mutex<HashMap<String, Instant>>,
    /// Set by `hand_over` (the instance is stopping): from then on no game is taken, neither
    /// adopted nor taken back by a late write, so none is held again for a lease by a process
    /// about to exit.
    pub(super) handed_over: AtomicBool,
}

impl Held {
    pub(super) fn epoch(&self, id: &str) -> Option<i64> {
        self.games.lock().ok().and_then(|g| g.get(id).copied())
    }
    pub(super) fn insert(&self, id: &str, epoch: i64) {
        if let Ok(mut g) = self.games.lock() {
            g.insert(id.to_string(), epoch);
        }
        let now = Instant::now();
        self.renewed(std::iter::once(id), now.checked_sub(self.lease.duration / 10).unwrap_or(now));
    }
    /// The leases of `ids` were found ours by a statement sent at `sent`; one released
    /// meanwhile (handed over) stays released.
    pub(super) fn renewed<'a>(&self, ids: impl Iterator<Item = &'a str>, sent: Instant) {
        let Ok(games) = self.games.lock() else { return };
        if let Ok(mut f) = self.fresh.lock() {
            for id in ids.filter(|id| games.contains_key(*id)) {
                f.insert(id.to_string(), sent + self.lease.duration);
            }
        }
    }
    pub(super) fn is_fresh(&self, id: &str) -> bool {
        self.fresh.lock().ok().and_then(|f| f.get(id).copied()).is_some_and(|until| Instant::now() < until)
    }
    pub(super) fn unfresh(&self, id: &str) {
        if let Ok(mut f) = self.fresh.lock() {
            f.remove(id);
        }
    }
    /// Forgets a game whose creation failed: nobody took it, there is just nothing to hold.
    pub(super) fn forget(&self, id: &str) {
        if let Ok(mut g) = self.games.lock() {
            g.remove(id);
        }
        self.unfresh(id);
    }

    /// Forgets a game lost to another holder, unless it was taken again at another epoch
    /// meanwhile.
    pub(super) fn lose(&self, id: &str, epoch: i64) {
        if let Ok(mut g) = self.games.lock() {
            if g.get(id).copied() == Some(epoch) {
                g.remove(id);
                self.unfresh(id);
                if let Ok(mut lost) = self.lost.lock() {
                    lost.insert(id.to_string());
                }
            }
        }
    }
    pub(super) fn release(&self, id: &str) {
        if let Ok(mut g) = self.games.lock() {
            g.remove(id);
        }
        self.unfresh(id);
    }
    pub(super) fn may_take_back(&self, id: &str) -> bool {
        !self.is_handed_over() && self.epoch(id).is_none() && self.lost.lock().map(|l| !l.contains(id)).unwrap_or(false)
    }
    /// Ends holding for good (see `handed_over`) and answers what was held, each at its epoch.
    pub(super) fn hand_over(&self) -> Vec<(String, i64)> {
        self.handed_over.store(true, Ordering::Release);
        let games = self.snapshot();
        for (id, _) in &games {
            self.release(id);
        }
        games
    }
    pub(super) fn is_handed_over(&self) -> bool {
        self.handed_over.load(Ordering::Acquire)
    }
    pub(super) fn snapshot(&self) -> Vec<(String, i64)> {
        self.games.lock().map(|g| g.iter().map(|(k, v)| (k.clone(), *v)).collect()).unwrap_or_default()
    }
    pub(super) fn millis(&self) -> f64 {
        self.lease.duration.as_secs_f64() * 1000.0
    }
}
