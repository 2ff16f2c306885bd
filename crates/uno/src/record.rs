//! Replays: `(engine version, rules, seed, players, actions)` rebuilds a game exactly; a
//! record may instead start from a [`Position`].

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::action::{Action, IllegalAction};
use crate::card::Seat;
use crate::game::{Game, SetupError};
use crate::position::{Position, PositionError};
use crate::rules::{Rules, RulesConfig, RulesError};

/// The version of the engine; a record made by another version may not replay the same.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// One accepted action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    pub seat: Seat,
    pub action: Action,
}

/// Everything needed to rebuild a game: what the store keeps and a replay file holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub engine_version: String,
    pub rules: RulesConfig,
    pub players: usize,
    pub seed: u64,
    /// The position the game starts from instead of a deal from `seed` (which then is the
    /// position's seed); `players` is its number of hands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<Position>,
    pub actions: Vec<Move>,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReplayError {
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("start position: {0}")]
    Position(#[from] PositionError),
    #[error("action {index} ({action} by seat {seat}) is illegal: {reason}")]
    Illegal { index: usize, seat: Seat, action: Action, reason: IllegalAction },
    #[error("record: {0}")]
    Syntax(String),
}

impl GameRecord {
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

    pub fn push(&mut self, seat: Seat, action: Action) {
        self.actions.push(Move { seat, action });
    }

    /// The game as dealt (or as its start position), before any action.
    pub fn start(&self) -> Result<Game, ReplayError> {
        let rules = Rules::new(self.rules.clone())?;
        match &self.start {
            Some(position) => Ok(Game::from_position(rules, position)?),
            None => Ok(Game::new(rules, self.players, self.seed)?),
        }
    }

    /// Deals and applies every action, checking each one.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        let mut game = self.start()?;
        for (index, m) in self.actions.iter().enumerate() {
            game.apply(m.seat, m.action).map_err(|reason| ReplayError::Illegal {
                index,
                seat: m.seat,
                action: m.action,
                reason,
            })?;
        }
        Ok(game)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<GameRecord, ReplayError> {
        serde_json::from_str(text).map_err(|e| ReplayError::Syntax(e.to_string()))
    }
}
