//! The one game host: every game the server offers is one implementation of [`Hosted`], and
//! one [`Table`](table::Table) hosts it: its seats and their tokens, its lifecycle, its
//! sockets, its bots and turn timers, its store.
//!
//! What a game writes is only what is its own: what a seat may do ([`Hosted::Action`]) and
//! what it refuses ([`Hosted::Refusal`]), checking and applying an action, the view of one
//! viewer, whether it is over, its record and outcome, and how it is restored from its record.
//! Everything else is the host's, the same for every game:
//!
//! * one path for every action (a person's over HTTP or a socket, a bot's, a timer's):
//!   authenticate, find the table once, check, append to the store, apply, publish; an append
//!   whose outcome is unknown is looked up in the log, and the log read again before the next
//!   action when it cannot be (`play.rs`);
//! * one lifecycle ([`Lifecycle`](table::Lifecycle)): waiting for its seats (nothing dealt), in
//!   play, finished, closed; a game is dealt only when play starts, so no person ever sees a
//!   hand before every seat is taken (`lifecycle.rs`);
//! * joins, leaves, rematches, closes, bots and timers publish through the same funnel as
//!   actions (`table.rs`), and every socket of every game is served by one loop (`crate::ws`);
//! * restoring at start, adoption in a cluster, the idle sweep and the records' retention
//!   (`registry.rs`, `restore.rs`), and finished games kept as their records (`records.rs`).
//!
//! A refusal of the host is a [`TableError`]; a game's own refusal travels in it as a
//! [`Refusal`] (its stable code and its sentence). No HTTP here: `crate::error` maps them.

mod error;
mod hosting;
mod lifecycle;
pub mod person;
pub mod phrases;
mod play;
pub(crate) mod rated;
pub(crate) mod records;
mod registry;
mod restore;
mod schedule;
pub mod seats;
pub(crate) mod table;
pub(crate) mod thinking;

use std::collections::VecDeque;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::Serialize;
use store::SharedStore;
use thinking::Thinkers;

pub use crate::text::Text;
pub use error::{Refusal, TableError};
pub use hosting::{ActRequest, Created, Joined};
pub(crate) use hosting::{ClientMessage, GameHost, Hosting, Socket};
pub(crate) use lifecycle::open;
pub use person::{Person, SignedIn};
pub use registry::{AccountLimits, Config};
pub use seats::{SeatMeta, Viewer};
pub(crate) use table::{Closing, Push};
/// A place at a table, numbered from 0 in seat order: the one seat type of the server, for
/// every game (the UNO engine's, which the others' seats are numbered by too).
pub use uno::Seat;

/// What hosts the tables of game `G` (`crate::Games::with`).
pub(crate) fn hosting_of<G: Hosted>() -> impl GameHost {
    hosting::Host::<G>::new()
}

use crate::limits;
pub use crate::messages::Logged;
use crate::messages::{Occupant, SeatKind, TableStatus, TableSummary};
use crate::registry::Registry;

/// The registry of tables in play, every game's, by id; and what they share. Cheap to clone.
/// Behaviour is the tables' own (`Table`): this finds them, admits new ones, and keeps the
/// registry in step with the store (restoring at start, adopting in a cluster, the sweep; its
/// calls are in `registry.rs` and `restore.rs`). Declared here: the tables' modules take it as
/// their context, and the registry's calls, which call the tables, are named by none of them.
#[derive(Clone)]
pub struct Tables {
    pub(crate) inner: Arc<Core>,
}

pub(crate) struct Core {
    pub(crate) store: SharedStore,
    pub(crate) config: Config,
    /// Bots' thinking, in one lane per client (see `thinking`).
    thinkers: Arc<Thinkers>,
    pub(crate) tables: Registry<dyn Hosting>,
    /// The games hosted, by kind.
    pub(crate) games: Vec<Arc<dyn GameHost>>,
    /// Held while a stored game found over is mended, so that readers arriving together keep
    /// its result once.
    pub(crate) mending: tokio::sync::Mutex<()>,
    /// Wakes the adopter before its next scan: another instance handed its tables over.
    pub(crate) adopt_now: Arc<tokio::sync::Notify>,
}

/// A read from the store on a request's path, given up after [`limits::STORE_READ_TIMEOUT`]
/// (503 `store_unavailable`, retry): a silent database holds no request for longer.
pub(crate) async fn store_read<T>(reply: store::Reply<T>) -> Result<T, TableError> {
    match tokio::time::timeout(limits::STORE_READ_TIMEOUT, reply).await {
        Ok(answer) => Ok(answer?),
        Err(_) => Err(TableError::StoreSilent(limits::STORE_READ_TIMEOUT)),
    }
}

/// A game the server hosts. The host calls these, and nothing else, to run its tables: a new
/// game is one `impl` of this trait and one line that registers it (`AppState::hosting`).
pub trait Hosted: Sized + Send + Sync + 'static {
    /// The game's name: its tables' kind in the store, and `game` in `POST /api/tables`.
    const KIND: store::Kind;
    /// The newest events a table keeps for a viewer who was not connected (a page that reloads).
    const RECENT_EVENTS: usize = 64;
    /// Whether a person reading the table counts as activity for the idle sweep (else only
    /// their actions and their open sockets do).
    const READS_ARE_ACTIVITY: bool = false;
    /// The bot that plays a person's seat when they are gone: resigned during play, or away
    /// (their turn time ran out [`seats::AWAY_AFTER`] times in a row); `None`: the game has
    /// none, and a seat given up waits for a person.
    const STAND_IN: Option<&'static str> = None;

    /// What a table is opened with and dealt from when play starts (the rules, the size, a
    /// seed the creator chose): no hand of it exists before.
    type Setup: Send + Sync + 'static;
    /// What the game keeps in its table's stored settings beside the host's.
    type Settings: Serialize + DeserializeOwned + Clone + Default + Send + Sync + 'static;
    /// The game's body of `POST /api/tables`.
    type Create: DeserializeOwned + Send + 'static;
    /// What a seat may do.
    type Action: Serialize + DeserializeOwned + Clone + PartialEq + std::fmt::Debug + Send + Sync + 'static;
    /// What an action did, as its viewers are told (redacted per viewer by the view).
    type Event: Clone + Send + Sync + 'static;
    /// What the game refuses.
    type Refusal: Into<Refusal> + std::fmt::Display;
    /// What one viewer is shown: `GET /api/tables/{id}`, a socket's `state`, an action's answer.
    type View: Serialize + Send;
    /// A bot seat's player.
    type Bot: Send + 'static;
    /// What a bot is given to choose from (owned: it thinks on a thread of its own).
    type Seen: Send + 'static;
    /// What the updates so far told one seat, for a game whose updates carry only what changed
    /// ([`Hosted::updates`]).
    type Told: Clone + Default + Send + Sync + 'static;

    /// The page a person plays table `id` at (its invite).
    fn page(id: &str) -> String {
        format!("/api/tables/{id}")
    }

    /// Reads a create request: the table's seats and options, and the setup to deal from.
    fn open(req: Self::Create, tables: &Tables) -> impl Future<Output = Result<Opening<Self>, TableError>> + Send;
    /// Deals the game when play starts (every person's seat is taken), with the events of the
    /// deal; a seed nobody chose is drawn here.
    fn deal(setup: &Self::Setup, settings: &mut Self::Settings) -> Result<(Self, Vec<Self::Event>), TableError>;
    /// The setup of the next game at a finished table (a rematch: same seats and rules, a fresh
    /// deal), or a refusal for a game that offers none.
    fn rematch(&self, settings: &mut Self::Settings) -> Result<Self::Setup, TableError>;
    /// The setup this game was dealt from, to deal afresh: a person gave their seat up before
    /// anyone acted, so the table waits again and no hand they saw is anyone's (a seed the
    /// creator chose stays chosen, and so deals the same).
    fn undealt(&self, settings: &Self::Settings) -> Self::Setup;

    /// The setup as stored while the table waits for its seats (read back by [`Hosted::unstored_setup`]).
    fn stored_setup(setup: &Self::Setup) -> Result<store::Header, TableError>;
    fn unstored_setup(header: &store::Header, settings: &Self::Settings) -> Result<Self::Setup, String>;
    /// The game's header as stored once dealt: what its log replays on.
    fn header(&self) -> Result<store::Header, TableError>;
    /// Rebuilds a dealt game from its header and its whole log, with each action's events (by
    /// the ply it led to; the deal's at ply 0).
    fn restore(header: &store::Header, log: &[store::Entry]) -> Result<Restored<Self>, String>;
    /// The game as it was after its first `plies` actions (memory found ahead of the log).
    fn upto(&self, plies: u64) -> Result<Self, String>;
    /// The settings of a table stored before its game was hosted here, from its header (a
    /// game whose stored meta the host cannot read); `None`: it is left out.
    fn settle_old(_header: &store::Header) -> Option<seats::Meta<Self::Settings>> {
        None
    }

    /// Whether `seat` may take `action` now; the game is not changed.
    fn check(&self, seat: Seat, action: &Self::Action) -> Result<(), Self::Refusal>;
    /// Takes `action` for `seat` (checked first), with what it did; on a refusal the game is unchanged.
    fn apply(&mut self, seat: Seat, action: Self::Action) -> Result<Vec<Self::Event>, Self::Refusal>;
    /// One action as the log keeps it, and back.
    fn logged(seat: Seat, action: &Self::Action) -> Result<store::Entry, TableError>;
    fn unlogged(entry: &store::Entry) -> Result<(Seat, Self::Action), String>;
    /// Actions taken since the game was dealt (its log's length).
    fn plies(&self) -> u64;
    fn is_over(&self) -> bool;

    /// Who acts next, for the bots and the turn timer.
    fn turn(&self, facts: &Facts<'_, Self>) -> Option<Seat>;
    /// When `seat`'s bot acts: after a pause (so people can follow), or at once within the
    /// request of the person who acted before it (its answer carries the bot's move).
    fn pace(&self, seat: Seat, facts: &Facts<'_, Self>, pace: Duration) -> Pace;
    /// What the server plays for a person whose turn timer ran out, and whether it may play
    /// again for the same seat after it (draw, then pass).
    fn timeout_action(&self, seat: Seat) -> Option<(Self::Action, bool)>;
    /// A bot from its name as a create request gives it: its canonical name and the bot.
    fn bot(name: &str, seed: u64) -> Result<(String, Self::Bot), TableError>;
    fn seen(&self, seat: Seat) -> Self::Seen;
    /// The bot's action; `None` when it has none.
    fn choose(bot: &mut Self::Bot, seen: &Self::Seen) -> Option<Self::Action>;
    /// What a bot plays when its own choice was refused, so the table never stalls.
    fn fallback(seen: &Self::Seen) -> Option<Self::Action>;

    /// What `viewer` is shown of the dealt game.
    fn view(&self, facts: &Facts<'_, Self>, viewer: Viewer, shown: Shown<'_, Self::Event>) -> Self::View;
    /// What `viewer` is shown while the table waits for its seats (nothing is dealt yet).
    fn waiting_view(setup: &Self::Setup, facts: &Facts<'_, Self>, viewer: Viewer) -> Self::View;
    /// The update every viewer with an open socket gets after a change (indexed as `watchers`:
    /// seats, then spectators; `None` for one that is not listening), `told` brought up to
    /// date; `None` when the game sends full views (`state`) instead, its default.
    fn updates(
        &self,
        _facts: &Facts<'_, Self>,
        _events: &[Logged<Self::Event>],
        _told: &mut [Self::Told],
        _watchers: &[usize],
    ) -> Option<Vec<Option<Text>>> {
        None
    }
    /// What a full view tells `seat` now (see [`Hosted::Told`]).
    fn told(&self, _facts: &Facts<'_, Self>, _seat: Seat) -> Self::Told {
        Self::Told::default()
    }
    /// The table in the lobby's list (`GET /api/tables`); `None`: not listed.
    fn summary(_facts: &Facts<'_, Self>, _game: Option<&Self>, _setup: Option<&Self::Setup>) -> Option<TableSummary> {
        None
    }

    /// The finished game as kept: its record, its outcome, and what it adds to the statistics.
    fn kept(&self, facts: &Facts<'_, Self>) -> Result<Kept, TableError>;
    /// The rule preset whose pools a rated table's games count in, from its settings; `None`
    /// (the default): its games are not rated.
    fn rated_preset(_settings: &Self::Settings) -> Option<&str> {
        None
    }
    /// Each seat's finishing place once the game is over, 1 first (equal places tie): what a
    /// rated game is rated by. `None` (the default): the game has no places.
    fn places(&self) -> Option<Vec<u8>> {
        None
    }
    /// Whether the kept result `r` of the table's id is this game's (a stop between its result
    /// and its mark finished is mended once).
    fn is_kept_as(&self, r: &store::GameResult) -> bool {
        r.actions as u64 == self.plies()
    }
}

/// A game rebuilt from its log, with each action's events by the ply it led to.
pub type Restored<G> = (G, Vec<(u64, <G as Hosted>::Event)>);

/// A game's refusal, as the host carries it: its stable code and whether it says the game (or
/// the round) is over rather than that the action is wrong.
pub trait GameRefusal {
    fn code(&self) -> &'static str;
    fn says_over(&self) -> bool;
    /// What the sentence names, for pages that word it themselves (in the reader's language).
    fn fields(&self) -> Option<serde_json::Value> {
        None
    }
}

impl<E: GameRefusal + std::fmt::Display> From<E> for Refusal {
    fn from(e: E) -> Refusal {
        Refusal::new(e.code(), e.says_over(), e.to_string()).with_fields(e.fields())
    }
}

/// Which events a view carries.
#[derive(Clone, Copy)]
pub enum Shown<'a, E> {
    /// A full view: the table's recent events.
    Recent(&'a VecDeque<Logged<E>>),
    /// The answer to an action: its events, and those of the bots that answered it within the
    /// same request ([`Pace::InRequest`]).
    Change(&'a [Logged<E>], &'a [Logged<E>]),
}

/// When a bot acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    After(Duration),
    InRequest,
}

/// What the host knows of a table that a game's views and choices read.
pub struct Facts<'a, G: Hosted> {
    pub id: &'a str,
    pub status: TableStatus,
    pub version: u64,
    pub generation: u32,
    pub seats: &'a [SeatMeta],
    pub spectators: bool,
    pub turn_seconds: Option<u32>,
    pub turn_ms_left: Option<u64>,
    /// Whose turn time `turn_ms_left` is.
    pub turn_seat: Option<Seat>,
    pub settings: &'a G::Settings,
    pub recent: &'a VecDeque<Logged<G::Event>>,
}

impl<G: Hosted> Facts<'_, G> {
    /// Every seat as every viewer sees it.
    pub fn occupants(&self) -> Vec<Occupant> {
        seats::all(self.seats.len()).zip(self.seats).map(|(s, m)| m.occupant(s)).collect()
    }

    pub fn kind(&self, seat: Seat) -> Option<SeatKind> {
        self.seats.get(seat.index()).map(|m| m.kind)
    }

    /// Whether every seat is a bot's.
    pub fn bots_only(&self) -> bool {
        self.seats.iter().all(|s| s.kind == SeatKind::Bot)
    }
}

/// A table as a create request opens it.
pub struct Opening<G: Hosted> {
    pub seats: Vec<crate::messages::SeatSpec>,
    /// The creator's display name (for their seat unless that seat names one).
    pub name: Option<String>,
    /// The creator's seat: the one asked for, else the first person's.
    pub creator_seat: Option<Seat>,
    pub spectators: bool,
    pub turn_seconds: Option<u32>,
    pub bot_delay_ms: Option<u32>,
    /// Seeds the bots whose seed the request leaves out.
    pub seed: u64,
    pub settings: G::Settings,
    pub setup: G::Setup,
}

/// A finished game as kept with its result.
pub struct Kept {
    pub record: store::Record,
    pub outcome: store::Outcome,
    pub tallies: Option<Vec<store::Tally>>,
}
