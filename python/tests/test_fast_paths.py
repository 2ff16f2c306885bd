"""The adapters' per-step shortcuts give what the general calls give."""

import copy
import json
import pickle

import numpy as np
import pytest

from tabletop import rlcard
from tabletop._core import Game
from tabletop.pettingzoo import uno_v0

PRESETS = ["official", "uno-engine", "cs410", "two-color", "csce322"]


def _first_legal(game):
    return int(np.flatnonzero(game.legal_mask())[0])


def test_play_changes_the_game_as_apply_does():
    a = Game("official", 4, 5, fast=True)
    b = Game("official", 4, 5, fast=True)
    for _ in range(200):
        if a.is_round_over():
            break
        index = _first_legal(a)
        a.apply(index)
        b.play(index)
        assert a.state_hash() == b.state_hash()
    assert a.is_round_over() or a.state_hash() == b.state_hash()


def test_play_refuses_an_illegal_action_and_changes_nothing():
    game = Game("official", 4, 5, fast=True)
    before = game.state_hash()
    illegal = int(np.flatnonzero(game.legal_mask() == 0)[0])
    try:
        game.play(illegal)
    except ValueError:
        pass
    else:
        raise AssertionError("an illegal action was taken")
    assert game.state_hash() == before


@pytest.mark.parametrize("rules", PRESETS)
def test_observe_is_the_observation_vector_and_the_mask(rules):
    game = Game(rules, 4, 9, fast=True)
    for _ in range(100):
        if game.is_round_over():
            break
        for seat in range(4):
            for window in (False, True):
                obs, mask = game.observe(seat, window)
                assert np.array_equal(obs, game.observation_vector(seat, window))
                assert np.array_equal(mask, game.legal_mask(seat, window=window))
        game.play(_first_legal(game))


def test_the_lazy_raw_observation_is_the_observation_when_it_was_taken():
    env = rlcard.make("uno", config={"seed": 3})
    state, player = env.reset()
    expected = json.loads(env.game.observation_json(player))
    env.step(next(iter(state["legal_actions"])))
    assert dict(state["tabletop_obs"]) == expected
    assert dict(pickle.loads(pickle.dumps(state["tabletop_obs"]))) == expected
    assert dict(copy.deepcopy(state)["tabletop_obs"]) == expected
    # RLCard's form of it, built on first read, is of that moment too.
    hand = [rlcard.rlcard_card(c) for c in expected["hand"]]
    assert state["raw_obs"]["hand"] == hand
    assert pickle.loads(pickle.dumps(state["raw_obs"]))["hand"] == hand


def test_the_aec_mask_handed_out_is_a_copy():
    env = uno_v0.env(rules="official", players=4)
    env.reset(seed=2)
    obs, *_ = env.last()
    legal = int(obs["action_mask"].argmax())
    obs["action_mask"][:] = 0
    obs["observation"][:] = -1
    again, *_ = env.last()
    assert again["action_mask"][legal] == 1
    assert (again["observation"] >= 0).all()
    agent = env.agent_selection
    env.step(legal)
    assert env.infos[agent]["illegal_action"] is False


def test_what_an_agent_does_to_the_arrays_it_was_handed_changes_no_judgement():
    env = uno_v0.env(rules="official", players=4)
    env.reset(seed=3)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs["action_mask"][illegal] = 1
    agent = env.agent_selection
    env.step(illegal)
    assert env.infos[agent]["illegal_action"] is True
    parallel = uno_v0.parallel_env(rules="official", players=4)
    observations, _ = parallel.reset(seed=3)
    actions = {}
    for agent, o in observations.items():
        actions[agent] = int(np.flatnonzero(o["action_mask"] == 0)[0])
        o["action_mask"][:] = 1
    _, _, _, _, infos = parallel.step(actions)
    assert all(info["illegal_action"] for info in infos.values())


def test_an_rlcard_agent_that_edits_its_legal_actions_gets_no_illegal_move():
    env = rlcard.make("uno", config={"seed": 4})
    state, _ = env.reset()
    illegal = next(a for a in range(env.num_actions) if a not in state["legal_actions"])
    state["legal_actions"][illegal] = None
    with pytest.raises(ValueError):
        env.step(illegal)


@pytest.mark.parametrize("rules", PRESETS)
def test_the_one_call_paths_give_what_the_single_calls_give(rules):
    """``Game.selection`` (the PettingZoo environments' step) and ``Game.rlcard_state`` (the
    RLCard-compatible one's) against the calls they replace."""
    game = Game(rules, 3, 11, fast=True)
    for _ in range(150):
        if game.is_round_over():
            break
        for seat in range(3):
            for window in (False, True):
                obs, mask, legal = game.selection(seat, window)
                assert np.array_equal(obs, game.observation_vector(seat, window))
                assert np.array_equal(mask, game.legal_mask(seat, window=window))
                assert legal == mask.astype(np.uint8).tobytes()
            obs, mask, legal = game.selection(seat, True, True)
            assert np.array_equal(obs, game.observation_vector(seat, True))
            assert np.flatnonzero(mask).tolist() == [uno_v0.DECLINE] and legal[uno_v0.DECLINE] == 1
            for capped in (False, True):
                planes, ids, names, snapshot = game.rlcard_state(seat, capped)
                assert np.array_equal(planes, game.rlcard_planes(seat))
                own = seat == game.current and not capped
                assert ids == (game.legal_indices(seat) if own else [])
                assert names == [rlcard.RLCARD_ACTION_NAMES[i] for i in ids]
                assert json.loads(snapshot.json()) == json.loads(game.observation_json(seat))
        game.play(_first_legal(game))
