"""Positions from Python: a game's position round-trips, plays on identically, and a bad one is
refused with its reason."""

import json
import pickle

import numpy as np
import pytest

from conftest import pick
from tabletop.uno import PRESET_NAMES, Game


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_position_plays_on_as_the_game_it_came_from(preset):
    rng = np.random.default_rng(7)
    game = Game(preset, 3, seed=11)
    for _ in range(int(rng.integers(0, 40))):
        if game.is_round_over():
            break
        game.apply(pick(game.legal_mask(), rng))
    position = game.position()
    assert json.loads(position)["hands"], "the JSON holds every hand"
    started = Game.from_position(position, preset)
    assert started.state_hash() == game.state_hash()
    for _ in range(400):
        if game.is_round_over():
            break
        assert started.legal_actions() == game.legal_actions()
        action = pick(game.legal_mask(), rng)
        assert started.apply(action) == game.apply(action)
        assert started.state_hash() == game.state_hash()
    # A game started from a position has a record that replays from it, and pickles.
    assert Game.replay(started.record()).state_hash() == started.state_hash()
    assert pickle.loads(pickle.dumps(started)).state_hash() == started.state_hash()


def test_a_position_that_breaks_the_rules_is_refused_with_its_reason():
    game = Game("official", 2, seed=3)
    position = json.loads(game.position())
    position["hands"][0].pop()  # a card vanishes: the deck no longer adds up
    with pytest.raises(ValueError, match="deck"):
        Game.from_position(json.dumps(position), "official")
    with pytest.raises(ValueError):
        Game.from_position("not a position", "official")
