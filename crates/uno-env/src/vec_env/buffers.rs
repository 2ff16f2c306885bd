//! The arrays a step fills: borrowed ([`Buffers`], one [`Row`] per environment) or owned
//! ([`OwnedBuffers`], for Rust callers and tests).

use super::EnvError;
use crate::space::{action, obs, MAX_SEATS};

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
    /// `N`: the episode was cut this step: it stalled for `max_stall` engine actions or reached
    /// `max_actions` (`crate::progress`).
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
pub(super) struct Row<'a> {
    pub(super) obs: &'a mut [f32],
    pub(super) mask: &'a mut [i8],
    pub(super) reward: &'a mut f32,
    pub(super) rewards: &'a mut [f32],
    pub(super) terminated: &'a mut bool,
    pub(super) truncated: &'a mut bool,
    pub(super) seat: &'a mut i32,
    pub(super) final_obs: &'a mut [f32],
}

impl Buffers<'_> {
    pub(super) fn check(&self, n: usize) -> Result<(), EnvError> {
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
    pub(super) fn rows(&mut self) -> Vec<Row<'_>> {
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
