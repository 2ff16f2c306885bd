"""An RLCard-compatible UNO environment: change ``import rlcard`` to
``from tabletop import rlcard`` and an RLCard script runs on the full rules.

Same surface as ``rlcard.envs.uno.UnoEnv``: ``reset() -> (state, player_id)``,
``step(action, raw_action=False) -> (state, player_id)``, ``run``, ``get_payoffs``,
``get_state``, ``is_over``, ``get_player_id``, ``set_agents``, ``step_back`` (with
``allow_step_back``), ``get_perfect_information``, ``seed``, ``get_action_feature``,
``timestep``. A state is a dict with ``obs`` (RLCard's 4×4×15 planes), ``legal_actions`` (an
ordered dict of action ids), ``raw_obs`` and ``raw_legal_actions`` in RLCard's formats (cards
``r-7``, ``g-skip``, ``b-reverse``, ``y-draw_2``, ``r-wild``, ``r-wild_draw_4``; actions the
same, ``draw``, and for the decisions RLCard lacks ``verb-detail`` names such as
``pass-turn``, ``uno-self``, ``catch-1``: ``RLCARD_ACTION_NAMES``), so RLCard's agents that
read them (``uno-rule-v1``) run; ``tabletop_obs`` (the engine's observation) and
``action_record``.

Where it differs from RLCard (by design: RLCard simplifies the rules):

* the action space is tabletop's ``NUM_ACTIONS`` (88) entries, not RLCard's 61: own UNO call,
  catches, challenge/accept, first-card colour and 7–0 swaps are decisions too;
* ``game_num_players`` is honoured (RLCard plays 2 whatever it is asked);
* an illegal action raises ``ValueError`` (RLCard replaces it by a random legal one);
* drawing is legal whenever the rules allow it (the official rules: always), so an agent that
  draws whenever it may (RLCard's ``uno-rule-v1``) draws every turn; rules with
  ``forced_play = "required"`` and ``draw = "draw_one_end_turn"`` play as RLCard's do;
* a wild card in a hand is written ``r-wild`` / ``r-wild_draw_4`` whatever RLCard's deck
  would have coloured it;
* seeding is per environment (``config["seed"]``), never through global generators;
* decisions are taken in turn only: out-of-turn catches and jump-ins are not offered here
  (the Gymnasium and PettingZoo environments model them as reaction windows);
* an episode that stalls (``max_stall`` engine actions, 400 unless the config says, in which
  no hand got smaller than it had been this round: ``docs/python.md``) or reaches
  ``max_actions`` engine actions (10,000) is cut: ``is_over()`` and ``env.truncated`` are
  true, the legal lists are empty and every payoff is 0 (RLCard has no truncation; its trainers
  read a cut round as a draw);
* RLCard's removed ``single_agent_mode`` is not provided.

``tabletop.rlcard.faithful`` is the other mode: RLCard's own 61 actions, planes and rules (the
``rlcard`` preset), for agents trained on RLCard's ``uno``.
"""

from __future__ import annotations

import json
import random
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import (
    DEFAULT_MAX_ACTIONS,
    DEFAULT_MAX_STALL,
    NO_STALL_BOUND,
    NUM_ACTIONS,
    Game,
    episode_seed,
    rlcard_action_names,
)

# RLCard's plane layout: colours r, g, b, y; traits 0-9, skip, reverse, draw_2, wild, wild_draw_4.
_RLCARD_COLOR_ROW = {"R": 0, "G": 1, "B": 2, "Y": 3}
_COLOR_LETTER = {"red": "R", "green": "G", "blue": "B", "yellow": "Y"}
_TRAIT = {str(d): d for d in range(10)}
_TRAIT.update({"S": 10, "R": 11, "D2": 12})


def _trait_cells(card, color_in_play=None):
    """The (row, trait) cells a card text marks in RLCard's planes."""
    if card.startswith("W"):
        trait = 14 if card in ("W4", "WD4") else 13
        if color_in_play is not None:
            return [(_RLCARD_COLOR_ROW[color_in_play], trait)]
        return [(row, trait) for row in range(4)]
    return [(_RLCARD_COLOR_ROW[card[0]], _TRAIT[card[1:]])]


def encode_planes(hand, top, color_in_play):
    """RLCard's 4×4×15 observation from card texts: planes 0-2 hold the kinds held 0, 1 and 2+
    times, plane 3 the top card (a wild on top marks the colour in play). ``state["obs"]`` is the
    same, computed in Rust by ``Game.rlcard_planes``; the tests compare the two."""
    counts = np.zeros((4, 15), dtype=np.int64)
    for card in hand:
        for row, trait in _trait_cells(card):
            counts[row, trait] += 1
    planes = np.zeros((4, 4, 15), dtype=np.int64)
    planes[0] = counts == 0
    planes[1] = counts == 1
    planes[2] = counts >= 2
    for row, trait in _trait_cells(top, _COLOR_LETTER.get(color_in_play)):
        planes[3, row, trait] = 1
    return planes


_LETTER_TO_RLCARD = {"R": "r", "Y": "y", "G": "g", "B": "b"}
_NAME_TO_RLCARD = {"red": "r", "yellow": "y", "green": "g", "blue": "b"}


#: Each action index named as RLCard names its actions (``r-7``, ``y-wild_draw_4``, ``draw``),
#: and the decisions RLCard does not have as ``verb-detail`` (RLCard's agents split on ``-``):
#: ``pass-turn``, ``uno-self``, ``catch-1``…``catch-9``, ``challenge-wd4``, ``accept-wd4``,
#: ``color-r``…, ``swap-1``…``swap-9``, ``decline-window``. Made by the engine's module, which
#: also hands each state's legal names out.
RLCARD_ACTION_NAMES = rlcard_action_names()
assert len(RLCARD_ACTION_NAMES) == NUM_ACTIONS
_RLCARD_INDEX = {name: i for i, name in enumerate(RLCARD_ACTION_NAMES)}


def rlcard_card(card, color_in_play=None):
    """An engine card text (``R7``, ``GS``, ``BD2``, ``W4``) in RLCard's form (``r-7``,
    ``g-skip``, ``b-draw_2``, ``r-wild_draw_4``); a wild takes the colour in play when given."""
    if card.startswith("W"):
        color = _NAME_TO_RLCARD.get(color_in_play, "r")
        return f"{color}-wild_draw_4" if card in ("W4", "WD4") else f"{color}-wild"
    face = card[1:]
    trait = {"S": "skip", "R": "reverse", "D2": "draw_2"}.get(face, face)
    return f"{_LETTER_TO_RLCARD[card[0]]}-{trait}"


def _rlcard_raw_obs(obs, legal_names, players):
    """RLCard's raw state (``rlcard.games.uno``'s ``get_state``) from the engine's observation
    and the names of the legal actions."""
    return {
        "hand": [rlcard_card(c) for c in obs["hand"]],
        "target": rlcard_card(obs["top"], obs["color"]),
        "played_cards": [rlcard_card(c) for c in obs["discard"]],
        "legal_actions": list(legal_names),
        "num_cards": list(obs["hand_sizes"]),
        "num_players": players,
        "current_player": obs["current"],
    }


class RawObs(Mapping):
    """The engine's observation, decoded on first use (most steps never read it): from JSON
    text, or from a ``Game.observation_snapshot`` turned into JSON only then."""

    __slots__ = ("_json", "_dict")

    def __init__(self, text):
        self._json = text
        self._dict = None

    def _data(self):
        if self._dict is None:
            text = self._json if isinstance(self._json, str) else self._json.json()
            self._dict = json.loads(text)
        return self._dict

    def __reduce__(self):
        # Pickles and copies carry the text: a snapshot is an extension object.
        text = self._json if isinstance(self._json, str) else self._json.json()
        return (RawObs, (text,))

    def __getitem__(self, key):
        return self._data()[key]

    def __iter__(self):
        return iter(self._data())

    def __len__(self):
        return len(self._data())

    def __repr__(self):
        return repr(self._data())


class RLCardRawObs(Mapping):
    """RLCard's raw state of a seat, built on first read (most steps never read it): the
    engine's observation taken when the state was, in RLCard's format."""

    __slots__ = ("_snapshot", "_legal", "_players", "_dict")

    def __init__(self, snapshot, legal_names, players):
        self._snapshot = snapshot
        self._legal = legal_names
        self._players = players
        self._dict = None

    def _data(self):
        if self._dict is None:
            self._dict = _rlcard_raw_obs(self._snapshot, self._legal, self._players)
        return self._dict

    def __reduce__(self):
        return (dict, (self._data(),))

    def __getitem__(self, key):
        return self._data()[key]

    def __iter__(self):
        return iter(self._data())

    def __len__(self):
        return len(self._data())

    def __repr__(self):
        return repr(self._data())


#: A state as RLCard's environments give it: ``obs``, ``legal_actions``, ``raw_obs``,
#: ``raw_legal_actions``, ``action_record`` (and here ``tabletop_obs``).
State = dict[str, Any]


class UnoEnv:
    """RLCard's UNO environment surface over the full-rules engine."""

    name = "uno"

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        config = dict(config or {})
        self.num_players = int(config.get("game_num_players", 2))
        self.rules = config.get("rules", "official")
        self.allow_step_back = bool(config.get("allow_step_back", False))
        self.max_actions = int(config.get("max_actions", DEFAULT_MAX_ACTIONS))
        stall = config.get("max_stall", DEFAULT_MAX_STALL)
        #: Engine actions without progress after which a round is cut (``None``: never).
        self.max_stall = None if stall is None else int(stall)
        if self.max_actions < 1 or (self.max_stall is not None and self.max_stall < 1):
            raise ValueError("max_actions and max_stall must be at least 1 (max_stall None: no bound)")
        self.num_actions = NUM_ACTIONS
        self.state_shape = [[4, 4, 15] for _ in range(self.num_players)]
        self.action_shape = [None for _ in range(self.num_players)]
        # RLCard 0.x names.
        self.player_num = self.num_players
        self.action_num = self.num_actions
        self.agents = None
        self.timestep = 0
        self.seed(config.get("seed"))
        self.game = Game(self.rules, self.num_players, 0, fast=True)
        self._history = []
        self._actions = 0
        self.action_recorder = []

    def seed(self, seed: int | None = None) -> int:
        """Seeds this environment's episodes (``None``: fresh entropy)."""
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        self._seed = int(seed)
        self._episode = 0
        return self._seed

    def set_agents(self, agents: list[Any]) -> None:
        self.agents = agents

    def reset(self) -> tuple[State, int]:
        self.game = Game(self.rules, self.num_players, episode_seed(self._seed, 0, self._episode), fast=True)
        self._episode += 1
        self._history = []
        self._actions = 0
        self.action_recorder = []
        self._legal = ()
        player = self.get_player_id()
        return self.get_state(player), player

    def _get_legal_actions(self):
        return self.game.legal_indices()

    def _decode_action(self, action_id):
        return RLCARD_ACTION_NAMES[action_id]

    def get_action_feature(self, action: int) -> npt.NDArray[np.int8]:
        """The one-hot feature of an action id (RLCard's default, read by its DMC trainer)."""
        feature = np.zeros(self.num_actions, dtype=np.int8)
        feature[action] = 1
        return feature

    def step(self, action: int | str, raw_action: bool = False) -> tuple[State, int]:
        if raw_action:
            # RLCard's names, or the engine's action texts ("play R7").
            index = _RLCARD_INDEX.get(action)
            if index is None:
                index = self.game.action_index(action)
        else:
            index = int(action)
        # The legal ids of the last state handed to the player to act (empty once it is over).
        if index not in self._legal:
            if self.is_over():
                raise ValueError("the round is over: call reset()")
            raise ValueError(f"action {action!r} is not legal for player {self.game.current} now")
        game = self.game
        player = game.current
        if self.allow_step_back:
            # A copy replays its moves: step_back is for debugging and search, not for speed.
            self._history.append((game.copy(), self._actions, len(self.action_recorder)))
        self.action_recorder.append((player, RLCARD_ACTION_NAMES[index]))
        # One engine call: the move, the next player to act and its state.
        self._legal = ()
        next_player, parts = game.rlcard_play(index, self._actions + 1 >= self.max_actions, self._stall_bound)
        self._actions += 1
        self.timestep += 1
        return self._state(*parts), next_player

    def step_back(self) -> bool | tuple[State, int]:
        if not self.allow_step_back:
            raise Exception("step_back is off: make the environment with config {'allow_step_back': True}")
        if not self._history:
            return False
        self.game, self._actions, recorded = self._history.pop()
        del self.action_recorder[recorded:]
        self._legal = ()
        player = self.get_player_id()
        return self.get_state(player), player

    @property
    def _stall_bound(self):
        return NO_STALL_BOUND if self.max_stall is None else self.max_stall

    @property
    def truncated(self):
        """Whether the round was cut: it stalled for ``max_stall`` engine actions, or reached
        ``max_actions``, before anyone went out."""
        game = self.game
        return not game.is_round_over() and (self._actions >= self.max_actions or game.stall >= self._stall_bound)

    def is_over(self) -> bool:
        return self.game.is_round_over() or self.truncated

    def get_player_id(self) -> int:
        return self.game.current

    def get_state(self, player_id: int) -> State:
        return self._state(*self.game.rlcard_state(player_id, self.truncated))

    def _state(self, planes, legal, names, snapshot):
        """The state from the engine's parts of it (``Game.rlcard_state``): the planes, the
        legal ids and names (empty unless its player is to act), the observation kept for the
        raw forms (decoded only when read)."""
        if legal:
            # What `step` checks against: a list nobody else holds (an agent may change the
            # state it was given).
            self._legal = legal
        raw = RawObs(snapshot)
        return {
            "obs": planes,
            "legal_actions": OrderedDict.fromkeys(legal),
            "raw_obs": RLCardRawObs(raw, names, self.num_players),
            "raw_legal_actions": names,
            "tabletop_obs": raw,
            "action_record": self.action_recorder,
        }

    def get_payoffs(self) -> npt.NDArray[np.float64]:
        if self.game.is_round_over():
            return np.array(self.game.round_rewards())
        return np.zeros(self.num_players)

    def get_perfect_information(self) -> dict[str, Any]:
        raw = self.game.observation(None)
        return {
            "num_players": self.num_players,
            "hand_cards": [[rlcard_card(c) for c in hand] for hand in self.game.hands()],
            "played_cards": [rlcard_card(c) for c in raw["discard"]],
            "target": rlcard_card(raw["top"], raw["color"]),
            "current_player": self.game.current,
            "legal_actions": [RLCARD_ACTION_NAMES[i] for i in self._get_legal_actions()],
        }

    def run(self, is_training: bool = False) -> tuple[list[list[Any]], npt.NDArray[np.float64]]:
        """Plays one round with ``set_agents``' agents; returns (trajectories, payoffs)."""
        trajectories = [[] for _ in range(self.num_players)]
        agents = self.agents
        raw = [getattr(agent, "use_raw", False) for agent in agents]
        state, player = self.reset()
        trajectories[player].append(state)
        over = self.is_over()
        while not over:
            agent = agents[player]
            if is_training:
                action = agent.step(state)
            else:
                action, _ = agent.eval_step(state)
            state, next_player = self.step(action, raw[player])
            trajectories[player].append(action)
            player = next_player
            over = self.is_over()
            if not over:
                trajectories[player].append(state)
        for p in range(self.num_players):
            trajectories[p].append(self.get_state(p))
        return trajectories, self.get_payoffs()


class RandomAgent:
    """RLCard's random agent, seeded: a uniformly random legal action id (Python's generator:
    numpy's costs more per call than a step of the environment)."""

    use_raw = False

    def __init__(self, num_actions, seed=None):
        self.num_actions = num_actions
        self._rng = random.Random(seed)

    def step(self, state):
        legal = list(state["legal_actions"])
        return legal[self._rng.randrange(len(legal))]

    def eval_step(self, state):
        return self.step(state), {}


def make(env_id: str, config: Mapping[str, Any] | None = None) -> UnoEnv:
    """``rlcard.make`` for ``"uno"``."""
    if env_id != "uno":
        raise ValueError(f"unknown environment '{env_id}' (tabletop provides 'uno')")
    return UnoEnv(config)
