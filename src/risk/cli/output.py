"""The rich consoles that the `risk` commands print through.

On a terminal, rich fits the output to the window. In a pipe or a file there is no window, and rich
would fit it to 80 columns all the same: long lines wrapped in two, table cells cut short with "…".
There, text is never wrapped (soft wrap) and tables may be as wide as their contents.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # rich is imported when a command prints, not when `risk` starts
    from rich.console import Console

# The width a table may take when the output is not a terminal: more than any table's contents.
UNBOUNDED_WIDTH = 100_000


def output_console(*, stderr: bool = False, highlight: bool = True) -> Console:
    """A console on standard output (or error): the terminal look on a terminal, whole lines elsewhere."""
    from rich.console import Console

    console = Console(stderr=stderr, highlight=highlight)
    if not console.is_terminal:
        console.width = UNBOUNDED_WIDTH
        console.soft_wrap = True
    return console


__all__ = ["UNBOUNDED_WIDTH", "output_console"]
