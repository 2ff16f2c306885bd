"""Gymnasium environments over the Rust core.

* ``UnoGymEnv``: one learner seat against bots (id ``tabletop/Uno-v0``). The observation is the
  ``OBS_SIZE`` vector; the legal actions are ``info["action_mask"]`` and ``env.action_masks()``.
  Gymnasium's checker steps random actions, so an illegal action here is refused and
  penalised rather than raised: the state does not change, the reward is ``illegal_reward``
  and ``info["illegal_action"]`` is true (``illegal_action="raise"`` raises instead).
* ``UnoGymVectorEnv``: ``num_envs`` environments stepped in Rust (over ``UnoVecEnv``, the
  batched core), auto-reset in the same step
  (``AutoresetMode.SAME_STEP``, as Gymnasium >= 1.0 defines it: a row whose episode ended shows
  the next episode's first observation, and ``info["final_obs"]`` / ``info["final_info"]``
  hold the ended episode's last observation and info, with ``info["_final_obs"]`` marking the
  rows); illegal actions raise ``ValueError`` and change nothing. The arrays it returns are
  the core's buffers, reused by the next step: copy to keep them.

Both truncate an episode that stalls (``max_stall`` engine actions without a hand getting
smaller than it had been this round; 400 by default, ``None`` for no bound) or reaches
``max_actions`` engine actions (10,000).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import numpy.typing as npt
import gymnasium as gym
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from ._core import DEFAULT_MAX_ACTIONS, DEFAULT_MAX_STALL, NUM_ACTIONS, OBS_SIZE, UnoVecEnv
from ._render import render_table

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


class UnoGymEnv(gym.Env[npt.NDArray[np.float32], int]):
    """One learner seat against bots; one round per episode."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        rules: str = "official",
        players: int = 4,
        learner_seat: int = 0,
        opponents: str | Sequence[str] = "random",
        max_actions: int = DEFAULT_MAX_ACTIONS,
        max_stall: int | None = DEFAULT_MAX_STALL,
        illegal_action: str = "penalty",
        illegal_reward: float = -0.01,
        render_mode: str | None = None,
    ) -> None:
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
            max_stall=max_stall,
            auto_reset=False,
        )
        self._core = UnoVecEnv(1, seed=0, num_threads=1, **self._args)
        self._started = False
        self._action = np.zeros(1, dtype=np.int64)

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        core = self._core
        return {
            "action_mask": core.mask[0].copy(),
            "seat": int(core.seat[0]),
            "window": core.in_window(0),
            "episode": core.episode(0),
            "illegal_action": illegal,
        }

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions as booleans (the name maskable-PPO implementations call)."""
        return self._core.mask[0].astype(bool)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
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

    def step(self, action: int) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
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

    def render(self) -> str | None:  # type: ignore[override]
        if self.render_mode == "ansi":
            game = self._core.game(0)
            return render_table(game, game.stall)
        return None


class UnoGymVectorEnv(VectorEnv[npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[np.float32]]):
    """``num_envs`` rounds of UNO stepped together in Rust."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int = 1,
        rules: str = "official",
        players: int = 4,
        learner_seats: int | str | Sequence[int] = (0,),
        opponents: str | Sequence[str] = "random",
        max_actions: int = DEFAULT_MAX_ACTIONS,
        max_stall: int | None = DEFAULT_MAX_STALL,
        seed: int | None = None,
        num_threads: int | None = None,
        render_mode: str | None = None,
    ) -> None:
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
            max_stall=max_stall,
            auto_reset=True,
            num_threads=num_threads,
        )
        self.single_observation_space = _obs_space()
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Box(0.0, OBS_HIGH, shape=(num_envs, OBS_SIZE), dtype=np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, NUM_ACTIONS))
        self._actions = np.zeros(num_envs, dtype=np.int64)

    @property
    def core(self) -> UnoVecEnv:
        """The ``UnoVecEnv`` underneath."""
        return self._core

    def _info(self) -> dict[str, Any]:
        core = self._core
        return {"action_mask": core.mask, "seat": core.seat, "rewards": core.rewards}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Each row's legal actions as booleans (``num_envs × NUM_ACTIONS``)."""
        return self._core.mask.astype(bool)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            self._core.reset(int(seed))
        elif not self._reset_once:
            self._core.reset(None)  # the seed the environment was made with
        else:
            self._core.reset(int(self._seeds.integers(0, 2**63 - 1)))
        self._reset_once = True
        return self._core.obs, self._info()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
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


_RENAMED = {"UnoEnv": "UnoGymEnv", "UnoVectorEnv": "UnoGymVectorEnv"}


def __getattr__(name: str) -> Any:
    # The old names, kept only to say the new ones (one name per meaning: `UnoEnv` is the
    # RLCard-compatible environment, `UnoVecEnv` the batched core).
    if name in _RENAMED:
        raise AttributeError(f"tabletop.envs.{name} is now tabletop.envs.{_RENAMED[name]}")
    raise AttributeError(f"module 'tabletop.envs' has no attribute '{name}'")
