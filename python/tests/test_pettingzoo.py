"""PettingZoo's own checkers on the AEC and parallel environments."""

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
    max_cycles_test(uno_v0)


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
    env = uno_v0.env(illegal_action="raise")
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
