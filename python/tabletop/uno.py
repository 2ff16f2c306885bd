"""The engine from Python: games, bots, the batched environment and the spaces.

``Game`` applies actions given as text (``"play R7"``, ``"play W blue"``, ``"draw"``) or as
indices of the action space; ``Bot(name, seed)`` is callable: ``bot(game)`` returns the action
text the bot would take for the player to act.
"""

from ._core import (
    BOT_NAMES,
    DECLINE,
    DEFAULT_MAX_ACTIONS,
    DEFAULT_MAX_STALL,
    MAX_SEATS,
    NUM_ACTIONS,
    OBS_LAYOUT_VERSION,
    OBS_SIZE,
    PRESET_NAMES,
    Bot,
    Game,
    UnoVecEnv,
    action_names,
    card_names,
    episode_seed,
    observation_layout,
)

ACTION_NAMES = action_names()
CARD_NAMES = card_names()
OBS_LAYOUT = {name: (offset, length) for name, offset, length in observation_layout()}

__all__ = [
    "ACTION_NAMES",
    "BOT_NAMES",
    "CARD_NAMES",
    "DECLINE",
    "DEFAULT_MAX_ACTIONS",
    "DEFAULT_MAX_STALL",
    "MAX_SEATS",
    "NUM_ACTIONS",
    "OBS_LAYOUT",
    "OBS_LAYOUT_VERSION",
    "OBS_SIZE",
    "PRESET_NAMES",
    "Bot",
    "Game",
    "UnoVecEnv",
    "episode_seed",
    "play_round",
]


def play_round(game, players):
    """Plays ``game`` to the end of its round: ``players[seat]`` is a callable taking the game
    and returning an action (text or index). Returns the round's rewards per seat."""
    while not game.is_round_over():
        game.apply(players[game.current](game))
    return game.round_rewards()
