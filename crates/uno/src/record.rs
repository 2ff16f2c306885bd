//! Replays: `(engine version, rules, seed, players, actions)` rebuilds a game exactly; a
//! record may instead start from a [`Position`].

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::action::{Action, IllegalAction};
use crate::card::Seat;
use crate::event::Event;
use crate::game::{Game, SetupError};
use crate::position::{Position, PositionError};
use crate::rules::{Rules, RulesConfig, RulesError};

/// The version of the engine; a record made by another version may not replay the same.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// One accepted action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Move {
    /// The seat that acted.
    pub seat: Seat,
    /// What it did.
    pub action: Action,
}

/// Everything needed to rebuild a game: what the store keeps and a replay file holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The [`ENGINE_VERSION`] that made the record.
    pub engine_version: String,
    /// The rules, as configured (the derived tables are rebuilt from them).
    pub rules: RulesConfig,
    /// How many seats play.
    pub players: usize,
    /// The seed every shuffle and random choice follows: [`Game::new`] deals from it (with a
    /// `start`, it is the position's seed). In JSON a decimal string (a number is read too).
    #[serde(with = "crate::wide")]
    pub seed: u64,
    /// The position the game starts from instead of a deal from `seed` (which then is the
    /// position's seed); `players` is its number of hands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<Position>,
    /// Every accepted action, in order.
    pub actions: Vec<Move>,
}

/// Why a record does not rebuild a game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// The record's rules do not make a rule set.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// The rules cannot deal for the record's number of players.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The start position is not a valid position under the record's rules.
    #[error("start position: {0}")]
    Position(#[from] PositionError),
    /// An action the game refuses: the record does not belong to this engine version, or it
    /// was altered.
    #[error("action {index} ({action} by seat {seat}) is illegal: {reason}")]
    Illegal {
        /// The action's place in [`GameRecord::actions`], from 0.
        index: usize,
        /// The seat that took it.
        seat: Seat,
        /// The action.
        action: Action,
        /// Why the game refused it.
        reason: IllegalAction,
    },
    /// The text is not a record's JSON; holds the parser's message.
    #[error("record: {0}")]
    Syntax(String),
}

impl ReplayError {
    /// Whether the record asks for more than the engine plays: rules past their limits (see
    /// [`RulesError::is_over_limit`]) or a start position whose own deck is
    /// ([`PositionError::is_over_limit`]). A table would refuse to play it; a server refuses to
    /// keep it.
    pub fn is_over_limit(&self) -> bool {
        match self {
            ReplayError::Rules(e) | ReplayError::Setup(SetupError::Rules(e)) => e.is_over_limit(),
            ReplayError::Position(e) => e.is_over_limit(),
            ReplayError::Illegal { .. } | ReplayError::Syntax(_) => false,
        }
    }
}

impl GameRecord {
    /// An empty record of the game [`Game::new`] deals with these arguments.
    pub fn new(rules: &Rules, players: usize, seed: u64) -> GameRecord {
        GameRecord {
            engine_version: ENGINE_VERSION.to_string(),
            rules: rules.config().clone(),
            players,
            seed,
            start: None,
            actions: Vec::new(),
        }
    }

    /// A record of a game that starts from `position` (checked when the record is replayed).
    pub fn from_position(rules: &Rules, position: Position) -> GameRecord {
        GameRecord {
            engine_version: ENGINE_VERSION.to_string(),
            rules: rules.config().clone(),
            players: position.hands.len(),
            seed: position.seed,
            start: Some(position),
            actions: Vec::new(),
        }
    }

    /// Appends an action the game accepted.
    pub fn push(&mut self, seat: Seat, action: Action) {
        self.actions.push(Move { seat, action });
    }

    /// The game as dealt (or as its start position), before any action.
    ///
    /// # Errors
    ///
    /// [`ReplayError::Rules`], [`ReplayError::Setup`] or [`ReplayError::Position`] when the
    /// record's rules, player count or start position do not make a game.
    pub fn start(&self) -> Result<Game, ReplayError> {
        self.start_with_events(&mut Vec::new())
    }

    /// [`GameRecord::start`], also giving the deal's events (none from a start position).
    fn start_with_events(&self, events: &mut Vec<Event>) -> Result<Game, ReplayError> {
        let rules = Rules::new(self.rules.clone())?;
        match &self.start {
            Some(position) => Ok(Game::from_position(rules, position)?),
            None => {
                let mut game = Game::new(rules, self.players, self.seed)?;
                game.restart_with_events(self.seed, events);
                Ok(game)
            }
        }
    }

    /// Deals and applies every action, checking each one.
    ///
    /// # Errors
    ///
    /// As [`GameRecord::start`], and [`ReplayError::Illegal`] for the first action the game
    /// refuses.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        self.replay_with_events(|_, _| {})
    }

    /// [`GameRecord::replay`], handing each step's events to `on`: the deal's as step 0, then
    /// action `i`'s as step `i + 1` (so a step is the number of actions applied after it). A
    /// server rebuilding a table after a restart keeps its recent events this way.
    ///
    /// # Errors
    ///
    /// As [`GameRecord::replay`].
    pub fn replay_with_events(&self, mut on: impl FnMut(usize, Vec<Event>)) -> Result<Game, ReplayError> {
        let mut deal = Vec::new();
        let mut game = self.start_with_events(&mut deal)?;
        on(0, deal);
        for (index, m) in self.actions.iter().enumerate() {
            let events = game.apply(m.seat, m.action).map_err(|reason| ReplayError::Illegal {
                index,
                seat: m.seat,
                action: m.action,
                reason,
            })?;
            on(index + 1, events);
        }
        Ok(game)
    }

    /// The record as pretty-printed JSON, the form of replay files and the store.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads a record written by [`GameRecord::to_json`].
    ///
    /// # Errors
    ///
    /// [`ReplayError::Syntax`] when the text is not a record's JSON. The record is not
    /// replayed: call [`GameRecord::replay`] to check it.
    pub fn from_json(text: &str) -> Result<GameRecord, ReplayError> {
        serde_json::from_str(text).map_err(|e| ReplayError::Syntax(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game played with its events kept as they happen, and its record.
    fn played(seed: u64) -> (GameRecord, Vec<(usize, Vec<Event>)>) {
        let rules = Rules::new(crate::rules::preset_config("official").expect("preset")).expect("rules");
        let mut record = GameRecord::new(&rules, 3, seed);
        let mut deal = Vec::new();
        let mut game = Game::new(rules, 3, seed).expect("game");
        game.restart_with_events(seed, &mut deal);
        let mut live = vec![(0, deal)];
        let mut pick = seed;
        while !game.is_over() && record.actions.len() < 400 {
            let seat = game.current();
            let legal = game.legal_actions_for(seat);
            if legal.is_empty() {
                break;
            }
            pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let action = legal[(pick >> 33) as usize % legal.len()];
            let events = game.apply(seat, action).expect("legal");
            record.push(seat, action);
            live.push((record.actions.len(), events));
        }
        (record, live)
    }

    #[test]
    fn a_replay_gives_the_events_the_game_gave() {
        for seed in 0..5 {
            let (record, live) = played(seed);
            assert!(live.len() > 1, "the game made no move");
            let mut replayed = Vec::new();
            let game = record.replay_with_events(|step, events| replayed.push((step, events))).expect("replays");
            assert_eq!(replayed, live, "seed {seed}");
            assert_eq!(game.state_hash(), record.replay().expect("replays").state_hash());
        }
    }

    #[test]
    fn a_replay_stops_at_an_illegal_action_with_its_index() {
        let (mut record, _) = played(7);
        record.actions.truncate(1);
        // A draw by a seat whose turn it is not (the official rules have no jump-in).
        let current = record.replay().expect("replays").current();
        let other = Seat((current.0 + 1) % 3);
        record.push(other, Action::Draw);
        let mut steps = 0;
        let err = record.replay_with_events(|_, _| steps += 1).expect_err("illegal");
        assert!(matches!(err, ReplayError::Illegal { index: 1, .. }), "{err}");
        assert_eq!(steps, 2, "the deal and the first action were handed over");
    }
}
