"""Checked by mypy in ``test_typing.py`` (never run): the adapters' constructors state their
parameters and their methods their return types, so a misspelt keyword or a wrong use is a
type error, not ``Any``."""

from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import assert_type

from tabletop.envs import UnoGymEnv, UnoGymVectorEnv
from tabletop.pettingzoo import uno_v0
from tabletop.pettingzoo.uno_v0 import Observation, UnoParallelEnv

aec = uno_v0.env(rules="official", players=3, max_stall=100)
aec.reset(seed=0)

raw = uno_v0.raw_env(players=2)
obs, reward, terminated, truncated, info = raw.last()
assert_type(obs, Observation | None)
assert_type(reward, float)
assert_type(terminated, bool)
assert_type(raw.observe("player_0"), Observation)
assert_type(raw.render(), str | None)

par = uno_v0.parallel_env(players=2)
assert_type(par, UnoParallelEnv)
observations, infos = par.reset(seed=1)
assert_type(observations, dict[str, Observation])
out = par.step({a: None for a in par.agents})
assert_type(out[1], dict[str, float])

gym_env = UnoGymEnv(opponents=["heuristic"], max_stall=None)
first, info2 = gym_env.reset(seed=2)
assert_type(first, npt.NDArray[np.float32])
assert_type(info2, dict[str, Any])
step = gym_env.step(0)
assert_type(step[1], float)
assert_type(gym_env.action_masks(), npt.NDArray[np.bool_])

vec = UnoGymVectorEnv(4, learner_seats="all", opponents=[])
assert_type(vec.step(np.zeros(4, dtype=np.int64))[2], npt.NDArray[np.bool_])

from tabletop import rlcard
from tabletop.rlcard import faithful

rl = rlcard.make("uno", config={"seed": 3})
assert_type(rl, rlcard.UnoEnv)
state, player = rl.reset()
assert_type(state, dict[str, Any])
assert_type(player, int)
assert_type(rl.step(0), tuple[dict[str, Any], int])
assert_type(rl.is_over(), bool)
assert_type(rl.get_payoffs(), npt.NDArray[np.float64])

fa = faithful.make("uno")
assert_type(fa, faithful.FaithfulUnoEnv)
assert_type(fa.reset()[1], int)
assert_type(fa.get_payoffs(), npt.NDArray[np.int64])
