//! The UNO table API: JSON under `/api` (documented with curl examples in docs/api.md).

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use uno::Action;

use crate::bearer::SeatToken;
pub use crate::client::Client;
use crate::messages::{CreateTable, TableList, TableView};
use crate::{ws, ApiError, AppState};

pub fn routes(state: AppState) -> Router {
    Router::new()
        .route("/api/health", get(health))
        .route("/api/uno/options", get(options))
        .route("/api/tables", post(create).get(list))
        .route("/api/tables/{id}", get(read))
        .route("/api/tables/{id}/join", post(join))
        .route("/api/tables/{id}/leave", post(leave))
        .route("/api/tables/{id}/actions", post(act))
        .route("/api/tables/{id}/rematch", post(rematch))
        .route("/api/tables/{id}/close", post(close))
        .route("/api/tables/{id}/ws", get(ws::upgrade))
        .with_state(state)
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
    presets: Vec<&'static str>,
    /// Each preset's one-line description (its `description`), by name.
    preset_descriptions: std::collections::BTreeMap<&'static str, String>,
    bots: Vec<&'static str>,
}

/// What a create form offers: presets and bots (new bots appear here by themselves).
async fn options() -> Json<Options> {
    let preset_descriptions = uno::PRESET_NAMES
        .iter()
        .filter_map(|&name| uno::rules::preset_config(name).ok().map(|c| (name, c.description)))
        .collect();
    Json(Options { presets: uno::PRESET_NAMES.to_vec(), preset_descriptions, bots: uno_bots::BOT_NAMES.to_vec() })
}

async fn create(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    req: Result<Json<CreateTable>, JsonRejection>,
) -> Result<Response, ApiError> {
    let req = body(req)?;
    let mut created = app.create_table(req, &client.0).await?;
    // The invite is absolute only for a `Host` that is a host name or address with a port:
    // anything else (quotes, slashes, markup) would go into a link as it came.
    if let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()).filter(|h| plain_host(h)) {
        created.invite = format!("http://{host}{}", created.invite);
    }
    Ok((StatusCode::CREATED, Json(created)).into_response())
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

async fn read(State(app): State<AppState>, Path(id): Path<String>, t: SeatToken) -> Result<Json<TableView>, ApiError> {
    Ok(Json(app.read_table(&id, t.as_deref()).await?))
}

/// The body of `POST /api/tables/{id}/join`: the name to sit under, and the seat wanted (absent:
/// the first open one).
#[derive(Debug, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    pub name: String,
    #[ts(optional)]
    pub seat: Option<usize>,
}

async fn join(
    State(app): State<AppState>,
    Path(id): Path<String>,
    req: Result<Json<JoinRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let req = body(req)?;
    Ok(Json(app.join(&id, &req.name, req.seat).await?).into_response())
}

async fn leave(State(app): State<AppState>, Path(id): Path<String>, t: SeatToken) -> Result<StatusCode, ApiError> {
    app.leave(&id, t.as_deref()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The body of `POST /api/tables/{id}/actions`.
#[derive(Debug, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct ActRequest {
    pub action: Action,
    /// The table version the action was based on.
    #[ts(type = "number")]
    pub version: u64,
}

async fn act(
    State(app): State<AppState>,
    Path(id): Path<String>,
    SeatToken(t): SeatToken,
    headers: HeaderMap,
    req: Result<Json<ActRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    // Authentication first: an anonymous or forged request learns nothing about the body.
    let t = t.ok_or(ApiError::MissingToken)?;
    app.table_to_act(&id).await?;
    let req = body(req)?;
    let minimal = wants_minimal(&headers);
    Ok(match app.act_answering(&id, Some(&t), req.action, req.version, !minimal).await? {
        Some(view) => Json(view).into_response(),
        None => (StatusCode::NO_CONTENT, [("preference-applied", "return=minimal")]).into_response(),
    })
}

/// `Prefer: return=minimal` (RFC 7240): the client needs no view in the answer.
fn wants_minimal(headers: &HeaderMap) -> bool {
    headers
        .get_all("prefer")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|p| p.trim().eq_ignore_ascii_case("return=minimal"))
}

async fn rematch(
    State(app): State<AppState>,
    Path(id): Path<String>,
    t: SeatToken,
) -> Result<Json<TableView>, ApiError> {
    Ok(Json(app.rematch(&id, t.as_deref()).await?))
}

async fn close(State(app): State<AppState>, Path(id): Path<String>, t: SeatToken) -> Result<StatusCode, ApiError> {
    app.close(&id, t.as_deref()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Unknown `/api` paths answer JSON like every other refusal.
pub async fn api_not_found() -> ApiError {
    ApiError::NoSuchRoute
}
