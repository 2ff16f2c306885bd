"""tabletop: full-rules UNO for reinforcement learning.

The engine and the batched environment are Rust (``tabletop._core``); this package adds the
ecosystem adapters:

* ``tabletop.uno``: ``Game``, ``Bot``, ``UnoVecEnv`` and the action/observation spaces;
* ``tabletop.envs``: Gymnasium's single-agent ``UnoGymEnv`` (id ``tabletop/Uno-v0``) and
  ``UnoGymVectorEnv``;
* ``tabletop.pettingzoo.uno_v0``: the PettingZoo AEC and parallel environments;
* ``tabletop.rlcard``: an RLCard-compatible ``UnoEnv`` on the full rules, and
  ``tabletop.rlcard.faithful``: RLCard's own UNO (its actions, planes and rules);
* ``tabletop.rllib``: Ray RLlib's environments, an action-masking module and PPO in self-play;
* ``tabletop.openspiel``: an OpenSpiel Python game (``python_tabletop_uno``).

See docs/python.md in the repository for the spaces, the reaction windows and the figures.
"""

from ._core import BOT_NAMES, NUM_ACTIONS, OBS_SIZE, PRESET_NAMES, Bot, Game, UnoVecEnv

__all__ = ["BOT_NAMES", "NUM_ACTIONS", "OBS_SIZE", "PRESET_NAMES", "Bot", "Game", "UnoVecEnv"]
__version__ = "0.1.0"

try:  # Gymnasium is optional: register the environment ids when it is there.
    import gymnasium as _gym
except ImportError:  # pragma: no cover - exercised only without gymnasium
    _gym = None
if _gym is not None and "tabletop/Uno-v0" not in _gym.registry:
    _gym.register(
        id="tabletop/Uno-v0",
        entry_point="tabletop.envs:UnoGymEnv",
        vector_entry_point="tabletop.envs:UnoGymVectorEnv",
        # No wrappers: `env.action_masks()` must stay reachable after `gymnasium.make` (the
        # environment refuses a step before reset itself, and passes `check_env` unwrapped).
        order_enforce=False,
        disable_env_checker=True,
    )
