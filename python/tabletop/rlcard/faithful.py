"""RLCard's own UNO, played by the engine: ``from tabletop.rlcard import faithful as rlcard``
and ``rlcard.make("uno")`` is RLCard's ``uno`` environment, so an agent trained on RLCard meets
the game it knows, and RLCard's own ``tests/envs/test_uno_env.py`` passes with that import.

* **Rules**: the ``rlcard`` preset (``docs/rules.md``), RLCard 1.2.0's ``rlcard/games/uno``
  as rule options of the engine; two players, as RLCard seats.
* **Actions**: RLCard's 61 ids (``ACTION_LIST``: ``r-0`` … ``y-wild_draw_4``, colour × 15 +
  trait in RLCard's colour order r, g, b, y; ``draw`` is 60), listed in the order RLCard lists
  them. An id that is not legal is replaced by a legal one at random, as RLCard does (from this
  environment's own seeded generator); an illegal *raw* action raises ``ValueError`` (RLCard's
  game would play it anyway and break).
* **Observations**: RLCard's 4×4×15 planes exactly as ``rlcard/envs/uno.py`` encodes them (a
  wild held marks plane 1 in every row whatever its count), ``raw_obs`` in RLCard's format.
* **Payoffs**: +1 and -1 for the winner and the other player, ``[0, 0]`` until then.
* ``env.game`` is RLCard's game surface (``round.current_player``, ``get_num_actions``,
  ``get_legal_actions``, ``is_over``, ``get_payoffs``, ``get_state``, …) over the engine.

Where it still differs from RLCard, on purpose:

* a hand's wilds are named ``r-wild``, ``g-wild``, … in turn (RLCard's deck colours one wild
  of each kind per colour; the colour means nothing in play);
* a reshuffle keeps the top card out of the new draw pile (RLCard shuffles it in too: see
  ``docs/rules.md``), and ``played_cards`` keeps the top card after one;
* the legal ids are in the state of the player to act only (RLCard puts the current player's
  in every state it makes);
* a round that stalls (``max_stall`` engine actions without a hand getting smaller; 400
  unless the config says) or reaches ``max_actions`` (10,000) is cut, paying ``[0, 0]``
  (``env.truncated``); RLCard's rules make this all but impossible, and RLCard has no cap;
* seeding is per environment (``config["seed"]``); without a seed, from the system's entropy.
"""

from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import (
    DEFAULT_MAX_ACTIONS,
    DEFAULT_MAX_STALL,
    NO_STALL_BOUND,
    Game,
    episode_seed,
    rlcard_faithful_action_names,
)

#: RLCard's action names, by id (``rlcard.games.uno.utils.ACTION_LIST``).
ACTION_LIST = rlcard_faithful_action_names()
#: RLCard's action ids, by name (``rlcard.games.uno.utils.ACTION_SPACE``).
ACTION_SPACE = OrderedDict((name, i) for i, name in enumerate(ACTION_LIST))
NUM_ACTIONS = len(ACTION_LIST)
RULES = "rlcard"
PLAYERS = 2

#: A card as RLCard's ``UnoCard`` shows it: ``type`` (number, action, wild), ``color`` (r, g,
#: b, y), ``trait`` (0–9, skip, reverse, draw_2, wild, wild_draw_4) and ``str`` (``r-7``).
UnoCard = namedtuple("UnoCard", ["type", "color", "trait", "str"])


def _card(name):
    color, trait = name.split("-", 1)
    kind = "wild" if trait.startswith("wild") else "number" if trait.isdigit() else "action"
    return UnoCard(kind, color, trait, name)


class _Round:
    """What RLCard's ``UnoRound`` tells about a round, read from the engine."""

    def __init__(self, env):
        self._env = env

    @property
    def current_player(self):
        return self._env._game.current

    @property
    def num_players(self):
        return PLAYERS

    @property
    def direction(self):
        return self._env._direction()

    @property
    def is_over(self):
        return self._env.is_over()

    @property
    def winner(self):
        w = self._env._game.round_winner()
        return None if w is None else [w]

    @property
    def target(self):
        return _card(self._env._target)

    @property
    def played_cards(self):
        return [_card(c) for c in self._env._played]


class _Player:
    def __init__(self, player_id, hand):
        self.player_id = player_id
        self.hand = [_card(c) for c in hand]


class UnoGame:
    """RLCard's ``UnoGame`` surface over the environment's engine game."""

    def __init__(self, env):
        self._env = env
        self.round = _Round(env)
        self.num_players = PLAYERS
        self.allow_step_back = env.allow_step_back

    @staticmethod
    def get_num_actions():
        return NUM_ACTIONS

    def get_num_players(self):
        return PLAYERS

    def get_player_id(self):
        return self._env._game.current

    def is_over(self):
        return self._env.is_over()

    def get_legal_actions(self):
        return self._env._raw_legal_now()

    def get_payoffs(self):
        return list(self._env.get_payoffs())

    def get_state(self, player_id):
        return dict(self._env.get_state(player_id)["raw_obs"])

    @property
    def players(self):
        return [_Player(p, self._env._hand(p)) for p in range(PLAYERS)]


class FaithfulUnoEnv:
    """RLCard's ``UnoEnv`` (``rlcard/envs/uno.py``), its actions, planes and rules, over the
    engine."""

    name = "uno"

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        config = dict(config or {})
        players = int(config.get("game_num_players", PLAYERS))
        if players != PLAYERS:
            raise ValueError(f"RLCard's UNO seats {PLAYERS} players, not {players} (the full-rules tabletop.rlcard seats any)")
        self.default_game_config = {"game_num_players": PLAYERS}
        self.allow_step_back = bool(config.get("allow_step_back", False))
        self.max_actions = int(config.get("max_actions", DEFAULT_MAX_ACTIONS))
        stall = config.get("max_stall", DEFAULT_MAX_STALL)
        self.max_stall = None if stall is None else int(stall)
        if self.max_actions < 1 or (self.max_stall is not None and self.max_stall < 1):
            raise ValueError("max_actions and max_stall must be at least 1 (max_stall None: no bound)")
        self.num_players = PLAYERS
        self.num_actions = NUM_ACTIONS
        self.state_shape = [[4, 4, 15] for _ in range(self.num_players)]
        self.action_shape = [None for _ in range(self.num_players)]
        self.agents = None
        self.timestep = 0
        self.action_recorder = []
        self.seed(config.get("seed"))
        self.game = UnoGame(self)
        self._deal()

    # -- RLCard's Env --

    def seed(self, seed: int | None = None) -> int:
        """Seeds this environment's episodes and its replacement of illegal ids (``None``:
        fresh entropy)."""
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        self._seed = int(seed)
        self._episode = 0
        self._rng = np.random.default_rng(self._seed)
        return self._seed

    def set_agents(self, agents: list[Any]) -> None:
        self.agents = agents

    def reset(self) -> tuple[dict[str, Any], int]:
        self._deal()
        self._episode += 1
        self.action_recorder = []
        player = self.get_player_id()
        return self.get_state(player), player

    def step(self, action: int | str, raw_action: bool = False) -> tuple[dict[str, Any], int]:
        if raw_action:
            index = ACTION_SPACE.get(action)
            if index is None or index not in self._legal_now():
                raise ValueError(f"action {action!r} is not legal for player {self._game.current} now")
        else:
            index = self._decode_index(int(action))
        if self.allow_step_back:
            self._history.append((self._game.copy(), self._actions, list(self._played), len(self.action_recorder)))
        game = self._game
        player = game.current
        hand_before = self._sizes[player]
        self.action_recorder.append((player, ACTION_LIST[index]))
        self._legal = ()
        next_player, parts = game.rlcard_faithful_play(index, self._actions + 1 >= self.max_actions, self._stall_bound)
        self._actions += 1
        self.timestep += 1
        self._take(parts, next_player)
        played = index != 60 or self._sizes[player] == hand_before
        self._track_played(played)
        return self._extract(parts, next_player), next_player

    def step_back(self) -> bool | tuple[dict[str, Any], int]:
        if not self.allow_step_back:
            raise Exception("Step back is off. To use step_back, please set allow_step_back=True in rlcard.make")
        if not self._history:
            return False
        self._game, self._actions, self._played, recorded = self._history.pop()
        del self.action_recorder[recorded:]
        player = self.get_player_id()
        return self.get_state(player), player

    def run(self, is_training: bool = False) -> tuple[list[list[Any]], npt.NDArray[np.int64]]:
        """One round with ``set_agents``' agents, exactly as RLCard's ``Env.run``."""
        trajectories = [[] for _ in range(self.num_players)]
        state, player_id = self.reset()
        trajectories[player_id].append(state)
        while not self.is_over():
            agent = self.agents[player_id]
            if not is_training:
                action, _ = agent.eval_step(state)
            else:
                action = agent.step(state)
            next_state, next_player_id = self.step(action, agent.use_raw)
            trajectories[player_id].append(action)
            state = next_state
            player_id = next_player_id
            if not self.is_over():
                trajectories[player_id].append(state)
        for player_id in range(self.num_players):
            trajectories[player_id].append(self.get_state(player_id))
        return trajectories, self.get_payoffs()

    @property
    def truncated(self):
        """Whether the round was cut (``max_stall`` or ``max_actions``) before anyone went out."""
        game = self._game
        return not game.is_round_over() and (self._actions >= self.max_actions or game.stall >= self._stall_bound)

    def is_over(self) -> bool:
        return self._game.is_round_over() or self.truncated

    def get_player_id(self) -> int:
        return self._game.current

    def get_state(self, player_id: int) -> dict[str, Any]:
        parts = self._game.rlcard_faithful_state(player_id, self.truncated)
        if player_id == self._game.current:
            self._take(parts, player_id)
        return self._extract(parts, player_id)

    def get_payoffs(self) -> npt.NDArray[np.int64]:
        payoffs = np.zeros(self.num_players, dtype=np.int64)
        winner = self._game.round_winner()
        if winner is not None:
            payoffs[winner] = 1
            payoffs[1 - winner] = -1
        return payoffs

    def get_perfect_information(self) -> dict[str, Any]:
        return {
            "num_players": self.num_players,
            "hand_cards": [self._hand(p) for p in range(self.num_players)],
            "played_cards": list(self._played),
            "target": self._target,
            "current_player": self._game.current,
            "legal_actions": self._raw_legal_now(),
        }

    def get_action_feature(self, action: int) -> npt.NDArray[np.int8]:
        """The one-hot feature of an action id (RLCard's default, read by its DMC trainer)."""
        feature = np.zeros(self.num_actions, dtype=np.int8)
        feature[action] = 1
        return feature

    def _get_legal_actions(self):
        return OrderedDict.fromkeys(self._legal_now())

    def _decode_action(self, action_id):
        return ACTION_LIST[self._decode_index(int(action_id))]

    # -- the engine underneath --

    @property
    def _stall_bound(self):
        return NO_STALL_BOUND if self.max_stall is None else self.max_stall

    def _deal(self):
        self._game = Game(RULES, PLAYERS, episode_seed(self._seed, 0, self._episode), fast=True)
        self._history = []
        self._actions = 0
        self._legal = ()
        parts = self._game.rlcard_faithful_state(self._game.current, False)
        self._take(parts, self._game.current)
        self._played = [self._target]

    def _take(self, parts, player):
        """Keeps what the latest state says: the legal ids (when ``player`` is to act), the
        target, the hand sizes."""
        _, legal, _, _, target, sizes = parts
        if player == self._game.current:
            self._legal = legal
        self._target = target
        self._sizes = sizes

    def _track_played(self, played):
        """RLCard's ``played_cards`` after a step: the card played (a drawn card may be), cut to
        the discard pile when a reshuffle emptied it."""
        if played:
            self._played.append(self._target)
        size = self._game.discard_size
        if len(self._played) > size:
            del self._played[: len(self._played) - size]

    def _legal_now(self):
        if self.is_over():
            return []
        return list(self._game.rlcard_faithful_state(self._game.current, False)[1])

    def _raw_legal_now(self):
        if self.is_over():
            return []
        return list(self._game.rlcard_faithful_state(self._game.current, False)[2])

    def _decode_index(self, index):
        legal = self._legal if self._legal else self._legal_now()
        if index in legal:
            return index
        if not legal:
            raise ValueError("the round is over: call reset()")
        return int(legal[self._rng.integers(len(legal))])

    def _hand(self, player):
        return list(self._game.rlcard_faithful_state(player, True)[3])

    def _direction(self):
        obs = self._game.observation(None)
        return 1 if obs["direction"] == "clockwise" else -1

    def _extract(self, parts, player):
        planes, legal, names, hand, target, sizes = parts
        raw = {
            "hand": list(hand),
            "target": target,
            "played_cards": list(self._played),
            "legal_actions": list(names),
            "num_cards": list(sizes),
            "num_players": self.num_players,
            "current_player": self._game.current,
        }
        return {
            "obs": planes,
            "legal_actions": OrderedDict.fromkeys(legal),
            "raw_obs": raw,
            "raw_legal_actions": list(names),
            "action_record": self.action_recorder,
        }


class RandomAgent:
    """RLCard's random agent: a uniformly random legal id, from its own seeded generator."""

    use_raw = False

    def __init__(self, num_actions, seed=None):
        self.num_actions = num_actions
        self._rng = np.random.default_rng(seed)

    def step(self, state):
        legal = list(state["legal_actions"])
        return legal[self._rng.integers(len(legal))]

    def eval_step(self, state):
        return self.step(state), {}


def make(env_id: str, config: Mapping[str, Any] | None = None) -> FaithfulUnoEnv:
    """``rlcard.make`` for ``"uno"``: RLCard's UNO on the engine."""
    if env_id != "uno":
        raise ValueError(f"unknown environment '{env_id}' (tabletop provides 'uno')")
    return FaithfulUnoEnv(config)
