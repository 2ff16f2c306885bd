"""Ray RLlib: tabletop's PettingZoo environments as RLlib multi-agent environments, an
action-masking RLModule, and PPO in self-play.

RLlib's own wrappers step tabletop's environments: ``ParallelPettingZooEnv`` the parallel
environment (one cycle per step), ``PettingZooEnv`` the AEC one (one selection per step). What
RLlib's action-masking modules expect is an observation dict with the keys ``"observations"``
and ``"action_mask"``; tabletop's PettingZoo observations say ``"observation"``, as PettingZoo's
classic games do. So the two environments here are RLlib's wrappers with the key renamed (and
the mask given as float32, as RLlib's examples give theirs):

* ``UnoParallelMultiAgentEnv(config)``: ``ParallelPettingZooEnv`` over ``uno_v0.parallel_env``;
* ``UnoAECMultiAgentEnv(config)``: ``PettingZooEnv`` over ``uno_v0.env`` (wrapped as
  PettingZoo's classic games are).

``config`` holds ``uno_v0``'s keyword arguments (``rules``, ``players``, ``max_stall``, …). An
action outside the mask is refused as ``uno_v0`` refuses it (the parallel environment: a small
penalty and ``info["illegal_action"]``; the AEC one: the episode ends, -1 for the agent), since
RLlib's environment check steps unmasked random actions; ``"illegal_action": "raise"`` (parallel
only) raises instead, with ``ppo_config(check_env=False)``.

``ActionMaskingTorchRLModule`` is PPO's default torch module built on the ``"observations"``
part of the space, its logits of the actions outside ``"action_mask"`` set to the lowest float
(so they are never sampled, and their probability is 0 in the loss). ``ppo_config(...)`` is a
``PPOConfig`` for self-play: every seat an agent, all of them mapped to one shared module.
``examples/python/rllib_ppo.py`` trains with it, on one machine or on a Ray cluster.

Needs ``ray[rllib]`` and torch (not dependencies of the package: ``pip install "ray[rllib]"
torch``).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv, PettingZooEnv
from ray.rllib.utils.framework import try_import_torch
from ray.rllib.utils.torch_utils import FLOAT_MIN
from ray.tune.registry import register_env

from .pettingzoo import uno_v0

torch, _nn = try_import_torch()

__all__ = [
    "ENV_NAME",
    "ActionMaskingTorchRLModule",
    "RoundMetrics",
    "UnoAECMultiAgentEnv",
    "UnoParallelMultiAgentEnv",
    "ppo_config",
    "register",
]

#: The name ``register()`` gives the environments in RLlib's registry (``ENV_NAME`` is the
#: parallel one, ``ENV_NAME + "_aec"`` the AEC one).
ENV_NAME = "tabletop_uno"

# uno_v0's keyword arguments that an RLlib env config may hold.
_ENV_KEYS = ("rules", "players", "max_cycles", "max_actions", "max_stall", "illegal_action", "illegal_reward")


def _env_kwargs(config: Any) -> dict[str, Any]:
    """``uno_v0``'s keyword arguments from an RLlib env config (an ``EnvContext`` or a dict);
    any other key is a ``TypeError`` naming it, as ``uno_v0`` itself says."""
    config = dict(config or {})
    unknown = sorted(set(config) - set(_ENV_KEYS))
    if unknown:
        raise TypeError(f"unknown env config keys {unknown}; known: {list(_ENV_KEYS)}")
    return config


def _space(inner: gym.spaces.Dict) -> gym.spaces.Dict:
    """tabletop's ``{"observation", "action_mask"}`` space under RLlib's keys."""
    mask = inner["action_mask"]
    return gym.spaces.Dict(
        {
            "observations": inner["observation"],
            "action_mask": gym.spaces.Box(0.0, 1.0, shape=mask.shape, dtype=np.float32),
        }
    )


def _rename(observations: dict[str, Any]) -> dict[str, Any]:
    return {
        agent: {"observations": o["observation"], "action_mask": o["action_mask"].astype(np.float32)}
        for agent, o in observations.items()
    }


def _set_spaces(env: Any, inner_space: Any, action_space: Any, agents: list[str]) -> None:
    env.observation_spaces = {a: _space(inner_space(a)) for a in agents}
    env.action_spaces = {a: action_space(a) for a in agents}
    env.observation_space = gym.spaces.Dict(env.observation_spaces)
    env.action_space = gym.spaces.Dict(env.action_spaces)


class UnoParallelMultiAgentEnv(ParallelPettingZooEnv):
    """RLlib's ``ParallelPettingZooEnv`` over ``uno_v0.parallel_env(**config)``: one cycle per
    step (the player to act and every other agent's reaction window), observations under
    RLlib's keys."""

    def __init__(self, config: Any = None) -> None:
        super().__init__(uno_v0.parallel_env(**_env_kwargs(config)))
        self.agents = list(self.par_env.possible_agents)
        self.possible_agents = list(self.par_env.possible_agents)
        _set_spaces(self, self.par_env.observation_space, self.par_env.action_space, self.possible_agents)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        obs, infos = super().reset(seed=seed, options=options)
        return _rename(obs), infos

    def step(self, action_dict: dict) -> tuple[dict, dict, dict, dict, dict]:
        obs, rewards, terminateds, truncateds, infos = super().step(action_dict)
        return _rename(obs), rewards, terminateds, truncateds, infos


class UnoAECMultiAgentEnv(PettingZooEnv):
    """RLlib's ``PettingZooEnv`` over ``uno_v0.env(**config)`` (the AEC environment in
    PettingZoo's standard wrappers): one selection per step, observations under RLlib's keys.
    ``uno_v0.env`` ends an episode on an illegal action, as PettingZoo's classic games do."""

    def __init__(self, config: Any = None) -> None:
        kwargs = _env_kwargs(config)
        if "illegal_action" in kwargs:
            raise TypeError("the AEC environment ends the episode on an illegal action: no illegal_action")
        super().__init__(uno_v0.env(**kwargs))
        self.agents = list(self.env.possible_agents)
        self.possible_agents = list(self.env.possible_agents)
        _set_spaces(self, self.env.observation_space, self.env.action_space, self.possible_agents)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        obs, infos = super().reset(seed=seed, options=options)
        return _rename(obs), infos

    def step(self, action: dict) -> tuple[dict, dict, dict, dict, dict]:
        obs, rewards, terminateds, truncateds, infos = super().step(action)
        return _rename(obs), rewards, terminateds, truncateds, infos


class ActionMaskingTorchRLModule(DefaultPPOTorchRLModule):
    """PPO's default torch module on ``observation_space["observations"]``, whose action
    logits outside ``observation_space["action_mask"]`` are the lowest float: such an action is
    never sampled, and its probability is 0 in the loss and the entropy. The batch is not
    changed in place."""

    def __init__(self, *, observation_space: gym.Space | None = None, **kwargs: Any) -> None:
        if not (
            isinstance(observation_space, gym.spaces.Dict)
            and {"observations", "action_mask"} <= set(observation_space.spaces)
        ):
            raise ValueError(
                'ActionMaskingTorchRLModule needs a Dict observation space with the keys "observations" '
                f'and "action_mask", not {observation_space!r}'
            )
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space["observations"], **kwargs)

    def setup(self) -> None:
        super().setup()
        # The networks are built on "observations"; the module's own space is the whole dict.
        self.observation_space = self.observation_space_with_mask

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        obs = batch[Columns.OBS]
        batch = dict(batch)
        batch[Columns.OBS] = obs["observations"]
        return batch, obs["action_mask"]

    @staticmethod
    def _mask(out: dict[str, Any], mask: Any) -> dict[str, Any]:
        logits = out[Columns.ACTION_DIST_INPUTS]
        out[Columns.ACTION_DIST_INPUTS] = torch.where(mask > 0, logits, torch.full_like(logits, FLOAT_MIN))
        return out

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = self._split(batch)
        return self._mask(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = self._split(batch)
        return self._mask(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        if embeddings is None:
            batch, _ = self._split(batch)
        return super().compute_values(batch, embeddings)


class RoundMetrics(RLlibCallback):
    """Logs, for each episode that ends, whether its round was played out (``1.0``: it ended
    with a winner, or blocked) or cut (``0.0``: it stalled, or reached ``max_actions`` or
    ``max_cycles``), as ``result["env_runners"]["round_finished"]``: the share of rounds a
    policy finishes. (RLlib's ``episode_return_mean`` sums the agents' returns, which for two
    seats is 0 either way.)"""

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
        if metrics_logger is not None:
            # Not `is_terminated`: RLlib sets that too when every agent is truncated.
            metrics_logger.log_value("round_finished", float(not episode.is_truncated), reduce="mean", window=1000)


def register() -> None:
    """Registers the environments with RLlib as ``ENV_NAME`` (parallel) and ``ENV_NAME +
    "_aec"`` (AEC), so that a config (and every env runner of a cluster) can name them."""
    register_env(ENV_NAME, UnoParallelMultiAgentEnv)
    register_env(ENV_NAME + "_aec", UnoAECMultiAgentEnv)


def ppo_config(
    *,
    env_config: dict[str, Any] | None = None,
    aec: bool = False,
    env_runners: int = 0,
    envs_per_env_runner: int = 1,
    train_batch_size: int = 4000,
    minibatch_size: int = 512,
    num_epochs: int = 4,
    lr: float = 3e-4,
    hiddens: tuple[int, ...] = (256, 256),
    seed: int | None = None,
    check_env: bool = True,
) -> PPOConfig:
    """PPO in self-play on tabletop's UNO: every seat an agent, all mapped to one shared
    ``ActionMaskingTorchRLModule``. ``env_runners=0`` samples in the driver process (local
    mode: nothing remote but Ray itself); ``env_runners=N`` starts N env runner actors, on
    whatever nodes the Ray cluster has. ``train_batch_size`` counts env steps (RLlib's
    ``train_batch_size_per_learner``: a parallel env step is a cycle, an AEC one a
    selection). ``RoundMetrics`` logs the share of rounds played out. ``check_env=False`` skips RLlib's environment check
    (which steps unmasked random actions: needed with ``"illegal_action": "raise"``)."""
    register()
    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        model_config={"fcnet_hiddens": list(hiddens), "head_fcnet_hiddens": [], "vf_share_layers": True},
    )
    config = (
        PPOConfig()
        .environment(
            ENV_NAME + ("_aec" if aec else ""), env_config=dict(env_config or {}), disable_env_checking=not check_env
        )
        .framework("torch")
        .env_runners(num_env_runners=env_runners, num_envs_per_env_runner=envs_per_env_runner)
        .multi_agent(policies={"shared"}, policy_mapping_fn=_shared)
        .callbacks(RoundMetrics)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": module}))
        .training(
            train_batch_size_per_learner=train_batch_size,
            minibatch_size=minibatch_size,
            num_epochs=num_epochs,
            lr=lr,
        )
    )
    if seed is not None:
        config = config.debugging(seed=seed)
    return config


def _shared(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    """Every seat plays the one shared module."""
    return "shared"
