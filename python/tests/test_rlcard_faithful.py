"""The faithful RLCard mode against RLCard's own code: its action list, its planes (RLCard's
encoder run on the same hand), its legal actions (RLCard's ``UnoRound`` asked about the same
hand and target), its agents. RLCard's own test file runs in ``rlcard_upstream/``."""

import numpy as np
import pytest

rlcard_pkg = pytest.importorskip("rlcard", reason="rlcard is not installed")

from rlcard.agents.random_agent import RandomAgent as RLCardRandomAgent  # noqa: E402
from rlcard.games.uno.card import UnoCard  # noqa: E402
from rlcard.games.uno.player import UnoPlayer  # noqa: E402
from rlcard.games.uno.round import UnoRound  # noqa: E402
from rlcard.games.uno.utils import ACTION_LIST, ACTION_SPACE, encode_hand, encode_target  # noqa: E402
from rlcard.models.uno_rule_models import UNORuleAgentV1  # noqa: E402

from tabletop.rlcard import faithful  # noqa: E402


def _rlcard_card(name):
    color, trait = name.split("-", 1)
    kind = "wild" if trait.startswith("wild") else "number" if trait.isdigit() else "action"
    return UnoCard(kind, color, trait)


def _rlcards_legal(hand, target):
    """RLCard's own ``UnoRound.get_legal_actions`` for ``hand`` on ``target``, as ids."""
    round_ = UnoRound(dealer=None, num_players=2, np_random=np.random.RandomState(0))
    round_.target = _rlcard_card(target)
    player = UnoPlayer(0, np.random.RandomState(0))
    player.hand = [_rlcard_card(c) for c in hand]
    return [ACTION_SPACE[a] for a in round_.get_legal_actions([player, UnoPlayer(1, None)], 0)]


def test_the_actions_are_rlcards():
    assert faithful.ACTION_LIST == ACTION_LIST
    assert dict(faithful.ACTION_SPACE) == dict(ACTION_SPACE)
    env = faithful.make("uno")
    assert env.num_actions == env.game.get_num_actions() == 61
    assert env.num_players == 2


def test_planes_and_legal_actions_are_rlcards_own_at_every_step_of_random_rounds():
    env = faithful.make("uno", config={"seed": 7})
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(12):
        state, player = env.reset()
        while not env.is_over():
            raw = state["raw_obs"]
            planes = np.zeros((4, 4, 15), dtype=int)
            encode_hand(planes[:3], raw["hand"])
            encode_target(planes[3], raw["target"])
            assert np.array_equal(state["obs"], planes)
            assert state["obs"].dtype == planes.dtype
            legal = list(state["legal_actions"])
            listed = _rlcards_legal(raw["hand"], raw["target"])
            # RLCard's legal ids are its listed actions once each; its raw ones keep repeats.
            assert legal == list(dict.fromkeys(listed)), (raw["hand"], raw["target"])
            assert state["raw_legal_actions"] == [ACTION_LIST[i] for i in listed]
            assert raw["legal_actions"] == state["raw_legal_actions"]
            assert raw["num_cards"][player] == len(raw["hand"])
            state, player = env.step(legal[rng.integers(len(legal))])
            checked += 1
        assert sorted(env.get_payoffs()) in ([-1, 1], [0, 0])
    assert checked > 300


def test_an_illegal_id_is_replaced_by_a_legal_one_and_an_illegal_raw_action_raises():
    env = faithful.make("uno", config={"seed": 2})
    state, _ = env.reset()
    legal = list(state["legal_actions"])
    illegal = next(i for i in range(61) if i not in legal)
    assert env._decode_action(illegal) in [ACTION_LIST[i] for i in legal]
    with pytest.raises(ValueError, match="not legal"):
        env.step(ACTION_LIST[illegal], raw_action=True)
    env.step(illegal)  # replaced, as RLCard replaces it
    assert env.action_recorder[-1][1] in [ACTION_LIST[i] for i in legal]


def test_rlcards_agents_play_it_and_payoffs_are_rlcards():
    env = faithful.make("uno", config={"seed": 3})
    env.set_agents([UNORuleAgentV1(), RLCardRandomAgent(env.num_actions)])
    wins = 0
    for _ in range(40):
        _, payoffs = env.run(is_training=False)
        assert list(payoffs) in ([1, -1], [-1, 1], [0, 0])
        wins += payoffs[0] == 1
    assert 0 < wins < 40


def test_rlcard_seats_two_and_says_so():
    with pytest.raises(ValueError, match="2 players"):
        faithful.make("uno", config={"game_num_players": 4})


def test_the_game_surface_is_rlcards():
    env = faithful.make("uno", config={"seed": 4, "allow_step_back": True})
    state, player = env.reset()
    game = env.game
    assert game.round.current_player == player == game.get_player_id()
    assert game.get_legal_actions() == state["raw_legal_actions"]
    assert game.round.target.str == state["raw_obs"]["target"]
    assert [c.str for c in game.players[player].hand] == state["raw_obs"]["hand"]
    assert game.round.played_cards[-1].str == state["raw_obs"]["target"]
    info = env.get_perfect_information()
    assert info["hand_cards"][player] == state["raw_obs"]["hand"]
    env.step(list(state["legal_actions"])[0])
    env.step_back()
    assert env.game.round.current_player == player
    assert env.get_state(player)["raw_obs"]["hand"] == state["raw_obs"]["hand"]
