//! Finished games and replays under `/api/games/{id}` (documented in docs/api.md and
//! docs/replays.md): a game's record, the frame one viewer had after any ply, and the analysis
//! of one seat's decisions.

use axum::extract::rejection::JsonRejection;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use crate::bearer::Asker;
use crate::client::Client;
use crate::games::uno::analysis::AnalysisRequest;
use crate::games::uno::records::{self, ImportRecord, RecordExport};
use crate::games::uno::replay::{self, Frame, FrameRequest, Perspective, PositionExport};
use crate::{ApiError, AppState};

pub fn routes(state: AppState) -> Router {
    Router::new()
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/replay", get(replay))
        .route("/api/games/{id}/analysis", get(analysis))
        .route("/api/games/{id}/position", get(position))
        .route(
            "/api/records",
            post(import).layer(axum::extract::DefaultBodyLimit::max(crate::limits::MAX_RECORD_BYTES)),
        )
        .with_state(state)
}

#[derive(Debug, Deserialize)]
struct RecordQuery {
    game: Option<usize>,
}

fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(v)| v).map_err(|e| ApiError::BadRequest(e.body_text()))
}

async fn record(
    State(app): State<AppState>,
    Path(id): Path<String>,
    q: Result<Query<RecordQuery>, QueryRejection>,
) -> Result<Json<RecordExport>, ApiError> {
    let q = query(q)?;
    Ok(Json(records::kept_game(app.tables(), &id, q.game).await?))
}

#[derive(Debug, Deserialize)]
struct ReplayQuery {
    view: Option<String>,
    ply: Option<usize>,
    game: Option<usize>,
    #[serde(default)]
    timeline: bool,
}

async fn replay(
    State(app): State<AppState>,
    Path(id): Path<String>,
    q: Result<Query<ReplayQuery>, QueryRejection>,
    asker: Asker,
) -> Result<Json<Frame>, ApiError> {
    let q = query(q)?;
    let perspective = match q.view.as_deref() {
        Some(v) => v.parse()?,
        None => Perspective::Spectator,
    };
    let req = FrameRequest { perspective, game: q.game, ply: q.ply, timeline: q.timeline };
    Ok(Json(replay::frame(app.tables(), &id, req, asker.token()).await?))
}

#[derive(Debug, Deserialize)]
struct AnalysisQuery {
    seat: uno::Seat,
    samples: Option<u32>,
    game: Option<usize>,
    /// `playouts` (the default) or `value`.
    method: Option<uno_lab::analysis::Method>,
}

async fn analysis(
    State(app): State<AppState>,
    Path(id): Path<String>,
    client: Client,
    q: Result<Query<AnalysisQuery>, QueryRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let q = query(q)?;
    let req = AnalysisRequest { game: q.game, seat: q.seat, samples: q.samples, method: q.method.unwrap_or_default() };
    Ok(Json(app.inner.analyses.analysis(app.tables(), &id, req, &client.0).await?))
}

#[derive(Debug, Deserialize)]
struct PositionQuery {
    ply: Option<usize>,
    game: Option<usize>,
}

async fn position(
    State(app): State<AppState>,
    Path(id): Path<String>,
    q: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Json<PositionExport>, ApiError> {
    let q = query(q)?;
    Ok(Json(replay::position_export(app.tables(), &id, q.game, q.ply).await?))
}

async fn import(
    State(app): State<AppState>,
    client: crate::client::Client,
    body: Result<Json<serde_json::Value>, JsonRejection>,
) -> Result<axum::response::Response, ApiError> {
    // Past the quota every import is refused alike, whatever its body holds.
    app.check_import(&client.0)?;
    let Json(body) = body.map_err(|e| match e {
        JsonRejection::BytesRejection(b) if b.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::BodyTooLarge(crate::limits::MAX_RECORD_BYTES)
        }
        other => ApiError::from(other),
    })?;
    let record = ImportRecord::from_json(body).map_err(ApiError::InvalidBody)?;
    // Counted once the body is read: a request refused for its body costs nothing.
    app.take_import(&client.0)?;
    Ok((StatusCode::CREATED, Json(records::import_record(app.tables(), record).await?)).into_response())
}
