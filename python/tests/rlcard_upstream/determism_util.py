# Copied from RLCard (https://github.com/datamllab/rlcard), tests/envs/determism_util.py at commit
# d7d0a957baf4cc7225a50522adb0164bf130a9d0, unchanged but for one line: `import rlcard` is
# `from tabletop.rlcard import faithful as rlcard`, so RLCard's own tests run against the faithful
# adapter (docs/python.md, "RLCard's own UNO: the faithful mode").
#
# Copyright (c) 2019 DATA Lab at Texas A&M University
#
# Permission is hereby granted, free of charge, to any person obtaining a copy
# of this software and associated documentation files (the "Software"), to deal
# in the Software without restriction, including without limitation the rights
# to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
# copies of the Software, and to permit persons to whom the Software is
# furnished to do so, subject to the following conditions:
#
# The above copyright notice and this permission notice shall be included in all
# copies or substantial portions of the Software.
#
# THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
# IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
# FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
# AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
# LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
# OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
# SOFTWARE.

from tabletop.rlcard import faithful as rlcard
from rlcard.agents.random_agent import RandomAgent
import random
import numpy as np

def hash_obsevation(obs):
    try:
        val = hash(obs.tobytes())
        return val
    except AttributeError:
        try:
            return hash(obs)
        except TypeError:
            warnings.warn("Observation not an int or an Numpy array")
            return 0

def rand_iter(n):
    for x in range(n+1):
        random.randint(0, 1000)
        np.random.normal(size=100)

def gather_observations(env, actions, num_rand_steps):
    rand_iter(num_rand_steps)
    state, player_id = env.reset()
    rand_iter(num_rand_steps)

    action_idx = 0
    observations = []
    while not env.is_over() and action_idx < len(actions):
        # Agent plays
        rand_iter(num_rand_steps)
        legals = list(state['legal_actions'].keys())
        action = legals[actions[action_idx]%len(legals)]
        # Environment steps
        next_state, next_player_id = env.step(action)
        # Set the state and player
        state = next_state
        player_id = next_player_id

        action_idx += 1
        # Save state.
        if not env.game.is_over():
            observations.append(state)

    return observations

def is_deterministic(env_name):
    env = rlcard.make(env_name)

    NUM_STEPS = 25

    actions = [random.randrange(env.game.get_num_actions()) for _ in range(NUM_STEPS)]
    base_seed = 12941
    hashes = []
    for rand_iters in range(2):
        env = rlcard.make(env_name,config={'seed':base_seed})

        hashes.append(hash(tuple([hash_obsevation(obs['obs']) for obs in gather_observations(env,actions,rand_iters)])))

    return hashes[0] == hashes[1]
