//! A viewer connected to this instance at a table another instance holds: its WebSocket is
//! served here, from what the owner publishes for that viewer alone; its actions go to the
//! owner. Updates carry versions: one lost on the way shows as a gap, and the viewer's state is
//! read again from the owner.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::FromRequestParts;
use axum::http::{header, Method};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use tokio::sync::Notify;

use super::wire::{watch_subject, Answer, Ask, Pushed};
use super::{http_response, Inner, Sent};
use crate::bearer;
use crate::conns::ConnSlot;
use crate::host::ClientMessage;
use crate::limits;
use crate::ws::{self, Bucket};
use crate::{ApiError, TableError};

/// The viewers this instance relays, by watch id: which instance serves each, and how to tell
/// its connection that the owner is gone.
#[derive(Default)]
pub(super) struct Relays {
    open: Mutex<HashMap<String, (String, Arc<Notify>)>>,
}

impl Relays {
    fn add(&self, watch: &str, owner: &str) -> Arc<Notify> {
        let lost = Arc::new(Notify::new());
        if let Ok(mut o) = self.open.lock() {
            o.insert(watch.to_string(), (owner.to_string(), lost.clone()));
        }
        lost
    }

    fn remove(&self, watch: &str) {
        if let Ok(mut o) = self.open.lock() {
            o.remove(watch);
        }
    }

    /// The watches open now, by the subject of the instance that serves them.
    pub(super) fn by_owner(&self) -> HashMap<String, Vec<String>> {
        let mut out: HashMap<String, Vec<String>> = HashMap::new();
        if let Ok(o) = self.open.lock() {
            for (watch, (owner, _)) in o.iter() {
                out.entry(owner.clone()).or_default().push(watch.clone());
            }
        }
        out
    }

    /// Ends the relays of these watches: their owner no longer serves them.
    pub(super) fn lose(&self, watches: &[String]) {
        if let Ok(mut o) = self.open.lock() {
            for w in watches {
                if let Some((_, lost)) = o.remove(w) {
                    lost.notify_one();
                }
            }
        }
    }
}

/// The close a relayed viewer gets when its table's owner stops answering (it died, was paused
/// past its lease, or the message bus restarted): connecting again reaches whoever holds the
/// table then, and starts from its full state.
fn moved() -> CloseFrame {
    ws::moved_frame()
}

/// `GET /api/tables/{id}/ws` for a table `owner` (an instance subject) holds. `Err` hands the
/// request back for this instance to answer (the owner does not hold the table).
pub(super) async fn upgrade(
    inner: &Arc<Inner>,
    table: &str,
    owner: String,
    req: axum::extract::Request,
) -> Result<Response, axum::extract::Request> {
    let (mut parts, body) = req.into_parts();
    // The same reading as the local route (`ws::upgrade`): a token in the URL is refused.
    let token = match bearer::asker(&parts) {
        Ok(a) => a.token().map(str::to_string),
        Err(e) => return Ok(e.into_response()),
    };
    if parts.method != Method::GET || !parts.headers.contains_key(header::UPGRADE) {
        // Not a WebSocket: this instance's route says so.
        return Err(axum::extract::Request::from_parts(parts, body));
    }
    let watch = hex::encode(rand::random::<[u8; 12]>());
    // Subscribed before asking, so nothing the owner publishes after its answer is missed.
    let sub = match inner.nats.subscribe(watch_subject(table, &watch)).await {
        Ok(s) => s,
        Err(_) => return Ok(ApiError::from(TableError::OwnerUnavailable(table.to_string())).into_response()),
    };
    let ask = Ask::Watch { table: table.to_string(), token: token.clone(), watch: watch.clone() };
    let (first, version, owner) = match inner.ask(table, owner, ask, true).await {
        Ok(Sent { answer: Answer::Watching { first, version }, owner }) => (first, version, owner),
        Ok(Sent { answer: Answer::NotHere, .. }) => return Err(axum::extract::Request::from_parts(parts, body)),
        Ok(Sent { answer, .. }) => return Ok(http_response(answer)),
        Err(e) => return Ok(e.into_response()),
    };
    let slot = parts.extensions.get::<ConnSlot>().cloned();
    let ws = match WebSocketUpgrade::from_request_parts(&mut parts, &()).await {
        Ok(ws) => ws,
        Err(rejection) => {
            let _ = inner.nats.publish(owner, encode(&Ask::Unwatch { watch }).into()).await;
            return Ok(rejection.into_response());
        }
    };
    let lost = inner.relays.add(&watch, &owner);
    let inner = inner.clone();
    let table = table.to_string();
    let client = crate::client::client_ip(&parts.extensions);
    let relay = Relay { inner, table, token, owner, watch, lost, version, client };
    Ok(ws
        .protocols([ws::PROTOCOL])
        .read_buffer_size(limits::WS_READ_BUFFER_BYTES)
        .max_message_size(limits::MAX_WS_MESSAGE_BYTES)
        .max_frame_size(limits::MAX_WS_MESSAGE_BYTES)
        .on_upgrade(move |socket| relay.run(socket, sub, first, slot)))
}

fn encode(ask: &Ask) -> Vec<u8> {
    serde_json::to_vec(ask).unwrap_or_default()
}

struct Relay {
    inner: Arc<Inner>,
    table: String,
    token: Option<String>,
    owner: String,
    watch: String,
    lost: Arc<Notify>,
    version: u64,
    /// The viewer's address, for the owner's per-client limits (`wire::Ask::Http`'s `client`).
    client: Option<std::net::IpAddr>,
}

impl Relay {
    async fn run(self, mut socket: WebSocket, mut sub: async_nats::Subscriber, first: String, slot: Option<ConnSlot>) {
        let _busy = slot.as_ref().map(ConnSlot::busy);
        let _counted = crate::metrics::relayed();
        let stopping = crate::conns::ending(slot.clone());
        tokio::pin!(stopping);
        let rate = self.inner.state.config().ws_messages_per_second.max(1);
        let mut bucket = Bucket::new(rate);
        let mut shown = self.version;
        let mut ok = socket.send(Message::Text(first.into())).await.is_ok();
        while ok {
            tokio::select! {
                shed = &mut stopping => {
                    ws::close_ending(&mut socket, shed).await;
                    break;
                }
                _ = self.lost.notified() => {
                    ws::close(&mut socket, moved()).await;
                    break;
                }
                pushed = sub.next() => {
                    let Some(pushed) = pushed else {
                        // The subscription ended (the client is closing): start again elsewhere.
                        ws::close(&mut socket, moved()).await;
                        break;
                    };
                    let text = match Pushed::decode(&pushed.payload) {
                        Some(Pushed::View { version, update: true, .. }) if version <= shown => continue,
                        Some(Pushed::Tick { version }) if version <= shown => continue,
                        Some(Pushed::View { version, update, text }) if !update || version == shown + 1 => {
                            shown = version;
                            text
                        }
                        // A gap (an update lost on the way), seen by the next update or by
                        // the owner's tick: the viewer starts again from its full state.
                        Some(Pushed::View { .. } | Pushed::Tick { .. }) => match self.reload().await {
                            Some((text, version)) => {
                                shown = version;
                                text
                            }
                            None => {
                                ws::close(&mut socket, moved()).await;
                                break;
                            }
                        },
                        Some(Pushed::Close { code, reason }) => {
                            let frame = CloseFrame { code, reason: Utf8Bytes::from(reason) };
                            ws::close(&mut socket, frame).await;
                            break;
                        }
                        None => continue,
                    };
                    ok = socket.send(Message::Text(text.into())).await.is_ok();
                }
                msg = socket.recv() => match msg {
                    Some(Ok(Message::Text(text))) => {
                        if !bucket.take() {
                            ok = socket.send(Message::Text(ws::error_text(&ApiError::RateLimited(rate)))).await.is_ok();
                            continue;
                        }
                        if let Some(reply) = self.handle(text.as_str()).await {
                            ok = socket.send(Message::Text(reply)).await.is_ok();
                        }
                    }
                    Some(Ok(Message::Binary(_))) => {
                        let e = ApiError::BadRequest("send JSON text messages".into());
                        ok = socket.send(Message::Text(ws::error_text(&e))).await.is_ok();
                    }
                    Some(Err(e)) => {
                        if let Some(frame) = ws::read_error_close(&e) {
                            ws::close(&mut socket, frame).await;
                        }
                        break;
                    }
                    Some(Ok(Message::Close(_))) | None => break,
                    Some(Ok(_)) => {}
                },
            }
        }
        self.inner.relays.remove(&self.watch);
        let unwatch = encode(&Ask::Unwatch { watch: self.watch.clone() });
        let _ = self.inner.nats.publish(self.owner.clone(), unwatch.into()).await;
    }

    /// The viewer's full state, read from the owner; `None` when the owner does not answer.
    async fn reload(&self) -> Option<(String, u64)> {
        let uri = format!("/api/tables/{}", self.table);
        let (status, body) = self.http(Method::GET, uri, String::new()).await.ok()?;
        if status != 200 {
            return None;
        }
        let version = serde_json::from_str::<serde_json::Value>(&body).ok()?["version"].as_u64()?;
        Some((body, version))
    }

    /// One client message: what to answer, if anything (an accepted action is answered by the
    /// update every viewer gets).
    async fn handle(&self, text: &str) -> Option<Utf8Bytes> {
        // Any game's action: its owner reads it.
        let msg: ClientMessage<serde_json::Value> = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(e) if e.is_syntax() || e.is_eof() => {
                return Some(ws::error_text(&ApiError::MalformedJson(e.to_string())))
            }
            Err(e) => return Some(ws::error_text(&ApiError::InvalidBody(e.to_string()))),
        };
        match msg {
            ClientMessage::Ping => Some(Utf8Bytes::from_static("{\"type\":\"pong\"}")),
            ClientMessage::Action { action, version } => {
                if self.token.is_none() {
                    return Some(ws::error_text(&ApiError::MissingToken));
                }
                let body = serde_json::json!({"action": action, "version": version}).to_string();
                let uri = format!("/api/tables/{}/actions", self.table);
                match self.http(Method::POST, uri, body).await {
                    Ok((204, _)) => None,
                    Ok((_, body)) => {
                        let v: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
                        let error = serde_json::json!({"type": "error", "code": v["code"], "message": v["message"]});
                        Some(Utf8Bytes::from(error.to_string()))
                    }
                    Err(e) => Some(ws::error_text(&e)),
                }
            }
        }
    }

    async fn http(&self, method: Method, uri: String, body: String) -> Result<(u16, String), ApiError> {
        let body_sent = body.clone();
        let ask = Ask::Http {
            table: self.table.clone(),
            method: method.to_string(),
            uri,
            authorization: self.token.as_ref().map(|t| format!("Bearer {t}")),
            content_type: Some("application/json".into()),
            // An action's change reaches the viewer on its watch: the owner need not render a
            // view for the answer.
            prefer: (method == Method::POST).then(|| "return=minimal".into()),
            person: Vec::new(),
            client: self.client,
            body,
            sent_ms: 0,
        };
        let again = method == Method::GET || super::carries_version(&body_sent);
        match self.inner.ask(&self.table, self.owner.clone(), ask, again).await? {
            // Answered where this viewer is watched: its updates keep coming.
            Sent { answer: Answer::Http { status, body }, owner } if owner == self.owner => Ok((status, body)),
            // Answered by another owner: the table moved, and this watch sees its changes no more.
            Sent { answer: Answer::Http { status, body }, .. } => {
                self.lost.notify_one();
                Ok((status, body))
            }
            // The owner changed: this connection's relay ends, and the client connects again.
            _ => {
                self.lost.notify_one();
                Err(TableError::OwnerUnavailable(self.table.clone()).into())
            }
        }
    }
}
