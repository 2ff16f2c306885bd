"""The ``ansi`` render of every adapter: the table as text, every hand shown (a render is for
the person watching the environment, who sees the whole table)."""

from __future__ import annotations

from typing import Any


def render_table(game: Any, stall: int | None = None) -> str:
    """The table of ``game`` (a ``tabletop.uno.Game``) in a few lines: the rules and the turn,
    the card in play and the colour, the draw pile, then each seat's hand (``>`` marks the
    player to act), whether it called UNO, and the phase; ``stall`` adds the actions since a
    hand last got smaller."""
    obs = game.observation(None)
    hands = game.hands()
    color = obs["color"] or "to be named"
    lines = [
        f"{obs['rules']['name']}, {obs['players']} seats, round {obs['round']}, turn {obs['turns']}"
        f", {obs['direction'].replace('_', ' ')}" + ("" if stall is None else f", {stall} actions without progress"),
        f"top {obs['top']} ({color}), draw pile {obs['draw_pile_size']}, discard pile {len(obs['discard'])}"
        + (f", {obs['pending_draw']} to draw" if obs["pending_draw"] else ""),
    ]
    for seat, hand in enumerate(hands):
        mark = ">" if seat == obs["current"] and not game.is_round_over() else " "
        called = ", UNO" if obs["uno_called"][seat] else ""
        lines.append(f"{mark} seat {seat}: {len(hand):>2} cards{called}  {' '.join(hand)}")
    phase = obs["phase"]["phase"] if isinstance(obs["phase"], dict) else obs["phase"]
    winner = game.round_winner()
    if winner is not None:
        lines.append(f"round won by seat {winner}")
    else:
        lines.append(f"phase: {phase.replace('_', ' ')}")
    return "\n".join(lines) + "\n"
