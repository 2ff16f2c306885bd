"""Learning never stalls: under the official rules drawing is always legal, so a greedy policy
that draws (an untrained network's argmax) never ends a round. Every adapter cuts such an
episode as a truncation once it has gone ``max_stall`` engine actions without a hand getting
smaller than it had been, and the bound is the researcher's to set."""

import numpy as np
import pytest

from tabletop import rlcard
from tabletop.envs import UnoGymVectorEnv
from tabletop.pettingzoo import uno_v0
from tabletop.uno import ACTION_NAMES, DECLINE, Game
from tabletop.uno import DEFAULT_MAX_STALL

DRAW, PASS = ACTION_NAMES.index("draw"), ACTION_NAMES.index("pass")


def greedy_draw(mask):
    """Draw whenever allowed, then keep the card; decline windows; else the first legal."""
    for a in (DRAW, PASS, DECLINE):
        if mask[a]:
            return a
    return int(np.flatnonzero(mask)[0])


def test_the_default_bound_is_the_documented_one():
    assert DEFAULT_MAX_STALL == 400
    assert rlcard.make("uno").max_stall == DEFAULT_MAX_STALL
    assert uno_v0.raw_env().unwrapped._table.max_stall == DEFAULT_MAX_STALL


def test_a_game_counts_the_actions_since_a_hand_last_got_smaller():
    game = Game("official", 2, 5)
    assert game.stall == 0
    sizes = [len(h) for h in game.hands()]
    lows = list(sizes)
    for _ in range(200):
        if game.is_round_over():
            break
        mask = game.legal_mask()
        game.play(greedy_draw(mask))
        sizes = [len(h) for h in game.hands()]
        if any(s < low for s, low in zip(sizes, lows)):
            assert game.stall == 0
        lows = [min(s, low) for s, low in zip(sizes, lows)]
    assert game.stall > 100
    # A copy (and a pickle) carries the count.
    import pickle

    assert pickle.loads(pickle.dumps(game)).stall == game.stall == game.copy().stall


@pytest.mark.parametrize("max_stall", [50, None])
def test_rlcard_compatible_env_cuts_a_drawing_round(max_stall):
    env = rlcard.make("uno", config={"seed": 3, "max_stall": max_stall, "max_actions": 3000})
    state, player = env.reset()
    steps = 0
    while not env.is_over():
        mask = np.zeros(len(ACTION_NAMES), dtype=np.int8)
        mask[list(state["legal_actions"])] = 1
        state, player = env.step(greedy_draw(mask))
        steps += 1
    assert env.truncated
    assert list(env.get_payoffs()) == [0, 0]
    assert not state["legal_actions"] and not state["raw_legal_actions"]
    assert steps == (3000 if max_stall is None else 50)


def test_aec_env_truncates_every_agent_when_the_round_stalls():
    env = uno_v0.raw_env(rules="official", players=3, max_stall=80)
    env.reset(seed=1)
    engine_actions = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0
            env.step(None)
            continue
        action = greedy_draw(obs["action_mask"])
        engine_actions += action != DECLINE
        env.step(action)
    assert engine_actions == 80


def test_parallel_env_truncates_when_the_round_stalls():
    env = uno_v0.parallel_env(rules="official", players=2, max_stall=60)
    observations, _ = env.reset(seed=2)
    cycles = 0
    while env.agents:
        actions = {a: greedy_draw(observations[a]["action_mask"]) for a in env.agents}
        observations, rewards, terms, truncs, _ = env.step(actions)
        cycles += 1
    assert all(truncs.values()) and not any(terms.values())
    assert all(r == 0 for r in rewards.values())
    assert cycles == 60


def test_gymnasium_vector_env_truncates_a_stalled_self_play_round():
    env = UnoGymVectorEnv(2, players=2, learner_seats="all", opponents=[], seed=4, max_stall=70)
    assert env.core.max_stall == 70
    env.reset()
    for step in range(1, 71):
        actions = [greedy_draw(m) for m in env.core.mask]
        _, _, terminated, truncated, info = env.step(actions)
    assert truncated.all() and not terminated.any()
    assert (info["final_info"]["rewards"] == 0).all()


def test_openspiel_game_ends_a_stalled_round_worth_nothing():
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    import tabletop.openspiel  # noqa: F401

    game = pyspiel.load_game("python_tabletop_uno", {"players": 2, "max_stall": 40})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            mask = np.zeros(len(ACTION_NAMES), dtype=np.int8)
            mask[state.legal_actions()] = 1
            state.apply_action(greedy_draw(mask))
    assert state.returns() == [0.0, 0.0]
    assert not state.game.is_round_over() and state.game.stall == 40


def test_max_stall_must_be_positive_or_none():
    with pytest.raises(ValueError, match="max_stall"):
        rlcard.make("uno", config={"max_stall": 0})
    with pytest.raises(ValueError, match="max_stall"):
        uno_v0.raw_env(max_stall=0)
    from tabletop.uno import UnoVecEnv

    with pytest.raises(ValueError, match="max_stall"):
        UnoVecEnv(1, max_stall=0)
    assert UnoVecEnv(1, max_stall=None).max_stall is None
