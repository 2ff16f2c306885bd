//! One WebSocket per viewer: `GET /api/tables/{id}/ws`, the seat token offered as the subprotocol
//! `bearer.<token>` beside `tabletop` (no token: a spectator). `Authorization: Bearer` works too
//! for clients that can set headers. A `?token=` in the URL is refused (400 `token_in_url`), since
//! a URL lands in logs.
//!
//! Server → client: `{"type":"state", ...TableView}` on connect (the full current view, so a
//! reconnect resumes) and after a seat changes hands or a rematch; `{"type":"update", ...}` after
//! every action: that action's events redacted for this viewer and what changed (see `update`);
//! `{"type":"error", code, message}` for a refused message. Client → server: `{"type":"action","action":{...},"version":N}`, `{"type":"ping"}`.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Extension, Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast::error::RecvError;
use uno::Action;

use crate::bearer::SeatToken;
use crate::conns::ConnSlot;
use crate::limits;
use crate::tables::{Push, Table, Viewer};
use crate::text::Text;
use crate::{ApiError, AppState};

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum ClientMessage {
    Action { action: Action, version: u64 },
    Ping,
}

pub async fn upgrade(
    State(app): State<AppState>,
    Path(id): Path<String>,
    SeatToken(from_header): SeatToken,
    headers: HeaderMap,
    slot: Option<Extension<ConnSlot>>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let ws = match ws {
        Ok(ws) => ws,
        Err(rejection) => {
            let reason = rejection.to_string();
            return Err(ApiError::WebSocketRequired { status: rejection.status(), reason });
        }
    };
    // Refuse before upgrading, so a bad token is a plain HTTP 403/401.
    let t = protocol_token(&headers)?.or(from_header);
    let table = app.table(&id).await?;
    let (viewer, epoch) = {
        let st = table.state.lock().await;
        let viewer = app.resolve(&st, t.as_deref())?;
        (viewer, table.seat_epoch(viewer))
    };
    Ok(ws
        // A browser that offered subprotocols fails the connection unless one is chosen.
        .protocols([PROTOCOL])
        // The default 128 KiB read buffer is zeroed on every read: a fifth of the server's
        // time under load went to memset. Client messages are small (actions, pings).
        .read_buffer_size(limits::WS_READ_BUFFER_BYTES)
        .max_message_size(limits::MAX_WS_MESSAGE_BYTES)
        .max_frame_size(limits::MAX_WS_MESSAGE_BYTES)
        .on_upgrade(move |socket| session(app, table, viewer, epoch, socket, slot.map(|Extension(s)| s))))
}

/// The subprotocol the server answers with when a client offers it (the pages do, beside their
/// token).
pub(crate) const PROTOCOL: &str = "tabletop";
/// The prefix of the offered subprotocol that carries the seat token.
const TOKEN_PROTOCOL_PREFIX: &str = "bearer.";

/// The seat token offered as the subprotocol `bearer.<token>` in `Sec-WebSocket-Protocol`: what
/// a browser can send without putting the token in the URL (where logs and proxies keep it).
pub(crate) fn protocol_token(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    for v in headers.get_all(axum::http::header::SEC_WEBSOCKET_PROTOCOL) {
        let text = v.to_str().map_err(|_| ApiError::BadToken)?;
        if let Some(t) = text.split(',').map(str::trim).find_map(|p| p.strip_prefix(TOKEN_PROTOCOL_PREFIX)) {
            return Ok(Some(t.to_string()));
        }
    }
    Ok(None)
}

/// A refused client message, as the socket answers it: `{"type":"error", code, message}`, the
/// codes those of HTTP refusals.
#[derive(Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum SocketError<'a> {
    Error { code: &'a str, message: &'a str },
}

impl SocketError<'_> {
    fn text(&self) -> Utf8Bytes {
        Utf8Bytes::from(serde_json::to_string(self).unwrap_or_default())
    }
}

pub(crate) fn error_text(e: &ApiError) -> Utf8Bytes {
    let b = e.body();
    SocketError::Error { code: b.code, message: &b.message }.text()
}

/// A token bucket: `rate` messages a second, bursts of `rate`.
pub(crate) struct Bucket {
    rate: f64,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    pub(crate) fn new(rate: u32) -> Bucket {
        Bucket { rate: rate as f64, tokens: rate as f64, at: Instant::now() }
    }

    pub(crate) fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.rate);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// A push's text as a WebSocket frame's: the same shared bytes, not a copy (checked as UTF-8
/// again, ~20 ns for an update: see `benches/push_text.rs`). A [`Text`] is always UTF-8, so the
/// fallback is never taken.
pub(crate) fn frame_text(text: Text) -> Utf8Bytes {
    Utf8Bytes::try_from(text.into_bytes()).unwrap_or_default()
}

/// The viewer's full state now, and its version.
async fn full_state(table: &Table, viewer: Viewer) -> (Utf8Bytes, u64) {
    let st = table.state.lock().await;
    let text = serde_json::to_string(&st.full_view(&table.id, viewer, "state")).unwrap_or_default();
    (Utf8Bytes::from(text), st.version())
}

/// The close a seat's socket gets once the seat is no longer its holder's.
fn seat_left_frame() -> CloseFrame {
    CloseFrame { code: 4001, reason: Utf8Bytes::from_static("seat left") }
}

/// The close a socket gets when its table went to another instance (the lease moved on): the
/// game goes on there, and connecting again reaches it. Not 4002: the table did not end.
pub(crate) fn moved_frame() -> CloseFrame {
    CloseFrame { code: 4003, reason: Utf8Bytes::from_static("table moved: connect again") }
}

/// What a viewer's connection does with one push from its table.
pub(crate) enum Next {
    /// Send this; the viewer then holds the table at `version` (`update`: merged into what it
    /// held, rather than a full state).
    Send { text: Utf8Bytes, version: u64, update: bool },
    /// Nothing to send.
    Skip,
    /// Close the connection so.
    Close(CloseFrame),
}

/// One push (or a lag) for `viewer`, whose connection was opened at seat epoch `epoch` and has
/// shown the table up to version `shown`: what to send. The same for a socket on this instance
/// and for a viewer of another instance (`cluster`).
pub(crate) async fn next(
    table: &Table,
    viewer: Viewer,
    index: usize,
    epoch: u64,
    shown: &mut u64,
    push: Result<Arc<Push>, RecvError>,
) -> Next {
    // On a lag, the seat's close may be among what was skipped.
    if let (Ok(_), true) = (&push, table.is_closed()) {
        if table.is_moved() {
            return Next::Close(moved_frame());
        }
        return Next::Close(CloseFrame { code: 4002, reason: Utf8Bytes::from_static("table closed") });
    }
    if table.seat_epoch(viewer) != epoch {
        return Next::Close(seat_left_frame());
    }
    let pushed = match push {
        // An update the viewer's full state already holds (sent after a lag): merging it again
        // would be harmless, sending it is not free.
        Ok(push) if push.update && push.version <= *shown => return Next::Skip,
        Ok(push) => push.views.get(index).cloned().flatten().map(|t| (frame_text(t), push.version, push.update)),
        // Too slow to keep up: skip to the present.
        Err(RecvError::Lagged(_)) => None,
        Err(RecvError::Closed) => {
            return Next::Close(CloseFrame { code: 1001, reason: Utf8Bytes::from_static("gone") })
        }
    };
    let (text, version, update) = match pushed {
        Some(p) => p,
        None => {
            let (t, v) = full_state(table, viewer).await;
            (t, v, false)
        }
    };
    *shown = version;
    Next::Send { text, version, update }
}

async fn session(
    app: AppState,
    table: Arc<Table>,
    viewer: Viewer,
    epoch: u64,
    mut socket: WebSocket,
    slot: Option<ConnSlot>,
) {
    // The socket keeps its connection's place under the cap, and is never shed as idle.
    let _busy = slot.as_ref().map(ConnSlot::busy);
    let _counted = crate::metrics::socket();
    // One future for the whole session, not one per loop turn: the loop turns once per message.
    let stopping = crate::conns::stopping(slot.clone());
    tokio::pin!(stopping);

    // Subscribe and render the first view under one lock: no change is missed or sent twice.
    let opened = {
        let mut st = table.state.lock().await;
        // The seat changed hands between the upgrade and now: nothing of it is shown.
        if table.seat_epoch(viewer) != epoch {
            None
        } else {
            st.watch(viewer, 1);
            let first = serde_json::to_string(&st.full_view(&table.id, viewer, "state")).unwrap_or_default();
            Some((Utf8Bytes::from(first), table.tx.subscribe(), st.viewer_index(viewer), st.version()))
        }
    };
    let Some((first, mut rx, index, mut shown)) = opened else {
        close(&mut socket, seat_left_frame()).await;
        return;
    };
    let rate = app.config().ws_messages_per_second.max(1);
    let mut bucket = Bucket::new(rate);
    let mut ok = socket.send(Message::Text(first)).await.is_ok();
    while ok {
        tokio::select! {
            _ = &mut stopping => {
                let frame = CloseFrame { code: 1001, reason: Utf8Bytes::from_static("server shutting down") };
                close(&mut socket, frame).await;
                break;
            }
            push = rx.recv() => match next(&table, viewer, index, epoch, &mut shown, push).await {
                Next::Send { text, .. } => ok = socket.send(Message::Text(text)).await.is_ok(),
                Next::Skip => {}
                Next::Close(frame) => {
                    close(&mut socket, frame).await;
                    break;
                }
            },
            msg = socket.recv() => match msg {
                Some(Ok(Message::Text(text))) => {
                    if !bucket.take() {
                        ok = socket.send(Message::Text(error_text(&ApiError::RateLimited(rate)))).await.is_ok();
                        continue;
                    }
                    if table.seat_epoch(viewer) != epoch {
                        close(&mut socket, seat_left_frame()).await;
                        break;
                    }
                    let reply = handle(&app, &table, viewer, epoch, text.as_str()).await;
                    if let Some(r) = reply {
                        ok = socket.send(Message::Text(r)).await.is_ok();
                    }
                }
                Some(Ok(Message::Binary(_))) => {
                    let e = ApiError::BadRequest("send JSON text messages".into());
                    ok = socket.send(Message::Text(error_text(&e))).await.is_ok();
                }
                Some(Err(e)) => {
                    if let Some(frame) = read_error_close(&e) {
                        close(&mut socket, frame).await;
                    }
                    break;
                }
                Some(Ok(Message::Close(_))) | None => break,
                Some(Ok(_)) => {}
            },
        }
    }
    table.state.lock().await.watch(viewer, -1);
}

/// How long a closing socket waits for the client's own Close (the WebSocket closing handshake)
/// before the connection is dropped. Dropping it at once while a client message is still unread
/// makes the kernel answer with a reset, which can reach the client before the Close frame, so
/// the client would see a broken connection instead of the reason.
const CLOSE_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// Sends `frame` and waits (at most [`CLOSE_WAIT`]) for the client's Close, reading and
/// dropping whatever it sent meanwhile.
pub(crate) async fn close(socket: &mut WebSocket, frame: CloseFrame) {
    if socket.send(Message::Close(Some(frame))).await.is_err() {
        return;
    }
    let _ = tokio::time::timeout(CLOSE_WAIT, async {
        while let Some(Ok(msg)) = socket.recv().await {
            if matches!(msg, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

/// The close a socket whose read failed gets: over the size limit, the standard close code
/// and why, rather than a connection dropped unexplained (the text is tungstenite's capacity
/// error); nothing for a broken connection.
pub(crate) fn read_error_close(e: &axum::Error) -> Option<CloseFrame> {
    let text = e.to_string();
    (text.contains("too long") || text.contains("Space limit")).then(|| CloseFrame {
        code: 1009,
        reason: Utf8Bytes::from(format!("message too big: at most {} bytes", limits::MAX_WS_MESSAGE_BYTES)),
    })
}

/// Handles one client message; the answer to send back, if any (an accepted action is answered
/// by the `update` push every viewer gets).
async fn handle(app: &AppState, table: &Arc<Table>, viewer: Viewer, epoch: u64, text: &str) -> Option<Utf8Bytes> {
    let msg: ClientMessage = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => {
            let err = if e.is_syntax() || e.is_eof() {
                ApiError::MalformedJson(e.to_string())
            } else {
                ApiError::InvalidBody(e.to_string())
            };
            // The same codes as over HTTP, but what was refused is a message, not a body.
            let b = err.body();
            let message = b.message.replacen("the request body", "the message", 1);
            return Some(SocketError::Error { code: b.code, message: &message }.text());
        }
    };
    match msg {
        ClientMessage::Ping => Some(Utf8Bytes::from_static("{\"type\":\"pong\"}")),
        ClientMessage::Action { action, version } => {
            let Viewer::Seat(seat) = viewer else { return Some(error_text(&ApiError::MissingToken)) };
            app.act_seat(table, seat, epoch, action, version).await.err().map(|e| error_text(&e.into()))
        }
    }
}
