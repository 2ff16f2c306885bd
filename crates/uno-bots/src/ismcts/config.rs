//! How an [`IsmctsBot`](super::IsmctsBot) searches: its budget, playout policy, inference and
//! the flat search's options, with the defaults and the `flat` bot's configuration.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::heuristic::HeuristicConfig;

/// The playouts a move of `flat` gets when its name gives no number.
pub const FLAT_ITERATIONS: u32 = 3000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IsmctsConfig {
    /// Iterations (sampled world, tree walk, playout) per decision.
    pub iterations: u32,
    /// Also stop when this much time has passed (not reproducible: leave it `None` in
    /// simulations).
    pub time_limit: Option<Duration>,
    /// UCB1's exploration constant `c` (rewards are in 0..=1).
    pub exploration: f64,
    /// The chance a Wild Draw Four's player held the colour in play, used to deal worlds while
    /// a challenge is pending (see [`Sampler::set_wd4_guilt`]); `None`: uniform hands decide.
    /// Uniform hands hold most colours, which would make every Wild Draw Four look like a
    /// bluff; players who can be challenged bluff far less.
    pub wd4_guilt: Option<f64>,
    /// Decisions after which a playout is scored as a round without a winner.
    pub playout_cap: u32,
    /// How the playouts choose moves.
    pub playout: Playout,
    /// Whether the other seats' moves are searched in the tree (SO-ISMCTS proper) or played by
    /// the playout policy, as a model of the opponents (then only this seat's moves are chosen
    /// by the tree; the others' moves still make nodes, so that the bot's later nodes stand for
    /// what it saw them do).
    pub search_opponents: bool,
    /// Deal worlds that honour what the other seats' draws revealed: a seat that drew instead
    /// of playing held nothing playable (see the `infer` module).
    pub infer_draws: bool,
    /// Also believe that a seat that played a wild from its hand had nothing else to play, as
    /// the `heuristic` bot and careful players keep wilds for last (not true of `random`).
    pub infer_wilds: bool,
    /// Believe that the other seats choose their plays by the `heuristic` bot's rules: a world
    /// is dealt again (up to `resamples` times) while a seat's hand in it, with the card it last
    /// played, would not have made that play. Off by default: against `heuristic` bots it
    /// measured no stronger, and dealing again costs time (see `docs/bots.md`).
    pub infer_plays: bool,
    /// With `infer_plays`, also believe that a wild's player named the colour the `heuristic`
    /// names (the one the rest of its hand holds most of). Off by default: it measured no
    /// stronger, and fewer dealt worlds fit (see `docs/bots.md`).
    pub infer_colours: bool,
    /// The most worlds dealt, beyond the first, looking for one that fits the plays.
    pub resamples: u32,
    /// With `infer_plays`, how many iterations play on each world found that way (dealt again
    /// from the same generator state): finding one costs up to `resamples` deals and tests.
    pub world_reuse: u32,
    /// Stop as soon as no other move can overtake the one visited most within the iterations
    /// left: the same moves, in less time (the `stop` module).
    pub early_stop: bool,
    /// Search no tree: every own move is played out on each dealt world, the same world for
    /// every move, by the playout policy for every seat (the `flat` module). `iterations`
    /// counts playouts, so a world costs as many as there are moves.
    pub flat: bool,
    /// With `flat`, play the playout policy's own move unless another won more often by more
    /// than this share of the worlds (0: the move that won most).
    pub flat_margin: f64,
    /// With `flat`, keep dealing worlds past the budget, up to this many times it, while the
    /// two best moves are within two standard errors of each other (1: never).
    pub flat_extend: u32,
    /// Deal the other hands from this many particles carried through the round, weighted by
    /// how well each fits every step of the others were they `heuristic` bots (the `particles`
    /// module); 0: off. Takes the place of `infer_plays`' test when on.
    pub particles: u32,
    /// The `heuristic` weights the bot's own seat plays by in the playouts (and in the
    /// decisions it does not search); `None`: the default weights, the others' model.
    pub own_weights: Option<HeuristicConfig>,
    /// Search only the moves the learned network ([`uno_nn::shipped`], the `net` bot's) ranks
    /// among its best this many; the budget is shared among fewer moves (0: every move).
    pub net_prune: u32,
    /// With `flat`, the move kept on a tie (or within `flat_margin`) is the learned network's
    /// best, not the playout policy's.
    pub net_prior: bool,
}

impl Default for IsmctsConfig {
    fn default() -> Self {
        IsmctsConfig {
            iterations: 1000,
            time_limit: None,
            exploration: 0.7,
            wd4_guilt: Some(0.25),
            playout_cap: 2000,
            playout: Playout::Random,
            search_opponents: true,
            infer_draws: true,
            infer_wilds: true,
            infer_plays: false,
            infer_colours: false,
            resamples: 16,
            world_reuse: 1,
            early_stop: true,
            flat: false,
            flat_margin: 0.0,
            flat_extend: 1,
            particles: 0,
            own_weights: None,
            net_prune: 0,
            net_prior: false,
        }
    }
}

impl IsmctsConfig {
    /// The `flat` bot's configuration: flat Monte Carlo, every seat played out by the
    /// `heuristic` policy, in worlds that fit the other seats' plays were they `heuristic` bots.
    /// A model of `heuristic` opponents, the best measured against them (see `docs/bots.md`).
    pub fn flat_model() -> IsmctsConfig {
        IsmctsConfig {
            iterations: FLAT_ITERATIONS,
            playout: Playout::Heuristic,
            search_opponents: false,
            infer_plays: true,
            flat: true,
            ..IsmctsConfig::default()
        }
    }
}

/// How many moves `flat+net` searches: the learned network's best this many
/// ([`IsmctsConfig::net_prune`]).
pub const FLAT_NET_PRUNE: u32 = 3;

impl IsmctsConfig {
    /// The `flat+net` bot's configuration: [`IsmctsConfig::flat_model`] over only the moves the
    /// learned network ranks best (see `docs/model.md` for the variants measured).
    pub fn flat_net_model() -> IsmctsConfig {
        IsmctsConfig { net_prune: FLAT_NET_PRUNE, ..IsmctsConfig::flat_model() }
    }
}

/// The policy that plays the rounds out.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Playout {
    /// The fast random policy of [`RandomBot`].
    Random,
    /// The `heuristic` bot's default weights: a model of careful opponents (about twice as
    /// slow per playout).
    Heuristic,
}
