//! The owner's side of a viewer connected to another instance: the viewer is resolved here, its
//! pushes are rendered here as for a socket of this instance (so redaction happens here), and
//! only that viewer's messages go out, on the viewer's own subject.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use tokio::sync::Notify;

use super::wire::{watch_subject, Answer, Pushed};
use super::{http_answer, Inner};
use crate::host::Socket;
use crate::ws::{self, Next};

/// How often the instance of a viewer says it is still connected.
pub(super) const RENEW_EVERY: Duration = Duration::from_secs(1);
/// A watch nobody renewed for this long is dropped (its instance died, or the bus lost it).
const EXPIRES_AFTER: Duration = Duration::from_secs(4);

/// The watches this instance serves for viewers on other instances.
#[derive(Default)]
pub(super) struct Watches {
    open: Mutex<HashMap<String, Arc<Watch>>>,
}

struct Watch {
    table: String,
    renewed: Mutex<Instant>,
    stop: Notify,
}

impl Watches {
    /// The watches of `ids` this instance does not serve, or whose table it no longer holds
    /// (`held` says which it does); renews the others.
    pub(super) fn renew(&self, ids: Vec<String>, held: impl Fn(&str) -> bool) -> Vec<String> {
        let Ok(open) = self.open.lock() else { return ids };
        ids.into_iter()
            .filter(|id| match open.get(id) {
                Some(w) if held(&w.table) => {
                    if let Ok(mut at) = w.renewed.lock() {
                        *at = Instant::now();
                    }
                    false
                }
                _ => true,
            })
            .collect()
    }

    /// Ends every watch (this instance handed its tables over): each one's subject and the
    /// table it watched, so that its relay can be told the table moved.
    pub(super) fn end_all(&self) -> Vec<String> {
        let ended: Vec<(String, Arc<Watch>)> = match self.open.lock() {
            Ok(mut open) => open.drain().collect(),
            Err(_) => return Vec::new(),
        };
        ended
            .into_iter()
            .map(|(id, w)| {
                w.stop.notify_one();
                watch_subject(&w.table, &id)
            })
            .collect()
    }

    pub(super) fn stop(&self, id: &str) {
        if let Some(w) = self.open.lock().ok().and_then(|mut o| o.remove(id)) {
            w.stop.notify_one();
        }
    }
}

/// Opens a watch for the viewer `token` names at `table` (held here): its full state now, and
/// a task that publishes its changes until the watch is closed or expires.
pub(super) async fn open(inner: &Arc<Inner>, table: &str, token: Option<&str>, id: String) -> Answer {
    let Some(table) = inner.held(table) else { return Answer::NotHere };
    if !inner.state.store().fresh(table.id()) {
        // Its lease not renewed in time: what this instance holds may be stale (see
        // `Tables::table`).
        return http_answer(&crate::ApiError::from(crate::TableError::OwnerUnavailable(table.id().to_string())));
    }
    let (viewer, epoch) = match table.resolve(token).await {
        Ok(v) => v,
        Err(e) => return http_answer(&e.into()),
    };
    // Subscribed and rendered under one lock, as for a socket here: no change is missed or
    // sent twice (and nothing of a seat that changed hands since it was resolved is shown).
    let Some(Socket { first, version, index, rx, .. }) = table.watch(viewer, epoch).await else {
        return http_answer(&crate::ApiError::from(crate::TableError::BadToken));
    };
    let first = first.as_str().to_string();
    let watch =
        Arc::new(Watch { table: table.id().to_string(), renewed: Mutex::new(Instant::now()), stop: Notify::new() });
    if let Ok(mut open) = inner.watches.open.lock() {
        open.insert(id.clone(), watch.clone());
    }
    let inner = inner.clone();
    tokio::spawn(async move {
        let subject = watch_subject(table.id(), &id);
        let mut rx = rx;
        let mut shown = version;
        let mut tick = tokio::time::interval(RENEW_EVERY);
        loop {
            let out = tokio::select! {
                push = rx.recv() => match ws::next(&*table, viewer, index, epoch, &mut shown, push).await {
                    Next::Send { text, version, update } => Pushed::View { version, update, text: text.to_string() },
                    Next::Skip => continue,
                    Next::Close(frame) => Pushed::Close { code: frame.code, reason: frame.reason.to_string() },
                },
                _ = watch.stop.notified() => break,
                _ = tick.tick() => {
                    if watch.renewed.lock().map(|at| at.elapsed() > EXPIRES_AFTER).unwrap_or(true) {
                        break;
                    }
                    // The version last sent: a relay that lost a message finds out by time.
                    Pushed::Tick { version: shown }
                }
            };
            let closing = matches!(out, Pushed::Close { .. });
            // At most once: a message lost here shows as a gap in versions over there, and the
            // viewer's instance reloads its state.
            let _ = inner.nats.publish(subject.clone(), Bytes::from(out.encode())).await;
            if closing {
                break;
            }
        }
        table.unwatch(viewer).await;
        inner.watches.stop(&id);
    });
    Answer::Watching { first, version }
}
