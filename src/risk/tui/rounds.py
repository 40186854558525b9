"""Rounds, the way players count them: a round starts each time the turn comes back round to the
first player of the game (round 1 is the first turn). The engine counts player-turns
(``game.turn``); ``Rounds`` turns those into rounds from who started each turn.

Who started each turn is not kept by the engine, so it is found by replaying the game's history
once (:func:`turn_starters`), then followed as the game goes on (:meth:`Rounds.update`). A round
is counted in seat order from the first player, so it still ends when the first player has been
eliminated.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from risk.errors import RiskError
from risk.rounds import count_rounds
from risk.rules.actions import Action
from risk.rules.game import Game


def turn_starters(game: Game) -> list[int]:
    """The player who started each turn so far (index 0: turn 1), by replaying ``game.history``.

    A game that did not start from the beginning (a position built by hand) cannot be replayed:
    its earlier turns are taken to have gone round the players still in, in seat order.
    """
    try:
        starters = _replayed_starters(game)
    except (RiskError, AssertionError, IndexError, KeyError, TypeError, ValueError):
        starters = None
    if starters is not None and len(starters) == game.turn:
        return starters
    return _assumed_starters(game)


def _replayed_starters(game: Game) -> list[int] | None:
    opening: deque[tuple[str, Any]] = deque()
    groups: list[tuple[Action, deque[tuple[str, Any]]]] = []
    for kind, who, value in game.history:
        if kind == "action":
            if value is None:  # a hidden action (a public record): nothing to replay
                return None
            groups.append((value, deque()))
        else:
            (groups[-1][1] if groups else opening).append((who, value))
    replay = Game(
        game.rules, list(game.players[: game.humans]), seed=game.seed, board=game.board, _script=opening
    )
    starters: list[int] = []
    for action, outcomes in groups:
        replay.replay_chance(outcomes)
        replay.apply(action)
        while len(starters) < replay.turn:
            starters.append(replay.current)
    return starters


def _assumed_starters(game: Game) -> list[int]:
    """Turns 1..game.turn going round the players still in, in seat order, ending with the current."""
    alive = [p for p in range(game.humans) if game.alive[p]] or [game.current]
    if game.current not in alive:
        alive.append(game.current)
    alive.sort()
    index = alive.index(game.current)
    return [alive[(index - back) % len(alive)] for back in range(game.turn - 1, -1, -1)]


class Rounds:
    """The round of each turn of one game, kept up to date with :meth:`update` after each action."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.starters = turn_starters(game)

    def update(self) -> None:
        """Note the turn just started, if any (call after every action)."""
        game = self.game
        while len(self.starters) < game.turn:
            self.starters.append(game.current)

    def round_of(self, turn: int | None = None) -> int:
        """The round of ``turn`` (default: the turn now); 0 during the setup."""
        self.update()
        turn = self.game.turn if turn is None else turn
        return count_rounds(self.starters[:turn], self.game.humans)

    @property
    def current(self) -> int:
        return self.round_of()


def rounds_played(game: Game) -> int:
    """The round the game is in (or ended in); 0 while it is still in the setup."""
    return count_rounds(turn_starters(game), game.humans)
