//! Why a batch cannot be built or stepped.

use thiserror::Error;
use uno::{RulesError, SetupError};

use crate::space::action;

/// Why an environment cannot be built or stepped. Stepping checks every action first, and a
/// refused step changes nothing.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EnvError {
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("a batch needs at least one environment")]
    NoEnvironments,
    #[error("no learner seat: name at least one seat from 0 to {max}")]
    NoLearner { max: usize },
    #[error("learner seat {seat} is not at a table of {players}")]
    LearnerSeat { seat: usize, players: usize },
    #[error("learner seat {0} is named twice")]
    DuplicateLearner(usize),
    #[error("{bot_seats} seats are bots but {given} opponents were named (name one for all, or one per bot seat)")]
    Opponents { bot_seats: usize, given: usize },
    #[error("max_actions must be at least 1")]
    MaxActions,
    #[error("max_stall must be at least 1")]
    MaxStall,
    #[error("expected {expected} actions (one per environment), got {got}")]
    ActionCount { expected: usize, got: usize },
    #[error("environment {env}: action {action} is outside the action space 0..{count}", count = action::COUNT)]
    OutOfRange { env: usize, action: i64 },
    #[error("environment {env}: action {action} ({name}) is not legal for seat {seat} now")]
    Illegal { env: usize, action: usize, name: String, seat: usize },
    #[error("environment {env} has finished its episode: reset it first")]
    Finished { env: usize },
    #[error("could not start the step threads: {0}")]
    Threads(String),
    #[error("buffer '{name}' holds {got} values, expected {expected}")]
    Buffer { name: &'static str, got: usize, expected: usize },
}
