//! `tabletop._core`: the engine, the bots and the batched environment for Python.
//!
//! Thin on purpose: every rule lives in `uno`, every environment promise in `uno-env`; this
//! module converts arguments, fills numpy arrays in place and turns errors into `ValueError`.
//! One idea a module: `vec_env` (the batched environment and its arrays), `game` (one game,
//! its observations and copies), `rlcard` (RLCard's planes and per-step state), `bot` (the
//! project's bots), `spaces` (the names and layout of the action and observation spaces).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use numpy::PyArray1;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use uno::game::Game as Engine;
use uno::{Rules, RulesConfig, Seat};
use uno_env::{action, obs, MAX_SEATS};

mod bot;
mod game;
mod observation;
mod rlcard;
mod spaces;
mod vec_env;

pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A preset name, or the text of a rules file (TOML or JSON). Parsed rules are kept by their
/// text (a few dozen at most): the adapters deal a new game every episode, and parsing the
/// rules costs more than dealing.
pub(crate) fn load_rules(rules: &str) -> PyResult<Arc<Rules>> {
    const KEPT: usize = 64;
    static PARSED: OnceLock<Mutex<HashMap<String, Arc<Rules>>>> = OnceLock::new();
    let parsed = PARSED.get_or_init(Mutex::default);
    if let Some(found) = parsed.lock().unwrap_or_else(PoisonError::into_inner).get(rules) {
        return Ok(found.clone());
    }
    let trimmed = rules.trim();
    let loaded = if uno::PRESET_NAMES.contains(&trimmed) {
        Rules::preset(trimmed)
    } else if trimmed.contains('=') || trimmed.starts_with('{') {
        RulesConfig::parse(trimmed).and_then(Rules::new)
    } else {
        Rules::preset(trimmed)
    };
    let loaded = loaded.map(Arc::new).map_err(value_error)?;
    let mut kept = parsed.lock().unwrap_or_else(PoisonError::into_inner);
    if kept.len() >= KEPT {
        kept.clear();
    }
    kept.insert(rules.to_string(), loaded.clone());
    Ok(loaded)
}

pub(crate) fn seat_arg(game: &Engine, seat: Option<usize>) -> PyResult<Seat> {
    match seat {
        None => Ok(game.current()),
        Some(s) if s < game.players() => {
            Seat::all(game.players()).nth(s).ok_or_else(|| PyIndexError::new_err("no such seat"))
        }
        Some(s) => Err(PyIndexError::new_err(format!("seat {s} is not at a table of {}", game.players()))),
    }
}

/// An observation vector and its action mask.
pub(crate) type ObsAndMask<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>);

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<vec_env::UnoVecEnv>()?;
    m.add_class::<game::Game>()?;
    m.add_class::<observation::Observation>()?;
    m.add_class::<bot::Bot>()?;
    m.add_function(wrap_pyfunction!(spaces::action_names, m)?)?;
    m.add_function(wrap_pyfunction!(spaces::card_names, m)?)?;
    m.add_function(wrap_pyfunction!(spaces::episode_seed, m)?)?;
    m.add_function(wrap_pyfunction!(spaces::observation_layout, m)?)?;
    m.add_function(wrap_pyfunction!(rlcard::rlcard_action_names, m)?)?;
    m.add_function(wrap_pyfunction!(rlcard::rlcard_faithful_action_names, m)?)?;
    m.add("DEFAULT_MAX_ACTIONS", uno_env::DEFAULT_MAX_ACTIONS)?;
    m.add("DEFAULT_MAX_STALL", uno_env::DEFAULT_MAX_STALL)?;
    // A stall bound that never cuts (what `max_stall=None` means).
    m.add("NO_STALL_BOUND", u32::MAX)?;
    m.add("OBS_SIZE", obs::SIZE)?;
    m.add("OBS_LAYOUT_VERSION", obs::LAYOUT_VERSION)?;
    m.add("NUM_ACTIONS", action::COUNT)?;
    m.add("MAX_SEATS", MAX_SEATS)?;
    m.add("DECLINE", action::DECLINE)?;
    m.add("PRESET_NAMES", uno::PRESET_NAMES.to_vec())?;
    m.add("BOT_NAMES", uno_bots::BOT_NAMES.to_vec())?;
    Ok(())
}
