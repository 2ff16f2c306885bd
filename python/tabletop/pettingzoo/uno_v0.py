"""UNO as a PettingZoo AEC environment, every seat an agent (``player_0`` …).

``agent_selection`` is the seat that decides: the player to act, or a seat in a reaction
window (a catch, a late UNO call, a jump-in; see docs/python.md). Observations are dicts
``{"observation": float32[OBS_SIZE], "action_mask": int8[NUM_ACTIONS]}``; the mask is all
zero for an agent that is not deciding. One round per episode: the winner gets +1, the
others -1 (0 for everyone when a round ends without a winner). An illegal action raises
``ValueError`` and changes nothing.

``max_cycles`` truncates an episode once every agent has been selected ``max_cycles`` times
(``parallel_env`` counts parallel steps).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from .._core import NUM_ACTIONS, OBS_SIZE, UnoVecEnv

OBS_HIGH = 1000.0


def env(**kwargs):
    """The AEC environment (PettingZoo's usual entry point)."""
    return raw_env(**kwargs)


class raw_env(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "tabletop_uno_v0", "is_parallelizable": False}

    def __init__(self, rules="official", players=4, max_actions=10_000, max_cycles=None, render_mode=None):
        super().__init__()
        self._core = UnoVecEnv(
            1,
            rules=rules,
            players=players,
            learner_seats=list(range(players)),
            opponents=[],
            seed=0,
            max_actions=max_actions,
            auto_reset=False,
        )
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = []
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, OBS_HIGH, shape=(OBS_SIZE,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._seeded = False
        self._action = np.zeros(1, dtype=np.int64)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        core = self._core
        if core.seat[0] == seat:
            return {"observation": core.obs[0].copy(), "action_mask": core.mask[0].copy()}
        obs, _ = core.observe(0, seat)
        return {"observation": obs, "action_mask": np.zeros(NUM_ACTIONS, dtype=np.int8)}

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._core.reset(seed)
        elif not self._seeded:
            self._core.reset(int(np.random.SeedSequence().generate_state(1, np.uint64)[0]))
        else:
            self._core.reset_one(0)
        self._seeded = True
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._selected = {a: 0 for a in self.agents}
        self._select()

    def _select(self):
        self.agent_selection = self.possible_agents[int(self._core.seat[0])]
        self._selected[self.agent_selection] += 1
        self.infos[self.agent_selection] = {"window": self._core.in_window(0)}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        core = self._core
        self._action[0] = int(action)
        core.step(self._action)
        self._cumulative_rewards[agent] = 0.0
        rewards = core.rewards[0]
        for i, a in enumerate(self.agents):
            self.rewards[a] = float(rewards[i])
        over = bool(core.terminated[0])
        cut = bool(core.truncated[0])
        if not (over or cut):
            self._select()
            if self.max_cycles is not None and self._selected[self.agent_selection] > self.max_cycles:
                cut = True
        if over or cut:
            for a in self.agents:
                self.terminations[a] = over
                self.truncations[a] = cut and not over
        self._accumulate_rewards()

    def render(self):
        if self.render_mode == "ansi":
            return repr(self._core.game(0))
        return None

    def close(self):
        pass
