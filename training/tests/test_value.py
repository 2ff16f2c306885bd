"""The value network's trainer: a file written by it reads back to the same network, its fixture
matches what the network computes, and training on records whose result a single input decides
learns that input."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from train_value import FORMAT, OBS_SIZE, ValueNet, read, sized  # noqa: E402
from netlib import load_safetensors  # noqa: E402


def test_a_saved_network_reads_back_the_same(tmp_path):
    net = ValueNet((6, 3), seed=2, input_scale=np.linspace(0.1, 1, OBS_SIZE).astype(np.float32))
    obs = np.random.default_rng(1).integers(0, 3, (4, OBS_SIZE)).astype(np.float32)
    net.save(tmp_path / "v.safetensors", {"note": "test"})
    back = ValueNet.load(tmp_path / "v.safetensors")
    np.testing.assert_array_equal(net.win(obs), back.win(obs))
    assert 0 < net.win(obs).min() and net.win(obs).max() < 1


def test_the_fixture_is_what_the_network_computes(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "train_value.py"), "--fixture", str(tmp_path)], check=True)
    net = ValueNet.load(tmp_path / "tiny-value.safetensors")
    expected = json.loads((tmp_path / "tiny-value.json").read_text())
    np.testing.assert_allclose(net.win(np.array(expected["obs"], np.float32)), expected["win"], atol=1e-6)
    committed = ROOT.parent / "crates/uno-nn/tests/fixtures/tiny-value.json"
    assert json.loads(committed.read_text()) == expected, "the committed fixture is the script's output"


def test_training_learns_an_input_that_decides_the_result(tmp_path):
    rng = np.random.default_rng(4)
    def records(n, path):
        obs = rng.integers(0, 3, (n, OBS_SIZE)).astype(np.uint8)
        won = (obs[:, 5] == 2).astype(np.uint8)
        np.concatenate([obs, won[:, None]], axis=1).tofile(path)
    records(8000, tmp_path / "train.bin")
    records(2000, tmp_path / "valid.bin")
    out = tmp_path / "v.safetensors"
    subprocess.run([sys.executable, str(ROOT / "train_value.py"), "--train", str(tmp_path / "train.bin"),
                    "--valid", str(tmp_path / "valid.bin"), "--out", str(out), "--epochs", "8", "--lr", "3e-3", "--decay", "0.9",
                    "--hidden", "16", "8", "--batch", "128"], check=True, capture_output=True)
    obs, won = read(tmp_path / "valid.bin")
    p = ValueNet.load(out).win(obs.astype(np.float32))
    accuracy = np.mean((p > 0.5) == (won == 1))
    assert accuracy > 0.95, accuracy
    assert FORMAT == "tabletop-uno-value-1"


def test_several_table_sizes_train_one_network_that_lists_them(tmp_path):
    rng = np.random.default_rng(5)

    def records(moments, seats, path):
        obs = rng.integers(0, 3, (moments * seats, OBS_SIZE)).astype(np.uint8)
        won = np.zeros(moments * seats, np.uint8)
        won[np.arange(moments) * seats + rng.integers(0, seats, moments)] = 1
        np.concatenate([obs, won[:, None]], axis=1).tofile(path)

    for seats in (2, 6):
        records(300, seats, tmp_path / f"train{seats}.bin")
        records(50, seats, tmp_path / f"valid{seats}.bin")
    out = tmp_path / "v.safetensors"
    run = subprocess.run([sys.executable, str(ROOT / "train_value.py"),
                          "--train", f"{tmp_path / 'train2.bin'}:2", f"{tmp_path / 'train6.bin'}:6",
                          "--valid", f"{tmp_path / 'valid2.bin'}:2", f"{tmp_path / 'valid6.bin'}:6",
                          "--out", str(out), "--epochs", "1", "--hidden", "8", "--batch", "64"],
                         check=True, capture_output=True, text=True)
    assert '"2 seats"' in run.stdout and '"6 seats"' in run.stdout, run.stdout
    _, meta = load_safetensors(out)
    assert meta["seats"] == "2,6"
    assert sized("a/b.bin:5") == (Path("a/b.bin"), 5) and sized("a/b.bin") == (Path("a/b.bin"), 4)
