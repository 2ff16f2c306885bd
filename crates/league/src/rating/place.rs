//! What a game's end says about each seat: a finishing place, or that the seat left.

use serde::{Deserialize, Serialize};

use super::{RateError, Rating};

/// A finishing place, 1 for the winner. Equal places are a tie (`1, 2, 2, 4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Place(u8);

impl Place {
    /// The winner's place.
    pub const FIRST: Place = Place(1);

    /// Place `n` (1 is first).
    ///
    /// # Errors
    /// [`RateError::PlaceZero`] for 0.
    pub const fn new(n: u8) -> Result<Place, RateError> {
        if n == 0 {
            Err(RateError::PlaceZero)
        } else {
            Ok(Place(n))
        }
    }

    /// The place as a number, 1 for first.
    pub const fn get(self) -> u8 {
        self.0
    }
}

impl TryFrom<u8> for Place {
    type Error = RateError;
    fn try_from(n: u8) -> Result<Place, RateError> {
        Place::new(n)
    }
}

impl From<Place> for u8 {
    fn from(p: Place) -> u8 {
        p.0
    }
}

/// How one seat of a rated game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Finish {
    /// It played to the end and finished here.
    Placed(Place),
    /// It left (resigned, abandoned, timed out for good) before the end: rated as last place,
    /// tied with whoever finished last, so leaving is never better than losing.
    Left,
}

/// One seat of a rated game: the rating its player held, and how the seat ended.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatedSeat {
    pub rating: Rating,
    pub finish: Finish,
}

impl RatedSeat {
    pub const fn new(rating: Rating, finish: Finish) -> RatedSeat {
        RatedSeat { rating, finish }
    }
}

/// The ranks the rating update reads, one per seat, 1 best: a leaver ranks with the table's
/// last place.
pub(super) fn ranks(seats: &[RatedSeat]) -> Result<Vec<usize>, RateError> {
    let n = seats.len();
    let mut ranks = Vec::with_capacity(n);
    for seat in seats {
        ranks.push(match seat.finish {
            Finish::Placed(p) if usize::from(p.get()) > n => {
                return Err(RateError::PlaceOutOfRange { place: p.get(), seats: n })
            }
            Finish::Placed(p) => usize::from(p.get()),
            Finish::Left => n,
        });
    }
    if !seats.iter().any(|s| matches!(s.finish, Finish::Placed(_))) {
        return Err(RateError::NobodyFinished);
    }
    Ok(ranks)
}
