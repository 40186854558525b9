"""The terminal game: ``risk play``.

- :mod:`risk.tui.session`: :class:`PlaySession`, the game at the keyboard without a terminal
  (one line in, rich renderables out), so it can be tested and reused.
- :mod:`risk.tui.render`: the map, players, hand and status as rich renderables, from a View.
- :mod:`risk.tui.summary`: what an action did, and one-line summaries of turns.
- :mod:`risk.tui.command`: the ``play`` command (``register(app)``), reading lines and printing.
- :mod:`risk.tui.rounds`: rounds as players count them, from the engine's player-turns.
- :mod:`risk.tui.saves`: where games save themselves, and the list of recent saves.
"""

from risk.tui.session import PlaySession, Seat, make_seats

__all__ = ["PlaySession", "Seat", "make_seats"]
