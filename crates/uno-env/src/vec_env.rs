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
    #[error("could not start the step threads: {0}")]
    Threads(String),
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
    /// `N × obs::SIZE`: for a row whose episode ended this step (`terminated` or `truncated`),
    /// the observation of the seat that acted, at the state the episode ended in (what
    /// Gymnasium calls the final observation, needed to bootstrap a truncated episode); the
    /// other rows are left as they were.
    pub final_obs: &'a mut [f32],
}

/// One environment's rows of the buffers.
struct Row<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [i8],
    reward: &'a mut f32,
    rewards: &'a mut [f32],
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    seat: &'a mut i32,
    final_obs: &'a mut [f32],
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
            ("final_obs", self.final_obs.len(), n * obs::SIZE),
        ];
        for (name, got, expected) in sizes {
            if got != expected {
                return Err(EnvError::Buffer { name, got, expected });
            }
        }
        Ok(())
    }

    /// The buffers cut into one row per environment.
    fn rows(&mut self) -> Vec<Row<'_>> {
        let obs = self.obs.chunks_mut(obs::SIZE);
        let mask = self.mask.chunks_mut(action::COUNT);
        let rewards = self.rewards.chunks_mut(MAX_SEATS);
        let final_obs = self.final_obs.chunks_mut(obs::SIZE);
        let singles = self.reward.iter_mut().zip(self.terminated.iter_mut()).zip(self.truncated.iter_mut());
        obs.zip(mask)
            .zip(rewards)
            .zip(final_obs)
            .zip(singles.zip(self.seat.iter_mut()))
            .map(|((((obs, mask), rewards), final_obs), (((reward, terminated), truncated), seat))| Row {
                obs,
                mask,
                reward,
                rewards,
                terminated,
                truncated,
                seat,
                final_obs,
            })
            .collect()
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
    /// The environment's index in the batch (its seeds derive from it).
    index: u64,
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
    /// The learner actions taken in this episode, in order: with the episode's seeds they
    /// rebuild the environment exactly ([`VecEnv::snapshot`]).
    taken: Vec<u8>,
    /// The legal indices last written to the mask (bit `i` for index `i`), while the state is
    /// the one they were computed for: a step checks its actions against them instead of asking
    /// the engine again.
    legal_bits: Option<u128>,
}

/// What every slot reads while it plays: the configuration and the learner seats as bits.
struct Shared {
    config: EnvConfig,
    learners: u16,
}

/// Environments per task when a step runs on several threads: fewer would cost more in
/// scheduling than they save.
const MIN_ENVS_PER_TASK: usize = 64;

/// `N` environments stepped together, on one thread or on a pool of threads.
pub struct VecEnv {
    shared: Shared,
    slots: Vec<Slot>,
    /// The pool stepping the environments when more than one thread was asked for.
    pool: Option<rayon::ThreadPool>,
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
                index: i as u64,
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
                taken: Vec::new(),
            });
        }
        let shared = Shared { config, learners };
        for slot in &mut slots {
            slot.start_episode(&shared, 0);
        }
        Ok(VecEnv { shared, slots, pool: None })
    }

    /// Steps on `threads` threads from now on (1: on the caller's thread, the default).
    /// Results do not depend on the number of threads.
    ///
    /// # Errors
    /// The operating system refused to start the threads.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), EnvError> {
        self.pool = if threads <= 1 {
            None
        } else {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|k| format!("uno-env-{k}"))
                .build()
                .map_err(|e| EnvError::Threads(e.to_string()))?;
            Some(pool)
        };
        Ok(())
    }

    /// The number of threads a step runs on.
    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, rayon::ThreadPool::current_num_threads)
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
        &self.shared.config
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

    /// What rebuilds every environment as it stands: for each, the episode it plays and the
    /// learner actions taken in it so far. Episodes are dealt and bots seeded from the seed, so
    /// replaying those actions ([`VecEnv::restore`]) gives the same games, bots included.
    pub fn snapshot(&self) -> Vec<(u64, Vec<u8>)> {
        self.slots.iter().map(|s| (s.episode, s.taken.clone())).collect()
    }

    /// Rebuilds every environment from a [`VecEnv::snapshot`] of a batch with the same
    /// configuration (and seed), then rewrites the buffers' observation, mask and seat rows.
    ///
    /// # Errors
    /// A snapshot of another number of environments, or an action the replay finds illegal (a
    /// snapshot of another configuration); buffers of the wrong size.
    pub fn restore(&mut self, snapshot: &[(u64, Vec<u8>)], out: &mut Buffers<'_>) -> Result<(), EnvError> {
        out.check(self.len())?;
        if snapshot.len() != self.len() {
            return Err(EnvError::ActionCount { expected: self.len(), got: snapshot.len() });
        }
        let mut scratch = OwnedBuffers::new(1);
        for (env, (slot, (episode, taken))) in self.slots.iter_mut().zip(snapshot).enumerate() {
            slot.start_episode(&self.shared, *episode);
            for &a in taken {
                let index = usize::from(a);
                if slot.finished || index >= action::COUNT || !is_legal(&slot.game, slot.seat, slot.window, index) {
                    return Err(EnvError::Illegal {
                        env,
                        action: index,
                        name: action_name(index).unwrap_or_default(),
                        seat: slot.seat.index(),
                    });
                }
                let mut buffers = scratch.as_buffers();
                let mut rows = buffers.rows();
                slot.step(&self.shared, index, &mut rows[0]);
            }
        }
        self.refresh(out)
    }

    /// Runs `f` on every slot with its row, on the pool when there is one.
    fn each(&mut self, out: &mut Buffers<'_>, f: impl Fn(&Shared, &mut Slot, &mut Row<'_>) + Sync) {
        let mut rows = out.rows();
        let shared = &self.shared;
        match &self.pool {
            None => self.slots.iter_mut().zip(rows.iter_mut()).for_each(|(slot, row)| f(shared, slot, row)),
            Some(pool) => {
                use rayon::prelude::*;
                let slots = &mut self.slots;
                pool.install(|| {
                    slots
                        .par_iter_mut()
                        .zip(rows.par_iter_mut())
                        .with_min_len(MIN_ENVS_PER_TASK)
                        .for_each(|(slot, row)| f(shared, slot, row));
                });
            }
        }
    }

    /// Deals episode 0 of every environment again, from `seed` when given, and fills the buffers.
    ///
    /// # Errors
    /// Buffers of the wrong size.
    pub fn reset(&mut self, seed: Option<u64>, out: &mut Buffers<'_>) -> Result<(), EnvError> {
        out.check(self.len())?;
        if let Some(seed) = seed {
            self.shared.config.seed = seed;
        }
        self.each(out, |shared, slot, row| {
            slot.start_episode(shared, 0);
            *row.reward = 0.0;
            *row.terminated = false;
            *row.truncated = false;
            row.rewards.fill(0.0);
            slot.write(row);
        });
        Ok(())
    }

    /// Deals the next episode of environment `i` alone (for wrappers without auto-reset).
    pub fn reset_one(&mut self, i: usize) {
        if let Some(slot) = self.slots.get_mut(i) {
            let next = slot.episode + 1;
            slot.start_episode(&self.shared, next);
        }
    }

    /// Rewrites every environment's observation, mask and seat (after [`VecEnv::reset_one`]).
    ///
    /// # Errors
    /// Buffers of the wrong size.
    pub fn refresh(&mut self, out: &mut Buffers<'_>) -> Result<(), EnvError> {
        out.check(self.len())?;
        for (slot, row) in self.slots.iter_mut().zip(out.rows().iter_mut()) {
            slot.write(row);
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
        // Checked above: every action in range and legal.
        self.each(out, |shared, slot, row| {
            let index = actions[slot.index as usize] as usize;
            slot.step(shared, index, row);
        });
        Ok(())
    }
}

impl Slot {
    fn step(&mut self, shared: &Shared, index: usize, row: &mut Row<'_>) {
        let actor = self.seat;
        // Indices are below `action::COUNT` (88): a byte holds them.
        self.taken.push(index as u8);
        self.legal_bits = None;
        if index == action::DECLINE {
            self.declined |= 1 << actor.0;
        } else if let Some(a) = decode(&self.game, actor, index) {
            self.game.apply_unchecked(actor, a);
            self.declined = 0;
            self.actions += 1;
        }
        row.rewards.fill(0.0);
        let stop = self.play_on(shared);
        *row.terminated = stop == Stop::Ended;
        *row.truncated = stop == Stop::Truncated;
        if stop == Stop::Ended {
            round_rewards(&self.game, row.rewards);
        }
        *row.reward = row.rewards[actor.index()];
        if stop != Stop::Decide {
            // The state the episode ended in, as the seat that acted sees it.
            write_observation(&self.game, actor, false, row.final_obs);
            if shared.config.auto_reset {
                let next = self.episode + 1;
                self.start_episode(shared, next);
            } else {
                self.finished = true;
            }
        }
        self.write(row);
    }

    /// Deals episode `episode` and plays to its first learner decision.
    fn start_episode(&mut self, shared: &Shared, episode: u64) {
        let mut episode = episode;
        loop {
            let seed = seeding::episode_seed(shared.config.seed, self.index, episode);
            self.game.restart(seed);
            for (s, bot) in self.bots.iter_mut().enumerate() {
                if let Some(bot) = bot {
                    bot.reseed(seeding::episode_bot_seed(seed, s));
                }
            }
            self.episode = episode;
            self.taken.clear();
            self.legal_bits = None;
            self.declined = 0;
            self.actions = 0;
            self.finished = false;
            if self.play_on(shared) == Stop::Decide {
                return;
            }
            // A round over before any learner decided teaches nothing: deal the next.
            episode += 1;
        }
    }

    /// Plays bots and skips declined windows until a learner decides or the episode stops.
    fn play_on(&mut self, shared: &Shared) -> Stop {
        let learners = shared.learners;
        let max_actions = shared.config.max_actions;
        let players = self.game.players();
        loop {
            if self.game.is_round_over() {
                return Stop::Ended;
            }
            if self.actions >= max_actions {
                return Stop::Truncated;
            }
            let current = self.game.current();
            let window = (1..players).map(|k| Seat(((current.index() + k) % players) as u8)).find(|&s| {
                learners & (1 << s.0) != 0 && self.declined & (1 << s.0) == 0 && has_reaction(&self.game, s)
            });
            if let Some(s) = window {
                self.seat = s;
                self.window = true;
                return Stop::Decide;
            }
            if learners & (1 << current.0) != 0 {
                self.seat = current;
                self.window = false;
                return Stop::Decide;
            }
            let Some(bot) = self.bots[current.index()].as_mut() else {
                // Every seat is a learner or a bot: unreachable, but stop rather than spin.
                return Stop::Truncated;
            };
            let a = bot.choose_view(&self.game.view(current));
            self.game.apply_unchecked(current, a);
            self.declined = 0;
            self.actions += 1;
        }
    }

    fn write(&mut self, row: &mut Row<'_>) {
        if self.finished {
            row.obs.fill(0.0);
            row.mask.fill(0);
            *row.seat = -1;
            self.legal_bits = None;
            return;
        }
        write_observation(&self.game, self.seat, self.window, row.obs);
        self.legal_bits = Some(legal_mask_bits(&self.game, self.seat, self.window, &mut self.legal, row.mask));
        *row.seat = i32::from(self.seat.0);
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
    pub final_obs: Vec<f32>,
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
            final_obs: vec![0.0; n * obs::SIZE],
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
            final_obs: &mut self.final_obs,
        }
    }

    /// The legal action indices of environment `i`.
    pub fn legal(&self, i: usize) -> Vec<usize> {
        let row = &self.mask[i * action::COUNT..(i + 1) * action::COUNT];
        (0..action::COUNT).filter(|&a| row[a] != 0).collect()
    }
}
