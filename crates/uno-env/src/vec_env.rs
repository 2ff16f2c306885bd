//! The batched environment: `N` independent rounds of UNO, bots playing inside, learners deciding.
//!
//! Each environment plays one round per episode. After a learner's action the environment plays
//! on (bots at their seats, each learner's reaction windows) until a learner must decide, the
//! round ends (`terminated`) or the episode reaches `max_actions` engine actions (`truncated`).
//! With `auto_reset` the finished environment deals its next episode at once, and the arrays show
//! that episode's first decision (the reward and flags still describe the step that ended).
//!
//! Seeding: episode `e` of environment `i` is dealt by [`seeding::episode_seed`]`(seed, i, e)` and its bots
//! are seeded by [`seeding::episode_bot_seed`], so an environment's games do not depend on the batch size.

use std::sync::Arc;

use thiserror::Error;
use uno::game::Game;
use uno::{Rules, RulesError, Seat, SetupError};
use uno_bots::{Bot, BotSpec};

use crate::mapping::{decode, has_reaction, is_legal, legal_mask_bits};
use crate::observe::write_observation;
use crate::space::{action, action_name, obs, MAX_SEATS};

/// The default cap on engine actions in one episode (some rule sets can loop for ever).
pub const DEFAULT_MAX_ACTIONS: u32 = 10_000;

/// How a batch of environments is set up.
#[derive(Clone, Debug)]
pub struct EnvConfig {
    /// The rule set every environment plays.
    pub rules: Arc<Rules>,
    /// Seats at each table.
    pub players: usize,
    /// The seats the caller decides for; the others are bots.
    pub learners: Vec<Seat>,
    /// The bots, one per non-learner seat in seat order, or a single one for every such seat.
    pub opponents: Vec<BotSpec>,
    /// The seed every episode's deal and bots derive from.
    pub seed: u64,
    /// Engine actions after which an episode is truncated.
    pub max_actions: u32,
    /// Whether a finished environment deals its next episode at once.
    pub auto_reset: bool,
}

/// Why an environment cannot be built or stepped. Stepping checks every action first, and a
/// refused step changes nothing.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EnvError {
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("a batch needs at least one environment")]
    NoEnvironments,
    #[error("no learner seat: name at least one seat from 0 to {max}")]
    NoLearner { max: usize },
    #[error("learner seat {seat} is not at a table of {players}")]
    LearnerSeat { seat: usize, players: usize },
    #[error("learner seat {0} is named twice")]
    DuplicateLearner(usize),
    #[error("{bot_seats} seats are bots but {given} opponents were named (name one for all, or one per bot seat)")]
    Opponents { bot_seats: usize, given: usize },
    #[error("max_actions must be at least 1")]
    MaxActions,
    #[error("expected {expected} actions (one per environment), got {got}")]
    ActionCount { expected: usize, got: usize },
    #[error("environment {env}: action {action} is outside the action space 0..{count}", count = action::COUNT)]
    OutOfRange { env: usize, action: i64 },
    #[error("environment {env}: action {action} ({name}) is not legal for seat {seat} now")]
    Illegal { env: usize, action: usize, name: String, seat: usize },
    #[error("environment {env} has finished its episode: reset it first")]
    Finished { env: usize },
    #[error("buffer '{name}' holds {got} values, expected {expected}")]
    Buffer { name: &'static str, got: usize, expected: usize },
}

/// The arrays a step fills, one row per environment (row-major).
pub struct Buffers<'a> {
    /// `N × obs::SIZE`: the acting seat's observation.
    pub obs: &'a mut [f32],
    /// `N × action::COUNT`: 1 for each legal action of the acting seat.
    pub mask: &'a mut [i8],
    /// `N`: the reward of the seat that took this step's action.
    pub reward: &'a mut [f32],
    /// `N × MAX_SEATS`: every seat's reward this step (non-zero only when a round ends).
    pub rewards: &'a mut [f32],
    /// `N`: the round ended this step.
    pub terminated: &'a mut [bool],
    /// `N`: the episode hit `max_actions` this step.
    pub truncated: &'a mut [bool],
    /// `N`: the seat that decides next, -1 for a finished environment without auto-reset.
    pub seat: &'a mut [i32],
}

impl Buffers<'_> {
    fn check(&self, n: usize) -> Result<(), EnvError> {
        let sizes = [
            ("obs", self.obs.len(), n * obs::SIZE),
            ("mask", self.mask.len(), n * action::COUNT),
            ("reward", self.reward.len(), n),
            ("rewards", self.rewards.len(), n * MAX_SEATS),
            ("terminated", self.terminated.len(), n),
            ("truncated", self.truncated.len(), n),
            ("seat", self.seat.len(), n),
        ];
        for (name, got, expected) in sizes {
            if got != expected {
                return Err(EnvError::Buffer { name, got, expected });
            }
        }
        Ok(())
    }
}

/// How an environment stands after it played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Decide,
    Ended,
    Truncated,
}

struct Slot {
    game: Game,
    bots: Vec<Option<Box<dyn Bot>>>,
    episode: u64,
    /// Learner seats that let the current reaction window go by (cleared by any engine action).
    declined: u16,
    seat: Seat,
    window: bool,
    actions: u32,
    finished: bool,
    legal: Vec<uno::Action>,
    /// The legal indices last written to the mask (bit `i` for index `i`), while the state is
    /// the one they were computed for: a step checks its actions against them instead of asking
    /// the engine again.
    legal_bits: Option<u128>,
}

/// `N` environments stepped together.
pub struct VecEnv {
    config: EnvConfig,
    learners: u16,
    slots: Vec<Slot>,
}

impl VecEnv {
    /// Builds `num_envs` environments and deals their first episodes.
    ///
    /// # Errors
    /// A table size the rules refuse, no learner, a learner seat off the table or named twice, a
    /// number of opponents that is neither one nor one per bot seat, `max_actions` of 0.
    pub fn new(num_envs: usize, config: EnvConfig) -> Result<VecEnv, EnvError> {
        if num_envs == 0 {
            return Err(EnvError::NoEnvironments);
        }
        config.rules.check_players(config.players)?;
        if config.max_actions == 0 {
            return Err(EnvError::MaxActions);
        }
        if config.learners.is_empty() {
            return Err(EnvError::NoLearner { max: config.players - 1 });
        }
        let mut learners = 0u16;
        for &s in &config.learners {
            if s.index() >= config.players {
                return Err(EnvError::LearnerSeat { seat: s.index(), players: config.players });
            }
            if learners & (1 << s.0) != 0 {
                return Err(EnvError::DuplicateLearner(s.index()));
            }
            learners |= 1 << s.0;
        }
        let bot_seats: Vec<usize> = (0..config.players).filter(|s| learners & (1 << s) == 0).collect();
        let given = config.opponents.len();
        if !bot_seats.is_empty() && given != 1 && given != bot_seats.len() {
            return Err(EnvError::Opponents { bot_seats: bot_seats.len(), given });
        }
        let mut slots = Vec::with_capacity(num_envs);
        for i in 0..num_envs {
            let seed = seeding::episode_seed(config.seed, i as u64, 0);
            let game = Game::new_fast(config.rules.clone(), config.players, seed)?;
            let mut bots: Vec<Option<Box<dyn Bot>>> = (0..config.players).map(|_| None).collect();
            for (k, &s) in bot_seats.iter().enumerate() {
                let spec = config.opponents[if given == 1 { 0 } else { k }];
                bots[s] = Some(spec.build(seeding::episode_bot_seed(seed, s)));
            }
            slots.push(Slot {
                game,
                bots,
                episode: 0,
                declined: 0,
                seat: Seat(0),
                window: false,
                actions: 0,
                finished: false,
                legal: Vec::with_capacity(64),
                legal_bits: None,
            });
        }
        let mut env = VecEnv { config, learners, slots };
        for i in 0..num_envs {
            env.start_episode(i, 0);
        }
        Ok(env)
    }

    /// The number of environments.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always false: a batch holds at least one environment.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The configuration the batch was built with.
    pub fn config(&self) -> &EnvConfig {
        &self.config
    }

    /// The game environment `i` is playing.
    pub fn game(&self, i: usize) -> Option<&Game> {
        self.slots.get(i).map(|s| &s.game)
    }

    /// The seat that decides next in environment `i` and whether in a reaction window (`None`
    /// once a finished environment waits for a reset).
    pub fn acting(&self, i: usize) -> Option<(Seat, bool)> {
        self.slots.get(i).filter(|s| !s.finished).map(|s| (s.seat, s.window))
    }

    /// The episode environment `i` is playing (0 for the first).
    pub fn episode(&self, i: usize) -> Option<u64> {
        self.slots.get(i).map(|s| s.episode)
    }

    /// Deals episode 0 of every environment again, from `seed` when given, and fills the buffers.
    ///
    /// # Errors
    /// Buffers of the wrong size.
    pub fn reset(&mut self, seed: Option<u64>, out: &mut Buffers<'_>) -> Result<(), EnvError> {
        out.check(self.len())?;
        if let Some(seed) = seed {
            self.config.seed = seed;
        }
        for i in 0..self.len() {
            self.start_episode(i, 0);
            out.reward[i] = 0.0;
            out.terminated[i] = false;
            out.truncated[i] = false;
            out.rewards[i * MAX_SEATS..(i + 1) * MAX_SEATS].fill(0.0);
            self.write(i, out);
        }
        Ok(())
    }

    /// Deals the next episode of environment `i` alone (for wrappers without auto-reset).
    pub fn reset_one(&mut self, i: usize) {
        if let Some(slot) = self.slots.get(i) {
            let next = slot.episode + 1;
            self.start_episode(i, next);
        }
    }

    /// Rewrites every environment's observation, mask and seat (after [`VecEnv::reset_one`]).
    ///
    /// # Errors
    /// Buffers of the wrong size.
    pub fn refresh(&mut self, out: &mut Buffers<'_>) -> Result<(), EnvError> {
        out.check(self.len())?;
        for i in 0..self.len() {
            self.write(i, out);
        }
        Ok(())
    }

    /// Applies one action per environment (an index of the action space, for the seat that
    /// `seat` named), plays on, and fills the buffers.
    ///
    /// # Errors
    /// Buffers of the wrong size, a count of actions other than `N`, an index out of range, an
    /// action not legal for its environment's acting seat, or a finished environment: then
    /// nothing has changed.
    pub fn step(&mut self, actions: &[i64], out: &mut Buffers<'_>) -> Result<(), EnvError> {
        out.check(self.len())?;
        if actions.len() != self.len() {
            return Err(EnvError::ActionCount { expected: self.len(), got: actions.len() });
        }
        for (env, (&a, slot)) in actions.iter().zip(&self.slots).enumerate() {
            if slot.finished {
                return Err(EnvError::Finished { env });
            }
            let index = usize::try_from(a)
                .ok()
                .filter(|&i| i < action::COUNT)
                .ok_or(EnvError::OutOfRange { env, action: a })?;
            // The mask lists only legal indices, so a listed one needs no second look.
            let listed = slot.legal_bits.is_some_and(|bits| bits >> index & 1 == 1);
            if !listed && !is_legal(&slot.game, slot.seat, slot.window, index) {
                return Err(EnvError::Illegal {
                    env,
                    action: index,
                    name: action_name(index).unwrap_or_default(),
                    seat: slot.seat.index(),
                });
            }
        }
        for (i, &a) in actions.iter().enumerate() {
            // Checked above: in range and legal.
            self.step_one(i, a as usize, out);
        }
        Ok(())
    }

    fn step_one(&mut self, i: usize, index: usize, out: &mut Buffers<'_>) {
        let slot = &mut self.slots[i];
        let actor = slot.seat;
        slot.legal_bits = None;
        if index == action::DECLINE {
            slot.declined |= 1 << actor.0;
        } else if let Some(a) = decode(&slot.game, actor, index) {
            slot.game.apply_unchecked(actor, a);
            slot.declined = 0;
            slot.actions += 1;
        }
        let rewards = &mut out.rewards[i * MAX_SEATS..(i + 1) * MAX_SEATS];
        rewards.fill(0.0);
        let stop = self.play_on(i);
        out.terminated[i] = stop == Stop::Ended;
        out.truncated[i] = stop == Stop::Truncated;
        if stop == Stop::Ended {
            round_rewards(&self.slots[i].game, rewards);
        }
        out.reward[i] = rewards[actor.index()];
        if stop != Stop::Decide {
            if self.config.auto_reset {
                let next = self.slots[i].episode + 1;
                self.start_episode(i, next);
            } else {
                self.slots[i].finished = true;
            }
        }
        self.write(i, out);
    }

    /// Deals episode `episode` of environment `i` and plays to its first learner decision.
    fn start_episode(&mut self, i: usize, episode: u64) {
        let mut episode = episode;
        loop {
            let slot = &mut self.slots[i];
            let seed = seeding::episode_seed(self.config.seed, i as u64, episode);
            slot.game.restart(seed);
            for (s, bot) in slot.bots.iter_mut().enumerate() {
                if let Some(bot) = bot {
                    bot.reseed(seeding::episode_bot_seed(seed, s));
                }
            }
            slot.episode = episode;
            slot.legal_bits = None;
            slot.declined = 0;
            slot.actions = 0;
            slot.finished = false;
            if self.play_on(i) == Stop::Decide {
                return;
            }
            // A round over before any learner decided teaches nothing: deal the next.
            episode += 1;
        }
    }

    /// Plays bots and skips declined windows until a learner decides or the episode stops.
    fn play_on(&mut self, i: usize) -> Stop {
        let learners = self.learners;
        let max_actions = self.config.max_actions;
        let slot = &mut self.slots[i];
        let players = slot.game.players();
        loop {
            if slot.game.is_round_over() {
                return Stop::Ended;
            }
            if slot.actions >= max_actions {
                return Stop::Truncated;
            }
            let current = slot.game.current();
            let window = (1..players).map(|k| Seat(((current.index() + k) % players) as u8)).find(|&s| {
                learners & (1 << s.0) != 0 && slot.declined & (1 << s.0) == 0 && has_reaction(&slot.game, s)
            });
            if let Some(s) = window {
                slot.seat = s;
                slot.window = true;
                return Stop::Decide;
            }
            if learners & (1 << current.0) != 0 {
                slot.seat = current;
                slot.window = false;
                return Stop::Decide;
            }
            let Some(bot) = slot.bots[current.index()].as_mut() else {
                // Every seat is a learner or a bot: unreachable, but stop rather than spin.
                return Stop::Truncated;
            };
            let a = bot.choose_view(&slot.game.view(current));
            slot.game.apply_unchecked(current, a);
            slot.declined = 0;
            slot.actions += 1;
        }
    }

    fn write(&mut self, i: usize, out: &mut Buffers<'_>) {
        let slot = &mut self.slots[i];
        let obs_row = &mut out.obs[i * obs::SIZE..(i + 1) * obs::SIZE];
        let mask_row = &mut out.mask[i * action::COUNT..(i + 1) * action::COUNT];
        if slot.finished {
            obs_row.fill(0.0);
            mask_row.fill(0);
            out.seat[i] = -1;
            slot.legal_bits = None;
            return;
        }
        write_observation(&slot.game, slot.seat, slot.window, obs_row);
        slot.legal_bits = Some(legal_mask_bits(&slot.game, slot.seat, slot.window, &mut slot.legal, mask_row));
        out.seat[i] = i32::from(slot.seat.0);
    }
}

/// Each seat's reward for a finished round: +1 for its winner, -1 for the others, 0 for every
/// seat when the round ended without a winner.
pub fn round_rewards(game: &Game, rewards: &mut [f32]) {
    let winner = game.round_winner();
    for (s, reward) in rewards.iter_mut().enumerate().take(game.players()) {
        *reward = match winner {
            Some(w) if w.index() == s => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
    }
}

/// Owned buffers for one batch, for Rust callers and tests.
#[derive(Clone, Debug, PartialEq)]
pub struct OwnedBuffers {
    pub obs: Vec<f32>,
    pub mask: Vec<i8>,
    pub reward: Vec<f32>,
    pub rewards: Vec<f32>,
    pub terminated: Vec<bool>,
    pub truncated: Vec<bool>,
    pub seat: Vec<i32>,
}

impl OwnedBuffers {
    /// Zeroed buffers for `n` environments.
    pub fn new(n: usize) -> OwnedBuffers {
        OwnedBuffers {
            obs: vec![0.0; n * obs::SIZE],
            mask: vec![0; n * action::COUNT],
            reward: vec![0.0; n],
            rewards: vec![0.0; n * MAX_SEATS],
            terminated: vec![false; n],
            truncated: vec![false; n],
            seat: vec![0; n],
        }
    }

    /// The borrowed form a step fills.
    pub fn as_buffers(&mut self) -> Buffers<'_> {
        Buffers {
            obs: &mut self.obs,
            mask: &mut self.mask,
            reward: &mut self.reward,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            seat: &mut self.seat,
        }
    }

    /// The legal action indices of environment `i`.
    pub fn legal(&self, i: usize) -> Vec<usize> {
        let row = &self.mask[i * action::COUNT..(i + 1) * action::COUNT];
        (0..action::COUNT).filter(|&a| row[a] != 0).collect()
    }
}
