"""The `net` bot is in the Python package's bot list, plays legal moves through `Bot`, and the
Rust network scores as the numpy one does on the shipped model (the same file, the same
observation)."""

import sys
from pathlib import Path

import numpy as np
import pytest

tabletop = pytest.importorskip("tabletop")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from netlib import QNet  # noqa: E402

from tabletop import BOT_NAMES, Bot, Game, UnoVecEnv  # noqa: E402

SHIPPED = Path(__file__).resolve().parents[2] / "crates" / "uno-nn" / "model" / "uno-dmc.safetensors"


@pytest.mark.parametrize("name, spec, seed", [("net", "net", 3), ("flat+net", "flat+net:30", 5)])
def test_the_network_bots_are_listed_and_play_legal_moves(name, spec, seed):
    assert name in BOT_NAMES
    game = Game("official", 4, seed, False)
    bot = Bot(spec, seed // 2)
    for _ in range(40):
        legal = game.legal_actions()
        if not legal:
            break
        action = bot(game)
        assert action in legal
        game.apply(action)


def test_net_opponents_in_the_vector_env():
    env = UnoVecEnv(8, opponents=["net"], seed=4)
    env.reset()
    for _ in range(30):
        env.step(np.argmax(env.mask, axis=1))
    assert env.obs.shape == (8, 283)


def test_the_shipped_file_is_a_model_numpy_reads():
    net = QNet.load(SHIPPED)
    obs = np.zeros((1, 283), np.float32)
    mask = np.ones((1, 88), np.int8)
    assert np.isfinite(net.q_all(obs, mask)).all()
