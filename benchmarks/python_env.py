"""Learner steps per second from Python, side by side with RLCard, OpenSpiel and a do-nothing
PettingZoo environment (the per-step floor of the AEC API). Not a test: figures for
docs/python.md.

    python benchmarks/python_env.py            # after `pip install ./python`; rlcard optional

Each row steps for about --seconds, --repeats times, and reports the median steps per second
(one learner decision each) twice: per second of wall time, and per second of this process's CPU
time. Everything runs on one thread, so the CPU rate is the rate of one core that the process
has to itself: on a shared machine it stays comparable between runs where the wall rate does not.
Actions are the first legal one (``mask.argmax``; for the batched rows on the mask viewed as
booleans, which numpy scans several times faster than int8, so that the choice, which runs on
one thread, stays a small part of a threaded step), the cheapest choice, so the figures measure
the environments, not a policy. One process; one core except the threaded rows, where the
batched environment steps on ``num_threads`` threads (their CPU rate counts every thread's time).

    python benchmarks/python_env.py --only threads --repeats 5   # the threaded rows alone
    python benchmarks/python_env.py --only adapters --repeats 5  # PettingZoo, RLCard, OpenSpiel rows
"""

import argparse
import os
import platform
import statistics
import time

import numpy as np

from tabletop.uno import UnoVecEnv


def timed(step, seconds):
    """Calls ``step`` (returning the decisions it took) for about ``seconds`` of wall time;
    returns (steps per wall second, steps per CPU second)."""
    steps = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while True:
        for _ in range(10):
            steps += step()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed, steps / max(time.process_time() - cpu, 1e-9)


def vec_env(n, opponents, seconds, threads=1):
    env = UnoVecEnv(
        n, rules="official", players=4, learner_seats=[0], opponents=[opponents], seed=1, num_threads=threads
    )
    env.reset()

    mask = env.mask.view(np.bool_)  # the same first legal index, found faster than on int8

    def step():
        env.step(mask.argmax(axis=1))
        return n

    return timed(step, seconds)


def aec(seconds):
    from tabletop.pettingzoo import uno_v0

    env = uno_v0.env(rules="official", players=4)
    env.reset(seed=1)

    def step():
        if not env.agents:
            env.reset()
            return 0
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            return 0
        env.step(int(obs["action_mask"].argmax()))
        return 1

    return timed(step, seconds)


def do_nothing_aec(seconds):
    from gymnasium import spaces
    from pettingzoo import AECEnv

    class Nothing(AECEnv):
        metadata = {"name": "nothing_v0"}
        possible_agents = ["a", "b"]

        def __init__(self):
            super().__init__()
            self.space = spaces.Discrete(2)

        def observation_space(self, agent):
            return self.space

        def action_space(self, agent):
            return self.space

        def observe(self, agent):
            return 0

        def reset(self, seed=None, options=None):
            self.agents = self.possible_agents[:]
            self.rewards = {a: 0 for a in self.agents}
            self._cumulative_rewards = {a: 0 for a in self.agents}
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos = {a: {} for a in self.agents}
            self.agent_selection = "a"

        def step(self, action):
            self.agent_selection = "b" if self.agent_selection == "a" else "a"
            self._accumulate_rewards()

    env = Nothing()
    env.reset()

    def step():
        env.last()
        env.step(0)
        return 1

    return timed(step, seconds)


def rlcard_steps(make, seconds):
    """Steps of an RLCard-style UNO environment taking its first legal action, reset at each end."""
    env = make("uno", config={"seed": 1})
    state, _ = env.reset()

    def step():
        nonlocal state
        if env.is_over():
            state, _ = env.reset()
            return 0
        state, _ = env.step(next(iter(state["legal_actions"])))
        return 1

    return timed(step, seconds)


def rlcard_compatible(seconds):
    from tabletop import rlcard

    return rlcard_steps(rlcard.make, seconds)


def rlcard_own(seconds):
    try:
        import rlcard
    except ImportError:
        return None
    return rlcard_steps(rlcard.make, seconds)


def rlcard_run_loop(make, agent_class, seconds):
    """RLCard's own loop: ``env.run()`` with RLCard-style random agents, steps counted from the
    action record (the agents' cost included, as in RLCard's examples)."""
    env = make("uno", config={"seed": 1})
    env.set_agents([agent_class(num_actions=env.num_actions) for _ in range(env.num_players)])

    def step():
        env.run(is_training=False)
        return len(env.action_recorder)

    return timed(step, seconds)


def rlcard_compatible_run(seconds):
    from tabletop import rlcard

    return rlcard_run_loop(rlcard.make, rlcard.RandomAgent, seconds)


def rlcard_own_run(seconds):
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    return rlcard_run_loop(rlcard.make, RandomAgent, seconds)


def rlcard_compatible_rlcard_agent_run(seconds):
    """The drop-in case: RLCard's own agents on this environment."""
    try:
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    from tabletop import rlcard

    return rlcard_run_loop(rlcard.make, RandomAgent, seconds)


def openspiel_crazy_eights(seconds):
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("crazy_eights")
    rng = np.random.default_rng(1)
    state = game.new_initial_state()

    def step():
        nonlocal state
        if state.is_terminal():
            state = game.new_initial_state()
            return 0
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            return 0
        state.apply_action(state.legal_actions()[0])
        return 1

    return timed(step, seconds)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3, help="runs of each row; the median is shown")
    parser.add_argument("--threads", type=int, nargs="*", default=[1, 2], help="thread counts of the threaded rows")
    parser.add_argument("--only", choices=["all", "threads", "adapters"], default="all")
    args = parser.parse_args()
    threaded = [
        (f"`UnoVecEnv` N=4096, random opponents, num_threads={t}", lambda s, t=t: vec_env(4096, "random", s, t))
        for t in args.threads
    ]
    benches = []
    for opponents in ("random", "heuristic"):
        for n in (1, 64, 1024, 4096):
            benches.append(
                (f"`UnoVecEnv` N={n}, {opponents} opponents", lambda s, n=n, o=opponents: vec_env(n, o, s))
            )
    adapters = len(benches)
    benches.append(("PettingZoo AEC `uno_v0` (4 agents, every selection)", aec))
    benches.append(("PettingZoo do-nothing AEC env (floor)", do_nothing_aec))
    benches.append(("`tabletop.rlcard.UnoEnv` (2 players)", rlcard_compatible))
    benches.append(("RLCard 1.x `rlcard.make('uno')` (2 players)", rlcard_own))
    benches.append(("`tabletop.rlcard` `env.run()` loop, its `RandomAgent` (2 players)", rlcard_compatible_run))
    benches.append(("RLCard 1.x `env.run()` loop, RLCard's `RandomAgent` (2 players)", rlcard_own_run))
    benches.append(("`tabletop.rlcard` `env.run()` loop, RLCard's `RandomAgent` (2 players)", rlcard_compatible_rlcard_agent_run))
    benches.append(("OpenSpiel `crazy_eights` from Python", openspiel_crazy_eights))
    benches += threaded
    if args.only == "threads":
        benches = threaded
    elif args.only == "adapters":
        benches = benches[adapters:-len(threaded) or None]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    # The threaded rows take turns, one run each per round, so that a change in the machine's
    # load falls on all of them alike.
    runs = {name: [] for name, _ in benches}
    for name, bench in benches:
        if not (name, bench) in threaded:
            runs[name] = [bench(args.seconds) for _ in range(args.repeats)]
    for _ in range(args.repeats):
        for name, bench in threaded:
            if name in runs:
                runs[name].append(bench(args.seconds))
    rows = []
    for name, _ in benches:
        if any(r is None for r in runs[name]):
            rows.append((name, None))
            continue
        rows.append((name, (statistics.median(w for w, _ in runs[name]), statistics.median(c for _, c in runs[name]))))
    print(
        f"Python {platform.python_version()} on {platform.machine()} ({os.cpu_count()} cores), {args.seconds:g} s a row, "
        f"median of {args.repeats}, load average {load:.1f} at the start\n"
    )
    print("| environment | learner steps/s (wall) | learner steps per CPU second |")
    print("| --- | ---: | ---: |")
    for name, rate in rows:
        if rate is None:
            print(f"| {name} | not installed | not installed |")
        else:
            print(f"| {name} | {rate[0]:,.0f} | {rate[1]:,.0f} |")
    scaling = [(t, dict(rows)[name]) for t, (name, _) in zip(args.threads, threaded) if name in runs]
    if scaling:
        # The scaling table of docs/python.md: each thread count against the first one.
        end = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        base_threads, (base_wall, _) = scaling[0]
        print(f"\nN=4096, random opponents, load average {load:.1f} at the start, {end:.1f} at the end")
        # Cores the process got: its CPU seconds per wall second. On a quiet machine it is the
        # thread count; on a busy one, what the others left, and the wall ratio follows it.
        print(f"\n| `num_threads` | steps/s (wall) | × {base_threads} thread(s) | steps per CPU s | cores used |")
        print("| ---: | ---: | ---: | ---: | ---: |")
        for t, (wall, cpu) in scaling:
            print(f"| {t} | {wall:,.0f} | {wall / base_wall:.2f}× | {cpu:,.0f} | {wall / cpu:.2f} |")


if __name__ == "__main__":
    main()
