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
    if !inner.state.store().fresh(&table.id) {
        // Its lease not renewed in time: what this instance holds may be stale (see
        // `AppState::table`).
        return http_answer(&crate::ApiError::from(crate::TableError::OwnerUnavailable(table.id.clone())));
    }
    let (first, version, viewer, index, epoch, rx) = {
        let mut st = table.state.lock().await;
        let viewer = match inner.state.resolve(&st, token) {
            Ok(v) => v,
            Err(e) => return http_answer(&e.into()),
        };
        // Subscribed and rendered under one lock, as for a socket here: no change is missed or
        // sent twice.
        st.watch(viewer, 1);
        let first = serde_json::to_string(&st.full_view(&table.id, viewer, "state")).unwrap_or_default();
        (first, st.version(), viewer, st.viewer_index(viewer), table.seat_epoch(viewer), table.tx.subscribe())
    };
    let watch = Arc::new(Watch { table: table.id.clone(), renewed: Mutex::new(Instant::now()), stop: Notify::new() });
    if let Ok(mut open) = inner.watches.open.lock() {
        open.insert(id.clone(), watch.clone());
    }
    let inner = inner.clone();
    tokio::spawn(async move {
        let subject = watch_subject(&table.id, &id);
        let mut rx = rx;
        let mut shown = version;
        let mut tick = tokio::time::interval(RENEW_EVERY);
        loop {
            let out = tokio::select! {
                push = rx.recv() => match ws::next(&table, viewer, index, epoch, &mut shown, push).await {
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
        table.state.lock().await.watch(viewer, -1);
        inner.watches.stop(&id);
    });
    Answer::Watching { first, version }
}
