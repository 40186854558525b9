"""The numbered choices at the terminal: the menu shown to the human who must act, and picking
from it by number."""

from __future__ import annotations

from rich.text import Text

from risk.tui.context import Context
from risk.tui.render import hint, menu_renderable, render_text
from risk.tui.shortforms import Choice, choices


class Menu:
    """The choices on screen: a short list just shown (e.g. sets to trade), or every action."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self._forced: list[Choice] | None = None  # a menu of a few actions, e.g. sets
        self._key: tuple[int, int] | None = None  # (history length, player) of the menu shown

    def _state(self) -> tuple[int, int]:
        game = self.context.game
        return len(game.history), game.to_act

    def entries(self) -> list[Choice]:
        """The numbered choices on screen: a short list just shown (e.g. sets), or every action."""
        if self._forced is not None and self._key == self._state():
            return self._forced
        self._forced = None
        return choices(self.context.game)

    def show(
        self, title: str | None = None, entries: list[Choice] | None = None, room: int | None = None
    ) -> None:
        """The numbered choices; with ``room``, only if they fit in that many lines of 80 columns
        (else a line that says `moves` lists them), so that `help` fits a terminal of 80 by 24."""
        context = self.context
        if context.finished or not context.human_to_act():
            return
        menu_entries = self.entries() if entries is None else entries
        menu = menu_renderable(menu_entries, title or f"Your choices ({len(menu_entries)}); type a number:")
        if room is not None and len(render_text([menu], 80).splitlines()) > room:
            context.screen.say(hint(f"Your choices ({len(menu_entries)}): `moves` lists them, numbered."))
            return
        self._forced = None if entries is None else entries
        self._key = self._state()
        context.screen.say(menu)

    def pick(self, number: int) -> str | None:
        """The command numbered ``number`` on screen (echoed), or None, with the choices again, when
        there is no such choice or the game has moved on since they were shown."""
        entries = self.entries()
        current = self._key == self._state()
        if not current or not 1 <= number <= len(entries):
            self.context.screen.warn(
                f"There is no choice {number}." if current else "Pick from the current choices:"
            )
            self.show()
            return None
        command = entries[number - 1][0]
        self.context.screen.say(Text(f"> {command}", style="dim"))
        return command
