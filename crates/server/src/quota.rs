//! How many times one client address may do a thing within a sliding window (records imported
//! in the last hour): a queue of the times it did, per client, in memory.
//!
//! Per instance: in a cluster each instance counts what reaches it. The map forgets a client
//! once its window is empty, and sweeps every client when it grows large, so a stream of new
//! addresses cannot grow it without bound.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Clients remembered before the whole map is swept of expired uses.
const SWEEP_AT: usize = 10_000;

pub(crate) struct Quota {
    limit: usize,
    window: Duration,
    uses: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl Quota {
    pub(crate) fn new(limit: usize, window: Duration) -> Quota {
        Quota { limit, window, uses: Mutex::new(HashMap::new()) }
    }

    /// Counts one more use by `client` at `now`, or refuses it: then `Err` holds how long until
    /// its oldest use leaves the window (at least one second).
    pub(crate) fn take(&self, client: &str, now: Instant) -> Result<(), Duration> {
        self.count(client, now, true)
    }

    /// Whether `client` has a use left at `now`, without counting one: a request past its
    /// quota is refused before its body is looked at, whatever that body holds.
    pub(crate) fn check(&self, client: &str, now: Instant) -> Result<(), Duration> {
        self.count(client, now, false)
    }

    fn count(&self, client: &str, now: Instant, take: bool) -> Result<(), Duration> {
        let mut uses = self.uses.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let window = self.window;
        let expired = |t: &Instant| now.saturating_duration_since(*t) >= window;
        if uses.len() >= SWEEP_AT {
            uses.retain(|_, q| {
                while q.front().is_some_and(expired) {
                    q.pop_front();
                }
                !q.is_empty()
            });
        }
        let q = uses.entry(client.to_string()).or_default();
        while q.front().is_some_and(expired) {
            q.pop_front();
        }
        if q.len() >= self.limit {
            let oldest = q.front().copied().unwrap_or(now);
            let wait = window.saturating_sub(now.saturating_duration_since(oldest));
            if q.is_empty() {
                uses.remove(client);
            }
            return Err(wait.max(Duration::from_secs(1)));
        }
        if take {
            q.push_back(now);
        } else if q.is_empty() {
            uses.remove(client);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_gets_its_limit_in_a_window_and_more_as_old_uses_leave_it() {
        let quota = Quota::new(2, Duration::from_secs(3600));
        let t0 = Instant::now();
        assert_eq!(quota.take("a", t0), Ok(()));
        assert_eq!(quota.take("a", t0 + Duration::from_secs(600)), Ok(()));
        // The third within the hour waits for the first to leave the window.
        assert_eq!(quota.take("a", t0 + Duration::from_secs(1200)), Err(Duration::from_secs(2400)));
        // Another client is counted apart.
        assert_eq!(quota.take("b", t0 + Duration::from_secs(1200)), Ok(()));
        assert_eq!(quota.take("a", t0 + Duration::from_secs(3600)), Ok(()));
        assert!(quota.take("a", t0 + Duration::from_secs(3601)).is_err());
    }

    #[test]
    fn a_check_counts_nothing_and_says_what_a_take_would() {
        let quota = Quota::new(1, Duration::from_secs(60));
        let t0 = Instant::now();
        assert_eq!(quota.check("a", t0), Ok(()));
        assert_eq!(quota.check("a", t0), Ok(()), "a check takes no use");
        assert!(quota.uses.lock().map(|m| m.is_empty()).unwrap_or(false), "nor remembers the client");
        assert_eq!(quota.take("a", t0), Ok(()));
        assert_eq!(quota.check("a", t0 + Duration::from_secs(20)), Err(Duration::from_secs(40)));
        assert_eq!(quota.check("a", t0 + Duration::from_secs(60)), Ok(()));
    }

    #[test]
    fn a_zero_limit_refuses_everything_and_remembers_no_one() {
        let quota = Quota::new(0, Duration::from_secs(60));
        assert!(quota.take("a", Instant::now()).is_err());
        assert!(quota.uses.lock().map(|m| m.is_empty()).unwrap_or(false));
    }

    #[test]
    fn many_clients_are_swept_once_their_uses_expire() {
        let quota = Quota::new(1, Duration::from_secs(1));
        let t0 = Instant::now();
        for i in 0..SWEEP_AT {
            assert_eq!(quota.take(&i.to_string(), t0), Ok(()));
        }
        assert_eq!(quota.take("late", t0 + Duration::from_secs(2)), Ok(()));
        assert_eq!(quota.uses.lock().map(|m| m.len()).unwrap_or(0), 1);
    }
}
