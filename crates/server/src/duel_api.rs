//! The Duel routes: seed 001's grid game in the browser, as JSON under `/api/duel`. A Duel game
//! is a table of the host like any game's (its seats, token, store, socket and records are the
//! host's: `POST /api/tables {"game": "duel"}` and `/api/tables/{id}/...` serve it too); these
//! routes are the page's shorter words for its actions.
//!
//! ```text
//! GET  /api/duel/config           the default grid size, the size limit and the difficulties
//! POST /api/duel                  {difficulty?, width?, height?}  -> 201 the game, with the
//!                                 person's seat token (`token`)
//! GET  /api/duel/{id}             the game
//! POST /api/duel/{id}/place       {cell: "c4", key: "b" | "1".."6"}          (with the token)
//! POST /api/duel/{id}/next-round  the setup stage's next-round button        (with the token)
//! POST /api/duel/{id}/move        {cell: "c4", key: "w" | "a" | "s" | "d"}; the computer's answer
//!                                 comes in the same response (`computer`)     (with the token)
//! POST /api/duel/{id}/end         the user ends the play stage               (with the token)
//! GET  /api/duel/{id}/record      a finished game's record
//! GET  /api/duel/{id}/replay?ply=K the view after K actions of a finished game
//! ```
//!
//! Every answer is the whole game view ([`DuelView`]) plus the events of this request. A refused
//! action is `{code, message}` with `message` exactly the `DuelError` text, and changes nothing.
//! An action needs the game's token (`Authorization: Bearer <token>`): without it 401
//! `missing_token`, with another 403 `bad_token`. The server is authoritative: the page only
//! shows what comes back.

use std::sync::Arc;

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use duel::{Action, Coord, Difficulty, Key, DEFAULT_HEIGHT, DEFAULT_WIDTH, MAX_DIMENSION};
use serde::Deserialize;

use crate::bearer::Asker;
use crate::client::Client;
pub use crate::duel_refusal::DuelRefusal;
use crate::games::duel::messages::DuelCreated;
use crate::games::duel::records::{self, DuelExport, DuelFrame};
pub use crate::games::duel::{CellKey, CreateRequest, Duel, DuelConfig, DuelView};
use crate::host::table::Table;
use crate::host::{TableError, Tables};
use crate::{ApiError, AppState};

/// The Duel routes, ready to merge into the app's router.
pub fn routes(state: AppState) -> Router {
    Router::new()
        .route("/api/duel/config", get(config))
        .route("/api/duel", post(create))
        .route("/api/duel/{id}", get(show))
        .route("/api/duel/{id}/place", post(place))
        .route("/api/duel/{id}/next-round", post(next_round))
        .route("/api/duel/{id}/move", post(move_piece))
        .route("/api/duel/{id}/end", post(end))
        .route("/api/duel/{id}/record", get(record))
        .route("/api/duel/{id}/replay", get(replay))
        .with_state(state)
}

/// The host's refusals in the Duel page's words, where it has its own.
fn worded(id: &str, e: TableError) -> ApiError {
    match e {
        TableError::NoSuchTable(_) => DuelRefusal::NoSuchGame(id.chars().take(64).collect()).into(),
        TableError::TooManyTables(n) => DuelRefusal::TooManyGames(n).into(),
        e => e.into(),
    }
}

/// The Duel game `id` (a table of another game is none of these routes').
async fn table(tables: &Tables, id: &str, to_act: bool) -> Result<Arc<Table<Duel>>, ApiError> {
    let t = if to_act { tables.table_to_act(id).await } else { tables.table(id).await }.map_err(|e| worded(id, e))?;
    t.as_any().downcast::<Table<Duel>>().map_err(|_| DuelRefusal::NoSuchGame(id.chars().take(64).collect()).into())
}

async fn config() -> Json<DuelConfig> {
    Json(DuelConfig {
        default_width: DEFAULT_WIDTH,
        default_height: DEFAULT_HEIGHT,
        max_dimension: MAX_DIMENSION,
        difficulties: Difficulty::ALL.to_vec(),
        default_difficulty: Difficulty::default(),
    })
}

async fn create(
    State(app): State<AppState>,
    client: Client,
    body: Result<Json<CreateRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<DuelCreated>), ApiError> {
    let Json(req) = body?;
    let (_, opened) = crate::host::open::<Duel>(app.tables(), req, &client.0, &crate::host::Person::Guest)
        .await
        .map_err(|e| worded("", e))?;
    let (Some(seat), Some(token), Some(view)) = (opened.seat, opened.token, opened.view) else {
        return Err(ApiError::Internal("a Duel game opened without its seat".into()));
    };
    Ok((StatusCode::CREATED, Json(DuelCreated { view, seat, token })))
}

async fn show(State(app): State<AppState>, Path(id): Path<String>, asker: Asker) -> Result<Json<DuelView>, ApiError> {
    let t = table(app.tables(), &id, false).await?;
    let mut st = t.state.lock().await;
    let viewer = st.meta.viewer(asker.token())?;
    st.last_activity = std::time::Instant::now();
    st.full_view(&t.id, viewer).map(Json).ok_or_else(|| worded(&id, TableError::NoSuchTable(id.clone())))
}

/// Takes the person's `action` at game `id` through the host's one path; for a move, the
/// computer answers in the same request. Nothing changes (in memory or in the store) unless the
/// action is accepted and stored.
async fn act(
    app: &AppState,
    id: &str,
    asker: &Asker,
    action: Result<Action, ApiError>,
) -> Result<Json<DuelView>, ApiError> {
    // Authentication first: an anonymous or forged request learns nothing about the body.
    let token = asker.token().ok_or(ApiError::MissingToken)?;
    let t = table(app.tables(), id, true).await?;
    let action = action?;
    let mut st = t.state.lock().await;
    let seat = st.meta.seat(Some(token))?;
    let acted = t.act_in_request(app.tables(), &mut st, seat, action, None).await.map_err(|e| worded(id, e))?;
    st.change_view(&t.id, crate::host::Viewer::Seat(seat), &acted.events, &acted.answered)
        .map(Json)
        .ok_or_else(|| worded(id, TableError::NoSuchTable(id.to_string())))
}

/// The longest `cell` or `key` read at all.
const MAX_FIELD_CHARS: usize = 8;

/// A `{cell, key}` body read into the action `make` builds from it.
fn cell_key(body: Result<Json<CellKey>, JsonRejection>, make: fn(Coord, Key) -> Action) -> Result<Action, ApiError> {
    let Json(req) = body?;
    // Cells ("c4") and keys ("w", "b", "1") are short: longer input is refused unread, so no
    // message repeats it.
    if req.cell.chars().count() > MAX_FIELD_CHARS || req.key.chars().count() > MAX_FIELD_CHARS {
        return Err(TableError::TooLong { field: "a cell or key", max: MAX_FIELD_CHARS }.into());
    }
    Ok(make(req.cell.parse()?, Key::from(req.key)))
}

async fn place(
    State(app): State<AppState>,
    Path(id): Path<String>,
    asker: Asker,
    body: Result<Json<CellKey>, JsonRejection>,
) -> Result<Json<DuelView>, ApiError> {
    act(&app, &id, &asker, cell_key(body, |cell, key| Action::Place { cell, key })).await
}

async fn next_round(
    State(app): State<AppState>,
    Path(id): Path<String>,
    asker: Asker,
) -> Result<Json<DuelView>, ApiError> {
    act(&app, &id, &asker, Ok(Action::NextRound)).await
}

async fn end(State(app): State<AppState>, Path(id): Path<String>, asker: Asker) -> Result<Json<DuelView>, ApiError> {
    act(&app, &id, &asker, Ok(Action::End)).await
}

async fn move_piece(
    State(app): State<AppState>,
    Path(id): Path<String>,
    asker: Asker,
    body: Result<Json<CellKey>, JsonRejection>,
) -> Result<Json<DuelView>, ApiError> {
    act(&app, &id, &asker, cell_key(body, |cell, key| Action::Move { cell, key })).await
}

async fn record(State(app): State<AppState>, Path(id): Path<String>) -> Result<Json<DuelExport>, ApiError> {
    Ok(Json(records::kept(app.tables(), &id).await?))
}

#[derive(Debug, Deserialize)]
struct FrameQuery {
    ply: Option<usize>,
}

async fn replay(
    State(app): State<AppState>,
    Path(id): Path<String>,
    q: Result<Query<FrameQuery>, QueryRejection>,
) -> Result<Json<DuelFrame>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    Ok(Json(records::frame(app.tables(), &id, q.ply).await?))
}
