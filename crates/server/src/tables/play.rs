//! Play: a seat's action checked, stored, then applied and pushed to every open socket.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use store::Status as StoreStatus;
use uno::{Action, Move, Seat};

use super::{Push, Table, TableError, TableState, Tables, Viewer};
use crate::messages::{LoggedEvent, TableStatus, TableView};
use crate::text::Text;
use crate::update::{self, Told};

impl Tables {
    /// A seat's action, checked against the version it was based on.
    pub async fn act(
        &self,
        id: &str,
        token: Option<&str>,
        action: Action,
        version: u64,
    ) -> Result<TableView, TableError> {
        self.act_answering(id, token, action, version, true)
            .await?
            .ok_or_else(|| TableError::Internal("no view".into()))
    }

    /// [`Tables::act`], rendering the asker's view only when `view` (a client that follows
    /// the table over a WebSocket gets the change there, and a view rendered for nobody is
    /// wasted work; see `Prefer: return=minimal` in `docs/api.md`).
    pub async fn act_answering(
        &self,
        id: &str,
        token: Option<&str>,
        action: Action,
        version: u64,
        view: bool,
    ) -> Result<Option<TableView>, TableError> {
        let table = self.table_to_act(id).await?;
        let mut st = table.state.lock().await;
        let viewer = match token {
            Some(t) => self.resolve(&st, Some(t))?,
            None => return Err(TableError::MissingToken),
        };
        let Viewer::Seat(seat) = viewer else { return Err(TableError::BadToken) };
        let events = self.act_as(&table, &mut st, seat, action, Some(version)).await?;
        st.last_activity = Instant::now();
        Ok(view.then(|| st.view(id, viewer, &events, "update")))
    }

    /// Also the WebSocket's way in: the seat was resolved at the upgrade, and is served only
    /// while its holder is the one it was then (`epoch`, see `Table::seat_epochs`).
    pub(crate) async fn act_seat(
        &self,
        table: &Arc<Table>,
        seat: usize,
        epoch: u64,
        action: Action,
        version: u64,
    ) -> Result<(), TableError> {
        let mut st = table.state.lock().await;
        if table.seat_epoch(Viewer::Seat(seat)) != epoch {
            return Err(TableError::BadToken);
        }
        self.act_as(table, &mut st, seat, action, Some(version)).await?;
        st.last_activity = Instant::now();
        Ok(())
    }

    pub(super) async fn act_as(
        &self,
        table: &Arc<Table>,
        st: &mut TableState,
        seat: usize,
        action: Action,
        version: Option<u64>,
    ) -> Result<Vec<LoggedEvent>, TableError> {
        if table.closed.load(Ordering::Acquire) {
            return Err(TableError::NoSuchTable(table.id.clone()));
        }
        if table.unsure.load(Ordering::Acquire) {
            self.reread_log(table, st).await?;
        }
        match st.status() {
            TableStatus::Waiting => return Err(TableError::NotStarted),
            TableStatus::Finished => return Err(TableError::Illegal(uno::IllegalAction::GameOver)),
            TableStatus::Playing => {}
        }
        if let Some(sent) = version {
            if sent != st.version() {
                return Err(TableError::StaleState { sent, current: st.version() });
            }
        }
        // Checked by the engine, stored, then applied: a refused or unstored action leaves
        // the game as it was, with nothing to undo.
        let s = Seat(seat as u8);
        st.game.check(s, action).map_err(TableError::Illegal)?;
        let seq = st.record.actions.len() as u64;
        let entry = store::Entry::new(&Move { seat: s, action }).map_err(|e| TableError::Internal(e.to_string()))?;
        let writing = Instant::now();
        let written = self.inner.store.append(&table.id, seq, entry).await;
        crate::metrics::store_write(writing.elapsed());
        if let Err(e) = written {
            if !self.stored_after_all(table, seq, s, action, &e).await {
                // Not stored, so not accepted: the game was not touched.
                if let store::StoreError::Fenced { .. } = e {
                    self.drop_lost(table);
                    return Err(TableError::OwnedElsewhere(table.id.clone()));
                }
                return Err(e.into());
            }
            tracing::warn!(table = %table.id, seq, error = %e, "an append answered with an error was committed; kept");
        }
        let events = st.game.apply(s, action).map_err(TableError::Illegal)?;
        st.record.push(s, action);
        crate::metrics::action();
        let version = st.version();
        let logged: Vec<LoggedEvent> = events.into_iter().map(|event| LoggedEvent { version, event }).collect();
        st.remember(&logged);
        let end_stored = if st.game.is_over() { self.store_end(table, st).await } else { Ok(()) };
        // Scheduled first, so the update carries the new turn's timer. Published whether or
        // not the end was stored: the action is in the log and in memory, so every socket
        // sees it; only the asker hears that the end's writes failed.
        self.schedule(table, st);
        self.publish_update(table, st, &logged);
        end_stored.map(|()| logged)
    }

    /// Acknowledged means stored, the game's end included: its result (with the record and the
    /// statistics' tallies) and its status are committed before the answer. The result goes
    /// first: a crash between the two leaves a finished game marked active, which a restart
    /// finds kept already (see `restore`).
    async fn store_end(&self, table: &Table, st: &mut TableState) -> Result<(), TableError> {
        st.finished_at = Some(Instant::now());
        table.done.store(true, Ordering::Relaxed);
        let store = &self.inner.store;
        let kept = store.add_result(st.finished_result(&table.id)?);
        let status = store.set_status(&table.id, StoreStatus::Finished);
        kept.await?;
        status.await?;
        Ok(())
    }

    /// After an append that failed with `e`: whether action `seq` (`seat`'s `action`) is in the
    /// log all the same. A refusal the database gave (or no lease) wrote nothing; any other error
    /// may have come after the commit (its answer lost on the way), and then only the log can
    /// say. When it cannot be read either, the table is marked unsure: its log is read again
    /// before its next action (`reread_log`), so memory never stays behind the log.
    async fn stored_after_all(
        &self,
        table: &Table,
        seq: u64,
        seat: Seat,
        action: Action,
        e: &store::StoreError,
    ) -> bool {
        use store::StoreError as E;
        if let E::Fenced { .. } | E::OutOfOrder { .. } | E::Conflict { .. } | E::NoSuchGame(_) | E::Encode { .. } = e {
            return false;
        }
        match self.inner.store.load(&table.id).await {
            Ok(Some(g)) => {
                let at = g.actions.get(seq as usize).and_then(|e| e.decode::<Move>().ok());
                if g.actions.len() as u64 == seq + 1 && at.is_some_and(|m| m.seat == seat && m.action == action) {
                    return true;
                }
                if g.actions.len() as u64 != seq {
                    table.unsure.store(true, Ordering::Release);
                }
                false
            }
            _ => {
                table.unsure.store(true, Ordering::Release);
                false
            }
        }
    }

    /// Brings the table in memory up to its log after a commit whose outcome was unknown: the
    /// actions the log holds past memory are applied and pushed as any action is. An error
    /// (the store still away) leaves the table unsure and refuses the action that asked.
    async fn reread_log(&self, table: &Arc<Table>, st: &mut TableState) -> Result<(), TableError> {
        let internal = |e: String| TableError::Internal(e);
        let Some(g) = self.inner.store.load(&table.id).await? else {
            return Err(TableError::NoSuchTable(table.id.clone()));
        };
        let have = st.record.actions.len();
        if g.actions.len() < have {
            // Memory ahead of the log: only what the log holds was acknowledged.
            st.record.actions.truncate(g.actions.len());
            st.game = st.record.replay().map_err(|e| internal(e.to_string()))?;
            self.publish_state(table, st);
        }
        let mut logged = Vec::new();
        for e in g.actions.iter().skip(have) {
            let m: Move = e.decode().map_err(|e| internal(e.to_string()))?;
            let events = st.game.apply(m.seat, m.action).map_err(|e| internal(format!("a stored action: {e}")))?;
            st.record.push(m.seat, m.action);
            let version = st.version();
            logged.extend(events.into_iter().map(|event| LoggedEvent { version, event }));
        }
        table.unsure.store(false, Ordering::Release);
        if g.actions.len() > have {
            tracing::warn!(table = %table.id, found = g.actions.len() - have, "the log held actions memory missed");
            st.remember(&logged);
            if st.game.is_over() {
                st.finished_at = Some(Instant::now());
                table.done.store(true, Ordering::Relaxed);
                drop(self.inner.store.set_status(&table.id, StoreStatus::Finished));
            }
            self.schedule(table, st);
            // The versions jumped: every socket starts again from its full state.
            self.publish_state(table, st);
        }
        Ok(())
    }

    /// Sends every viewer with an open socket the full state (after a seat changed hands or a
    /// rematch: rare, and the page redraws everything anyway).
    pub(super) fn publish_state(&self, table: &Table, st: &mut TableState) {
        st.told_everything();
        if table.tx.receiver_count() == 0 {
            return;
        }
        let players = st.players();
        let views = (0..=players)
            .map(|i| {
                if st.watchers.get(i).copied().unwrap_or(0) == 0 {
                    return None;
                }
                let v = if i == players { Viewer::Spectator } else { Viewer::Seat(i) };
                serde_json::to_string(&st.full_view(&table.id, v, "state")).ok().map(Text::from)
            })
            .collect();
        let _ = table.tx.send(Arc::new(Push { version: st.version(), update: false, views }));
    }

    /// Sends every viewer with an open socket the change an action made (see `update`).
    pub(super) fn publish_update(&self, table: &Table, st: &mut TableState, events: &[LoggedEvent]) {
        if table.tx.receiver_count() == 0 {
            st.told.iter_mut().for_each(|t| *t = Told::default());
            return;
        }
        let change = update::Change {
            game: &st.game,
            status: st.status(),
            version: st.version(),
            generation: st.meta.generation,
            turn_ms_left: st.turn_ms_left(),
            round_pause_ms: st.round_pause_ms(),
            events,
            watchers: &st.watchers,
        };
        let views = match update::render(&change, &mut st.told) {
            Ok(v) => v,
            Err(_) => {
                // Each socket then sends its viewer the full state instead.
                st.told.iter_mut().for_each(|t| *t = Told::default());
                vec![None; st.players() + 1]
            }
        };
        let _ = table.tx.send(Arc::new(Push { version: st.version(), update: true, views }));
    }
}
