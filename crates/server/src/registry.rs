//! [`Registry`]: the tables in memory, by id, as the host keeps every game's (`host::Tables`): a
//! lookup by id, and who created each one and of which game, for the per-client limit on
//! unfinished tables. What a table holds, and when it is over, is its own ([`Entry`]).
//!
//! The registry knows nothing of HTTP: its refusals are [`Refused`], which each kind maps to its
//! own answer.

use std::collections::HashMap;
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// What the registry asks of a game.
pub(crate) trait Entry {
    /// The client (IP address) that created the game; "" when nobody counts it (it came back
    /// from the store).
    fn creator(&self) -> &str;
    /// Which game it is: a client's limit counts its tables of one game.
    fn kind(&self) -> store::Kind;
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

/// The tables in memory, by id; cheap to share (`Arc` inside the owner's state).
pub(crate) struct Registry<G: ?Sized> {
    inner: RwLock<HashMap<String, Arc<G>>>,
}

impl<G: ?Sized> Default for Registry<G> {
    fn default() -> Self {
        Registry { inner: RwLock::new(HashMap::new()) }
    }
}

impl<G: Entry + ?Sized> Registry<G> {
    // A poisoned lock (a panic while holding it) leaves the map as it was: every operation is a
    // single insert or remove, so it is used as is.
    fn read(&self) -> RwLockReadGuard<'_, HashMap<String, Arc<G>>> {
        self.inner.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> RwLockWriteGuard<'_, HashMap<String, Arc<G>>> {
        self.inner.write().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn get(&self, id: &str) -> Option<Arc<G>> {
        self.read().get(id).cloned()
    }

    pub(crate) fn len(&self) -> usize {
        self.read().len()
    }

    /// Every game in memory now.
    pub(crate) fn all(&self) -> Vec<Arc<G>> {
        self.read().values().cloned().collect()
    }

    /// Keeps `game` as `id`, unless another is kept as `id` already: then that one is kept and
    /// returned (two requests that read the same game back keep one copy).
    pub(crate) fn insert_first(&self, id: &str, game: Arc<G>) -> Arc<G> {
        let mut g = self.write();
        if let Some(kept) = g.get(id) {
            return kept.clone();
        }
        g.insert(id.to_string(), game.clone());
        game
    }

    /// Keeps `game` as `id`, in place of any other.
    pub(crate) fn insert(&self, id: &str, game: Arc<G>) {
        self.write().insert(id.to_string(), game);
    }

    pub(crate) fn remove(&self, id: &str) -> Option<Arc<G>> {
        self.write().remove(id)
    }

    /// Removes `id` only if it is still `game` (not a copy kept since).
    pub(crate) fn remove_if_same(&self, id: &str, game: &Arc<G>) -> bool {
        let mut g = self.write();
        if g.get(id).is_some_and(|kept| Arc::ptr_eq(kept, game)) {
            g.remove(id);
            return true;
        }
        false
    }

    /// Whether `client` may start another game of `kind` (or start one again at `again`, a
    /// table it holds already): fewer than `max_total` games are kept, and fewer than
    /// `max_per_client` of those of `kind` that `client` created count ([`Entry::counts`]).
    pub(crate) fn admit(
        &self,
        client: &str,
        kind: store::Kind,
        again: Option<&str>,
        max_total: usize,
        max_per_client: usize,
    ) -> Result<(), Refused> {
        let g = self.read();
        if again.is_none() && g.len() >= max_total {
            return Err(Refused::Full);
        }
        let counted = |(id, e): &(&String, &Arc<G>)| {
            again != Some(id.as_str()) && e.creator() == client && e.kind() == kind && e.counts()
        };
        let mine = g.iter().filter(counted).count();
        if mine >= max_per_client {
            return Err(Refused::TooMany(mine));
        }
        Ok(())
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
        fn kind(&self) -> store::Kind {
            store::Kind::UNO
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
        let uno = store::Kind::UNO;
        assert_eq!(r.admit("10.0.0.1", uno, None, 10, 2), Err(Refused::TooMany(2)));
        assert_eq!(r.admit("10.0.0.2", uno, None, 10, 2), Ok(()));
        // Its tables of another game do not count against this one's limit.
        assert_eq!(r.admit("10.0.0.1", store::Kind::DUEL, None, 10, 2), Ok(()));
        // A table played again does not count against itself.
        assert_eq!(r.admit("10.0.0.1", uno, Some("a"), 10, 2), Ok(()));
        // A finished game no longer counts against its creator.
        r.get("a").expect("kept").over.store(true, Ordering::Relaxed);
        assert_eq!(r.admit("10.0.0.1", uno, None, 10, 2), Ok(()));
        assert_eq!(r.admit("10.0.0.3", uno, None, 3, 2), Err(Refused::Full));
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
}
