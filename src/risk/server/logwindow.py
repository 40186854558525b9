"""A live game's public log, of which memory keeps only the newest lines.

A game's log grows by one or two lines an action, and a long game runs to thousands of actions: held
whole, the logs of the games being played were most of the server's memory (docs/reliability.md,
"Load"), and every page that connected was sent all of it, though a page shows the last 400 lines.
So memory keeps a window of the newest lines, a page is sent the newest ``PAGE``, and the positions
stay those of the whole log: ``len(log)`` is the whole log's length, an index or a slice counts from
its first line, and a page is told where the lines it gets begin (``log_start`` in the state
message). The whole game is in its record; the window never drops a line an undo may still need.

Under fog of war each line has its readers (``seen_by``, :mod:`risk.narrate`): the window takes them
off the lines it is given and keeps them apart, for every line of the whole log (an int a line), so
the lines it hands out never carry them. A seat shown only its lines counts positions in its own
lines (:meth:`LogWindow.seat_lines`, :meth:`LogWindow.position_for`): a position in the whole log would
tell it how many lines it was not shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, overload

from risk.rules.variants.fog import EVERYONE, sees

# A page is sent at most the newest PAGE lines (it shows 400). Memory holds at least HELD, and drops
# the oldest once SLACK more have piled up (in batches, not line by line), but never the PAGE lines
# before a place an undo may cut the log back to: so what a page is sent depends only on the log, not
# on when lines were dropped (a server that reloads a game sends pages the same lines).
PAGE = 400
HELD = 1000
SLACK = 500

Line = dict[str, Any]
SEEN_BY = "seen_by"  # a line's readers as it comes from the narration (fog of war); never sent


def _readers(line: Line) -> tuple[Line, int]:
    """The line without its readers, and its readers (``EVERYONE`` when it names none)."""
    if SEEN_BY not in line:
        return line, EVERYONE
    bare = dict(line)
    return bare, int(bare.pop(SEEN_BY))


class LogWindow:
    """The newest lines of a log whose first ``base`` lines are no longer held."""

    __slots__ = ("_lines", "_seen_by", "base")

    def __init__(self, lines: Iterable[Line] = ()) -> None:
        self.base = 0
        self._lines: list[Line] = []
        self._seen_by: list[int] = []  # every line's readers, from the first line of the whole log
        self.extend(lines)

    def __len__(self) -> int:
        """The whole log's length, the lines dropped included."""
        return self.base + len(self._lines)

    def __eq__(self, other: object) -> bool:
        """The same log: the same lines from the same position (a list is a log from its start)."""
        if isinstance(other, LogWindow):
            return self.base == other.base and self._lines == other._lines and self._seen_by == other._seen_by
        if isinstance(other, list):
            return self.base == 0 and self._lines == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # it changes

    def __repr__(self) -> str:
        return f"LogWindow(from line {self.base}, {len(self._lines)} lines held)"

    def __iter__(self) -> Iterator[Line]:
        """The lines held, oldest first."""
        return iter(self._lines)

    def _held(self, index: int | None) -> int | None:
        """A position in the whole log as a position in the held lines (negative: from the end)."""
        if index is None or index < 0:
            return index
        return max(0, index - self.base)

    @overload
    def __getitem__(self, index: int) -> Line: ...
    @overload
    def __getitem__(self, index: slice) -> list[Line]: ...
    def __getitem__(self, index: int | slice) -> Line | list[Line]:
        if isinstance(index, slice):
            if index.step not in (None, 1):
                raise ValueError("a log is sliced in order")
            return self._lines[self._held(index.start) : self._held(index.stop)]
        if 0 <= index < self.base:
            raise IndexError(f"log line {index} is no longer held (the log holds from line {self.base})")
        held = self._held(index)
        assert held is not None
        return self._lines[held]

    def __delitem__(self, index: slice) -> None:
        """Cut the log back: ``del log[n:]`` (an undo). ``n`` must be held or at the end."""
        if not isinstance(index, slice) or index.stop is not None or index.step not in (None, 1):
            raise ValueError("a log is only cut back from a position to its end")
        start = index.start or 0
        if start < self.base:
            raise IndexError(f"cannot cut the log back to line {start}: it holds from line {self.base}")
        del self._lines[start - self.base :]
        del self._seen_by[start:]

    def copy(self) -> LogWindow:
        """The same log, apart: what a reader outside the game's lock reads while the log grows."""
        copied = LogWindow()
        copied.base, copied._lines, copied._seen_by = self.base, list(self._lines), list(self._seen_by)
        return copied

    def append(self, line: Line) -> None:
        bare, readers = _readers(line)
        self._lines.append(bare)
        self._seen_by.append(readers)

    def extend(self, lines: Iterable[Line]) -> None:
        for line in lines:
            self.append(line)

    def with_readers(self, start: int) -> list[Line]:
        """The lines from ``start`` with their readers, as the narration gave them (an undo's line
        says again what the lines it takes back said, to the seats that read them)."""
        held = self._held(start) or 0
        return [
            line if readers == EVERYONE else line | {SEEN_BY: readers}
            for line, readers in zip(self._lines[held:], self._seen_by[self.base + held :], strict=True)
        ]

    # -- a seat's own lines (fog of war) -----------------------------------------------------------
    def position_for(self, seat: int, position: int) -> int:
        """A position of the whole log in ``seat``'s lines: how many of the lines before it it may read."""
        return sum(1 for readers in self._seen_by[: max(0, position)] if sees(readers, seat))

    def seat_lines(self, seat: int, start: int) -> tuple[int, list[Line]]:
        """The lines ``seat`` (-1: a spectator) may read, for a page that has them up to ``start`` (a
        position in its lines): where the lines sent begin, in its lines (as :meth:`start_from`), and
        the lines."""
        first = self.position_for(seat, self.base)  # its lines no longer held
        total = first + sum(1 for readers in self._seen_by[self.base :] if sees(readers, seat))
        begin = max(start, total - PAGE, first)
        lines, count = [], first
        for line, readers in zip(self._lines, self._seen_by[self.base :], strict=True):
            if sees(readers, seat):
                if count >= begin:
                    lines.append(line)
                count += 1
        return begin, lines

    def start_from(self, start: int) -> int:
        """Where the lines sent to a page that has the log up to ``start`` begin: there, or the
        newest ``PAGE`` lines if it is further behind."""
        return max(start, len(self) - PAGE, self.base)

    def trim(self, keep_from: int | None = None) -> None:
        """Drop the oldest lines beyond ``HELD`` (once ``SLACK`` more have piled up), keeping the
        ``PAGE`` lines before ``keep_from`` (the earliest place an undo may cut the log back to)."""
        if len(self._lines) <= HELD + SLACK:
            return
        drop = len(self._lines) - HELD
        if keep_from is not None:
            drop = min(drop, keep_from - PAGE - self.base)
        if drop > 0:
            del self._lines[:drop]
            self.base += drop


__all__ = ["HELD", "PAGE", "SEEN_BY", "LogWindow"]
