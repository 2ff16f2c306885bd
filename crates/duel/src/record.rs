//! Replays: a game's size, difficulty and seed with every accepted action (the user's and the
//! computer's, a computer move kept as the move it made) rebuild it exactly, with no search.
//! This is what a store keeps of a game: the record without its actions as the header, and each
//! [`LoggedAction`] as a line of the log.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::error::DuelError;
use crate::game::{Action, DuelGame, Event};
use crate::key::Key;
use crate::search::Difficulty;

/// Who took a logged action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// The person at the board (red).
    User,
    /// The computer opponent (black).
    Computer,
}

/// One accepted action and who took it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LoggedAction {
    /// Who took it.
    pub by: Actor,
    /// What was taken: a computer move is kept as the move it made, so a replay needs no search.
    pub action: Action,
}

/// Everything needed to rebuild a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The engine that recorded it (`duel VERSION`).
    pub engine: String,
    /// The grid's number of columns.
    pub width: u8,
    /// The grid's number of rows.
    pub height: u8,
    /// How hard the computer played.
    pub difficulty: Difficulty,
    /// Seeds the computer's random choices (with the number of computer moves before). In JSON
    /// a decimal string (a number, as older records and stored headers wrote it, is read too).
    #[serde(with = "seeding::wide")]
    pub seed: u64,
    /// Left out when empty, so a header (a record without actions) reads as before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<LoggedAction>,
}

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// The grid size is refused by the engine.
    #[error("the record's grid: {0}")]
    Size(DuelError),
    /// A logged action is refused where it stands.
    #[error("action {index} ({by:?}) is refused: {reason}")]
    Refused {
        /// The action's place in the log, from 0.
        index: usize,
        /// Who took it.
        by: Actor,
        /// The engine's refusal.
        reason: DuelError,
    },
}

impl GameRecord {
    /// A record of a new game, and the game (checked: the size must be one the engine takes).
    ///
    /// # Errors
    ///
    /// The engine's [`DuelError`] when it refuses the grid size.
    pub fn new(width: u8, height: u8, difficulty: Difficulty, seed: u64) -> Result<(GameRecord, DuelGame), DuelError> {
        let game = DuelGame::new(width, height)?;
        let engine = format!("duel {}", env!("CARGO_PKG_VERSION"));
        Ok((GameRecord { engine, width, height, difficulty, seed, actions: Vec::new() }, game))
    }

    /// The same record without its actions: what a store keeps as the game's header.
    pub fn header(&self) -> GameRecord {
        GameRecord { actions: Vec::new(), ..self.clone() }
    }

    /// The game before any action.
    ///
    /// # Errors
    ///
    /// [`ReplayError::Size`] when the engine refuses the recorded grid size.
    pub fn start(&self) -> Result<DuelGame, ReplayError> {
        DuelGame::new(self.width, self.height).map_err(ReplayError::Size)
    }

    /// Applies every action, checking each one.
    ///
    /// # Errors
    ///
    /// [`ReplayError::Size`] for a grid the engine refuses, [`ReplayError::Refused`] for the
    /// first action it refuses where it stands.
    pub fn replay(&self) -> Result<DuelGame, ReplayError> {
        self.replay_with_events(|_, _, _| {})
    }

    /// [`GameRecord::replay`], handing `on` each action with the game as it was before it and
    /// the events it caused (what a page's history is rebuilt from).
    ///
    /// # Errors
    ///
    /// As [`GameRecord::replay`].
    pub fn replay_with_events(
        &self,
        mut on: impl FnMut(&DuelGame, &LoggedAction, &[Event]),
    ) -> Result<DuelGame, ReplayError> {
        let mut game = self.start()?;
        for (index, logged) in self.actions.iter().enumerate() {
            let before = game.clone();
            let events = game.apply(logged.action.clone()).map_err(|reason| ReplayError::Refused {
                index,
                by: logged.by,
                reason,
            })?;
            on(&before, logged, &events);
        }
        Ok(game)
    }
}

/// The move that caused `events` (the events of one move or computer move) as the action that
/// replays it, so a computer's move is logged as what it did, not as a search to run again.
pub fn move_action(events: &[Event]) -> Option<Action> {
    events.iter().find_map(|e| match e {
        Event::Moved { from, dir, .. } => Some(Action::Move { cell: *from, key: Key::Dir(*dir) }),
        _ => None,
    })
}
