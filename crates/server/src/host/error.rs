//! What the host refuses, in its own words: no HTTP here. The HTTP adapter maps each reason to
//! a status and a stable `code` in one place (`crate::error`).

use thiserror::Error;

/// A game's own refusal of an action (the engine's reason): its stable `code`, whether it says
/// the game (or its round) is over, and its sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    code: &'static str,
    over: bool,
    message: String,
    /// What the sentence names (a cell, a side, a key), for a page that words it in the
    /// reader's language; `None` when the sentence names nothing a page needs.
    fields: Option<serde_json::Value>,
}

impl Refusal {
    pub fn new(code: &'static str, over: bool, message: String) -> Refusal {
        Refusal { code, over, message, fields: None }
    }

    /// The refusal with what its sentence names.
    pub fn with_fields(mut self, fields: Option<serde_json::Value>) -> Refusal {
        self.fields = fields;
        self
    }

    /// What the sentence names, if a page may need it.
    pub fn fields(&self) -> Option<&serde_json::Value> {
        self.fields.as_ref()
    }

    pub fn code(&self) -> &'static str {
        self.code
    }

    /// Whether the refusal says the game (or its round) is over: nothing the action could change.
    pub fn says_over(&self) -> bool {
        self.over
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A refusal of the host (tables, seats, actions, records, replays, analyses), for every game.
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
    /// The game refused the action.
    #[error("{0}")]
    Illegal(Refusal),
    /// An action (in a request's body or a socket's message) that is not JSON.
    #[error("the request body is not valid JSON: {0}")]
    MalformedJson(String),
    /// An action that is JSON but not one of the game's.
    #[error("the request body does not fit this route: {0}")]
    InvalidBody(String),
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
    /// A record (sent in to be kept) of a game the engine would refuse to play: its rules or its
    /// start position go past the engine's limits (`uno::ReplayError::is_over_limit`).
    #[error("the record's game is larger than the engine plays: {0}")]
    RecordOverLimits(String),
    #[error("there is no ply {ply}: the game has plies 0 to {last}")]
    NoSuchPly { ply: usize, last: usize },
    #[error("seat {0} is not open")]
    SeatTaken(super::Seat),
    #[error("there is no open seat at this table")]
    TableFull,
    #[error("another seat at this table has this name: choose another")]
    NameTaken,
    /// The name is an account's, and the asker is not signed in as it.
    #[error("this name belongs to an account: sign in to sit under it, or choose another")]
    NameOwned,
    /// A rated table seats signed-in people only (and is opened by one).
    #[error("a rated table is for signed-in players: sign in first")]
    SignInRequired,
    /// One account holds one seat of a table.
    #[error("you already hold a seat at this table")]
    OneSeatEach,
    #[error("only the table's creator (holding the seat it created with) may close it")]
    NotOwner,
    /// Rules (a game's options) that cannot be played.
    #[error("invalid rules: {0}")]
    Rules(String),
    /// A bot name the game does not know.
    #[error("{0}")]
    UnknownBot(String),
    /// A quick phrase sooner after the seat's last than the table allows.
    #[error("one quick phrase every {0} seconds at most: wait a moment")]
    TooManyPhrases(u64),
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
