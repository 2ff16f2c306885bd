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
use axum::response::Response;
use serde::Serialize;
use tokio::sync::broadcast::error::RecvError;

use crate::bearer::Asker;
use crate::conns::ConnSlot;
use crate::host::{Closing, Hosting, Push, Socket, TableError, Viewer};
use crate::limits;
use crate::text::Text;
use crate::{ApiError, AppState};

pub async fn upgrade(
    State(app): State<AppState>,
    Path(id): Path<String>,
    asker: Asker,
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
    let table = app.table(&id).await?;
    let (viewer, epoch) = table.resolve(asker.token()).await?;
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

pub(crate) use crate::bearer::PROTOCOL;

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
    // The same codes as over HTTP, but what was refused is a message, not a body.
    let message = match e {
        ApiError::MalformedJson(_)
        | ApiError::InvalidBody(_)
        | ApiError::Table(TableError::MalformedJson(_) | TableError::InvalidBody(_)) => {
            b.message.replacen("the request body", "the message", 1)
        }
        _ => b.message,
    };
    SocketError::Error { code: b.code, message: &message }.text()
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

/// The close a seat's socket gets once the seat is no longer its holder's.
fn seat_left_frame() -> CloseFrame {
    CloseFrame { code: 4001, reason: Utf8Bytes::from_static("seat left") }
}

/// The close a socket gets when its table went to another instance (the lease moved on): the
/// game goes on there, and connecting again reaches it. Not 4002: the table did not end.
pub(crate) fn moved_frame() -> CloseFrame {
    CloseFrame { code: 4003, reason: Utf8Bytes::from_static("table moved: connect again") }
}

/// The close a socket gets when it ends from below: the server shutting down (1001), or its
/// connection shed to make room under the connection cap (`shed`: 1013, try again later).
pub(crate) fn ending_frame(shed: bool) -> CloseFrame {
    if shed {
        CloseFrame {
            code: 1013,
            reason: Utf8Bytes::from_static("server full: this idle connection made room; connect again"),
        }
    } else {
        CloseFrame { code: 1001, reason: Utf8Bytes::from_static("server shutting down") }
    }
}

/// The close a socket gets when its table closed here.
fn closed_frame(why: Closing) -> CloseFrame {
    match why {
        Closing::Moved => moved_frame(),
        Closing::Owner | Closing::Idle => CloseFrame { code: 4002, reason: Utf8Bytes::from_static("table closed") },
    }
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
    table: &dyn Hosting,
    viewer: Viewer,
    index: usize,
    epoch: u64,
    shown: &mut u64,
    push: Result<Arc<Push>, RecvError>,
) -> Next {
    let pushed = match push.as_deref() {
        Ok(Push::Closed(why)) => return Next::Close(closed_frame(*why)),
        _ if table.seat_epoch(viewer) != epoch => return Next::Close(seat_left_frame()),
        Ok(Push::Said(text)) => return Next::Send { text: frame_text(text.clone()), version: *shown, update: true },
        // An update the viewer's full state already holds (sent after a lag): merging it again
        // would be harmless, sending it is not free.
        Ok(Push::Change { update: true, version, .. }) if *version <= *shown => return Next::Skip,
        Ok(Push::Change { version, update, views }) => {
            views.get(index).cloned().flatten().map(|t| (frame_text(t), *version, *update))
        }
        // Too slow to keep up: skip to the present (the table's close may be among what was
        // skipped: the full state says so).
        Err(RecvError::Lagged(_)) => None,
        Err(RecvError::Closed) => {
            return Next::Close(CloseFrame { code: 1001, reason: Utf8Bytes::from_static("gone") })
        }
    };
    let (text, version, update) = match pushed {
        Some(p) => p,
        None => match table.full_state(viewer).await {
            Ok((t, v)) => (frame_text(t), v, false),
            Err(why) => return Next::Close(closed_frame(why)),
        },
    };
    *shown = version;
    Next::Send { text, version, update }
}

async fn session(
    app: AppState,
    table: Arc<dyn Hosting>,
    viewer: Viewer,
    epoch: u64,
    mut socket: WebSocket,
    slot: Option<ConnSlot>,
) {
    // The socket keeps its connection's place under the cap, and is never shed as idle.
    let _busy = slot.as_ref().map(ConnSlot::busy);
    let _counted = crate::metrics::socket();
    // One future for the whole session, not one per loop turn: the loop turns once per message.
    let stopping = crate::conns::ending(slot.clone());
    tokio::pin!(stopping);
    let conn = slot.as_ref().map(|s| s.guard.conn.clone());

    // Subscribe and render the first view under one lock: no change is missed or sent twice.
    let Some(Socket { first, mut rx, index, version: mut shown, .. }) = table.watch(viewer, epoch).await else {
        close(&mut socket, seat_left_frame()).await;
        return;
    };
    let first = frame_text(first);
    let rate = app.config().ws_messages_per_second.max(1);
    let mut bucket = Bucket::new(rate);
    let mut ok = socket.send(Message::Text(first)).await.is_ok();
    while ok {
        tokio::select! {
            shed = &mut stopping => {
                close_ending(&mut socket, shed).await;
                break;
            }
            push = rx.recv() => match next(&*table, viewer, index, epoch, &mut shown, push).await {
                Next::Send { text, .. } => ok = socket.send(Message::Text(text)).await.is_ok(),
                Next::Skip => {}
                Next::Close(frame) => {
                    close(&mut socket, frame).await;
                    break;
                }
            },
            msg = socket.recv() => match msg {
                Some(Ok(Message::Text(text))) => {
                    if let Some(c) = &conn {
                        c.seen();
                    }
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
    table.unwatch(viewer).await;
}

/// How long a closing socket waits for the client's own Close (the WebSocket closing handshake)
/// before the connection is dropped. Dropping it at once while a client message is still unread
/// makes the kernel answer with a reset, which can reach the client before the Close frame, so
/// the client would see a broken connection instead of the reason.
const CLOSE_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// How long a socket closed because the server is stopping (1001) waits for the client's
/// Close. The instance hands its tables over only once every connection is gone (see
/// `serve_with`), so a client slow to answer (a busy page, a dead mobile link) held a rolling
/// restart's tables still for up to [`CLOSE_WAIT`]; the frame is out first either way.
const STOPPING_CLOSE_WAIT: std::time::Duration = std::time::Duration::from_millis(100);

/// Sends `frame` and waits (at most [`CLOSE_WAIT`]) for the client's Close, reading and
/// dropping whatever it sent meanwhile.
pub(crate) async fn close(socket: &mut WebSocket, frame: CloseFrame) {
    close_within(socket, frame, CLOSE_WAIT).await
}

/// The close of a socket whose connection ends from below (see [`ending_frame`]): shed, or the
/// server stopping, which waits at most [`STOPPING_CLOSE_WAIT`] for the client's answer.
pub(crate) async fn close_ending(socket: &mut WebSocket, shed: bool) {
    let wait = if shed { CLOSE_WAIT } else { STOPPING_CLOSE_WAIT };
    close_within(socket, ending_frame(shed), wait).await
}

async fn close_within(socket: &mut WebSocket, frame: CloseFrame, wait: std::time::Duration) {
    if socket.send(Message::Close(Some(frame))).await.is_err() {
        return;
    }
    let _ = tokio::time::timeout(wait, async {
        while let Some(Ok(msg)) = socket.recv().await {
            if matches!(msg, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

/// The close a socket whose read failed gets, as RFC 6455 asks, rather than a connection
/// dropped unexplained: over the size limit 1009, a frame that breaks the protocol (reserved
/// bits, an unmasked frame, a fragmented or over-long control frame, an unknown opcode, a
/// continuation with nothing to continue) 1002, text that is not UTF-8 1007; nothing for a
/// broken connection. The texts read are tungstenite's errors.
pub(crate) fn read_error_close(e: &axum::Error) -> Option<CloseFrame> {
    let text = e.to_string();
    let (code, reason) = if text.contains("too long") || text.contains("Space limit") {
        (1009, format!("message too big: at most {} bytes", limits::MAX_WS_MESSAGE_BYTES))
    } else if text.contains("UTF-8") {
        (1007, "a text message that is not UTF-8".to_string())
    } else if text.contains("WebSocket protocol error")
        && !["reset without closing", "after closing", "after having closed"].iter().any(|t| text.contains(t))
    {
        let why = text.trim_start_matches("WebSocket protocol error: ");
        (1002, format!("protocol error: {why}").chars().take(120).collect())
    } else {
        return None;
    };
    Some(CloseFrame { code, reason: Utf8Bytes::from(reason) })
}

/// Handles one client message; the answer to send back, if any (an accepted action is answered
/// by the update every viewer gets).
async fn handle(app: &AppState, table: &Arc<dyn Hosting>, viewer: Viewer, epoch: u64, text: &str) -> Option<Utf8Bytes> {
    match table.clone().said(app.tables(), viewer, epoch, text).await {
        Ok(reply) => reply.map(frame_text),
        Err(e) => Some(error_text(&e.into())),
    }
}
