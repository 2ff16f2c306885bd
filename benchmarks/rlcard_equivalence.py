"""Does an agent trained on RLCard's ``uno`` get the same payoffs on tabletop's faithful mode?

Plays ``--games`` rounds of ``A`` against ``B`` on RLCard's own environment
(``rlcard.make("uno")``) and on ``tabletop.rlcard.faithful.make("uno")``, half with ``A`` in
seat 0 and half in seat 1, and prints ``A``'s mean payoff on each side with a 95% interval and
the difference. Agents: ``rule`` (RLCard's ``uno-rule-v1``), ``random`` (RLCard's
``RandomAgent``), or a DQN checkpoint written by ``--train-dqn`` (needs torch)::

    python benchmarks/rlcard_equivalence.py --a rule --b random --games 2000
    python benchmarks/rlcard_equivalence.py --train-dqn runs/dqn-uno.pt --episodes 3000
    python benchmarks/rlcard_equivalence.py --a dqn:runs/dqn-uno.pt --b random --games 2000

``--train-dqn`` trains RLCard's ``DQNAgent`` on RLCard's own ``uno`` against its random agent
(RLCard's ``examples/run_rl.py`` settings, fewer episodes) and saves it with ``torch.save``.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np


def make_agent(spec, env):
    from rlcard.agents import RandomAgent
    from rlcard.models.uno_rule_models import UNORuleAgentV1

    if spec == "rule":
        return UNORuleAgentV1()
    if spec == "random":
        return RandomAgent(num_actions=env.num_actions)
    if spec.startswith("dqn:"):
        import torch

        agent = torch.load(spec[4:], weights_only=False) if _new_torch(torch) else torch.load(spec[4:])
        return agent
    raise SystemExit(f"unknown agent {spec!r}: rule, random or dqn:PATH")


def _new_torch(torch):
    return tuple(int(x) for x in torch.__version__.split(".")[:2]) >= (2, 4)


def play(env, a, b, games):
    """``A``'s payoff in each of ``games`` rounds, seats alternating."""
    out = []
    for g in range(games):
        agents = [a, b] if g % 2 == 0 else [b, a]
        env.set_agents(agents)
        _, payoffs = env.run(is_training=False)
        out.append(float(payoffs[g % 2]))
    return np.array(out)


def summary(x):
    mean = x.mean()
    half = 1.96 * x.std(ddof=1) / math.sqrt(len(x))
    return mean, half


def train_dqn(path, episodes, seed):
    import rlcard
    import torch
    from rlcard.agents import DQNAgent, RandomAgent
    from rlcard.utils import reorganize, set_seed

    set_seed(seed)
    env = rlcard.make("uno", config={"seed": seed})
    agent = DQNAgent(num_actions=env.num_actions, state_shape=env.state_shape[0], mlp_layers=[64, 64],
                     device=torch.device("cpu"))
    env.set_agents([agent, RandomAgent(num_actions=env.num_actions)])
    start = time.time()
    for episode in range(episodes):
        trajectories, payoffs = env.run(is_training=True)
        for ts in reorganize(trajectories, payoffs)[0]:
            agent.feed(ts)
    torch.save(agent, path)
    print(f"trained DQN for {episodes} episodes ({agent.total_t} steps) in {time.time() - start:.0f} s: {path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", default="rule")
    ap.add_argument("--b", default="random")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--train-dqn", metavar="PATH")
    ap.add_argument("--episodes", type=int, default=3000)
    args = ap.parse_args()
    if args.train_dqn:
        train_dqn(args.train_dqn, args.episodes, args.seed)
        return
    import rlcard

    from tabletop.rlcard import faithful

    np.random.seed(args.seed)  # RLCard's agents draw from numpy's global generator
    rows = []
    for name, env in [("RLCard 1.2.0 rlcard.make('uno')", rlcard.make("uno", config={"seed": args.seed})),
                      ("tabletop faithful make('uno')", faithful.make("uno", config={"seed": args.seed}))]:
        a, b = make_agent(args.a, env), make_agent(args.b, env)
        start = time.time()
        x = play(env, a, b, args.games)
        rows.append((name, x, time.time() - start))
    print(f"| environment | games | {args.a} vs {args.b}: mean payoff | 95% interval | wins | seconds |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, x, secs in rows:
        mean, half = summary(x)
        print(f"| {name} | {len(x)} | {mean:+.4f} | {mean - half:+.4f} to {mean + half:+.4f} | "
              f"{100 * (x > 0).mean():.1f}% | {secs:.0f} |")
    (ma, ha), (mb, hb) = summary(rows[0][1]), summary(rows[1][1])
    diff, half = mb - ma, math.sqrt(ha**2 + hb**2)
    print(f"\ndifference (tabletop - RLCard): {diff:+.4f} (95% {diff - half:+.4f} to {diff + half:+.4f})")


if __name__ == "__main__":
    main()
