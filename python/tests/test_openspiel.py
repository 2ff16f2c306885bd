"""The OpenSpiel game passes OpenSpiel's own random simulation test."""

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")

import tabletop.openspiel  # noqa: E402,F401  (registers python_tabletop_uno)


@pytest.mark.parametrize(
    "params",
    [{}, {"players": 4, "rules": "cs410"}, {"players": 3, "rules": "two-color", "seed": 9}],
)
def test_random_sim_test(params):
    game = pyspiel.load_game("python_tabletop_uno", params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_a_state_replays_from_its_history():
    game = pyspiel.load_game("python_tabletop_uno")
    state = game.new_initial_state()
    state.apply_action(17)  # the chance move: deal 17
    for _ in range(20):
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[0])
    again = game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    assert again.game.state_hash() == state.game.state_hash()
    assert state.observation_tensor(state.current_player()) == again.observation_tensor(again.current_player())
