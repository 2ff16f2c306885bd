//! Persistence for tabletop: every game is kept as its header (the engine version, rules, seed
//! and seats), an append-only log of actions, and server metadata (seat names, hashed tokens,
//! settings). A game is rebuilt by replaying the log on its header; a finished game's record
//! (its header with every move) is kept with its result.
//!
//! The server talks to a [`GameStore`], a trait with two backends:
//! - [`SqliteStore`], the default: one file, no setup (see [`sqlite`]);
//! - [`PgStore`], PostgreSQL, for a site that runs its database apart from the server (see
//!   [`postgres`]).
//!
//! Both group-commit: writes queued by many tables go into one transaction, and every caller is
//! told only once its write is durable. Writes are applied in the order they were queued, and a
//! read sees every write queued before it. Both speak one command language, and one layer turns
//! the trait's calls into it (`command.rs`); each backend writes only how it applies them.
//!
//! What is written is typed: a [`Header`], [`Meta`], [`Entry`], [`Record`] or [`Outcome`] can only be
//! made by serialising a value, so nothing reaches the store that is not a JSON document. The store knows
//! nothing else about UNO or Duel: [`Kind`] names the game, and the documents are the game's own.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use thiserror::Error;
use tokio::sync::oneshot;

mod command;
mod forward;
mod journal;
pub mod people;
pub mod postgres;
pub mod sqlite;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use people::PeopleStore;
pub use postgres::{lease_renewals, Lease, PgStore};
pub use sqlite::{exists, SqliteStore};

/// A results row's `counted`: from before results carried tallies (see [`GameStore::untallied`]).
pub(crate) const UNTALLIED: i64 = -1;

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL's refusal with its own reason (severity, SQLSTATE, message, detail), not
    /// the driver's bare "db error".
    #[error("database: {}", postgres::reason(.0))]
    Postgres(#[from] tokio_postgres::Error),
    #[error("database connection: {0}")]
    Connect(String),
    #[error("the database was written by a newer tabletop (schema {found}, this build knows {known})")]
    NewerSchema { found: i64, known: i64 },
    #[error("no game {0} in the store")]
    NoSuchGame(String),
    #[error("game {0} is already in the store")]
    Duplicate(String),
    #[error("game {id}: expected action number {expected}, got {got}")]
    OutOfOrder { id: String, expected: i64, got: i64 },
    /// The action was written by someone else first (another server on the same database).
    #[error("game {id}: action number {seq} was already written by another writer")]
    Conflict { id: String, seq: i64 },
    /// This store no longer holds the game's lease (another instance adopted it, at a later
    /// epoch): nothing was written.
    #[error("game {id} is owned by another instance now")]
    Fenced { id: String },
    #[error("the store's writer has stopped")]
    Closed,
    #[error("commit failed: {0}")]
    Commit(String),
    #[error("cannot encode a {what}: {why}")]
    Encode { what: &'static str, why: String },
    #[error("cannot decode a stored {what}: {why}")]
    Decode { what: &'static str, why: String },
    #[error("the store holds something this build cannot read: {0}")]
    Corrupt(String),
    /// Another account holds the name (as names are compared).
    #[error("the name is another account's")]
    NameTaken,
    #[error("no such account")]
    NoSuchAccount,
    #[error("no such credential on this account")]
    NoSuchCredential,
    /// An account keeps at least one way to sign in.
    #[error("an account's last credential cannot be removed")]
    LastCredential,
    /// As many passkey ceremonies as the caller allows are under way: none is added.
    #[error("too many passkey ceremonies are under way")]
    TooManyCeremonies,
    /// A rated game the store refused to rate (its seats, or what its rater answered).
    #[error("cannot rate the game: {0}")]
    Rating(String),
}

/// Which game a stored game is: the game's name (`uno`, `duel`, ...), one to
/// [`Kind::MAX_LEN`] lower-case ASCII letters, digits and `-`. The store holds any game's, so a
/// new game needs nothing of the store but a name of its own. Small and `Copy`, as an enum would be.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Kind {
    len: u8,
    name: [u8; Kind::MAX_LEN],
}

impl Kind {
    /// The longest name.
    pub const MAX_LEN: usize = 15;
    pub const UNO: Kind = Kind::new("uno");
    pub const DUEL: Kind = Kind::new("duel");

    /// The kind named `name`. For the constant a game declares itself: a name that is not a
    /// kind's (empty, too long, another character) fails to compile in a `const`, and panics
    /// elsewhere; names read from outside go through [`Kind::parse`].
    pub const fn new(name: &'static str) -> Kind {
        match Kind::checked(name.as_bytes()) {
            Some(k) => k,
            None => panic!("a kind is 1 to 15 lower-case ASCII letters, digits and '-'"),
        }
    }

    const fn checked(b: &[u8]) -> Option<Kind> {
        if b.is_empty() || b.len() > Kind::MAX_LEN {
            return None;
        }
        let mut name = [0u8; Kind::MAX_LEN];
        let mut i = 0;
        while i < b.len() {
            if !(b[i].is_ascii_lowercase() || b[i].is_ascii_digit() || b[i] == b'-') {
                return None;
            }
            name[i] = b[i];
            i += 1;
        }
        Some(Kind { len: b.len() as u8, name })
    }

    /// A kind's name as stored or sent.
    pub fn parse(s: &str) -> Result<Kind, StoreError> {
        Kind::checked(s.as_bytes()).ok_or_else(|| StoreError::Corrupt(format!("not a game kind: {:?}", s)))
    }

    pub fn as_str(&self) -> &str {
        // Only ASCII is ever put in `name`.
        std::str::from_utf8(&self.name[..self.len as usize]).unwrap_or("")
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Kind({})", self.as_str())
    }
}

impl Serialize for Kind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Kind, D::Error> {
        let s = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Kind::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// Where a stored game stands: whether a starting server rebuilds it (the stored form of a
/// table's lifecycle, coarser: a table waiting for players and one in play are both active).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// Rebuilt when the server starts.
    Active,
    Finished,
    /// Left idle too long; kept for the record, never rebuilt.
    Abandoned,
}

impl Standing {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Standing::Active => "active",
            Standing::Finished => "finished",
            Standing::Abandoned => "abandoned",
        }
    }
    pub(crate) fn parse(s: &str) -> Standing {
        match s {
            "finished" => Standing::Finished,
            "abandoned" => Standing::Abandoned,
            _ => Standing::Active,
        }
    }
}

/// A JSON document of one sort; made only by serialising a value (or read back from the store).
macro_rules! document {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq)]
        pub struct $name(String);

        impl $name {
            pub fn new<T: Serialize + ?Sized>(value: &T) -> Result<$name, StoreError> {
                serde_json::to_string(value)
                    .map($name)
                    .map_err(|e| StoreError::Encode { what: $what, why: e.to_string() })
            }
            pub fn decode<T: DeserializeOwned>(&self) -> Result<T, StoreError> {
                serde_json::from_str(&self.0).map_err(|e| StoreError::Decode { what: $what, why: e.to_string() })
            }
            /// The JSON text, as stored.
            pub fn as_json(&self) -> &str {
                &self.0
            }
            /// Only for text the store itself wrote: it was made by [`Self::new`].
            pub(crate) fn stored(json: String) -> $name {
                $name(json)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({})", stringify!($name), self.0)
            }
        }
    };
}

document!(
    /// A stored game's header: what its log is replayed on (the rules, the seed, the size), its
    /// record without the moves (those are the log's).
    Header,
    "header"
);
document!(
    /// The record of a finished game's moves: its header with every move (and whatever else its
    /// game keeps with it, such as who played), kept with its result.
    Record,
    "record"
);
document!(
    /// The server's data about a game besides its header and log (seats, tokens' hashes, settings).
    Meta,
    "meta"
);
document!(
    /// One action of a game's log.
    Entry,
    "log entry"
);
document!(
    /// How a finished game ended.
    Outcome,
    "outcome"
);

/// A game to store: standing active, empty log.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub id: String,
    pub kind: Kind,
    pub header: Header,
    pub meta: Meta,
}

/// A finished game's result, kept for statistics.
#[derive(Clone, Debug)]
pub struct NewResult {
    pub game_id: String,
    pub kind: Kind,
    pub record: Record,
    /// The length of its log.
    pub actions: u64,
    pub outcome: Outcome,
    /// What the game adds to the statistics of its kind, one tally a player (written with the
    /// result, in one transaction); `None`: it counts in no statistics (an imported file).
    pub tallies: Option<Vec<Tally>>,
}

/// One player's counts in the statistics of a kind: what one game adds, or (read back) the
/// player's totals over the kept results. The store adds them up; what they count is the
/// caller's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub name: String,
    pub games: i64,
    pub wins: i64,
    pub points: i64,
    pub challenges_won: i64,
    pub uno_missed: i64,
}

/// One page of the statistics of a kind: read from the kept totals, so its cost is the page's,
/// not the history's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TallyPage {
    /// Players with a tally.
    pub players: i64,
    /// Results counted.
    pub games: i64,
    /// The most games first, then the most wins, then by name (bytewise).
    pub page: Vec<Tally>,
}

/// A game as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    pub id: String,
    pub kind: Kind,
    pub header: Header,
    pub meta: Meta,
    pub standing: Standing,
    /// The action log, in order.
    pub actions: Vec<Entry>,
    pub created_at: i64,
    /// The last change to the game itself (created, meta, standing, reset); appends leave it.
    pub updated_at: i64,
}

/// One finished game, for statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    pub game_id: String,
    pub kind: Kind,
    pub record: Record,
    pub actions: i64,
    pub outcome: Outcome,
    pub finished_at: i64,
}

/// The answer to a queued request: await it (or [`Reply::wait`] outside async code). For a
/// write, `Ok` means durable.
#[must_use = "a store request is only known to be done when its reply is awaited"]
pub struct Reply<T>(oneshot::Receiver<Result<T, StoreError>>);

/// A queued write.
pub type Ticket = Reply<()>;

impl<T> Reply<T> {
    /// A reply and the sender a backend answers it with.
    pub fn channel() -> (oneshot::Sender<Result<T, StoreError>>, Reply<T>) {
        let (tx, rx) = oneshot::channel();
        (tx, Reply(rx))
    }
    /// A reply that is already known.
    pub fn ready(value: Result<T, StoreError>) -> Reply<T> {
        let (tx, reply) = Reply::channel();
        let _ = tx.send(value);
        reply
    }
    pub async fn done(self) -> Result<T, StoreError> {
        self.await
    }
    /// Blocks the thread until the answer is there. Not for async code.
    pub fn wait(self) -> Result<T, StoreError> {
        self.0.blocking_recv().unwrap_or(Err(StoreError::Closed))
    }
}

impl<T> Future for Reply<T> {
    type Output = Result<T, StoreError>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        // A dropped sender means the backend's worker is gone.
        Pin::new(&mut self.0).poll(cx).map(|r| r.unwrap_or(Err(StoreError::Closed)))
    }
}

/// Where the server keeps its games. Every method queues its request and returns at once; the
/// requests of one handle are carried out in the order they were made.
pub trait GameStore: Send + Sync + 'static {
    /// The backend's name, for logs ("sqlite", "postgres").
    fn backend(&self) -> &'static str;
    /// Where the data is, for logs (a file path, or a database URL without its password).
    fn location(&self) -> String;

    /// Stores a new game (standing active, empty log); refused if the id is taken.
    fn create(&self, game: NewGame) -> Ticket;
    /// Appends action number `seq` (0-based) to a game's log; refused unless it is the next one
    /// (`OutOfOrder`), or if another writer wrote that number first (`Conflict`).
    fn append(&self, id: &str, seq: u64, entry: Entry) -> Ticket;
    fn set_meta(&self, id: &str, meta: Meta) -> Ticket;
    /// A game that is no longer active is never rebuilt.
    fn set_standing(&self, id: &str, standing: Standing) -> Ticket;
    /// Starts the game over with a new header (a rematch): the log is emptied, standing active.
    fn reset(&self, id: &str, header: Header, meta: Meta) -> Ticket;
    /// Keeps a finished game's result for statistics.
    fn add_result(&self, result: NewResult) -> Ticket;
    /// Keeps a record sent in from outside (an import: it counts in no statistics), then forgets
    /// the oldest imports until the kept imports' records take at most `budget` bytes
    /// together, the new one included: imports cannot grow the store without bound. The
    /// default keeps it as [`GameStore::add_result`] does, with no budget (for wrappers).
    fn add_import(&self, result: NewResult, budget: u64) -> Ticket {
        let _ = budget;
        self.add_result(result)
    }

    /// Every active game of `kind`, with its log, oldest first: what a starting server rebuilds.
    fn load_active(&self, kind: Kind) -> Reply<Vec<StoredGame>>;
    fn load(&self, id: &str) -> Reply<Option<StoredGame>>;
    /// The results kept for `kind`, oldest first.
    fn results(&self, kind: Kind) -> Reply<Vec<GameResult>>;
    /// The results kept for one game id (one a game: a table's rematches share its id), oldest
    /// first.
    fn results_of(&self, game_id: &str) -> Reply<Vec<GameResult>>;
    /// Forgets the results of `kind` that finished before `before` (Unix milliseconds), and
    /// every game of `kind` that left play (finished, abandoned) before it, with its log: how a
    /// server keeps its records for a limited time. Their tallies are taken off the totals.
    fn forget_results(&self, kind: Kind, before: i64) -> Ticket;

    /// One page of the totals of `kind`'s tallies (see [`TallyPage`]).
    fn tallies(&self, kind: Kind, offset: u64, limit: u64) -> Reply<TallyPage>;
    /// The results of `kind` stored before results carried their tallies, oldest first: the
    /// caller works their tallies out once and gives them with [`GameStore::tally`].
    fn untallied(&self, kind: Kind) -> Reply<Vec<GameResult>>;
    /// Sets the tallies of an untallied result (`None`: it counts for nothing) and adds them
    /// to the totals; nothing if the result is tallied already.
    fn tally(&self, kind: Kind, game_id: &str, finished_at: i64, tallies: Option<Vec<Tally>>) -> Ticket;

    /// How long this store's lease on a game lasts, for a store that shares its database with
    /// other instances (each game then has one owner at a time); `None` for a store that is the
    /// only writer of its games.
    fn lease(&self) -> Option<Duration> {
        None
    }
    /// Whether this store may write the game: it holds its lease (always, without leases).
    fn holds(&self, _id: &str) -> bool {
        true
    }
    /// Whether the game's lease is known to be still running (renewed, or taken, less than a
    /// lease ago), so what this process holds of it is the game as it is: past that, another
    /// instance may have adopted it while this one was paused or cut off, and its state must
    /// not be served until the lease is checked again. Always, without leases.
    fn fresh(&self, _id: &str) -> bool {
        true
    }
    /// Takes over the active games of `kind` whose owner stopped renewing its lease, and
    /// answers them with their logs, to be rebuilt; nothing without leases.
    fn adopt(&self, _kind: Kind) -> Reply<Vec<StoredGame>> {
        Reply::ready(Ok(Vec::new()))
    }
    /// The server is done with a game (finished, dropped from memory): stop renewing its lease.
    fn release(&self, _id: &str) {}
    /// The server is stopping: once every write queued before is committed, ends every lease
    /// this store holds (they run out now, so another instance adopts the games at its next
    /// look instead of a lease later) and holds no game from then on; answers how many leases
    /// it ended. Nothing without leases.
    fn hand_over(&self) -> Reply<usize> {
        Reply::ready(Ok(0))
    }
    /// The name of the instance whose lease on the game was taken last (it may have run out
    /// since); `None` for a game nobody holds, or a store without leases.
    fn holder(&self, _id: &str) -> Reply<Option<String>> {
        Reply::ready(Ok(None))
    }

    /// The people's side of this store (accounts, sessions, ratings: see [`people`]), on the
    /// same database and through the same writer; `None` for a store that keeps no people (a
    /// wrapper that does not pass them on).
    fn people(&self) -> Option<SharedPeople> {
        None
    }
}

/// The people's side of a store, as the server holds it.
pub type SharedPeople = Arc<dyn PeopleStore>;

/// A store as the server holds it: any backend.
pub type SharedStore = Arc<dyn GameStore>;

impl From<SqliteStore> for SharedStore {
    fn from(s: SqliteStore) -> SharedStore {
        Arc::new(s)
    }
}

impl From<PgStore> for SharedStore {
    fn from(s: PgStore) -> SharedStore {
        Arc::new(s)
    }
}

/// The SQL (both backends) that adds one tally (negative to take it off) to the totals.
pub(crate) const ADD_TALLY: &str = "INSERT INTO tallies (kind, name, games, wins, points, challenges_won, uno_missed)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (kind, name) DO UPDATE SET games = tallies.games + excluded.games,
        wins = tallies.wins + excluded.wins, points = tallies.points + excluded.points,
        challenges_won = tallies.challenges_won + excluded.challenges_won,
        uno_missed = tallies.uno_missed + excluded.uno_missed";

/// The stored form of a result's tallies: the JSON list, or "" for none.
pub(crate) fn tallies_json(t: &Option<Vec<Tally>>) -> Result<(i64, String), StoreError> {
    match t {
        None => Ok((0, String::new())),
        Some(t) => serde_json::to_string(t)
            .map(|j| (1, j))
            .map_err(|e| StoreError::Encode { what: "tallies", why: e.to_string() }),
    }
}

pub(crate) fn tallies_from_json(j: &str) -> Result<Vec<Tally>, StoreError> {
    serde_json::from_str(j).map_err(|e| StoreError::Decode { what: "tallies", why: e.to_string() })
}

pub(crate) fn now() -> i64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::Kind;

    #[test]
    fn a_kind_is_any_game_s_short_name_and_reads_back_as_written() {
        const NIM: Kind = Kind::new("nim-2");
        for k in [Kind::UNO, Kind::DUEL, NIM] {
            assert_eq!(Kind::parse(k.as_str()).expect("a kind"), k);
            let json = serde_json::to_string(&k).expect("json");
            assert_eq!(serde_json::from_str::<Kind>(&json).expect("back"), k);
        }
        assert_eq!(NIM.as_str(), "nim-2");
        assert_ne!(Kind::UNO, Kind::DUEL);
        for bad in ["", "Uno", "uno duel", "a-name-longer-than-15", "ünö"] {
            assert!(Kind::parse(bad).is_err(), "{bad:?}");
        }
    }

    use crate::testing::{self, TempPostgres};
    use crate::{PgStore, SharedStore, SqliteStore};

    #[tokio::test]
    async fn the_suite_passes_on_sqlite() {
        let dir = tempfile::tempdir().expect("tempdir");
        let open = |name: String| {
            let path = dir.path().join(format!("{name}.db"));
            async move { SharedStore::from(SqliteStore::open(&path).expect("open")) }
        };
        testing::run_all(open).await;
        // The front of the journal's `log` is trimmed as games leave play or fall behind: what
        // remains is about what the games in play hold.
        let conn = rusqlite::Connection::open(dir.path().join("model.db")).expect("open");
        let in_log: i64 = conn.query_row("SELECT COUNT(*) FROM log", [], |r| r.get(0)).expect("count");
        assert!(in_log < 400, "{in_log} rows left in log");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_suite_passes_on_postgres() {
        let pg = Arc::new(TempPostgres::start_or_fail());
        let made = Arc::new(std::sync::Mutex::new(std::collections::HashSet::new()));
        let open = |name: String| {
            let (pg, made) = (pg.clone(), made.clone());
            async move {
                let fresh = made.lock().expect("lock").insert(name.clone());
                let url = if fresh { pg.create_database(&name).await.expect("create database") } else { pg.url(&name) };
                SharedStore::from(PgStore::connect(&url).await.expect("connect"))
            }
        };
        testing::run_all(open).await;
        // Two instances on one database, each with its lease.
        let url = pg.create_database("two_writers").await.expect("create database");
        testing::a_stale_owner_is_fenced(&url).await;
        let url = pg.create_database("handed_over").await.expect("create database");
        testing::a_handed_over_lease_stays_ended(&url).await;
        let url = pg.create_database("busy").await.expect("create database");
        testing::busy_appends_and_renewals_never_fail(&url).await;
        // The database goes away and comes back.
        let url = pg.create_database("outage").await.expect("create database");
        let s = PgStore::connect(&url).await.expect("connect");
        testing::an_outage_refuses_writes_and_play_resumes_after_it(
            &s,
            || pg.stop().expect("stop PostgreSQL"),
            || pg.resume().expect("start PostgreSQL again"),
        )
        .await;
        // A database from a newer build is refused.
        let url = pg.create_database("newer").await.expect("create database");
        drop(PgStore::connect(&url).await.expect("connect"));
        let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.expect("connect");
        tokio::spawn(conn);
        client.batch_execute("UPDATE tabletop_schema SET version = 99").await.expect("bump");
        assert!(matches!(PgStore::connect(&url).await, Err(crate::StoreError::NewerSchema { found: 99, .. })));
        // A refusal says PostgreSQL's own reason, not "db error".
        let err = PgStore::connect(&pg.url("no_such_database")).await.map(|_| ()).expect_err("no such database");
        let text = err.to_string();
        assert!(text.contains("3D000") && text.contains("does not exist"), "{text}");
        // Every connection gets the session's bounds.
        let url = pg.create_database("settings").await.expect("create database");
        let mut config: tokio_postgres::Config = url.parse().expect("url");
        crate::postgres::session_settings(&mut config, std::time::Duration::from_millis(5_000));
        let (client, conn) = config.connect(tokio_postgres::NoTls).await.expect("connect");
        tokio::spawn(conn);
        for (name, want) in [("statement_timeout", "30s"), ("idle_in_transaction_session_timeout", "5s")] {
            let got: String = client.query_one(&format!("SHOW {name}"), &[]).await.expect("show").get(0);
            assert_eq!(got, want, "{name}");
        }
    }
}
