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

``env()`` wraps ``raw_env`` as PettingZoo's classic games do (``TerminateIllegalWrapper``,
``AssertOutOfBoundsWrapper``, ``OrderEnforcingWrapper``): an illegal action ends the episode,
its agent's reward is ``illegal_reward`` (-1) and the others' 0. ``raw_env`` itself, and
``parallel_env``, refuse it instead (``illegal_action="penalty"``, their default, so that
unmasked random agents can run): nothing changes, the agent's reward is ``illegal_reward``
(-0.01), its ``info["illegal_action"]`` is true and the selection moves on as if it had
declined; ``illegal_action="raise"`` raises ``ValueError``.

``agents`` lists the agents in the order the current cycle selects them (the player to act
first), so PettingZoo's ``aec_to_parallel`` steps the AEC environment cycle by cycle; it has
``possible_agents``' order before the first reset. An episode ends at the end of a cycle: once
the round is over (or cut) in mid-cycle, the cycle's remaining agents can only decline. An episode is truncated when it stalls
(``max_stall`` engine actions, 400 by default, in which no hand got smaller than it had been
this round), reaches ``max_actions`` engine actions (10,000) or ``max_cycles`` cycles.
"""

from __future__ import annotations

from typing import Any, TypedDict

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from .._render import render_table

from .._core import DECLINE, DEFAULT_MAX_ACTIONS, DEFAULT_MAX_STALL, NO_STALL_BOUND, NUM_ACTIONS, OBS_SIZE, Game, episode_seed

OBS_HIGH = 1000.0


class Observation(TypedDict):
    """What an agent observes: tabletop's observation vector and its legal actions."""

    observation: npt.NDArray[np.float32]
    action_mask: npt.NDArray[np.int8]

# The mask of a selection that can only let its window go by, copied for each observation.
_DECLINE_ONLY = np.zeros(NUM_ACTIONS, dtype=np.int8)
_DECLINE_ONLY[DECLINE] = 1


def env(
    *,
    rules: str = "official",
    players: int = 4,
    max_cycles: int | None = None,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    max_stall: int | None = DEFAULT_MAX_STALL,
    illegal_reward: float = -1.0,
    render_mode: str | None = None,
) -> AECEnv[str, Observation, int]:
    """The AEC environment as PettingZoo's classic games give theirs: ``raw_env`` in
    ``TerminateIllegalWrapper`` (an illegal action ends the episode, ``illegal_reward`` for its
    agent), ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``."""
    aec = raw_env(
        rules=rules,
        players=players,
        max_cycles=max_cycles,
        max_actions=max_actions,
        max_stall=max_stall,
        render_mode=render_mode,
    )
    wrapped: AECEnv[str, Observation, int] = wrappers.TerminateIllegalWrapper(aec, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return _OrderEnforcingWrapper(wrapped)


class _OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):  # type: ignore[type-arg]
    """PettingZoo's ``OrderEnforcingWrapper``, except that ``agents`` and ``num_agents`` are
    there before the first reset, as the environment's own are (RLCard's DMC trainer reads
    them when it is built)."""

    def __getattr__(self, name: str) -> Any:
        if name in ("agents", "num_agents"):
            return getattr(self.env, name)
        return super().__getattr__(name)


def parallel_env(
    *,
    rules: str = "official",
    players: int = 4,
    max_cycles: int | None = None,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    max_stall: int | None = DEFAULT_MAX_STALL,
    illegal_action: str = "penalty",
    illegal_reward: float = -0.01,
    render_mode: str | None = None,
) -> UnoParallelEnv:
    """The parallel environment: one cycle per step."""
    return UnoParallelEnv(
        rules=rules,
        players=players,
        max_cycles=max_cycles,
        max_actions=max_actions,
        max_stall=max_stall,
        illegal_action=illegal_action,
        illegal_reward=illegal_reward,
        render_mode=render_mode,
    )


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

    def __init__(self, rules, players, max_actions, max_stall, illegal_action, illegal_reward):
        if illegal_action not in ("penalty", "raise"):
            raise ValueError("illegal_action must be 'penalty' or 'raise'")
        if max_actions < 1 or (max_stall is not None and max_stall < 1):
            raise ValueError("max_actions and max_stall must be at least 1 (max_stall None: no bound)")
        self.rules = rules
        self.players = players
        self.max_actions = max_actions
        self.max_stall = NO_STALL_BOUND if max_stall is None else int(max_stall)
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
        if game.is_round_over():
            # The rest of the cycle after the round's end: nothing to do but let it go by.
            return game.selection(seat, True, True)
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
        """Whether the episode is cut: it stalled for ``max_stall`` engine actions (no hand got
        smaller than it had been) or reached ``max_actions``."""
        return self.actions >= self.max_actions or self.game.stall >= self.max_stall


class raw_env(AECEnv[str, Observation, int]):
    metadata = {"render_modes": ["ansi"], "name": "tabletop_uno_v0", "is_parallelizable": True}

    def __init__(
        self,
        rules: str = "official",
        players: int = 4,
        max_cycles: int | None = None,
        max_actions: int = DEFAULT_MAX_ACTIONS,
        max_stall: int | None = DEFAULT_MAX_STALL,
        illegal_action: str = "penalty",
        illegal_reward: float = -0.01,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self._table = _Table(rules, players, max_actions, max_stall, illegal_action, illegal_reward)
        self.possible_agents, self.observation_spaces, self.action_spaces = _spaces(players)
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        # Before the first reset too (RLCard's trainers read it when they are built).
        self.agents = self.possible_agents[:]
        self.max_cycles = max_cycles
        self.render_mode = render_mode

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _cycle_order(self) -> None:
        """``agents`` in the order this cycle selects them (a new list: PettingZoo's
        ``aec_to_parallel`` iterates the old one through the cycle's last step)."""
        self.agents = [self.possible_agents[s] for s in self._table.order]

    def observe(self, agent: str) -> Observation:
        seat = self._seats[agent]
        t = self._table
        done = self.terminations.get(agent, True) or self.truncations.get(agent, True)
        selected = agent == self.agent_selection and not done
        return t.observation(seat, selected)

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``, without its detour through ``observe``."""
        agent = self.agent_selection
        assert agent is not None
        terminated, truncated = self.terminations[agent], self.truncations[agent]
        selected = not (terminated or truncated)
        observation = self._table.observation(self._seats[agent], selected) if observe else None
        return observation, self._cumulative_rewards[agent], terminated, truncated, self.infos[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._table.deal(seed)
        self._cycle_order()
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"illegal_action": False} for a in self.agents}
        # Whether `rewards` holds a non-zero reward, and which agent's info flags an illegal
        # action: a step clears only those (most steps reward nobody and flag nobody).
        self._rewarded = False
        self._paid = False
        self._flagged = None
        self._cycles = 0
        self.agent_selection = self.possible_agents[self._table.selected]

    def step(self, action: int | None) -> None:
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
        if action is None or not t.act(self._seats[agent], action):
            self.rewards[agent] = t.illegal_reward
            self._rewarded = True
            self.infos[agent] = {"illegal_action": True}
            self._flagged = agent
        game = t.game
        if game.is_round_over() and not self._paid:
            for i, r in enumerate(game.round_rewards()):
                self.rewards[self.possible_agents[i]] += r
            self._rewarded = self._paid = True
        # An episode ends at the end of a cycle: after a round's end (or the cut) in mid-cycle
        # the rest of the cycle can only decline. So every agent is selected once per cycle,
        # and PettingZoo's `aec_to_parallel` sees every agent finish together.
        if t.advance():
            self._cycles += 1
            if game.is_round_over():
                self.terminations = {a: True for a in self.agents}
            elif t.capped() or (self.max_cycles is not None and self._cycles >= self.max_cycles):
                self.truncations = {a: True for a in self.agents}
            else:
                self._cycle_order()
        self.agent_selection = self.possible_agents[t.order[t.position]]
        if self._rewarded:
            self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return render_table(self._table.game, self._table.game.stall)
        return None

    def close(self) -> None:
        pass


class UnoParallelEnv(ParallelEnv[str, Observation, int]):
    metadata = {"render_modes": ["ansi"], "name": "tabletop_uno_v0"}

    def __init__(
        self,
        rules: str = "official",
        players: int = 4,
        max_cycles: int | None = None,
        max_actions: int = DEFAULT_MAX_ACTIONS,
        max_stall: int | None = DEFAULT_MAX_STALL,
        illegal_action: str = "penalty",
        illegal_reward: float = -0.01,
        render_mode: str | None = None,
    ) -> None:
        self._table = _Table(rules, players, max_actions, max_stall, illegal_action, illegal_reward)
        self.possible_agents, self.observation_spaces, self.action_spaces = _spaces(players)
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        self._masks: dict[str, bytes] = {}
        self.agents = self.possible_agents[:]
        self.max_cycles = max_cycles
        self.render_mode = render_mode

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _observations(self) -> dict[str, Observation]:
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

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        self._table.deal(seed)
        self.agents = self.possible_agents[:]
        self._cycles = 0
        return self._observations(), {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, int | None]
    ) -> tuple[
        dict[str, Observation], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]
    ]:
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

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return render_table(self._table.game, self._table.game.stall)
        return None

    def close(self) -> None:
        pass
