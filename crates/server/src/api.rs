//! The tables API, the same for every game the server hosts: JSON under `/api/tables`
//! (documented with curl examples in docs/api.md). Each route finds its table once and hands
//! it the request; what the table refuses is mapped to HTTP in one place (`crate::error`).

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, JsonRejection};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::bearer::Asker;
pub use crate::client::Client;
use crate::host::{Person, Seat, TableError};
use crate::messages::{LiveGames, TableList, TableStatus, TableSummary};
use crate::text::Text;
use crate::{ws, ApiError, AppState};

pub fn routes(state: AppState) -> Router {
    Router::new()
        .route("/api/health", get(health))
        .route("/api/uno/options", get(options))
        .route("/api/tables", post(create).get(list))
        .route("/api/games/live", get(live))
        .route("/api/tables/{id}", get(read))
        .route("/api/tables/{id}/join", post(join))
        .route("/api/tables/{id}/leave", post(leave))
        .route("/api/tables/{id}/actions", post(act))
        .route("/api/tables/{id}/rematch", post(rematch))
        .route("/api/tables/{id}/close", post(close))
        .route("/api/tables/{id}/resign", post(resign))
        .route("/api/tables/{id}/back", post(back))
        .route("/api/tables/{id}/phrase", post(phrase))
        .route("/api/tables/{id}/ws", get(ws::upgrade))
        .with_state(state)
}

/// A JSON answer already rendered.
pub(crate) fn json(status: StatusCode, text: Text) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], text.into_bytes()).into_response()
}

/// A body sent as JSON (`content-type: application/json`), as axum's `Json` reads one.
fn json_body(headers: &HeaderMap) -> Result<(), ApiError> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|mime| {
            let mime = mime.trim();
            mime.eq_ignore_ascii_case("application/json")
                || (mime.starts_with("application/") && mime.to_ascii_lowercase().ends_with("+json"))
        })
        .unwrap_or(false);
    if json {
        Ok(())
    } else {
        Err(ApiError::NotJson)
    }
}

fn body<T>(b: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    b.map(|Json(v)| v).map_err(ApiError::from)
}

async fn health() -> Json<serde_json::Value> {
    Json(serde_json::json!({"ok": true, "engine": uno::ENGINE_VERSION}))
}

/// `GET /api/uno/options`.
#[derive(Serialize, ts_rs::TS)]
#[ts(rename = "UnoOptions")]
pub(crate) struct Options {
    /// The presets' ids, as `POST /api/tables` takes them.
    presets: Vec<&'static str>,
    /// Each preset's one-line description (its `description`), by id.
    preset_descriptions: std::collections::BTreeMap<&'static str, String>,
    /// Each preset's name for people, by id: what it plays, not where it comes from.
    preset_titles: std::collections::BTreeMap<&'static str, &'static str>,
    /// Each preset in a line for someone new to it, by id: how a game of it goes.
    preset_about: std::collections::BTreeMap<&'static str, &'static str>,
    bots: Vec<&'static str>,
    /// The quick phrases a seat may say at a table.
    phrases: Vec<crate::host::phrases::Phrase>,
}

/// The presets for people, by id (the ids stay the API's): a name for what each plays, and a
/// line on how a game of it goes. A preset without a row here is shown by its id and its
/// description.
const PRESETS_FOR_PEOPLE: [(&str, &str, &str); 6] = [
    (
        "official",
        "Classic UNO",
        "The rules in the box: 7 cards each, match the colour or the number, call UNO at one card, first to 500 points.",
    ),
    (
        "uno-engine",
        "Classic, strict UNO calls",
        "The classic game, but a wild turned up first goes back in the deck, and calling UNO with nobody to catch costs you 2 cards.",
    ),
    (
        "cs410",
        "Play when you can",
        "If you can play, you must; if you can't, draw one and play it at once if it fits. Plain wilds only.",
    ),
    (
        "two-color",
        "Two colours, 50 cards",
        "A short game for 2 to 4 players: only red and blue cards, draw one and your turn ends.",
    ),
    (
        "csce322",
        "Fixed order of play",
        "Every move is forced in a fixed order (the colour first, then Wild Draw Four, the same face, Wild); Draw Twos stack, and so do Wild Draw Fours.",
    ),
    (
        "rlcard",
        "One quick round, no UNO calls",
        "If you can play, you must; a drawn card that fits is played at once; the first player out wins.",
    ),
];

/// What a create form offers: presets and bots (new bots appear here by themselves).
async fn options() -> Json<Options> {
    let preset_descriptions = uno::PRESET_NAMES
        .iter()
        .filter_map(|&name| uno::rules::preset_config(name).ok().map(|c| (name, c.description)))
        .collect();
    let people = || PRESETS_FOR_PEOPLE.iter().filter(|(id, ..)| uno::PRESET_NAMES.contains(id));
    Json(Options {
        presets: uno::PRESET_NAMES.to_vec(),
        preset_descriptions,
        preset_titles: people().map(|&(id, title, _)| (id, title)).collect(),
        preset_about: people().map(|&(id, _, about)| (id, about)).collect(),
        bots: uno_bots::BOT_NAMES.to_vec(),
        phrases: crate::host::phrases::PHRASES.to_vec(),
    })
}

/// `POST /api/tables`: a table of the game its `game` names (`uno` when left out), opened
/// from the rest of the body, which is that game's.
async fn create(
    State(app): State<AppState>,
    client: Client,
    person: Person,
    headers: HeaderMap,
    req: Result<Json<serde_json::Value>, JsonRejection>,
) -> Result<Response, ApiError> {
    let mut req = body(req)?;
    let name = match req.as_object_mut().and_then(|o| o.remove("game")) {
        None => "uno".to_string(),
        Some(serde_json::Value::String(g)) => g,
        Some(_) => return Err(ApiError::InvalidBody("`game` is the name of a game this server hosts".into())),
    };
    let Some(game) = app.game_named(&name).cloned() else {
        return Err(TableError::Invalid(format!(
            "this server hosts no game {:?}",
            name.chars().take(32).collect::<String>()
        ))
        .into());
    };
    // The invite is absolute only for a `Host` that is a host name or address with a port:
    // anything else (quotes, slashes, markup) would go into a link as it came.
    let origin = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| plain_host(h))
        .map(|h| format!("http://{h}"));
    let created = game.open(app.tables(), req, &client.0, &person, origin.as_deref()).await?;
    Ok(json(StatusCode::CREATED, created))
}

/// A `Host` header of a host name, an IPv4 address or a bracketed IPv6 address, and a port.
fn plain_host(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 255
        && host.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'))
}

async fn list(State(app): State<AppState>) -> Json<TableList> {
    Json(TableList { tables: app.list_tables() })
}

/// `GET /api/games/live`: the games being played now that spectators may watch (a table closed
/// to them is never listed), people's games first (most people first), then the furthest on.
pub(crate) fn live_games(tables: Vec<TableSummary>) -> LiveGames {
    let mut games: Vec<TableSummary> = tables.into_iter().filter(|t| t.status == TableStatus::Playing).collect();
    games.sort_by(|a, b| b.people.cmp(&a.people).then(b.version.cmp(&a.version)).then(a.id.cmp(&b.id)));
    LiveGames { games }
}

async fn live(State(app): State<AppState>) -> Json<LiveGames> {
    Json(live_games(app.list_tables()))
}

async fn read(State(app): State<AppState>, Path(id): Path<String>, asker: Asker) -> Result<Response, ApiError> {
    let table = app.table(&id).await?;
    Ok(json(StatusCode::OK, table.read(asker.token()).await?))
}

/// The body of `POST /api/tables/{id}/join`: the name to sit under (a signed-in person sits
/// under their account's, whatever this says), and the seat wanted (absent: the first open one).
#[derive(Debug, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    pub name: String,
    #[ts(optional)]
    pub seat: Option<Seat>,
}

async fn join(
    State(app): State<AppState>,
    Path(id): Path<String>,
    person: Person,
    req: Result<Json<JoinRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let req = body(req)?;
    let table = app.table(&id).await?;
    Ok(json(StatusCode::OK, table.join(app.tables(), &person, &req.name, req.seat).await?))
}

async fn leave(State(app): State<AppState>, Path(id): Path<String>, asker: Asker) -> Result<StatusCode, ApiError> {
    let table = app.table(&id).await?;
    table.leave(app.tables(), asker.token()).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn act(
    State(app): State<AppState>,
    Path(id): Path<String>,
    asker: Asker,
    headers: HeaderMap,
    req: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    // Authentication first: an anonymous or forged request learns nothing about the body.
    let token = asker.token().ok_or(ApiError::MissingToken)?;
    let table = app.table_to_act(&id).await?;
    json_body(&headers)?;
    let req = req.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::BodyTooLarge(crate::limits::MAX_BODY_BYTES),
        _ => ApiError::BadRequest(e.body_text()),
    })?;
    let minimal = wants_minimal(&headers);
    Ok(match table.act(app.tables(), token, &req, !minimal).await? {
        Some(view) => json(StatusCode::OK, view),
        None => (StatusCode::NO_CONTENT, [("preference-applied", "return=minimal")]).into_response(),
    })
}

/// `Prefer: return=minimal` (RFC 7240): the client needs no view in the answer.
pub(crate) fn wants_minimal(headers: &HeaderMap) -> bool {
    headers
        .get_all("prefer")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|p| p.trim().eq_ignore_ascii_case("return=minimal"))
}

async fn rematch(State(app): State<AppState>, Path(id): Path<String>, asker: Asker) -> Result<Response, ApiError> {
    let table = app.table(&id).await?;
    Ok(json(StatusCode::OK, table.rematch(app.tables(), asker.token()).await?))
}

async fn close(State(app): State<AppState>, Path(id): Path<String>, asker: Asker) -> Result<StatusCode, ApiError> {
    let table = app.table(&id).await?;
    table.close(app.tables(), asker.token()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/tables/{id}/resign`: during play a bot takes the asker's seat for the rest of
/// the game; otherwise the seat is given up as by `leave`.
async fn resign(State(app): State<AppState>, Path(id): Path<String>, asker: Asker) -> Result<StatusCode, ApiError> {
    let table = app.table(&id).await?;
    table.resign(app.tables(), asker.token()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/tables/{id}/back`: the asker, whose seat a bot played after their time ran out
/// twice in a row, plays it again.
async fn back(State(app): State<AppState>, Path(id): Path<String>, asker: Asker) -> Result<StatusCode, ApiError> {
    let table = app.table(&id).await?;
    table.back(app.tables(), asker.token()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The body of `POST /api/tables/{id}/phrase`: a quick phrase's code (`GET /api/uno/options`
/// lists them).
#[derive(Debug, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct PhraseRequest {
    pub phrase: String,
}

/// `POST /api/tables/{id}/phrase`: the asker's seat says a quick phrase; every viewer's socket
/// gets `{"type":"phrase", seat, phrase, text}`.
async fn phrase(
    State(app): State<AppState>,
    Path(id): Path<String>,
    asker: Asker,
    req: Result<Json<PhraseRequest>, JsonRejection>,
) -> Result<StatusCode, ApiError> {
    let req = body(req)?;
    let table = app.table(&id).await?;
    table.say(asker.token(), &req.phrase).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Unknown `/api` paths answer JSON like every other refusal.
pub async fn api_not_found() -> ApiError {
    ApiError::NoSuchRoute
}
