"""The Rust core from Python: arrays filled in place, refusals, seeding, parity with the engine."""

import copy
import json
import pickle

import numpy as np
import pytest

from conftest import pick
from tabletop.uno import (
    ACTION_NAMES,
    DECLINE,
    NUM_ACTIONS,
    OBS_LAYOUT,
    OBS_SIZE,
    PRESET_NAMES,
    Bot,
    Game,
    UnoVecEnv,
    episode_seed,
    play_round,
)


def test_spaces_are_documented_sizes():
    assert NUM_ACTIONS == len(ACTION_NAMES) == 88
    assert OBS_SIZE == 283
    offset, length = OBS_LAYOUT["draw_pile"]
    assert offset + length == OBS_SIZE
    assert ACTION_NAMES[DECLINE] == "decline"


def test_step_fills_the_same_arrays_in_place(rng):
    env = UnoVecEnv(8, players=4, seed=3)
    env.reset()
    obs, mask, reward, seat = env.obs, env.mask, env.reward, env.seat
    assert obs.shape == (8, OBS_SIZE) and obs.dtype == np.float32
    assert mask.shape == (8, NUM_ACTIONS) and mask.dtype == np.int8
    assert env.terminated.dtype == np.bool_ and seat.dtype == np.int32
    before = obs.copy()
    env.step(np.array([pick(m, rng) for m in mask], dtype=np.int64))
    assert env.obs is not None and np.shares_memory(env.obs, obs)
    assert np.shares_memory(env.mask, mask) and np.shares_memory(env.reward, reward)
    assert not np.array_equal(before, obs), "the step wrote into the array the caller holds"
    assert (mask.sum(axis=1) > 0).all()


def test_an_illegal_action_raises_and_changes_nothing():
    env = UnoVecEnv(2, seed=1)
    env.reset()
    mask = env.mask.copy()
    obs = env.obs.copy()
    legal0 = int(np.flatnonzero(mask[0])[0])
    illegal1 = int(np.flatnonzero(mask[1] == 0)[0])
    with pytest.raises(ValueError, match="environment 1: action"):
        env.step(np.array([legal0, illegal1], dtype=np.int64))
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(np.array([legal0, 999], dtype=np.int64))
    with pytest.raises(ValueError, match="expected 2 actions"):
        env.step(np.array([legal0], dtype=np.int64))
    assert np.array_equal(env.mask, mask) and np.array_equal(env.obs, obs)


def test_bad_setups_are_refused_with_their_reason():
    with pytest.raises(ValueError, match="unknown preset"):
        UnoVecEnv(1, rules="nope")
    with pytest.raises(ValueError, match="unknown bot"):
        UnoVecEnv(1, opponents=["nobody"])
    with pytest.raises(ValueError, match="learner seat 7"):
        UnoVecEnv(1, players=4, learner_seats=[7])
    with pytest.raises(ValueError, match="players"):
        UnoVecEnv(1, players=11)


def _trajectory(n, steps, seed):
    env = UnoVecEnv(n, players=4, seed=seed)
    env.reset()
    rngs = [np.random.default_rng(i) for i in range(n)]
    rows = []
    for _ in range(steps):
        rows.append((env.obs[0].tobytes(), env.mask[0].tobytes(), float(env.reward[0]), bool(env.terminated[0])))
        env.step(np.array([pick(env.mask[i], rngs[i]) for i in range(n)], dtype=np.int64))
    return rows


def test_an_environment_plays_the_same_games_whatever_the_batch_size():
    alone = _trajectory(1, 600, seed=21)
    assert alone == _trajectory(6, 600, seed=21)
    assert any(row[3] for row in alone), "an episode ended"
    assert alone != _trajectory(1, 600, seed=22)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_vector_env_plays_the_engines_game_on_every_preset(preset, rng):
    players = 3
    env = UnoVecEnv(1, rules=preset, players=players, learner_seats=[0, 1, 2], opponents=[], seed=8, max_actions=500)
    env.reset()
    game = Game(preset, players, episode_seed(8, 0, 0), fast=True)
    ended = 0
    for _ in range(1500):
        a = pick(env.mask[0], rng)
        seat = int(env.seat[0])
        if a != DECLINE:
            game.apply(a, seat)
        env.step(np.array([a], dtype=np.int64))
        if env.terminated[0] or env.truncated[0]:
            if env.terminated[0]:
                assert list(env.rewards[0][:players]) == game.round_rewards()
            ended += 1
            game = Game(preset, players, episode_seed(8, 0, env.episode(0)), fast=True)
        assert env.game(0).state_hash() == game.state_hash()
    assert ended > 0


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_game_replays_from_its_record_and_pickles(preset, rng):
    game = Game(preset, 3, seed=5)
    for _ in range(60):
        if game.is_round_over():
            break
        game.apply(pick(game.legal_mask(), rng))
    replayed = Game.replay(game.record())
    assert replayed.state_hash() == game.state_hash()
    # Records carry 64-bit seeds as decimal strings (JSON numbers past 2**53 lose digits).
    assert json.loads(game.record())["seed"] == "5"
    for clone in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game), game.copy()):
        assert clone.state_hash() == game.state_hash()
        assert clone.legal_actions() == game.legal_actions()


def test_text_and_index_actions_agree():
    game = Game("official", 4, seed=2)
    mask = game.legal_mask()
    for text in game.legal_actions():
        assert mask[game.action_index(text)] == 1, text
    first = game.legal_actions()[0]
    other = game.copy()
    game.apply(first)
    other.apply(other.action_index(first))
    assert game.state_hash() == other.state_hash()
    with pytest.raises(ValueError, match="cannot read action"):
        game.apply("fly away")
    with pytest.raises(ValueError):
        game.apply("pass")


def test_bots_are_callables_that_finish_rounds():
    wins = np.zeros(4)
    for seed in range(20):
        game = Game("official", 4, seed=seed)
        bots = [Bot("heuristic", seed), Bot("random", seed), Bot("random", seed + 1), Bot("first")]
        rewards = play_round(game, bots)
        assert sorted(rewards)[-1] in (0.0, 1.0)
        wins += np.array(rewards) == 1.0
    assert wins.sum() > 0
    with pytest.raises(ValueError, match="unknown bot"):
        Bot("nobody")


def test_observation_is_what_the_seat_may_know():
    game = Game("official", 3, seed=4)
    obs = game.observation(1)
    assert obs["viewer"] == 1 and len(obs["hand"]) == 7
    vec = game.observation_vector(1)
    hand = OBS_LAYOUT["hand"]
    assert vec[hand[0] : hand[0] + hand[1]].sum() == 7
    assert game.observation(None)["hand"] == []


SAME_NUMBER = 'name = "same-number"\n[play]\nmulti_play = "same_number"\n'


def test_a_same_number_run_fits_the_fixed_action_space(rng):
    """The house rule adds no action: each further card of the number is a play, pass ends the
    turn; the observation's phase block has the run's own entry."""
    pass_index = ACTION_NAMES.index("pass")
    draw_index = ACTION_NAMES.index("draw")
    offset, length = OBS_LAYOUT["phase"]
    assert length == 8
    runs = 0
    for seed in range(20):
        game = Game(SAME_NUMBER, 3, seed=seed)
        for _ in range(400):
            if game.is_round_over():
                break
            if game.phase == "same_number":
                runs += 1
                mask = game.legal_mask()
                assert mask[pass_index] and not mask[draw_index]
                others = [ACTION_NAMES[i] for i in np.flatnonzero(mask) if i != pass_index]
                assert all(name.startswith("play") or name == "uno" for name in others), others
                assert game.observation_vector(game.current)[offset + 7] == 1
            game.apply(pick(game.legal_mask(), rng))
    assert runs > 0


def test_games_without_a_record_pickle_through_their_position():
    import copy
    import pickle

    from tabletop.uno import UnoVecEnv

    env = UnoVecEnv(2, seed=3)
    env.reset()
    for _ in range(5):
        env.step(env.mask.argmax(axis=1))
    game = env.game(1)  # a copy of an environment's game: no record
    again = pickle.loads(pickle.dumps(game))
    assert again.state_hash() == game.state_hash()
    # It plays on exactly as the original: the same draws (the generator is in the position).
    for _ in range(30):
        if game.is_round_over():
            break
        a = game.legal_indices()[0]
        game.play(a)
        again.play(a)
        assert again.state_hash() == game.state_hash()
    assert copy.deepcopy(game).state_hash() == game.state_hash()


def test_bots_pickle_as_their_name_and_last_seed():
    import pickle

    game = Game("official", players=2, seed=5)
    bot = Bot("random", seed=9)
    bot.reseed(11)
    copied = pickle.loads(pickle.dumps(bot))
    assert copied.name == bot.name
    assert [copied(game) for _ in range(5)] == [bot(game) for _ in range(5)]


def test_objects_work_from_another_thread_and_never_panic():
    import threading

    from tabletop.uno import UnoVecEnv

    env = UnoVecEnv(64, seed=1, num_threads=2)
    env.reset()
    game = Game("official", players=2, seed=1)
    bot = Bot("heuristic", seed=1)
    errors = []

    def work():
        try:
            for _ in range(20):
                env.step(env.mask.argmax(axis=1))
            bot(game)
        except BaseException as e:  # a Rust panic would be a BaseException
            errors.append(e)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert not errors, errors
    assert env.num_threads == 2


@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_the_batched_env_pickles_and_plays_on_exactly(opponents, rng):
    from tabletop.uno import UnoVecEnv

    env = UnoVecEnv(6, rules="cs410", players=3, learner_seats=[0, 2], opponents=[opponents], seed=4, max_actions=60)
    env.reset()
    for _ in range(40):
        env.step([pick(m, rng) for m in env.mask])
    for again in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        for name in ("obs", "mask", "reward", "rewards", "terminated", "truncated", "seat", "final_obs"):
            assert np.array_equal(getattr(again, name), getattr(env, name)), name
        assert [again.episode(i) for i in range(6)] == [env.episode(i) for i in range(6)]
    copies = [pickle.loads(pickle.dumps(env)) for _ in range(1)]
    for _ in range(60):
        actions = [pick(m, rng) for m in env.mask]
        env.step(actions)
        for c in copies:
            c.step(actions)
            assert np.array_equal(c.obs, env.obs) and np.array_equal(c.reward, env.reward)
            assert np.array_equal(c.terminated, env.terminated)


def test_the_gymnasium_env_pickles_through_the_core(rng):
    from tabletop.envs import UnoGymEnv, UnoGymVectorEnv

    env = UnoGymEnv(opponents="heuristic")
    obs, info = env.reset(seed=3)
    for _ in range(10):
        obs, r, te, tr, info = env.step(pick(info["action_mask"], rng))
        if te or tr:
            obs, info = env.reset()
    again = pickle.loads(pickle.dumps(env))
    for _ in range(40):
        a = pick(info["action_mask"], rng)
        out, out2 = env.step(a), again.step(a)
        assert np.array_equal(out[0], out2[0]) and out[1:4] == out2[1:4]
        info = out[4]
        if out[2] or out[3]:
            assert np.array_equal(env.reset()[0], again.reset()[0])
            info = env._info()
    vec = UnoGymVectorEnv(4, seed=2)
    vec.reset()
    assert np.array_equal(pickle.loads(pickle.dumps(vec)).core.obs, vec.core.obs)


def test_an_unseeded_batch_draws_its_seed_from_entropy():
    from tabletop.uno import UnoVecEnv

    a, b = UnoVecEnv(4), UnoVecEnv(4)
    assert a.seed != b.seed
    a.reset()
    again = UnoVecEnv(4, seed=a.seed)
    again.reset()
    assert np.array_equal(a.obs, again.obs)


def test_step_takes_a_strided_view_of_actions():
    env = UnoVecEnv(3, seed=4, num_threads=1)
    env.reset()
    wide = np.zeros(6, dtype=np.int64)
    wide[::2] = env.mask.argmax(axis=1)
    twin = UnoVecEnv(3, seed=4, num_threads=1)
    twin.reset()
    env.step(wide[::2])
    twin.step(np.ascontiguousarray(wide[::2]))
    assert np.array_equal(env.obs, twin.obs) and np.array_equal(env.reward, twin.reward)
