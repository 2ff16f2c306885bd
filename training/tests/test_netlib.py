"""The numpy network: gradients match finite differences, the fast all-actions path matches the
per-pair path, and the safetensors file round-trips."""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from netlib import QNet, load_safetensors, save_safetensors  # noqa: E402


def small_net():
    rng = np.random.default_rng(3)
    net = QNet(7, 88, hidden=(5, 4), seed=1, input_scale=rng.random(7).astype(np.float32) + 0.5)
    for w in net.mlp.w:
        w[...] = rng.standard_normal(w.shape).astype(np.float32)
    return net


def test_backward_matches_finite_differences():
    net = small_net()
    rng = np.random.default_rng(5)
    obs = rng.random((6, 7)).astype(np.float32)
    act = rng.integers(0, 88, 6)
    target = rng.standard_normal(6).astype(np.float32)
    x = net.inputs(obs, act).astype(np.float64)
    net.mlp.w = [w.astype(np.float64) for w in net.mlp.w]
    net.mlp.b = [b.astype(np.float64) for b in net.mlp.b]

    def loss():
        q = net.mlp.forward(x)
        return float(((q - target) ** 2).mean())

    q, acts = net.mlp.forward(x, keep=True)
    grads = net.mlp.backward(acts, 2 * (q - target) / len(q))
    for param, grad in zip(net.mlp.params, grads):
        for idx in list(np.ndindex(param.shape))[:12]:
            old = param[idx]
            param[idx] = old + 1e-6
            up = loss()
            param[idx] = old - 1e-6
            down = loss()
            param[idx] = old
            assert abs((up - down) / 2e-6 - grad[idx]) < 1e-5 * max(1.0, abs(grad[idx]))


def test_q_all_matches_pairwise_q():
    net = small_net()
    rng = np.random.default_rng(7)
    obs = rng.random((4, 7)).astype(np.float32)
    mask = (rng.random((4, 88)) < 0.1).astype(np.int8)
    mask[:, 0] = 1
    table = net.q_all(obs, mask)
    rows, cols = np.nonzero(mask)
    np.testing.assert_allclose(table[rows, cols], net.q(obs[rows], cols), rtol=1e-5, atol=1e-5)
    assert np.isneginf(table[mask == 0]).all()


def test_safetensors_round_trip(tmp_path):
    net = small_net()
    path = tmp_path / "m.safetensors"
    net.save(path, {"seed": 9})
    again = QNet.load(path)
    obs = np.random.default_rng(1).random((3, 7)).astype(np.float32)
    act = np.array([0, 5, 87])
    np.testing.assert_array_equal(net.q(obs, act), again.q(obs, act))
    tensors, meta = load_safetensors(path)
    assert meta["seed"] == "9" and tensors["layers.0.weight"].shape == (5, 7 + 88 + 19)
    raw = path.read_bytes()
    header_len = int.from_bytes(raw[:8], "little")
    assert (8 + header_len) % 8 == 0 and raw[8:9] == b"{"
    save_safetensors(tmp_path / "x.safetensors", {"a": np.arange(3, dtype=np.float32)}, {})
    assert load_safetensors(tmp_path / "x.safetensors")[0]["a"].tolist() == [0.0, 1.0, 2.0]
