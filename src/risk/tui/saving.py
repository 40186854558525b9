"""Saving a game at the terminal as it goes: where (:attr:`Saver.save_file`), when (after each line
that moved the game on), and how to resume it. The files and their comment lines are
:mod:`risk.tui.saves`'."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path

from rich.text import Text

from risk.record import write_record
from risk.rules.game import Game
from risk.textfile import write_text_file
from risk.tui.context import Context
from risk.tui.orders import StandingOrders
from risk.tui.render import hint, phase_label
from risk.tui.saves import SEATS_COMMENT, STATUS_COMMENT, SavedSettings, new_save_path, saves_dir
from risk.tui.seats import Seat


def record_text(
    game: Game, seats: Sequence[Seat], status: str = "", settings: SavedSettings | None = None
) -> str:
    """The game's full record, with a comment naming each player's kind (for ``--load``), one
    saying where the game is (for the list of saves), and the session's settings."""
    text = write_record(game) + f"{SEATS_COMMENT} {','.join(seat.kind for seat in seats)}\n"
    text += f"{STATUS_COMMENT} {status}\n" if status else ""
    return text + (settings.comments() if settings is not None else "")


def seat_kinds_in_record(text: str) -> list[str] | None:
    """The seat kinds a saved game names in its comment, if it has one."""
    for line in text.splitlines():
        if line.startswith(SEATS_COMMENT):
            kinds = [kind.strip() for kind in line[len(SEATS_COMMENT) :].split(",")]
            return kinds if all(kinds) else None
    return None


class Saver:
    """Writes the session's game: to ``save_path`` if given, else back to ``loaded_from``, else to a
    new file in ``directory``; ``autosave``: after every line that moved the game on."""

    def __init__(
        self,
        context: Context,
        orders: StandingOrders,
        *,
        save_path: Path | None,
        directory: Path,
        loaded_from: Path | None,
        autosave: bool,
    ) -> None:
        self.context = context
        self.orders = orders
        self.save_path = save_path
        self.directory = directory
        self.loaded_from = loaded_from  # where a resumed game came from: `save` alone writes it back
        self.autosave = autosave
        self._save_file: Path | None = None  # chosen on first use (see save_file)
        self._saved_at = len(context.game.history)

    @property
    def save_file(self) -> Path:
        """Where the game is saved: ``save_path``, else the file it was loaded from, else a new file
        in ``directory``."""
        if self._save_file is None:
            if self.save_path is not None:
                self._save_file = self.save_path
            elif self.loaded_from is not None:
                self._save_file = self.loaded_from
            else:
                game = self.context.game
                self._save_file = new_save_path(self.directory, game.rules.game, game.seed)
        return self._save_file

    @property
    def unsaved(self) -> bool:
        """Whether the game has moved on since it was last written."""
        return len(self.context.game.history) != self._saved_at

    @property
    def keeps_the_game(self) -> bool:
        """Whether leaving writes the game (saving as it goes, or ``--save`` given)."""
        return self.autosave or self.save_path is not None

    def status_text(self) -> str:
        """Where the game is, for the list of saves: 'round 5 · Ann to act · reinforce'."""
        game = self.context.game
        if game.is_over:
            return "over" if game.winner is None else f"won by {game.players[game.winner]}"
        when = f"round {self.context.rounds.current}" if game.turn else "setup"
        return f"{when} · {game.players[game.to_act]} to act · {phase_label(game.phase)}"

    def write(self, path: Path) -> bool:
        """Write the game to ``path``; a failure is shown, not raised."""
        context = self.context
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            text = record_text(context.game, context.seats, self.status_text(), self.orders.saved_settings())
            write_text_file(path, text)  # whole or not at all: never an empty or half-written save
        except OSError as error:
            context.screen.warn(f"Could not write {path}: {error.strerror or error}.")
            return False
        except UnicodeEncodeError as error:
            context.screen.warn(f"Could not write {path}: the game's text is not UTF-8 ({error.reason}).")
            return False
        self._saved_at = len(context.game.history)
        return True

    def autosave_now(self) -> None:
        """Save the game if it has moved on since it was last saved (see ``autosave``)."""
        if not self.autosave or self.context.finished or not self.unsaved:
            return
        if not self.write(self.save_file):
            self.autosave = False
            self.context.screen.warn(
                "Saving as you play is off for this game; `save FILE` saves it elsewhere."
            )

    def resume_command(self, path: Path | None = None) -> Text:
        """'Resume with: COMMAND' for the game saved in ``path`` (default: ``save_file``): `risk play
        --load` alone when it is among the saves listed there, else with the file's full path, quoted
        for the shell, so that it can be copied and run from any folder."""
        path = path or self.save_file
        if path.parent.resolve() == saves_dir().resolve():
            return hint(
                "Resume with: `risk play --load` (it lists your recent games; Enter picks the newest)."
            )
        command = f"risk play --load {shlex.quote(str(path.resolve()))}"
        return Text.assemble("Resume with: ", (command, "bold"))  # no full stop: it would join the path

    def save(self, path: Path | None) -> None:
        """`save [FILE]`: write the game now, and say how to resume it."""
        target = path or self.save_file
        if self.write(target):
            self.context.screen.say(Text.assemble("Saved to ", (str(target), "bold"), "."))
            self.context.screen.say(self.resume_command(target))
