//! The rule sets compiled into the engine, as their shipped TOML.

/// The presets compiled into the engine, in the order `tabletop uno rules --list` shows them.
pub const PRESET_NAMES: [&str; 6] = ["official", "uno-engine", "cs410", "two-color", "csce322", "rlcard"];

const PRESET_FILES: [(&str, &str); 6] = [
    ("official", include_str!("../../presets/official.toml")),
    ("uno-engine", include_str!("../../presets/uno-engine.toml")),
    ("cs410", include_str!("../../presets/cs410.toml")),
    ("two-color", include_str!("../../presets/two-color.toml")),
    ("csce322", include_str!("../../presets/csce322.toml")),
    ("rlcard", include_str!("../../presets/rlcard.toml")),
];

/// The shipped TOML text of a preset, if `name` is one.
pub(super) fn shipped(name: &str) -> Option<&'static str> {
    PRESET_FILES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}
