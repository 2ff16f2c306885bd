//! The batched environment: `N` independent rounds of UNO, bots playing inside, learners deciding.
//!
//! Each environment plays one round per episode. After a learner's action the environment plays
//! on (bots at their seats, each learner's reaction windows) until a learner must decide, the
//! round ends (`terminated`), or the episode is cut (`truncated`): it stalled for `max_stall`
//! engine actions (no hand got smaller than it had been: [`crate::progress`]) or reached
//! `max_actions` engine actions.
//! With `auto_reset` the finished environment deals its next episode at once, and the arrays show
//! that episode's first decision (the reward and flags still describe the step that ended).
//!
//! Seeding: episode `e` of environment `i` is dealt by [`seeding::episode_seed`]`(seed, i, e)` and its bots
//! are seeded by [`seeding::episode_bot_seed`], so an environment's games do not depend on the batch size.
//!
//! Here the batch ([`VecEnv`]) and its configuration; `slot` holds one environment and how it
//! plays on, `buffers` the arrays a step fills, `error` why a batch is refused.

mod buffers;
mod error;
mod slot;

use std::sync::Arc;

use uno::game::Game;
use uno::{Rules, Seat};
use uno_bots::{Bot, BotSpec};

pub use buffers::{Buffers, OwnedBuffers};
pub use error::EnvError;
pub use slot::round_rewards;

use crate::mapping::is_legal;
use crate::progress::Progress;
use crate::space::{action, action_name};
use buffers::Row;
use slot::Slot;

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
    /// Engine actions without progress ([`crate::progress`]) after which an episode is
    /// truncated; `u32::MAX` never cuts.
    pub max_stall: u32,
    /// Whether a finished environment deals its next episode at once.
    pub auto_reset: bool,
}

/// What every slot reads while it plays: the configuration and the learner seats as bits.
struct Shared {
    config: EnvConfig,
    learners: u16,
    /// Whether only an exposed seat can open a reaction window under these rules
    /// ([`crate::mapping::reactions_need_exposure`]).
    exposure_only: bool,
    /// Whether a bot's turn is played in one call where no window can open inside it (off
    /// only in the test that compares the two ways).
    fuse_turns: bool,
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
    /// number of opponents that is neither one nor one per bot seat, `max_actions` or
    /// `max_stall` of 0.
    pub fn new(num_envs: usize, config: EnvConfig) -> Result<VecEnv, EnvError> {
        VecEnv::build(num_envs, config, true)
    }

    /// [`VecEnv::new`], with bots' turns played whole where they can be (`fuse_turns`) or one
    /// decision at a time (the test that compares the two).
    fn build(num_envs: usize, config: EnvConfig, fuse_turns: bool) -> Result<VecEnv, EnvError> {
        if num_envs == 0 {
            return Err(EnvError::NoEnvironments);
        }
        config.rules.check_players(config.players)?;
        if config.max_actions == 0 {
            return Err(EnvError::MaxActions);
        }
        if config.max_stall == 0 {
            return Err(EnvError::MaxStall);
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
                progress: Progress::default(),
                finished: false,
                legal_bits: None,
                taken: Vec::new(),
            });
        }
        let exposure_only = crate::mapping::reactions_need_exposure(&config.rules);
        let shared = Shared { config, learners, exposure_only, fuse_turns };
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

    /// How long environment `i`'s round has gone without progress ([`crate::progress`]).
    pub fn progress(&self, i: usize) -> Option<Progress> {
        self.slots.get(i).map(|s| s.progress)
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

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// A batch after one step: every buffer, and its snapshot (each environment's episode and
    /// learner actions).
    type After = (OwnedBuffers, Vec<(u64, Vec<u8>)>);

    /// The batch after each random learner step, bots' turns fused or not.
    fn run(cfg: &EnvConfig, fuse: bool, steps: usize) -> Vec<After> {
        let n = 6;
        let mut env = VecEnv::build(n, cfg.clone(), fuse).expect("a batch the rules allow");
        let mut buf = OwnedBuffers::new(n);
        env.reset(None, &mut buf.as_buffers()).expect("reset");
        let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
        let mut out = Vec::new();
        for _ in 0..steps {
            let actions: Vec<i64> = (0..n)
                .map(|i| {
                    let legal = buf.legal(i);
                    legal[rng.gen_range(0..legal.len())] as i64
                })
                .collect();
            env.step(&actions, &mut buf.as_buffers()).expect("legal actions");
            out.push((buf.clone(), env.snapshot()));
        }
        out
    }

    #[test]
    fn a_bots_turn_played_whole_gives_the_episodes_of_its_decisions_one_by_one() {
        let mut fused_rule_sets = 0;
        for (k, set) in uno::testing::core_rule_sets().into_iter().enumerate() {
            let players = (2 + k % 3).clamp(set.rules.min_players(), set.rules.max_players());
            for (bot, learners, caps) in [
                (BotSpec::Random, vec![Seat(0)], (DEFAULT_MAX_ACTIONS, crate::DEFAULT_MAX_STALL)),
                (BotSpec::Heuristic, vec![Seat(1)], (DEFAULT_MAX_ACTIONS, crate::DEFAULT_MAX_STALL)),
                // Caps a few decisions apart, so that turns start near them.
                (BotSpec::Random, vec![Seat(0)], (53, 9)),
                (BotSpec::Heuristic, vec![Seat(0), Seat(1)], (41, 7)),
            ] {
                if learners.len() >= players {
                    continue;
                }
                let cfg = EnvConfig {
                    rules: set.rules.clone(),
                    players,
                    learners,
                    opponents: vec![bot],
                    seed: 40 + k as u64,
                    max_actions: caps.0,
                    max_stall: caps.1,
                    auto_reset: true,
                };
                let one_by_one = run(&cfg, false, 150);
                assert!(run(&cfg, true, 150) == one_by_one, "{} with {bot:?} bots, caps {caps:?}", set.name);
            }
            fused_rule_sets += usize::from(crate::mapping::reactions_need_exposure(&set.rules));
        }
        assert!(fused_rule_sets >= 5, "{fused_rule_sets} rule sets fuse turns");
    }
}
