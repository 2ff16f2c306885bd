//! What one viewer sees of a table: its full view, its summary in a list, the recent events.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

use uno::{Phase, Seat};

use super::{Table, TableError, TableState, Tables, Viewer};
use crate::limits;
use crate::messages::{LoggedEvent, SeatKind, SeatView, TableStatus, TableSummary, TableView};
use crate::update::{self, Told};

impl TableState {
    pub(crate) fn version(&self) -> u64 {
        self.meta.version_base + self.record.actions.len() as u64
    }

    pub(super) fn players(&self) -> usize {
        self.meta.seats.len()
    }

    pub(crate) fn status(&self) -> TableStatus {
        if self.game.is_over() {
            TableStatus::Finished
        } else if self.meta.seats.iter().any(|s| s.kind == SeatKind::Human && s.token_hash.is_none()) {
            TableStatus::Waiting
        } else {
            TableStatus::Playing
        }
    }

    pub(crate) fn viewer_index(&self, v: Viewer) -> usize {
        match v {
            Viewer::Seat(s) => s,
            Viewer::Spectator => self.players(),
        }
    }

    pub(crate) fn watch(&mut self, v: Viewer, delta: isize) {
        // A person connecting or leaving is activity: the idle time counts from the last one.
        self.last_activity = Instant::now();
        let i = self.viewer_index(v);
        if let Some(w) = self.watchers.get_mut(i) {
            *w = w.saturating_add_signed(delta);
        }
        // A new socket starts from the full state: the next update need not repeat it. (Any
        // other socket of the seat was told the same: every change is published under the lock.)
        if let (true, Viewer::Seat(s)) = (delta > 0, v) {
            let told = Told::now(&self.game, self.status(), Seat(s as u8));
            if let Some(t) = self.told.get_mut(s) {
                *t = told;
            }
        }
    }

    /// After a full state went to every socket: each seat was told everything.
    pub(super) fn told_everything(&mut self) {
        let status = self.status();
        for (s, t) in self.told.iter_mut().enumerate() {
            *t = Told::now(&self.game, status, Seat(s as u8));
        }
    }

    pub(super) fn seat_views(&self) -> Vec<SeatView> {
        self.meta
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatView {
                seat: i,
                kind: s.kind,
                name: s.name.clone(),
                taken: s.kind == SeatKind::Bot || s.token_hash.is_some(),
                bot: s.bot.clone(),
            })
            .collect()
    }

    pub(crate) fn view(&self, id: &str, v: Viewer, events: &[LoggedEvent], kind: &str) -> TableView {
        let seat = match v {
            Viewer::Seat(s) => Some(Seat(s as u8)),
            Viewer::Spectator => None,
        };
        let view = self.game.observation(seat);
        let playing = self.status() == TableStatus::Playing;
        let legal_actions = if playing { view.legal_actions.clone() } else { Vec::new() };
        TableView {
            kind: kind.to_string(),
            id: id.to_string(),
            game: "uno".to_string(),
            status: self.status(),
            version: self.version(),
            generation: self.meta.generation,
            rules: self.game.rules().name().to_string(),
            seats: self.seat_views(),
            you: seat.map(|s| s.index()),
            spectators: self.meta.spectators,
            chosen_seed: self.meta.chosen_seed,
            started_from: self.meta.started_from.clone(),
            turn_seconds: self.meta.turn_seconds,
            turn_ms_left: self.turn_ms_left(),
            round_pause_ms: self.round_pause_ms(),
            revealed_hands: update::revealed_hands(&self.game),
            round_result: update::round_result(&self.game),
            view,
            legal_actions,
            events: events
                .iter()
                .map(|e| LoggedEvent { version: e.version, event: e.event.redacted_for(seat) })
                .collect(),
        }
    }

    /// The pause before a table of bots only deals the next round; `None` elsewhere (a person
    /// deals it when they have read the result).
    pub(super) fn round_pause_ms(&self) -> Option<u64> {
        let bots_only = self.meta.seats.iter().all(|s| s.kind == SeatKind::Bot);
        (bots_only && self.game.phase() == Phase::RoundOver).then_some(limits::ROUND_PAUSE_MS)
    }

    pub(super) fn turn_ms_left(&self) -> Option<u64> {
        self.turn_deadline.map(|d| d.saturating_duration_since(Instant::now()).as_millis() as u64)
    }

    pub(crate) fn full_view(&self, id: &str, v: Viewer, kind: &str) -> TableView {
        let recent: Vec<LoggedEvent> = self.events.iter().cloned().collect();
        self.view(id, v, &recent, kind)
    }

    pub(super) fn summary(&self, id: &str) -> TableSummary {
        let seats = self.seat_views();
        TableSummary {
            id: id.to_string(),
            status: self.status(),
            rules: self.game.rules().name().to_string(),
            open_seats: seats.iter().filter(|s| !s.taken).count(),
            seats,
            spectators: self.meta.spectators,
            chosen_seed: self.meta.chosen_seed,
            version: self.version(),
        }
    }

    pub(super) fn remember(&mut self, events: &[LoggedEvent]) {
        keep_recent(&mut self.events, events.iter().cloned());
    }
}

impl Tables {
    pub fn list_tables(&self) -> Vec<TableSummary> {
        let tables: Vec<Arc<Table>> = self.inner.tables.all();
        // A table busy right now is left out rather than waited for: a list is a glance.
        // A table closed to spectators is not public: it is not listed (players have its invite).
        let mut out: Vec<TableSummary> = tables
            .iter()
            .filter_map(|t| t.state.try_lock().ok().filter(|st| st.meta.spectators).map(|st| st.summary(&t.id)))
            .collect();
        out.sort_by(|a, b| a.id.cmp(&b.id));
        out.truncate(limits::MAX_LISTED);
        out
    }

    pub async fn read_table(&self, id: &str, token: Option<&str>) -> Result<TableView, TableError> {
        let table = self.table(id).await?;
        let st = table.state.lock().await;
        let viewer = self.resolve(&st, token)?;
        Ok(st.full_view(id, viewer, "state"))
    }
}

/// Appends to a table's recent events, keeping the newest [`limits::RECENT_EVENTS`].
pub(super) fn keep_recent(recent: &mut VecDeque<LoggedEvent>, events: impl IntoIterator<Item = LoggedEvent>) {
    for e in events {
        if recent.len() == limits::RECENT_EVENTS {
            recent.pop_front();
        }
        recent.push_back(e);
    }
}
