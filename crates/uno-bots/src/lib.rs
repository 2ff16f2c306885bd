//! Bots for the UNO engine. A bot sees only its seat's [`Observation`] and answers one action.
//!
//! Every bot is seeded and deterministic: the same observations in the same order give the
//! same actions.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use uno::{Action, Observation, Phase};

/// A player that decides from what its seat may know.
pub trait Bot: Send {
    /// A short name for tables and logs.
    fn name(&self) -> &str;
    /// The action to take. Called only when `obs.legal_actions` is not empty; the answer
    /// must be one of them.
    fn choose(&mut self, obs: &Observation) -> Action;
}

/// The policy behind the peer engines' speed figures: a uniformly random playable card when
/// it has one (a random colour for a wild), otherwise draw and play the drawn card if it can,
/// otherwise pass. Always calls UNO, never challenges.
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
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

impl Bot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, obs: &Observation) -> Action {
        if should_call_uno(obs) {
            return Action::CallUno;
        }
        let legal = &obs.legal_actions;
        // Pick a card uniformly among the distinct playable cards, then a colour for a wild.
        let mut cards: Vec<uno::Card> = Vec::new();
        for a in legal {
            if let Action::Play { card, .. } = a {
                if !cards.contains(card) {
                    cards.push(*card);
                }
            }
        }
        if !cards.is_empty() {
            let card = cards[self.rng.gen_range(0..cards.len())];
            let options: Vec<Action> =
                legal.iter().copied().filter(|a| matches!(a, Action::Play { card: c, .. } if *c == card)).collect();
            return options[self.rng.gen_range(0..options.len())];
        }
        let pick = |a: Action| legal.contains(&a).then_some(a);
        let colours: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::DeclareColor { .. } | Action::SwapHands { .. }))
            .collect();
        if !colours.is_empty() {
            return colours[self.rng.gen_range(0..colours.len())];
        }
        pick(Action::Accept)
            .or_else(|| pick(Action::Draw))
            .or_else(|| pick(Action::Pass))
            .or_else(|| pick(Action::NextRound))
            .unwrap_or(legal[0])
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

/// Plays a game to its end with one bot per seat; returns the number of decisions taken.
pub fn play_out(game: &mut uno::Game, bots: &mut [Box<dyn Bot>]) -> usize {
    let mut decisions = 0;
    while !game.is_round_over() {
        let seat = game.current();
        let obs = game.observation(Some(seat));
        let action = bots[seat.index()].choose(&obs);
        game.apply_unchecked(seat, action);
        decisions += 1;
    }
    decisions
}

#[cfg(test)]
mod tests {
    use super::*;
    use uno::{Game, Rules, PRESET_NAMES};

    #[test]
    fn bots_only_choose_legal_actions_and_finish_games() {
        for name in PRESET_NAMES {
            let rules = Rules::preset(name).expect("preset");
            for players in [2, 4] {
                for seed in 0..40 {
                    let mut game = Game::new(rules.clone(), players, seed).expect("game");
                    let mut bots: Vec<Box<dyn Bot>> = (0..players)
                        .map(|i| -> Box<dyn Bot> {
                            if i % 2 == 0 {
                                Box::new(RandomBot::new(seed + i as u64))
                            } else {
                                Box::new(FirstLegalBot)
                            }
                        })
                        .collect();
                    let mut steps = 0;
                    while !game.is_round_over() && steps < 20_000 {
                        let seat = game.current();
                        let obs = game.observation(Some(seat));
                        let action = bots[seat.index()].choose(&obs);
                        game.apply(seat, action).unwrap_or_else(|e| panic!("{name}: {action} refused: {e}"));
                        steps += 1;
                    }
                    assert!(game.is_round_over(), "{name} {players}p seed {seed} did not finish");
                }
            }
        }
    }
}

/// The bot names `make_bot` knows.
pub const BOT_NAMES: &[&str] = &["random", "first"];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown bot '{0}' (known: {known})", known = BOT_NAMES.join(", "))]
pub struct UnknownBot(pub String);

/// Builds a bot by name, seeded.
pub fn make_bot(name: &str, seed: u64) -> Result<Box<dyn Bot>, UnknownBot> {
    match name {
        "random" => Ok(Box::new(RandomBot::new(seed))),
        "first" => Ok(Box::new(FirstLegalBot)),
        _ => Err(UnknownBot(name.to_string())),
    }
}
