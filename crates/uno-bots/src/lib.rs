//! Bots for the UNO engine, and the parallel simulation runner.
//!
//! A bot sees only what its seat may know: an owned [`Observation`] (`choose`) or the borrowed,
//! allocation-free [`View`] (`choose_view`, the simulation hot path). Every bot is seeded and
//! deterministic: the same views in the same order give the same actions.

pub mod heuristic;
pub mod ismcts;
pub mod precedence;
pub mod random;
pub mod sim;

use uno::game::View;
use uno::{Action, Observation, Phase};

pub use heuristic::{HeuristicBot, HeuristicConfig};
pub use ismcts::{IsmctsBot, IsmctsConfig};
pub use precedence::PrecedenceBot;
pub use random::{RandomBot, UniformBot};
pub use sim::{simulate, SeatStats, SimConfig, SimError, SimResults};

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
}

/// Whether calling UNO now is a call for oneself (never a false call or a catch).
pub fn should_call_uno(obs: &Observation) -> bool {
    let Some(me) = obs.viewer else { return false };
    let own_turn = me == obs.current && matches!(obs.phase, Phase::Play | Phase::DrawnCard) && obs.hand.len() <= 2;
    let exposed = obs.uno_exposed == Some(me);
    (own_turn || exposed)
        && !obs.uno_called.get(me.index()).copied().unwrap_or(true)
        && obs.legal_actions.contains(&Action::CallUno)
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
pub fn play_out(game: &mut uno::Game, bots: &mut [Box<dyn Bot>]) -> usize {
    let mut decisions = 0;
    while !game.is_round_over() {
        let seat = game.current();
        let action = bots[seat.index()].choose_view(&game.view(seat));
        game.apply_unchecked(seat, action);
        decisions += 1;
    }
    decisions
}

/// The bot names `make_bot` knows.
pub const BOT_NAMES: &[&str] = &["random", "uniform", "first", "heuristic", "precedence", "ismcts"];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown bot '{0}' (known: {known})", known = BOT_NAMES.join(", "))]
pub struct UnknownBot(pub String);

/// Builds a bot by name, seeded. `ismcts` takes an iteration budget after a colon
/// (`ismcts:500`); `heuristic` uses its default weights.
pub fn make_bot(name: &str, seed: u64) -> Result<Box<dyn Bot>, UnknownBot> {
    let (base, param) = match name.split_once(':') {
        Some((b, p)) => (b, Some(p)),
        None => (name, None),
    };
    let unknown = || UnknownBot(name.to_string());
    match (base, param) {
        ("random", None) => Ok(Box::new(RandomBot::new(seed))),
        ("uniform", None) => Ok(Box::new(UniformBot::new(seed))),
        ("first", None) => Ok(Box::new(FirstLegalBot)),
        ("heuristic", None) => Ok(Box::new(HeuristicBot::new(seed))),
        ("precedence", None) => Ok(Box::new(PrecedenceBot)),
        ("ismcts", None) => Ok(Box::new(IsmctsBot::new(IsmctsConfig::default(), seed))),
        ("ismcts", Some(p)) => {
            let iterations = p.parse::<u32>().ok().filter(|&n| n > 0).ok_or_else(unknown)?;
            Ok(Box::new(IsmctsBot::new(IsmctsConfig { iterations }, seed)))
        }
        _ => Err(unknown()),
    }
}
