"""train_distill.py on synthetic teacher data: it reads the teacher_data layout and learns which
move the teacher's estimates favour (a rule hidden in one observation entry)."""

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import train_distill  # noqa: E402
from netlib import QNet  # noqa: E402


def write_teacher(d: Path, n=1500, obs_size=283, seed=0):
    rng = np.random.default_rng(seed)
    obs = rng.integers(0, 3, (n, obs_size)).astype(np.uint8)
    # Two moves a decision: action 3 wins when entry 5 is 2, else action 7 does.
    action = np.tile(np.array([3, 7], np.uint8), n)
    good = obs[:, 5] == 2
    share = np.stack([np.where(good, 0.8, 0.3), np.where(good, 0.3, 0.8)], axis=1).reshape(-1).astype(np.float32)
    arrays = dict(
        obs=obs,
        offsets=(np.arange(n + 1) * 2).astype(np.uint32),
        action=action,
        share=share,
        worlds=np.full(n, 200, np.uint32),
        played=np.where(good, 3, 7).astype(np.uint8),
        result=np.ones(n, np.int8),
        game=(np.arange(n) // 10).astype(np.uint32),
    )
    d.mkdir()
    for name, a in arrays.items():
        np.save(d / f"{name}.npy", a)
    return obs, good


def test_the_distilled_network_prefers_the_teachers_better_move(tmp_path):
    obs, good = write_teacher(tmp_path / "teacher")
    summary = train_distill.main([
        "--data", str(tmp_path / "teacher"), "--out", str(tmp_path / "net"), "--seed", "3", "--epochs", "40",
        "--batch", "128", "--hidden", "32,32", "--eval-every", "500", "--val-every", "10",
    ])
    assert summary["final"] and (tmp_path / "net" / "model.safetensors").exists()
    log = [json.loads(line) for line in open(tmp_path / "net" / "log.jsonl")]
    assert log[-1]["final"]
    net = QNet.load(tmp_path / "net" / "model.safetensors")
    mask = np.zeros((len(obs), 88), np.int8)
    mask[:, [3, 7]] = 1
    picks = np.argmax(net.q_all(obs.astype(np.float32), mask), axis=1)
    agree = np.mean(picks == np.where(good, 3, 7))
    assert agree > 0.95, agree
