//! UNO, hosted: [`Uno`] is the engine's `Game` with its record, as one implementation of
//! [`Hosted`]. What is UNO's own lives here and beside it: the table view ([`view`]), the
//! updates that carry only what changed ([`update`]), finished games kept as their records and
//! record files imported ([`records`]), replay frames ([`replay`]), analyses ([`analysis`]) and
//! the statistics' tallies ([`tallies`]).

pub(crate) mod analysis;
pub(crate) mod records;
pub(crate) mod replay;
pub(crate) mod tallies;
pub mod update;
pub(crate) mod view;

use std::sync::Arc;
use std::time::Duration;

use rand::RngCore;
use serde::{Deserialize, Serialize};
use uno::{Action, Event, Game, GameRecord, IllegalAction, Move, Observation, Phase, Position, Rules, RulesConfig};
use uno_bots::{Bot, BotSpec, IsmctsBot, IsmctsConfig};

use crate::host::{self, Facts, GameRefusal, Hosted, Kept, Opening, Pace, Seat, TableError, Tables, Viewer};
use crate::limits;
use crate::messages::{CreateTable, SeatKind, StartedFrom, TableSummary, TableView};
use crate::text::Text;

/// How long a bot waits before its turn while a person could be caught for not calling UNO
/// (they just played their second-to-last card without calling): the person's fair moment to
/// call it late, however fast the bots play (docs/pages.md). A call in time changes the table, and
/// the bot thinks again about the new state.
pub(crate) const HUMAN_CATCH_GRACE: Duration = Duration::from_millis(2000);

/// A game of UNO at a table: the engine's game and its record (the deal and every action).
pub struct Uno {
    pub(crate) record: GameRecord,
    pub(crate) game: Game,
}

/// What an UNO table is dealt from when play starts.
pub struct UnoSetup {
    rules: Arc<Rules>,
    players: usize,
    /// The seed the creator chose; `None`: one is drawn when play starts.
    seed: Option<u64>,
    /// A "play from here" table's start.
    start: Option<Position>,
}

/// What an UNO table keeps beside the host's settings (names as stored).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct UnoSettings {
    /// Whether the creator chose the current game's seed (and so can work out every hidden card).
    #[serde(default)]
    pub chosen_seed: bool,
    /// Where the current game started, for a "play from here" game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_from: Option<StartedFrom>,
    /// The preset a rated table plays (its games rated in that preset's pools); `None` for a
    /// casual table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<String>,
}

/// The preset of a table the creator asked to be rated: one of the shipped presets as it
/// ships (no rules file, no house rule, no chosen seed, no "play from here"), so every rated
/// game of a pool is the same game, and nobody knows the deck.
fn rated_preset(req: &CreateTable) -> Result<Option<String>, TableError> {
    if req.rated != Some(true) {
        return Ok(None);
    }
    let plain = req.rules.is_none()
        && req.house_rules == uno::HouseRules::default()
        && req.seed.is_none()
        && req.from.is_none();
    if !plain {
        return Err(TableError::Invalid(
            "a rated table plays a preset as it ships: no rules file, house rules, seed or starting position".into(),
        ));
    }
    Ok(Some(req.preset.clone().unwrap_or_else(|| "official".into())))
}

/// Each seat's finishing place, 1 first (equal places tie): a match's by the final scores,
/// most first; a single round's winner first and the rest by the card points left in their
/// hands, fewest first (a game nobody won, everyone so).
pub(crate) fn places(game: &Game) -> Vec<u8> {
    let n = game.players();
    // The key each seat is ranked by, lower better.
    let key: Vec<i64> = (0..n)
        .map(|i| {
            let seat = Seat(i as u8);
            if game.rules().target().is_some() {
                -i64::from(game.scores().get(i).copied().unwrap_or(0))
            } else if game.outcome().and_then(|o| o.winner) == Some(seat) {
                -1
            } else {
                i64::from(game.rules().hand_points(game.hand(seat)))
            }
        })
        .collect();
    key.iter().map(|k| 1 + key.iter().filter(|o| *o < k).count() as u8).collect()
}

impl GameRefusal for IllegalAction {
    fn code(&self) -> &'static str {
        crate::error::variant_name(self).unwrap_or(crate::error::ServerCode::IllegalAction.name())
    }

    fn says_over(&self) -> bool {
        matches!(self, IllegalAction::GameOver | IllegalAction::RoundOver)
    }
}

impl From<uno::RulesError> for TableError {
    fn from(e: uno::RulesError) -> TableError {
        TableError::Rules(e.to_string())
    }
}

impl From<uno_bots::BotSpecError> for TableError {
    fn from(e: uno_bots::BotSpecError) -> TableError {
        TableError::UnknownBot(e.to_string())
    }
}

/// Builds a bot for a seat: search bots also stop after [`limits::MAX_BOT_MOVE_TIME`], so no
/// name can hold a core for longer than that a move.
pub(crate) fn build_bot(spec: BotSpec, seed: u64) -> Box<dyn Bot> {
    match spec.ismcts_config() {
        Some(config) => {
            Box::new(IsmctsBot::new(IsmctsConfig { time_limit: Some(limits::MAX_BOT_MOVE_TIME), ..config }, seed))
                as Box<dyn Bot>
        }
        None => spec.build(seed),
    }
}

/// What the server plays for a person whose turn timer ran out: draw, then pass.
pub(crate) fn default_action(legal: &[Action]) -> Option<Action> {
    let has = |a: Action| legal.contains(&a).then_some(a);
    has(Action::Draw)
        .or_else(|| has(Action::Pass))
        .or_else(|| has(Action::Accept))
        .or_else(|| has(Action::NextRound))
        .or_else(|| legal.iter().copied().find(|a| !matches!(a, Action::CallUno | Action::CatchUno { .. })))
}

pub(crate) fn build_rules(req: &CreateTable) -> Result<Rules, TableError> {
    let config = match (&req.preset, &req.rules) {
        (Some(_), Some(_)) => return Err(TableError::Invalid("give either `preset` or `rules`, not both".into())),
        (_, Some(serde_json::Value::String(text))) => RulesConfig::parse(text)?,
        (_, Some(v @ serde_json::Value::Object(_))) => {
            serde_json::from_value(v.clone()).map_err(|e| uno::RulesError::Syntax(e.to_string()))?
        }
        (_, Some(_)) => return Err(TableError::Invalid("`rules` is a rules file's text or a JSON object".into())),
        (Some(p), None) => uno::rules::preset_config(p)?,
        (None, None) => uno::rules::preset_config("official")?,
    };
    Ok(req.house_rules.build(config)?)
}

fn internal(e: impl std::fmt::Display) -> TableError {
    TableError::Internal(e.to_string())
}

impl Uno {
    /// Whether a person (not a bot) has just become one who may be caught for not calling UNO:
    /// the last change was their card. (The grace runs from that card: a bot's own UNO call
    /// meanwhile does not start it again.)
    fn person_exposed(&self, facts: &Facts<'_, Uno>) -> bool {
        let Some(exposed) = self.game.uno_exposed() else { return false };
        if facts.kind(exposed) != Some(SeatKind::Human) {
            return false;
        }
        let last = facts.recent.back().map(|e| e.version);
        facts
            .recent
            .iter()
            .rev()
            .take_while(|e| Some(e.version) == last)
            .any(|e| matches!(e.event, Event::CardPlayed { seat, .. } if seat == exposed))
    }

    /// The pause before a table of bots only deals the next round; `None` elsewhere (a person
    /// deals it when they have read the result).
    pub(crate) fn round_pause_ms(&self, facts: &Facts<'_, Uno>) -> Option<u64> {
        (facts.bots_only() && self.game.phase() == Phase::RoundOver).then_some(limits::ROUND_PAUSE_MS)
    }
}

impl Hosted for Uno {
    const KIND: store::Kind = store::Kind::UNO;
    const STAND_IN: Option<&'static str> = Some("heuristic");
    type Setup = UnoSetup;
    type Settings = UnoSettings;
    type Create = CreateTable;
    type Action = Action;
    type Event = Event;
    type Refusal = IllegalAction;
    type View = TableView;
    type Bot = Box<dyn Bot>;
    type Seen = Observation;
    type Told = update::Told;

    fn page(id: &str) -> String {
        crate::messages::invite_path(id)
    }

    async fn open(req: CreateTable, tables: &Tables) -> Result<Opening<Uno>, TableError> {
        let start = match &req.from {
            Some(from) => Some(replay::position_at(tables, from, &req).await?),
            None => None,
        };
        let rules = match &start {
            Some((rules, _, _)) => rules.clone(),
            None => build_rules(&req)?,
        };
        let players = req.seats.len();
        rules.check_players(players)?;
        if let Some((_, p, _)) = &start {
            if p.hands.len() != players {
                return Err(TableError::Invalid(format!("the position has {} seats, not {players}", p.hands.len())));
            }
        }
        let seed = req.seed.unwrap_or_else(|| rand::rngs::OsRng.next_u64());
        let rated = rated_preset(&req)?;
        let (position, started_from) = match start {
            Some((_, p, from)) => (Some(p), Some(from)),
            None => (None, None),
        };
        Ok(Opening {
            seats: req.seats,
            name: req.name,
            creator_seat: req.creator_seat,
            spectators: req.spectators.unwrap_or(true),
            turn_seconds: req.turn_seconds,
            bot_delay_ms: req.bot_delay_ms,
            seed,
            settings: UnoSettings { chosen_seed: req.seed.is_some(), started_from, rated },
            setup: UnoSetup { rules: Arc::new(rules), players, seed: req.seed, start: position },
        })
    }

    fn deal(setup: &UnoSetup, _: &mut UnoSettings) -> Result<(Uno, Vec<Event>), TableError> {
        let rules: Rules = (*setup.rules).clone();
        let mut deal = Vec::new();
        let (record, game) = match &setup.start {
            Some(position) => {
                let game = Game::from_position(rules.clone(), position).map_err(internal)?;
                (GameRecord::from_position(&rules, position.clone()), game)
            }
            None => {
                let seed = setup.seed.unwrap_or_else(|| rand::rngs::OsRng.next_u64());
                let record = GameRecord::new(&rules, setup.players, seed);
                let mut game = Game::new(rules, setup.players, seed).map_err(|e| TableError::Invalid(e.to_string()))?;
                game.restart_with_events(seed, &mut deal);
                (record, game)
            }
        };
        Ok((Uno { record, game }, deal))
    }

    fn rematch(&self, settings: &mut UnoSettings) -> Result<UnoSetup, TableError> {
        // A fresh deal from a seed nobody chose.
        settings.chosen_seed = false;
        settings.started_from = None;
        Ok(UnoSetup { rules: self.game.rules_arc().clone(), players: self.game.players(), seed: None, start: None })
    }

    fn undealt(&self, settings: &UnoSettings) -> UnoSetup {
        let seed = (settings.chosen_seed && self.record.start.is_none()).then_some(self.record.seed);
        UnoSetup {
            rules: self.game.rules_arc().clone(),
            players: self.game.players(),
            seed,
            start: self.record.start.clone(),
        }
    }

    fn stored_setup(setup: &UnoSetup) -> Result<store::Header, TableError> {
        // As a record's header: the rules, the seats, the start, and the chosen seed (0 when
        // none is chosen yet: the settings say which).
        let header = match &setup.start {
            Some(p) => GameRecord::from_position(&setup.rules, p.clone()),
            None => GameRecord::new(&setup.rules, setup.players, setup.seed.unwrap_or(0)),
        };
        store::Header::new(&header).map_err(internal)
    }

    fn unstored_setup(header: &store::Header, settings: &UnoSettings) -> Result<UnoSetup, String> {
        let record: GameRecord = header.decode().map_err(|e| e.to_string())?;
        let game = record.start().map_err(|e| e.to_string())?;
        let seed = (settings.chosen_seed && record.start.is_none()).then_some(record.seed);
        Ok(UnoSetup { rules: game.rules_arc().clone(), players: record.players, seed, start: record.start })
    }

    fn header(&self) -> Result<store::Header, TableError> {
        // The record without its actions: those are the store's log.
        let header = GameRecord { actions: Vec::new(), ..self.record.clone() };
        store::Header::new(&header).map_err(internal)
    }

    fn restore(header: &store::Header, log: &[store::Entry]) -> Result<host::Restored<Uno>, String> {
        let mut record: GameRecord = header.decode().map_err(|e| e.to_string())?;
        if record.engine_version != uno::ENGINE_VERSION {
            tracing::warn!(
                stored = %record.engine_version,
                running = uno::ENGINE_VERSION,
                "a table stored by another engine version is replayed by this one"
            );
        }
        for entry in log {
            let m: Move = entry.decode().map_err(|e| e.to_string())?;
            record.actions.push(m);
        }
        let mut events = Vec::new();
        let game = record
            .replay_with_events(|step, evs| events.extend(evs.into_iter().map(|e| (step as u64, e))))
            .map_err(|e| e.to_string())?;
        Ok((Uno { record, game }, events))
    }

    fn upto(&self, plies: u64) -> Result<Uno, String> {
        let mut record = self.record.clone();
        record.actions.truncate(plies as usize);
        let game = record.replay().map_err(|e| e.to_string())?;
        Ok(Uno { record, game })
    }

    fn check(&self, seat: Seat, action: &Action) -> Result<(), IllegalAction> {
        self.game.check(seat, *action)
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        let events = self.game.apply(seat, action)?;
        self.record.push(seat, action);
        Ok(events)
    }

    fn logged(seat: Seat, action: &Action) -> Result<store::Entry, TableError> {
        store::Entry::new(&Move { seat, action: *action }).map_err(internal)
    }

    fn unlogged(entry: &store::Entry) -> Result<(Seat, Action), String> {
        let m: Move = entry.decode().map_err(|e| e.to_string())?;
        Ok((m.seat, m.action))
    }

    fn plies(&self) -> u64 {
        self.record.actions.len() as u64
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    fn turn(&self, facts: &Facts<'_, Uno>) -> Option<Seat> {
        if self.game.phase() == Phase::RoundOver {
            // At a table of bots only, the first bot deals after the round pause; with a person
            // seated, a person deals (the result stays up until then, or their timer runs out).
            let want = if facts.bots_only() { SeatKind::Bot } else { SeatKind::Human };
            return host::seats::all(facts.seats.len()).find(|&s| facts.kind(s) == Some(want));
        }
        Some(self.game.current())
    }

    fn pace(&self, _seat: Seat, facts: &Facts<'_, Uno>, pace: Duration) -> Pace {
        if let Some(pause) = self.round_pause_ms(facts) {
            return Pace::After(Duration::from_millis(pause));
        }
        Pace::After(if self.person_exposed(facts) { pace.max(HUMAN_CATCH_GRACE) } else { pace })
    }

    fn timeout_action(&self, seat: Seat) -> Option<(Action, bool)> {
        let action = default_action(&self.game.legal_actions_for(seat))?;
        Some((action, action == Action::Draw))
    }

    fn bot(name: &str, seed: u64) -> Result<(String, Box<dyn Bot>), TableError> {
        let spec = name.parse::<BotSpec>()?;
        Ok((spec.to_string(), build_bot(spec, seed)))
    }

    fn seen(&self, seat: Seat) -> Observation {
        self.game.observation(Some(seat))
    }

    fn choose(bot: &mut Box<dyn Bot>, seen: &Observation) -> Option<Action> {
        (!seen.legal_actions.is_empty()).then(|| bot.choose(seen))
    }

    fn fallback(seen: &Observation) -> Option<Action> {
        seen.legal_actions.first().copied()
    }

    fn view(&self, facts: &Facts<'_, Uno>, viewer: Viewer, shown: host::Shown<'_, Event>) -> TableView {
        view::dealt(self, facts, viewer, shown)
    }

    fn waiting_view(setup: &UnoSetup, facts: &Facts<'_, Uno>, viewer: Viewer) -> TableView {
        view::waiting(&setup.rules, facts, viewer)
    }

    fn updates(
        &self,
        facts: &Facts<'_, Uno>,
        events: &[host::Logged<Event>],
        told: &mut [update::Told],
        watchers: &[usize],
    ) -> Option<Vec<Option<Text>>> {
        let change = update::Change {
            game: &self.game,
            status: facts.status,
            version: facts.version,
            generation: facts.generation,
            turn_ms_left: facts.turn_ms_left,
            turn_seat: facts.turn_seat,
            round_pause_ms: self.round_pause_ms(facts),
            events,
            watchers,
        };
        update::render(&change, told).ok()
    }

    fn told(&self, facts: &Facts<'_, Uno>, seat: Seat) -> update::Told {
        update::Told::now(&self.game, facts.status, seat)
    }

    fn summary(facts: &Facts<'_, Uno>, game: Option<&Uno>, setup: Option<&UnoSetup>) -> Option<TableSummary> {
        let rules = match (game, setup) {
            (Some(g), _) => g.game.rules().name().to_string(),
            (None, Some(s)) => s.rules.name().to_string(),
            (None, None) => return None,
        };
        let seats = facts.occupants();
        let people = seats.iter().filter(|s| s.kind == SeatKind::Human).count();
        Some(TableSummary {
            id: facts.id.to_string(),
            status: facts.status,
            rules,
            open_seats: seats.iter().filter(|s| !s.taken).count(),
            seats,
            spectators: facts.spectators,
            chosen_seed: facts.settings.chosen_seed,
            started_from: facts.settings.started_from.clone(),
            version: facts.version,
            progress: game.map(|g| crate::messages::Progress {
                round: g.game.round(),
                turns: g.game.turns(),
                scores: g.game.scores().to_vec(),
                target: g.game.rules().target(),
            }),
            people,
        })
    }

    fn kept(&self, facts: &Facts<'_, Uno>) -> Result<Kept, TableError> {
        records::kept(self, facts)
    }

    fn rated_preset(settings: &UnoSettings) -> Option<&str> {
        settings.rated.as_deref()
    }

    fn places(&self) -> Option<Vec<u8>> {
        Some(places(&self.game))
    }

    fn is_kept_as(&self, r: &store::GameResult) -> bool {
        r.record
            .decode::<records::KeptGame>()
            .is_ok_and(|k| k.record.seed == self.record.seed && k.record.actions.len() == self.record.actions.len())
    }
}

#[cfg(test)]
mod bot_panic_tests;
#[cfg(test)]
mod closed_tests;
