//! Where a game stands: who must decide what. Its own module so that what a viewer is told
//! (`observation`) and the game that tells it (`game`) both read it without reading each other.

use serde::{Deserialize, Serialize};

use crate::card::Seat;

/// Where the game stands: who must decide what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The current player plays a card or draws (or, with a penalty pending, stacks or draws it).
    Play,
    /// The current player drew and decides about the drawn card.
    DrawnCard,
    /// The first card turned up is a wild: the current player names the colour.
    ChooseColor,
    /// A Wild Draw Four was played on the current player: challenge or accept.
    Challenge {
        /// The seat that played the Wild Draw Four.
        offender: Seat,
    },
    /// The current player played a 7 (7–0 rule) and chooses whom to swap hands with.
    ChooseSwap,
    /// The current player played a number card under the same-number rule and holds another
    /// card of that number: play one (the top card's number, any colour) or pass.
    SameNumber,
    /// A round of a match ended; `NextRound` deals the next.
    RoundOver,
    /// The game (or the match) is over.
    GameOver,
}

impl Phase {
    /// Whether the player to act is deciding on its own turn (what to play, a drawn card, a
    /// same-number run) rather than answering something: when it may call UNO for itself.
    pub fn is_own_turn(self) -> bool {
        matches!(self, Phase::Play | Phase::DrawnCard | Phase::SameNumber)
    }
}
