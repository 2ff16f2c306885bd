//! The quick-match queue's routes (`crate::quick` is the queue itself): join, where one stands,
//! leave, and the socket that says when one is seated. Apart from the queue so that the server's
//! state can hold the queue without the queue naming that state.

use std::sync::Arc;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};

use crate::bearer::Asker;
use crate::client::Client;
use crate::games::uno::Uno;
use crate::limits;
use crate::quick::{joining, waves, QueueRequest, QueueStatus, Quick};
use crate::{ApiError, AppState};

/// What the queue's routes hold: the server's state and the queue.
#[derive(Clone)]
struct QuickState {
    app: AppState,
    quick: Arc<Quick>,
}

impl QuickState {
    /// The queue, its wave timer started on first use.
    fn quick(&self) -> &Arc<Quick> {
        let q = &self.quick;
        if !q.started.swap(true, std::sync::atomic::Ordering::AcqRel) {
            tokio::spawn(waves(Arc::downgrade(q), self.app.tables().clone()));
        }
        q
    }
}

/// The queue's routes, with this instance's queue.
pub fn routes(app: AppState) -> Router {
    Router::new()
        .route("/api/queue", get(status).post(join).delete(leave))
        .route("/api/queue/ws", get(socket))
        .with_state(QuickState { quick: app.inner.quick.clone(), app })
}

async fn join(
    State(app): State<QuickState>,
    client: Client,
    headers: axum::http::HeaderMap,
    req: Result<Json<QueueRequest>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let req = req.map(|Json(r)| r).map_err(ApiError::from)?;
    let person = match crate::accounts::session::session(&app.app, &headers).await? {
        Some((_, who)) => crate::host::Person::Account(who),
        None => crate::host::Person::Guest,
    };
    let who = joining(app.app.tables(), &req, person).await?;
    let queued = app.quick().join(req, who, &client.0, app.app.config())?;
    Ok((StatusCode::CREATED, Json(queued)).into_response())
}

fn ticket(asker: &Asker) -> Result<&str, ApiError> {
    asker.token().ok_or(ApiError::MissingToken)
}

async fn status(State(app): State<QuickState>, asker: Asker) -> Result<Json<QueueStatus>, ApiError> {
    Ok(Json(app.quick().status(ticket(&asker)?)?))
}

/// Leaves the queue; a seat already given is given to a bot at once (nobody waits for a person
/// who left).
async fn leave(State(app): State<QuickState>, asker: Asker) -> Result<Json<QueueStatus>, ApiError> {
    if let Some((id, seat)) = app.quick().leave(ticket(&asker)?)? {
        let tables = app.app.tables();
        if let Some(table) = tables.typed_in_memory::<Uno>(&id) {
            table.stand_in_for(tables, &[seat], true).await;
        }
    }
    Ok(Json(QueueStatus::Left))
}

/// `GET /api/queue/ws`, the ticket offered as the subprotocol `bearer.<ticket>`: the status on
/// connect and at every change; closing it while waiting leaves the queue.
async fn socket(
    State(app): State<QuickState>,
    asker: Asker,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let ws = ws.map_err(|r| ApiError::WebSocketRequired { status: r.status(), reason: r.to_string() })?;
    let secret = ticket(&asker)?.to_string();
    // Refused before the upgrade, as a plain 403.
    app.quick().status(&secret)?;
    Ok(ws
        .protocols([crate::bearer::PROTOCOL])
        .max_message_size(limits::MAX_WS_MESSAGE_BYTES)
        .on_upgrade(move |socket| queue_session(app, secret, socket)))
}

async fn queue_session(app: QuickState, secret: String, mut socket: WebSocket) {
    let quick = app.quick().clone();
    let Ok(mut rx) = quick.subscribe(&secret) else { return };
    let text = |s: &QueueStatus| Utf8Bytes::from(serde_json::to_string(s).unwrap_or_default());
    let first = text(&rx.borrow_and_update().clone());
    let mut ok = socket.send(Message::Text(first)).await.is_ok();
    while ok {
        tokio::select! {
            changed = rx.changed() => {
                if changed.is_err() {
                    break;
                }
                let status = rx.borrow_and_update().clone();
                ok = socket.send(Message::Text(text(&status))).await.is_ok();
                if status == QueueStatus::Left {
                    break;
                }
            }
            msg = socket.recv() => match msg {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => {}
            },
        }
    }
    quick.unsubscribe(&secret);
}
