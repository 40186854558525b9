"""What every part of a game at the terminal shares (:class:`Context`): the game, who sits where,
how players look, who is at the keyboard, and the screen that gathers what to show next. The parts
(questions, reports, commands, standing orders, saving) each hold the same context."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.console import RenderableType
from rich.text import Text

from risk.bots import bot_label
from risk.rules.game import Game
from risk.tui.render import ClearScreen, Palette, stack_text
from risk.tui.rounds import Rounds
from risk.tui.seats import HUMAN, Seat
from risk.tui.shortforms import Choice, trade_choices
from risk.view import SPECTATOR, View


@dataclass
class Screen:
    """What to show next: renderables gathered until the session hands them out with ``take``."""

    quiet: bool = False  # no human left: the bots play on without a running commentary
    output: list[RenderableType] = field(default_factory=list)

    def say(self, renderable: RenderableType) -> None:
        if not self.quiet:
            self.output.append(renderable)

    def warn(self, message: str) -> None:
        self.say(Text(message, style="red"))

    def clear_first(self) -> None:
        """Hot-seat: clear the screen before what is gathered, so that whatever the last player
        typed or was shown stays theirs."""
        self.output.insert(0, ClearScreen())

    def take(self) -> list[RenderableType]:
        output, self.output = self.output, []
        return output


class Context:
    """The game and its seats, as every part of a session reads them."""

    def __init__(self, game: Game, seats: Sequence[Seat]) -> None:
        if len(seats) != game.humans:
            raise ValueError(f"{len(seats)} seats for {game.humans} players")
        self.game = game
        self.seats = list(seats)
        self.humans = [i for i, seat in enumerate(self.seats) if seat.is_human]
        labels = [
            ("you" if len(self.humans) == 1 else HUMAN) if seat.is_human else f"bot: {bot_label(seat.kind)}"
            for seat in self.seats
        ]
        labels += ["neutral"] * (len(game.players) - game.humans)
        self.palette = Palette.for_players(game.players, labels, game.neutral, game.team)
        self.viewer = self.humans[0] if self.humans else SPECTATOR  # whose screen it is now
        self.screen = Screen()
        self.rounds = Rounds(game)  # rounds as players count them (game.turn counts player-turns)
        self.finished = False

    @property
    def hotseat(self) -> bool:
        """Whether several humans share the keyboard (and so the screen)."""
        return len(self.humans) > 1

    @property
    def fogged(self) -> bool:
        """Whether fog of war hides part of the board now (a fogged game that is not over)."""
        return self.game.rules.fog == "on" and not self.game.is_over

    def view(self) -> View:
        """The game as the player at the keyboard sees it."""
        return View(self.game, self.viewer)

    def human_to_act(self) -> bool:
        """Whether a human must answer now (the game goes on and a human's seat is to act)."""
        return not self.game.is_over and self.seats[self.game.to_act].is_human

    def holders(self, territory: int) -> tuple[int, ...]:
        """Whose armies are in ``territory``: its owner; in Team RISK every seat with armies there."""
        game = self.game
        if game.units is None:
            return (game.owner[territory],)
        return tuple(p for p, count in enumerate(game.units[territory]) if count)

    def armies_in(self, territory: int) -> Text:
        """A territory's armies: a count; in Team RISK by player where it is shared ('Ann 3+Cy 2')."""
        game = self.game
        if game.units is None or len(self.holders(territory)) < 2:
            return Text(str(game.armies[territory]))
        return stack_text(self.view(), self.palette, territory)

    def trade_commands(self) -> list[Choice]:
        """The sets the player at the keyboard could trade, each once, with what it gives."""
        if self.viewer < 0 or self.game.is_over:
            return []
        return trade_choices(self.game, self.viewer)
