"""PettingZoo's own checkers on the AEC and parallel environments."""

from types import SimpleNamespace

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test

from conftest import pick
from tabletop.pettingzoo import uno_v0
from tabletop.uno import PRESET_NAMES


@pytest.mark.parametrize("rules,players", [("official", 4), ("cs410", 2)])
def test_api_test(rules, players):
    api_test(uno_v0.env(rules=rules, players=players), num_cycles=300)


def test_seed_test():
    seed_test(uno_v0.env, num_cycles=300)


def test_max_cycles_test():
    # PettingZoo's test steps unmasked random actions: the raw environment refuses the illegal
    # ones and plays on (`env()`, wrapped as the classic games are, would end the episode).
    max_cycles_test(SimpleNamespace(env=uno_v0.raw_env, parallel_env=uno_v0.parallel_env))


def test_parallel_api_test():
    parallel_api_test(uno_v0.parallel_env(), num_cycles=300)


def test_masked_agents_finish_rounds_with_one_winner(rng):
    env = uno_v0.env(rules="cs410", players=3)
    results = []
    for episode in range(3):
        env.reset(seed=episode)
        totals = {a: 0.0 for a in env.possible_agents}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            assert not info.get("illegal_action")
            env.step(pick(obs["action_mask"], rng))
        results.append(sorted(totals.values()))
    assert any(r == [-1.0, -1.0, 1.0] for r in results), results


def test_strict_mode_raises_on_an_illegal_action():
    env = uno_v0.raw_env(illegal_action="raise")
    env.reset(seed=0)
    obs, *_ = env.last()
    with pytest.raises(ValueError):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


@pytest.mark.parametrize("rules", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_parallel_actions_chosen_from_the_given_masks_are_always_legal(rules, players, rng):
    """A property over random games of every preset: an agent that picks only from the mask it
    was given is never refused, so ``illegal_action="raise"`` never raises."""
    env = uno_v0.parallel_env(rules=rules, players=players, illegal_action="raise", max_cycles=400)
    steps = 0
    for episode in range(6):
        observations, infos = env.reset(seed=episode)
        while env.agents:
            actions = {a: pick(observations[a]["action_mask"], rng) for a in env.agents}
            observations, rewards, terms, truncs, infos = env.step(actions)
            steps += 1
            for agent, info in infos.items():
                assert not info["illegal_action"], (rules, episode, agent)
    assert steps > 100


def test_env_is_wrapped_as_pettingzoos_classic_games_and_an_illegal_move_loses():
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    env = uno_v0.env(rules="official", players=3)
    assert isinstance(env, OrderEnforcingWrapper)
    with pytest.raises(Exception):
        env.step(0)  # before reset: the order enforcer refuses it
    env.reset(seed=0)
    offender = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1 and all(r == 0 for a, r in env.rewards.items() if a != offender)


def test_agents_are_there_before_the_first_reset():
    """RLCard's trainers read ``env.agents`` when they are built."""
    assert uno_v0.raw_env(players=3).agents == ["player_0", "player_1", "player_2"]
    wrapped = uno_v0.env(players=3)
    assert wrapped.agents == ["player_0", "player_1", "player_2"] and wrapped.num_agents == 3
    assert uno_v0.parallel_env(players=2).agents == ["player_0", "player_1"]


@pytest.mark.parametrize("make", [uno_v0.env, uno_v0.raw_env])
@pytest.mark.parametrize("players", [2, 4])
def test_aec_to_parallel_steps_the_aec_env_cycle_by_cycle(make, players, rng):
    """The AEC environment says ``is_parallelizable``: PettingZoo's own conversion runs it, on
    ``env()`` (in PettingZoo's wrappers) as on ``raw_env``."""
    from pettingzoo.utils.conversions import aec_to_parallel

    env = aec_to_parallel(make(rules="official", players=players, max_stall=200))
    cycles = 0
    for episode in range(3):
        observations, _ = env.reset(seed=episode)
        while env.agents:
            actions = {}
            for a in env.agents:
                mask = observations[a]["action_mask"]
                actions[a] = pick(mask, rng) if mask.any() else uno_v0.DECLINE
            observations, rewards, terms, truncs, infos = env.step(actions)
            cycles += 1
    assert cycles > 50


def test_the_ansi_render_shows_the_table():
    env = uno_v0.raw_env(rules="official", players=3, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    table = env._table.game
    top = table.observation(None)["top"]
    assert f"top {top}" in text
    for seat, hand in enumerate(table.hands()):
        assert f"seat {seat}: {len(hand):>2} cards  {' '.join(hand)}" in text
    assert text.count("\n") >= 6
