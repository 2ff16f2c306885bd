"""PPO in self-play on tabletop's UNO with Ray RLlib: every seat an agent sharing one
action-masking module (``tabletop.rllib``), RLlib's ``ParallelPettingZooEnv`` (or, with
``--aec``, ``PettingZooEnv``) over tabletop's PettingZoo environment.

On one machine, sampling in the driver (local mode; what the test suite runs):

    python examples/python/rllib_ppo.py --iterations 2 --env-runners 0

On a Ray cluster (docs/python.md: ``ray start --head`` on one node, its ``~/.ray/auth_token``
copied to the others, ``ray start --address=HEAD:6379`` on them), from any node of it:

    RAY_AUTH_MODE=token python examples/python/rllib_ppo.py --address auto --env-runners 8 --iterations 100

Each iteration prints one JSON line: the iteration, the env and agent steps it sampled, its
seconds, the env steps per second of the iteration, the seconds spent sampling, the episodes
that ended, their mean length, the share of recent rounds played out rather than cut, and the
shared module's losses. ``--out FILE`` writes
the lines to a file too; ``--checkpoint DIR`` saves the algorithm at the end.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

import ray
from ray.rllib.utils.metrics import (
    ENV_RUNNER_RESULTS,
    ENV_RUNNER_SAMPLING_TIMER,
    EPISODE_LEN_MEAN,
    LEARNER_RESULTS,
    NUM_AGENT_STEPS_SAMPLED,
    NUM_ENV_STEPS_SAMPLED,
    NUM_EPISODES,
    TIMERS,
)

from tabletop.rllib import ppo_config


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rules", default="official", help="a preset name or a rules file's text")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--max-stall", type=int, default=None, help="uno_v0's max_stall (default: its default, 400)")
    p.add_argument("--aec", action="store_true", help="the AEC environment (one selection per step)")
    p.add_argument("--iterations", type=int, default=10)
    p.add_argument("--env-runners", type=int, default=0, help="0: sample in the driver (local mode)")
    p.add_argument("--envs-per-env-runner", type=int, default=1)
    p.add_argument("--train-batch-size", type=int, default=4000, help="env steps per iteration")
    p.add_argument("--minibatch-size", type=int, default=512)
    p.add_argument("--num-epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--hiddens", type=int, nargs="+", default=[256, 256])
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--address", default=None, help="a Ray cluster's address ('auto': the one this node is in)")
    p.add_argument("--num-cpus", type=int, default=None, help="CPUs of a local Ray instance (no --address)")
    p.add_argument("--out", default=None, help="also write each iteration's JSON line here")
    p.add_argument("--checkpoint", default=None, help="save the algorithm in this folder at the end")
    return p.parse_args(argv)


def summary(iteration: int, result: dict, seconds: float) -> dict:
    """One iteration's figures from RLlib's result dict."""
    runners = result.get(ENV_RUNNER_RESULTS, {})
    env_steps = int(runners.get(NUM_ENV_STEPS_SAMPLED, 0))
    agent_steps = runners.get(NUM_AGENT_STEPS_SAMPLED, 0)
    if isinstance(agent_steps, dict):
        agent_steps = sum(agent_steps.values())
    sampling = result.get(TIMERS, {}).get(ENV_RUNNER_SAMPLING_TIMER)
    learner = result.get(LEARNER_RESULTS, {}).get("shared", {})
    length = runners.get(EPISODE_LEN_MEAN)
    finished = runners.get("round_finished")
    return {
        "iteration": iteration,
        "env_steps": env_steps,
        "agent_steps": int(agent_steps),
        "seconds": round(seconds, 3),
        "env_steps_per_s": round(env_steps / seconds, 1) if seconds > 0 else None,
        "sampling_s": None if sampling is None else round(float(sampling), 3),
        "episodes": int(runners.get(NUM_EPISODES, 0)),
        "episode_len_mean": _number(length),
        # The share of the episodes that ended whose round was played out, not cut.
        "round_finished": _number(finished),
        "policy_loss": _number(learner.get("policy_loss")),
        "vf_loss": _number(learner.get("vf_loss")),
        "entropy": _number(learner.get("entropy")),
    }


def _number(x: object) -> float | None:
    try:
        value = float(x)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return None if math.isnan(value) else value


def main(argv: list[str] | None = None) -> list[dict]:
    args = parse_args(argv)
    env_config: dict = {"rules": args.rules, "players": args.players}
    if args.max_stall is not None:
        env_config["max_stall"] = args.max_stall
    if args.address:
        ray.init(address=args.address)
    elif not ray.is_initialized():
        # address="local" starts a cluster of our own even where another one's address is
        # recorded on this machine (RAY_ADDRESS, /tmp/ray/ray_current_cluster).
        ray.init(address="local", num_cpus=args.num_cpus, include_dashboard=False, log_to_driver=False)
    config = ppo_config(
        env_config=env_config,
        aec=args.aec,
        env_runners=args.env_runners,
        envs_per_env_runner=args.envs_per_env_runner,
        train_batch_size=args.train_batch_size,
        minibatch_size=args.minibatch_size,
        num_epochs=args.num_epochs,
        lr=args.lr,
        hiddens=tuple(args.hiddens),
        seed=args.seed,
    )
    algo = config.build_algo()
    out = open(args.out, "w") if args.out else None
    lines = []
    try:
        for i in range(1, args.iterations + 1):
            start = time.perf_counter()
            result = algo.train()
            line = summary(i, result, time.perf_counter() - start)
            lines.append(line)
            text = json.dumps(line)
            print(text, flush=True)
            if out:
                print(text, file=out, flush=True)
        if args.checkpoint:
            algo.save_to_path(args.checkpoint)
    finally:
        if out:
            out.close()
        algo.stop()
    return lines


if __name__ == "__main__":
    main(sys.argv[1:])
