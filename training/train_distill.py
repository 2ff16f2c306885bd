"""Distils the ``flat`` search into the Q network, numpy only (``docs/model.md``).

    python training/train_distill.py --data runs/teacher --out runs/distill --seed 1 --epochs 8

reads teacher data written by ``cargo run --release -p uno-lab --example teacher_data`` (for each
decision a ``flat`` bot searched: the seat's observation, every move it compared, the share of its
dealt worlds each move won and how many worlds) and regresses ``Q(s, a)`` of every compared move on
``flat``'s estimate, scaled as the Deep Monte-Carlo target is (``2 * share - 1``: +1 a sure win, -1
a sure loss), weighted by the number of worlds behind it (mean squared error, Adam). The network and
the file are ``netlib``'s, so the Rust ``net`` bot plays the result unchanged.

The games whose number is ``g % --val-every == 0`` are held out; every ``--eval-every`` updates the
network is measured on them (loss; how often its best move is ``flat``'s best; the mean share of
worlds lost against ``flat``'s best by playing the network's: its regret) and saved as a
checkpoint. The one with the least regret is ``model.safetensors``.

Deterministic for given data, seed and ``--epochs`` (single-threaded numpy); ``--minutes`` stops
earlier by the clock.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from netlib import Adam, QNet  # noqa: E402

# The action space and observation size of `uno_nn` (docs/python.md); the data states the latter.
NUM_ACTIONS = 88


class Teacher:
    """The decisions of one or more ``teacher_data`` directories, concatenated."""

    def __init__(self, dirs):
        parts = [self._load(Path(d)) for d in dirs]
        self.obs = np.concatenate([p["obs"] for p in parts])
        offsets, base = [], 0
        for p in parts:
            offsets.append(p["offsets"][:-1].astype(np.int64) + base)
            base += len(p["action"])
        self.offsets = np.concatenate(offsets + [np.array([base])])
        self.action = np.concatenate([p["action"] for p in parts]).astype(np.int64)
        self.share = np.concatenate([p["share"] for p in parts])
        self.worlds = np.concatenate([p["worlds"] for p in parts]).astype(np.float32)
        self.result = np.concatenate([p["result"] for p in parts])
        self.game = np.concatenate([p["game"] + 10_000_000 * k for k, p in enumerate(parts)])
        counts = np.diff(self.offsets)
        self.decision = np.repeat(np.arange(len(counts)), counts)  # each move's decision
        # The table sizes the data was played at (each directory's meta.json; four before it said):
        # the model's file records them, and the `net` bot trusts its values only at those.
        self.seats = sorted({s for d in dirs for s in self._seats(Path(d))})

    @staticmethod
    def _seats(d):
        meta = d / "meta.json"
        if not meta.exists():
            return [4]
        return [int(json.loads(meta.read_text()).get("seats", 4))]

    @staticmethod
    def _load(d):
        names = ("obs", "offsets", "action", "share", "worlds", "result", "game")
        return {n: np.load(d / f"{n}.npy") for n in names}

    def __len__(self):
        return len(self.worlds)


def inputs(net, obs_u8, actions):
    return np.concatenate([obs_u8.astype(np.float32) * net.scale, net.feats[actions]], axis=1)


def measure(net, data, decisions, chunk=4096):
    """Loss, agreement with flat's best move, regret, and how often flat's best move is among
    the network's best 2 and 3 (what `flat+net`'s pruning keeps) on `decisions`."""
    loss = weight = agree = regret = top2 = top3 = 0.0
    for start in range(0, len(decisions), chunk):
        dec = decisions[start : start + chunk]
        lo, hi = data.offsets[dec], data.offsets[dec + 1]
        moves = np.concatenate([np.arange(a, b) for a, b in zip(lo, hi)])
        owner = np.repeat(np.arange(len(dec)), hi - lo)
        q = net.mlp.forward(inputs(net, data.obs[dec[owner]], data.action[moves]))
        y = 2 * data.share[moves] - 1
        w = data.worlds[dec[owner]]
        loss += float((w * (q - y) ** 2).sum())
        weight += float(w.sum())
        for i in range(len(dec)):
            sel = owner == i
            s, qi = data.share[moves[sel]], q[sel]
            best = s.max()
            pick = s[int(np.argmax(qi))]
            agree += float(pick == best)
            regret += float(best - pick)
            order = np.argsort(-qi, kind="stable")
            top2 += float(s[order[:2]].max() == best)
            top3 += float(s[order[:3]].max() == best)
    n = max(len(decisions), 1)
    return dict(loss=loss / max(weight, 1.0), agree=agree / n, regret=regret / n, top2=top2 / n, top3=top3 / n)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", required=True, nargs="+", help="teacher_data output directories")
    p.add_argument("--out", required=True, help="directory for checkpoints, log.jsonl and model.safetensors")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--epochs", type=float, default=8.0, help="passes over the training moves")
    p.add_argument("--minutes", type=float, default=0.0, help="also stop after this much wall time (0: never)")
    p.add_argument("--hidden", default="256,256,128")
    p.add_argument("--batch", type=int, default=1024, help="moves per update")
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--lr-end", type=float, default=1e-4, help="the learning rate falls linearly to this")
    p.add_argument("--val-every", type=int, default=20, help="games g with g % this == 0 are held out")
    p.add_argument("--eval-every", type=int, default=5000, help="updates between measures and checkpoints")
    p.add_argument("--init", help="a model file to start from (else a fresh network)")
    args = p.parse_args(argv)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    data = Teacher(args.data)
    obs_size = data.obs.shape[1]
    val_games = data.game % args.val_every == 0
    val = np.nonzero(val_games)[0]
    train_moves = np.nonzero(~val_games[data.decision])[0]
    # 1 / the largest value each entry takes in the data (at least 1), as the DMC trainer scales.
    scale = (1.0 / np.maximum(data.obs.max(axis=0).astype(np.float32), 1.0)).astype(np.float32)
    hidden = tuple(int(h) for h in args.hidden.split(","))
    if args.init:
        net = QNet.load(args.init)
    else:
        net = QNet(obs_size, NUM_ACTIONS, hidden=hidden, seed=args.seed, input_scale=scale)
    opt = Adam(net.mlp.params, lr=args.lr)
    rng = np.random.default_rng(args.seed)
    total = int(args.epochs * len(train_moves) / args.batch)
    mean_worlds = float(data.worlds.mean())
    meta = dict(seed=args.seed, hidden=args.hidden, batch=args.batch, lr=args.lr, epochs=args.epochs,
                decisions=len(data), moves=len(data.action), trainer="distill",
                data=",".join(Path(d).name for d in args.data), seats=",".join(map(str, data.seats)))
    sys.stderr.write(f"{len(data)} decisions ({len(val)} held out), {len(data.action)} moves, "
                     f"{total} updates planned, loaded in {time.time() - t0:.0f} s\n")
    log = open(out / "log.jsonl", "a")
    best = (np.inf, None)
    loss_avg = float("nan")
    updates = 0
    start = time.time()
    last_line = 0.0

    def checkpoint():
        nonlocal best
        m = measure(net, data, val)
        record = dict(updates=updates, minutes=round((time.time() - start) / 60, 2), train_loss=loss_avg,
                      **{"val_" + k: round(v, 5) for k, v in m.items()})
        log.write(json.dumps(record) + "\n")
        log.flush()
        path = out / f"ckpt-{updates:07d}.safetensors"
        net.save(path, dict(meta, updates=updates))
        if m["regret"] < best[0]:
            best = (m["regret"], path)
        sys.stderr.write(f"\n{json.dumps(record)}\n")

    while updates < total:
        if args.minutes and time.time() - start > 60 * args.minutes:
            break
        idx = train_moves[rng.integers(0, len(train_moves), args.batch)]
        dec = data.decision[idx]
        x = inputs(net, data.obs[dec], data.action[idx])
        y = 2 * data.share[idx] - 1
        w = data.worlds[dec] / mean_worlds
        q, acts = net.mlp.forward(x, keep=True)
        err = q - y
        loss = float((w * err * err).mean())
        loss_avg = loss if np.isnan(loss_avg) else 0.99 * loss_avg + 0.01 * loss
        grads = net.mlp.backward(acts, 2 * w * err / len(err))
        opt.lr = args.lr + (args.lr_end - args.lr) * updates / max(total, 1)
        opt.step(net.mlp.params, grads)
        updates += 1
        if updates % args.eval_every == 0:
            checkpoint()
        now = time.time()
        if now - last_line > (0.5 if sys.stderr.isatty() else 30):
            last_line = now
            frac = updates / max(total, 1)
            bar = "#" * int(30 * frac) + "." * (30 - int(30 * frac))
            line = f"[{bar}] {100 * frac:5.1f}% {(now - start) / 60:5.1f} min  updates {updates} loss {loss_avg:.4f}"
            sys.stderr.write(f"\r{line}   " if sys.stderr.isatty() else line + "\n")
    if updates % args.eval_every != 0:
        checkpoint()
    shutil.copyfile(best[1], out / "model.safetensors")
    summary = dict(final=True, updates=updates, minutes=round((time.time() - start) / 60, 2),
                   model=best[1].name, val_regret=round(best[0], 5))
    log.write(json.dumps(summary) + "\n")
    log.close()
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
