//! The names and layout of the action and observation spaces, and the episode seeds.

use pyo3::prelude::*;
use uno_env::{action, obs, MAX_SEATS};

/// The text of each card index (`colour × 13 + face`, then Wild and Wild Draw Four).
#[pyfunction]
pub(crate) fn card_names() -> Vec<String> {
    (0..uno_env::space::KINDS).filter_map(uno::Card::from_index).map(|c| c.to_string()).collect()
}

/// The name of each action index.
#[pyfunction]
pub(crate) fn action_names() -> Vec<String> {
    (0..action::COUNT).map(|i| uno_env::action_name(i).unwrap_or_default()).collect()
}

/// The deal seed of episode `episode` of environment `env` in a vector env seeded `seed`.
#[pyfunction]
pub(crate) fn episode_seed(seed: u64, env: u64, episode: u64) -> u64 {
    seeding::episode_seed(seed, env, episode)
}

/// The observation layout: block name → (offset, length).
#[pyfunction]
pub(crate) fn observation_layout() -> Vec<(&'static str, usize, usize)> {
    use uno_env::space::{COLORS, KINDS};
    vec![
        ("hand", obs::HAND, KINDS),
        ("top", obs::TOP, KINDS),
        ("color", obs::COLOR, COLORS),
        ("hand_sizes", obs::HAND_SIZES, MAX_SEATS),
        ("uno_called", obs::UNO_CALLED, MAX_SEATS),
        ("uno_exposed", obs::UNO_EXPOSED, MAX_SEATS),
        ("seated", obs::SEATED, MAX_SEATS),
        ("current", obs::CURRENT, MAX_SEATS),
        ("direction", obs::DIRECTION, 1),
        ("pending", obs::PENDING, 1),
        ("phase", obs::PHASE, obs::PHASES),
        ("role", obs::ROLE, 2),
        ("drawn", obs::DRAWN, KINDS),
        ("discard", obs::DISCARD, KINDS),
        ("draw_pile", obs::DRAW_PILE, 1),
    ]
}
