"""UNO as an OpenSpiel Python game: ``pyspiel.load_game("python_tabletop_uno")`` after
importing this module, or ``UnoGame({"players": 3, "rules": "cs410"})``.

Sequential, imperfect information, explicitly stochastic: the first move is chance choosing one
of ``deals`` shuffles (every later draw follows from it, through the engine's seeded
generator, so a history of actions replays exactly); terminal rewards (+1 for
the round's winner, -1 for the others, 0 for all when the round ends without a winner or at
``max_actions``). Decisions are taken in turn: the player to act may call UNO for itself or
catch a seat; out-of-turn reactions are not modelled here (see docs/python.md).
"""

from __future__ import annotations

import numpy as np
import pyspiel

from ._core import NUM_ACTIONS, OBS_SIZE, Game
from .uno import ACTION_NAMES

_DEFAULTS = {"players": 2, "rules": "official", "seed": 0, "deals": 10_000, "max_actions": 2000}
_MAX_PLAYERS = 10

_GAME_TYPE = pyspiel.GameType(
    short_name="python_tabletop_uno",
    long_name="Python tabletop UNO (full rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class UnoGame(pyspiel.Game):
    def __init__(self, params=None):
        params = {**_DEFAULTS, **(params or {})}
        self.players = int(params["players"])
        self.rules = str(params["rules"])
        self.seed = int(params["seed"])
        self.max_actions = int(params["max_actions"])
        self.deals = int(params["deals"])
        if self.deals < 1:
            raise ValueError("deals must be at least 1")
        # Fails early, with the engine's reason, on a table the rules refuse.
        Game(self.rules, self.players, 0, fast=True)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=self.deals,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.max_actions + 1,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        return UnoState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return UnoObserver()


class UnoState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self._rules = game.rules
        self._players = game.players
        self._seed = game.seed
        self._deals = game.deals
        self._max_actions = game.max_actions
        self.game = None  # dealt by the chance move
        self._actions = 0

    def current_player(self):
        if self.game is None:
            return pyspiel.PlayerId.CHANCE
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.game.current

    def chance_outcomes(self):
        p = 1.0 / self._deals
        return [(k, p) for k in range(self._deals)]

    def _legal_actions(self, player):
        if self.game is None or self.is_terminal() or player != self.game.current:
            return []
        return [int(i) for i in np.flatnonzero(self.game.legal_mask(player))]

    def _apply_action(self, action):
        if self.game is None:
            self.game = Game(self._rules, self._players, self._seed * self._deals + int(action), fast=True)
            return
        self.game.play(int(action))
        self._actions += 1

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return ACTION_NAMES[action]

    def is_terminal(self):
        if self.game is None:
            return False
        return self.game.is_round_over() or self._actions >= self._max_actions

    def returns(self):
        if self.game is not None and self.game.is_round_over():
            return list(self.game.round_rewards())
        return [0.0] * self._players

    def __str__(self):
        return f"{self.game!r} actions={self._actions}" if self.game is not None else "chance: deal"


class UnoObserver:
    """The seat's observation vector (tabletop's layout) and a readable string."""

    def __init__(self):
        self.tensor = np.zeros(OBS_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if state.game is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = state.game.observation_vector(player)

    def string_from(self, state, player):
        if state.game is None:
            return "before the deal"
        obs = state.game.observation(player)
        return f"hand={' '.join(obs['hand'])} top={obs['top']} color={obs['color']} sizes={obs['hand_sizes']}"


pyspiel.register_game(_GAME_TYPE, UnoGame)
