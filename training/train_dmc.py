"""Deep Monte-Carlo training of the UNO Q network (DouZero's recipe), numpy only.

    python training/train_dmc.py --out runs/dmc --updates 20000 --seed 1

drives the project's batched Rust environment (``tabletop._core.UnoVecEnv``): the learner plays
every seat against three ``heuristic`` bots, and itself (every seat learning) or an earlier
checkpoint (one seat learning). Each (observation, action) a learning seat takes is a sample whose
target is the round's reward for that seat (+1 win, -1 loss; 0 if cut off); the network
regresses Q(s, a) on it (mean squared error, Adam). Acting is epsilon-greedy on Q.

Every ``--checkpoint-every`` updates the network is saved (``ckpt-N.safetensors``) and joins
the opponent pool; every ``--eval-every`` updates it plays greedily against three bots of each
kind in ``--eval-against`` (``heuristic`` and ``random``) on deals of a seed never used in
training, each seat in turn, and the win shares are printed and logged to ``log.jsonl``. The end result is ``model.safetensors``.

Deterministic for a given seed and ``--updates`` (single-threaded numpy: OMP_NUM_THREADS=1 is set
here); ``--minutes`` stops earlier by the clock.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from netlib import Adam, QNet  # noqa: E402

from tabletop._core import NUM_ACTIONS, OBS_SIZE, UnoVecEnv  # noqa: E402

# The evaluation deals: a seed the training never uses (training seeds are derived from --seed).
EVAL_SEED = 0x5EED_E7A1
PLAYERS = 4
# Engine actions after which a training round is cut off (reward 0): rounds where nobody calls
# UNO can go on for long while the network is young.
MAX_ACTIONS = 1500


class Replay:
    """A ring of the latest samples: observation (float16 holds the small counts exactly),
    action index, return."""

    def __init__(self, capacity):
        self.obs = np.zeros((capacity, OBS_SIZE), np.float16)
        self.act = np.zeros(capacity, np.int16)
        self.ret = np.zeros(capacity, np.float32)
        self.capacity, self.size, self.next, self.added = capacity, 0, 0, 0

    def add(self, obs, act, ret):
        n = len(act)
        idx = (self.next + np.arange(n)) % self.capacity
        self.obs[idx] = np.asarray(obs)
        self.act[idx] = act
        self.ret[idx] = ret
        self.next = (self.next + n) % self.capacity
        self.size = min(self.size + n, self.capacity)
        self.added += n

    def sample(self, rng, n):
        idx = rng.integers(0, self.size, n)
        return self.obs[idx].astype(np.float32), self.act[idx].astype(np.int64), self.ret[idx]


def greedy(net, obs, mask):
    return np.argmax(net.q_all(obs, mask), axis=1)


class Actor:
    """One batch of environments. `learners` are the seats Python decides for; in each episode
    `train_seats[i]` are the seats whose samples are kept and `frozen[i]` the pool network that
    plays the other learner seats (None: the current network plays every seat)."""

    def __init__(self, envs, seed, learner_seats, opponents, rng, pool_share=0.0):
        self.env = UnoVecEnv(
            envs, rules="official", players=PLAYERS, learner_seats=learner_seats, opponents=opponents,
            seed=seed, auto_reset=True, num_threads=1, max_actions=MAX_ACTIONS,
        )
        self.env.reset()
        self.n = envs
        self.learners = learner_seats
        self.rng = rng
        self.pool_share = pool_share
        self.traces = [[[] for _ in range(PLAYERS)] for _ in range(envs)]
        self.train_seats = [set(learner_seats) for _ in range(envs)]
        self.frozen = [None] * envs

    def new_episode(self, i, pool):
        self.traces[i] = [[] for _ in range(PLAYERS)]
        if len(self.learners) > 1 and pool and self.rng.random() < self.pool_share:
            self.frozen[i] = int(self.rng.integers(len(pool)))
            self.train_seats[i] = {int(self.rng.integers(PLAYERS))}
        else:
            self.frozen[i] = None
            self.train_seats[i] = set(self.learners)

    def step(self, net, pool, epsilon, replay):
        obs = self.env.obs.copy()
        mask = self.env.mask
        seats = self.env.seat.copy()
        actions = np.zeros(self.n, np.int64)
        current = np.array([s in self.train_seats[i] or self.frozen[i] is None for i, s in enumerate(seats)])
        if current.any():
            actions[current] = greedy(net, obs[current], mask[current])
        for j in set(f for f in self.frozen if f is not None):
            rows = np.array([not current[i] and self.frozen[i] == j for i in range(self.n)])
            if rows.any():
                actions[rows] = greedy(pool[j], obs[rows], mask[rows])
        explore = current & (self.rng.random(self.n) < epsilon)
        for i in np.nonzero(explore)[0]:
            legal = np.nonzero(mask[i])[0]
            actions[i] = legal[self.rng.integers(len(legal))]
        for i in range(self.n):
            s = int(seats[i])
            if s in self.train_seats[i]:
                self.traces[i][s].append((obs[i], int(actions[i])))
        self.env.step(actions)
        ended = np.nonzero(self.env.terminated | self.env.truncated)[0]
        rewards = self.env.rewards
        games = 0
        for i in ended:
            for s in range(PLAYERS):
                trace = self.traces[i][s]
                if trace:
                    replay.add([t[0] for t in trace], [t[1] for t in trace], [float(rewards[i, s])] * len(trace))
            games += 1
            self.new_episode(i, pool)
        return games


def evaluate(net, opponent, envs_per_seat):
    """Greedy win share of `net` at each seat in turn against three `opponent` bots, one
    round per environment, on the evaluation deals: (wins, games)."""
    wins = games = 0
    for seat in range(PLAYERS):
        env = UnoVecEnv(
            envs_per_seat, rules="official", players=PLAYERS, learner_seats=[seat], opponents=[opponent],
            seed=EVAL_SEED + seat, auto_reset=True, num_threads=1,
        )
        env.reset()
        done = np.zeros(envs_per_seat, bool)
        while not done.all():
            actions = greedy(net, env.obs, env.mask)
            env.step(actions)
            ended = (env.terminated | env.truncated) & ~done
            wins += int((env.rewards[ended, seat] > 0).sum())
            games += int(ended.sum())
            done |= ended
    return wins, games


def interval(wins, games):
    p = wins / games
    half = 1.96 * math.sqrt(p * (1 - p) / games)
    return p, p - half, p + half


def measure_scale(seed, how="max"):
    """1 / the largest value each observation entry takes over a few thousand random-play
    decisions (at least 1): brings hand sizes, pile sizes and counts near 0..1 (``max``), or
    1 / its square root (``sqrt``), which keeps small counts (one or two cards left) apart."""
    env = UnoVecEnv(64, rules="official", players=PLAYERS, learner_seats=[0, 1, 2, 3], seed=seed ^ 0xABCD,
                    auto_reset=True, num_threads=1)
    env.reset()
    rng = np.random.default_rng(seed)
    top = np.ones(OBS_SIZE, np.float32)
    for _ in range(300):
        top = np.maximum(top, env.obs.max(axis=0))
        logits = rng.random(env.mask.shape) * env.mask - (env.mask == 0)
        env.step(np.argmax(logits, axis=1))
    return (1.0 / (np.sqrt(top) if how == "sqrt" else top)).astype(np.float32)


class Progress:
    """A progress bar on standard error, redrawn in place on a terminal (at most 5 times a
    second) and written as a line every 30 seconds elsewhere (logs, CI)."""

    def __init__(self, total_updates, minutes):
        self.total, self.minutes, self.start = total_updates, minutes, time.time()
        self.tty = sys.stderr.isatty()
        self.last = 0.0

    def show(self, updates, text):
        now = time.time()
        if now - self.last < (0.2 if self.tty else 30):
            return
        self.last = now
        elapsed = now - self.start
        frac = updates / self.total if self.total else elapsed / (60 * self.minutes)
        frac = min(max(frac, 0.0), 1.0)
        bar = "#" * int(30 * frac) + "." * (30 - int(30 * frac))
        line = f"[{bar}] {100 * frac:5.1f}% {elapsed / 60:5.1f} min  {text}"
        sys.stderr.write(f"\r{line}   " if self.tty else line + "\n")
        sys.stderr.flush()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="directory for checkpoints, log.jsonl and model.safetensors")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--updates", type=int, default=0, help="stop after this many updates (0: by --minutes)")
    p.add_argument("--minutes", type=float, default=60.0, help="stop after this much wall time")
    p.add_argument("--envs", type=int, default=64, help="environments per actor batch (five batches)")
    p.add_argument("--hidden", default="256,256,128")
    p.add_argument("--opponent", default="heuristic", help="the bots the learner meets at each seat in turn")
    p.add_argument("--scale", choices=["max", "sqrt"], default="max", help="how observations are scaled")
    p.add_argument("--batch", type=int, default=1024)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--reuse", type=float, default=2.0, help="times each sample is drawn, on average")
    p.add_argument("--replay", type=int, default=200_000)
    p.add_argument("--epsilon", type=float, default=0.2, help="exploration at the start, down to 0.01")
    p.add_argument("--decay", type=int, default=20_000, help="updates over which exploration falls to 0.01")
    p.add_argument("--checkpoint-every", type=int, default=2000, help="updates between checkpoints")
    p.add_argument("--eval-every", type=int, default=2000, help="updates between evaluations")
    p.add_argument("--eval-envs", type=int, default=250, help="evaluation rounds per seat")
    p.add_argument("--eval-against", default="heuristic,random", help="the bots each evaluation meets (three of each)")
    p.add_argument("--pool", type=int, default=5, help="checkpoints kept as opponents")
    args = p.parse_args(argv)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    hidden = tuple(int(h) for h in args.hidden.split(","))
    scale = measure_scale(args.seed, args.scale)
    net = QNet(OBS_SIZE, NUM_ACTIONS, hidden=hidden, seed=args.seed, input_scale=scale)
    opt = Adam(net.mlp.params, lr=args.lr)
    replay = Replay(args.replay)
    base = args.seed * 1_000_003
    actors = [Actor(args.envs, base + k, [k], [args.opponent], rng) for k in range(PLAYERS)]
    actors.append(Actor(args.envs, base + 7, list(range(PLAYERS)), ["heuristic"], rng, pool_share=0.5))
    pool = []
    log = open(out / "log.jsonl", "a")
    meta = dict(seed=args.seed, hidden=args.hidden, batch=args.batch, lr=args.lr, envs=args.envs, scale=args.scale, opponent=args.opponent,
                reuse=args.reuse, epsilon=args.epsilon, decay=args.decay, rules="official", players=PLAYERS)
    progress = Progress(args.updates, args.minutes)
    start = time.time()
    updates = games = samples_seen = 0
    credit = 0.0
    loss_avg = float("nan")

    def run_eval():
        record = dict(updates=updates, games=games, minutes=round((time.time() - start) / 60, 2), loss=loss_avg)
        for name in args.eval_against.split(","):
            w, n = evaluate(net, name, args.eval_envs)
            record["vs_" + name] = list(interval(w, n)) + [n]
        log.write(json.dumps(record) + "\n")
        log.flush()
        return record

    while True:
        if args.updates and updates >= args.updates:
            break
        if not args.updates and time.time() - start > 60 * args.minutes:
            break
        frac = min(1.0, updates / args.decay)
        epsilon = args.epsilon * (1 - frac) + 0.01 * frac
        added_before = replay.added
        for actor in actors:
            games += actor.step(net, pool, epsilon, replay)
        added = replay.added - added_before
        samples_seen += added
        credit += added * args.reuse / args.batch
        while credit >= 1 and replay.size >= args.batch:
            credit -= 1
            obs, act, ret = replay.sample(rng, args.batch)
            q, acts = net.mlp.forward(net.inputs(obs, act), keep=True)
            err = q - ret
            loss = float((err * err).mean())
            loss_avg = loss if math.isnan(loss_avg) else 0.99 * loss_avg + 0.01 * loss
            grads = net.mlp.backward(acts, 2 * err / len(err))
            opt.step(net.mlp.params, grads)
            updates += 1
            if updates % args.checkpoint_every == 0:
                path = out / f"ckpt-{updates:07d}.safetensors"
                net.save(path, dict(meta, updates=updates, games=games))
                pool.append(net.copy())
                pool[:] = pool[-args.pool :]
            if updates % args.eval_every == 0:
                r = run_eval()
                shares = " ".join(f"{k[3:]} {100 * v[0]:.1f}%" for k, v in r.items() if k.startswith("vs_"))
                sys.stderr.write(f"\neval@{updates}: {shares}\n")
            if args.updates and updates >= args.updates:
                break
        progress.show(updates, f"updates {updates} games {games} samples {samples_seen} loss {loss_avg:.4f}")

    r = run_eval()
    minutes = (time.time() - start) / 60
    net.save(out / "model.safetensors", dict(meta, updates=updates, games=games, minutes=round(minutes, 1)))
    summary = dict(r, final=True, minutes=round(minutes, 2), samples=samples_seen)
    sys.stderr.write("\n")
    print(json.dumps(summary))
    log.write(json.dumps(summary) + "\n")
    log.close()
    return summary


if __name__ == "__main__":
    main()
