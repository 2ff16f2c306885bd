//! RLCard's view of a game: its 4×4×15 observation planes, its names of the actions, and the
//! parts of one RLCard state computed in one call (the RLCard-compatible environment's step);
//! and the faithful mode's, RLCard's own 61 actions and planes over the `rlcard` preset.

use numpy::ndarray::Array3;
use numpy::PyArray3;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyList, PyString};
use uno::game::Game as Engine;
use uno::{Action, Card, Color, Seat};
use uno_env::mapping::legal_mask_bits;
use uno_env::space::{action as a, COLORS, MAX_SEATS};

use crate::observation::Observation;
use crate::value_error;

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
        let bits = legal_mask_bits(game, seat, false, &mut mask);
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

// ---- The faithful mode: RLCard's own 61 actions and planes, on the `rlcard` preset ----

/// RLCard's colours in its own order (`r`, `g`, `b`, `y`: `rlcard/games/uno/card.py`), as
/// engine colours.
const RLCARD_COLORS: [Color; 4] = [Color::Red, Color::Green, Color::Blue, Color::Yellow];
/// RLCard's traits, the column of its planes and of its action ids (`utils.TRAIT_MAP`).
const RLCARD_TRAITS: [&str; 15] =
    ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "reverse", "draw_2", "wild", "wild_draw_4"];
/// RLCard's `draw` action, the last of its 61.
pub(crate) const RLCARD_DRAW: usize = 60;
/// The number of RLCard's UNO actions.
pub(crate) const RLCARD_ACTIONS: usize = 61;

/// The row of an engine colour in RLCard's planes and action ids.
fn rlcard_row(color: Color) -> usize {
    // Engine order red, yellow, green, blue; RLCard's r, g, b, y.
    [0, 3, 1, 2][color.index()]
}

/// RLCard's `ACTION_LIST` (`rlcard/games/uno/jsondata/action_space.json`): `r-0` … `y-wild_draw_4`
/// (colour × 15 + trait), then `draw`.
pub(crate) fn faithful_names() -> Vec<String> {
    let mut names: Vec<String> =
        ["r", "g", "b", "y"].iter().flat_map(|c| RLCARD_TRAITS.iter().map(move |t| format!("{c}-{t}"))).collect();
    names.push("draw".to_string());
    names
}

fn faithful_python_names(py: Python<'_>) -> &'static [Py<PyString>] {
    static NAMES: GILOnceCell<Vec<Py<PyString>>> = GILOnceCell::new();
    NAMES.get_or_init(py, || faithful_names().iter().map(|n| PyString::intern(py, n).unbind()).collect())
}

/// RLCard's id of an engine action: a play (a wild by the colour it names) or the draw;
/// `None` for the decisions RLCard's game does not have.
fn faithful_id(action: Action) -> Option<usize> {
    match action {
        Action::Draw => Some(RLCARD_DRAW),
        Action::Play { card, color } => {
            let color = card.color().or(color)?;
            Some(rlcard_row(color) * 15 + card.face_index())
        }
        _ => None,
    }
}

/// The engine action of RLCard id `id`, for the player to act.
pub(crate) fn faithful_action(id: usize) -> Option<Action> {
    if id == RLCARD_DRAW {
        return Some(Action::Draw);
    }
    let color = *RLCARD_COLORS.get(id / 15)?;
    let card = match id % 15 {
        13 => return Some(Action::Play { card: Card::WILD, color: Some(color) }),
        14 => return Some(Action::Play { card: Card::WILD_DRAW_FOUR, color: Some(color) }),
        t => Card::from_index(color.index() * 13 + t)?,
    };
    Some(Action::Play { card, color: None })
}

/// The legal actions of the player to act as RLCard's `UnoRound.get_legal_actions` lists them:
/// the hand's playable cards in hand order, a card held twice twice, a wild as its four colours
/// `r`, `g`, `b`, `y` where the first one appears; `draw` alone when nothing plays. (RLCard's
/// `raw_legal_actions` keep the repeats, its legal ids do not: `uno-rule-v1` picks among the
/// former.)
///
/// # Errors
/// A legal action RLCard's game has no id for (rules other than `rlcard`'s).
pub(crate) fn faithful_legal(game: &Engine) -> PyResult<Vec<usize>> {
    let legal = game.legal_actions();
    let mut ids = Vec::with_capacity(legal.len());
    for &a in &legal {
        if faithful_id(a).is_none() {
            return Err(value_error(format!("'{a}' has no RLCard action: the faithful mode plays the rlcard rules")));
        }
    }
    let mut seen = 0u64;
    for &card in game.hand(game.current()) {
        if card.is_wild() {
            if seen >> card.index() & 1 == 1 {
                continue;
            }
            seen |= 1 << card.index();
            for color in RLCARD_COLORS {
                if legal.contains(&Action::Play { card, color: Some(color) }) {
                    ids.push(rlcard_row(color) * 15 + card.face_index());
                }
            }
        } else if legal.contains(&Action::Play { card, color: None }) {
            ids.extend(faithful_id(Action::Play { card, color: None }));
        }
    }
    if legal.contains(&Action::Draw) {
        ids.push(RLCARD_DRAW);
    }
    Ok(ids)
}

/// RLCard's name of a card (`r-7`, `g-skip`, `y-draw_2`); a wild in the colour `wild`.
fn faithful_card(card: Card, wild: Color) -> String {
    let color = card.color().unwrap_or(wild);
    format!("{}-{}", ["r", "g", "b", "y"][rlcard_row(color)], RLCARD_TRAITS[card.face_index()])
}

/// RLCard's 4×4×15 planes of `seat` exactly as `rlcard/envs/uno.py` encodes them: plane 0
/// marks the kinds not held, planes 1 and 2 those held once and twice; a wild held marks plane
/// 1 in every row whatever its count (`utils.encode_hand`); plane 3 the top card, a wild in the
/// colour in play (`utils.encode_target`).
pub(crate) fn faithful_planes(game: &Engine, seat: Seat) -> Array3<i64> {
    let mut counts = [0u8; Card::KINDS];
    for &card in game.hand(seat) {
        counts[card.index()] = counts[card.index()].saturating_add(1);
    }
    let mut planes = Array3::<i64>::zeros((4, 4, 15));
    planes.index_axis_mut(numpy::ndarray::Axis(0), 0).fill(1);
    for card in Card::all() {
        let n = counts[card.index()];
        if n == 0 {
            continue;
        }
        let t = card.face_index();
        match card.color() {
            Some(c) => {
                let r = rlcard_row(c);
                planes[[0, r, t]] = 0;
                planes[[usize::from(n.min(2)), r, t]] = 1;
            }
            None => (0..4).for_each(|r| {
                planes[[0, r, t]] = 0;
                planes[[1, r, t]] = 1;
            }),
        }
    }
    let color = game.color().unwrap_or(Color::Red);
    planes[[3, rlcard_row(color), game.top().face_index()]] = 1;
    planes
}

/// One faithful RLCard state's parts: planes, legal ids (each once), the legal actions' names
/// as RLCard lists them (a card held twice twice), the hand as RLCard names it, the target,
/// every seat's hand size.
pub(crate) type FaithfulState<'py> =
    (Bound<'py, PyArray3<i64>>, Bound<'py, PyList>, Bound<'py, PyList>, Vec<String>, String, Vec<usize>);

/// The faithful RLCard state of `seat` (see `Game.rlcard_faithful_state`).
pub(crate) fn faithful_state<'py>(
    py: Python<'py>,
    game: &Engine,
    seat: Seat,
    capped: bool,
) -> PyResult<FaithfulState<'py>> {
    let listed =
        if !capped && seat == game.current() && !game.is_round_over() { faithful_legal(game)? } else { vec![] };
    let mut seen = 0u64;
    let mut distinct = Vec::with_capacity(listed.len());
    for &i in &listed {
        if seen >> i & 1 == 0 {
            seen |= 1 << i;
            distinct.push(i);
        }
    }
    let names = faithful_python_names(py);
    let ids = PyList::new(py, &distinct)?;
    let named = PyList::new(py, listed.iter().map(|&i| names[i].bind(py)))?;
    let planes = PyArray3::from_owned_array(py, faithful_planes(game, seat));
    // A hand's wilds are named in RLCard's colours in turn, as its deck colours one of each.
    let mut wilds = [0usize; 2];
    let hand = game
        .hand(seat)
        .iter()
        .map(|&c| {
            let k = usize::from(c == Card::WILD_DRAW_FOUR);
            let color = RLCARD_COLORS[wilds[k] % 4];
            wilds[k] += usize::from(c.is_wild());
            faithful_card(c, color)
        })
        .collect();
    let target = faithful_card(game.top(), game.color().unwrap_or(Color::Red));
    let sizes = Seat::all(game.players()).map(|s| game.hand(s).len()).collect();
    Ok((planes, ids, named, hand, target, sizes))
}

/// RLCard's `ACTION_LIST`, the faithful mode's 61 action names.
#[pyfunction]
pub(crate) fn rlcard_faithful_action_names() -> Vec<String> {
    faithful_names()
}
