"""How the seats and the turn clock plug into the game master: the interface they implement
(:class:`TableHooks`) and what they may ask of the master (:class:`Table`).

The master calls each plugged-in module's hooks, in order, at each point of a game's life: an action
replayed while loading, the game loaded, caught up with another server process, an action accepted
and stored, a change that is no action (a seat taken, an undo), a player's own move before it is
tried, and the state message. A hook a module does not need does nothing. The modules never import
the master: they are given it as a :class:`Table`, and the master alone decides which are plugged in
(``GameMaster(hooks=...)``; by default the seats, then the clock).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar

from risk.server.live import LiveGame, Pending
from risk.server.storage import ActionRecord, SeatRecord, Storage
from risk.view import View

T = TypeVar("T")


class Table(Protocol):
    """The game master, as the modules plugged into it see it."""

    storage: Storage
    clock: Callable[[], float]  # the server's clock (seconds; tests set it)

    def live(self, game_id: str) -> LiveGame: ...

    def seat_of(self, game_id: str, token: str | None) -> int: ...

    def submit_as(self, game_id: str, seat: int, text: str, state_id: int | None) -> int: ...

    def store(self, operation: Callable[[], T]) -> T: ...

    def store_seat(self, live: LiveGame, seat: SeatRecord) -> None: ...

    def commit_batch(self, live: LiveGame, seat: int, texts: list[str], at: float) -> int: ...

    def transaction(self, live: LiveGame) -> AbstractContextManager[Pending]:
        """A change to ``live`` stored in one commit when it ends (joining the one under way, if any)."""
        ...


class TableHooks:
    """A module plugged into the game master. Each hook does nothing unless the module overrides it;
    the master calls them with the game's lock held, and those that follow a change inside its
    transaction: what they store (``table.store_seat``, a note, the clock) is stored with the change,
    in the same commit."""

    def replayed(self, live: LiveGame, action: ActionRecord) -> None:
        """Each stored action as a game is loaded, after it is applied."""

    def loaded(self, table: Table, live: LiveGame, opening: int) -> None:
        """After loading (``opening``: the log's length before the first action)."""

    def caught_up(self, table: Table, live: LiveGame, log_before: int) -> None:
        """After another server process's change was replayed here (risk.server.feed; ``log_before``:
        the log's length before it)."""

    def after_action(self, table: Table, live: LiveGame, action: ActionRecord) -> None:
        """An action was accepted and stored (the first of a batch: the player's own move)."""

    def after_change(self, table: Table, live: LiveGame, at: float, *, fresh: bool) -> None:
        """The position changed with no action: an undo, or the last open seat taken (``fresh``: the
        game starts)."""

    def check_move(self, live: LiveGame, seat: int, text: str) -> None:
        """A player's own move (its token checked), before it is tried: a Refusal if it may not be sent."""

    def message(self, table: Table, live: LiveGame, view: View) -> dict[str, Any]:
        """This module's part of the state message of the seat whose ``view`` is given (under fog of
        war, it tells that seat nothing of another player's turn that its view does not)."""
        return {}
