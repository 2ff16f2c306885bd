//! UNO as a reinforcement-learning environment, batched, with no Python in it.
//!
//! * [`space`]: the fixed action space and observation layout, the same for every rule set;
//! * [`mapping`]: the one place that turns action indices into engine actions and back;
//! * [`observe`]: what a seat may know, as a vector;
//!
//! (these three live in `uno-nn`, below the bots, so the `net` bot reads the same encoding; they
//! are re-exported here under their old paths)
//! * [`progress`]: when a round has stalled (the truncation every environment applies);
//! * [`vec_env`]: `N` rounds stepped together, bots playing inside, learners deciding, seeded per
//!   environment and episode so the games do not depend on the batch size.
//!
//! The Python package (`crates/py`, `python/`) wraps [`VecEnv`]; `docs/python.md` documents the
//! spaces and the reaction windows for its users.
//!
//! ## Reaction windows
//! Some actions are taken out of turn: a jump-in, a late UNO call for oneself, a catch. Before
//! the player to act moves, each learner seat that has such an action (a false call alone does
//! not count) decides in a *window*, in seat order after the current player: its mask holds its
//! out-of-turn actions and `DECLINE`. Declining lets the window go by until the next engine
//! action. Bots act only on their turns, as they do everywhere in the project.

pub mod progress;
pub mod vec_env;

pub use uno_nn::{mapping, observe, space};

pub use progress::{Progress, DEFAULT_MAX_STALL};
pub use space::{action, action_name, obs, MAX_SEATS};
pub use vec_env::{round_rewards, Buffers, EnvConfig, EnvError, OwnedBuffers, VecEnv, DEFAULT_MAX_ACTIONS};
