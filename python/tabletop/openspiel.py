"""UNO as an OpenSpiel Python game: ``pyspiel.load_game("python_tabletop_uno")`` after
importing this module, or ``UnoGame({"players": 3, "rules": "cs410"})``.

Sequential, imperfect information, explicitly stochastic, as OpenSpiel's card games are: **every
card dealt or drawn is a chance outcome over the cards it could be** (the draw pile at that
moment, each kind weighted by its copies; chance action ``k`` is the card of index ``k``,
``tabletop.uno.CARD_NAMES``). The deal is one chance node per card (hands round by round, seat 0
first, then the start card); a player action that draws (a draw, a penalty, a catch, a lost
challenge, a reshuffle on the way) is followed by one chance node per card drawn, and only then
does the next player decide. So a history of actions replays exactly, and a player's cards say
nothing about the others' beyond what the rules let it see.

``information_state_string(p)`` is ``p``'s perfect-recall information state: ``p``'s observation
of the deal (the engine's observation, JSON), then every player action taken (all are public in
UNO; chance outcomes are not), each followed by ``p``'s hand when the action changed it. ``observation_string`` is that
observation now; ``observation_tensor`` the 283-value vector. No information-state *tensor*:
a fixed-size encoding of a whole history is not provided.

Terminal rewards: +1 for the round's winner, -1 for the others, 0 for all when the round ends
without a winner or is cut: after ``max_stall`` engine actions in which no hand got smaller than
it had been this round (400 by default; 0 for no such bound), or at ``max_actions`` player
actions (10,000). OpenSpiel has no truncation: a cut round is a terminal state worth 0. Decisions are taken in turn: the player to
act may call UNO for itself or catch a seat; out-of-turn reactions are not modelled here (see
docs/python.md). ``seed`` picks the first player where the rules draw one.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pyspiel

from ._core import DEFAULT_MAX_ACTIONS, DEFAULT_MAX_STALL, NO_STALL_BOUND, NUM_ACTIONS, OBS_SIZE, Game, card_names
from .uno import ACTION_NAMES

_DEFAULTS = {
    "players": 2,
    "rules": "official",
    "seed": 0,
    "max_actions": DEFAULT_MAX_ACTIONS,
    "max_stall": DEFAULT_MAX_STALL,
}
_MAX_PLAYERS = 10
CARD_NAMES = card_names()

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
    provides_information_state_string=True,
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
        self.max_stall = int(params["max_stall"]) or NO_STALL_BOUND
        if self.max_actions < 1 or self.max_stall < 0:
            raise ValueError("max_actions must be at least 1 and max_stall at least 0 (0: no stall bound)")
        # Fails early, with the engine's reason, on a table the rules refuse.
        template, piles = Game.with_draws(self.rules, self.players, self.seed, [])
        # The deck, and how many cards the deal hands out before the start card: while the
        # hands are dealt, a draw's outcomes are the deck less the cards dealt so far.
        deck = Counter(piles[0])
        #: Copies of each card kind in the deck, by card index (a tuple: states share it).
        self.deck_counts = tuple(deck.get(k, 0) for k in range(len(CARD_NAMES)))
        self.hand_cards = self.players * min(len(h) for h in template.hands())
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=len(CARD_NAMES),
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            # Player actions and the chance nodes of the cards they draw: not a proven bound (a
            # round's draws are not bounded by the rules), a generous one for what rounds show.
            max_game_length=self.max_actions * 8 + 200,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        return UnoState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return UnoObserver(perfect_recall)


class UnoState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self._rules = game.rules
        self._players = game.players
        self._seed = game.seed
        self._max_actions = game.max_actions
        self._max_stall = game.max_stall
        self.game = None  # once the deal's chance nodes are done
        self._actions = 0
        # The transition waiting for chance: ("deal",) or ("act", action, seat), the cards its
        # draws have taken so far, and the outcomes of the next draw.
        self._pending = ("deal",)
        # The deck less the cards dealt so far, by card index, while the hands are dealt.
        self._left = game.deck_counts
        self._hand_cards = game.hand_cards
        self._drawn = []
        self._outcomes = ()
        # Each player's information state: the public actions and its observations so far.
        # (Strings, not lists: OpenSpiel copies states often, and a string copies in O(1).)
        self._info = [""] * self._players
        self._hands = [None] * self._players
        self._advance()

    def _advance(self):
        """Runs the pending transition with the cards chosen so far: it completes when it drew
        no more than those; otherwise the next chance node offers the pile of its next draw."""
        if self._pending[0] == "deal" and len(self._drawn) < self._hand_cards:
            total = sum(self._left)
            self._outcomes = tuple((card, n / total) for card, n in enumerate(self._left) if n)
            return
        if self._pending[0] == "deal":
            game, piles = Game.with_draws(self._rules, self._players, self._seed, self._drawn)
        else:
            _, action, seat = self._pending
            game = self.game.copy()
            piles = game.play_with_draws(action, seat, self._drawn)
        if len(piles) > len(self._drawn):
            pile = piles[len(self._drawn)]
            counts = Counter(pile)
            self._outcomes = tuple((card, n / len(pile)) for card, n in sorted(counts.items()))
            return
        self.game = game
        hands = [tuple(h) for h in game.hands()]
        if self._pending[0] == "deal":
            # What each seat sees of the deal: its observation (own hand, start card, colour,
            # who plays first, ...).
            for p in range(self._players):
                self._info[p] = game.observation_json(p)
                self._hands[p] = hands[p]
        else:
            # Every action is public; what a seat sees of the cards it moved is its own hand,
            # written down whenever it changed (a draw, a play, a swap). Everything else it can
            # see follows from the actions and the rules.
            _, action, seat = self._pending
            public = f"p{seat} {ACTION_NAMES[action]}"
            for p in range(self._players):
                if hands[p] != self._hands[p]:
                    self._hands[p] = hands[p]
                    self._info[p] += f" | {public} hand={' '.join(sorted(hands[p]))}"
                else:
                    self._info[p] += f" | {public}"
        self._pending = None
        self._drawn = []
        self._outcomes = ()

    def current_player(self):
        if self._pending is not None:
            return pyspiel.PlayerId.CHANCE
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.game.current

    def chance_outcomes(self):
        return list(self._outcomes or [])

    def _legal_actions(self, player):
        if self._pending is not None or self.is_terminal() or player != self.game.current:
            return []
        return [int(i) for i in np.flatnonzero(self.game.legal_mask(player))]

    def _apply_action(self, action):
        if self._pending is not None:
            card = int(action)
            if self._pending[0] == "deal" and len(self._drawn) < self._hand_cards:
                left = list(self._left)
                left[card] -= 1
                self._left = tuple(left)
            self._drawn.append(card)
        else:
            self._pending = ("act", int(action), self.game.current)
            self._actions += 1
        self._advance()

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {CARD_NAMES[action]}"
        return ACTION_NAMES[action]

    def is_terminal(self):
        if self.game is None or self._pending is not None:
            return False
        return self.game.is_round_over() or self._actions >= self._max_actions or self.game.stall >= self._max_stall

    def returns(self):
        if self.is_terminal() and self.game.is_round_over():
            return list(self.game.round_rewards())
        return [0.0] * self._players

    def __str__(self):
        if self.game is None:
            return f"dealing: {len(self._drawn)} cards dealt"
        waiting = f" drawing: {len(self._drawn)} drawn" if self._pending is not None else ""
        return f"{self.game!r} actions={self._actions}{waiting}"


class UnoObserver:
    """The seat's observation (tabletop's 283-value vector and the engine's observation as
    text) or, with perfect recall, its information state (string only)."""

    def __init__(self, perfect_recall=False):
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0 if perfect_recall else OBS_SIZE, np.float32)
        self.dict = {} if perfect_recall else {"observation": self.tensor}

    def set_from(self, state, player):
        if self.perfect_recall:
            return
        if state.game is None:
            self.tensor.fill(0.0)
        else:
            # Between an action and the cards it draws the vector shows the state before it.
            self.tensor[:] = state.game.observation_vector(player)

    def string_from(self, state, player):
        if self.perfect_recall:
            return state._info[player]
        if state.game is None:
            return "dealing"
        return state.game.observation_json(player)


pyspiel.register_game(_GAME_TYPE, UnoGame)
