//! Rated tables: what a game's end (or a seat leaving it) does to its players' ratings.
//!
//! A table is rated when its game names a rated preset ([`Hosted::rated_preset`]: the creator
//! asked, and the rules are a preset as it ships) and every seat is a signed-in person's, one
//! seat each (the joins see to it: `lifecycle.rs`). Its games count in the pool of their preset
//! and table size (`official/table`); the rating code is `league`'s (Weng-Lin over finishing
//! places, the fitted model). The store rates a game in the transaction that keeps its result,
//! once per game of the table (its `generation`), so acknowledged means rated.
//!
//! Leaving a rated game in play rates it at once: the leaver last, everyone else tied first.
//! That game is then rated: sitting down again, leaving again, or finishing it changes no
//! rating (its result is kept at its end as any game's), so a rating is never farmed by
//! leaving and rejoining.

use league::rating::RatingFields;
use league::{Finish, Model, Place, Pool, PresetName, Rating, Time};
use store::people::{RatedGame, RatedSeat, Rater, RatingState};

use super::seats::Meta;
use super::{Hosted, Seat};
use crate::messages::SeatRating;

/// A rated table's turn limit when its creator gives none: a player who walks away is played
/// for (drawing, passing) until the game ends, and finishes where that leaves them.
pub const RATED_TURN_SECONDS: u32 = 60;

/// What a seat's finish is stored as in a rating's history.
fn finish_text(f: Finish) -> String {
    match f {
        Finish::Placed(p) => p.get().to_string(),
        Finish::Left => "left".into(),
    }
}

fn state_of(r: &Rating) -> RatingState {
    RatingState {
        mean: r.mean(),
        deviation: r.deviation(),
        games: i64::from(r.games()),
        last_played: r.last_played().map(|t| t.millis() as i64),
    }
}

/// The rating a stored state holds.
pub(crate) fn rating_of(s: &RatingState) -> Result<Rating, String> {
    Rating::from_fields(RatingFields {
        mean: s.mean,
        deviation: s.deviation,
        games: u32::try_from(s.games.max(0)).unwrap_or(u32::MAX),
        last_played: s.last_played.map(|t| Time::from_millis(t.max(0) as u64)),
    })
    .map_err(|e| e.to_string())
}

/// The rater of a game that ended at `now` with these finishes (seat order).
fn rater(finishes: Vec<Finish>, now: i64) -> Rater {
    Box::new(move |before: &[Option<RatingState>]| {
        let seats = before
            .iter()
            .zip(&finishes)
            .map(|(b, f)| Ok(league::RatedSeat::new(b.as_ref().map(rating_of).transpose()?.unwrap_or_default(), *f)))
            .collect::<Result<Vec<_>, String>>()?;
        let after = Model::FITTED.rate(&seats, Time::from_millis(now.max(0) as u64)).map_err(|e| e.to_string())?;
        Ok(after.iter().map(state_of).collect())
    })
}

/// The pool a rated table's games count in (`official/table`), or `None` for a casual table.
pub(crate) fn pool<G: Hosted>(meta: &Meta<G::Settings>) -> Option<String> {
    let preset: PresetName = G::rated_preset(&meta.game)?.parse().ok()?;
    Pool::of(preset, meta.seats.len()).ok().map(|p| p.to_string())
}

/// The rating of table `id`'s current game with these finishes, unless the table is casual,
/// a seat is not a signed-in person's, or the game was rated already (a seat left it).
pub(crate) fn rated<G: Hosted>(id: &str, meta: &Meta<G::Settings>, finishes: Vec<Finish>) -> Option<RatedGame> {
    let pool = pool::<G>(meta)?;
    if meta.rated_early == Some(meta.generation) || finishes.len() != meta.seats.len() {
        return None;
    }
    let seats = meta
        .seats
        .iter()
        .zip(&finishes)
        .map(|(s, f)| s.account.clone().map(|account| RatedSeat { account, finish: finish_text(*f) }))
        .collect::<Option<Vec<_>>>()?;
    Some(RatedGame {
        game_id: id.to_string(),
        result: None,
        game: i64::from(meta.generation),
        pool,
        seats,
        rater: rater(finishes, super::person::now_ms()),
    })
}

/// What a seat of a rated table shows of `account`'s rating in the table's pool, as of `now`
/// (a newcomer to the pool: the starting rating, provisional). `None` at a casual table, for
/// a store that keeps no people, or when the store cannot be read: the seat is taken all the
/// same, without its mark.
pub(crate) async fn seat_rating<G: Hosted>(
    host: &super::Tables,
    meta: &Meta<G::Settings>,
    account: &str,
) -> Option<SeatRating> {
    let pool = pool::<G>(meta)?;
    let people = host.store().people()?;
    let ratings = match super::store_read(people.ratings(account)).await {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!(error = %e, "a seat's rating was not read");
            return None;
        }
    };
    let rating = match ratings.into_iter().find(|r| r.pool == pool) {
        Some(r) => rating_of(&r.rating).ok()?,
        None => Rating::default(),
    };
    let now = Time::from_millis(super::person::now_ms().max(0) as u64);
    let shown = Model::FITTED.shown(&rating, now);
    Some(SeatRating { points: shown.points.0, provisional: shown.provisional })
}

/// Every signed-in seat's mark as of now (a rematch's deal: the last game moved them).
pub(crate) async fn mark_seats<G: Hosted>(host: &super::Tables, meta: &mut Meta<G::Settings>) {
    for i in 0..meta.seats.len() {
        let rating = match meta.seats[i].account.clone() {
            Some(a) => seat_rating::<G>(host, meta, &a).await,
            None => None,
        };
        meta.seats[i].rating = rating;
    }
}

/// The finishes of a game over: its places.
pub(crate) fn placed(places: &[u8]) -> Option<Vec<Finish>> {
    places.iter().map(|&p| Place::new(p).ok().map(Finish::Placed)).collect()
}

/// The finishes when `leaver` leaves a game in play: last for the leaver, first for the rest.
pub(crate) fn left(seats: usize, leaver: Seat) -> Vec<Finish> {
    (0..seats).map(|i| if i == leaver.index() { Finish::Left } else { Finish::Placed(Place::FIRST) }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rater_moves_the_winner_up_and_the_leaver_down() {
        let r = rater(left(3, Seat(2)), 1_000);
        let after = r(&[None, None, None]).expect("rated");
        assert_eq!(after.len(), 3);
        assert!(after[0].mean > 25.0 && after[1].mean > 25.0 && after[2].mean < 25.0, "{after:?}");
        assert!(after.iter().all(|a| a.games == 1 && a.last_played == Some(1_000)));
        let r = rater(placed(&[2, 1]).expect("places"), 2_000);
        let again = r(&[Some(after[0]), Some(after[2])]).expect("rated");
        assert!(again[0].mean < after[0].mean && again[1].mean > after[2].mean);
        assert_eq!(again[0].games, 2);
    }

    #[test]
    fn finishes_are_stored_as_places_or_left() {
        assert_eq!(finish_text(Finish::Left), "left");
        assert_eq!(
            placed(&[1, 2, 2]).expect("places").into_iter().map(finish_text).collect::<Vec<_>>(),
            ["1", "2", "2"]
        );
        assert!(placed(&[0, 1]).is_none());
    }
}
