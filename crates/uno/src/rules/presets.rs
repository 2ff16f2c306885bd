//! The rule sets compiled into the engine, as their shipped TOML.

use super::{RulesConfig, RulesError};

/// The presets compiled into the engine, in the order `tabletop uno rules --list` shows them.
pub const PRESET_NAMES: [&str; 5] = ["official", "uno-engine", "cs410", "two-color", "csce322"];

const PRESET_FILES: [(&str, &str); 5] = [
    ("official", include_str!("../../presets/official.toml")),
    ("uno-engine", include_str!("../../presets/uno-engine.toml")),
    ("cs410", include_str!("../../presets/cs410.toml")),
    ("two-color", include_str!("../../presets/two-color.toml")),
    ("csce322", include_str!("../../presets/csce322.toml")),
];

/// The TOML text of a preset, as shipped.
///
/// # Errors
/// [`RulesError::UnknownPreset`] for a name not in [`PRESET_NAMES`].
pub fn preset_toml(name: &str) -> Result<&'static str, RulesError> {
    PRESET_FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
        .ok_or_else(|| RulesError::UnknownPreset(name.to_string()))
}

/// The configuration of a preset.
///
/// # Errors
/// [`RulesError::UnknownPreset`] for a name not in [`PRESET_NAMES`].
pub fn preset_config(name: &str) -> Result<RulesConfig, RulesError> {
    RulesConfig::from_toml(preset_toml(name)?)
}
