//! What a learned UNO player reads and how it runs, below the bots so that bots, the batched
//! environment (`uno-env`) and the Python package share one encoding:
//!
//! * [`space`]: the fixed action space and observation layout, the same for every rule set;
//! * [`mapping`]: the one place that turns action indices into engine actions and back;
//! * [`observe`]: what a seat may know, as a vector (from the seat's `View` only);
//! * [`model`]: a small multilayer perceptron read from a safetensors file, scoring
//!   (observation, action) pairs: the Q network of `training/` (`docs/model.md`).

pub mod mapping;
pub mod model;
pub mod observe;
pub mod space;

pub use model::{ModelError, QNet};
pub use space::{action, action_name, obs, MAX_SEATS};

use std::sync::{Arc, OnceLock};

/// The shipped model's file (`model/uno-dmc.safetensors`; its card is `docs/model.md`).
pub const SHIPPED_MODEL: &[u8] = include_bytes!("../model/uno-dmc.safetensors");

/// The shipped model, read once. Its file is part of the build and a test reads it
/// (`tests/model.rs`), so it cannot fail to load at run time.
#[allow(clippy::expect_used)]
pub fn shipped() -> Arc<QNet> {
    static SHIPPED: OnceLock<Arc<QNet>> = OnceLock::new();
    SHIPPED.get_or_init(|| Arc::new(QNet::from_safetensors(SHIPPED_MODEL).expect("the shipped model loads"))).clone()
}
