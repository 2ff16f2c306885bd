//! What a learned UNO player reads and how it runs, below the bots so that bots, the batched
//! environment (`uno-env`) and the Python package share one encoding:
//!
//! * [`space`]: the fixed action space and observation layout, the same for every rule set;
//! * [`mapping`]: the one place that turns action indices into engine actions and back;
//! * [`observe`]: what a seat may know, as a vector (from the seat's `View` only);
//! * [`model`]: a small multilayer perceptron read from a safetensors file, scoring
//!   (observation, action) pairs: the Q network of `training/` (`docs/model.md`);
//! * [`value`]: the value network, a seat's chance of winning the round from its observation
//!   (the lab's luck-adjusted matches and fast analysis).

pub mod mapping;
pub mod model;
pub mod observe;
pub mod space;
pub mod value;

pub use model::{ModelError, QNet};
pub use space::{action, action_name, obs, MAX_SEATS};
pub use value::ValueNet;

use std::sync::{Arc, OnceLock};

/// The shipped model's file (`model/uno-dmc.safetensors`; its card is `docs/model.md`): the
/// model of four-seat tables.
pub const SHIPPED_MODEL: &[u8] = include_bytes!("../model/uno-dmc.safetensors");

/// The shipped model of the other table sizes it was trained at (`model/uno-dmc-sizes.safetensors`,
/// its `seats` entry lists them; `docs/model.md`, "Table sizes").
pub const SHIPPED_SIZES_MODEL: &[u8] = include_bytes!("../model/uno-dmc-sizes.safetensors");

/// The environment variable that, when set, names a model file (`training/`'s output) to use
/// instead of the shipped ones, at every table size: how checkpoints are measured with
/// `tabletop uno match --bots net,…` without a rebuild.
pub const MODEL_ENV: &str = "TABLETOP_NET_MODEL";

/// The models the `net` bot plays, read once, the one for four seats first: the file named by
/// [`MODEL_ENV`] alone when it is set and loads (a file that does not is reported on standard
/// error, and the shipped models are used), else the shipped models. The shipped files are
/// part of the build and a test reads them (`tests/model.rs`), so they cannot fail to load at
/// run time.
pub fn shipped_models() -> Arc<[Arc<QNet>]> {
    static MODELS: OnceLock<Arc<[Arc<QNet>]>> = OnceLock::new();
    MODELS
        .get_or_init(|| {
            if let Some(path) = std::env::var_os(MODEL_ENV) {
                let loaded = std::fs::read(&path)
                    .map_err(|e| e.to_string())
                    .and_then(|bytes| QNet::from_safetensors(&bytes).map_err(|e| e.to_string()));
                match loaded {
                    Ok(net) => return Arc::from([Arc::new(net)]),
                    Err(e) => eprintln!("{MODEL_ENV}={}: {e}; playing the shipped model", path.to_string_lossy()),
                }
            }
            Arc::from([Arc::new(shipped_model()), Arc::new(shipped_sizes_model())])
        })
        .clone()
}

/// The model of four-seat tables that the `net` bot plays ([`shipped_models`]'s first).
pub fn shipped() -> Arc<QNet> {
    shipped_for(4)
}

/// The model the `net` bot plays at a table of `players` seats: the first of
/// [`shipped_models`] trained at that size, else the first (whose values are then out of the
/// range it learned: the bot's rule for that, `uno_bots::NetBot`).
#[allow(clippy::expect_used)]
pub fn shipped_for(players: usize) -> Arc<QNet> {
    let models = shipped_models();
    let trained: Vec<_> = models.iter().map(|m| m.trained_seats()).collect();
    models[trained_at(&trained, players).unwrap_or(0)].clone()
}

/// Which of the models whose table sizes are `trained` ([`QNet::trained_seats`] of each) was
/// trained at `players` seats: the first that was (or that does not say), or `None`.
pub fn trained_at(trained: &[Option<Vec<usize>>], players: usize) -> Option<usize> {
    trained.iter().position(|t| t.as_ref().is_none_or(|seats| seats.contains(&players)))
}

/// The shipped model of four-seat tables, parsed.
#[allow(clippy::expect_used)]
pub fn shipped_model() -> QNet {
    QNet::from_safetensors(SHIPPED_MODEL).expect("the shipped model loads")
}

/// The shipped model of the other table sizes, parsed.
#[allow(clippy::expect_used)]
pub fn shipped_sizes_model() -> QNet {
    QNet::from_safetensors(SHIPPED_SIZES_MODEL).expect("the shipped model of other table sizes loads")
}

/// The shipped value network's file (`model/uno-value.safetensors`; its card is `docs/model.md`,
/// "The value network").
pub const SHIPPED_VALUE: &[u8] = include_bytes!("../model/uno-value.safetensors");

/// The shipped value network, parsed once. The file is part of the build and a test reads it
/// (`tests/value.rs`), so it cannot fail to load at run time.
#[allow(clippy::expect_used)]
pub fn shipped_value() -> Arc<ValueNet> {
    static VALUE: OnceLock<Arc<ValueNet>> = OnceLock::new();
    VALUE
        .get_or_init(|| Arc::new(ValueNet::from_safetensors(SHIPPED_VALUE).expect("the shipped value network loads")))
        .clone()
}
