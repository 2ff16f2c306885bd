//! [`Registry`]: the games of one kind in memory, by id, as UNO tables (`tables`) and Duel games
//! (`duel_api`) both keep them: a lookup by id, the order they came in (the oldest is the first
//! one dropped when memory is full), and who created each one, for the per-client limit on
//! unfinished games. What a game holds, and when it is over, is its kind's own ([`Entry`]).
//!
//! The registry knows nothing of HTTP: its refusals are [`Refused`], which each kind maps to its
//! own answer.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// What the registry asks of a game.
pub(crate) trait Entry {
    /// The client (IP address) that created the game; "" when nobody counts it (it came back
    /// from the store).
    fn creator(&self) -> &str;
    /// Whether the game counts against its creator's limit now (it is not over). Must not wait:
    /// it is asked under the registry's lock.
    fn counts(&self) -> bool;
}

/// Why the registry refused a new game.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Refused {
    #[error("the server holds as many games as it may")]
    Full,
    #[error("this client already has {0} unfinished games")]
    TooMany(usize),
}

/// The games of one kind, by id; cheap to share (`Arc` inside the owner's state).
pub(crate) struct Registry<G> {
    inner: RwLock<Games<G>>,
}

struct Games<G> {
    /// Each game with the number it came in as.
    by_id: HashMap<String, (u64, Arc<G>)>,
    /// Ids and their numbers in the order they came in: an entry whose number is not its
    /// game's any more (removed, or removed and kept again) is skipped.
    order: VecDeque<(u64, String)>,
    next: u64,
}

impl<G> Default for Registry<G> {
    fn default() -> Self {
        Registry { inner: RwLock::new(Games { by_id: HashMap::new(), order: VecDeque::new(), next: 0 }) }
    }
}

impl<G> Games<G> {
    fn put(&mut self, id: &str, game: Arc<G>) {
        let n = self.next;
        self.next += 1;
        self.by_id.insert(id.to_string(), (n, game));
        self.order.push_back((n, id.to_string()));
        // Drop the entries of games no longer kept once they are most of the order (so it stays
        // within about twice the games kept, at a cost spread over the inserts).
        if self.order.len() > 2 * self.by_id.len() + 16 {
            let by_id = &self.by_id;
            self.order.retain(|(n, id)| by_id.get(id).is_some_and(|(m, _)| m == n));
        }
    }
}

impl<G: Entry> Registry<G> {
    // A poisoned lock (a panic while holding it) leaves the map as it was: every operation is a
    // single insert or remove, so it is used as is.
    fn read(&self) -> RwLockReadGuard<'_, Games<G>> {
        self.inner.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> RwLockWriteGuard<'_, Games<G>> {
        self.inner.write().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn get(&self, id: &str) -> Option<Arc<G>> {
        self.read().by_id.get(id).map(|(_, g)| g.clone())
    }

    pub(crate) fn len(&self) -> usize {
        self.read().by_id.len()
    }

    /// Every game in memory now.
    pub(crate) fn all(&self) -> Vec<Arc<G>> {
        self.read().by_id.values().map(|(_, g)| g.clone()).collect()
    }

    /// Keeps `game` as `id`, unless another is kept as `id` already: then that one is kept and
    /// returned (two requests that read the same game back keep one copy).
    pub(crate) fn insert_first(&self, id: &str, game: Arc<G>) -> Arc<G> {
        let mut g = self.write();
        if let Some((_, kept)) = g.by_id.get(id) {
            return kept.clone();
        }
        g.put(id, game.clone());
        game
    }

    /// Keeps `game` as `id`, in place of any other.
    pub(crate) fn insert(&self, id: &str, game: Arc<G>) {
        self.write().put(id, game);
    }

    pub(crate) fn remove(&self, id: &str) -> Option<Arc<G>> {
        self.write().by_id.remove(id).map(|(_, g)| g)
    }

    /// Removes `id` only if it is still `game` (not a copy kept since).
    pub(crate) fn remove_if_same(&self, id: &str, game: &Arc<G>) -> bool {
        let mut g = self.write();
        if g.by_id.get(id).is_some_and(|(_, kept)| Arc::ptr_eq(kept, game)) {
            g.by_id.remove(id);
            return true;
        }
        false
    }

    /// Whether `client` may start another game: fewer than `max_total` games are kept, and
    /// fewer than `max_per_client` of those `client` created count ([`Entry::counts`]).
    pub(crate) fn admit(&self, client: &str, max_total: usize, max_per_client: usize) -> Result<(), Refused> {
        let g = self.read();
        if g.by_id.len() >= max_total {
            return Err(Refused::Full);
        }
        let mine = g.by_id.values().filter(|(_, e)| e.creator() == client && e.counts()).count();
        if mine >= max_per_client {
            return Err(Refused::TooMany(mine));
        }
        Ok(())
    }

    /// The oldest game for which `pick` is true, in the order the games came in.
    pub(crate) fn oldest(&self, mut pick: impl FnMut(&G) -> bool) -> Option<(String, Arc<G>)> {
        let g = self.read();
        g.order.iter().find_map(|(n, id)| match g.by_id.get(id) {
            Some((m, e)) if m == n && pick(e) => Some((id.clone(), e.clone())),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    use super::{Entry, Refused, Registry};

    struct Game {
        creator: &'static str,
        over: AtomicBool,
    }

    impl Entry for Game {
        fn creator(&self) -> &str {
            self.creator
        }
        fn counts(&self) -> bool {
            !self.over.load(Ordering::Relaxed)
        }
    }

    fn game(creator: &'static str) -> Arc<Game> {
        Arc::new(Game { creator, over: AtomicBool::new(false) })
    }

    #[test]
    fn a_client_is_refused_past_its_unfinished_games_and_the_server_past_its_total() {
        let r = Registry::default();
        r.insert("a", game("10.0.0.1"));
        r.insert("b", game("10.0.0.1"));
        r.insert("c", game("10.0.0.2"));
        assert_eq!(r.admit("10.0.0.1", 10, 2), Err(Refused::TooMany(2)));
        assert_eq!(r.admit("10.0.0.2", 10, 2), Ok(()));
        // A finished game no longer counts against its creator.
        r.get("a").expect("kept").over.store(true, Ordering::Relaxed);
        assert_eq!(r.admit("10.0.0.1", 10, 2), Ok(()));
        assert_eq!(r.admit("10.0.0.3", 3, 2), Err(Refused::Full));
    }

    #[test]
    fn the_first_copy_kept_wins_and_a_stale_copy_does_not_remove_the_new_one() {
        let r = Registry::default();
        let first = r.insert_first("a", game(""));
        let second = r.insert_first("a", game(""));
        assert!(Arc::ptr_eq(&first, &second));
        let stale = first.clone();
        r.remove("a");
        let fresh = game("");
        r.insert("a", fresh.clone());
        assert!(!r.remove_if_same("a", &stale));
        assert!(r.get("a").is_some_and(|g| Arc::ptr_eq(&g, &fresh)));
        assert!(r.remove_if_same("a", &fresh));
        assert_eq!(r.len(), 0);
    }

    #[test]
    fn the_oldest_is_found_in_the_order_the_games_came_in() {
        let r = Registry::default();
        for (i, id) in ["a", "b", "c", "d"].into_iter().enumerate() {
            let g = game("");
            g.over.store(i % 2 == 1, Ordering::Relaxed);
            r.insert(id, g);
        }
        assert_eq!(r.oldest(|g| g.over.load(Ordering::Relaxed)).map(|(id, _)| id).as_deref(), Some("b"));
        r.remove("b");
        assert_eq!(r.oldest(|g| g.over.load(Ordering::Relaxed)).map(|(id, _)| id).as_deref(), Some("d"));
        // A game removed and kept again is the newest.
        let a = r.remove("a").expect("kept");
        r.insert("a", a);
        assert_eq!(r.oldest(|_| true).map(|(id, _)| id).as_deref(), Some("c"));
        // Many removals later the order still holds only what is kept, oldest first.
        for n in 0..100 {
            let id = format!("t{n}");
            r.insert(&id, game(""));
            r.remove(&id);
        }
        assert_eq!(r.oldest(|_| true).map(|(id, _)| id).as_deref(), Some("c"));
        assert!(r.read().order.len() <= 2 * r.len() + 17);
    }
}
