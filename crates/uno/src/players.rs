//! How many seats a table has: a count checked once, when it is made, so the engine's seat
//! arithmetic (seat masks, next-seat tables) never meets a count it was not built for.

use std::fmt;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::card::Seat;

/// The most seats a table can have.
pub const MAX_PLAYERS: usize = 10;

/// A number of players in `2..=`[`MAX_PLAYERS`]. Made by [`PlayerCount::new`] (any table) or
/// [`Rules::check_players`](crate::Rules::check_players) (a table those rules can seat and deal);
/// [`Game::player_count`](crate::Game::player_count) gives a game's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "usize", into = "usize")]
pub struct PlayerCount(u8);

/// A player count outside `2..=`[`MAX_PLAYERS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("a table seats 2 to {MAX_PLAYERS} players, not {0}")]
pub struct PlayerCountError(pub usize);

impl PlayerCount {
    /// The fewest players a table has.
    pub const MIN: PlayerCount = PlayerCount(2);
    /// The most players a table has.
    pub const MAX: PlayerCount = PlayerCount(MAX_PLAYERS as u8);

    /// `players`, if a table can have that many.
    ///
    /// # Errors
    /// [`PlayerCountError`] when `players` is outside `2..=`[`MAX_PLAYERS`].
    pub const fn new(players: usize) -> Result<PlayerCount, PlayerCountError> {
        if players < 2 || players > MAX_PLAYERS {
            return Err(PlayerCountError(players));
        }
        Ok(PlayerCount(players as u8))
    }

    /// The count as a number.
    #[inline]
    pub const fn get(self) -> usize {
        self.0 as usize
    }

    /// Whether `seat` is one of this table's.
    #[inline]
    pub const fn has(self, seat: Seat) -> bool {
        seat.0 < self.0
    }

    /// Every seat, in seat order.
    pub fn seats(self) -> impl Iterator<Item = Seat> {
        (0..self.0).map(Seat)
    }
}

impl TryFrom<usize> for PlayerCount {
    type Error = PlayerCountError;
    fn try_from(players: usize) -> Result<PlayerCount, PlayerCountError> {
        PlayerCount::new(players)
    }
}

impl From<PlayerCount> for usize {
    fn from(count: PlayerCount) -> usize {
        count.get()
    }
}

impl fmt::Display for PlayerCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_two_to_ten_players_make_a_count() {
        for n in [0, 1, MAX_PLAYERS + 1, 16, 255, 256, usize::MAX] {
            assert_eq!(PlayerCount::new(n), Err(PlayerCountError(n)), "{n}");
        }
        for n in 2..=MAX_PLAYERS {
            assert_eq!(PlayerCount::new(n).map(PlayerCount::get), Ok(n));
        }
        assert_eq!(PlayerCountError(11).to_string(), "a table seats 2 to 10 players, not 11");
    }

    #[test]
    fn a_count_knows_its_seats_and_reads_back_from_json_checked() {
        let four = PlayerCount::new(4).expect("fits");
        assert_eq!(four.seats().collect::<Vec<_>>(), [Seat(0), Seat(1), Seat(2), Seat(3)]);
        assert!(four.has(Seat(3)) && !four.has(Seat(4)) && !four.has(Seat(255)));
        assert_eq!(serde_json::to_string(&four).expect("json"), "4");
        assert_eq!(serde_json::from_str::<PlayerCount>("4").expect("reads"), four);
        assert!(serde_json::from_str::<PlayerCount>("11").is_err());
        assert!(serde_json::from_str::<PlayerCount>("1").is_err());
    }
}
