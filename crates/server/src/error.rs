//! The HTTP adapter's errors, and the one place every refusal gets its HTTP status and its
//! stable `code` ([`ApiError::status`], [`ApiError::code`]). [`ApiError`] holds what is about the
//! request itself (its body, its token, its route, its rate); the domain's refusals come in
//! whole: the host's [`TableError`] (a game's own refusal inside it, with its code), and the
//! Duel routes' own words for two of them ([`DuelRefusal`]).
//!
//! Every refusal answers `{code, message}`. `code` is what programs (and pages) act on, stable;
//! `message` is for a person: one English sentence saying what was refused and why, fit to be
//! shown as it is, never parsed (docs/api.md, "Refusals").

use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use thiserror::Error;
use ts_rs::TS;

pub use crate::duel_refusal::DuelRefusal;
pub use crate::host::TableError;

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
    #[error("this needs a seat token: send `Authorization: Bearer <token>` (on the WebSocket: the subprotocol `bearer.<token>`)")]
    MissingToken,
    /// An `Authorization` header that is no `Bearer <token>`.
    #[error("this token does not hold a seat at this table")]
    BadToken,
    /// A seat token in the URL (`?token=`): refused, because URLs land in access logs, proxies
    /// and browser history.
    #[error("do not put the seat token in the URL: send `Authorization: Bearer <token>` (on the WebSocket: the subprotocol `bearer.<token>`)")]
    TokenInUrl,
    #[error("there is no such API route")]
    NoSuchRoute,
    /// A route that exists, asked with another method; `allow` lists those it takes.
    #[error("this route does not take this method{}", it_takes(.allow))]
    MethodNotAllowed { allow: String },
    /// The WebSocket route asked without a WebSocket upgrade; `status` is the one the upgrade's
    /// check gave (400, 405, 426, ...).
    #[error("this route is a WebSocket; open it with a WebSocket client ({reason})")]
    WebSocketRequired { status: StatusCode, reason: String },
    /// A connection not admitted: the server holds as many as it may.
    #[error("the server has as many connections as it may; try again shortly")]
    ServerBusy,
    /// A connection not admitted: its address holds as many as it may.
    #[error("this address has as many connections open as it may; close one and try again")]
    TooManyConnections,
    #[error("too many messages: at most {0} per second")]
    RateLimited(u32),
    #[error("internal error: {0}")]
    Internal(String),
    /// What the table core refused.
    #[error(transparent)]
    Table(#[from] TableError),
    /// What Duel's routes refused.
    #[error(transparent)]
    Duel(#[from] DuelRefusal),
    /// What the account routes refused.
    #[error(transparent)]
    Account(#[from] AccountError),
}

/// What the account routes refuse (`crate::accounts`). A sign-in's refusal is worded the same
/// whether the name exists or not.
#[derive(Debug, Error)]
pub enum AccountError {
    #[error("that name and password do not match an account")]
    SignInFailed,
    #[error("this needs you signed in")]
    NotSignedIn,
    /// A state-changing request that a page of another site made (its `Origin` or
    /// `Sec-Fetch-Site` says so): a browser would have sent the victim's cookie with it.
    #[error("this request came from another site: it is refused")]
    CrossSite,
    /// Too many sign-ins or sign-ups, for this address or this name; `retry` seconds to wait.
    #[error("too many attempts: try again in {retry} s")]
    TooManyAttempts { retry: u64 },
    #[error("this name is taken: choose another")]
    NameUnavailable,
    #[error("{0}")]
    BadPassword(String),
    /// The store keeps no people (a wrapper around a store that passes none on).
    #[error("this server keeps no accounts")]
    Unavailable,
    /// No live account has this id.
    #[error("there is no such player")]
    NoSuchPlayer,
    /// A passkey ceremony that did not hold: unknown or run out, a passkey this site does not
    /// know, a signature or a counter that does not check. The same words for each.
    #[error("the passkey was not accepted: try again")]
    PasskeyFailed,
    /// An account keeps one way to sign in at least.
    #[error("this is the account's last way to sign in: add another first")]
    LastCredential,
    #[error("this account has no such passkey")]
    NoSuchPasskey,
}

impl From<store::StoreError> for ApiError {
    fn from(e: store::StoreError) -> ApiError {
        ApiError::Table(TableError::Store(e))
    }
}

impl From<duel::DuelError> for ApiError {
    fn from(e: duel::DuelError) -> ApiError {
        ApiError::Table(TableError::Illegal(e.into()))
    }
}

/// "; it takes GET, HEAD" when the route named its methods.
fn it_takes(allow: &str) -> String {
    if allow.is_empty() {
        String::new()
    } else {
        format!("; it takes {allow}")
    }
}

/// Every `code` the server's own refusals carry (a refused move adds its game's: the UNO
/// engine's `IllegalAction` names, Duel's [`duel::DuelError::code`]). Declared for the pages
/// (`web/protocol.d.ts`), whose refusal sentences are keyed by it, so a new code without a
/// sentence fails their type check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ServerCode {
    MalformedJson,
    InvalidBody,
    NotJson,
    BodyTooLarge,
    BadRequest,
    TooLong,
    MissingToken,
    BadToken,
    TokenInUrl,
    NotFound,
    MethodNotAllowed,
    WebsocketRequired,
    ServerBusy,
    TooManyConnections,
    RateLimited,
    Internal,
    SpectatorsNotAllowed,
    NoSuchPly,
    InvalidRecord,
    /// An imported record of a game the engine would refuse to play (rules or a start position
    /// past its limits).
    RecordOverLimits,
    GameNotOver,
    StaleState,
    NotStarted,
    NotFinished,
    SeatTaken,
    TableFull,
    NameTaken,
    NotOwner,
    InvalidRules,
    UnknownBot,
    TooManyTables,
    ServerFull,
    TooManyImports,
    OwnedElsewhere,
    OwnerUnavailable,
    StoreUnavailable,
    AnalysisBusy,
    TooManyAnalyses,
    AnalysisTimeout,
    NameOwned,
    SignInRequired,
    OneSeatEach,
    SignInFailed,
    NotSignedIn,
    CrossSite,
    TooManyAttempts,
    NameUnavailable,
    BadPassword,
    AccountsUnavailable,
    PasskeyFailed,
    LastCredential,
    NoSuchPasskey,
    /// A refusal of the engine's that has no name of its own (none today).
    IllegalAction,
}

impl ServerCode {
    /// The code as sent: its serde name.
    pub fn name(self) -> &'static str {
        serde::Serialize::serialize(&self, VariantName).unwrap_or("internal")
    }
}

/// The body of every refusal: `code` one of [`ServerCode`], or a game's own (`uno::IllegalAction`,
/// Duel's codes).
#[derive(Debug, Serialize, TS)]
pub struct ErrorBody {
    pub code: &'static str,
    pub message: String,
    /// What the sentence names (a game's refusal that a page words in the reader's language:
    /// Duel's), absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Record<string, unknown>")]
    pub fields: Option<serde_json::Value>,
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        use ApiError::*;
        match self {
            MalformedJson(_) | BadRequest(_) | TokenInUrl => StatusCode::BAD_REQUEST,
            InvalidBody(_) => StatusCode::UNPROCESSABLE_ENTITY,
            NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            BodyTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            MissingToken => StatusCode::UNAUTHORIZED,
            BadToken => StatusCode::FORBIDDEN,
            NoSuchRoute => StatusCode::NOT_FOUND,
            MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            WebSocketRequired { status, .. } => *status,
            ServerBusy => StatusCode::SERVICE_UNAVAILABLE,
            RateLimited(_) | TooManyConnections => StatusCode::TOO_MANY_REQUESTS,
            Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            Table(e) => table_status(e),
            Duel(e) => duel_status(e),
            Account(e) => account_status(e),
        }
    }

    pub fn code(&self) -> &'static str {
        use ApiError::*;
        match self {
            MalformedJson(_) => ServerCode::MalformedJson.name(),
            InvalidBody(_) => ServerCode::InvalidBody.name(),
            NotJson => ServerCode::NotJson.name(),
            BodyTooLarge(_) => ServerCode::BodyTooLarge.name(),
            BadRequest(_) => ServerCode::BadRequest.name(),
            MissingToken => ServerCode::MissingToken.name(),
            BadToken => ServerCode::BadToken.name(),
            TokenInUrl => ServerCode::TokenInUrl.name(),
            NoSuchRoute => ServerCode::NotFound.name(),
            MethodNotAllowed { .. } => ServerCode::MethodNotAllowed.name(),
            WebSocketRequired { .. } => ServerCode::WebsocketRequired.name(),
            ServerBusy => ServerCode::ServerBusy.name(),
            TooManyConnections => ServerCode::TooManyConnections.name(),
            RateLimited(_) => ServerCode::RateLimited.name(),
            Internal(_) => ServerCode::Internal.name(),
            Table(e) => table_code(e),
            Duel(e) => duel_code(e),
            Account(e) => account_code(e),
        }
    }

    /// What the client is told. An internal or store failure is logged here with its detail
    /// (paths, SQLite's words) and answered in general terms: the detail helps an operator, not
    /// a client.
    pub fn body(&self) -> ErrorBody {
        let message = match self {
            ApiError::Internal(_) | ApiError::Table(TableError::Internal(_)) => {
                tracing::error!(error = %self, "request failed inside the server");
                "the server could not handle this request".to_string()
            }
            ApiError::Table(TableError::Store(_) | TableError::StoreSilent(_)) => {
                tracing::warn!(error = %self, "the game store refused a request");
                "the game store is unavailable; try again shortly".to_string()
            }
            _ => bounded(self.to_string()),
        };
        let fields = match self {
            ApiError::Table(TableError::Illegal(r)) => r.fields().cloned().map(bounded_fields),
            ApiError::Duel(DuelRefusal::NoSuchGame(id)) => Some(serde_json::json!({ "id": bounded(id.clone()) })),
            ApiError::Duel(DuelRefusal::TooManyGames(n)) => Some(serde_json::json!({ "n": n })),
            _ => None,
        };
        ErrorBody { code: self.code(), message, fields }
    }
}

fn table_status(e: &TableError) -> StatusCode {
    use TableError::*;
    match e {
        Invalid(_) | MalformedJson(_) => StatusCode::BAD_REQUEST,
        TooLong { .. } | Rules(_) | UnknownBot(_) | InvalidRecord(_) | RecordOverLimits(_) | InvalidBody(_) => {
            StatusCode::UNPROCESSABLE_ENTITY
        }
        MissingToken | SignInRequired => StatusCode::UNAUTHORIZED,
        BadToken | SpectatorsNotAllowed | NotOwner | GameNotOver => StatusCode::FORBIDDEN,
        NoSuchTable(_) | NotKept(_) | NoSuchPly { .. } => StatusCode::NOT_FOUND,
        StaleState { .. }
        | NotStarted
        | NotFinished
        | SeatTaken(_)
        | TableFull
        | NameTaken
        | NameOwned
        | OneSeatEach => StatusCode::CONFLICT,
        OwnedElsewhere(_) => StatusCode::CONFLICT,
        Illegal(r) if r.says_over() => StatusCode::CONFLICT,
        Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
        TooManyTables(_) | TooManyAnalyses(_) | TooManyImports { .. } | TooManyPhrases(_) => {
            StatusCode::TOO_MANY_REQUESTS
        }
        ServerFull | Store(_) | StoreSilent(_) | OwnerUnavailable(_) | AnalysisBusy | AnalysisTimeout(_) => {
            StatusCode::SERVICE_UNAVAILABLE
        }
        Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

fn table_code(e: &TableError) -> &'static str {
    use TableError::*;
    match e {
        Invalid(_) => ServerCode::BadRequest.name(),
        TooLong { .. } => ServerCode::TooLong.name(),
        MissingToken => ServerCode::MissingToken.name(),
        BadToken => ServerCode::BadToken.name(),
        SpectatorsNotAllowed => ServerCode::SpectatorsNotAllowed.name(),
        NoSuchTable(_) | NotKept(_) => ServerCode::NotFound.name(),
        NoSuchPly { .. } => ServerCode::NoSuchPly.name(),
        InvalidRecord(_) => ServerCode::InvalidRecord.name(),
        RecordOverLimits(_) => ServerCode::RecordOverLimits.name(),
        GameNotOver => ServerCode::GameNotOver.name(),
        StaleState { .. } => ServerCode::StaleState.name(),
        Illegal(r) => r.code(),
        MalformedJson(_) => ServerCode::MalformedJson.name(),
        InvalidBody(_) => ServerCode::InvalidBody.name(),
        NotStarted => ServerCode::NotStarted.name(),
        NotFinished => ServerCode::NotFinished.name(),
        SeatTaken(_) => ServerCode::SeatTaken.name(),
        TableFull => ServerCode::TableFull.name(),
        NameTaken => ServerCode::NameTaken.name(),
        NameOwned => ServerCode::NameOwned.name(),
        SignInRequired => ServerCode::SignInRequired.name(),
        OneSeatEach => ServerCode::OneSeatEach.name(),
        NotOwner => ServerCode::NotOwner.name(),
        Rules(_) => ServerCode::InvalidRules.name(),
        UnknownBot(_) => ServerCode::UnknownBot.name(),
        TooManyTables(_) => ServerCode::TooManyTables.name(),
        TooManyPhrases(_) => ServerCode::RateLimited.name(),
        ServerFull => ServerCode::ServerFull.name(),
        TooManyImports { .. } => ServerCode::TooManyImports.name(),
        OwnedElsewhere(_) => ServerCode::OwnedElsewhere.name(),
        OwnerUnavailable(_) => ServerCode::OwnerUnavailable.name(),
        Store(_) | StoreSilent(_) => ServerCode::StoreUnavailable.name(),
        AnalysisBusy => ServerCode::AnalysisBusy.name(),
        TooManyAnalyses(_) => ServerCode::TooManyAnalyses.name(),
        AnalysisTimeout(_) => ServerCode::AnalysisTimeout.name(),
        Internal(_) => ServerCode::Internal.name(),
    }
}

fn account_status(e: &AccountError) -> StatusCode {
    use AccountError::*;
    match e {
        SignInFailed | NotSignedIn => StatusCode::UNAUTHORIZED,
        CrossSite => StatusCode::FORBIDDEN,
        TooManyAttempts { .. } => StatusCode::TOO_MANY_REQUESTS,
        NameUnavailable => StatusCode::CONFLICT,
        BadPassword(_) => StatusCode::UNPROCESSABLE_ENTITY,
        Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        NoSuchPlayer | NoSuchPasskey => StatusCode::NOT_FOUND,
        PasskeyFailed => StatusCode::UNAUTHORIZED,
        LastCredential => StatusCode::CONFLICT,
    }
}

fn account_code(e: &AccountError) -> &'static str {
    use AccountError::*;
    match e {
        SignInFailed => ServerCode::SignInFailed.name(),
        NotSignedIn => ServerCode::NotSignedIn.name(),
        CrossSite => ServerCode::CrossSite.name(),
        TooManyAttempts { .. } => ServerCode::TooManyAttempts.name(),
        NameUnavailable => ServerCode::NameUnavailable.name(),
        BadPassword(_) => ServerCode::BadPassword.name(),
        Unavailable => ServerCode::AccountsUnavailable.name(),
        NoSuchPlayer => ServerCode::NotFound.name(),
        PasskeyFailed => ServerCode::PasskeyFailed.name(),
        LastCredential => ServerCode::LastCredential.name(),
        NoSuchPasskey => ServerCode::NoSuchPasskey.name(),
    }
}

fn duel_status(e: &DuelRefusal) -> StatusCode {
    match e {
        DuelRefusal::NoSuchGame(_) => StatusCode::NOT_FOUND,
        DuelRefusal::TooManyGames(_) => StatusCode::TOO_MANY_REQUESTS,
    }
}

fn duel_code(e: &DuelRefusal) -> &'static str {
    match e {
        DuelRefusal::NoSuchGame(_) => ServerCode::NotFound.name(),
        DuelRefusal::TooManyGames(_) => ServerCode::TooManyTables.name(),
    }
}

/// The most characters of a refusal's message: a message may quote what the client sent (a
/// rules file's line, a JSON reader's words), and a refusal is no echo of a 60 KB body.
pub const MAX_MESSAGE_CHARS: usize = 500;

/// A refusal's fields with every text bounded as its sentence is (a key or a cell a client typed).
fn bounded_fields(v: serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::String(s) => serde_json::Value::String(bounded(s)),
        serde_json::Value::Object(o) => o.into_iter().map(|(k, v)| (k, bounded_fields(v))).collect(),
        other => other,
    }
}

fn bounded(message: String) -> String {
    match message.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((cut, _)) => format!("{}…", &message[..cut]),
        None => message,
    }
}

/// A unit variant's own serde name (`does_not_match`, `not_your_turn`, ...), taken from its
/// `Serialize` (a unit variant's name is a `&'static str`), so a game's codes cannot drift from
/// its engine's; `None` for anything else.
pub(crate) fn variant_name<T: Serialize>(v: &T) -> Option<&'static str> {
    v.serialize(VariantName).ok()
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
        use TableError::*;
        match self {
            ApiError::RateLimited(_) | ApiError::ServerBusy | ApiError::TooManyConnections => Some(1),
            ApiError::Table(e) => match e {
                Store(_) | StoreSilent(_) | OwnerUnavailable(_) | TooManyAnalyses(_) => Some(2),
                AnalysisBusy => Some(5),
                ServerFull => Some(30),
                TooManyImports { retry, .. } => Some(*retry),
                TooManyPhrases(secs) => Some(*secs),
                _ => None,
            },
            ApiError::Account(AccountError::TooManyAttempts { retry }) => Some(*retry),
            ApiError::Account(AccountError::Unavailable) => None,
            _ => None,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let retry = self.retry_after();
        let body = self.body();
        crate::metrics::refusal(body.code);
        let mut resp = (self.status(), Json(body)).into_response();
        if let Some(secs) = retry {
            resp.headers_mut().insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        resp
    }
}

#[cfg(test)]
mod tests;
