//! RLCard's view of a game: its 4×4×15 observation planes.

use numpy::ndarray::Array3;
use uno::game::Game as Engine;
use uno::Seat;

/// RLCard's planes for `seat` (see `Game.rlcard_planes`).
pub(crate) fn planes(game: &Engine, seat: Seat) -> Array3<i64> {
    const ROW: [usize; 4] = [0, 3, 1, 2]; // red, yellow, green, blue → r, g, b, y
    let mut counts = [[0u8; 15]; 4];
    for &card in game.hand(seat) {
        match card.color() {
            Some(c) => counts[ROW[c.index()]][card.face_index()] += 1,
            None => counts.iter_mut().for_each(|row| row[card.face_index()] += 1),
        }
    }
    let mut planes = Array3::<i64>::zeros((4, 4, 15));
    for (r, row) in counts.iter().enumerate() {
        for (t, &n) in row.iter().enumerate() {
            planes[[usize::from(n.min(2)), r, t]] = 1;
        }
    }
    let top = game.top();
    match game.color() {
        Some(c) => planes[[3, ROW[c.index()], top.face_index()]] = 1,
        // A first-card Wild waiting for its colour: every row.
        None => (0..4).for_each(|r| planes[[3, r, top.face_index()]] = 1),
    }
    planes
}
