//! What the table core refuses, in its own words: no HTTP here. The HTTP adapter maps each
//! reason to a status and a stable `code` in one place (`crate::error`).

use thiserror::Error;
use uno::IllegalAction;

/// A refusal of the table core (tables, seats, actions, records, replays, analyses). The same
/// reasons serve Duel's routes where they mean the same (no such ply, not kept, server full, ...).
#[derive(Debug, Error)]
pub enum TableError {
    /// Something the caller sent that the table core cannot take (a name, a rules choice, ...).
    #[error("{0}")]
    Invalid(String),
    #[error("{field} is too long: at most {max} characters")]
    TooLong { field: &'static str, max: usize },
    #[error("this needs a seat token: send `Authorization: Bearer <token>` (on the WebSocket: the subprotocol `bearer.<token>`)")]
    MissingToken,
    #[error("this token does not hold a seat at this table")]
    BadToken,
    #[error("this table does not allow spectators")]
    SpectatorsNotAllowed,
    #[error("there is no table {0:?}")]
    NoSuchTable(String),
    #[error("the action was based on version {sent}, the table is at version {current}: read the table again")]
    StaleState { sent: u64, current: u64 },
    #[error("{0}")]
    Illegal(IllegalAction),
    #[error("the table is waiting for players to take every human seat")]
    NotStarted,
    #[error("the game is not over yet")]
    NotFinished,
    #[error("the game is still played: its record and the whole table are shown once it is over")]
    GameNotOver,
    #[error("no game record is kept for {0:?}")]
    NotKept(String),
    #[error("the record does not replay: {0}")]
    InvalidRecord(String),
    #[error("there is no ply {ply}: the game has plies 0 to {last}")]
    NoSuchPly { ply: usize, last: usize },
    #[error("seat {0} is not open")]
    SeatTaken(usize),
    #[error("there is no open seat at this table")]
    TableFull,
    #[error("another seat at this table has this name: choose another")]
    NameTaken,
    #[error("only the table's creator (holding the seat it created with) may close it")]
    NotOwner,
    #[error("invalid rules: {0}")]
    Rules(#[from] uno::RulesError),
    #[error("{0}")]
    UnknownBot(#[from] uno_bots::BotSpecError),
    #[error("you already have {0} unfinished tables: finish or close one first")]
    TooManyTables(usize),
    #[error("the server holds as many tables as it may; try again later")]
    ServerFull,
    /// The client imported as many records as it may in an hour; `retry` seconds until the
    /// oldest of them is an hour old.
    #[error("at most {limit} records may be imported an hour; try again in {retry} s")]
    TooManyImports { limit: usize, retry: u64 },
    /// The table's lease is held by another instance (it adopted the table): this one does not
    /// serve it. Without a cluster (`--nats`) the client must go there; in one, requests are
    /// forwarded to it.
    #[error("table {0} is served by another instance")]
    OwnedElsewhere(String),
    /// In a cluster: the instance that holds the table did not answer in time (it stopped and
    /// no other has adopted the table yet, or the message bus is down). Nothing was
    /// acknowledged; an action sent again with the same version is refused if it was taken.
    #[error("the instance serving table {0} does not answer; try again shortly")]
    OwnerUnavailable(String),
    #[error("the game store is unavailable: {0}")]
    Store(#[from] store::StoreError),
    /// A read from the store did not answer within `limits::STORE_READ_TIMEOUT`.
    #[error("the game store did not answer within {0:?}")]
    StoreSilent(std::time::Duration),
    /// Every analysis worker is busy and the queue is full.
    #[error("the server is analysing as many games as it may; try again in a minute")]
    AnalysisBusy,
    #[error("this client has as many analyses under way as it may ({0}): wait for one to finish")]
    TooManyAnalyses(usize),
    #[error("the analysis took longer than the server allows ({0} s): ask for fewer samples")]
    AnalysisTimeout(u64),
    /// A fault of the server (a record that does not encode, a worker gone): logged, and
    /// answered in general terms.
    #[error("internal error: {0}")]
    Internal(String),
}
