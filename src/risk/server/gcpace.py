"""Short garbage-collector pauses for a server that holds many long games (docs/reliability.md, "Load").

CPython's full collection walks every object that can be in a reference cycle. A server with 200 games
in play holds their histories (about 100,000 actions, several objects each) and paused 300 to 400 ms
at each full collection, a dozen times in four minutes: the players' slowest acknowledgements. After
each full collection the survivors, mostly game histories that live as long as their games, are
frozen (``gc.freeze``), so the next full collections walk only what came after them. Frozen objects
are still freed by reference counting when their game is dropped; only garbage in reference cycles
among them waits until the next thaw: every ``THAW_EVERY`` seconds everything is unfrozen and the
following full collection walks it all once.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Callable
from typing import Any

THAW_EVERY = 600.0  # seconds between full collections that walk the frozen objects too


class CollectorPacer:
    """Freezes what survives each full collection (in the event loop, never inside the collector)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, clock: Callable[[], float] = time.monotonic) -> None:
        self.loop = loop
        self.clock = clock
        self.thawed_at = clock()
        self.freezes = 0

    def install(self) -> None:
        gc.callbacks.append(self._collected)

    def uninstall(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._collected)
        gc.unfreeze()

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and info.get("generation") == 2:
            with contextlib.suppress(RuntimeError):  # the loop closed at shutdown
                self.loop.call_soon_threadsafe(self.after_full_collection)

    def after_full_collection(self) -> None:
        if self.clock() - self.thawed_at >= THAW_EVERY:
            gc.unfreeze()  # the next full collection walks everything, and frees any cycles
            self.thawed_at = self.clock()
            return
        gc.freeze()
        self.freezes += 1
