//! The Duel routes: seed 001's grid game in the browser, as JSON under `/api/duel`.
//!
//! ```text
//! GET  /api/duel/config           the default grid size, the size limit and the difficulties
//! POST /api/duel                  {difficulty?, width?, height?}  -> 201 the game
//! GET  /api/duel/{id}             the game
//! POST /api/duel/{id}/place       {cell: "c4", key: "b" | "1".."6"}
//! POST /api/duel/{id}/next-round  the setup stage's next-round button
//! POST /api/duel/{id}/move        {cell: "c4", key: "w" | "a" | "s" | "d"}; the computer's answer
//!                                 comes in the same response (`computer`)
//! POST /api/duel/{id}/end         the user ends the play stage
//! ```
//!
//! Every answer is the whole game view ([`DuelView`]) plus the events of this request. A refused
//! action is `{code, message}` with `message` exactly the `DuelError` text, and changes nothing.
//! The server is authoritative: the page only shows what comes back.
//!
//! With a store ([`DuelGames::with_store`]) every game is kept as kind `"duel"`: the record names
//! the size, difficulty and seed, and the log holds every accepted action, the user's and the
//! computer's (a computer move is logged as the `Move` it made), so replaying the log rebuilds
//! the game exactly. An action is acknowledged only once it is stored. A game that is not in
//! memory (after a restart, or evicted) is loaded from the store when it is asked for.

mod messages;
pub(crate) mod records;

pub use crate::duel_refusal::DuelRefusal;
pub use messages::{CellKey, CreateRequest, DuelConfig, DuelView, HistoryEvent, LastMove};

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use duel::{
    move_action, Action, Actor, BotKind, Cell, Coord, Difficulty, DuelError, DuelGame, Event, GameRecord, Key,
    LoggedAction, Side, Stage, DEFAULT_HEIGHT, DEFAULT_WIDTH, MAX_DIMENSION,
};
use serde::{Deserialize, Serialize};
use store::{Kind, NewGame, SharedStore, Status as StoreStatus};

use crate::client::Client;
use crate::registry::{Entry, Refused, Registry};
use crate::tables::{store_read, Thinkers};
use crate::{ApiError, TableError};

/// At most this many games are kept in memory; the oldest finished ones go first.
const MAX_GAMES: usize = 10_000;

/// The newest events a game keeps for a page that reloads; older ones are dropped (the page's
/// log shows no more than this either).
const MAX_HISTORY: usize = 300;

/// A grid needs room for one red and one black piece, or its setup can never end.
const MIN_CELLS: usize = 2;

/// The Duel games of one server: in memory while played, in the store (if any) for good.
///
/// The same limits as UNO tables: one client (IP address) may have
/// `Config::max_tables_per_client` unfinished games at a time, and a game no person has read or
/// played for `Config::idle_timeout` is closed (`abandoned` in the store; it answers 404 then).
/// The games in memory are a [`Registry`], as UNO's tables are.
#[derive(Clone)]
pub struct DuelGames {
    games: Arc<Registry<DuelSlot>>,
    store: Option<SharedStore>,
    max_per_client: usize,
    idle_timeout: Duration,
    /// Held while a game found over without its record is mended (`records::keep_unkept`), so
    /// that readers arriving together keep its record once.
    mending: Arc<tokio::sync::Mutex<()>>,
    /// The clients' lanes: the computer's search for a move thinks in the lane of the client
    /// that moved, one search at a time per client, as its UNO bots do (`tables/thinking.rs`).
    thinkers: Arc<Thinkers>,
}

impl Default for DuelGames {
    fn default() -> Self {
        let c = crate::Config::default();
        DuelGames {
            games: Arc::default(),
            store: None,
            max_per_client: c.max_tables_per_client,
            idle_timeout: c.idle_timeout,
            mending: Arc::default(),
            thinkers: Arc::default(),
        }
    }
}

/// One game in memory.
pub(crate) struct DuelSlot {
    id: String,
    /// Who created it ("" when it came back from the store).
    creator: String,
    /// When a person last read or played it.
    seen: std::sync::Mutex<Instant>,
    record: tokio::sync::Mutex<DuelRecord>,
}

impl DuelSlot {
    /// Notes that a person read or played the game now.
    fn touch(&self) {
        *self.seen.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    fn idle_since(&self) -> Instant {
        *self.seen.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the game is over; `None` while a request holds it.
    fn over(&self) -> Option<bool> {
        self.record.try_lock().ok().map(|r| r.game.is_over())
    }
}

impl Entry for DuelSlot {
    fn creator(&self) -> &str {
        &self.creator
    }

    /// A game in use (locked) is not finished, as far as counting goes.
    fn counts(&self) -> bool {
        self.over() != Some(true)
    }
}

impl DuelGames {
    /// Games in memory only (tests).
    pub fn new() -> DuelGames {
        DuelGames::default()
    }

    /// Games kept in `store` (any backend) as kind [`Kind::Duel`].
    pub fn with_store(store: impl Into<SharedStore>) -> DuelGames {
        DuelGames { store: Some(store.into()), ..DuelGames::default() }
    }

    /// Sets the per-client limit on unfinished games and the idle time after which a game is
    /// closed.
    pub fn with_limits(mut self, max_per_client: usize, idle_timeout: Duration) -> DuelGames {
        self.max_per_client = max_per_client;
        self.idle_timeout = idle_timeout;
        self
    }

    /// Thinks in `thinkers`' lanes (the server's, shared with its UNO bots).
    pub(crate) fn with_thinkers(mut self, thinkers: Arc<Thinkers>) -> DuelGames {
        self.thinkers = thinkers;
        self
    }

    /// Closes the unfinished games left idle, then refuses `client` a new game if it already
    /// has as many unfinished ones as it may.
    fn admit(&self, client: &str) -> Result<(), ApiError> {
        let now = Instant::now();
        for slot in self.games.all() {
            if now.duration_since(slot.idle_since()) < self.idle_timeout {
                continue;
            }
            if slot.over() != Some(true) {
                if let Some(store) = &self.store {
                    drop(store.set_status(&slot.id, StoreStatus::Abandoned));
                }
            }
            self.games.remove_if_same(&slot.id, &slot);
        }
        self.games.admit(client, usize::MAX, self.max_per_client).map_err(|r| match r {
            Refused::TooMany(n) => DuelRefusal::TooManyGames(n).into(),
            // Never with no total: the oldest game is dropped instead (`insert`).
            Refused::Full => TableError::ServerFull.into(),
        })
    }

    async fn get(&self, id: &str) -> Result<Arc<DuelSlot>, ApiError> {
        if let Some(slot) = self.games.get(id) {
            return Ok(slot);
        }
        let record = match &self.store {
            Some(store) if id.len() <= 64 => match store_read(store.load(id)).await? {
                Some(g) if g.kind == Kind::Duel && g.status != StoreStatus::Abandoned => {
                    let record =
                        replay(&g).map_err(|e| ApiError::Internal(format!("duel game {id} does not replay: {e}")))?;
                    if record.game.is_over() {
                        // Its server may have stopped on the game's finishing path.
                        records::keep_unkept(self, store, &g).await?;
                    }
                    record
                }
                _ => return Err(DuelRefusal::NoSuchGame(id.chars().take(64).collect()).into()),
            },
            _ => return Err(DuelRefusal::NoSuchGame(id.chars().take(64).collect()).into()),
        };
        Ok(self.insert(id.to_string(), String::new(), record))
    }

    /// Keeps `record` in memory (or returns the copy another request loaded first).
    fn insert(&self, id: String, creator: String, record: DuelRecord) -> Arc<DuelSlot> {
        if let Some(slot) = self.games.get(&id) {
            return slot;
        }
        if self.games.len() >= MAX_GAMES {
            // Drop the oldest game nobody is using right now, finished games first; a stored
            // game comes back from the store when it is asked for again.
            let victim =
                self.games.oldest(|g| g.over() == Some(true)).or_else(|| self.games.oldest(|g| g.over().is_some()));
            if let Some((k, slot)) = victim {
                self.games.remove_if_same(&k, &slot);
            }
        }
        let slot = DuelSlot {
            id: id.clone(),
            creator,
            seen: std::sync::Mutex::new(Instant::now()),
            record: tokio::sync::Mutex::new(record),
        };
        self.games.insert_first(&id, Arc::new(slot))
    }

    /// Stores a new game (its record's header); acknowledged once durable.
    async fn persist_new(&self, id: &str, record: &GameRecord) -> Result<(), ApiError> {
        let Some(store) = &self.store else { return Ok(()) };
        let new = NewGame {
            id: id.to_string(),
            kind: Kind::Duel,
            record: store::Record::new(&record.header()).map_err(|e| ApiError::Internal(e.to_string()))?,
            meta: store::Meta::new(&serde_json::json!({})).map_err(|e| ApiError::Internal(e.to_string()))?,
        };
        store.create(new).await.map_err(ApiError::from)
    }

    /// Appends the accepted actions to the game's log (from action number `seq`), and when the
    /// game is over keeps its record and marks it finished, all before the answer.
    async fn persist(&self, id: &str, seq: u64, actions: &[LoggedAction], over: bool) -> Result<(), ApiError> {
        let Some(store) = &self.store else { return Ok(()) };
        let mut tickets = Vec::with_capacity(actions.len() + 1);
        for (i, a) in actions.iter().enumerate() {
            let entry = store::Entry::new(a).map_err(|e| ApiError::Internal(e.to_string()))?;
            tickets.push(store.append(id, seq + i as u64, entry));
        }
        for t in tickets {
            t.await.map_err(ApiError::from)?;
        }
        if over {
            // The record is kept before the game is marked finished: a stop between the two
            // leaves a game over still marked active, whose record is then found kept
            // (`records::keep_unkept`); marked finished first, a stop there lost the record.
            records::keep(store, id).await?;
            store.set_status(id, StoreStatus::Finished).await?;
        }
        Ok(())
    }

    /// The store the games are kept in, if any.
    pub(crate) fn store(&self) -> Option<&SharedStore> {
        self.store.as_ref()
    }

    /// Whether game `id` is in memory and not over (its record is not kept yet).
    pub(crate) fn is_live(&self, id: &str) -> bool {
        self.games.get(id).is_some_and(|g| g.over() != Some(true))
    }
}

/// Rebuilds a stored game by replaying its log (the page's history with it).
fn replay(g: &store::StoredGame) -> Result<DuelRecord, String> {
    Ok(rebuild(&whole_record(g)?)?.0)
}

/// A stored game's whole record: its header and its log.
pub(crate) fn whole_record(g: &store::StoredGame) -> Result<GameRecord, String> {
    let mut stored: GameRecord = g.record.decode().map_err(|e| e.to_string())?;
    for entry in &g.actions {
        stored.actions.push(entry.decode().map_err(|e| e.to_string())?);
    }
    Ok(stored)
}

/// Rebuilds a game from its record, with what the page shows besides the grid; also the events
/// of the record's last action.
pub(crate) fn rebuild(stored: &GameRecord) -> Result<(DuelRecord, Vec<Event>), String> {
    let mut record = DuelRecord::new(stored.start().map_err(|e| e.to_string())?, stored.difficulty, stored.seed);
    let mut last = Vec::new();
    record.game = stored
        .replay_with_events(|before, logged, events| {
            if logged.by == Actor::Computer {
                record.computer_moves += 1;
            }
            record.note(before, events);
            record.logged += 1;
            last = events.to_vec();
        })
        .map_err(|e| e.to_string())?;
    Ok((record, last))
}

/// One stored game: the engine state and what the page needs besides it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct DuelRecord {
    game: DuelGame,
    difficulty: Difficulty,
    /// Seeds the computer's random choices (with the move count).
    seed: u64,
    /// Computer moves so far.
    computer_moves: u64,
    /// Actions in the stored log so far.
    logged: u64,
    /// The last move of the play stage, for highlighting.
    last_move: Option<LastMove>,
    /// The newest events (at most [`MAX_HISTORY`]), so a reloaded page can show what happened.
    #[serde(skip)]
    history: Vec<HistoryEvent>,
    /// Play rounds begun since the last fight (or since play began).
    #[serde(default)]
    quiet_rounds: u32,
}

impl DuelRecord {
    fn new(game: DuelGame, difficulty: Difficulty, seed: u64) -> DuelRecord {
        DuelRecord {
            game,
            difficulty,
            seed,
            computer_moves: 0,
            logged: 0,
            last_move: None,
            history: Vec::new(),
            quiet_rounds: 0,
        }
    }

    /// Takes note of the `events` of one action applied to `before`: the last move, the history
    /// and the rounds without a fight.
    fn note(&mut self, before: &DuelGame, events: &[Event]) {
        if let Some(m) = last_move_of(before, events) {
            self.last_move = Some(m);
        }
        for e in events {
            match e {
                Event::PlayStarted | Event::Combat { .. } => self.quiet_rounds = 0,
                Event::RoundStarted { .. } => self.quiet_rounds += 1,
                _ => {}
            }
            let piece = match e {
                Event::Moved { from, .. } => match before.cell(*from) {
                    Some(Cell::Piece(p)) => Some(p),
                    _ => None,
                },
                _ => None,
            };
            self.history.push(HistoryEvent { event: e.clone(), piece });
        }
        if self.history.len() > MAX_HISTORY {
            let extra = self.history.len() - MAX_HISTORY;
            self.history.drain(..extra);
        }
    }
}

/// The Duel routes, with their own state, ready to merge into the app's router.
pub fn routes<S>(games: DuelGames) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    Router::new()
        .route("/api/duel/config", get(config))
        .route("/api/duel", post(create))
        .route("/api/duel/{id}", get(show))
        .route("/api/duel/{id}/place", post(place))
        .route("/api/duel/{id}/next-round", post(next_round))
        .route("/api/duel/{id}/move", post(move_piece))
        .route("/api/duel/{id}/end", post(end))
        .route("/api/duel/{id}/record", get(records::record))
        .route("/api/duel/{id}/replay", get(records::replay))
        .with_state(games)
}

pub(crate) fn view(id: &str, record: &DuelRecord, events: Vec<Event>, computer: Vec<Event>) -> DuelView {
    let game = &record.game;
    let cells = (0..game.height())
        .map(|row| (0..game.width()).map(|col| game.cell(Coord::new(col, row)).unwrap_or(Cell::Empty)).collect())
        .collect();
    let (outcome_message, end_reason) = match game.stage() {
        Stage::End { outcome, reason, .. } => (Some(outcome.message()), Some(reason.message())),
        _ => (None, None),
    };
    DuelView {
        id: id.to_string(),
        difficulty: record.difficulty,
        width: game.width(),
        height: game.height(),
        status: game.status(),
        cells,
        outcome_message,
        end_reason,
        last_move: record.last_move,
        rounds_without_fight: record.quiet_rounds,
        history: Vec::new(),
        events,
        computer,
    }
}

/// The last move among `events`, the events of one action applied to `before`, if any.
fn last_move_of(before: &DuelGame, events: &[Event]) -> Option<LastMove> {
    let mut last = None;
    for e in events {
        match e {
            Event::Moved { side, from, to, .. } => {
                let rank = match before.cell(*from) {
                    Some(Cell::Piece(p)) => Some(p.rank.get()),
                    _ => None,
                };
                last = Some(LastMove { side: *side, from: *from, to: *to, eliminated: None, rank });
            }
            Event::Combat { eliminated, .. } => {
                if let Some(m) = last.as_mut() {
                    m.eliminated = Some(*eliminated);
                }
            }
            _ => {}
        }
    }
    last
}

fn new_id() -> String {
    format!("{:016x}", rand::random::<u64>())
}

async fn config() -> Json<DuelConfig> {
    Json(DuelConfig {
        default_width: DEFAULT_WIDTH,
        default_height: DEFAULT_HEIGHT,
        max_dimension: MAX_DIMENSION,
        difficulties: Difficulty::ALL.to_vec(),
        default_difficulty: Difficulty::default(),
    })
}

async fn create(
    State(games): State<DuelGames>,
    client: Client,
    body: Result<Json<CreateRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<DuelView>), ApiError> {
    let Json(req) = body?;
    let (width, height) = (req.width.unwrap_or(DEFAULT_WIDTH), req.height.unwrap_or(DEFAULT_HEIGHT));
    // The size is checked first (the engine's refusal), then whether it has room for two pieces.
    DuelGame::new(width, height)?;
    if usize::from(width) * usize::from(height) < MIN_CELLS {
        return Err(DuelRefusal::GridTooSmall { width, height }.into());
    }
    games.admit(&client.0)?;
    let (stored, game) = GameRecord::new(width, height, req.difficulty.unwrap_or_default(), rand::random())?;
    let record = DuelRecord::new(game, stored.difficulty, stored.seed);
    let id = new_id();
    games.persist_new(&id, &stored).await?;
    let v = view(&id, &record, Vec::new(), Vec::new());
    games.insert(id, client.0, record);
    Ok((StatusCode::CREATED, Json(v)))
}

async fn show(State(games): State<DuelGames>, Path(id): Path<String>) -> Result<Json<DuelView>, ApiError> {
    let slot = games.get(&id).await?;
    slot.touch();
    let record = slot.record.lock().await;
    let mut v = view(&id, &record, Vec::new(), Vec::new());
    v.history = record.history.clone();
    Ok(Json(v))
}

/// Applies the user's `action` to game `id`; for a move, the computer answers in the same
/// request, thinking in the lane of `client` (who moved). Nothing changes (in memory or in the
/// store) unless every step is accepted and stored.
async fn act(games: &DuelGames, id: &str, action: Action, client: &str) -> Result<Json<DuelView>, ApiError> {
    let slot = games.get(id).await?;
    slot.touch();
    let mut record = slot.record.lock().await;
    let is_move = matches!(action, Action::Move { .. });
    // A move is only ever red's: black's turn is the computer's, answered below.
    if is_move && matches!(record.game.stage(), Stage::Play { to_move: Side::Black, .. }) {
        return Err(DuelError::NotTurnOf { side: Side::Red }.into());
    }
    let mut next = record.clone();
    let before = next.game.clone();
    let events = next.game.apply(action.clone())?;
    let mut log = vec![LoggedAction { by: Actor::User, action }];
    next.note(&before, &events);
    let mut computer = Vec::new();
    if is_move && matches!(next.game.stage(), Stage::Play { to_move: Side::Black, .. }) {
        // The search takes up to its time budget: run it off the async workers, in the client's
        // lane, which the search holds until it ends (a client that hangs up frees no lane early).
        let mut game = next.game.clone();
        let kind = BotKind::Search(next.difficulty);
        let seed = next.seed.wrapping_add(next.computer_moves);
        let lane = games.thinkers.take(client).await;
        let answered = tokio::task::spawn_blocking(move || {
            let _lane = lane;
            let mut bot = kind.build(seed);
            game.computer_move(bot.as_mut()).map(|ev| (game, ev))
        })
        .await
        .map_err(|e| ApiError::Internal(format!("the computer's move failed: {e}")))?;
        let (game, ev) = answered?;
        if last_move_of(&next.game, &ev).is_none() {
            return Err(ApiError::Internal("the computer's answer was not a move".into()));
        }
        let before = std::mem::replace(&mut next.game, game);
        next.computer_moves += 1;
        next.note(&before, &ev);
        // Logged as the move it made, so a replay needs no search.
        let Some(action) = move_action(&ev) else {
            return Err(ApiError::Internal("the computer's answer was not a move".into()));
        };
        log.push(LoggedAction { by: Actor::Computer, action });
        computer = ev;
    }
    games.persist(id, next.logged, &log, next.game.is_over()).await?;
    next.logged += log.len() as u64;
    *record = next;
    Ok(Json(view(id, &record, events, computer)))
}

/// The longest `cell` or `key` read at all.
const MAX_FIELD_CHARS: usize = 8;

/// A `{cell, key}` body read into the action `make` builds from it.
fn cell_key(body: Result<Json<CellKey>, JsonRejection>, make: fn(Coord, Key) -> Action) -> Result<Action, ApiError> {
    let Json(req) = body?;
    // Cells ("c4") and keys ("w", "b", "1") are short: longer input is refused unread, so no
    // message repeats it.
    if req.cell.chars().count() > MAX_FIELD_CHARS || req.key.chars().count() > MAX_FIELD_CHARS {
        return Err(TableError::TooLong { field: "a cell or key", max: MAX_FIELD_CHARS }.into());
    }
    Ok(make(req.cell.parse()?, Key::from(req.key)))
}

async fn place(
    State(games): State<DuelGames>,
    Path(id): Path<String>,
    client: Client,
    body: Result<Json<CellKey>, JsonRejection>,
) -> Result<Json<DuelView>, ApiError> {
    act(&games, &id, cell_key(body, |cell, key| Action::Place { cell, key })?, &client.0).await
}

async fn next_round(
    State(games): State<DuelGames>,
    Path(id): Path<String>,
    client: Client,
) -> Result<Json<DuelView>, ApiError> {
    act(&games, &id, Action::NextRound, &client.0).await
}

async fn end(
    State(games): State<DuelGames>,
    Path(id): Path<String>,
    client: Client,
) -> Result<Json<DuelView>, ApiError> {
    act(&games, &id, Action::End, &client.0).await
}

async fn move_piece(
    State(games): State<DuelGames>,
    Path(id): Path<String>,
    client: Client,
    body: Result<Json<CellKey>, JsonRejection>,
) -> Result<Json<DuelView>, ApiError> {
    act(&games, &id, cell_key(body, |cell, key| Action::Move { cell, key })?, &client.0).await
}
