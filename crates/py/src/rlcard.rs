//! RLCard's view of a game: its 4×4×15 observation planes, its names of the actions, and the
//! parts of one RLCard state computed in one call (the RLCard-compatible environment's step).

use numpy::ndarray::Array3;
use numpy::PyArray3;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyList, PyString};
use uno::game::Game as Engine;
use uno::Seat;
use uno_env::mapping::legal_mask_bits;
use uno_env::space::{action as a, COLORS, MAX_SEATS};

use crate::observation::Observation;

/// One RLCard state's parts: planes, legal ids, their names, the engine's observation.
pub(crate) type State<'py> = (Bound<'py, PyArray3<i64>>, Bound<'py, PyList>, Bound<'py, PyList>, Observation);

/// RLCard's colour letters, in the engine's colour order (red, yellow, green, blue).
const COLOR_LETTERS: [&str; COLORS] = ["r", "y", "g", "b"];
/// RLCard's traits of the coloured faces, in the engine's face order.
const TRAITS: [&str; 13] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "reverse", "draw_2"];

/// Each action index named as RLCard names its actions (`r-7`, `y-wild_draw_4`, `draw`), and
/// the decisions RLCard does not have as `verb-detail` (RLCard's agents split names on `-`).
pub(crate) fn action_names() -> Vec<String> {
    let mut names = Vec::with_capacity(a::COUNT);
    for c in COLOR_LETTERS {
        names.extend(TRAITS.iter().map(|t| format!("{c}-{t}")));
    }
    names.extend(COLOR_LETTERS.iter().map(|c| format!("{c}-wild")));
    names.extend(COLOR_LETTERS.iter().map(|c| format!("{c}-wild_draw_4")));
    names.extend(["draw", "pass-turn", "uno-self"].map(String::from));
    names.extend((1..MAX_SEATS).map(|k| format!("catch-{k}")));
    names.extend(["challenge-wd4", "accept-wd4"].map(String::from));
    names.extend(COLOR_LETTERS.iter().map(|c| format!("color-{c}")));
    names.extend((1..MAX_SEATS).map(|k| format!("swap-{k}")));
    names.push("decline-window".to_string());
    names
}

/// The names as Python strings, made once: a state's list of legal names shares them.
fn python_names(py: Python<'_>) -> &'static [Py<PyString>] {
    static NAMES: GILOnceCell<Vec<Py<PyString>>> = GILOnceCell::new();
    NAMES.get_or_init(py, || action_names().iter().map(|n| PyString::intern(py, n).unbind()).collect())
}

/// The RLCard state of `seat` (see `Game.rlcard_state`).
pub(crate) fn state<'py>(py: Python<'py>, game: &Engine, seat: Seat, capped: bool) -> PyResult<State<'py>> {
    let mut legal = Vec::new();
    if !capped && seat == game.current() && !game.is_round_over() {
        let mut mask = [0; a::COUNT];
        let bits = legal_mask_bits(game, seat, false, &mut Vec::new(), &mut mask);
        legal.extend((0..a::COUNT).filter(|&i| bits >> i & 1 == 1));
    }
    let names = python_names(py);
    let ids = PyList::new(py, &legal)?;
    let named = PyList::new(py, legal.iter().map(|&i| names[i].bind(py)))?;
    let planes = PyArray3::from_owned_array(py, planes(game, seat));
    Ok((planes, ids, named, Observation(game.observation(Some(seat)))))
}

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

/// RLCard's action names (`tabletop.rlcard.RLCARD_ACTION_NAMES`).
#[pyfunction]
pub(crate) fn rlcard_action_names() -> Vec<String> {
    action_names()
}
