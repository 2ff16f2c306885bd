//! What Duel's routes refuse, in Duel's words: no HTTP here (`crate::error` maps it). A leaf:
//! the routes (`crate::duel_api`) and the mapping both name it.

use duel::DuelError;
use thiserror::Error;

/// What Duel's routes refuse that is Duel's own (the rest, such as a full server or a ply that
/// is not there, is said with the table core's `TableError`). No HTTP here: `crate::error`
/// maps it.
#[derive(Debug, Error)]
pub enum DuelRefusal {
    /// A Duel action or grid size the engine refused: its message is the engine's text.
    #[error("{0}")]
    Engine(#[from] DuelError),
    #[error("There is no Duel game {0:?}. Start a new game.")]
    NoSuchGame(String),
    #[error(
        "A {width}x{height} grid has no room for a red and a black piece: make it at least 2 cells (for example 1x2)."
    )]
    GridTooSmall { width: u8, height: u8 },
    #[error("You already have {0} unfinished Duel games: finish one first.")]
    TooManyGames(usize),
}
