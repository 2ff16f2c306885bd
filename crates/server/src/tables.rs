//! UNO tables: the authoritative games, their seats and tokens, bots, timers, and persistence.
//!
//! Each table is one engine `Game` behind an async mutex. An action is checked by the engine,
//! appended to the store, and only once the store has committed it is it acknowledged and pushed
//! to the table's viewers (each one redacted for that viewer). The store batches concurrent
//! appends of all tables into one commit, so holding a table's lock across its commit costs that
//! table one commit latency and no other table anything.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use store::{Kind, NewGame, NewResult, SharedStore, Status as StoreStatus};
use tokio::sync::{broadcast, Mutex};
use uno::rules::{DrawRule, ForcedPlay, JumpIn, SevenZero, Stacking, UnoCall, WildDrawFourRule};
use uno::{Action, Event, Game, GameRecord, Move, Observation, Phase, Rules, RulesConfig, Seat};
use uno_bots::{Bot, BotSpec, IsmctsBot, IsmctsConfig};

use crate::limits;
use crate::update::{self, Told};
use crate::ApiError;

/// Server settings; the defaults suit a server for friends.
#[derive(Clone, Debug)]
pub struct Config {
    /// How long a bot waits before acting, so people can follow (a table may set its own).
    pub bot_delay: Duration,
    /// A table with no person connected (no WebSocket open, seat or spectator) and no person's
    /// action for this long is closed (its bots stop; it is marked abandoned in the store). Bot
    /// moves and turn-timer moves are not activity.
    pub idle_timeout: Duration,
    /// A finished table stays in memory this long (for a rematch), then leaves it.
    pub finished_ttl: Duration,
    /// Unfinished tables one client (IP address) may have created at a time.
    pub max_tables_per_client: usize,
    /// Tables in memory at most.
    pub max_tables: usize,
    /// Messages per second one WebSocket may send (a burst of as many is allowed).
    pub ws_messages_per_second: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bot_delay: Duration::from_millis(700),
            idle_timeout: Duration::from_secs(2 * 3600),
            finished_ttl: Duration::from_secs(15 * 60),
            max_tables_per_client: 20,
            max_tables: 20_000,
            ws_messages_per_second: 20,
        }
    }
}

/// The server's shared state: the store and the tables in play.
#[derive(Clone)]
pub struct AppState {
    pub(crate) inner: Arc<Shared>,
}

pub(crate) struct Shared {
    pub(crate) store: SharedStore,
    pub(crate) config: Config,
    tables: RwLock<HashMap<String, Arc<Table>>>,
}

pub(crate) struct Table {
    pub(crate) id: String,
    creator: String,
    /// Mirrors "the game is over" outside the lock, for counting a client's open tables.
    done: AtomicBool,
    /// Set (under the lock) when the table is closed for idleness: nothing acts at it any more.
    closed: AtomicBool,
    /// Per seat, how often its holder changed (a join or a leave), bumped under the lock. A
    /// socket opened for a seat serves it only while this is what it was at the upgrade, so a
    /// socket that missed the close (it lagged) neither reads nor acts for the seat's next holder.
    seat_epochs: Vec<AtomicU64>,
    pub(crate) state: Mutex<TableState>,
    pub(crate) tx: broadcast::Sender<Arc<Push>>,
}

/// One change, rendered for every viewer that has a WebSocket open (`views[seat]`, spectators at
/// `views[players]`).
pub(crate) struct Push {
    /// The table's version after the change.
    pub(crate) version: u64,
    /// An `update` (to merge into what the viewer holds) rather than a full `state`.
    pub(crate) update: bool,
    pub(crate) views: Vec<Option<Utf8Bytes>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    Human,
    Bot,
}

/// A seat as stored (the token only as its SHA-256).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct SeatMeta {
    kind: SeatKind,
    name: Option<String>,
    token_hash: Option<String>,
    bot: Option<String>,
    bot_seed: u64,
    delay_ms: Option<u32>,
}

/// Everything about a table besides the game record, as stored.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Meta {
    seats: Vec<SeatMeta>,
    spectators: bool,
    turn_seconds: Option<u32>,
    bot_delay_ms: Option<u32>,
    /// The version the current game started at (rematches keep versions rising).
    version_base: u64,
    generation: u32,
    creator: String,
    /// The creator's seat: its holder may close the table.
    #[serde(default)]
    owner_seat: Option<usize>,
}

pub(crate) struct TableState {
    record: GameRecord,
    game: Game,
    meta: Meta,
    bots: Vec<Option<Box<dyn Bot>>>,
    events: VecDeque<LoggedEvent>,
    /// Open WebSockets per viewer index.
    watchers: Vec<usize>,
    /// Per seat, what the updates so far told it (updates carry only what changed).
    told: Vec<Told>,
    last_activity: Instant,
    finished_at: Option<Instant>,
    turn_deadline: Option<Instant>,
}

/// An event and the version its action produced.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LoggedEvent {
    pub version: u64,
    pub event: Event,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    /// Some human seat is open: nobody acts yet.
    Waiting,
    Playing,
    Finished,
}

/// A seat as every viewer sees it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeatView {
    pub seat: usize,
    pub kind: SeatKind,
    pub name: Option<String>,
    /// Whether a person holds this seat (always true for a bot).
    pub taken: bool,
    pub bot: Option<String>,
}

/// The table as one viewer sees it: `GET /api/tables/{id}`, the answer to an action, and every
/// WebSocket message (`type` = `state` for a full view, `update` after a change).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TableView {
    #[serde(rename = "type")]
    pub kind: String,
    pub id: String,
    pub game: String,
    pub status: TableStatus,
    /// Rises by one with every accepted action (and with a rematch); send it back with an action.
    pub version: u64,
    pub generation: u32,
    pub rules: String,
    pub seats: Vec<SeatView>,
    /// The viewer's seat; `null` for a spectator.
    pub you: Option<usize>,
    pub spectators: bool,
    pub turn_seconds: Option<u32>,
    /// Milliseconds left on the current turn's timer.
    pub turn_ms_left: Option<u64>,
    /// At a table of bots only, after a round: how long the result stays up before the next deal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_pause_ms: Option<u64>,
    /// After a round or the game: every seat's hand, so everyone sees what was scored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revealed_hands: Option<Vec<Vec<uno::Card>>>,
    /// Everything this viewer may know of the game.
    pub view: Observation,
    /// What the viewer may do now (empty when it may do nothing).
    pub legal_actions: Vec<Action>,
    /// Recent events (on a read), or the events of this change (action answer, push).
    pub events: Vec<LoggedEvent>,
}

/// A table in a list.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TableSummary {
    pub id: String,
    pub status: TableStatus,
    pub rules: String,
    pub seats: Vec<SeatView>,
    pub open_seats: usize,
    pub spectators: bool,
    pub version: u64,
}

/// `POST /api/tables`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    /// A preset name (`official` when neither this nor `rules` is given).
    pub preset: Option<String>,
    /// A rules file: its text (TOML or JSON) as a string, or the rules as a JSON object.
    pub rules: Option<serde_json::Value>,
    #[serde(default)]
    pub house_rules: HouseRules,
    pub seats: Vec<SeatSpec>,
    /// The creator's display name (for the first human seat unless `creator_seat` says another).
    pub name: Option<String>,
    pub creator_seat: Option<usize>,
    /// Whether people without a seat may watch (public view only). Default true.
    pub spectators: Option<bool>,
    /// Seconds a human has for a turn; on timeout the server plays the default (draw, then pass).
    pub turn_seconds: Option<u32>,
    /// Milliseconds a bot waits before acting (default: the server's).
    pub bot_delay_ms: Option<u32>,
    /// Fixes the shuffle (tests, replays); random otherwise.
    pub seed: Option<u64>,
}

/// House-rule toggles applied over the preset or rules file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HouseRules {
    pub stacking: Option<Stacking>,
    pub draw: Option<DrawRule>,
    pub forced_play: Option<ForcedPlay>,
    pub jump_in: Option<JumpIn>,
    pub seven_zero: Option<SevenZero>,
    pub wild_draw_four: Option<WildDrawFourRule>,
    pub uno_call: Option<UnoCall>,
    /// Points to win a match; 0 makes one round the whole game.
    pub match_target: Option<u32>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SeatSpec {
    Human {
        #[serde(default)]
        name: Option<String>,
    },
    Bot {
        bot: String,
        #[serde(default)]
        seed: Option<u64>,
        #[serde(default)]
        delay_ms: Option<u32>,
    },
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Created {
    pub id: String,
    /// Where to send friends: the table page.
    pub invite: String,
    /// The creator's seat and its secret token (`null` when every seat is a bot).
    pub seat: Option<usize>,
    pub token: Option<String>,
    pub table: TableView,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Joined {
    pub id: String,
    pub seat: usize,
    pub token: String,
    pub table: TableView,
}

impl Table {
    fn new(id: String, creator: String, st: TableState) -> Table {
        let players = st.players();
        let (tx, _) = broadcast::channel(256);
        Table {
            id,
            creator,
            done: AtomicBool::new(st.game.is_over()),
            closed: AtomicBool::new(false),
            seat_epochs: (0..players).map(|_| AtomicU64::new(0)).collect(),
            state: Mutex::new(st),
            tx,
        }
    }

    /// The seat's holder generation now (see `seat_epochs`); 0 for a spectator's index.
    pub(crate) fn seat_epoch(&self, viewer: Viewer) -> u64 {
        match viewer {
            Viewer::Seat(s) => self.seat_epochs.get(s).map(|e| e.load(Ordering::Acquire)).unwrap_or(0),
            Viewer::Spectator => 0,
        }
    }

    /// Whether the table was closed (by its owner or for idleness).
    pub(crate) fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }

    fn bump_epoch(&self, seat: usize) {
        if let Some(e) = self.seat_epochs.get(seat) {
            e.fetch_add(1, Ordering::AcqRel);
        }
    }
}

/// Builds a bot for a seat: search bots also stop after [`limits::MAX_BOT_MOVE_TIME`], so no
/// name can hold a core for longer than that a move.
fn build_bot(spec: BotSpec, seed: u64, rules: &Arc<Rules>) -> Box<dyn Bot> {
    let mut bot = match spec.ismcts_config() {
        Some(config) => {
            Box::new(IsmctsBot::new(IsmctsConfig { time_limit: Some(limits::MAX_BOT_MOVE_TIME), ..config }, seed))
                as Box<dyn Bot>
        }
        None => spec.build(seed),
    };
    bot.set_rules(rules);
    bot
}

/// Who is asking: a seat (by token) or a spectator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Viewer {
    Seat(usize),
    Spectator,
}

pub fn invite_path(id: &str) -> String {
    format!("/uno.html?table={id}")
}

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rngs::OsRng.fill_bytes(&mut buf);
    hex::encode(buf)
}

fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Characters that take no space: a name of these alone looks empty.
const INVISIBLE: &[char] = &[
    '\u{00AD}', '\u{034F}', '\u{061C}', '\u{115F}', '\u{1160}', '\u{17B4}', '\u{17B5}', '\u{180E}', '\u{200B}',
    '\u{200C}', '\u{200D}', '\u{200E}', '\u{200F}', '\u{2060}', '\u{2061}', '\u{2062}', '\u{2063}', '\u{2064}',
    '\u{3164}', '\u{FEFF}', '\u{FFA0}',
];

fn check_name(name: &str, field: &'static str, max: usize) -> Result<String, ApiError> {
    let name = name.trim();
    // Invisible characters alone (zero-width spaces, joiners, marks) show as an empty name.
    let visible = |c: char| !c.is_whitespace() && !c.is_control() && !INVISIBLE.contains(&c);
    if !name.chars().any(visible) {
        return Err(ApiError::BadRequest(format!("{field} must have a visible character")));
    }
    if name.chars().count() > max {
        return Err(ApiError::TooLong { field, max });
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::BadRequest(format!("{field} must not contain control characters")));
    }
    Ok(name.to_string())
}

fn build_rules(req: &CreateTable) -> Result<Rules, ApiError> {
    let mut config = match (&req.preset, &req.rules) {
        (Some(_), Some(_)) => return Err(ApiError::BadRequest("give either `preset` or `rules`, not both".into())),
        (_, Some(serde_json::Value::String(text))) => RulesConfig::parse(text)?,
        (_, Some(v @ serde_json::Value::Object(_))) => {
            serde_json::from_value(v.clone()).map_err(|e| uno::RulesError::Syntax(e.to_string()))?
        }
        (_, Some(_)) => return Err(ApiError::BadRequest("`rules` is a rules file's text or a JSON object".into())),
        (Some(p), None) => uno::rules::preset_config(p)?,
        (None, None) => uno::rules::preset_config("official")?,
    };
    let h = &req.house_rules;
    let p = &mut config.play;
    if let Some(v) = h.stacking {
        p.stacking = v;
    }
    if let Some(v) = h.draw {
        p.draw = v;
    }
    if let Some(v) = h.forced_play {
        p.forced_play = v;
    }
    if let Some(v) = h.jump_in {
        p.jump_in = v;
    }
    if let Some(v) = h.seven_zero {
        p.seven_zero = v;
    }
    if let Some(v) = h.wild_draw_four {
        p.wild_draw_four = v;
    }
    if let Some(v) = h.uno_call {
        config.uno.call = v;
    }
    if let Some(t) = h.match_target {
        config.scoring.target = (t > 0).then_some(t);
    }
    Ok(Rules::new(config)?)
}

/// What the server plays for a human whose turn timer ran out: draw, then pass.
fn default_action(legal: &[Action]) -> Option<Action> {
    let has = |a: Action| legal.contains(&a).then_some(a);
    has(Action::Draw)
        .or_else(|| has(Action::Pass))
        .or_else(|| has(Action::Accept))
        .or_else(|| has(Action::NextRound))
        .or_else(|| legal.iter().copied().find(|a| !matches!(a, Action::CallUno | Action::CatchUno { .. })))
}

impl TableState {
    pub(crate) fn version(&self) -> u64 {
        self.meta.version_base + self.record.actions.len() as u64
    }

    fn players(&self) -> usize {
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

    /// The seat a token holds, if any.
    fn seat_of(&self, token: &str) -> Option<usize> {
        let h = hash_token(token);
        self.meta.seats.iter().position(|s| s.token_hash.as_deref() == Some(h.as_str()))
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
    fn told_everything(&mut self) {
        let status = self.status();
        for (s, t) in self.told.iter_mut().enumerate() {
            *t = Told::now(&self.game, status, Seat(s as u8));
        }
    }

    fn seat_views(&self) -> Vec<SeatView> {
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
            turn_seconds: self.meta.turn_seconds,
            turn_ms_left: self.turn_ms_left(),
            round_pause_ms: self.round_pause_ms(),
            revealed_hands: update::revealed_hands(&self.game),
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
    fn round_pause_ms(&self) -> Option<u64> {
        let bots_only = self.meta.seats.iter().all(|s| s.kind == SeatKind::Bot);
        (bots_only && self.game.phase() == Phase::RoundOver).then_some(limits::ROUND_PAUSE_MS)
    }

    fn turn_ms_left(&self) -> Option<u64> {
        self.turn_deadline.map(|d| d.saturating_duration_since(Instant::now()).as_millis() as u64)
    }

    pub(crate) fn full_view(&self, id: &str, v: Viewer, kind: &str) -> TableView {
        let recent: Vec<LoggedEvent> = self.events.iter().cloned().collect();
        self.view(id, v, &recent, kind)
    }

    fn summary(&self, id: &str) -> TableSummary {
        let seats = self.seat_views();
        TableSummary {
            id: id.to_string(),
            status: self.status(),
            rules: self.game.rules().name().to_string(),
            open_seats: seats.iter().filter(|s| !s.taken).count(),
            seats,
            spectators: self.meta.spectators,
            version: self.version(),
        }
    }

    fn remember(&mut self, events: &[LoggedEvent]) {
        for e in events {
            if self.events.len() == limits::RECENT_EVENTS {
                self.events.pop_front();
            }
            self.events.push_back(e.clone());
        }
    }

    /// The bot seat that should act now, if any.
    fn bot_to_move(&self) -> Option<usize> {
        let is_bot = |i: usize| self.meta.seats.get(i).is_some_and(|s| s.kind == SeatKind::Bot);
        if self.game.phase() == Phase::RoundOver {
            // With a person seated, a person deals (the result stays up until then); at a table
            // of bots only, the first bot does after the round pause.
            self.round_pause_ms()?;
            return (0..self.players()).find(|&i| is_bot(i));
        }
        let cur = self.game.current().index();
        is_bot(cur).then_some(cur)
    }

    fn bot_delay(&self, seat: usize, config: &Config) -> Duration {
        if let Some(pause) = self.round_pause_ms() {
            return Duration::from_millis(pause);
        }
        let ms = self.meta.seats.get(seat).and_then(|s| s.delay_ms).or(self.meta.bot_delay_ms);
        ms.map(|m| Duration::from_millis(m as u64)).unwrap_or(config.bot_delay)
    }
}

fn make_bots(meta: &Meta, rules: &Arc<Rules>) -> Result<Vec<Option<Box<dyn Bot>>>, ApiError> {
    meta.seats
        .iter()
        .map(|s| match (&s.kind, &s.bot) {
            (SeatKind::Bot, Some(name)) => Ok(Some(build_bot(name.parse::<BotSpec>()?, s.bot_seed, rules))),
            _ => Ok(None),
        })
        .collect()
}

fn stored_outcome(game: &Game) -> Result<store::Outcome, ApiError> {
    store::Outcome::new(&game.outcome()).map_err(|e| ApiError::Internal(e.to_string()))
}

/// The record without its actions: those are the store's log.
fn stored_header(record: &GameRecord) -> Result<store::Record, ApiError> {
    let header = GameRecord { actions: Vec::new(), ..record.clone() };
    store::Record::new(&header).map_err(|e| ApiError::Internal(e.to_string()))
}

fn stored_meta(meta: &Meta) -> Result<store::Meta, ApiError> {
    store::Meta::new(meta).map_err(|e| ApiError::Internal(e.to_string()))
}

impl AppState {
    /// Opens the server state on a store (any backend), rebuilding every unfinished table from it.
    pub async fn new(store: impl Into<SharedStore>, config: Config) -> Result<AppState, ApiError> {
        let store = store.into();
        let state = AppState { inner: Arc::new(Shared { store, config, tables: RwLock::new(HashMap::new()) }) };
        state.restore().await?;
        state.spawn_janitor();
        state.spawn_adopter();
        Ok(state)
    }

    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    pub fn store(&self) -> &SharedStore {
        &self.inner.store
    }

    /// Tables in memory.
    pub fn table_count(&self) -> usize {
        self.inner.tables.read().map(|t| t.len()).unwrap_or(0)
    }

    /// The table `id`: in memory, or a finished table read back from the store (after a restart,
    /// or after it left memory), kept again for `finished_ttl` so its result and a rematch stay
    /// reachable.
    pub(crate) async fn table(&self, id: &str) -> Result<Arc<Table>, ApiError> {
        if let Some(t) = self.in_memory(id)? {
            if !self.inner.store.holds(id) {
                // Another instance adopted it: what this one has in memory is stale.
                self.drop_lost(&t);
                return Err(ApiError::OwnedElsewhere(t.id.clone()));
            }
            return Ok(t);
        }
        let missing = || ApiError::NoSuchTable(id.chars().take(64).collect());
        // Ids are 64 characters at most: a longer one cannot be stored, so costs no lookup.
        if id.len() > 64 {
            return Err(missing());
        }
        let Some(g) = self.inner.store.load(id).await? else { return Err(missing()) };
        if g.kind != Kind::Uno || g.status != StoreStatus::Finished {
            return Err(missing());
        }
        let table = match self.rebuild_any(&g) {
            Ok(t) => Arc::new(t),
            Err(e) => {
                tracing::warn!(table = %g.id, error = %e, "a finished table cannot be rebuilt");
                return Err(missing());
            }
        };
        table.state.lock().await.finished_at = Some(Instant::now());
        let mut map = self.inner.tables.write().map_err(|_| ApiError::Internal("table map poisoned".into()))?;
        // Another request may have read it back first: keep one copy.
        Ok(map.entry(id.to_string()).or_insert(table).clone())
    }

    fn in_memory(&self, id: &str) -> Result<Option<Arc<Table>>, ApiError> {
        let tables = self.inner.tables.read().map_err(|_| ApiError::Internal("table map poisoned".into()))?;
        Ok(tables.get(id).cloned())
    }

    /// Forgets a table whose lease went to another instance: nothing acts at it any more here,
    /// and its connections are closed (clients reload from whichever instance owns it).
    fn drop_lost(&self, table: &Arc<Table>) {
        table.closed.store(true, Ordering::Release);
        if let Ok(mut map) = self.inner.tables.write() {
            if map.get(&table.id).is_some_and(|t| Arc::ptr_eq(t, table)) {
                map.remove(&table.id);
                tracing::info!(table = %table.id, "the table is owned by another instance now; dropped here");
            }
        }
    }

    /// Rebuilds the active tables: replay each record, keeping the last events for readers.
    async fn restore(&self) -> Result<(), ApiError> {
        let stored = self.inner.store.load_active(Kind::Uno).await?;
        self.bring_in(stored).await
    }

    /// With a store shared by several instances: adopts, every half lease, the tables whose
    /// owner stopped renewing its lease (rebuilt from the log, as at start), and drops those
    /// whose lease went elsewhere.
    fn spawn_adopter(&self) {
        let Some(lease) = self.inner.store.lease() else { return };
        let every = (lease / 2).max(Duration::from_millis(50));
        let weak = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let Some(inner) = weak.upgrade() else { return };
                let state = AppState { inner };
                let lost: Vec<Arc<Table>> = state
                    .inner
                    .tables
                    .read()
                    .map(|t| t.values().filter(|t| !state.inner.store.holds(&t.id)).cloned().collect())
                    .unwrap_or_default();
                for t in lost {
                    state.drop_lost(&t);
                }
                match state.inner.store.adopt(Kind::Uno).await {
                    Ok(games) if games.is_empty() => {}
                    Ok(games) => {
                        let n = games.len();
                        match state.bring_in(games).await {
                            Ok(()) => tracing::info!(tables = n, "adopted tables whose lease ran out"),
                            Err(e) => tracing::warn!(error = %e, "adopting tables failed"),
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "looking for tables to adopt failed"),
                }
            }
        });
    }

    /// Puts stored games in play: replayed, scheduled (bots, timers) and listed.
    async fn bring_in(&self, stored: Vec<store::StoredGame>) -> Result<(), ApiError> {
        for g in stored {
            match self.rebuild(&g) {
                Ok(Some(table)) => {
                    let t = Arc::new(table);
                    {
                        let mut st = t.state.lock().await;
                        self.schedule(&t, &mut st);
                    }
                    if let Ok(mut map) = self.inner.tables.write() {
                        map.insert(t.id.clone(), t);
                    }
                }
                Ok(None) => {
                    // Over but not marked so: the status write did not make it before a crash.
                    self.inner.store.set_status(&g.id, StoreStatus::Finished).await?;
                }
                Err(e) => {
                    tracing::warn!(table = %g.id, error = %e, "a stored table cannot be rebuilt and is left out");
                    self.inner.store.set_status(&g.id, StoreStatus::Abandoned).await?;
                }
            }
        }
        Ok(())
    }

    /// An unfinished table from its record (`None` when it turns out finished).
    fn rebuild(&self, g: &store::StoredGame) -> Result<Option<Table>, String> {
        let table = self.rebuild_any(g)?;
        let over = table.state.try_lock().map(|st| st.game.is_over()).unwrap_or(false);
        Ok((!over).then_some(table))
    }

    /// A table from its record, finished or not.
    fn rebuild_any(&self, g: &store::StoredGame) -> Result<Table, String> {
        let mut record: GameRecord = g.record.decode().map_err(|e| e.to_string())?;
        let meta: Meta = g.meta.decode().map_err(|e| e.to_string())?;
        if record.engine_version != uno::ENGINE_VERSION {
            tracing::warn!(
                table = %g.id,
                recorded_by = %record.engine_version,
                engine = uno::ENGINE_VERSION,
                "a table recorded by another engine version; replaying it anyway"
            );
        }
        let rules = Rules::new(record.rules.clone()).map_err(|e| e.to_string())?;
        let mut deal = Vec::new();
        let mut game =
            Game::new_with_events(rules, record.players, record.seed, &mut deal).map_err(|e| e.to_string())?;
        let mut events = VecDeque::new();
        let mut push = |version: u64, evs: Vec<Event>| {
            for event in evs {
                if events.len() == limits::RECENT_EVENTS {
                    events.pop_front();
                }
                events.push_back(LoggedEvent { version, event });
            }
        };
        push(meta.version_base, deal);
        for (i, entry) in g.actions.iter().enumerate() {
            let m: Move = entry.decode().map_err(|e| format!("action {i}: {e}"))?;
            let evs = game.apply(m.seat, m.action).map_err(|e| format!("action {i} ({}): {e}", m.action))?;
            record.push(m.seat, m.action);
            push(meta.version_base + i as u64 + 1, evs);
        }
        let bots = make_bots(&meta, game.rules_arc()).map_err(|e| e.to_string())?;
        let players = meta.seats.len();
        let creator = meta.creator.clone();
        Ok(Table::new(
            g.id.clone(),
            creator,
            TableState {
                record,
                game,
                meta,
                bots,
                events,
                watchers: vec![0; players + 1],
                told: vec![Told::default(); players],
                last_activity: Instant::now(),
                finished_at: None,
                turn_deadline: None,
            },
        ))
    }

    /// Creates a table; `client` identifies the creator for the per-client limit.
    pub async fn create_table(&self, req: CreateTable, client: &str) -> Result<Created, ApiError> {
        let rules = build_rules(&req)?;
        let players = req.seats.len();
        rules.check_players(players)?;
        if let Some(t) = req.turn_seconds {
            if t == 0 || t > limits::MAX_TURN_SECONDS {
                return Err(ApiError::BadRequest(format!(
                    "turn_seconds must be between 1 and {}",
                    limits::MAX_TURN_SECONDS
                )));
            }
        }
        let check_delay = |d: Option<u32>| match d {
            Some(ms) if ms > limits::MAX_BOT_DELAY_MS => {
                Err(ApiError::BadRequest(format!("a bot delay is at most {} ms", limits::MAX_BOT_DELAY_MS)))
            }
            _ => Ok(()),
        };
        check_delay(req.bot_delay_ms)?;
        let seed = req.seed.unwrap_or_else(|| rand::rngs::OsRng.next_u64());
        let mut seats = Vec::with_capacity(players);
        for (i, s) in req.seats.iter().enumerate() {
            seats.push(match s {
                SeatSpec::Human { name } => SeatMeta {
                    kind: SeatKind::Human,
                    name: name.as_deref().map(|n| check_name(n, "name", limits::MAX_NAME_CHARS)).transpose()?,
                    token_hash: None,
                    bot: None,
                    bot_seed: 0,
                    delay_ms: None,
                },
                SeatSpec::Bot { bot, seed: bot_seed, delay_ms } => {
                    // Parsed once, here: what is stored is the spec's own canonical name.
                    let bot = check_name(bot, "bot", limits::MAX_BOT_NAME_CHARS)?.parse::<BotSpec>()?.to_string();
                    check_delay(*delay_ms)?;
                    let bot_seed = bot_seed.unwrap_or(seed ^ (0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1)));
                    SeatMeta {
                        kind: SeatKind::Bot,
                        name: Some(bot.clone()),
                        token_hash: None,
                        bot: Some(bot),
                        bot_seed,
                        delay_ms: *delay_ms,
                    }
                }
            });
        }
        let creator_seat = match req.creator_seat {
            Some(i) if seats.get(i).is_some_and(|s| s.kind == SeatKind::Human) => Some(i),
            Some(i) => return Err(ApiError::BadRequest(format!("creator_seat {i} is not a human seat"))),
            None => seats.iter().position(|s| s.kind == SeatKind::Human),
        };
        let token = creator_seat.map(|_| random_hex(16));
        if let (Some(i), Some(t)) = (creator_seat, &token) {
            seats[i].token_hash = Some(hash_token(t));
            let name = match (&req.name, &seats[i].name) {
                (Some(n), _) => check_name(n, "name", limits::MAX_NAME_CHARS)?,
                (None, Some(n)) => n.clone(),
                (None, None) => format!("Player {}", i + 1),
            };
            seats[i].name = Some(name);
        }
        self.check_capacity(client)?;

        let meta = Meta {
            seats,
            spectators: req.spectators.unwrap_or(true),
            turn_seconds: req.turn_seconds,
            bot_delay_ms: req.bot_delay_ms,
            version_base: 0,
            generation: 0,
            creator: client.to_string(),
            owner_seat: creator_seat,
        };
        let record = GameRecord::new(&rules, players, seed);
        let mut deal = Vec::new();
        let game =
            Game::new_with_events(rules, players, seed, &mut deal).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        let bots = make_bots(&meta, game.rules_arc())?;
        let id = random_hex(8);
        let new =
            NewGame { id: id.clone(), kind: Kind::Uno, record: stored_header(&record)?, meta: stored_meta(&meta)? };
        self.inner.store.create(new).await?;
        let mut st = TableState {
            record,
            game,
            meta,
            bots,
            events: VecDeque::new(),
            watchers: vec![0; players + 1],
            told: vec![Told::default(); players],
            last_activity: Instant::now(),
            finished_at: None,
            turn_deadline: None,
        };
        let logged: Vec<LoggedEvent> = deal.into_iter().map(|event| LoggedEvent { version: 0, event }).collect();
        st.remember(&logged);
        let viewer = creator_seat.map(Viewer::Seat).unwrap_or(Viewer::Spectator);
        let view = st.full_view(&id, viewer, "state");
        let table = Arc::new(Table::new(id.clone(), client.to_string(), st));
        {
            let mut st = table.state.lock().await;
            self.schedule(&table, &mut st);
        }
        self.inner
            .tables
            .write()
            .map_err(|_| ApiError::Internal("table map poisoned".into()))?
            .insert(id.clone(), table);
        Ok(Created { invite: invite_path(&id), id, seat: creator_seat, token, table: view })
    }

    fn check_capacity(&self, client: &str) -> Result<(), ApiError> {
        let tables = self.inner.tables.read().map_err(|_| ApiError::Internal("table map poisoned".into()))?;
        if tables.len() >= self.inner.config.max_tables {
            return Err(ApiError::ServerFull);
        }
        let mine = tables.values().filter(|t| t.creator == client && !t.done.load(Ordering::Relaxed)).count();
        if mine >= self.inner.config.max_tables_per_client {
            return Err(ApiError::TooManyTables(mine));
        }
        Ok(())
    }

    pub fn list_tables(&self) -> Vec<TableSummary> {
        let tables: Vec<Arc<Table>> =
            self.inner.tables.read().map(|t| t.values().cloned().collect()).unwrap_or_default();
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

    /// Who a token (or its absence) is at this table.
    pub(crate) fn resolve(&self, st: &TableState, token: Option<&str>) -> Result<Viewer, ApiError> {
        match token {
            Some(t) => st.seat_of(t).map(Viewer::Seat).ok_or(ApiError::BadToken),
            None if st.meta.spectators => Ok(Viewer::Spectator),
            None => Err(ApiError::SpectatorsNotAllowed),
        }
    }

    pub async fn read_table(&self, id: &str, token: Option<&str>) -> Result<TableView, ApiError> {
        let table = self.table(id).await?;
        let st = table.state.lock().await;
        let viewer = self.resolve(&st, token)?;
        Ok(st.full_view(id, viewer, "state"))
    }

    pub async fn join(&self, id: &str, name: &str, seat: Option<usize>) -> Result<Joined, ApiError> {
        let name = check_name(name, "name", limits::MAX_NAME_CHARS)?;
        let table = self.table(id).await?;
        let mut st = table.state.lock().await;
        if st.game.is_over() {
            return Err(ApiError::Illegal(uno::IllegalAction::GameOver));
        }
        let open = |s: &SeatMeta| s.kind == SeatKind::Human && s.token_hash.is_none();
        let i = match seat {
            Some(i) if st.meta.seats.get(i).is_some_and(open) => i,
            Some(i) => return Err(ApiError::SeatTaken(i)),
            None => st.meta.seats.iter().position(open).ok_or(ApiError::TableFull)?,
        };
        let taken = |s: &SeatMeta| s.kind == SeatKind::Bot || s.token_hash.is_some();
        let same = |s: &SeatMeta| s.name.as_deref().is_some_and(|n| n.to_lowercase() == name.to_lowercase());
        if st.meta.seats.iter().enumerate().any(|(j, s)| j != i && taken(s) && same(s)) {
            return Err(ApiError::NameTaken);
        }
        let token = random_hex(16);
        let mut meta = st.meta.clone();
        meta.seats[i].token_hash = Some(hash_token(&token));
        meta.seats[i].name = Some(name);
        self.inner.store.set_meta(id, stored_meta(&meta)?).await?;
        st.meta = meta;
        table.bump_epoch(i);
        st.last_activity = Instant::now();
        self.schedule(&table, &mut st);
        self.publish_state(&table, &mut st);
        Ok(Joined { id: id.to_string(), seat: i, token, table: st.full_view(id, Viewer::Seat(i), "state") })
    }

    /// Gives the seat up: the token stops working and the seat is open again; the game waits
    /// until someone takes it.
    pub async fn leave(&self, id: &str, token: Option<&str>) -> Result<(), ApiError> {
        let table = self.table(id).await?;
        let mut st = table.state.lock().await;
        let Viewer::Seat(i) = self.resolve(&st, Some(token.ok_or(ApiError::MissingToken)?))? else {
            return Err(ApiError::BadToken);
        };
        let mut meta = st.meta.clone();
        meta.seats[i].token_hash = None;
        meta.seats[i].name = None;
        self.inner.store.set_meta(id, stored_meta(&meta)?).await?;
        st.meta = meta;
        table.bump_epoch(i);
        st.last_activity = Instant::now();
        st.turn_deadline = None;
        self.publish_state(&table, &mut st);
        Ok(())
    }

    /// The owner (the creator's seat) closes the table: it is kept in the store as abandoned, it
    /// leaves memory, its bots stop, and its sockets close (4002). This frees a slot of the
    /// creator's table limit.
    pub async fn close(&self, id: &str, token: Option<&str>) -> Result<(), ApiError> {
        let table = self.table(id).await?;
        let mut st = table.state.lock().await;
        let Viewer::Seat(i) = self.resolve(&st, Some(token.ok_or(ApiError::MissingToken)?))? else {
            return Err(ApiError::BadToken);
        };
        if st.meta.owner_seat != Some(i) {
            return Err(ApiError::NotOwner);
        }
        if !st.game.is_over() {
            self.inner.store.set_status(id, StoreStatus::Abandoned).await?;
        }
        table.closed.store(true, Ordering::Release);
        table.done.store(true, Ordering::Relaxed);
        st.turn_deadline = None;
        if let Ok(mut map) = self.inner.tables.write() {
            map.remove(id);
        }
        // Every socket sees the close on this push.
        let _ = table.tx.send(Arc::new(Push { version: st.version(), update: false, views: Vec::new() }));
        Ok(())
    }

    /// A seat's action, checked against the version it was based on.
    pub async fn act(
        &self,
        id: &str,
        token: Option<&str>,
        action: Action,
        version: u64,
    ) -> Result<TableView, ApiError> {
        let table = self.table(id).await?;
        let mut st = table.state.lock().await;
        let viewer = match token {
            Some(t) => self.resolve(&st, Some(t))?,
            None => return Err(ApiError::MissingToken),
        };
        let Viewer::Seat(seat) = viewer else { return Err(ApiError::BadToken) };
        let events = self.act_as(&table, &mut st, seat, action, Some(version)).await?;
        st.last_activity = Instant::now();
        Ok(st.view(id, viewer, &events, "update"))
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
    ) -> Result<(), ApiError> {
        let mut st = table.state.lock().await;
        if table.seat_epoch(Viewer::Seat(seat)) != epoch {
            return Err(ApiError::BadToken);
        }
        self.act_as(table, &mut st, seat, action, Some(version)).await?;
        st.last_activity = Instant::now();
        Ok(())
    }

    async fn act_as(
        &self,
        table: &Arc<Table>,
        st: &mut TableState,
        seat: usize,
        action: Action,
        version: Option<u64>,
    ) -> Result<Vec<LoggedEvent>, ApiError> {
        if table.closed.load(Ordering::Acquire) {
            return Err(ApiError::NoSuchTable(table.id.clone()));
        }
        match st.status() {
            TableStatus::Waiting => return Err(ApiError::NotStarted),
            TableStatus::Finished => return Err(ApiError::Illegal(uno::IllegalAction::GameOver)),
            TableStatus::Playing => {}
        }
        if let Some(sent) = version {
            if sent != st.version() {
                return Err(ApiError::StaleState { sent, current: st.version() });
            }
        }
        let s = Seat(seat as u8);
        let events = st.game.apply(s, action).map_err(ApiError::Illegal)?;
        let seq = st.record.actions.len() as u64;
        st.record.push(s, action);
        let entry = store::Entry::new(&Move { seat: s, action }).map_err(|e| ApiError::Internal(e.to_string()))?;
        if let Err(e) = self.inner.store.append(&table.id, seq, entry).await {
            // Not stored, so not accepted: put the game back as it was.
            st.record.actions.pop();
            st.game = st.record.replay().map_err(|e| ApiError::Internal(e.to_string()))?;
            if let store::StoreError::Fenced { .. } = e {
                self.drop_lost(table);
                return Err(ApiError::OwnedElsewhere(table.id.clone()));
            }
            return Err(e.into());
        }
        let version = st.version();
        let logged: Vec<LoggedEvent> = events.into_iter().map(|event| LoggedEvent { version, event }).collect();
        st.remember(&logged);
        if st.game.is_over() {
            st.finished_at = Some(Instant::now());
            table.done.store(true, Ordering::Relaxed);
            // Queued behind the append; not awaited: a restart that finds a finished game
            // still marked active marks it then.
            let store = &self.inner.store;
            drop(store.set_status(&table.id, StoreStatus::Finished));
            if let (Ok(record), Ok(outcome)) = (stored_header(&st.record), stored_outcome(&st.game)) {
                let actions = st.record.actions.len() as u64;
                drop(store.add_result(NewResult {
                    game_id: table.id.clone(),
                    kind: Kind::Uno,
                    record,
                    actions,
                    outcome,
                }));
            }
        }
        // Scheduled first, so the update carries the new turn's timer.
        self.schedule(table, st);
        self.publish_update(table, st, &logged);
        Ok(logged)
    }

    /// A new game at a finished table, same seats and rules, new shuffle.
    pub async fn rematch(&self, id: &str, token: Option<&str>) -> Result<TableView, ApiError> {
        let table = self.table(id).await?;
        let mut st = table.state.lock().await;
        let Viewer::Seat(seat) = self.resolve(&st, Some(token.ok_or(ApiError::MissingToken)?))? else {
            return Err(ApiError::BadToken);
        };
        if !st.game.is_over() {
            return Err(ApiError::NotFinished);
        }
        // A rematch is an unfinished table again: it counts against its creator's limit.
        self.check_capacity(&table.creator)?;
        let seed = rand::rngs::OsRng.next_u64();
        let rules = st.game.rules_arc().clone();
        let record = GameRecord::new(&rules, st.players(), seed);
        let mut deal = Vec::new();
        let game = Game::new_with_events(rules, st.players(), seed, &mut deal)
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        let mut meta = st.meta.clone();
        meta.version_base = st.version() + 1;
        meta.generation += 1;
        self.inner.store.reset(id, stored_header(&record)?, stored_meta(&meta)?).await?;
        st.record = record;
        st.game = game;
        st.meta = meta;
        st.finished_at = None;
        st.last_activity = Instant::now();
        table.done.store(false, Ordering::Relaxed);
        st.events.clear();
        let logged: Vec<LoggedEvent> =
            deal.into_iter().map(|event| LoggedEvent { version: st.meta.version_base, event }).collect();
        st.remember(&logged);
        self.schedule(&table, &mut st);
        self.publish_state(&table, &mut st);
        Ok(st.full_view(id, Viewer::Seat(seat), "state"))
    }

    /// Sends every viewer with an open socket the full state (after a seat changed hands or a
    /// rematch: rare, and the page redraws everything anyway).
    fn publish_state(&self, table: &Table, st: &mut TableState) {
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
                serde_json::to_string(&st.full_view(&table.id, v, "state")).ok().map(Utf8Bytes::from)
            })
            .collect();
        let _ = table.tx.send(Arc::new(Push { version: st.version(), update: false, views }));
    }

    /// Sends every viewer with an open socket the change an action made (see `update`).
    fn publish_update(&self, table: &Table, st: &mut TableState, events: &[LoggedEvent]) {
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

    /// After any change: set the bot or the turn timer going for whoever acts next.
    fn schedule(&self, table: &Arc<Table>, st: &mut TableState) {
        // A deadline belongs to the turn it was set for: any change ends it.
        st.turn_deadline = None;
        if st.status() != TableStatus::Playing || table.closed.load(Ordering::Acquire) {
            return;
        }
        let version = st.version();
        if let Some(seat) = st.bot_to_move() {
            let delay = st.bot_delay(seat, &self.inner.config);
            let app = self.clone();
            let table = table.clone();
            tokio::spawn(async move {
                tokio::time::sleep(delay).await;
                app.bot_turn(&table, version).await;
            });
        } else if let Some(secs) = st.meta.turn_seconds {
            st.turn_deadline = Some(Instant::now() + Duration::from_secs(secs as u64));
            let app = self.clone();
            let table = table.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_secs(secs as u64)).await;
                app.turn_timeout(&table, version).await;
            });
        }
    }

    async fn bot_turn(&self, table: &Arc<Table>, version: u64) {
        let (seat, obs, mut bot) = {
            let mut st = table.state.lock().await;
            if st.version() != version || st.status() != TableStatus::Playing {
                return;
            }
            let Some(seat) = st.bot_to_move() else { return };
            let obs = st.game.observation(Some(Seat(seat as u8)));
            if obs.legal_actions.is_empty() {
                return;
            }
            let Some(bot) = st.bots.get_mut(seat).and_then(Option::take) else { return };
            (seat, obs, bot)
        };
        // A search bot may think for a while: off the async workers, and without the lock.
        let thought = tokio::task::spawn_blocking(move || {
            let action = bot.choose(&obs);
            (bot, action, obs)
        })
        .await;
        let mut st = table.state.lock().await;
        let Ok((bot, action, obs)) = thought else {
            // The bot panicked; seat a fresh one so the table goes on.
            tracing::error!(table = %table.id, seat, "a bot panicked; a fresh one takes its seat");
            if let Some(m) = st.meta.seats.get(seat) {
                if let Some(spec) = m.bot.as_deref().and_then(|n| n.parse::<BotSpec>().ok()) {
                    let b = build_bot(spec, m.bot_seed, st.game.rules_arc());
                    if let Some(slot) = st.bots.get_mut(seat) {
                        *slot = Some(b);
                    }
                }
            }
            self.schedule(table, &mut st);
            return;
        };
        if let Some(slot) = st.bots.get_mut(seat) {
            *slot = Some(bot);
        }
        if st.version() != version {
            // Someone acted meanwhile (a jump-in, an UNO catch): think again about the new state.
            self.schedule(table, &mut st);
            return;
        }
        let seat_version = Some(version);
        if self.act_as(table, &mut st, seat, action, seat_version).await.is_err() {
            // A bot that answers an illegal action must not stall the table.
            if let Some(&fallback) = obs.legal_actions.first() {
                let _ = self.act_as(table, &mut st, seat, fallback, seat_version).await;
            }
        }
    }

    async fn turn_timeout(&self, table: &Arc<Table>, version: u64) {
        let mut st = table.state.lock().await;
        if st.version() != version || st.status() != TableStatus::Playing {
            return;
        }
        let seat = st.game.current().index();
        // Draw, then pass: at most a few steps, all for the seat that ran out of time.
        for _ in 0..4 {
            if st.status() != TableStatus::Playing || st.game.current().index() != seat {
                break;
            }
            let legal = st.game.legal_actions_for(Seat(seat as u8));
            let Some(action) = default_action(&legal) else { break };
            if self.act_as(table, &mut st, seat, action, None).await.is_err() || action != Action::Draw {
                break;
            }
        }
    }

    fn spawn_janitor(&self) {
        let c = &self.inner.config;
        let every = (c.idle_timeout.min(c.finished_ttl) / 4).clamp(Duration::from_millis(200), Duration::from_secs(30));
        let weak = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let Some(inner) = weak.upgrade() else { return };
                AppState { inner }.sweep().await;
            }
        });
    }

    /// Drops finished tables after their time, and closes tables left idle.
    pub async fn sweep(&self) {
        let tables: Vec<Arc<Table>> =
            self.inner.tables.read().map(|t| t.values().cloned().collect()).unwrap_or_default();
        let c = &self.inner.config;
        let mut gone = Vec::new();
        for t in tables {
            let Ok(st) = t.state.try_lock() else { continue };
            let now = Instant::now();
            let connected = st.watchers.iter().any(|&w| w > 0);
            if st.finished_at.is_some_and(|f| now.duration_since(f) >= c.finished_ttl) {
                gone.push(t.id.clone());
            } else if st.finished_at.is_none() && !connected && now.duration_since(st.last_activity) >= c.idle_timeout {
                // Under the lock: no bot or timer acts at the table after this.
                t.closed.store(true, Ordering::Release);
                drop(self.inner.store.set_status(&t.id, StoreStatus::Abandoned));
                gone.push(t.id.clone());
            }
        }
        if !gone.is_empty() {
            if let Ok(mut map) = self.inner.tables.write() {
                for id in gone {
                    map.remove(&id);
                    self.inner.store.release(&id);
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "bot_panic_tests.rs"]
mod bot_panic_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bits_and_stored_hashed() {
        let t = random_hex(16);
        assert_eq!(t.len(), 32);
        assert_ne!(t, random_hex(16));
        assert_eq!(hash_token(&t).len(), 64);
        assert_ne!(hash_token(&t), t);
    }

    #[test]
    fn the_default_action_draws_then_passes() {
        assert_eq!(default_action(&[Action::Draw, Action::CallUno]), Some(Action::Draw));
        assert_eq!(default_action(&[Action::Pass]), Some(Action::Pass));
        assert_eq!(default_action(&[Action::CallUno]), None);
    }

    #[test]
    fn house_rules_apply_over_the_preset() {
        let req = CreateTable {
            house_rules: HouseRules { stacking: Some(Stacking::Both), match_target: Some(0), ..Default::default() },
            ..Default::default()
        };
        let r = build_rules(&req).expect("valid");
        assert_eq!(r.stacking(), Stacking::Both);
        assert_eq!(r.target(), None);
    }
}
