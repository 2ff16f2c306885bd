"""Writes the inference fixture of `crates/uno-nn/tests/model.rs`: a tiny random network, an
observation, a set of actions and the Q values this numpy code gives them (and the best one).

    python training/make_fixture.py crates/uno-nn/tests/fixtures
"""

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from netlib import QNet  # noqa: E402

OBS_SIZE, NUM_ACTIONS = 283, 88


def main(out):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20261127)
    net = QNet(OBS_SIZE, NUM_ACTIONS, hidden=(16, 8), seed=5, input_scale=rng.random(OBS_SIZE).astype(np.float32))
    for w in net.mlp.w:
        w[...] = rng.standard_normal(w.shape).astype(np.float32) * 0.3
    for b in net.mlp.b:
        b[...] = rng.standard_normal(b.shape).astype(np.float32) * 0.1
    net.save(out / "tiny.safetensors", {"note": "inference fixture"})
    obs = rng.integers(0, 3, OBS_SIZE).astype(np.float32)
    actions = np.array([0, 7, 13, 52, 59, 60, 61, 62, 87])
    q = net.q(np.repeat(obs[None], len(actions), axis=0), actions)
    mask = np.zeros((1, NUM_ACTIONS), np.int8)
    mask[0, actions] = 1
    best = int(np.argmax(net.q_all(obs[None], mask)[0]))
    (out / "tiny.json").write_text(json.dumps(
        {"obs": obs.tolist(), "actions": actions.tolist(), "q": [float(v) for v in q], "best": best}))


if __name__ == "__main__":
    main(sys.argv[1])
