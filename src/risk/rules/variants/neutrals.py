"""2-player RISK: neutral armies in the seats after the players, and the setup that places them."""

from __future__ import annotations

from collections import deque
from typing import Annotated, Any

from risk.rules.state import Kept, State


def _copy_queue(queue: deque[tuple[int, int]] | None) -> deque[tuple[int, int]] | None:
    return None if queue is None else deque(queue)


def _save_queue(queue: deque[tuple[int, int]] | None, state: Any) -> Any:
    return None if queue is None else [list(step) for step in queue]


def _load_queue(value: Any, state: Any) -> deque[tuple[int, int]] | None:
    return None if value is None else deque((a, b) for a, b in value)


class NeutralState(State):
    __slots__ = ()
    # The 2-player setup: the order of placements, as (player placing, seat whose army it is).
    _setup_queue: Annotated[
        deque[tuple[int, int]] | None,
        Kept(_copy_queue, _save_queue, _load_queue, absent=lambda seats: None),
    ]
