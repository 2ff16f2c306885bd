//! The random policies: `random` (the peers' policy, the speed benchmark's) and `uniform`.

use rand::SeedableRng;
use uno::game::{SimRng, TurnPolicy, View};
use uno::{Action, Card, CardSet, Color, Game, Observation, Phase, Seat};

use crate::any_view::AnyViewExt;
use crate::Bot;

/// The policy behind the peer engines' speed figures: a uniformly random playable card when
/// it has one (a random colour for a wild), otherwise draw and play the drawn card if it can,
/// otherwise pass. Always calls UNO, never challenges.
///
/// `choose` and `choose_view` run the one policy ([`AnyViewExt`]), so a game played through
/// observations and one played through views are the same game.
pub struct RandomBot {
    rng: SimRng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: SimRng::seed_from_u64(seed) }
    }
}

/// The `random` policy, for an observation and a view alike. `fallback` answers for a seat
/// asked out of turn with nothing to play (a catch, say): the first legal action.
#[inline]
fn decide<S: AnyViewExt>(rng: &mut SimRng, s: &S, fallback: impl FnOnce() -> Action) -> Action {
    if s.can_call_own_uno() {
        return Action::CallUno;
    }
    let plays = s.playable();
    let pick = match plays.len() {
        0 => None,
        n => plays.nth(rng.below(n)),
    };
    if let Some(card) = pick {
        if !card.is_wild() {
            return Action::Play { card, color: None };
        }
        return Action::Play { card, color: pick_colour(rng, s) };
    }
    if s.seat() != s.current() {
        return fallback();
    }
    match s.phase() {
        Phase::ChooseColor => match pick_colour(rng, s) {
            Some(color) => Action::DeclareColor { color },
            None => fallback(),
        },
        Phase::ChooseSwap => {
            // Every other seat, in seat order, as `legal_actions` lists them.
            let k = rng.below(s.players() - 1);
            let with = if k >= s.seat().index() { k + 1 } else { k };
            Action::SwapHands { with: Seat::all(s.players()).nth(with).unwrap_or(s.seat()) }
        }
        Phase::Challenge { .. } => Action::Accept,
        Phase::Play => Action::Draw,
        Phase::DrawnCard | Phase::SameNumber => Action::Pass,
        Phase::RoundOver | Phase::GameOver => Action::NextRound,
    }
}

/// The distribution [`decide`] draws from, stated exactly: each action with its probability.
fn distribution<S: AnyViewExt>(s: &S, fallback: impl FnOnce() -> Action) -> Vec<(Action, f64)> {
    if s.can_call_own_uno() {
        return vec![(Action::CallUno, 1.0)];
    }
    let plays = s.playable();
    let colors: Vec<Color> = s.wild_colors().iter().collect();
    if !plays.is_empty() {
        let p = 1.0 / plays.len() as f64;
        let mut out = Vec::new();
        for card in plays.iter() {
            if !card.is_wild() || colors.is_empty() {
                out.push((Action::Play { card, color: None }, p));
            } else {
                let q = p / colors.len() as f64;
                out.extend(colors.iter().map(|&c| (Action::Play { card, color: Some(c) }, q)));
            }
        }
        return out;
    }
    if s.seat() != s.current() {
        return vec![(fallback(), 1.0)];
    }
    match s.phase() {
        Phase::ChooseColor if !colors.is_empty() => {
            let q = 1.0 / colors.len() as f64;
            colors.iter().map(|&color| (Action::DeclareColor { color }, q)).collect()
        }
        Phase::ChooseColor => vec![(fallback(), 1.0)],
        Phase::ChooseSwap => {
            let q = 1.0 / (s.players() - 1) as f64;
            Seat::all(s.players()).filter(|&w| w != s.seat()).map(|w| (Action::SwapHands { with: w }, q)).collect()
        }
        Phase::Challenge { .. } => vec![(Action::Accept, 1.0)],
        Phase::Play => vec![(Action::Draw, 1.0)],
        Phase::DrawnCard | Phase::SameNumber => vec![(Action::Pass, 1.0)],
        Phase::RoundOver | Phase::GameOver => vec![(Action::NextRound, 1.0)],
    }
}

/// A colour for a wild, uniformly among the rules' colours.
fn pick_colour<S: AnyViewExt>(rng: &mut SimRng, s: &S) -> Option<Color> {
    let colors = s.wild_colors();
    let k = rng.below(colors.iter().count());
    let color = colors.iter().nth(k);
    color
}

impl Bot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, obs: &Observation) -> Action {
        decide(&mut self.rng, obs, || obs.legal_actions.first().copied().unwrap_or(Action::Draw))
    }

    #[inline]
    fn choose_view(&mut self, view: &View<'_>) -> Action {
        decide(&mut self.rng, view, || view.legal_actions().first().copied().unwrap_or(Action::Draw))
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = SimRng::seed_from_u64(seed);
    }

    #[inline]
    fn play_turn(&mut self, game: &mut Game) -> u32 {
        game.play_turn(self)
    }

    fn policy(&self, view: &View<'_>) -> Option<Vec<(Action, f64)>> {
        Some(distribution(view, || view.legal_actions().first().copied().unwrap_or(Action::Draw)))
    }
}

/// The same policy, a turn at a time ([`uno::Game::play_turn`]): it calls UNO whenever it may,
/// plays a uniformly random playable kind (one random number, then one for a wild's colour)
/// and draws when it has none, as [`decide`] does.
impl TurnPolicy for RandomBot {
    #[inline]
    fn decide(&mut self, view: &View<'_>) -> Action {
        self.choose_view(view)
    }
    #[inline]
    fn call_uno(&mut self, _view: &View<'_>) -> bool {
        true
    }
    /// It never catches: it plays instead.
    #[inline]
    fn catch_uno(&mut self, _view: &View<'_>, _victim: Seat) -> bool {
        false
    }
    #[inline]
    fn pick(&mut self, _view: &View<'_>, playable: CardSet) -> Option<Card> {
        playable.nth(self.rng.below(playable.len()))
    }
    #[inline]
    fn color(&mut self, view: &View<'_>, _card: Card) -> Color {
        let colors = view.colors_to_name();
        colors[self.rng.below(colors.len())]
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

    fn policy(&self, view: &View<'_>) -> Option<Vec<(Action, f64)>> {
        let legal = view.legal_actions();
        if legal.is_empty() {
            return Some(vec![(Action::Draw, 1.0)]);
        }
        let p = 1.0 / legal.len() as f64;
        Some(legal.into_iter().map(|a| (a, p)).collect())
    }
}
