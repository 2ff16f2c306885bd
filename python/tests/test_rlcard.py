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
    return pytest.importorskip(
        "torch",
        reason="torch is not installed (PyPI offers no CPU-only build of reasonable size); "
        "RLCard's DQN, NFSP and DMC trainers need it",
    )


def test_rlcards_dqn_agent_trains_a_few_hundred_steps():
    torch = _torch_or_skip()
    from rlcard.agents import DQNAgent
    from rlcard.utils import reorganize

    env = rlcard.make("uno", config={"seed": 12, "max_actions": 300})
    agent = DQNAgent(num_actions=env.num_actions, state_shape=env.state_shape[0], mlp_layers=[32],
                     replay_memory_init_size=50, train_every=10, batch_size=16, device=torch.device("cpu"))
    env.set_agents([agent, RandomAgent(env.num_actions, seed=3)])
    steps = 0
    while steps < 300:
        trajectories, payoffs = env.run(is_training=True)
        for ts in reorganize(trajectories, payoffs)[0]:
            agent.feed(ts)
            steps += 1
    assert agent.total_t >= 300


def test_rlcards_nfsp_agent_trains_a_few_hundred_steps():
    torch = _torch_or_skip()
    from rlcard.agents import NFSPAgent
    from rlcard.utils import reorganize

    env = rlcard.make("uno", config={"seed": 13, "max_actions": 300})
    agent = NFSPAgent(num_actions=env.num_actions, state_shape=env.state_shape[0], hidden_layers_sizes=[32],
                      q_mlp_layers=[32], q_replay_memory_init_size=50, min_buffer_size_to_learn=50,
                      batch_size=16, device=torch.device("cpu"))
    env.set_agents([agent, RandomAgent(env.num_actions, seed=4)])
    steps = 0
    while steps < 300:
        agent.sample_episode_policy()
        trajectories, payoffs = env.run(is_training=True)
        for ts in reorganize(trajectories, payoffs)[0]:
            agent.feed(ts)
            steps += 1
    assert steps >= 300


def test_rlcards_dmc_model_acts_on_the_environment():
    _torch_or_skip()
    from rlcard.agents.dmc_agent.model import DMCModel

    env = rlcard.make("uno", config={"seed": 14, "max_actions": 300})
    action_shape = [[env.num_actions] if s is None else s for s in env.action_shape]
    model = DMCModel(env.state_shape, action_shape, exp_epsilon=0.1, device="cpu")
    env.set_agents(model.get_agents())
    steps = 0
    while steps < 300:
        trajectories, payoffs = env.run(is_training=True)
        steps += sum(len(t) // 2 for t in trajectories)
    assert steps >= 300
