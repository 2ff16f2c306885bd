"""Does RLCard's DMC trainer keep every learner fed on tabletop's default environment?

Runs ``rlcard.agents.dmc_agent.DMCTrainer`` (RLCard's ``examples/run_dmc.py`` defaults but for
the actor count and buffers: ``--actors``) on ``tabletop.rlcard.make("uno")`` for
``--seconds``, counts the batches each position's learner consumed, and prints each
position's frames per second (frames = unroll length × batch size per learner step) and its
last loss. Needs torch (``.venv-torch``: ``scripts/test-python``)::

    python benchmarks/dmc_feed.py --seconds 300
    python benchmarks/dmc_feed.py --seconds 300 --config '{"max_stall": null}'   # no stall bound
"""

from __future__ import annotations

import _thread
import argparse
import json
import multiprocessing
import os
import tempfile
import threading
import time
from collections import Counter


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=300)
    ap.add_argument("--actors", type=int, default=2)
    ap.add_argument("--unroll", type=int, default=100)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--config", default="{}", help="the environment's config (JSON)")
    args = ap.parse_args()

    import rlcard.agents.dmc_agent.trainer as dmc

    from tabletop import rlcard

    config = {"seed": 1, **json.loads(args.config)}
    env = rlcard.make("uno", config=config)
    batches = Counter()
    losses = {}
    real_learn = dmc.learn

    def counting_learn(position, *rest, **kw):
        stats = real_learn(position, *rest, **kw)
        batches[position] += 1
        losses[position] = float(stats.get(f"loss_{position}", float("nan")))
        return stats

    dmc.learn = counting_learn
    save = tempfile.mkdtemp(prefix="dmc-feed-")
    os.chdir(save)  # the trainer records the git state of its working directory
    trainer = dmc.DMCTrainer(env, cuda="", xpid="uno", savedir=save, num_actors=args.actors,
                             unroll_length=args.unroll, batch_size=args.batch, save_interval=10**6)
    threading.Timer(args.seconds, _thread.interrupt_main).start()
    start = time.time()
    try:
        trainer.start()
    except KeyboardInterrupt:
        pass
    elapsed = time.time() - start
    for child in multiprocessing.active_children():
        child.terminate()
    frames = args.unroll * args.batch
    print(f"config {config}, {args.actors} actors, unroll {args.unroll}, batch {args.batch}, {elapsed:.0f} s")
    print("| position | learner steps | frames | frames/s | last loss |")
    print("|---:|---:|---:|---:|---:|")
    for p in range(env.num_players):
        n = batches[p]
        print(f"| {p} | {n} | {n * frames} | {n * frames / elapsed:.1f} | {losses.get(p, float('nan')):.4g} |")
    os._exit(0)  # the learner threads loop until the frame budget, which is not the point here


if __name__ == "__main__":
    main()
