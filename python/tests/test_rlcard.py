"""RLCard's own UNO environment tests (tests/envs/test_uno_env.py), ported to the compatible
``UnoEnv``. Where RLCard's simplified rules differ, the port says how:

* RLCard's observation is 420 values in its old releases and 4×4×15 = 240 in 1.x: ours is 240;
* RLCard's 61 actions become our 88 (legal ids are below ``num_actions``);
* ``env.game.round.current_player`` (an RLCard internal) is ``env.get_player_id()`` here;
* ``single_agent_mode`` was removed from RLCard itself and is not ported.
"""

import random

import numpy as np
import pytest

from tabletop import rlcard
from tabletop.rlcard import RandomAgent


def test_reset_and_extract_state():
    env = rlcard.make("uno")
    state, _ = env.reset()
    assert state["obs"].size == 240
    assert state["obs"].shape == tuple(env.state_shape[0])


def _hash_observations(env, actions):
    state, _ = env.reset()
    observations = []
    i = 0
    while not env.is_over() and i < len(actions):
        # Global generators must not matter: stir them between steps.
        random.randint(0, 1000)
        np.random.normal(size=100)
        legals = list(state["legal_actions"].keys())
        state, _ = env.step(legals[actions[i] % len(legals)])
        i += 1
        if not env.is_over():
            observations.append(hash(state["obs"].tobytes()))
    return hash(tuple(observations))


def test_is_deterministic():
    actions = [random.randrange(rlcard.make("uno").num_actions) for _ in range(25)]
    hashes = [_hash_observations(rlcard.make("uno", config={"seed": 12941}), actions) for _ in range(2)]
    assert hashes[0] == hashes[1]


def test_get_legal_actions():
    env = rlcard.make("uno")
    env.set_agents([RandomAgent(env.num_actions) for _ in range(env.num_players)])
    env.reset()
    legal_actions = env._get_legal_actions()
    assert legal_actions
    for legal_action in legal_actions:
        assert legal_action < env.num_actions


def test_step():
    env = rlcard.make("uno", config={"seed": 1})
    state, _ = env.reset()
    action = np.random.choice(list(state["legal_actions"].keys()))
    _, player_id = env.step(action)
    assert player_id == env.get_player_id() == env.game.current


def test_step_back():
    env = rlcard.make("uno", config={"allow_step_back": True, "seed": 2})
    state, player_id = env.reset()
    action = np.random.choice(list(state["legal_actions"].keys()))
    env.step(action)
    env.step_back()
    assert env.get_player_id() == player_id

    env = rlcard.make("uno", config={"allow_step_back": False})
    state, player_id = env.reset()
    action = np.random.choice(list(state["legal_actions"].keys()))
    env.step(action)
    with pytest.raises(Exception):
        env.step_back()


def test_run():
    # Uniformly random agents under the official false-call penalty play long rounds: cap them.
    env = rlcard.make("uno", config={"seed": 3, "max_actions": 1000})
    env.set_agents([RandomAgent(env.num_actions, seed=i) for i in range(env.num_players)])
    trajectories, payoffs = env.run(is_training=False)
    assert len(trajectories) == 2
    assert sum(payoffs) == 0
    trajectories, payoffs = env.run(is_training=True)
    assert sum(payoffs) == 0


def test_decode_action():
    env = rlcard.make("uno")
    env.reset()
    for legal_action in env._get_legal_actions():
        decoded = env._decode_action(legal_action)
        assert decoded in env.get_state(env.get_player_id())["raw_legal_actions"]


def test_get_perfect_information():
    env = rlcard.make("uno")
    _, player_id = env.reset()
    assert player_id == env.get_perfect_information()["current_player"]


# Beyond the port: what RLCard gets wrong and this environment does not.


def test_four_players_are_four_players():
    env = rlcard.make("uno", config={"game_num_players": 4, "seed": 5, "max_actions": 1000})
    env.set_agents([RandomAgent(env.num_actions, seed=i) for i in range(4)])
    trajectories, payoffs = env.run()
    assert len(trajectories) == 4 and len(payoffs) == 4
    assert len(env.get_perfect_information()["hand_cards"]) == 4


def test_an_illegal_action_is_refused_not_replaced():
    env = rlcard.make("uno", config={"seed": 6})
    state, _ = env.reset()
    illegal = next(a for a in range(env.num_actions) if a not in state["legal_actions"])
    with pytest.raises(ValueError):
        env.step(illegal)


def test_raw_actions_are_accepted():
    env = rlcard.make("uno", config={"seed": 7})
    state, player = env.reset()
    raw = state["raw_legal_actions"][0]
    env.step(raw, raw_action=True)
    assert env.action_recorder[0] == (player, raw)


def test_the_fast_planes_equal_the_planes_from_card_texts():
    env = rlcard.make("uno", config={"seed": 8, "game_num_players": 3, "max_actions": 300})
    env.set_agents([RandomAgent(env.num_actions, seed=i) for i in range(3)])
    for _ in range(3):
        trajectories, _ = env.run()
        for states in trajectories:
            for state in states[::2]:
                raw = state["raw_obs"]
                # A first-card wild waiting for its colour has none in play yet (None).
                expected = rlcard.encode_planes(raw["hand"], raw["top"], raw["color"])
                assert np.array_equal(state["obs"], expected)
