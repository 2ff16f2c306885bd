//! One table: its game in its lifecycle, its seats, its open sockets, and the one funnel every
//! change is published through.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::{broadcast, Mutex};

use super::seats::{self, Meta};
use super::{Facts, Hosted, Logged, Seat, Shown, Viewer};
use crate::messages::TableStatus;
use crate::text::Text;

/// Where a table stands: the one place this is kept.
pub enum Lifecycle<G: Hosted> {
    /// Waiting for people to take every person's seat: nothing is dealt, so no hand exists
    /// that anyone could see before play starts.
    Waiting(G::Setup),
    /// Dealt and played. A person's seat given up in play is open again, and the game waits
    /// for someone to take it (its status then says `waiting`).
    Playing(G),
    /// Over; kept in memory (for a rematch, and its result) until `finished_ttl` after `at`.
    Finished { game: G, at: Instant },
    /// Closed: nothing acts at it any more, and it has left the registry.
    Closed(Closing),
}

/// Why a table closed here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closing {
    /// Its owner closed it.
    Owner,
    /// Nobody was there for the idle time.
    Idle,
    /// Another instance holds it now (its lease moved on): the game goes on there, and a
    /// socket is told to connect again rather than that it ended.
    Moved,
}

impl<G: Hosted> Lifecycle<G> {
    /// The dealt game, if there is one.
    pub fn game(&self) -> Option<&G> {
        match self {
            Lifecycle::Playing(g) | Lifecycle::Finished { game: g, .. } => Some(g),
            Lifecycle::Waiting(_) | Lifecycle::Closed(_) => None,
        }
    }

    pub fn closed(&self) -> Option<Closing> {
        match self {
            Lifecycle::Closed(c) => Some(*c),
            _ => None,
        }
    }

    /// What a request that reached table `id` as it closed is told: what it would be told
    /// after the table left memory. One that moved is played on by its new owner, so a retry
    /// reaches it there (a `503` with `Retry-After`); any other closed table is gone. Never
    /// its state: a closed table has no game, and a read of it showed version 0, finished.
    pub fn gone(&self, id: &str) -> Option<super::TableError> {
        match self.closed()? {
            Closing::Moved => Some(super::TableError::OwnerUnavailable(id.to_string())),
            Closing::Owner | Closing::Idle => Some(super::TableError::NoSuchTable(id.to_string())),
        }
    }

    /// Whether the table counts against its creator's limit (not over, not closed).
    pub fn unfinished(&self) -> bool {
        matches!(self, Lifecycle::Waiting(_) | Lifecycle::Playing(_))
    }
}

/// One change, rendered for every viewer that has a socket open (`views[seat]`, spectators at
/// `views[seats]`), or the table's close.
pub enum Push {
    Change {
        /// The table's version after the change.
        version: u64,
        /// An `update` (to merge into what the viewer holds) rather than a full `state`.
        update: bool,
        /// `None` for a viewer not listening when it was rendered: if it is now, it reads its
        /// full state.
        views: Vec<Option<Text>>,
    },
    Closed(Closing),
    /// A message for every viewer that changes nothing at the table (a quick phrase): sent as
    /// it is.
    Said(Text),
}

pub struct Table<G: Hosted> {
    pub(crate) id: String,
    pub(crate) creator: String,
    /// Per seat, how often its holder changed (a join or a leave), bumped under the lock. A
    /// socket opened for a seat serves it only while this is what it was at the upgrade, so a
    /// socket that missed the change (it lagged) neither reads nor acts for the seat's next
    /// holder. Outside the lock: every push to every socket reads it.
    epochs: Vec<AtomicU64>,
    pub(crate) state: Mutex<TableState<G>>,
    pub(crate) tx: broadcast::Sender<Arc<Push>>,
}

pub struct TableState<G: Hosted> {
    pub(crate) life: Lifecycle<G>,
    pub(crate) meta: Meta<G::Settings>,
    pub(crate) bots: Vec<Option<G::Bot>>,
    /// The newest events, for a viewer who was not connected.
    pub(crate) recent: VecDeque<Logged<G::Event>>,
    /// Set when an append failed in a way that may have committed all the same and the log
    /// could not be read to tell: the log is read again before the next action.
    pub(crate) in_doubt: bool,
    /// Open sockets per viewer index (seats, then spectators).
    pub(crate) watchers: Vec<usize>,
    /// Per seat, what the updates so far told it.
    pub(crate) told: Vec<G::Told>,
    pub(crate) last_activity: Instant,
    /// A bot's moves the store refused in a row (the database away): its next try waits
    /// longer, and fewer of them are logged (`schedule::bot_retry`).
    pub(crate) bot_retries: u32,
    /// Per seat, whether its holder took it: read the table or opened a socket with its token,
    /// or acted (a seat given by quick match that nobody takes goes to a bot).
    pub(crate) claimed: Vec<bool>,
    /// Per seat, when its last quick phrase was said.
    pub(crate) said_at: Vec<Option<Instant>>,
    /// When the current person's turn time runs out, and whose it is.
    pub(crate) turn_deadline: Option<(Instant, Seat)>,
}

impl<G: Hosted> Table<G> {
    pub(crate) fn new(id: String, st: TableState<G>) -> Table<G> {
        let (tx, _) = broadcast::channel(256);
        Table {
            id,
            creator: st.meta.creator.clone(),
            epochs: (0..st.meta.seats.len()).map(|_| AtomicU64::new(0)).collect(),
            state: Mutex::new(st),
            tx,
        }
    }

    /// The seat's holder generation now (see `epochs`); 0 for a spectator.
    pub(crate) fn seat_epoch(&self, viewer: Viewer) -> u64 {
        match viewer {
            Viewer::Seat(s) => self.epochs.get(s.index()).map(|e| e.load(Ordering::Acquire)).unwrap_or(0),
            Viewer::Spectator => 0,
        }
    }

    pub(crate) fn bump_epoch(&self, seat: Seat) {
        if let Some(e) = self.epochs.get(seat.index()) {
            e.fetch_add(1, Ordering::AcqRel);
        }
    }

    /// Tells every socket the table closed (under the lock, so nothing is published after it).
    pub(crate) fn close(&self, st: &mut TableState<G>, why: Closing) {
        st.life = Lifecycle::Closed(why);
        st.turn_deadline = None;
        let _ = self.tx.send(Arc::new(Push::Closed(why)));
    }

    /// Sends every viewer with an open socket its full state (after a seat changed hands, a
    /// deal or a rematch: rare, and a page redraws everything then anyway).
    pub(crate) fn publish_state(&self, st: &mut TableState<G>) {
        st.told_everything(&self.id);
        if self.tx.receiver_count() == 0 {
            return;
        }
        let views = (0..st.watchers.len())
            .map(|i| {
                if st.watchers[i] == 0 {
                    return None;
                }
                let v = st.viewer_at(i);
                Some(st.full_text(&self.id, v))
            })
            .collect();
        let _ = self.tx.send(Arc::new(Push::Change { version: st.version(), update: false, views }));
    }

    /// Sends every viewer with an open socket what an action changed: the game's update where
    /// it renders one, else the full state.
    pub(crate) fn publish_change(&self, st: &mut TableState<G>, events: &[Logged<G::Event>]) {
        if self.tx.receiver_count() == 0 {
            st.told.iter_mut().for_each(|t| *t = G::Told::default());
            return;
        }
        let rendered = {
            let TableState { life, meta, recent, watchers, told, turn_deadline, .. } = &mut *st;
            let facts = facts(&self.id, life, meta, recent, *turn_deadline);
            life.game().and_then(|g| g.updates(&facts, events, told, watchers))
        };
        match rendered {
            Some(views) => {
                let _ = self.tx.send(Arc::new(Push::Change { version: st.version(), update: true, views }));
            }
            None => {
                // Each socket then sends its viewer the full state.
                st.told.iter_mut().for_each(|t| *t = G::Told::default());
                self.publish_state(st);
            }
        }
    }
}

/// What the views and the game's choices read of a table.
pub(crate) fn facts<'a, G: Hosted>(
    id: &'a str,
    life: &Lifecycle<G>,
    meta: &'a Meta<G::Settings>,
    recent: &'a VecDeque<Logged<G::Event>>,
    turn_deadline: Option<(Instant, Seat)>,
) -> Facts<'a, G> {
    Facts {
        id,
        status: status(life, meta),
        version: meta.version_base + life.game().map_or(0, G::plies),
        generation: meta.generation,
        seats: &meta.seats,
        spectators: meta.spectators,
        turn_seconds: meta.turn_seconds,
        turn_ms_left: turn_deadline.map(|(d, _)| d.saturating_duration_since(Instant::now()).as_millis() as u64),
        turn_seat: turn_deadline.map(|(_, s)| s),
        settings: &meta.game,
        recent,
    }
}

/// What viewers are told of where the table stands.
fn status<G: Hosted>(life: &Lifecycle<G>, meta: &Meta<G::Settings>) -> TableStatus {
    match life {
        Lifecycle::Finished { .. } | Lifecycle::Closed(_) => TableStatus::Finished,
        Lifecycle::Playing(g) if g.is_over() => TableStatus::Finished,
        Lifecycle::Playing(_) if meta.seated() => TableStatus::Playing,
        Lifecycle::Playing(_) | Lifecycle::Waiting(_) => TableStatus::Waiting,
    }
}

impl<G: Hosted> TableState<G> {
    pub(crate) fn version(&self) -> u64 {
        self.meta.version_base + self.plies()
    }

    pub(crate) fn plies(&self) -> u64 {
        self.life.game().map_or(0, G::plies)
    }

    pub(crate) fn status(&self) -> TableStatus {
        status(&self.life, &self.meta)
    }

    pub(crate) fn players(&self) -> usize {
        self.meta.seats.len()
    }

    pub(crate) fn facts<'a>(&'a self, id: &'a str) -> Facts<'a, G> {
        facts(id, &self.life, &self.meta, &self.recent, self.turn_deadline)
    }

    /// The viewer of watcher index `i` (seats, then spectators).
    pub(crate) fn viewer_at(&self, i: usize) -> Viewer {
        match seats::all(self.players()).nth(i) {
            Some(s) => Viewer::Seat(s),
            None => Viewer::Spectator,
        }
    }

    pub(crate) fn viewer_index(&self, v: Viewer) -> usize {
        match v {
            Viewer::Seat(s) => s.index(),
            Viewer::Spectator => self.players(),
        }
    }

    /// A viewer's full view: the table's recent events with it.
    pub(crate) fn full_view(&self, id: &str, v: Viewer) -> Option<G::View> {
        let facts = self.facts(id);
        match &self.life {
            Lifecycle::Waiting(setup) => Some(G::waiting_view(setup, &facts, v)),
            Lifecycle::Playing(g) | Lifecycle::Finished { game: g, .. } => {
                Some(g.view(&facts, v, Shown::Recent(&self.recent)))
            }
            Lifecycle::Closed(_) => None,
        }
    }

    /// The answer to an action: its events and those of the bots that answered in the request.
    pub(crate) fn change_view(
        &self,
        id: &str,
        v: Viewer,
        events: &[Logged<G::Event>],
        answered: &[Logged<G::Event>],
    ) -> Option<G::View> {
        let facts = self.facts(id);
        self.life.game().map(|g| g.view(&facts, v, Shown::Change(events, answered)))
    }

    pub(crate) fn full_text(&self, id: &str, v: Viewer) -> Text {
        Text::from(self.full_view(id, v).and_then(|view| serde_json::to_string(&view).ok()).unwrap_or_default())
    }

    /// A socket opened or closed: a person connecting or leaving is activity.
    pub(crate) fn watch(&mut self, id: &str, v: Viewer, delta: isize) {
        self.last_activity = Instant::now();
        if let (true, Viewer::Seat(s)) = (delta > 0, v) {
            self.claim(s);
        }
        let i = self.viewer_index(v);
        if let Some(w) = self.watchers.get_mut(i) {
            *w = w.saturating_add_signed(delta);
        }
        // A new socket starts from the full state: the next update need not repeat it. (Any
        // other socket of the seat was told the same: every change is published under the lock.)
        if let (true, Viewer::Seat(s)) = (delta > 0, v) {
            let told = self.life.game().map(|g| g.told(&self.facts(id), s)).unwrap_or_default();
            if let Some(t) = self.told.get_mut(s.index()) {
                *t = told;
            }
        }
    }

    /// The holder of `seat` is here (see `claimed`).
    pub(crate) fn claim(&mut self, seat: Seat) {
        if let Some(c) = self.claimed.get_mut(seat.index()) {
            *c = true;
        }
    }

    /// After a full state went to every socket: each seat was told everything.
    pub(crate) fn told_everything(&mut self, id: &str) {
        let told: Vec<G::Told> = match self.life.game() {
            Some(g) => {
                let facts = self.facts(id);
                seats::all(self.players()).map(|s| g.told(&facts, s)).collect()
            }
            None => vec![G::Told::default(); self.players()],
        };
        self.told = told;
    }

    /// Appends to the recent events, keeping the newest [`Hosted::RECENT_EVENTS`].
    pub(crate) fn remember(&mut self, events: &[Logged<G::Event>]) {
        keep_recent::<G>(&mut self.recent, events.iter().cloned());
    }
}

/// Appends to a table's recent events, keeping the newest [`Hosted::RECENT_EVENTS`].
pub(crate) fn keep_recent<G: Hosted>(
    recent: &mut VecDeque<Logged<G::Event>>,
    events: impl IntoIterator<Item = Logged<G::Event>>,
) {
    for e in events {
        if recent.len() >= G::RECENT_EVENTS {
            recent.pop_front();
        }
        recent.push_back(e);
    }
}
