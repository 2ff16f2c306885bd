"""Gymnasium: the single-agent env passes the checker; the vector env steps in Rust."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tabletop  # noqa: F401  (registers tabletop/Uno-v0)
from conftest import pick
from tabletop.envs import UnoEnv, UnoVectorEnv


@pytest.mark.parametrize("rules,players", [("official", 4), ("cs410", 3), ("two-color", 2)])
def test_the_single_agent_env_passes_gymnasiums_checker(rules, players):
    check_env(UnoEnv(rules=rules, players=players), skip_render_check=True)


def test_the_registered_id_plays_episodes_to_the_end(rng):
    env = gym.make("tabletop/Uno-v0", opponents="heuristic")
    obs, info = env.reset(seed=4)
    episodes = 0
    rewards = []
    for _ in range(3000):
        obs, reward, terminated, truncated, info = env.step(pick(info["action_mask"], rng))
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            rewards.append(reward)
            episodes += 1
            obs, info = env.reset()
    assert episodes >= 3 and set(rewards) <= {-1.0, 0.0, 1.0}


def test_an_illegal_action_is_refused_and_penalised():
    env = UnoEnv()
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert info2["illegal_action"] and reward < 0 and not terminated
    assert np.array_equal(obs, obs2)
    strict = UnoEnv(illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError):
        strict.step(illegal)


def test_the_same_seed_gives_the_same_episode():
    def run(seed):
        env = UnoEnv()
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        out = [obs]
        for _ in range(50):
            obs, r, te, tr, info = env.step(pick(info["action_mask"], rng))
            out.append(obs)
            if te or tr:
                obs, info = env.reset()
        return np.array(out)

    assert np.array_equal(run(9), run(9))
    assert not np.array_equal(run(9), run(10))


def test_the_vector_env_auto_resets_in_the_same_step(rng):
    envs = gym.make_vec("tabletop/Uno-v0", num_envs=16, vectorization_mode="vector_entry_point")
    assert isinstance(envs.unwrapped, UnoVectorEnv)
    obs, info = envs.reset(seed=3)
    assert obs.shape == (16, 283)
    finished = 0
    for _ in range(400):
        actions = np.array([pick(m, rng) for m in info["action_mask"]])
        obs, reward, terminated, truncated, info = envs.step(actions)
        finished += int(terminated.sum())
        # After an auto-reset the row already shows the next episode's first decision.
        assert (info["action_mask"].sum(axis=1) > 0).all()
        assert envs.single_observation_space.contains(obs[0])
    assert finished > 0
