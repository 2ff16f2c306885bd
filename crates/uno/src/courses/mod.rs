//! The course documents' own interfaces (the project's "seeds" 000–004), each a thin layer over
//! the engine or beside it. In code, "seed" means a generator's seed; these are courses.
//!
//! The engine's vocabulary (cards, rules, `Game`, actions, events) lives at the crate root; this
//! module holds what each seed document asks for in its own words:
//!
//! | module | seed | what it is |
//! | --- | --- | --- |
//! | [`notation`] | 000 | the `.uno` deck, discard and hands files |
//! | [`csce322`] | 000 | the four operations driven by the seed's move precedence |
//! | [`export`] | 000 | a `csce322` game's record written as `.uno` files at any point |
//! | [`cs410`] | 002 | `GameState`: `start_game`, `run_one_turn`, `is_game_over` over [`Game`](crate::Game) |
//! | [`uno_engine`] | 003 | the `uno-engine` package's `Table` of named players over [`Game`](crate::Game) |
//! | [`cs205`] | 004 | the two-colour game's printed status and its transcript checker |
//!
//! Seeds 002, 003 and 004 play through [`Game`](crate::Game) and the rule presets
//! (`cs410`, `uno-engine`, `two-color`). Seed 000's interpreter is separate from `Game`, and
//! honestly so: the course's reference compares cards as the notation's characters, colour
//! markers included, so on a `.uno` discard pile a marker acts as a card (a Wild on a marker is a
//! symbol match), which no rule of `Game` can express (`docs/csce322.md` lists every such point).
//! The `csce322` preset plays the seed's precedence and stacking as whole games through `Game`;
//! the two share the precedence list ([`csce322::precedence`]), not the card comparison.
//!
//! Each module's tests are `crates/uno/tests/course_<module>.rs`.

pub mod cs205;
pub mod cs410;
pub mod csce322;
pub mod export;
pub mod notation;
pub mod uno_engine;
