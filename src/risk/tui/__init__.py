"""The terminal game: ``risk play``.

- :mod:`risk.tui.session`: :class:`PlaySession`, the game at the keyboard without a terminal
  (one line in, rich renderables out), so it can be tested and reused. It reads a line and plays
  on; its parts share one :mod:`risk.tui.context` (the game, the seats, the screen):
  :mod:`risk.tui.questions` (what the human who must act is asked, one handler a phase),
  :mod:`risk.tui.meta` (the commands typed by word, a table from word to handler),
  :mod:`risk.tui.report` (what happened, turn by turn), :mod:`risk.tui.orders` (blitz, queued
  placements, automatic defence, `auto`), :mod:`risk.tui.menu` (numbered choices),
  :mod:`risk.tui.saving` (saving as it goes) and :mod:`risk.tui.seats` (who plays each seat).
- :mod:`risk.tui.shortforms`: the typed commands and their short forms, read into actions.
- :mod:`risk.tui.render`: the map, players, hand and status as rich renderables, from a View.
- :mod:`risk.tui.summary`: what an action did, and one-line summaries of turns.
- :mod:`risk.tui.command`: the ``play`` command (``register(app)``), reading lines and printing.
- :mod:`risk.tui.rounds`: rounds as players count them, from the engine's player-turns.
- :mod:`risk.tui.saves`: where games save themselves, and the list of recent saves.
"""

from risk.tui.seats import Seat, make_seats
from risk.tui.session import PlaySession

__all__ = ["PlaySession", "Seat", "make_seats"]
