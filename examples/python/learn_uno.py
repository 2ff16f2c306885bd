"""A policy that learns UNO with numpy only: REINFORCE on a linear softmax policy.

The learner sits at seat 0 of a 4-seat table under the official rules, against three `random`
bots playing inside the Rust environment; it sees the observation vector and picks among the
legal actions (the mask). Every finished round pays +1 for a win and -1 otherwise, less a
little for each card still in hand (so that a beginner, which rarely wins, still learns which
moves shed cards); a round cut at MAX_ACTIONS counts as a loss. After
training, the sampled policy plays fresh seeds, and the script prints its win share with a 95%
Wilson interval next to the fair share of 25%.

    python examples/python/learn_uno.py --seconds 300
"""

import argparse
import math
import time

import numpy as np

from tabletop.uno import NUM_ACTIONS, OBS_LAYOUT, OBS_SIZE, UnoVecEnv

# Bring every observation block to roughly unit scale (hand sizes, pile sizes are counts).
SCALE = np.ones(OBS_SIZE, dtype=np.float32)
for block, divisor in [("hand_sizes", 10.0), ("discard", 2.0), ("draw_pile", 100.0), ("pending", 4.0)]:
    offset, length = OBS_LAYOUT[block]
    SCALE[offset : offset + length] = 1.0 / divisor


MAX_ACTIONS = 600
HAND = slice(OBS_LAYOUT["hand"][0], OBS_LAYOUT["hand"][0] + OBS_LAYOUT["hand"][1])
CARD_COST = 0.02


def features(obs):
    x = obs * SCALE
    return np.concatenate([x, np.ones((len(obs), 1), dtype=np.float32)], axis=1)


def policy(weights, x, mask):
    logits = x @ weights.T
    logits = np.where(mask > 0, logits, -1e9)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def sample(p, rng):
    u = rng.random((len(p), 1))
    return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), NUM_ACTIONS - 1)


def wilson(wins, n, z=1.96):
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def train(seconds, num_envs, lr, seed):
    rng = np.random.default_rng(seed)
    env = UnoVecEnv(
        num_envs, rules="official", players=4, learner_seats=[0], opponents=["random"], seed=seed, max_actions=MAX_ACTIONS
    )
    env.reset()
    dim = OBS_SIZE + 1
    weights = np.zeros((NUM_ACTIONS, dim), dtype=np.float32)
    grads = np.zeros((num_envs, NUM_ACTIONS, dim), dtype=np.float32)
    baseline, episodes, wins = -1.5, 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        held = env.obs[:, HAND].sum(axis=1)
        x = features(env.obs)
        p = policy(weights, x, env.mask)
        actions = sample(p, rng)
        onehot = -p
        onehot[np.arange(num_envs), actions] += 1.0
        grads += onehot[:, :, None] * x[:, None, :]
        env.step(actions.astype(np.int64))
        done = np.flatnonzero(env.terminated | env.truncated)
        if len(done):
            won = env.terminated[done] & (env.reward[done] > 0)
            returns = np.where(won, 1.0, -1.0 - CARD_COST * held[done])
            advantage = returns - baseline
            weights += lr * np.tensordot(advantage, grads[done], axes=1) / len(done)
            grads[done] = 0.0
            baseline = 0.99 * baseline + 0.01 * float(returns.mean())
            episodes += len(done)
            wins += int(won.sum())
            if episodes // 5000 != (episodes - len(done)) // 5000:
                print(f"{time.perf_counter() - start:6.0f}s  {episodes:8d} rounds  running return {baseline:+.3f}")
    return weights, episodes


def evaluate(weights, rounds, num_envs, seed):
    rng = np.random.default_rng(seed)
    env = UnoVecEnv(
        num_envs, rules="official", players=4, learner_seats=[0], opponents=["random"], seed=seed, max_actions=MAX_ACTIONS
    )
    env.reset()
    played = won = 0
    while played < rounds:
        p = policy(weights, features(env.obs), env.mask)
        env.step(sample(p, rng).astype(np.int64))
        done = env.terminated | env.truncated
        played += int(done.sum())
        won += int((env.terminated & (env.reward > 0)).sum())
    return won, played


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=300.0, help="training time")
    parser.add_argument("--envs", type=int, default=128)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--eval-rounds", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    untrained_won, untrained_n = evaluate(np.zeros((NUM_ACTIONS, OBS_SIZE + 1), np.float32), 2000, args.envs, 999)
    lo, hi = wilson(untrained_won, untrained_n)
    print(f"uniform legal actions: {untrained_won / untrained_n:.1%} of {untrained_n} rounds (95% {lo:.1%}-{hi:.1%})")
    weights, episodes = train(args.seconds, args.envs, args.lr, args.seed)
    won, n = evaluate(weights, args.eval_rounds, args.envs, args.seed + 10_000)
    lo, hi = wilson(won, n)
    print(f"trained on {episodes} rounds in {args.seconds:.0f}s")
    print(f"learned policy vs 3 random bots: won {won / n:.1%} of {n} rounds (95% interval {lo:.1%}-{hi:.1%}; fair share 25%)")


if __name__ == "__main__":
    main()
