"""The OpenSpiel game passes OpenSpiel's own random simulation test."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")

import tabletop.openspiel  # noqa: E402,F401  (registers python_tabletop_uno)
from tabletop.uno import ACTION_NAMES  # noqa: E402


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"players": 4, "rules": "cs410"},
        {"players": 3, "rules": "two-color", "seed": 9},
        {"players": 3, "rules": "uno-engine", "max_actions": 300},
        {"players": 2, "rules": "csce322", "max_actions": 300},
    ],
)
def test_random_sim_test(params):
    game = pyspiel.load_game("python_tabletop_uno", params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def _play(state, rng, chance=None, steps=60):
    """Plays on: chance outcomes sampled by their probabilities (or chosen by ``chance``),
    players uniformly among their legal actions."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            pick = chance(state) if chance else None
            state.apply_action(pick if pick is not None else int(rng.choice(outcomes, p=probs)))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


def test_a_state_replays_from_its_history(rng):
    game = pyspiel.load_game("python_tabletop_uno")
    state = _play(game.new_initial_state(), rng, steps=120)
    again = game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    assert again.game.state_hash() == state.game.state_hash()
    player = state.current_player() if not state.is_terminal() else 0
    assert state.observation_tensor(player) == again.observation_tensor(player)
    assert state.information_state_string(player) == again.information_state_string(player)


def test_every_dealt_card_is_a_chance_outcome_over_the_cards_left():
    game = pyspiel.load_game("python_tabletop_uno", {"players": 2})
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    # The first card dealt could be any kind of the deck, weighted by its copies.
    assert len(outcomes) == 54
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    probs = dict(outcomes)
    assert probs[0] * 108 == pytest.approx(1.0)  # one red 0 in 108 cards
    assert probs[1] * 108 == pytest.approx(2.0)  # two red 1s
    assert probs[53] * 108 == pytest.approx(4.0)  # four Wild Draw Fours
    state.apply_action(53)
    assert dict(state.chance_outcomes())[53] * 107 == pytest.approx(3.0)
    dealt = 1
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
        dealt += 1
    assert dealt >= 15  # 7 cards each and the start card (more when one is sent back)


def _dealt(params, seat0, seat1, rest):
    """A state dealt with ``seat0``'s and ``seat1``'s hands (card indices, round by round) and
    then ``rest`` for the start card and beyond."""
    game = pyspiel.load_game("python_tabletop_uno", params)
    state = game.new_initial_state()
    order = [c for pair in zip(seat0, seat1) for c in pair] + rest
    for card in order:
        if not state.is_chance_node():
            break
        assert card in dict(state.chance_outcomes()), card
        state.apply_action(card)
    return state


def test_games_that_differ_only_in_hidden_cards_give_equal_information_states(rng):
    """Two deals that differ only in seat 1's hand look the same to seat 0, through the deal and
    through draws of the same cards, while seat 1 tells them apart."""
    params = {"players": 2, "seed": 3}
    seat0 = [0, 1, 2, 3, 4, 5, 6]  # red 0-6
    start = [13 + 9]  # yellow 9 (a plain number: no first-card effect)
    a = _dealt(params, seat0, [26, 27, 28, 29, 30, 31, 32], start)  # green 0-6
    b = _dealt(params, seat0, [39, 40, 41, 42, 43, 44, 45], start)  # blue 0-6
    assert not a.is_chance_node() and not b.is_chance_node()
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    # Both draw the same cards whenever a draw comes: a few turns of drawing only.
    for _ in range(6):
        if a.is_terminal():
            break
        draw = ACTION_NAMES.index("draw")
        player = a.current_player()
        assert player == b.current_player()
        if draw in a.legal_actions() and draw in b.legal_actions():
            a.apply_action(draw)
            b.apply_action(draw)
        else:
            break
        while a.is_chance_node():
            card = next(c for c, _ in a.chance_outcomes() if c in dict(b.chance_outcomes()))
            a.apply_action(card)
            b.apply_action(card)
        # A pass after a draw where the rules leave the drawn card to decide on.
        while not a.is_terminal() and not a.is_chance_node() and ACTION_NAMES.index("pass") in a.legal_actions():
            a.apply_action(ACTION_NAMES.index("pass"))
            b.apply_action(ACTION_NAMES.index("pass"))
        assert a.information_state_string(0) == b.information_state_string(0)
        assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)


def test_the_information_state_has_perfect_recall(rng):
    """The observation forgets (the hand now), the information state does not: two states with
    the same observation but different pasts have different information states."""
    game = pyspiel.load_game("python_tabletop_uno")
    state = _play(game.new_initial_state(), rng, steps=80)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    player = 0
    text = state.information_state_string(player)
    history = [state.action_to_string(pa.player, pa.action) for pa in state.full_history()]
    assert text.count(" | ") >= 10
    # Every player action is in it, in order; no chance outcome is.
    public = [t for t in history if not t.startswith("card ")]
    assert [part.split(" hand=")[0].split(" ", 1)[1] for part in text.split(" | ")[1:]] == public


def _uniform_round(state, rng):
    """Plays a round to its end: chance by its probabilities, players uniformly among their
    legal actions (as random_sim_test does); returns the number of player actions."""
    actions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            actions += 1
    return actions


def test_the_default_action_cap_lets_uniformly_random_official_rounds_end():
    """Without the stall bound, uniformly random official rounds run long (hands grow for
    hundreds of actions); the default cap of player actions lets them end by a win, not by the
    cap. (The cap of 2,000 it replaced cuts the fourth of these rounds, 2,436 actions long.)"""
    rng = np.random.default_rng(2024)
    game = pyspiel.load_game("python_tabletop_uno", {"max_stall": 0})
    lengths = []
    for _ in range(6):
        state = game.new_initial_state()
        lengths.append(_uniform_round(state, rng))
        assert state.game.round_winner() is not None, lengths
    assert max(lengths) > 1000, lengths  # long rounds, which a small cap would cut


def test_the_stall_bound_ends_uniformly_random_rounds_early():
    """With the defaults, a round whose hands have not shrunk for ``max_stall`` engine actions
    ends worth 0 (as OpenSpiel's chess ends a game drawn by the fifty-move rule); any other
    round ends by a win."""
    rng = np.random.default_rng(7)
    game = pyspiel.load_game("python_tabletop_uno")
    cut = 0
    for _ in range(12):
        state = game.new_initial_state()
        _uniform_round(state, rng)
        if state.game.round_winner() is None:
            cut += 1
            assert state.game.stall >= 400 and state.returns() == [0.0, 0.0]
        else:
            assert sorted(state.returns()) == [-1.0, 1.0]
    assert 0 < cut < 12
