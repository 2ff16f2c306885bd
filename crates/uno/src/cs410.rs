//! Seed 002's `GameState` API over the engine.
