"""Bot-only games: play one game to its end (or to a turn cap) and report it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from risk.bots import Bot, make_bot
from risk.maps import Board
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.rules.pickling import picklable
from risk.view import View

DEFAULT_MAX_TURNS = 1000


@dataclass(frozen=True, slots=True)
class GameReport:
    seed: int
    winner: int | None  # player index, None when the turn cap stopped the game
    winner_name: str | None
    winner_bot: str | None
    turns: int
    actions: int
    players: tuple[str, ...]
    bots: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "seed": self.seed,
            "winner": self.winner_name,
            "winner_index": self.winner,
            "winner_bot": self.winner_bot,
            "turns": self.turns,
            "actions": self.actions,
            "players": list(self.players),
            "bots": list(self.bots),
        }


def turns_played(game: Game, max_turns: int) -> int:
    """The turns a capped game played: its turn, or the cap when the cap stopped it.

    A turn is one player's turn (the setup is turn 0). The games here play on while
    ``game.turn <= max_turns`` (inline in each loop: a call per action would cost the hot loop), so the
    cap stops a game as turn ``max_turns + 1`` begins, before any action of it: ``max_turns`` played.
    """
    return min(game.turn, max_turns)


def bot_seed(game_seed: int, seat: int) -> int:
    """Each bot's own seed, derived from the game's so that a game replays exactly."""
    return (game_seed * 1_000_003 + seat * 7919 + 1) % (2**63)


def play_game(
    rules: Rules,
    bot_names: Sequence[str],
    seed: int,
    max_turns: int = DEFAULT_MAX_TURNS,
    board: str | Board = "classic",
    bots: Sequence[Bot] | None = None,
    on_turn_end: Callable[[Game, int, int], None] | None = None,
) -> tuple[Game, GameReport]:
    """Play bots against each other; seat ``i`` is ``bot_names[i]``, made with :func:`bot_seed`
    unless ``bots`` gives the bots themselves (configured otherwise, say).

    ``on_turn_end(game, turn, actions)`` is called after the last action of each turn played (the
    setup is turn 0; the turn that wins the game included), ``actions`` counting from the start."""
    players = [f"{name}-{i + 1}" for i, name in enumerate(bot_names)]
    game = Game(rules, players, seed=seed, board=board)
    if bots is None:
        bots = [make_bot(name, bot_seed(seed, i)) for i, name in enumerate(bot_names)]
    elif len(bots) != len(bot_names):
        raise ValueError(f"{len(bots)} bots for {len(bot_names)} seats")
    views = [View(game, i) for i in range(len(bots))]
    actions = 0
    turn, closed_at = game.turn, 0  # the turn being played; the action count when the last one closed
    while not game.is_over and game.turn <= max_turns:
        actor = game.to_act
        action = bots[actor].choose(views[actor])
        game.apply(action)
        actions += 1
        if on_turn_end is not None and game.turn != turn:
            on_turn_end(game, turn, actions)
            turn, closed_at = game.turn, actions
    if on_turn_end is not None and game.is_over and actions != closed_at:
        on_turn_end(game, turn, actions)  # the winning turn, which no next turn closed
    winner = game.winner
    report = GameReport(
        seed=seed,
        winner=winner,
        winner_name=None if winner is None else players[winner],
        winner_bot=None if winner is None else bot_names[winner],
        turns=turns_played(game, max_turns),
        actions=actions,
        players=tuple(players),
        bots=tuple(bot_names),
    )
    return game, report


picklable(GameReport)
