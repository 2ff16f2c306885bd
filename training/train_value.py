"""The value network: V(observation of a seat) = the chance that seat wins the round, numpy only.

    cargo run --release -p uno-lab --example value_data -- runs/value-train.bin 30000 11
    cargo run --release -p uno-lab --example value_data -- runs/value-valid.bin 3000 12
    python training/train_value.py --train runs/value-train.bin --valid runs/value-valid.bin \\
        --out crates/uno-nn/model/uno-value.safetensors --epochs 6 --seed 1

Several table sizes train one network: ``value_data ... --players K`` writes a size's records,
and each ``--train``/``--valid`` file is named as ``PATH:K`` (``K`` its seats; 4 when left out),
so that the figures normalise each moment's ``K`` seats together; the file's ``seats`` entry
lists the sizes. ``docs/model.md`` has the command that made the shipped file.

The data are rounds of cheap bots (``heuristic`` mostly, ``random``, ``uniform``,
``precedence``) under the official rules (at four seats unless told otherwise), written by the Rust generator
``crates/uno-lab/examples/value_data.rs``: records of ``OBS_SIZE`` bytes (the observation of
one seat at a moment of the round) and one byte (1 if that seat won the round). The network is
an MLP over ``obs * input_scale`` ending in one logit; it is fitted by logistic loss (Adam) and
the file holds ``input_scale`` and ``layers.{k}.weight``/``.bias`` as the Q network's does,
with ``format = tabletop-uno-value-1``; the Rust side (``crates/uno-nn/src/value.rs``) applies
the sigmoid.

``python training/train_value.py --fixture DIR`` writes the inference fixture of
``crates/uno-nn/tests/value.rs`` instead.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from netlib import OBS_LAYOUT, Adam, Mlp, check_versions, load_safetensors, save_safetensors  # noqa: E402

OBS_SIZE = 283
# With --full, each record also holds the other seats' hands (54 counts each, by relative seat
# 1..3): what the lab sees, not the seat. Four seats only.
FULL_SIZE = OBS_SIZE + 3 * 54
FORMAT = "tabletop-uno-value-1"


class ValueNet:
    """The chance a seat wins, from its observation: sigmoid(MLP(obs * input_scale))."""

    def __init__(self, hidden=(128, 64), seed=0, input_scale=None, inputs=OBS_SIZE):
        rng = np.random.default_rng(seed)
        self.scale = np.ones(inputs, np.float32) if input_scale is None else input_scale.astype(np.float32)
        self.mlp = Mlp([inputs, *hidden, 1], rng)

    def logits(self, obs):
        return self.mlp.forward((obs * self.scale).astype(np.float32))

    def win(self, obs):
        return 1.0 / (1.0 + np.exp(-self.logits(obs)))

    def save(self, path, metadata=None):
        tensors = {"input_scale": self.scale, **self.mlp.layer_tensors()}
        meta = {"format": FORMAT, "obs_layout": OBS_LAYOUT, "obs_size": str(OBS_SIZE), "inputs": str(len(self.scale))}
        meta.update({k: str(v) for k, v in (metadata or {}).items()})
        save_safetensors(path, tensors, meta)

    @staticmethod
    def load(path):
        tensors, meta = load_safetensors(path)
        check_versions(path, meta, FORMAT)
        net = ValueNet.__new__(ValueNet)
        net.scale = tensors["input_scale"]
        net.mlp = Mlp.from_tensors(tensors)
        return net


def read(path, inputs=OBS_SIZE):
    raw = np.fromfile(path, np.uint8).reshape(-1, inputs + 1)
    return raw[:, :inputs], raw[:, inputs].astype(np.float32)


def sized(spec):
    """``PATH`` or ``PATH:SEATS``: the file and the seats of its tables (4 when left out)."""
    path, _, seats = str(spec).rpartition(":")
    if not path or not seats.isdigit():
        return Path(spec), 4
    return Path(path), int(seats)


def read_all(specs, inputs):
    """Every file's records, concatenated, and each file's (seats, records) in order."""
    parts = [(read(path, inputs), seats) for path, seats in map(sized, specs)]
    obs = np.concatenate([o for (o, _), _ in parts])
    won = np.concatenate([w for (_, w), _ in parts])
    return obs, won, [(seats, len(w)) for (_, w), seats in parts]


def figures(net, obs, won, players=4):
    """Log loss, Brier score, calibration by tenths, and the same after normalising the
    ``players`` seats of each moment to sum to one (records come a moment at a time, seat 0
    first)."""
    p = np.concatenate([net.win(obs[i : i + 65536].astype(np.float32)) for i in range(0, len(obs), 65536)])
    p = np.clip(p, 1e-6, 1 - 1e-6)
    out = {
        "records": int(len(won)),
        "log_loss": float(-np.mean(won * np.log(p) + (1 - won) * np.log(1 - p))),
        "brier": float(np.mean((p - won) ** 2)),
        "brier_constant": float(np.mean((won.mean() - won) ** 2)),
    }
    q = (p.reshape(-1, players) / p.reshape(-1, players).sum(axis=1, keepdims=True)).reshape(-1)
    out["brier_normalised"] = float(np.mean((q - won) ** 2))
    out["top_seat_wins"] = float(np.mean(np.argmax(p.reshape(-1, players), axis=1) == np.argmax(won.reshape(-1, players), axis=1)))
    bins = []
    for lo in np.arange(0, 1, 0.1):
        sel = (q >= lo) & (q < lo + 0.1)
        if sel.sum() >= 100:
            bins.append([round(float(lo), 1), int(sel.sum()), round(float(q[sel].mean()), 4), round(float(won[sel].mean()), 4)])
    out["calibration_normalised"] = bins
    return out


def train(args):
    t0 = time.time()
    rng = np.random.default_rng(args.seed)
    inputs = FULL_SIZE if args.full else OBS_SIZE
    obs, won, train_sizes = read_all(args.train, inputs)
    vobs, vwon, valid_sizes = read_all(args.valid, inputs)
    seats = sorted({k for k, _ in train_sizes})
    scale = (1.0 / np.maximum(1.0, obs.max(axis=0).astype(np.float32))).astype(np.float32)
    net = ValueNet(tuple(args.hidden), seed=args.seed, input_scale=scale, inputs=inputs)
    opt = Adam(net.mlp.params, lr=args.lr)
    n = len(won)
    print(f"{n} training records, {len(vwon)} validation records", flush=True)
    for epoch in range(args.epochs):
        order = rng.permutation(n)
        total = 0.0
        for i in range(0, n - args.batch + 1, args.batch):
            idx = order[i : i + args.batch]
            x = obs[idx].astype(np.float32) * net.scale
            y = won[idx]
            z, acts = net.mlp.forward(x, keep=True)
            p = 1.0 / (1.0 + np.exp(-z))
            total += float(-np.sum(y * np.log(p + 1e-7) + (1 - y) * np.log(1 - p + 1e-7)))
            opt.step(net.mlp.params, net.mlp.backward(acts, (p - y) / len(y)))
        opt.lr *= args.decay
        f = by_size(net, vobs, vwon, valid_sizes)[0][1]
        print(f"epoch {epoch + 1}: train log loss {total / n:.4f}  valid {f['log_loss']:.4f}  "
              f"brier {f['brier']:.4f} (normalised {f['brier_normalised']:.4f}, constant {f['brier_constant']:.4f})  "
              f"{time.time() - t0:.0f}s", flush=True)
    sizes = by_size(net, vobs, vwon, valid_sizes)
    meta = {"seed": args.seed, "epochs": args.epochs, "full": int(args.full), "hidden": ",".join(map(str, args.hidden)),
            "train_records": n, "wall_s": round(time.time() - t0), "seats": ",".join(map(str, seats))}
    net.save(args.out, meta)
    print(json.dumps({f"{k} seats": f for k, f in sizes}, indent=1))
    print(f"wrote {args.out} in {time.time() - t0:.0f}s")


def by_size(net, obs, won, sizes):
    """The figures of each validation file, with its seats, in order."""
    out, start = [], 0
    for seats, count in sizes:
        out.append((seats, figures(net, obs[start : start + count], won[start : start + count], seats)))
        start += count
    return out


def fixture(out):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20261128)
    net = ValueNet((16, 8), seed=3, input_scale=rng.random(OBS_SIZE).astype(np.float32))
    for w in net.mlp.w:
        w[...] = rng.standard_normal(w.shape).astype(np.float32) * 0.2
    for b in net.mlp.b:
        b[...] = rng.standard_normal(b.shape).astype(np.float32) * 0.1
    net.save(out / "tiny-value.safetensors", {"note": "inference fixture"})
    obs = rng.integers(0, 3, (3, OBS_SIZE)).astype(np.float32)
    (out / "tiny-value.json").write_text(json.dumps(
        {"obs": obs.tolist(), "win": [float(v) for v in net.win(obs)]}))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--train", nargs="+", help="training records (value_data's output), each PATH or PATH:SEATS")
    ap.add_argument("--valid", nargs="+", help="validation records, from other seeds, each PATH or PATH:SEATS")
    ap.add_argument("--out", default="uno-value.safetensors")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--decay", type=float, default=0.7, help="learning rate factor after each epoch")
    ap.add_argument("--hidden", type=int, nargs="+", default=[128, 64])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--full", action="store_true", help="records hold the other hands too (value_data ... full)")
    ap.add_argument("--fixture", metavar="DIR", help="write the Rust inference fixture to DIR and stop")
    args = ap.parse_args()
    if args.fixture:
        fixture(args.fixture)
    elif args.train and args.valid:
        train(args)
    else:
        ap.error("give --train and --valid, or --fixture")


if __name__ == "__main__":
    main()
