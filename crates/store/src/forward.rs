//! [`forward_to_inner!`]: the methods of a [`GameStore`](crate::GameStore) wrapper that only pass
//! the call on to its `inner` store, so that a wrapper (a test's fault, a counter) writes out only
//! the methods it changes.

/// Inside `impl GameStore for W`, where `W` has a field `inner` that is a store: each named
/// method passes its call on to `self.inner` unchanged.
///
/// ```ignore
/// impl GameStore for Silent {
///     store::forward_to_inner!(backend, location, create, append, load_active);
///     fn load(&self, id: &str) -> Reply<Option<StoredGame>> { self.hold(self.inner.load(id)) }
///     // …
/// }
/// ```
#[macro_export]
macro_rules! forward_to_inner {
    ($($method:ident),* $(,)?) => { $( $crate::forward_to_inner!(@one $method); )* };
    (@one backend) => {
        fn backend(&self) -> &'static str { self.inner.backend() }
    };
    (@one location) => {
        fn location(&self) -> String { self.inner.location() }
    };
    (@one create) => {
        fn create(&self, game: $crate::NewGame) -> $crate::Ticket { self.inner.create(game) }
    };
    (@one append) => {
        fn append(&self, id: &str, seq: u64, entry: $crate::Entry) -> $crate::Ticket {
            self.inner.append(id, seq, entry)
        }
    };
    (@one set_meta) => {
        fn set_meta(&self, id: &str, meta: $crate::Meta) -> $crate::Ticket { self.inner.set_meta(id, meta) }
    };
    (@one set_standing) => {
        fn set_standing(&self, id: &str, standing: $crate::Standing) -> $crate::Ticket {
            self.inner.set_standing(id, standing)
        }
    };
    (@one reset) => {
        fn reset(&self, id: &str, header: $crate::Header, meta: $crate::Meta) -> $crate::Ticket {
            self.inner.reset(id, header, meta)
        }
    };
    (@one add_import) => {
        fn add_import(&self, result: $crate::NewResult, budget: u64) -> $crate::Ticket {
            self.inner.add_import(result, budget)
        }
    };
    (@one add_result) => {
        fn add_result(&self, result: $crate::NewResult) -> $crate::Ticket { self.inner.add_result(result) }
    };
    (@one load_active) => {
        fn load_active(&self, kind: $crate::Kind) -> $crate::Reply<Vec<$crate::StoredGame>> {
            self.inner.load_active(kind)
        }
    };
    (@one load) => {
        fn load(&self, id: &str) -> $crate::Reply<Option<$crate::StoredGame>> { self.inner.load(id) }
    };
    (@one results) => {
        fn results(&self, kind: $crate::Kind) -> $crate::Reply<Vec<$crate::GameResult>> { self.inner.results(kind) }
    };
    (@one results_of) => {
        fn results_of(&self, game_id: &str) -> $crate::Reply<Vec<$crate::GameResult>> {
            self.inner.results_of(game_id)
        }
    };
    (@one forget_results) => {
        fn forget_results(&self, kind: $crate::Kind, before: i64) -> $crate::Ticket {
            self.inner.forget_results(kind, before)
        }
    };
    (@one tallies) => {
        fn tallies(&self, kind: $crate::Kind, offset: u64, limit: u64) -> $crate::Reply<$crate::TallyPage> {
            self.inner.tallies(kind, offset, limit)
        }
    };
    (@one untallied) => {
        fn untallied(&self, kind: $crate::Kind) -> $crate::Reply<Vec<$crate::GameResult>> {
            self.inner.untallied(kind)
        }
    };
    (@one tally) => {
        fn tally(
            &self,
            kind: $crate::Kind,
            game_id: &str,
            finished_at: i64,
            tallies: Option<Vec<$crate::Tally>>,
        ) -> $crate::Ticket {
            self.inner.tally(kind, game_id, finished_at, tallies)
        }
    };
    (@one people) => {
        fn people(&self) -> Option<$crate::SharedPeople> { self.inner.people() }
    };
}
