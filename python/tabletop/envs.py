"""Gymnasium environments over the Rust core.

* ``UnoEnv``: one learner seat against bots (id ``tabletop/Uno-v0``). The observation is the
  ``OBS_SIZE`` vector; the legal actions are ``info["action_mask"]`` and ``env.action_masks()``.
  Gymnasium's checker steps random actions, so an illegal action here is refused and
  penalised rather than raised: the state does not change, the reward is ``illegal_reward``
  and ``info["illegal_action"]`` is true (``illegal_action="raise"`` raises instead).
* ``UnoVectorEnv``: ``num_envs`` environments stepped in Rust, auto-reset in the same step
  (``AutoresetMode.SAME_STEP``, as Gymnasium >= 1.0 defines it: a row whose episode ended shows
  the next episode's first observation, and ``info["final_obs"]`` / ``info["final_info"]``
  hold the ended episode's last observation and info, with ``info["_final_obs"]`` marking the
  rows); illegal actions raise ``ValueError`` and change nothing. The arrays it returns are
  the core's buffers, reused by the next step: copy to keep them.
"""

from __future__ import annotations

import numpy as np
import gymnasium as gym
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from ._core import NUM_ACTIONS, OBS_SIZE, UnoVecEnv

OBS_HIGH = 1000.0


def _obs_space():
    return spaces.Box(0.0, OBS_HIGH, shape=(OBS_SIZE,), dtype=np.float32)


def _learners(learner_seats, players):
    if learner_seats == "all":
        return list(range(players))
    if isinstance(learner_seats, int):
        return [learner_seats]
    return list(learner_seats)


def _opponents(opponents):
    return [opponents] if isinstance(opponents, str) else list(opponents)


def _entropy_seed():
    """A seed from the operating system's entropy (for environments made without one)."""
    return int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> np.uint64(1))


class UnoEnv(gym.Env):
    """One learner seat against bots; one round per episode."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        rules="official",
        players=4,
        learner_seat=0,
        opponents="random",
        max_actions=10_000,
        illegal_action="penalty",
        illegal_reward=-0.01,
        render_mode=None,
    ):
        if illegal_action not in ("penalty", "raise"):
            raise ValueError("illegal_action must be 'penalty' or 'raise'")
        self.observation_space = _obs_space()
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.render_mode = render_mode
        self._illegal = illegal_action
        self._illegal_reward = float(illegal_reward)
        self._args = dict(
            rules=rules,
            players=players,
            learner_seats=[learner_seat],
            opponents=_opponents(opponents),
            max_actions=max_actions,
            auto_reset=False,
        )
        self._core = UnoVecEnv(1, seed=0, num_threads=1, **self._args)
        self._started = False
        self._action = np.zeros(1, dtype=np.int64)

    def _info(self, illegal=False):
        core = self._core
        return {
            "action_mask": core.mask[0].copy(),
            "seat": int(core.seat[0]),
            "window": core.in_window(0),
            "episode": core.episode(0),
            "illegal_action": illegal,
        }

    def action_masks(self):
        """The legal actions as booleans (the name maskable-PPO implementations call)."""
        return self._core.mask[0].astype(bool)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self._core.reset(seed)
        elif not self._started:
            # No seed: draw one from Gymnasium's generator, itself seeded or not as the caller chose.
            self._core.reset(int(self.np_random.integers(0, 2**63 - 1)))
        else:
            self._core.reset_one(0)
        self._started = True
        return self._core.obs[0].copy(), self._info()

    def step(self, action):
        core = self._core
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before step()")
        if core.seat[0] < 0:
            raise RuntimeError("the episode is over: call reset()")
        a = int(action)
        if not (0 <= a < NUM_ACTIONS and core.mask[0, a]):
            if self._illegal == "raise":
                raise ValueError(f"action {a} is not legal now")
            return core.obs[0].copy(), self._illegal_reward, False, False, self._info(illegal=True)
        self._action[0] = a
        core.step(self._action)
        return (
            core.obs[0].copy(),
            float(core.reward[0]),
            bool(core.terminated[0]),
            bool(core.truncated[0]),
            self._info(),
        )

    def render(self):
        if self.render_mode == "ansi":
            return repr(self._core.game(0))
        return None


class UnoVectorEnv(VectorEnv):
    """``num_envs`` rounds of UNO stepped together in Rust."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs=1,
        rules="official",
        players=4,
        learner_seats=(0,),
        opponents="random",
        max_actions=10_000,
        seed=None,
        num_threads=None,
        render_mode=None,
    ):
        """``seed=None`` draws the seed from the operating system's entropy; a later
        ``reset()`` without a seed deals fresh episodes from a seed drawn from a generator
        seeded by the last seed given, so runs from the same seed repeat."""
        self.num_envs = num_envs
        self.render_mode = render_mode
        self._seeds = np.random.default_rng(seed)
        if seed is None:
            seed = _entropy_seed()
        self._reset_once = False
        self._core = UnoVecEnv(
            num_envs,
            rules=rules,
            players=players,
            learner_seats=_learners(learner_seats, players),
            opponents=_opponents(opponents),
            seed=seed,
            max_actions=max_actions,
            auto_reset=True,
            num_threads=num_threads,
        )
        self.single_observation_space = _obs_space()
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Box(0.0, OBS_HIGH, shape=(num_envs, OBS_SIZE), dtype=np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, NUM_ACTIONS))
        self._actions = np.zeros(num_envs, dtype=np.int64)

    @property
    def core(self):
        """The ``UnoVecEnv`` underneath."""
        return self._core

    def _info(self):
        core = self._core
        return {"action_mask": core.mask, "seat": core.seat, "rewards": core.rewards}

    def action_masks(self):
        """Each row's legal actions as booleans (``num_envs × NUM_ACTIONS``)."""
        return self._core.mask.astype(bool)

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            self._core.reset(int(seed))
        elif not self._reset_once:
            self._core.reset(None)  # the seed the environment was made with
        else:
            self._core.reset(int(self._seeds.integers(0, 2**63 - 1)))
        self._reset_once = True
        return self._core.obs, self._info()

    def step(self, actions):
        core = self._core
        core.step(actions)
        info = self._info()
        ended = core.terminated | core.truncated
        if ended.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            rows = np.flatnonzero(ended)
            for i in rows:
                final_obs[i] = core.final_obs[i].copy()
            rewards = np.zeros_like(core.rewards)
            rewards[rows] = core.rewards[rows]
            info["final_obs"] = final_obs
            info["_final_obs"] = ended
            info["final_info"] = {"rewards": rewards, "_rewards": ended}
            info["_final_info"] = ended
        return core.obs, core.reward, core.terminated, core.truncated, info
