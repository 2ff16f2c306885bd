//! The random policies: `random` (the peers' policy, the speed benchmark's) and `uniform`.

use rand::SeedableRng;
use uno::game::{SimRng, View};
use uno::{Action, CardSet, Observation, Phase, Seat};

use crate::{should_call_uno, Bot};

/// The policy behind the peer engines' speed figures: a uniformly random playable card when
/// it has one (a random colour for a wild), otherwise draw and play the drawn card if it can,
/// otherwise pass. Always calls UNO, never challenges.
///
/// `choose` and `choose_view` draw the same random numbers in the same order, so a game
/// played through observations and one played through views are the same game.
pub struct RandomBot {
    rng: SimRng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: SimRng::seed_from_u64(seed) }
    }
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
        // The playable kinds in card-index order, as `View::playable` gives them.
        let mut cards = CardSet::EMPTY;
        for a in legal {
            if let Action::Play { card, .. } = a {
                cards.insert(*card);
            }
        }
        let pick = match cards.len() {
            0 => None,
            n => cards.nth(self.rng.below(n)),
        };
        if let Some(card) = pick {
            if !card.is_wild() {
                return Action::Play { card, color: None };
            }
            let options: Vec<Action> =
                legal.iter().copied().filter(|a| matches!(a, Action::Play { card: c, .. } if *c == card)).collect();
            return options[self.rng.below(options.len())];
        }
        let choices: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::DeclareColor { .. } | Action::SwapHands { .. }))
            .collect();
        if !choices.is_empty() {
            return choices[self.rng.below(choices.len())];
        }
        let pick = |a: Action| legal.contains(&a).then_some(a);
        pick(Action::Accept)
            .or_else(|| pick(Action::Draw))
            .or_else(|| pick(Action::Pass))
            .or_else(|| pick(Action::NextRound))
            .unwrap_or(legal[0])
    }

    #[inline]
    fn choose_view(&mut self, view: &View<'_>) -> Action {
        if view.can_call_own_uno() {
            return Action::CallUno;
        }
        let plays = view.playable();
        let pick = match plays.len() {
            0 => None,
            n => plays.nth(self.rng.below(n)),
        };
        if let Some(card) = pick {
            if !card.is_wild() {
                return Action::Play { card, color: None };
            }
            let colors = view.rules().colors();
            return Action::Play { card, color: Some(colors[self.rng.below(colors.len())]) };
        }
        match view.phase() {
            Phase::ChooseColor => {
                let colors = view.rules().colors();
                Action::DeclareColor { color: colors[self.rng.below(colors.len())] }
            }
            Phase::ChooseSwap => {
                // Every other seat, in seat order, as `legal_actions` lists them.
                let k = self.rng.below(view.players() - 1);
                let with = if k >= view.seat().index() { k + 1 } else { k };
                Action::SwapHands { with: Seat(with as u8) }
            }
            Phase::Challenge { .. } => Action::Accept,
            Phase::Play => Action::Draw,
            Phase::DrawnCard | Phase::SameNumber => Action::Pass,
            Phase::RoundOver | Phase::GameOver => Action::NextRound,
        }
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = SimRng::seed_from_u64(seed);
    }
}

/// Uniform over every legal action, voluntary draws and UNO calls included.
pub struct UniformBot {
    rng: SimRng,
    buf: Vec<Action>,
}

impl UniformBot {
    pub fn new(seed: u64) -> UniformBot {
        UniformBot { rng: SimRng::seed_from_u64(seed), buf: Vec::with_capacity(64) }
    }
}

impl Bot for UniformBot {
    fn name(&self) -> &str {
        "uniform"
    }

    fn choose(&mut self, obs: &Observation) -> Action {
        obs.legal_actions[self.rng.below(obs.legal_actions.len())]
    }

    fn choose_view(&mut self, view: &View<'_>) -> Action {
        view.legal_actions_into(&mut self.buf);
        match self.buf.len() {
            0 => Action::Draw,
            n => self.buf[self.rng.below(n)],
        }
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = SimRng::seed_from_u64(seed);
    }
}
