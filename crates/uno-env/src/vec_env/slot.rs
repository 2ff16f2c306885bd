//! One environment: its game, its bots, its episode, and how it plays on to a learner's decision.

use uno::game::Game;
use uno::{Seat, TURN_DECISIONS};
use uno_bots::Bot;

use super::buffers::Row;
use super::Shared;
use crate::mapping::{decode, has_reaction, legal_mask_bits};
use crate::observe::write_observation;
use crate::progress::Progress;
use crate::space::action;

/// How an environment stands after it played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Decide,
    Ended,
    Truncated,
}

pub(super) struct Slot {
    /// The environment's index in the batch (its seeds derive from it).
    pub(super) index: u64,
    pub(super) game: Game,
    pub(super) bots: Vec<Option<Box<dyn Bot>>>,
    pub(super) episode: u64,
    /// Learner seats that let the current reaction window go by (cleared by any engine action).
    pub(super) declined: u16,
    pub(super) seat: Seat,
    pub(super) window: bool,
    pub(super) actions: u32,
    /// How long the round has gone without a hand getting smaller.
    pub(super) progress: Progress,
    pub(super) finished: bool,
    /// The learner actions taken in this episode, in order: with the episode's seeds they
    /// rebuild the environment exactly ([`VecEnv::snapshot`](super::VecEnv::snapshot)).
    pub(super) taken: Vec<u8>,
    /// The legal indices last written to the mask (bit `i` for index `i`), while the state is
    /// the one they were computed for: a step checks its actions against them instead of asking
    /// the engine again.
    pub(super) legal_bits: Option<u128>,
}

impl Slot {
    pub(super) fn step(&mut self, shared: &Shared, index: usize, row: &mut Row<'_>) {
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
            self.progress.record(&self.game);
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
    pub(super) fn start_episode(&mut self, shared: &Shared, episode: u64) {
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
            self.progress = Progress::start(&self.game);
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
        let (max_actions, max_stall) = (shared.config.max_actions, shared.config.max_stall);
        let players = self.game.players();
        loop {
            if self.game.is_round_over() {
                return Stop::Ended;
            }
            if self.actions >= max_actions || self.progress.stall() >= max_stall {
                return Stop::Truncated;
            }
            let current = self.game.current();
            // Under rules where only an exposed seat opens a window, a turn that starts with
            // nobody exposed opens none until its card is down (its UNO calls and its draw
            // expose nobody, and its card is its last decision).
            let quiet = shared.exposure_only && self.game.uno_exposed().is_none();
            if !quiet {
                let window = (1..players).map(|k| current.step(uno::Direction::Clockwise, players, k)).find(|&s| {
                    learners & (1 << s.0) != 0 && self.declined & (1 << s.0) == 0 && has_reaction(&self.game, s)
                });
                if let Some(s) = window {
                    self.seat = s;
                    self.window = true;
                    return Stop::Decide;
                }
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
            // The whole turn at once where no window can open inside it and the caps are
            // more than a turn away (so it stops where the decisions one by one would).
            let room = shared.fuse_turns
                && quiet
                && self.actions.saturating_add(TURN_DECISIONS) <= max_actions
                && self.progress.stall().saturating_add(TURN_DECISIONS) <= max_stall;
            self.declined = 0;
            if room {
                let n = bot.play_turn(&mut self.game);
                self.actions += n;
                self.progress.record_turn(&self.game, n);
            } else {
                let a = bot.choose_view(&self.game.view(current));
                self.game.apply_unchecked(current, a);
                self.actions += 1;
                self.progress.record(&self.game);
            }
        }
    }

    pub(super) fn write(&mut self, row: &mut Row<'_>) {
        if self.finished {
            row.obs.fill(0.0);
            row.mask.fill(0);
            *row.seat = -1;
            self.legal_bits = None;
            return;
        }
        write_observation(&self.game, self.seat, self.window, row.obs);
        self.legal_bits = Some(legal_mask_bits(&self.game, self.seat, self.window, row.mask));
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
