//! Finished games and replays under `/api/games/{id}` (documented in docs/api.md and
//! docs/replays.md): a game's record, the frame one viewer had after any ply, and the analysis
//! of one seat's decisions.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;

use crate::analysis::AnalysisRequest;
use crate::api::Client;
use crate::tables::auth::{token, TokenQuery};
use crate::tables::{Frame, FrameRequest, Perspective, RecordExport};
use crate::{ApiError, AppState};

pub fn routes(state: AppState) -> Router {
    Router::new()
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/replay", get(replay))
        .route("/api/games/{id}/analysis", get(analysis))
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
    Ok(Json(app.kept_game(&id, q.game).await?))
}

#[derive(Debug, Deserialize)]
struct ReplayQuery {
    view: Option<String>,
    ply: Option<usize>,
    game: Option<usize>,
    #[serde(default)]
    timeline: bool,
    token: Option<String>,
}

async fn replay(
    State(app): State<AppState>,
    Path(id): Path<String>,
    q: Result<Query<ReplayQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Json<Frame>, ApiError> {
    let q = query(q)?;
    let t = token(&headers, &TokenQuery { token: q.token })?;
    let perspective = match q.view.as_deref() {
        Some(v) => v.parse()?,
        None => Perspective::Spectator,
    };
    let req = FrameRequest { perspective, game: q.game, ply: q.ply, timeline: q.timeline };
    Ok(Json(app.frame(&id, req, t.as_deref()).await?))
}

#[derive(Debug, Deserialize)]
struct AnalysisQuery {
    seat: usize,
    samples: Option<u32>,
    game: Option<usize>,
}

async fn analysis(
    State(app): State<AppState>,
    Path(id): Path<String>,
    client: Client,
    q: Result<Query<AnalysisQuery>, QueryRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let q = query(q)?;
    let req = AnalysisRequest { game: q.game, seat: q.seat, samples: q.samples };
    Ok(Json(app.analysis(&id, req, &client.0).await?))
}
