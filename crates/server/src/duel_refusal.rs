//! The Duel routes' own words for two of the host's refusals (`/api/duel`, whose page shows
//! them): no HTTP here (`crate::error` maps it). A leaf: the routes (`crate::duel_api`) and the
//! mapping both name it. The engine's refusals of a move are Duel's own `DuelError`s, carried by
//! the host as any game's.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum DuelRefusal {
    #[error("There is no Duel game {0:?}. Start a new game.")]
    NoSuchGame(String),
    #[error("You already have {0} unfinished Duel games: finish one first.")]
    TooManyGames(usize),
}
