//! Duel (seed 001's grid game), hosted: [`Duel`] is the engine's `DuelGame` with its record,
//! as one implementation of [`Hosted`]. The person holds red (seat 0, by the token the create
//! answer gives); the computer is the bot of black (seat 1), whose move answers the person's
//! within the same request. Its routes under `/api/duel` (`crate::duel_api`) and its records
//! ([`records`]) read the table through the host like any game's.

pub(crate) mod messages;
pub(crate) mod records;

use std::time::Duration;

use duel::{
    move_action, Action, Actor, Bot, BotKind, Cell, Coord, Difficulty, DuelError, DuelGame, Event, GameRecord,
    LoggedAction, Side, Stage, DEFAULT_HEIGHT, DEFAULT_WIDTH,
};
use serde::{Deserialize, Serialize};

use crate::host::{
    seats, Facts, GameRefusal, Hosted, Kept, Logged, Opening, Pace, Refusal, Restored, Seat, Shown, TableError, Tables,
    Viewer,
};
use crate::messages::SeatSpec;
pub use messages::{CellKey, CreateRequest, DuelConfig, DuelView, HistoryEvent, LastMove};

/// A grid needs room for one red and one black piece, or its setup can never end.
const MIN_CELLS: usize = 2;

/// Red: the person's seat.
pub(crate) const RED: Seat = Seat(0);
/// Black: the computer's seat.
pub(crate) const BLACK: Seat = Seat(1);

/// A game of Duel at a table.
pub struct Duel {
    pub(crate) record: GameRecord,
    pub(crate) game: DuelGame,
    /// The last move of the play stage, for highlighting.
    last_move: Option<LastMove>,
    /// Play rounds begun since the last fight (or since play began).
    quiet_rounds: u32,
}

/// What a Duel table is dealt from: its size, the computer's difficulty and the seed.
pub struct DuelSetup {
    width: u8,
    height: u8,
    difficulty: Difficulty,
    seed: u64,
}

/// Duel keeps nothing beside the host's settings.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct DuelSettings {}

impl GameRefusal for DuelError {
    fn code(&self) -> &'static str {
        DuelError::code(self)
    }

    fn says_over(&self) -> bool {
        matches!(self, DuelError::GameOver)
    }

    /// The error's own fields (its cell, side, key...): the Duel pages word seed 001's
    /// sentences in the reader's language from them.
    fn fields(&self) -> Option<serde_json::Value> {
        serde_json::to_value(self).ok()
    }
}

/// A grid with no room for a red and a black piece.
fn too_small(width: u8, height: u8) -> TableError {
    too_small_refusal(width, height)
}

/// [`too_small`]'s refusal (its sentence and what it names).
pub(crate) fn too_small_refusal(width: u8, height: u8) -> TableError {
    let message = format!(
        "A {width}x{height} grid has no room for a red and a black piece: make it at least 2 cells (for example 1x2)."
    );
    let fields = serde_json::json!({ "width": width, "height": height });
    TableError::Illegal(Refusal::new("too_small", false, message).with_fields(Some(fields)))
}

/// Who took a logged action, by seat.
fn actor(seat: Seat) -> Actor {
    if seat == BLACK {
        Actor::Computer
    } else {
        Actor::User
    }
}

/// The last move among `events`, the events of one action applied to `before`, if any.
pub(crate) fn last_move_of(before: &DuelGame, events: &[Event]) -> Option<LastMove> {
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

impl Duel {
    fn new(record: GameRecord, game: DuelGame) -> Duel {
        Duel { record, game, last_move: None, quiet_rounds: 0 }
    }

    /// Takes note of the `events` of one action applied to `before`: the last move and the
    /// rounds without a fight; the events as the history keeps them.
    fn note(&mut self, before: &DuelGame, events: Vec<Event>) -> Vec<HistoryEvent> {
        if let Some(m) = last_move_of(before, &events) {
            self.last_move = Some(m);
        }
        events
            .into_iter()
            .map(|e| {
                match e {
                    Event::PlayStarted | Event::Combat { .. } => self.quiet_rounds = 0,
                    Event::RoundStarted { .. } => self.quiet_rounds += 1,
                    _ => {}
                }
                let piece = match &e {
                    Event::Moved { from, .. } => match before.cell(*from) {
                        Some(Cell::Piece(p)) => Some(p),
                        _ => None,
                    },
                    _ => None,
                };
                HistoryEvent { event: e, piece }
            })
            .collect()
    }

    /// Rebuilds a game from its whole record, with each action's events by the ply it led to.
    pub(crate) fn rebuild(record: &GameRecord) -> Result<Restored<Duel>, String> {
        let mut duel =
            Duel::new(GameRecord { actions: Vec::new(), ..record.clone() }, record.start().map_err(|e| e.to_string())?);
        let mut events = Vec::new();
        for logged in &record.actions {
            let before = duel.game.clone();
            let evs = duel.game.apply(logged.action.clone()).map_err(|e| e.to_string())?;
            duel.record.actions.push(logged.clone());
            let ply = duel.record.actions.len() as u64;
            events.extend(duel.note(&before, evs).into_iter().map(|e| (ply, e)));
        }
        Ok((duel, events))
    }

    /// The view of this game: `events` this request's, `computer` the computer's answer to it.
    pub(crate) fn render(
        &self,
        id: &str,
        history: Vec<HistoryEvent>,
        events: Vec<Event>,
        computer: Vec<Event>,
    ) -> DuelView {
        messages::view(
            id,
            &self.game,
            self.record.difficulty,
            self.last_move,
            self.quiet_rounds,
            history,
            events,
            computer,
        )
    }
}

impl Hosted for Duel {
    const KIND: store::Kind = store::Kind::DUEL;
    /// The newest events a game keeps for a page that reloads (the page's log shows no more).
    const RECENT_EVENTS: usize = 300;
    const READS_ARE_ACTIVITY: bool = true;
    type Setup = DuelSetup;
    type Settings = DuelSettings;
    type Create = CreateRequest;
    type Action = Action;
    type Event = HistoryEvent;
    type Refusal = DuelError;
    type View = DuelView;
    type Bot = Box<dyn Bot>;
    type Seen = DuelGame;
    type Told = ();

    fn page(id: &str) -> String {
        format!("/duel.html?game={id}")
    }

    async fn open(req: CreateRequest, _: &Tables) -> Result<Opening<Duel>, TableError> {
        let (width, height) = (req.width.unwrap_or(DEFAULT_WIDTH), req.height.unwrap_or(DEFAULT_HEIGHT));
        // The size is checked first (the engine's refusal), then whether it has room for two pieces.
        DuelGame::new(width, height).map_err(|e| TableError::Illegal(e.into()))?;
        if usize::from(width) * usize::from(height) < MIN_CELLS {
            return Err(too_small(width, height));
        }
        let difficulty = req.difficulty.unwrap_or_default();
        let seed = rand::random();
        Ok(Opening {
            seats: vec![
                SeatSpec::Human { name: None },
                SeatSpec::Bot { bot: BotKind::Search(difficulty).to_string(), seed: None, delay_ms: None },
            ],
            name: None,
            creator_seat: Some(RED),
            spectators: true,
            turn_seconds: None,
            bot_delay_ms: None,
            seed,
            settings: DuelSettings {},
            setup: DuelSetup { width, height, difficulty, seed },
        })
    }

    fn deal(s: &DuelSetup, _: &mut DuelSettings) -> Result<(Duel, Vec<HistoryEvent>), TableError> {
        let (record, game) =
            GameRecord::new(s.width, s.height, s.difficulty, s.seed).map_err(|e| TableError::Illegal(e.into()))?;
        Ok((Duel::new(record, game), Vec::new()))
    }

    fn rematch(&self, _: &mut DuelSettings) -> Result<DuelSetup, TableError> {
        Err(TableError::Invalid("a Duel game has no rematch: start a new game".into()))
    }

    fn undealt(&self, _: &DuelSettings) -> DuelSetup {
        let r = &self.record;
        DuelSetup { width: r.width, height: r.height, difficulty: r.difficulty, seed: r.seed }
    }

    fn stored_setup(s: &DuelSetup) -> Result<store::Header, TableError> {
        let (record, _) =
            GameRecord::new(s.width, s.height, s.difficulty, s.seed).map_err(|e| TableError::Illegal(e.into()))?;
        store::Header::new(&record).map_err(|e| TableError::Internal(e.to_string()))
    }

    fn unstored_setup(header: &store::Header, _: &DuelSettings) -> Result<DuelSetup, String> {
        let r: GameRecord = header.decode().map_err(|e| e.to_string())?;
        Ok(DuelSetup { width: r.width, height: r.height, difficulty: r.difficulty, seed: r.seed })
    }

    fn header(&self) -> Result<store::Header, TableError> {
        store::Header::new(&self.record.header()).map_err(|e| TableError::Internal(e.to_string()))
    }

    fn restore(header: &store::Header, log: &[store::Entry]) -> Result<Restored<Duel>, String> {
        let mut record: GameRecord = header.decode().map_err(|e| e.to_string())?;
        for entry in log {
            record.actions.push(entry.decode().map_err(|e| e.to_string())?);
        }
        Duel::rebuild(&record)
    }

    fn upto(&self, plies: u64) -> Result<Duel, String> {
        let mut record = self.record.clone();
        record.actions.truncate(plies as usize);
        Ok(Duel::rebuild(&record)?.0)
    }

    /// Games stored before Duel was hosted kept no seats: red is open to whoever takes it.
    fn settle_old(header: &store::Header) -> Option<seats::Meta<DuelSettings>> {
        let r: GameRecord = header.decode().ok()?;
        Some(seats::Meta {
            seats: vec![
                seats::SeatMeta::open(None),
                seats::SeatMeta::bot(BotKind::Search(r.difficulty).to_string(), r.seed, None),
            ],
            spectators: true,
            turn_seconds: None,
            bot_delay_ms: None,
            version_base: 0,
            generation: 0,
            creator: String::new(),
            owner_seat: None,
            dealt: true,
            rated_early: None,
            game: DuelSettings {},
        })
    }

    fn check(&self, seat: Seat, action: &Action) -> Result<(), DuelError> {
        match (self.game.stage(), action, seat) {
            // Black only moves, on its turn: the computer's seat.
            (Stage::Play { to_move: Side::Black, .. }, Action::Move { .. }, BLACK) => {}
            (_, _, BLACK) => return Err(DuelError::NotTurnOf { side: Side::Red }),
            // A move is only ever red's: black's turn is the computer's.
            (Stage::Play { to_move: Side::Black, .. }, Action::Move { .. }, _) => {
                return Err(DuelError::NotTurnOf { side: Side::Red })
            }
            _ => {}
        }
        self.game.clone().apply(action.clone()).map(|_| ())
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<HistoryEvent>, DuelError> {
        self.check(seat, &action)?;
        let before = self.game.clone();
        let events = self.game.apply(action.clone())?;
        self.record.actions.push(LoggedAction { by: actor(seat), action });
        Ok(self.note(&before, events))
    }

    fn logged(seat: Seat, action: &Action) -> Result<store::Entry, TableError> {
        store::Entry::new(&LoggedAction { by: actor(seat), action: action.clone() })
            .map_err(|e| TableError::Internal(e.to_string()))
    }

    fn unlogged(entry: &store::Entry) -> Result<(Seat, Action), String> {
        let a: LoggedAction = entry.decode().map_err(|e| e.to_string())?;
        Ok((if a.by == Actor::Computer { BLACK } else { RED }, a.action))
    }

    fn plies(&self) -> u64 {
        self.record.actions.len() as u64
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    fn turn(&self, _: &Facts<'_, Duel>) -> Option<Seat> {
        match self.game.stage() {
            Stage::Play { to_move: Side::Black, .. } => Some(BLACK),
            Stage::Play { .. } | Stage::Setup { .. } => Some(RED),
            Stage::End { .. } => None,
        }
    }

    /// The computer answers the person's move within the same request (its answer carries it).
    fn pace(&self, _: Seat, _: &Facts<'_, Duel>, _: Duration) -> Pace {
        Pace::InRequest
    }

    fn timeout_action(&self, _: Seat) -> Option<(Action, bool)> {
        None
    }

    fn bot(name: &str, _seed: u64) -> Result<(String, Box<dyn Bot>), TableError> {
        let kind: BotKind = name.parse().map_err(TableError::UnknownBot)?;
        // The search is a function of the position alone: its seed is not used.
        Ok((kind.to_string(), kind.build(0)))
    }

    fn seen(&self, _: Seat) -> DuelGame {
        self.game.clone()
    }

    /// The computer's search, logged as the move it made (a replay needs no search).
    fn choose(bot: &mut Box<dyn Bot>, seen: &DuelGame) -> Option<Action> {
        let mut game = seen.clone();
        game.computer_move(bot.as_mut()).ok().and_then(|events| move_action(&events))
    }

    fn fallback(_: &DuelGame) -> Option<Action> {
        None
    }

    fn view(&self, facts: &Facts<'_, Duel>, _: Viewer, shown: Shown<'_, HistoryEvent>) -> DuelView {
        let plain = |l: &[Logged<HistoryEvent>]| l.iter().map(|e| e.event.event.clone()).collect();
        match shown {
            Shown::Recent(recent) => {
                self.render(facts.id, recent.iter().map(|e| e.event.clone()).collect(), Vec::new(), Vec::new())
            }
            Shown::Change(events, answered) => self.render(facts.id, Vec::new(), plain(events), plain(answered)),
        }
    }

    fn waiting_view(s: &DuelSetup, facts: &Facts<'_, Duel>, _: Viewer) -> DuelView {
        match Duel::deal(s, &mut DuelSettings {}) {
            Ok((d, _)) => d.render(facts.id, Vec::new(), Vec::new(), Vec::new()),
            Err(_) => messages::view(
                facts.id,
                &DuelGame::default(),
                s.difficulty,
                None,
                0,
                Vec::new(),
                Vec::new(),
                Vec::new(),
            ),
        }
    }

    fn kept(&self, _: &Facts<'_, Duel>) -> Result<Kept, TableError> {
        let internal = |e: store::StoreError| TableError::Internal(e.to_string());
        Ok(Kept {
            record: store::Record::new(&self.record).map_err(internal)?,
            outcome: store::Outcome::new(&self.game.status()).map_err(internal)?,
            // Duel keeps no statistics.
            tallies: None,
        })
    }
}

/// The cell `c` of `game` (for a view's grid).
pub(crate) fn cell(game: &DuelGame, c: Coord) -> Cell {
    game.cell(c).unwrap_or(Cell::Empty)
}

#[cfg(test)]
mod refusal_samples;
