"""Ray RLlib on tabletop: RLlib's PettingZoo wrappers step the environments, the action-masking
module never lets a masked action through, and PPO trains in local mode through
``examples/python/rllib_ppo.py``.

They need ``ray[rllib]`` and torch: scripts/test-python runs them (pytest ``-m rllib``) in the
torch environment, with ``TABLETOP_REQUIRE_RLLIB=1`` so that a missing package fails instead of
skipping; elsewhere they are skipped, saying why.
"""

import importlib.util
import math
import os
import pathlib

import numpy as np
import pytest

pytestmark = pytest.mark.rllib

if os.environ.get("TABLETOP_REQUIRE_RLLIB") == "1":
    import ray  # noqa: F401  (a failure here is the test run's failure)
    import torch  # noqa: F401
else:
    pytest.importorskip(
        "ray.rllib",
        reason="ray[rllib] is not installed here; scripts/test-python installs it in its torch environment "
        "(TABLETOP_RLLIB=0 leaves it out)",
    )
    pytest.importorskip("torch", reason="torch is not installed here (RLlib's PPO needs it)")

import ray  # noqa: E402
import torch  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from tabletop.rllib import (  # noqa: E402
    ActionMaskingTorchRLModule,
    UnoAECMultiAgentEnv,
    UnoParallelMultiAgentEnv,
    ppo_config,
)

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python" / "rllib_ppo.py"


@pytest.fixture(scope="module")
def local_ray():
    # A cluster of its own: another one recorded on the machine (RAY_ADDRESS, a `ray start`
    # left running) would make ray.init connect there and refuse num_cpus.
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.parametrize("make", [UnoParallelMultiAgentEnv, UnoAECMultiAgentEnv])
def test_rllibs_wrappers_step_the_envs_under_rllibs_keys(make, rng):
    env = make({"rules": "official", "players": 3, "max_stall": 200})
    check_multiagent_environments(env)
    space = env.get_observation_space("player_0")
    assert set(space.spaces) == {"observations", "action_mask"}
    steps = 0
    for episode in range(3):
        obs, _ = env.reset(seed=episode)
        done = False
        while not done:
            actions = {}
            for agent, o in obs.items():
                assert env.get_observation_space(agent).contains(o), agent
                legal = np.flatnonzero(o["action_mask"])
                actions[agent] = int(legal[rng.integers(len(legal))])
            obs, rewards, terminateds, truncateds, _ = env.step(actions)
            steps += 1
            done = terminateds["__all__"] or truncateds["__all__"]
        # The round paid its agents: +1 and -1s, or 0 for all when cut.
        assert terminateds["__all__"] or truncateds["__all__"]
    assert steps > 30


def test_the_module_never_samples_a_masked_action():
    env = UnoParallelMultiAgentEnv({"players": 2})
    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        observation_space=env.get_observation_space("player_0"),
        action_space=env.get_action_space("player_0"),
        model_config={"fcnet_hiddens": [32], "head_fcnet_hiddens": [], "vf_share_layers": True},
    ).build()
    g = torch.Generator().manual_seed(0)
    n = 256
    obs = torch.rand((n, 283), generator=g) * 3
    mask = (torch.rand((n, 88), generator=g) < 0.05).float()
    mask[torch.arange(n), torch.randint(0, 88, (n,), generator=g)] = 1.0
    batch = {Columns.OBS: {"observations": obs, "action_mask": mask}}
    for forward in (module.forward_exploration, module.forward_inference, module.forward_train):
        logits = forward(batch)[Columns.ACTION_DIST_INPUTS]
        probs = torch.softmax(logits, dim=-1)
        assert torch.all(probs[mask == 0] == 0)
        assert torch.allclose(probs.sum(-1), torch.ones(n))
        actions = torch.distributions.Categorical(logits=logits).sample()
        assert torch.all(mask[torch.arange(n), actions] == 1)
    # The batch is the caller's: still the dict it gave.
    assert set(batch[Columns.OBS]) == {"observations", "action_mask"}
    values = module.compute_values(batch)
    assert values.shape == (n,) and torch.isfinite(values).all()
    with pytest.raises(ValueError, match="observations"):
        RLModuleSpec(
            module_class=ActionMaskingTorchRLModule,
            observation_space=env.get_observation_space("player_0")["observations"],
            action_space=env.get_action_space("player_0"),
        ).build()


def _weights(algo):
    return {k: np.array(v, copy=True) for k, v in algo.get_module("shared").get_state().items()}


@pytest.mark.parametrize("aec", [False, True])
def test_ppo_trains_in_local_mode(local_ray, aec):
    """A few PPO iterations, sampling in the driver: steps sampled and trained, finite losses,
    the shared module's weights moved. The parallel environment raises on an action outside
    the mask and the AEC one ends the episode (and a short episode shows in the figures), so
    a finished iteration also says the masking held."""
    algo = ppo_config(
        env_config={"rules": "official", "players": 2, **({} if aec else {"illegal_action": "raise"})},
        check_env=aec,
        aec=aec,
        env_runners=0,
        train_batch_size=400,
        minibatch_size=100,
        num_epochs=2,
        hiddens=(32,),
        seed=3,
    ).build_algo()
    try:
        before = _weights(algo)
        result = algo.train()
        after = _weights(algo)
    finally:
        algo.stop()
    runners = result["env_runners"]
    assert runners["num_env_steps_sampled"] > 0
    if "round_finished" in runners:  # once an episode has ended
        assert 0.0 <= runners["round_finished"] <= 1.0
    learner = result["learners"]["shared"]
    for key in ("policy_loss", "vf_loss", "entropy"):
        assert math.isfinite(float(learner[key])), key
    moved = [k for k in before if not np.array_equal(before[k], after[k])]
    assert moved, "no weight of the shared module changed"


def test_the_ppo_script_runs_in_local_mode(local_ray, tmp_path):
    spec = importlib.util.spec_from_file_location("rllib_ppo", SCRIPT)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    out = tmp_path / "iterations.jsonl"
    # A stall bound of 3 cuts nearly every round: RoundMetrics tells the cut rounds (which RLlib
    # itself marks terminated too) from those played out.
    lines = script.main(
        ["--iterations", "2", "--env-runners", "0", "--players", "2", "--max-stall", "3", "--train-batch-size", "400",
         "--minibatch-size", "100", "--num-epochs", "1", "--hiddens", "32", "--seed", "1",
         "--out", str(out), "--checkpoint", str(tmp_path / "ckpt")]
    )
    assert [line["iteration"] for line in lines] == [1, 2]
    assert all(line["env_steps"] > 0 and line["agent_steps"] >= line["env_steps"] for line in lines)
    assert all(math.isfinite(line["policy_loss"]) for line in lines)
    assert all(line["episodes"] > 0 and line["round_finished"] < 0.5 for line in lines), lines
    assert len(out.read_text().splitlines()) == 2
    assert (tmp_path / "ckpt").is_dir()
