//! The one error type of the API (UNO tables and Duel games alike), mapped to HTTP statuses in one place ([`ApiError::status`]).
//! Every refusal answers `{code, message}`: `code` is stable for programs, `message` is for people.

use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use thiserror::Error;
use uno::IllegalAction;

#[derive(Debug, Error)]
pub enum ApiError {
    #[error("the request body is not valid JSON: {0}")]
    MalformedJson(String),
    #[error("the request body does not fit this route: {0}")]
    InvalidBody(String),
    #[error("send the body as JSON (content-type: application/json)")]
    NotJson,
    #[error("the request body is larger than the limit of {0} bytes")]
    BodyTooLarge(usize),
    #[error("{0}")]
    BadRequest(String),
    #[error("{field} is too long: at most {max} characters")]
    TooLong { field: &'static str, max: usize },
    #[error("this needs a seat token: send `Authorization: Bearer <token>` (on the WebSocket: the subprotocol `bearer.<token>`)")]
    MissingToken,
    #[error("this token does not hold a seat at this table")]
    BadToken,
    /// A seat token in the URL (`?token=`): refused, because URLs land in access logs, proxies
    /// and browser history.
    #[error("do not put the seat token in the URL: send `Authorization: Bearer <token>` (on the WebSocket: the subprotocol `bearer.<token>`)")]
    TokenInUrl,
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
    #[error("there is no such API route")]
    NoSuchRoute,
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
    #[error("too many messages: at most {0} per second")]
    RateLimited(u32),
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
    /// A Duel action or grid size the engine refused: its message is the engine's text.
    #[error("{0}")]
    Duel(#[from] duel::DuelError),
    #[error("There is no Duel game {0:?}. Start a new game.")]
    NoSuchDuel(String),
    #[error(
        "A {width}x{height} grid has no room for a red and a black piece: make it at least 2 cells (for example 1x2)."
    )]
    GridTooSmall { width: u8, height: u8 },
    #[error("You already have {0} unfinished Duel games: finish one first.")]
    TooManyDuels(usize),
    /// Every analysis worker is busy and the queue is full.
    #[error("the server is analysing as many games as it may; try again in a minute")]
    AnalysisBusy,
    #[error("one client may have {0} analysis under way at a time: wait for yours to finish")]
    TooManyAnalyses(usize),
    #[error("the analysis took longer than the server allows ({0} s): ask for fewer samples")]
    AnalysisTimeout(u64),
    #[error("internal error: {0}")]
    Internal(String),
}

/// The body of every refusal.
#[derive(Debug, Serialize)]
pub struct ErrorBody {
    pub code: &'static str,
    pub message: String,
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        use ApiError::*;
        match self {
            MalformedJson(_) | BadRequest(_) | TokenInUrl => StatusCode::BAD_REQUEST,
            InvalidBody(_) | TooLong { .. } | Rules(_) | UnknownBot(_) | GridTooSmall { .. } | InvalidRecord(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            Duel(duel::DuelError::GameOver) => StatusCode::CONFLICT,
            Duel(_) => StatusCode::UNPROCESSABLE_ENTITY,
            NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            BodyTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            MissingToken => StatusCode::UNAUTHORIZED,
            BadToken | SpectatorsNotAllowed | NotOwner | GameNotOver => StatusCode::FORBIDDEN,
            NoSuchTable(_) | NoSuchRoute | NoSuchDuel(_) | NotKept(_) | NoSuchPly { .. } => StatusCode::NOT_FOUND,
            StaleState { .. } | NotStarted | NotFinished | SeatTaken(_) | TableFull | NameTaken => StatusCode::CONFLICT,
            OwnedElsewhere(_) => StatusCode::CONFLICT,
            Illegal(IllegalAction::GameOver | IllegalAction::RoundOver) => StatusCode::CONFLICT,
            Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
            TooManyTables(_) | TooManyDuels(_) | RateLimited(_) | TooManyAnalyses(_) | TooManyImports { .. } => {
                StatusCode::TOO_MANY_REQUESTS
            }
            ServerFull | Store(_) | StoreSilent(_) | OwnerUnavailable(_) | AnalysisBusy | AnalysisTimeout(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        use ApiError::*;
        match self {
            MalformedJson(_) => "malformed_json",
            InvalidBody(_) => "invalid_body",
            NotJson => "not_json",
            BodyTooLarge(_) => "body_too_large",
            BadRequest(_) => "bad_request",
            TooLong { .. } => "too_long",
            MissingToken => "missing_token",
            BadToken => "bad_token",
            TokenInUrl => "token_in_url",
            SpectatorsNotAllowed => "spectators_not_allowed",
            NoSuchTable(_) | NoSuchRoute | NoSuchDuel(_) | NotKept(_) => "not_found",
            NoSuchPly { .. } => "no_such_ply",
            InvalidRecord(_) => "invalid_record",
            GameNotOver => "game_not_over",
            StaleState { .. } => "stale_state",
            Illegal(i) => illegal_code(*i),
            NotStarted => "not_started",
            NotFinished => "not_finished",
            SeatTaken(_) => "seat_taken",
            TableFull => "table_full",
            NameTaken => "name_taken",
            NotOwner => "not_owner",
            Rules(_) => "invalid_rules",
            UnknownBot(_) => "unknown_bot",
            TooManyTables(_) | TooManyDuels(_) => "too_many_tables",
            Duel(e) => e.code(),
            GridTooSmall { .. } => "too_small",
            ServerFull => "server_full",
            RateLimited(_) => "rate_limited",
            TooManyImports { .. } => "too_many_imports",
            OwnedElsewhere(_) => "owned_elsewhere",
            OwnerUnavailable(_) => "owner_unavailable",
            Store(_) | StoreSilent(_) => "store_unavailable",
            AnalysisBusy => "analysis_busy",
            TooManyAnalyses(_) => "too_many_analyses",
            AnalysisTimeout(_) => "analysis_timeout",
            Internal(_) => "internal",
        }
    }

    /// What the client is told. An internal or store failure is logged here with its detail
    /// (paths, SQLite's words) and answered in general terms: the detail helps an operator, not
    /// a client.
    pub fn body(&self) -> ErrorBody {
        let message = match self {
            ApiError::Internal(_) => {
                tracing::error!(error = %self, "request failed inside the server");
                "the server could not handle this request".to_string()
            }
            ApiError::Store(_) | ApiError::StoreSilent(_) => {
                tracing::warn!(error = %self, "the game store refused a request");
                "the game store is unavailable; try again shortly".to_string()
            }
            _ => bounded(self.to_string()),
        };
        ErrorBody { code: self.code(), message }
    }
}

/// The most characters of a refusal's message: a message may quote what the client sent (a
/// rules file's line, a JSON reader's words), and a refusal is no echo of a 60 KB body.
pub const MAX_MESSAGE_CHARS: usize = 500;

fn bounded(message: String) -> String {
    match message.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((cut, _)) => format!("{}…", &message[..cut]),
        None => message,
    }
}

/// The engine's own serde name for the reason (`does_not_match`, `not_your_turn`, ...), taken
/// from its `Serialize` (a unit variant's name is a `&'static str`), so the codes cannot drift
/// from the engine's.
fn illegal_code(i: IllegalAction) -> &'static str {
    serde::Serialize::serialize(&i, VariantName).unwrap_or("illegal_action")
}

/// A serializer that answers a unit variant's name, and refuses everything else.
struct VariantName;

#[derive(Debug)]
struct NotAName;

impl std::fmt::Display for NotAName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not a unit variant")
    }
}

impl std::error::Error for NotAName {}

impl serde::ser::Error for NotAName {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        NotAName
    }
}

impl serde::Serializer for VariantName {
    type Ok = &'static str;
    type Error = NotAName;
    type SerializeSeq = serde::ser::Impossible<&'static str, NotAName>;
    type SerializeTuple = serde::ser::Impossible<&'static str, NotAName>;
    type SerializeTupleStruct = serde::ser::Impossible<&'static str, NotAName>;
    type SerializeTupleVariant = serde::ser::Impossible<&'static str, NotAName>;
    type SerializeMap = serde::ser::Impossible<&'static str, NotAName>;
    type SerializeStruct = serde::ser::Impossible<&'static str, NotAName>;
    type SerializeStructVariant = serde::ser::Impossible<&'static str, NotAName>;

    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<Self::Ok, NotAName> {
        Ok(variant)
    }
    fn serialize_bool(self, _: bool) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_i8(self, _: i8) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_i16(self, _: i16) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_i32(self, _: i32) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_i64(self, _: i64) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_u8(self, _: u8) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_u16(self, _: u16) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_u32(self, _: u32) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_u64(self, _: u64) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_f32(self, _: f32) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_f64(self, _: f64) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_char(self, _: char) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_str(self, _: &str) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_none(self) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_some<T: ?Sized + serde::Serialize>(self, _: &T) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_unit(self) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_newtype_struct<T: ?Sized + serde::Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_newtype_variant<T: ?Sized + serde::Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Self::Ok, NotAName> {
        Err(NotAName)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, NotAName> {
        Err(NotAName)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, NotAName> {
        Err(NotAName)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, NotAName> {
        Err(NotAName)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, NotAName> {
        Err(NotAName)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, NotAName> {
        Err(NotAName)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, NotAName> {
        Err(NotAName)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, NotAName> {
        Err(NotAName)
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        match r {
            JsonRejection::JsonSyntaxError(e) => ApiError::MalformedJson(e.body_text()),
            JsonRejection::JsonDataError(e) => ApiError::InvalidBody(e.body_text()),
            JsonRejection::MissingJsonContentType(_) => ApiError::NotJson,
            JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                ApiError::BodyTooLarge(crate::limits::MAX_BODY_BYTES)
            }
            other => ApiError::BadRequest(other.body_text()),
        }
    }
}

impl ApiError {
    /// Seconds after which the same request may succeed, sent as `Retry-After`: only for
    /// refusals that pass by themselves (a busy moment, an instance taking over), not for
    /// those the client must change something to end (its own open tables, a request too big).
    pub fn retry_after(&self) -> Option<u64> {
        use ApiError::*;
        match self {
            RateLimited(_) => Some(1),
            Store(_) | StoreSilent(_) | OwnerUnavailable(_) | TooManyAnalyses(_) => Some(2),
            AnalysisBusy => Some(5),
            ServerFull => Some(30),
            TooManyImports { retry, .. } => Some(*retry),
            _ => None,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let retry = self.retry_after();
        let mut resp = (self.status(), Json(self.body())).into_response();
        if let Some(secs) = retry {
            resp.headers_mut().insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        resp
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_that_pass_by_themselves_say_when_to_try_again() {
        let resp = ApiError::RateLimited(20).into_response();
        assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(resp.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("1"));
        let resp = ApiError::AnalysisBusy.into_response();
        assert_eq!(resp.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("5"));
        let resp = ApiError::TooManyImports { limit: 60, retry: 1234 }.into_response();
        assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(resp.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("1234"));
        // Waiting does not end these: no Retry-After.
        for e in [ApiError::TooManyTables(3), ApiError::BodyTooLarge(10), ApiError::AnalysisTimeout(60)] {
            assert!(e.into_response().headers().get("retry-after").is_none());
        }
    }

    /// Every reason the engine has: serde lists them all when asked for one it lacks.
    fn every_illegal_action() -> Vec<(String, IllegalAction)> {
        let err = serde_json::from_value::<IllegalAction>(serde_json::json!("no_such_reason")).expect_err("unknown");
        let text = err.to_string();
        let listed = text.split("expected one of").nth(1).expect("serde lists the variants");
        listed
            .split('`')
            .skip(1)
            .step_by(2)
            .map(|name| (name.to_string(), serde_json::from_value(serde_json::json!(name)).expect("a variant")))
            .collect()
    }

    #[test]
    fn every_illegal_action_code_is_the_engines_serde_name() {
        let all = every_illegal_action();
        assert!(all.len() >= 34, "only {} reasons found", all.len());
        for (name, i) in &all {
            let e = ApiError::Illegal(*i);
            assert_eq!(e.code(), name);
            assert_eq!(e.body().code, name);
            let want = if matches!(i, IllegalAction::GameOver | IllegalAction::RoundOver) {
                StatusCode::CONFLICT
            } else {
                StatusCode::UNPROCESSABLE_ENTITY
            };
            assert_eq!(e.status(), want, "{name}");
        }
        assert_eq!(ApiError::Illegal(IllegalAction::DoesNotMatch).status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(ApiError::StaleState { sent: 1, current: 2 }.status(), StatusCode::CONFLICT);
    }

    #[test]
    fn internal_details_stay_in_the_log() {
        let b = ApiError::Internal("table map poisoned at /srv/tabletop.db".into()).body();
        assert_eq!(b.code, "internal");
        assert!(!b.message.contains("/srv"), "{}", b.message);
    }
}
