//! People: accounts, their credentials (passkeys, a password hash), sessions (kept only as a
//! hash of their token), the passkey ceremonies under way, sign-in attempts counted for
//! throttling, ratings per pool with their history, and the seats an account held.
//!
//! Everything here lives in the database, never in one instance's memory, so a cluster's
//! every instance sees a sign-in, a sign-out or a rating at once. The commands go through the
//! same writer as the games' (so a read sees every write queued before it, and a rated result
//! is ordered after the game's last action); each runs in a transaction of its own, after the
//! writes queued before it are committed: they are rare (a sign-in, a game's end), and one of
//! them may read and write several tables.
//!
//! The store knows no rule of rating: a rated game brings its [`Rater`], a function from the
//! ratings its seats hold to the ratings they get, which the store calls inside the
//! transaction that stores the game's result, with the rows it read locked. So two games that
//! end together for one person never lose an update, on any number of instances.

use std::fmt;

use crate::{NewResult, Reply, StoreError, Ticket};

/// The most characters of a session's description of its browser that are kept.
pub const MAX_AGENT: usize = 200;

/// An account to create, with its first credential.
#[derive(Clone, Debug)]
pub struct NewAccount {
    /// A fresh random id (a UUID: passkeys name their user by it).
    pub id: String,
    /// The name as the person wrote it.
    pub name: String,
    /// The name folded as names are compared (case and invisible characters aside): unique
    /// among accounts, so a name is one account's.
    pub name_key: String,
    /// The way to sign in it is made with (a passkey or a password).
    pub credential: NewCredential,
}

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: String,
    /// The name; empty once the account is deleted.
    pub name: String,
    pub created_at: i64,
    /// When it was deleted: its row stays, nameless, so the games it played still say whose
    /// seat was a deleted player's.
    pub deleted_at: Option<i64>,
}

/// What a credential is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CredentialKind {
    /// A WebAuthn credential: `data` is the passkey as the WebAuthn library serialises it.
    Passkey,
    /// `data` is an Argon2id hash in PHC form. An account has at most one.
    Password,
}

impl CredentialKind {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CredentialKind::Passkey => "passkey",
            CredentialKind::Password => "password",
        }
    }
    pub(crate) fn parse(s: &str) -> Result<CredentialKind, StoreError> {
        match s {
            "passkey" => Ok(CredentialKind::Passkey),
            "password" => Ok(CredentialKind::Password),
            other => Err(StoreError::Corrupt(format!("unknown credential kind {other:?}"))),
        }
    }
}

/// A credential to add.
#[derive(Clone, Debug)]
pub struct NewCredential {
    /// A passkey's credential id (unique among all passkeys); for a password, ignored (the
    /// store names it after its account: one a person).
    pub id: String,
    pub kind: CredentialKind,
    pub data: String,
}

impl NewCredential {
    /// The id a password is stored under: one per account.
    pub fn password_id(account: &str) -> String {
        format!("password:{account}")
    }
}

/// A credential as stored.
#[derive(Clone, PartialEq, Eq)]
pub struct Credential {
    pub id: String,
    pub account: String,
    pub kind: CredentialKind,
    pub data: String,
    pub created_at: i64,
    /// The last sign-in with it.
    pub used_at: Option<i64>,
}

impl fmt::Debug for Credential {
    // Never a hash or a key in a log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Credential({} {:?} of {})", self.id, self.kind, self.account)
    }
}

/// A session to store: only its token's hash, never the token.
#[derive(Clone, Debug)]
pub struct NewSession {
    pub token_hash: String,
    pub account: String,
    pub expires_at: i64,
    /// The browser it was made in (its `User-Agent`, cut to [`MAX_AGENT`]), so the account page
    /// can list where one is signed in.
    pub agent: String,
}

/// A live session, with its account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    pub token_hash: String,
    pub account: Account,
    pub created_at: i64,
    pub expires_at: i64,
    pub agent: String,
}

/// A passkey ceremony under way: what the server must remember between its two requests,
/// for a short time, on whichever instance the second one reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ceremony {
    pub id: String,
    /// Which ceremony ("sign_up", "sign_in", "add_passkey"): taken back only as the same.
    pub kind: String,
    /// The WebAuthn library's state, serialised.
    pub state: String,
    pub expires_at: i64,
}

/// The answer to counting an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// Counted; go ahead.
    Allowed,
    /// Over the limit: try again in this many milliseconds (not counted).
    Wait(i64),
}

/// A limit on attempts: at most `limit` in a window of `window_ms` (the window starts at the
/// first attempt after the last one ended).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    pub limit: i64,
    pub window_ms: i64,
}

/// One rating as the store keeps it (the server's rating code gives it meaning).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingState {
    pub mean: f64,
    pub deviation: f64,
    pub games: i64,
    pub last_played: Option<i64>,
}

/// An account's rating in one pool.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolRating {
    pub pool: String,
    pub rating: RatingState,
}

/// Works out a rated game's new ratings from the ones its seats hold (in seat order; `None`
/// for a seat's first game in the pool): one per seat, in the same order, or why not.
pub type Rater = Box<dyn FnOnce(&[Option<RatingState>]) -> Result<Vec<RatingState>, String> + Send>;

/// One seat of a rated game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedSeat {
    pub account: String,
    /// How the seat ended, as the server writes it (`"1"`, `"2"`, `"left"`): kept with the
    /// rating's history.
    pub finish: String,
}

/// A rated game's end: its result and its ratings, stored in one transaction.
pub struct RatedGame {
    /// The table's id.
    pub game_id: String,
    /// The game's result, stored with its ratings; `None` for a game rated before its end (a
    /// seat left it: the leaver ranks last, and the result is kept when the game ends).
    pub result: Option<NewResult>,
    /// Which of the table's games it is (0 the first; a rematch is the next), so each is rated
    /// once, however often its end is stored.
    pub game: i64,
    pub pool: String,
    pub seats: Vec<RatedSeat>,
    pub rater: Rater,
}

impl fmt::Debug for RatedGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RatedGame({} #{} in {}, {:?})", self.game_id, self.game, self.pool, self.seats)
    }
}

/// What a rated game did to one seat's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    pub account: String,
    pub before: Option<RatingState>,
    pub after: RatingState,
}

/// A mean and a deviation: a rating without its counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Belief {
    pub mean: f64,
    pub deviation: f64,
}

/// One point of a rating's history: a rated game and the rating after it.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingPoint {
    pub game_id: String,
    pub game: i64,
    pub at: i64,
    pub finish: String,
    /// The table's size.
    pub seats: i64,
    /// The rating before the game (`None`: the seat's first in the pool).
    pub before: Option<Belief>,
    /// The rating after it (`games` counting this one, `last_played` its end).
    pub after: RatingState,
}

/// Which ratings a leaderboard shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardQuery {
    pub pool: String,
    /// Only ratings with at least this many rated games.
    pub min_games: i64,
    /// Only players whose last rated game ended at or after this (Unix ms).
    pub active_since: i64,
    pub offset: i64,
    pub limit: i64,
}

/// A leaderboard's row.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardRow {
    pub account: String,
    pub name: String,
    pub rating: RatingState,
}

/// A leaderboard's page: the best means first (then the most games, then the earliest account).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Board {
    /// Players who qualify.
    pub total: i64,
    pub rows: Vec<BoardRow>,
}

/// A seat an account held at a table (played there, or claimed as a guest's in this browser).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatLink {
    pub game_id: String,
    pub seat: i64,
    pub since: i64,
}

/// What an account leaves behind as it is deleted.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Deleted {
    /// Sessions ended (the browsers signed out).
    pub sessions: i64,
    pub credentials: i64,
    pub ratings: i64,
}

/// The things kept for a while that are gone once they run out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Swept {
    pub sessions: i64,
    pub ceremonies: i64,
    pub attempts: i64,
}

/// The people's side of a store. Every method queues its request, as the games' do.
pub trait PeopleStore: Send + Sync + 'static {
    /// Creates an account with its first credential; refused as [`StoreError::NameTaken`] when
    /// its `name_key` is another account's, [`StoreError::Duplicate`] for a taken id or
    /// passkey.
    fn create_account(&self, account: NewAccount) -> Ticket;
    fn account(&self, id: &str) -> Reply<Option<Account>>;
    /// The live account holding a folded name.
    fn account_named(&self, name_key: &str) -> Reply<Option<Account>>;
    /// Adds a credential to a live account (a password replaces the one it had).
    fn add_credential(&self, account: &str, credential: NewCredential) -> Ticket;
    /// A live account's credentials, oldest first.
    fn credentials(&self, account: &str) -> Reply<Vec<Credential>>;
    /// A passkey by its id, if its account is live.
    fn passkey(&self, id: &str) -> Reply<Option<Credential>>;
    /// A credential was used to sign in at `at`; a passkey's data may have changed (its counter).
    fn used_credential(&self, id: &str, data: Option<String>, at: i64) -> Ticket;
    /// Removes a credential, unless it is the account's last ([`StoreError::LastCredential`]).
    fn remove_credential(&self, account: &str, id: &str) -> Ticket;
    /// Deletes an account: its name is free again, its credentials, sessions, ratings and their
    /// history are gone; the nameless row stays for the seats it held.
    fn delete_account(&self, id: &str) -> Reply<Deleted>;

    fn create_session(&self, session: NewSession) -> Ticket;
    /// The session a token's hash names, unless it ran out by `now` or its account is gone.
    fn session(&self, token_hash: &str, now: i64) -> Reply<Option<Session>>;
    /// A live account's sessions not run out by `now`, newest first.
    fn sessions(&self, account: &str, now: i64) -> Reply<Vec<Session>>;
    /// Ends one session.
    fn end_session(&self, token_hash: &str) -> Ticket;
    /// Ends every session of an account: how many there were.
    fn end_sessions(&self, account: &str) -> Reply<i64>;

    /// Stores a ceremony, after deleting those that ran out by `now`; refused as
    /// [`StoreError::TooManyCeremonies`] when `max_live` are under way (so their number is
    /// bounded whoever starts them).
    fn put_ceremony(&self, ceremony: Ceremony, now: i64, max_live: i64) -> Ticket;
    /// Takes a ceremony of this kind back (once: it is gone after), unless it ran out by `now`.
    fn take_ceremony(&self, id: &str, kind: &str, now: i64) -> Reply<Option<Ceremony>>;

    /// Counts an attempt under `key` at `now`, unless `limit`'s count for its window is reached.
    fn attempt(&self, key: &str, now: i64, limit: Limit) -> Reply<Attempt>;
    /// Forgets the attempts counted under `key`.
    fn forgive(&self, key: &str) -> Ticket;
    /// Deletes the sessions and ceremonies that ran out by `now`, and the attempts whose window
    /// of `window_ms` is over.
    fn sweep(&self, now: i64, window_ms: i64) -> Reply<Swept>;

    /// Stores a rated game's result and rates it, in one transaction: the ratings its seats
    /// hold are read (and locked), given to its rater, and what it answers is stored with a
    /// point of each seat's history. A game rated before is not rated again: its result is not
    /// stored twice, and the answer is empty.
    fn rate(&self, game: RatedGame) -> Reply<Vec<RatingChange>>;
    /// A live account's ratings, by pool.
    fn ratings(&self, account: &str) -> Reply<Vec<PoolRating>>;
    /// The newest `limit` points of an account's history in a pool, oldest first.
    fn rating_history(&self, account: &str, pool: &str, limit: i64) -> Reply<Vec<RatingPoint>>;
    fn leaderboard(&self, query: BoardQuery) -> Reply<Board>;

    /// Records that an account holds (or held) a seat of a game; once.
    fn link_seat(&self, account: &str, game_id: &str, seat: i64, at: i64) -> Ticket;
    /// The newest `limit` seats an account held, newest first.
    fn seat_links(&self, account: &str, limit: i64) -> Reply<Vec<SeatLink>>;
    /// The accounts holding seats of a game: `(seat, account)`, by seat.
    fn seat_holders(&self, game_id: &str) -> Reply<Vec<(i64, Account)>>;
}

/// Cuts a session's browser description to [`MAX_AGENT`] characters.
pub(crate) fn cut_agent(agent: &str) -> String {
    agent.chars().take(MAX_AGENT).collect()
}

/// Checks what a rater answered: one finite rating a seat.
pub(crate) fn check_rated(seats: usize, after: &[RatingState]) -> Result<(), StoreError> {
    if after.len() != seats {
        return Err(StoreError::Rating(format!("{} ratings for {seats} seats", after.len())));
    }
    if after.iter().any(|r| !r.mean.is_finite() || !r.deviation.is_finite() || r.deviation <= 0.0) {
        return Err(StoreError::Rating("a rating that is not a finite mean and a positive deviation".into()));
    }
    Ok(())
}

/// The seats of a rated game, checked: 2 or more, and no account twice.
pub(crate) fn check_seats(seats: &[RatedSeat]) -> Result<(), StoreError> {
    if seats.len() < 2 {
        return Err(StoreError::Rating(format!("a rated game of {} seats", seats.len())));
    }
    let mut ids: Vec<&str> = seats.iter().map(|s| s.account.as_str()).collect();
    ids.sort_unstable();
    if ids.windows(2).any(|w| w[0] == w[1]) {
        return Err(StoreError::Rating("one account holds two seats of a rated game".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    //! The people's suite on both backends, the migration from a database made before accounts,
    //! and two instances on one PostgreSQL database.

    use std::sync::Arc;

    use crate::people::{Attempt, Limit, NewSession};
    use crate::testing::people::{self as suite, account, password, rated};
    use crate::testing::{entry, TempPostgres};
    use crate::{GameStore, Kind, PgStore, SharedStore, SqliteStore, Standing};

    #[tokio::test]
    async fn the_people_suite_passes_on_sqlite() {
        let dir = tempfile::tempdir().expect("tempdir");
        let open = |name: String| {
            let path = dir.path().join(format!("{name}.db"));
            async move { SharedStore::from(SqliteStore::open(&path).expect("open")) }
        };
        suite::run_all(open).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_people_suite_passes_on_postgres_and_two_instances_share_it() {
        let pg = Arc::new(TempPostgres::start_or_fail());
        let open = |name: String| {
            let pg = pg.clone();
            async move {
                let url = pg.create_database(&name).await.expect("create database");
                SharedStore::from(PgStore::connect(&url).await.expect("connect"))
            }
        };
        suite::run_all(open).await;

        // Two instances: what one writes, the other sees at its next request.
        let url = pg.create_database("people_two").await.expect("create database");
        let a = SharedStore::from(PgStore::connect(&url).await.expect("connect a"));
        let b = SharedStore::from(PgStore::connect(&url).await.expect("connect b"));
        let (pa, pb) = (a.people().expect("people"), b.people().expect("people"));
        pa.create_account(account("ann", "Ann", password("h"))).await.expect("create");
        pa.create_account(account("bob", "Bob", password("h"))).await.expect("create");
        let t = crate::now();
        let session =
            NewSession { token_hash: "s".into(), account: "ann".into(), expires_at: t + 60_000, agent: "".into() };
        pa.create_session(session).await.expect("session");
        assert!(pb.session("s", t).await.expect("read").is_some(), "signed in on a is signed in on b");
        pb.end_sessions("ann").await.expect("sign out everywhere on b");
        assert!(pa.session("s", t).await.expect("read").is_none(), "and a refuses it at once");
        assert!(matches!(
            pb.create_account(account("x", "ANN", password("h"))).await,
            Err(crate::StoreError::NameTaken)
        ));
        // Attempts are counted across instances.
        let limit = Limit { limit: 4, window_ms: 60_000 };
        let tries = (0..10).map(|i| if i % 2 == 0 { pa.attempt("k", t, limit) } else { pb.attempt("k", t, limit) });
        let allowed =
            futures_util::future::join_all(tries).await.into_iter().filter(|r| matches!(r, Ok(Attempt::Allowed)));
        assert_eq!(allowed.count(), 4);
        // Games ending at once on both instances for the same two people: none of the updates is lost.
        let games = (0..16).map(|g| {
            let p = if g % 2 == 0 { &pa } else { &pb };
            p.rate(rated("t", g, "official/duel", if g % 2 == 0 { &["ann", "bob"] } else { &["bob", "ann"] }))
        });
        for r in futures_util::future::join_all(games).await {
            assert_eq!(r.expect("rate").len(), 2);
        }
        let ann = pb.ratings("ann").await.expect("ratings");
        assert_eq!((ann[0].rating.games, ann[0].rating.mean), (16, 25.0));
        assert_eq!(pa.rating_history("bob", "official/duel", 100).await.expect("history").len(), 16);
    }

    /// A database written before accounts (schema 4, by the build before them: see
    /// `tests/data/README.md`) opens, keeps every game, action, result and tally, plays on, and
    /// holds people.
    #[tokio::test]
    async fn a_sqlite_database_from_before_accounts_keeps_everything() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("old.db");
        std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/schema-4.db"), &path).expect("copy");
        let before = snapshot(&path);
        assert_eq!(before.games.len(), 4, "{:?}", before.games);
        assert!(before.actions > 50, "{}", before.actions);
        let store = SqliteStore::open(&path).expect("migrate");
        let version: i64 = rusqlite::Connection::open(&path)
            .expect("open")
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .expect("version");
        assert_eq!(version, crate::sqlite::MIGRATIONS.len() as i64);
        check_kept(&SharedStore::from(store.clone()), &before).await;
        drop(store);
        assert_eq!(snapshot(&path), before, "every row as it was");
        // And it plays on after a restart.
        let store = SqliteStore::open(&path).expect("reopen");
        let live = store.load_active(Kind::UNO).await.expect("load");
        let next = live[0].actions.len() as u64;
        store.append(&live[0].id, next, entry("next")).await.expect("append");
        assert!(store.people().expect("people").account_named("ann").await.expect("read").is_some());
    }

    /// The same on PostgreSQL: a database made by the migrations before accounts, with games in
    /// it, migrates and keeps them.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_postgres_database_from_before_accounts_keeps_everything() {
        let pg = TempPostgres::start_or_fail();
        let url = pg.create_database("before_people").await.expect("create database");
        let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.expect("connect");
        tokio::spawn(conn);
        client
            .batch_execute(
                "CREATE TABLE tabletop_schema (one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one), version BIGINT NOT NULL)",
            )
            .await
            .expect("schema table");
        for sql in &crate::postgres::MIGRATIONS[..4] {
            client.batch_execute(sql).await.expect("old schema");
        }
        client
            .batch_execute(
                "INSERT INTO tabletop_schema (version) VALUES (4);
                 INSERT INTO games (id, kind, record, meta, status, created_at, updated_at) VALUES
                    ('live', 'uno', '{\"seed\":\"1\"}', '{\"seats\":[]}', 'active', 1, 1),
                    ('done', 'uno', '{}', '{}', 'finished', 1, 2),
                    ('duel', 'duel', '{}', '{}', 'active', 1, 1);
                 INSERT INTO leases (game_id, owner, epoch, expires_at)
                    SELECT id, '', 0, '-infinity' FROM games;
                 INSERT INTO actions (game_id, seq, action) VALUES ('live', 0, '\"a0\"'), ('live', 1, '\"a1\"'),
                    ('done', 0, '\"d0\"'), ('duel', 0, '\"x\"');
                 INSERT INTO results (game_id, kind, record, actions, result, finished_at, counted, tallies)
                    VALUES ('done', 'uno', '{\"r\":1}', 1, '{\"winner\":0}', 2, 1, '[]');
                 INSERT INTO tallies VALUES ('uno', 'Cy', 1, 0, 0, 0, 0);",
            )
            .await
            .expect("old rows");
        let store = SharedStore::from(PgStore::connect(&url).await.expect("migrate"));
        let version: i64 = client.query_one("SELECT version FROM tabletop_schema", &[]).await.expect("version").get(0);
        assert_eq!(version, crate::postgres::MIGRATIONS.len() as i64);
        let live = store.load_active(Kind::UNO).await.expect("load");
        assert_eq!(live.iter().map(|g| (g.id.as_str(), g.actions.len())).collect::<Vec<_>>(), [("live", 2)]);
        assert_eq!(live[0].header.as_json(), "{\"seed\":\"1\"}");
        assert_eq!(store.load("done").await.expect("load").expect("kept").standing, Standing::Finished);
        assert_eq!(store.results_of("done").await.expect("results").len(), 1);
        assert_eq!(store.tallies(Kind::UNO, 0, 10).await.expect("tallies").page[0].name, "Cy");
        assert_eq!(store.load_active(Kind::DUEL).await.expect("load").len(), 1);
        store.append("live", 2, entry("a2")).await.expect("plays on");
        let people = store.people().expect("people");
        people.create_account(account("ann", "Ann", password("h"))).await.expect("an account");
        drop(pg);
    }

    /// What a database holds, row by row, for comparing before and after.
    #[derive(Debug, PartialEq)]
    struct Snapshot {
        games: Vec<(String, String, String, String, String)>,
        actions: i64,
        log: Vec<(String, i64, String)>,
        results: Vec<(String, String, String, i64)>,
        tallies: Vec<(String, String, i64, i64, i64)>,
    }

    fn snapshot(path: &std::path::Path) -> Snapshot {
        let c = rusqlite::Connection::open(path).expect("open");
        let rows = |sql: &str| -> Vec<Vec<rusqlite::types::Value>> {
            let mut st = c.prepare(sql).expect("prepare");
            let n = st.column_count();
            st.query_map([], |r| (0..n).map(|i| r.get(i)).collect::<Result<Vec<_>, _>>())
                .expect("query")
                .collect::<Result<_, _>>()
                .expect("rows")
        };
        use rusqlite::types::Value::{Integer, Text};
        let text = |v: &rusqlite::types::Value| match v {
            Text(t) => t.clone(),
            other => format!("{other:?}"),
        };
        let int = |v: &rusqlite::types::Value| match v {
            Integer(i) => *i,
            _ => -999,
        };
        Snapshot {
            games: rows("SELECT id, kind, record, meta, status FROM games ORDER BY id")
                .iter()
                .map(|r| (text(&r[0]), text(&r[1]), text(&r[2]), text(&r[3]), text(&r[4])))
                .collect(),
            actions: int(&rows("SELECT COUNT(*) FROM actions")[0][0]),
            log: rows("SELECT game_id, seq, action FROM log ORDER BY id")
                .iter()
                .map(|r| (text(&r[0]), int(&r[1]), text(&r[2])))
                .collect(),
            results: rows("SELECT game_id, record, result, counted FROM results ORDER BY id")
                .iter()
                .map(|r| (text(&r[0]), text(&r[1]), text(&r[2]), int(&r[3])))
                .collect(),
            tallies: rows("SELECT kind, name, games, wins, points FROM tallies ORDER BY kind, name")
                .iter()
                .map(|r| (text(&r[0]), text(&r[1]), int(&r[2]), int(&r[3]), int(&r[4])))
                .collect(),
        }
    }

    /// The migrated store answers what the old database held: every active game with its whole
    /// log, the finished ones' results, the tallies; and it plays on and holds people.
    async fn check_kept(store: &SharedStore, before: &Snapshot) {
        let uno = store.load_active(Kind::UNO).await.expect("load");
        let duel = store.load_active(Kind::DUEL).await.expect("load");
        let active: Vec<&str> = before.games.iter().filter(|g| g.4 == "active").map(|g| g.0.as_str()).collect();
        let mut loaded: Vec<&str> = uno.iter().chain(&duel).map(|g| g.id.as_str()).collect();
        loaded.sort_unstable();
        assert_eq!(loaded, active);
        let logged: usize = uno.iter().chain(&duel).map(|g| g.actions.len()).sum();
        let finished: Vec<&str> = before.games.iter().filter(|g| g.4 == "finished").map(|g| g.0.as_str()).collect();
        let mut all = logged;
        for id in &finished {
            let g = store.load(id).await.expect("load").expect("kept");
            all += g.actions.len();
            assert_eq!(store.results_of(id).await.expect("results").len(), 1, "{id}'s result");
        }
        assert!(all >= before.log.len(), "{all} actions read back, {} in the log", before.log.len());
        let tallies = store.tallies(Kind::UNO, 0, 10).await.expect("tallies");
        assert_eq!(tallies.page.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["Cy"]);
        let people = store.people().expect("people");
        people.create_account(account("ann", "Ann", password("h"))).await.expect("an account");
    }
}
