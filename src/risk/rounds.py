"""Rounds the way players count them: a new round each time the turn comes back round to the first
player. The engine counts player-turns (``game.turn``); front ends show rounds (``risk.tui.rounds``
for the terminal, the web server's state messages)."""

from __future__ import annotations


def count_rounds(starters: list[int], players: int) -> int:
    """How many rounds the turns started by ``starters`` span: a new round whenever the turn goes
    back round past the first player (in seat order counted from the first player)."""
    if not starters:
        return 0
    first = starters[0]
    rounds, previous = 1, 0
    for player in starters[1:]:
        place = (player - first) % players
        if place <= previous:
            rounds += 1
        previous = place
    return rounds
