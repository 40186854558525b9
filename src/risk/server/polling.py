"""A server process's background work that looks at the database now and then (the notifier, quick
match): a step run in a thread every ``poll_s`` seconds, or at once when woken, until stopped."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable


class Polling:
    """Runs ``step`` in a worker thread, again and again; ``waiting``: the failures that mean the
    database cannot be reached (said as a warning: the work waits), any other is logged and the loop
    goes on."""

    def __init__(
        self,
        name: str,
        step: Callable[[], object],
        poll_s: float,
        waiting: tuple[type[Exception], ...],
        log: logging.Logger,
    ) -> None:
        self.name, self.step, self.poll_s = name, step, poll_s
        self.waiting, self.log = waiting, log
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    def start(self) -> None:
        self._stopping = False
        self._wake = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.create_task(self._run(), name=self.name)

    def wake(self) -> None:
        """Run a step soon, not a poll later: from any thread (a request's worker thread too)."""
        if self._wake is not None and self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._wake.set)

    async def stop(self) -> None:
        # The flag as well as the cancel: the loop ends even if the cancel is lost (Python 3.11's
        # asyncio.wait_for could drop one that came as its waiter finished: the shutdown hung).
        self._stopping = True
        if self._task is not None:
            if self._wake is not None:
                self._wake.set()
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._task = None

    async def _run(self) -> None:
        assert self._wake is not None
        while not self._stopping:
            try:
                await asyncio.to_thread(self.step)
            except self.waiting as exc:  # the database is down: everything waits
                self.log.warning("%s waits: %s", self.name, exc)
            except Exception:
                self.log.exception("the %s failed; it goes on", self.name)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.poll_s):
                    await self._wake.wait()
            self._wake.clear()
