"""UNO as a PettingZoo environment, every seat an agent (``player_0`` …).

The game runs in **cycles**, PettingZoo's unit of time: in each cycle the player to act takes
its turn, then every other agent, in seat order after it, is selected once for a *reaction
window* (a catch, a late UNO call for itself, a jump-in, or ``DECLINE``; an agent whose turn
is next can only decline). So every agent is selected exactly once per cycle, and
``max_cycles`` truncates the episode after that many cycles. ``parallel_env`` runs one cycle
per step with every agent's action submitted at once: every mask is computed at the state the
cycle starts from and each action is judged against the mask its agent was given (the
reactions first, in seat order after the player to act, then the player to act; an action an
earlier one made impossible is *overtaken*: nothing happens, no penalty,
``info["overtaken"]``).

Observations are ``{"observation": float32[OBS_SIZE], "action_mask": int8[NUM_ACTIONS]}``;
the mask is all zero for an agent that is not selected. One round per episode: the winner
gets +1, the others -1 (0 for all when the round ends without a winner).

An illegal action (``illegal_action="penalty"``, the default, so that unmasked random
agents can run) is refused: nothing changes, the agent's reward is ``illegal_reward``, its
``info["illegal_action"]`` is true and the selection moves on as if it had declined.
``illegal_action="raise"`` raises ``ValueError`` instead.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from .._core import DECLINE, NUM_ACTIONS, OBS_SIZE, Game, episode_seed

OBS_HIGH = 1000.0

# The mask of a selection that can only let its window go by, copied for each observation.
_DECLINE_ONLY = np.zeros(NUM_ACTIONS, dtype=np.int8)
_DECLINE_ONLY[DECLINE] = 1


def env(**kwargs):
    """The AEC environment (PettingZoo's usual entry point)."""
    return raw_env(**kwargs)


def parallel_env(**kwargs):
    """The parallel environment: one cycle per step."""
    return UnoParallelEnv(**kwargs)


def _spaces(players):
    agents = [f"player_{i}" for i in range(players)]
    obs = spaces.Dict(
        {
            "observation": spaces.Box(0.0, OBS_HIGH, shape=(OBS_SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
    )
    return agents, {a: obs for a in agents}, {a: spaces.Discrete(NUM_ACTIONS) for a in agents}


class _Table:
    """The game and its cycle, shared by the AEC and parallel environments."""

    def __init__(self, rules, players, max_actions, illegal_action, illegal_reward):
        if illegal_action not in ("penalty", "raise"):
            raise ValueError("illegal_action must be 'penalty' or 'raise'")
        self.rules = rules
        self.players = players
        self.max_actions = max_actions
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        Game(rules, players, 0, fast=True)  # refuses a table the rules do not allow, early
        self.seed = None
        self.episode = 0
        self.game = None
        # The current selection once computed: [seat, observation, mask, mask as bytes]. `act`
        # judges against the bytes, which nobody else holds, so the arrays are handed out as
        # they are (once: then they are the caller's). Cleared whenever the state or the
        # selection changes.
        self._legal = None

    def deal(self, seed):
        if seed is not None:
            self.seed, self.episode = int(seed), 0
        elif self.seed is None:
            self.seed, self.episode = int(np.random.SeedSequence().generate_state(1, np.uint64)[0]), 0
        else:
            self.episode += 1
        self.game = Game(self.rules, self.players, episode_seed(self.seed, 0, self.episode), fast=True)
        self.actions = 0
        self.start_cycle()

    def start_cycle(self):
        turn = self.game.current
        self.order = [(turn + k) % self.players for k in range(self.players)]
        self.position = 0
        self._legal = None

    @property
    def selected(self):
        return self.order[self.position]

    def is_window(self, seat):
        return seat != self.order[0] or self.position > 0

    def mask(self, seat):
        """The legal actions of ``seat`` at its selection now."""
        return np.frombuffer(self._selection(seat)[3], dtype=np.int8).copy()

    def _select(self, seat):
        """(observation, mask, mask bytes) of ``seat`` at its selection now, from the engine."""
        game = self.game
        if self.position == 0 and seat == self.order[0]:
            return game.selection(seat, False)
        if seat == game.current:
            return game.selection(seat, True, True)
        return game.selection(seat, True)

    def _selection(self, seat):
        """[seat, observation, mask, mask bytes] of ``seat`` at its selection now, computed once
        per selection; the arrays are None once handed out."""
        cached = self._legal
        if cached is not None and cached[0] == seat:
            return cached
        cached = self._legal = [seat, *self._select(seat)]
        return cached

    def observation(self, seat, selected):
        if selected:
            cached = self._selection(seat)
            obs, mask = cached[1], cached[2]
            if obs is None:
                # Asked again in the same selection: the first arrays are the caller's now.
                obs, mask, _ = self._select(seat)
            cached[1] = cached[2] = None
            return {"observation": obs, "action_mask": mask}
        obs = self.game.observation_vector(seat, seat != self.game.current)
        return {"observation": obs, "action_mask": np.zeros(NUM_ACTIONS, dtype=np.int8)}

    def act(self, seat, action):
        """Applies ``seat``'s action at its selection; returns whether it was legal."""
        a = int(action)
        if not (0 <= a < NUM_ACTIONS and self._selection(seat)[3][a]):
            if self.illegal_action == "raise":
                raise ValueError(f"action {a} is not legal for player {seat} now")
            return False
        if a != DECLINE:
            self._legal = None
            self.game.play(a, seat)
            self.actions += 1
        return True

    def advance(self):
        """Moves to the next selection; returns True when a cycle ended."""
        self._legal = None
        self.position += 1
        if self.position == self.players:
            self.start_cycle()
            return True
        return False

    def over(self):
        return self.game.is_round_over()

    def capped(self):
        return self.actions >= self.max_actions


class raw_env(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "tabletop_uno_v0", "is_parallelizable": True}

    def __init__(
        self,
        rules="official",
        players=4,
        max_cycles=None,
        max_actions=10_000,
        illegal_action="penalty",
        illegal_reward=-0.01,
        render_mode=None,
    ):
        super().__init__()
        self._table = _Table(rules, players, max_actions, illegal_action, illegal_reward)
        self.possible_agents, self.observation_spaces, self.action_spaces = _spaces(players)
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents = []
        self.max_cycles = max_cycles
        self.render_mode = render_mode

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        seat = self._seats[agent]
        t = self._table
        done = self.terminations.get(agent, True) or self.truncations.get(agent, True)
        selected = agent == self.agent_selection and not done
        return t.observation(seat, selected)

    def last(self, observe=True):
        """PettingZoo's ``last``, without its detour through ``observe``."""
        agent = self.agent_selection
        assert agent is not None
        terminated, truncated = self.terminations[agent], self.truncations[agent]
        selected = not (terminated or truncated)
        observation = self._table.observation(self._seats[agent], selected) if observe else None
        return observation, self._cumulative_rewards[agent], terminated, truncated, self.infos[agent]

    def reset(self, seed=None, options=None):
        self._table.deal(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"illegal_action": False} for a in self.agents}
        # Whether `rewards` holds a non-zero reward, and which agent's info flags an illegal
        # action: a step clears only those (most steps reward nobody and flag nobody).
        self._rewarded = False
        self._flagged = None
        self._cycles = 0
        self.agent_selection = self.possible_agents[self._table.selected]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        t = self._table
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        if self._flagged is not None:
            if self._flagged in self.infos:
                self.infos[self._flagged] = {"illegal_action": False}
            self._flagged = None
        if not t.act(self._seats[agent], action):
            self.rewards[agent] = t.illegal_reward
            self._rewarded = True
            self.infos[agent] = {"illegal_action": True}
            self._flagged = agent
        if t.game.is_round_over():
            for i, r in enumerate(t.game.round_rewards()):
                self.rewards[self.possible_agents[i]] += r
            self._rewarded = True
            self.terminations = {a: True for a in self.agents}
        else:
            if t.advance():
                self._cycles += 1
            if t.actions >= t.max_actions or (self.max_cycles is not None and self._cycles >= self.max_cycles):
                self.truncations = {a: True for a in self.agents}
            self.agent_selection = self.possible_agents[t.order[t.position]]
        if self._rewarded:
            self._accumulate_rewards()

    def render(self):
        if self.render_mode == "ansi":
            return repr(self._table.game)
        return None

    def close(self):
        pass


class UnoParallelEnv(ParallelEnv):
    metadata = {"render_modes": ["ansi"], "name": "tabletop_uno_v0"}

    def __init__(
        self,
        rules="official",
        players=4,
        max_cycles=None,
        max_actions=10_000,
        illegal_action="penalty",
        illegal_reward=-0.01,
        render_mode=None,
    ):
        self._table = _Table(rules, players, max_actions, illegal_action, illegal_reward)
        self.possible_agents, self.observation_spaces, self.action_spaces = _spaces(players)
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        self._masks = {}
        self.agents = []
        self.max_cycles = max_cycles
        self.render_mode = render_mode

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _observations(self):
        """Every agent's observation at the state the cycle starts from, keeping (as bytes,
        which nobody else holds) the masks that ``step`` judges the agents' actions against."""
        t = self._table
        game = t.game
        over = t.over()
        turn = game.current
        out = {}
        masks = {}
        for agent in self.agents:
            seat = self._seats[agent]
            if over:
                obs, mask = game.observation_vector(seat, seat != turn), np.zeros(NUM_ACTIONS, dtype=np.int8)
                masks[agent] = bytes(NUM_ACTIONS)
            else:
                obs, mask, masks[agent] = game.selection(seat, seat != turn)
            out[agent] = {"observation": obs, "action_mask": mask}
        self._masks = masks
        return out

    def reset(self, seed=None, options=None):
        self._table.deal(seed)
        self.agents = self.possible_agents[:]
        self._cycles = 0
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions):
        """One cycle. Every mask was computed at the state the cycle starts from, and each action
        is judged against the mask its agent was given: the reactions first (in seat order after
        the player to act), then the player to act. An action from the given mask that an
        earlier one made impossible (two agents catching the same seat, a turn taken by a
        jump-in) is *overtaken*: nothing happens, no penalty, ``info["overtaken"]`` is true."""
        t = self._table
        game = t.game
        turn = game.current
        # Judge every action against its mask first: with "raise" a refused step changes nothing.
        chosen = {}
        illegal = set()
        for agent in self.agents:
            a = actions.get(agent, DECLINE)
            a = int(a) if a is not None else DECLINE
            mask = self._masks[agent]
            if 0 <= a < NUM_ACTIONS and mask[a] == 1:
                chosen[agent] = a
            else:
                if t.illegal_action == "raise":
                    raise ValueError(f"action {a} is not legal for {agent} now")
                illegal.add(agent)
        rewards = {a: 0.0 for a in self.agents}
        infos = {a: {"illegal_action": a in illegal, "overtaken": False} for a in self.agents}
        for agent in illegal:
            rewards[agent] += t.illegal_reward
        order = [(turn + k) % t.players for k in range(1, t.players)] + [turn]
        for seat in order:
            agent = self.possible_agents[seat]
            a = chosen.get(agent, DECLINE)
            if a == DECLINE or agent not in chosen:
                continue
            if t.over() or game.legal_mask(seat, seat != turn)[a] != 1:
                infos[agent]["overtaken"] = True
                continue
            game.play(a, seat)
            t.actions += 1
        self._cycles += 1
        over = t.over()
        if over:
            for i, r in enumerate(game.round_rewards()):
                rewards[self.possible_agents[i]] += r
        t.start_cycle()
        cut = not over and (t.capped() or (self.max_cycles is not None and self._cycles >= self.max_cycles))
        observations = self._observations()
        terminations = {a: over for a in self.agents}
        truncations = {a: cut for a in self.agents}
        if over or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self):
        if self.render_mode == "ansi":
            return repr(self._table.game)
        return None

    def close(self):
        pass
