"""RLCard's own UNO environment tests (tests/envs/test_uno_env.py), ported to the compatible
``UnoEnv``. Where RLCard's simplified rules differ, the port says how:

* RLCard's observation is 420 values in its old releases and 4×4×15 = 240 in 1.x: ours is 240;
* RLCard's 61 actions become our 88 (legal ids are below ``num_actions``);
* ``env.game.round.current_player`` (an RLCard internal) is ``env.get_player_id()`` here;
* ``single_agent_mode`` was removed from RLCard itself and is not ported.
"""

import csv
import math
import multiprocessing
import os
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
                raw = state["tabletop_obs"]
                # A first-card wild waiting for its colour has none in play yet (None).
                expected = rlcard.encode_planes(raw["hand"], raw["top"], raw["color"])
                assert np.array_equal(state["obs"], expected)


# RLCard's own agents and trainers on this environment.

RLCARD_LIKE_RULES = '[play]\nforced_play = "required"\ndraw = "draw_one_end_turn"'


def test_the_raw_state_is_in_rlcards_format():
    env = rlcard.make("uno", config={"seed": 9, "game_num_players": 3})
    state, player = env.reset()
    raw = state["raw_obs"]
    assert set(raw) >= {"hand", "target", "played_cards", "legal_actions", "num_cards", "num_players", "current_player"}
    colors, traits = {"r", "g", "b", "y"}, {str(d) for d in range(10)} | {"skip", "reverse", "draw_2", "wild", "wild_draw_4"}
    for card in raw["hand"] + [raw["target"]]:
        color, trait = card.split("-")
        assert color in colors and trait in traits, card
    assert raw["legal_actions"] == state["raw_legal_actions"]
    assert len(raw["hand"]) == raw["num_cards"][player] == len(state["tabletop_obs"]["hand"])
    # Every raw name is RLCard's where RLCard has the action, and splits on "-" where it has not.
    for i, name in enumerate(rlcard.RLCARD_ACTION_NAMES):
        assert name == "draw" or len(name.split("-")) == 2, name
    assert rlcard.RLCARD_ACTION_NAMES[13 * 0 + 7] == "r-7"
    assert rlcard.RLCARD_ACTION_NAMES[13 * 3 + 12] == "b-draw_2"
    assert rlcard.RLCARD_ACTION_NAMES[56 + 1] == "y-wild_draw_4"


@pytest.mark.parametrize("rules", ["official", RLCARD_LIKE_RULES])
def test_rlcards_uno_rule_agent_plays_rounds(rules):
    models = pytest.importorskip("rlcard.models", reason="rlcard is not installed")
    rule_agent = models.load("uno-rule-v1").agents[0]
    env = rlcard.make("uno", config={"seed": 10, "rules": rules, "max_actions": 600})
    env.set_agents([rule_agent, RandomAgent(env.num_actions, seed=1)])
    np.random.seed(0)  # the rule agent draws from numpy's global generator
    steps = finished = 0
    for _ in range(6):
        trajectories, payoffs = env.run(is_training=False)
        steps += len(env.action_recorder)
        finished += int(env.game.is_round_over())
        assert len(payoffs) == 2
    assert steps > 100
    if rules == RLCARD_LIKE_RULES:
        # Under RLCard's rules it draws only when it cannot play, and rounds end.
        assert finished >= 3


def test_rlcard_tournament_runs_with_the_rule_agent():
    models = pytest.importorskip("rlcard.models", reason="rlcard is not installed")
    from rlcard.utils import tournament

    env = rlcard.make("uno", config={"seed": 11, "rules": RLCARD_LIKE_RULES, "max_actions": 600})
    env.set_agents([models.load("uno-rule-v1").agents[0], RandomAgent(env.num_actions, seed=2)])
    payoffs = tournament(env, 20)
    assert len(payoffs) == 2 and -1.0 <= payoffs[0] <= 1.0


def test_what_rlcards_dmc_actor_reads_from_the_environment():
    """``rlcard.agents.dmc_agent.utils.act`` without torch: it seeds the env, runs rounds, cuts
    each trajectory into (state["obs"], action) pairs and one-hot encodes the actions with
    ``get_action_feature`` to the trainer's ``action_shape`` (``num_actions`` when it is None);
    ``timestep`` counts the steps."""
    env = rlcard.make("uno", config={"max_actions": 400})
    env.seed(0)
    env.set_agents([RandomAgent(env.num_actions, seed=i) for i in range(env.num_players)])
    action_shape = [[env.num_actions] if s is None else s for s in env.action_shape]
    before = env.timestep
    trajectories, payoffs = env.run(is_training=True)
    pairs = 0
    for p in range(env.num_players):
        for i in range(0, len(trajectories[p]) - 2, 2):
            state = trajectories[p][i]["obs"]
            action = env.get_action_feature(trajectories[p][i + 1])
            assert list(state.shape) == env.state_shape[p]
            assert list(action.shape) == action_shape[p] and action.sum() == 1
            pairs += 1
    assert pairs > 0 and env.timestep - before == len(env.action_recorder)


def _torch_or_skip():
    """torch, or a skip; with ``TABLETOP_REQUIRE_TORCH=1`` (scripts/test-python's trainer run) a
    missing torch is a failure, so that run cannot pass by skipping."""
    if os.environ.get("TABLETOP_REQUIRE_TORCH") == "1":
        import torch

        return torch
    return pytest.importorskip(
        "torch",
        reason="torch is not installed here; scripts/test-python runs these tests in a second "
        "environment with Debian's CPU-only python3-torch",
    )


def _recorded(obj, method):
    """Wraps ``obj.method`` so that every value it returns is also appended to a list."""
    values = []
    inner = getattr(obj, method)

    def wrapper(*args, **kwargs):
        value = inner(*args, **kwargs)
        values.append(value)
        return value

    setattr(obj, method, wrapper)
    return values


def _parameters(module):
    return [p.detach().clone() for p in module.parameters()]


def _moved(before, module):
    return any(not (a == b).all() for a, b in zip(before, module.parameters()))


def _assert_legal(trajectories):
    """Every action in RLCard's trajectories (state, action, state, ...) was legal in the state
    its agent was given."""
    for trajectory in trajectories:
        for i in range(0, len(trajectory) - 1, 2):
            assert trajectory[i + 1] in trajectory[i]["legal_actions"], (i, trajectory[i + 1])


def _train(env, agent, steps, before_round=None):
    """RLCard's training loop (examples/run_rl.py): rounds with ``is_training=True``, the
    learner's transitions fed back; returns the transitions fed."""
    from rlcard.utils import reorganize

    fed = 0
    while fed < steps:
        if before_round is not None:
            before_round()
        trajectories, payoffs = env.run(is_training=True)
        _assert_legal(trajectories)
        assert sum(payoffs) == 0
        for ts in reorganize(trajectories, payoffs)[0]:
            agent.feed(ts)
            fed += 1
    return fed


def _assert_learned(losses, before, network):
    losses = [float(loss) for loss in losses]
    assert len(losses) >= 10, losses
    assert all(math.isfinite(loss) for loss in losses), losses
    assert len(set(losses)) > 1, losses
    assert _moved(before, network)


@pytest.mark.torch
def test_rlcards_dqn_agent_trains_a_few_hundred_steps():
    torch = _torch_or_skip()
    from rlcard.agents import DQNAgent

    torch.manual_seed(0)
    np.random.seed(0)  # RLCard's agents explore with numpy's global generator
    env = rlcard.make("uno", config={"seed": 12, "max_actions": 300})
    agent = DQNAgent(num_actions=env.num_actions, state_shape=env.state_shape[0], mlp_layers=[32],
                     replay_memory_init_size=50, train_every=10, batch_size=16, device=torch.device("cpu"))
    # RLCard's DQNAgent.train prints its loss and returns nothing: record the estimator's.
    losses = _recorded(agent.q_estimator, "update")
    before = _parameters(agent.q_estimator.qnet)
    env.set_agents([agent, RandomAgent(env.num_actions, seed=3)])
    assert _train(env, agent, 400) >= 400
    assert agent.total_t >= 400
    _assert_learned(losses, before, agent.q_estimator.qnet)
    # The trained agent's greedy choices are legal actions.
    state, _ = env.reset()
    action, _ = agent.eval_step(state)
    assert action in state["legal_actions"]


@pytest.mark.torch
def test_rlcards_nfsp_agent_trains_a_few_hundred_steps():
    torch = _torch_or_skip()
    from rlcard.agents import NFSPAgent

    torch.manual_seed(0)
    np.random.seed(0)
    random.seed(0)  # RLCard's replay and reservoir buffers sample with Python's generator
    env = rlcard.make("uno", config={"seed": 13, "max_actions": 300})
    agent = NFSPAgent(num_actions=env.num_actions, state_shape=env.state_shape[0], hidden_layers_sizes=[32],
                      q_mlp_layers=[32], q_replay_memory_init_size=50, min_buffer_size_to_learn=32,
                      anticipatory_param=0.5,
                      q_train_every=10, train_every=10, batch_size=16, device=torch.device("cpu"))
    sl_losses = _recorded(agent, "train_sl")
    rl_losses = _recorded(agent._rl_agent.q_estimator, "update")
    sl_before = _parameters(agent.policy_network)
    rl_before = _parameters(agent._rl_agent.q_estimator.qnet)
    env.set_agents([agent, RandomAgent(env.num_actions, seed=4)])
    fed = _train(env, agent, 600, before_round=agent.sample_episode_policy)
    assert fed >= 600
    # The average policy learns only from best-response rounds (drawn per round, half of them):
    # a run of average-policy rounds of up to 300 actions can leave its buffer short of
    # `min_buffer_size_to_learn` past 600 transitions (it did in about one run in ten).
    while sum(loss is not None for loss in sl_losses) < 10 and fed < 6000:
        fed += _train(env, agent, 200, before_round=agent.sample_episode_policy)
    _assert_learned([loss for loss in sl_losses if loss is not None], sl_before, agent.policy_network)
    _assert_learned(rl_losses, rl_before, agent._rl_agent.q_estimator.qnet)
    state, _ = env.reset()
    action, _ = agent.eval_step(state)
    assert action in state["legal_actions"]


@pytest.mark.torch
def test_rlcards_dmc_trainer_trains_on_the_environment(tmp_path, monkeypatch):
    """RLCard's DMC trainer as its example runs it (examples/run_dmc.py): actor processes
    (spawned: the environment is pickled to them) play rounds and fill the shared buffers, the
    learner threads train on them, a checkpoint is written."""
    torch = _torch_or_skip()
    from rlcard.agents.dmc_agent import DMCTrainer

    monkeypatch.chdir(tmp_path)  # the trainer records the git state of its working directory
    env = rlcard.make("uno", config={"seed": 14, "max_actions": 300})
    unroll, batch, learns = 16, 4, 8
    trainer = DMCTrainer(env, cuda="", xpid="uno", savedir=str(tmp_path), num_actors=2, num_buffers=16,
                         unroll_length=unroll, batch_size=batch, num_threads=1, total_frames=unroll * batch * learns)
    # The learner's initial weights: `start` makes the actors' model, then the learner's.
    torch.manual_seed(0)
    trainer.model_func("cpu")
    initial = trainer.model_func("cpu")
    torch.manual_seed(0)
    try:
        trainer.start()
    finally:
        # The trainer leaves its actors running (they loop until interrupted).
        for child in multiprocessing.active_children():
            child.terminate()
            child.join(10)
    with open(tmp_path / "uno" / "logs.csv") as f:
        rows = list(csv.DictReader(f))
    # Each learning step took a batch of `batch` buffers of `unroll` steps the actors filled.
    assert int(rows[-1]["frames"]) >= unroll * batch * (learns - 1)
    for seat in range(env.num_players):
        losses = [float(row[f"loss_{seat}"]) for row in rows if float(row[f"loss_{seat}"]) != 0]
        assert len(losses) >= 2 and all(math.isfinite(loss) for loss in losses), losses
    checkpoint = torch.load(tmp_path / "uno" / "model.tar")
    assert checkpoint["frames"] >= unroll * batch * learns
    for seat in range(env.num_players):
        trained = checkpoint["model_state_dict"][seat]
        start = initial.get_agent(seat).state_dict()
        assert any(not torch.equal(trained[k], start[k]) for k in start), seat


@pytest.mark.torch
def test_rlcards_dmc_trainer_trains_on_the_pettingzoo_env_without_a_reset(tmp_path, monkeypatch):
    """RLCard's DMC trainer on the AEC environment (``is_pettingzoo_env=True``, as RLCard's
    examples/pettingzoo/run_dmc.py runs it), built on ``uno_v0.env()`` as it comes, never
    reset: the trainer reads ``env.agents`` and the spaces when it is built, and its actors
    (spawned) reset the env themselves. Both learners get batches.

    RLCard's PettingZoo loop (``run_game_pettingzoo``) reads an agent's termination but not its
    truncation, and asks the agent to act on the empty mask of a truncated round (its actor
    then dies): so the round here is RLCard's rules with no stall bound, where a round ends by
    being won (docs/python.md). A watchdog fails the test, rather than letting it hang, when an
    actor dies."""
    torch = _torch_or_skip()
    pytest.importorskip("pettingzoo", reason="pettingzoo is not installed here")
    import threading

    from rlcard.agents.dmc_agent import DMCTrainer

    from tabletop.pettingzoo import uno_v0

    monkeypatch.chdir(tmp_path)
    env = uno_v0.env(rules="rlcard", players=2, max_stall=None)
    unroll, batch, learns = 16, 4, 6
    trainer = DMCTrainer(env, cuda="", is_pettingzoo_env=True, xpid="uno_pz", savedir=str(tmp_path),
                         num_actors=2, num_buffers=16, unroll_length=unroll, batch_size=batch, num_threads=1,
                         total_frames=unroll * batch * learns)
    done = threading.Event()

    def watchdog():
        # The trainer's learners wait for the actors' buffers forever: if an actor dies, end
        # the test run with a failure instead of a hang.
        # (`active_children` lists the live actors only: one that died drops out of it.)
        deadline, most = 600, 0
        while not done.wait(2):
            deadline -= 2
            alive = len(multiprocessing.active_children())
            most = max(most, alive)
            if alive < most or deadline <= 0:
                print(f"DMC: {most - alive} actor(s) died, or the trainer ran past 600 s", flush=True)
                os._exit(3)

    threading.Thread(target=watchdog, daemon=True).start()
    torch.manual_seed(0)
    try:
        trainer.start()
    finally:
        done.set()
        for child in multiprocessing.active_children():
            child.terminate()
            child.join(10)
    with open(tmp_path / "uno_pz" / "logs.csv") as f:
        rows = list(csv.DictReader(f))
    assert int(rows[-1]["frames"]) >= unroll * batch * (learns - 1)
    for seat in range(2):
        losses = [float(row[f"loss_{seat}"]) for row in rows if float(row[f"loss_{seat}"]) != 0]
        assert len(losses) >= 2 and all(math.isfinite(loss) for loss in losses), (seat, losses)
