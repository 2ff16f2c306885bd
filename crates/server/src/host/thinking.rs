//! Bots' thinking, one client at a time: every bot at the tables one client (IP address)
//! created thinks in that client's single lane, in turn (first come, first served), so one
//! address's tables of search bots take at most one core however many it opens. Other clients'
//! bots think in their own lanes, beside it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The lanes of the clients whose bots think or wait to, and how many think now.
#[derive(Default)]
pub(crate) struct Thinkers {
    lanes: Mutex<HashMap<String, Arc<Semaphore>>>,
    thinking: AtomicUsize,
}

/// A bot's turn to think in its client's lane, until dropped.
pub(crate) struct Thinking {
    permit: Option<OwnedSemaphorePermit>,
    lane: Arc<Semaphore>,
    client: String,
    thinkers: Arc<Thinkers>,
}

impl Thinkers {
    /// Waits for `client`'s lane to be free, and takes it.
    pub(crate) async fn take(self: &Arc<Self>, client: &str) -> Thinking {
        let lane = {
            let mut lanes = self.lanes.lock().unwrap_or_else(|p| p.into_inner());
            lanes.entry(client.to_string()).or_insert_with(|| Arc::new(Semaphore::new(1))).clone()
        };
        // The lane is never closed: a refusal cannot happen, but is not unwrapped either.
        let waiting = std::time::Instant::now();
        let permit = lane.clone().acquire_owned().await.ok();
        crate::metrics::lane_wait(waiting.elapsed());
        self.thinking.fetch_add(1, Ordering::AcqRel);
        Thinking { permit, lane, client: client.to_string(), thinkers: self.clone() }
    }

    /// Bots thinking now, over every client.
    pub(crate) fn thinking(&self) -> usize {
        self.thinking.load(Ordering::Acquire)
    }

    /// Clients with a lane (a bot thinking or waiting to).
    #[cfg(test)]
    fn lanes(&self) -> usize {
        self.lanes.lock().map(|l| l.len()).unwrap_or(0)
    }
}

impl Drop for Thinking {
    fn drop(&mut self) {
        self.thinkers.thinking.fetch_sub(1, Ordering::AcqRel);
        drop(self.permit.take());
        let mut lanes = self.thinkers.lanes.lock().unwrap_or_else(|p| p.into_inner());
        // Held by the map and by this turn only: nobody waits, so the lane is forgotten.
        if lanes.get(&self.client).is_some_and(|l| Arc::ptr_eq(l, &self.lane)) && Arc::strong_count(&self.lane) == 2 {
            lanes.remove(&self.client);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn one_client_thinks_one_at_a_time_beside_the_others_and_its_lane_is_forgotten() {
        let thinkers = Arc::new(Thinkers::default());
        let first = thinkers.take("a").await;
        // A second bot of the same client waits for the first.
        let waiting = tokio::spawn({
            let thinkers = thinkers.clone();
            async move { thinkers.take("a").await }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished(), "two bots of one client thought at once");
        // Another client's bot does not wait.
        let other = tokio::time::timeout(Duration::from_secs(1), thinkers.take("b")).await.expect("not blocked");
        assert_eq!(thinkers.thinking(), 2);
        drop(first);
        let second = tokio::time::timeout(Duration::from_secs(1), waiting).await.expect("let in").expect("joined");
        drop(second);
        drop(other);
        assert_eq!(thinkers.thinking(), 0);
        assert_eq!(thinkers.lanes(), 0, "lanes of clients with nothing to think are kept");
    }
}
