//! Seed 003's `uno-engine`-style API: a table of named players.
