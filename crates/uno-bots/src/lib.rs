//! Bots for the UNO engine. Measuring them (simulations, duplicate matches, ratings, the
//! sequential test, analysis) is the `uno-lab` crate's work.
//!
//! A bot sees only what its seat may know: an owned [`Observation`] (`choose`) or the borrowed,
//! allocation-free [`View`] (`choose_view`, the simulation hot path). Both carry the rules, and
//! both answer the [`any_view::AnyViewExt`] trait, so a policy is written once, against it. Every bot is seeded and
//! deterministic: the same views in the same order give the same actions.

pub mod any_view;
pub mod bot_spec;
pub mod heuristic;
pub mod ismcts;
pub mod net;
pub mod precedence;
pub mod random;

use uno::game::View;
use uno::{Action, Game, Observation};

pub use bot_spec::{BotSpec, BotSpecError, BOT_FORMS, BOT_NAMES, MAX_ISMCTS_ITERATIONS};
pub use heuristic::{HeuristicBot, HeuristicConfig};
pub use ismcts::FLAT_ITERATIONS;
pub use ismcts::{IsmctsBot, IsmctsConfig, Playout, SearchStats};
pub use net::NetBot;
pub use precedence::PrecedenceBot;
pub use random::{RandomBot, UniformBot};

/// A player that decides from what its seat may know.
pub trait Bot: Send {
    /// A short name for tables and logs.
    fn name(&self) -> &str;
    /// The action to take. Called only when `obs.legal_actions` is not empty; the answer
    /// must be one of them.
    fn choose(&mut self, obs: &Observation) -> Action;
    /// The same decision from a borrowed view (called only when the view's seat has a legal
    /// action). Bots on the simulation hot path override it to avoid building an observation;
    /// both entry points must answer alike.
    fn choose_view(&mut self, view: &View<'_>) -> Action {
        self.choose(&view.observation())
    }
    /// Starts the bot's random stream afresh, as `make_bot(name, seed)` would: lets a
    /// simulation reuse one bot for many games without allocating.
    fn reseed(&mut self, _seed: u64) {}
    /// The distribution `choose_view` draws its action from at this view, when the bot can
    /// state it exactly (each action once, the probabilities summing to one); `None` when it
    /// cannot. The lab's luck-adjusted matches correct these decisions (`uno_lab::adjust`).
    fn policy(&self, _view: &View<'_>) -> Option<Vec<(Action, f64)>> {
        None
    }
    /// Plays the current seat's next decisions in `game`; returns how many (at most
    /// [`uno::TURN_DECISIONS`]). A bot that is a [`uno::TurnPolicy`] plays a whole turn at a
    /// time ([`Game::play_turn`]); the others, one decision. Either way the game after it is
    /// the game after those decisions through `choose_view` and `Game::apply_unchecked`.
    fn play_turn(&mut self, game: &mut Game) -> u32 {
        let seat = game.current();
        let action = self.choose_view(&game.view(seat));
        game.apply_unchecked(seat, action);
        1
    }
}

/// A boxed bot is a bot: tables and runners hold `Box<dyn Bot>`.
impl<B: Bot + ?Sized> Bot for Box<B> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn choose(&mut self, obs: &uno::Observation) -> uno::Action {
        (**self).choose(obs)
    }
    #[inline]
    fn choose_view(&mut self, view: &uno::game::View<'_>) -> uno::Action {
        (**self).choose_view(view)
    }
    fn reseed(&mut self, seed: u64) {
        (**self).reseed(seed)
    }
    fn policy(&self, view: &View<'_>) -> Option<Vec<(Action, f64)>> {
        (**self).policy(view)
    }
    #[inline]
    fn play_turn(&mut self, game: &mut Game) -> u32 {
        (**self).play_turn(game)
    }
}

/// Always the first legal action: plays before draws, the engine's listing order.
#[derive(Default)]
pub struct FirstLegalBot;

impl Bot for FirstLegalBot {
    fn name(&self) -> &str {
        "first"
    }

    fn choose(&mut self, obs: &Observation) -> Action {
        obs.legal_actions[0]
    }
}

/// Plays a round to its end with one bot per seat; returns the number of decisions taken.
pub fn play_out(game: &mut Game, bots: &mut [Box<dyn Bot>]) -> usize {
    let mut decisions = 0;
    while !game.is_round_over() {
        let seat = game.current();
        decisions += bots[seat.index()].play_turn(game) as usize;
    }
    decisions
}

/// Builds a bot by name, seeded: the name is parsed into a [`BotSpec`] (`ismcts` takes an
/// iteration budget after a colon, `ismcts:500`, and optionally its playout policy after another,
/// `ismcts:500:heuristic`; the default is `random`; then `plays` to model the other seats as
/// `heuristic` bots, `ismcts:6000:random:plays`); `heuristic` uses its default weights.
///
/// # Errors
/// The name's [`BotSpecError`]: unknown, parameters where none are taken, an iteration count
/// outside 1..=[`MAX_ISMCTS_ITERATIONS`], an unknown playout.
pub fn make_bot(name: &str, seed: u64) -> Result<Box<dyn Bot>, BotSpecError> {
    Ok(name.parse::<BotSpec>()?.build(seed))
}
