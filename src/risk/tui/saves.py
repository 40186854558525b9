"""Where `risk play` keeps games: every game is saved as it goes, by default in the user's data
folder (``platformdirs.user_data_dir("risk")/saves/``), so that no game is lost; ``risk play
--load`` with no file lists the recent ones.

A save is a plain game record (``risk.record``) with comment lines, which records ignore: the
seats' kinds (for ``--load``), a status line for the list ("round 5 · Ann to act · reinforce"),
and the session's settings that outlast a line typed (:class:`SavedSettings`). Listing reads only
the header and the comment lines: no game is replayed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import platformdirs

from risk.errors import RecordError
from risk.record import parse_name, parse_names

SEATS_COMMENT = "# risk play seats:"
STATUS_COMMENT = "# risk play status:"
AUTODEFEND_COMMENT = "# risk play autodefend:"
AUTOPILOT_COMMENT = "# risk play auto:"
SUFFIX = ".risk"
# The comment lines come last in a save: the list of saves reads them from its last lines.
COMMENT_LINES = 8


@dataclass
class SavedSettings:
    """What a game at the terminal keeps across ``--load`` besides its record and its seats: who
    defends with the most dice unasked (``autodefend``: "from then on"), and whose setup or turn the
    computer is playing (``auto``: "the rest of your setup, or the rest of your turn"). Players are
    seat indexes (written counted from 1, as on the command line); a save without these lines
    (an older one) has none."""

    auto_defenders: set[int] = field(default_factory=set)
    autopilot: dict[int, int | None] = field(default_factory=dict)  # player -> turn (None: the setup)

    def comments(self) -> str:
        """The comment lines that keep these settings in a save ("" when there are none)."""
        lines = []
        if self.auto_defenders:
            lines.append(f"{AUTODEFEND_COMMENT} {','.join(str(p + 1) for p in sorted(self.auto_defenders))}")
        if self.autopilot:
            plays = ",".join(
                f"{p + 1}={'setup' if turn is None else turn}" for p, turn in sorted(self.autopilot.items())
            )
            lines.append(f"{AUTOPILOT_COMMENT} {plays}")
        return "".join(f"{line}\n" for line in lines)

    @classmethod
    def from_record(cls, text: str) -> SavedSettings:
        """The settings a save names; anything unreadable there is left out (the game still loads)."""
        settings = cls()
        for line in text.splitlines()[-COMMENT_LINES:]:
            if line.startswith(AUTODEFEND_COMMENT):
                seats = [seat.strip() for seat in line[len(AUTODEFEND_COMMENT) :].split(",")]
                settings.auto_defenders = {int(seat) - 1 for seat in seats if seat.isdigit() and int(seat)}
            elif line.startswith(AUTOPILOT_COMMENT):
                for entry in line[len(AUTOPILOT_COMMENT) :].split(","):
                    seat, _, turn = (part.strip() for part in entry.partition("="))
                    if seat.isdigit() and int(seat) and (turn == "setup" or turn.isdigit()):
                        settings.autopilot[int(seat) - 1] = None if turn == "setup" else int(turn)
        return settings


def saves_dir() -> Path:
    """The folder of saved games (created when a game is first saved there)."""
    return Path(platformdirs.user_data_dir("risk")) / "saves"


def new_save_path(directory: Path, game_kind: str, seed: int) -> Path:
    """A file name for a new game that no other game has: '20250301-142530-world-seed42.risk'."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = directory / f"{stamp}-{game_kind}-seed{seed}{SUFFIX}"
    number = 2
    while path.exists():
        path = directory / f"{stamp}-{game_kind}-seed{seed}-{number}{SUFFIX}"
        number += 1
    return path


@dataclass(frozen=True)
class SaveInfo:
    """What the list of saves shows of one file."""

    path: Path
    modified: float
    rules: str
    players: str
    result: str
    seats: str
    status: str

    def describe(self) -> str:
        """'2025-03-01 14:25 · Ann, Bob, Cy · round 5 · Ann to act · reinforce'."""
        when = datetime.fromtimestamp(self.modified).strftime("%Y-%m-%d %H:%M")
        state = f"won by {self.result}" if self.result not in ("", "unfinished") else self.status
        return " · ".join(part for part in (when, self.players, state or "unfinished") if part)

    def details(self) -> str:
        """'rules 2008 · 20250301-142530-world-seed42.risk'."""
        return f"rules {self.rules} · {self.path.name}" if self.rules else self.path.name


def read_save_info(path: Path) -> SaveInfo | None:
    """The header and comment lines of a saved game; None when it is no game record."""
    try:
        text = path.read_text(encoding="utf-8")
        modified = path.stat().st_mtime
    except (OSError, UnicodeDecodeError):
        return None
    lines = text.splitlines()
    if not lines or not lines[0].strip().lower().startswith("risk"):
        return None
    fields: dict[str, str] = {}
    for line in lines[1:]:
        if line.strip() == "---" or not line.strip():
            break
        key, _, value = line.partition(":")
        fields[key.strip().lower()] = value.strip()
    seats = status = ""
    for line in reversed(lines[-COMMENT_LINES:]):
        if line.startswith(SEATS_COMMENT):
            seats = line[len(SEATS_COMMENT) :].strip()
        elif line.startswith(STATUS_COMMENT):
            status = line[len(STATUS_COMMENT) :].strip()
    if "players" not in fields:
        return None
    try:  # names as the record writes them: '"A#n", Bob' lists as 'A#n, Bob'
        players, result = ", ".join(parse_names(fields["players"])), parse_name(fields.get("result", ""))
    except RecordError:
        players, result = fields["players"], fields.get("result", "")
    return SaveInfo(
        path=path,
        modified=modified,
        rules=fields.get("rules", ""),
        players=players,
        result=result,
        seats=seats,
        status=status,
    )


def recent_saves(directory: Path, limit: int = 10, unfinished_only: bool = False) -> list[SaveInfo]:
    """The most recently saved games in ``directory``, newest first."""
    try:
        files = [p for p in directory.iterdir() if p.suffix == SUFFIX and p.is_file()]
    except OSError:
        return []
    infos = [info for p in files if (info := read_save_info(p)) is not None]
    if unfinished_only:
        infos = [info for info in infos if info.result in ("", "unfinished")]
    infos.sort(key=lambda info: info.modified, reverse=True)
    return infos[:limit]
