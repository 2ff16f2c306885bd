"""Gymnasium: the single-agent env passes the checker; the vector env steps in Rust."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tabletop  # noqa: F401  (registers tabletop/Uno-v0)
from conftest import pick
from tabletop.envs import UnoGymEnv, UnoGymVectorEnv


@pytest.mark.parametrize("rules,players", [("official", 4), ("cs410", 3), ("two-color", 2)])
def test_the_single_agent_env_passes_gymnasiums_checker(rules, players):
    check_env(UnoGymEnv(rules=rules, players=players), skip_render_check=True)


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
    env = UnoGymEnv()
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert info2["illegal_action"] and reward < 0 and not terminated
    assert np.array_equal(obs, obs2)
    strict = UnoGymEnv(illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError):
        strict.step(illegal)


def test_the_same_seed_gives_the_same_episode():
    def run(seed):
        env = UnoGymEnv()
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
    assert isinstance(envs.unwrapped, UnoGymVectorEnv)
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


def test_action_masks_after_gym_make():
    env = gym.make("tabletop/Uno-v0")
    with pytest.raises(gym.error.ResetNeeded):
        env.step(0)
    obs, info = env.reset(seed=2)
    assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
    assert env.action_masks().any()


def test_make_and_make_vec_refuse_unknown_arguments():
    with pytest.raises(TypeError, match="opponent"):
        gym.make("tabletop/Uno-v0", opponent="heuristic")
    with pytest.raises(TypeError, match="opponent"):
        gym.make_vec("tabletop/Uno-v0", num_envs=2, vectorization_mode="vector_entry_point", opponent="heuristic")


def test_unseeded_vector_envs_deal_from_entropy_and_reset_deals_fresh_episodes():
    a, b = UnoGymVectorEnv(8), UnoGymVectorEnv(8)
    obs_a, _ = a.reset()
    obs_a = obs_a.copy()
    obs_b, _ = b.reset()
    assert not np.array_equal(obs_a, obs_b), "two unseeded environments dealt the same games"
    again, _ = a.reset()
    assert not np.array_equal(obs_a, again), "reset() without a seed dealt episode 0 again"
    # Seeded: the same seed repeats, and so does the sequence of unseeded resets after it.
    c, d = UnoGymVectorEnv(8, seed=5), UnoGymVectorEnv(8)
    first_c = c.reset()[0].copy()
    assert np.array_equal(first_c, d.reset(seed=5)[0])
    assert np.array_equal(c.reset(seed=5)[0].copy(), first_c)
    assert np.array_equal(c.reset()[0].copy(), d.reset()[0])


def test_the_vector_env_step_accepts_integer_arrays_and_lists_and_refuses_others():
    env = UnoGymVectorEnv(3, seed=1)
    obs, info = env.reset()
    first = [int(np.flatnonzero(m)[0]) for m in info["action_mask"]]
    *_, info = env.step(first)  # a list
    *_, info = env.step(np.array([np.flatnonzero(m)[0] for m in info["action_mask"]], dtype=np.int32))
    *_, info = env.step(np.array([np.flatnonzero(m)[0] for m in info["action_mask"]], dtype=np.uint8))
    with pytest.raises(TypeError, match="integers"):
        env.step(np.zeros(3, dtype=np.float64))
    with pytest.raises(TypeError, match="integers"):
        env.step("abc")
    with pytest.raises(ValueError, match="expected 3 actions"):
        env.step([0])


def test_final_obs_and_final_info_follow_gymnasiums_same_step_autoreset(rng):
    """A row that ends shows the next episode; ``final_obs`` holds the last observation of the
    ended one (that it is the final state's observation is checked in Rust against a batch that
    does not auto-reset: crates/uno-env/tests/env.rs), truncated episodes included."""
    envs = UnoGymVectorEnv(8, seed=11, max_actions=40)
    obs, info = envs.reset()
    ended = truncated_seen = 0
    for _ in range(300):
        actions = np.array([pick(m, rng) for m in info["action_mask"]])
        obs, reward, terminated, truncated, info = envs.step(actions)
        done = terminated | truncated
        if not done.any():
            assert "final_obs" not in info
            continue
        assert np.array_equal(info["_final_obs"], done) and np.array_equal(info["_final_info"], done)
        for i in range(8):
            if not done[i]:
                assert info["final_obs"][i] is None
                continue
            ended += 1
            truncated_seen += int(truncated[i])
            final = info["final_obs"][i]
            assert final.shape == obs[i].shape and not np.array_equal(final, obs[i])
            assert np.array_equal(info["final_info"]["rewards"][i], envs.core.rewards[i])
            assert envs.single_observation_space.contains(final)
        if ended > 20 and truncated_seen:
            break
    assert ended > 20 and truncated_seen > 0
