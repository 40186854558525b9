"""The collector pacer (risk.server.gcpace): what survives a full collection is frozen, in the event
loop; every THAW_EVERY seconds everything is thawed so reference cycles among old objects are freed."""

from __future__ import annotations

import asyncio
import gc

from risk.server.gcpace import THAW_EVERY, CollectorPacer


def test_survivors_of_a_full_collection_are_frozen_and_thawed_in_time() -> None:
    async def scenario() -> tuple[int, int, int]:
        now = [0.0]
        pacer = CollectorPacer(asyncio.get_running_loop(), clock=lambda: now[0])
        pacer.install()
        try:
            kept = [[i] for i in range(1000)]  # long-lived objects, like a game's history
            gc.collect()
            await asyncio.sleep(0)  # the freeze runs in the loop, after the collector
            frozen = gc.get_freeze_count()
            now[0] = THAW_EVERY + 1
            gc.collect()
            await asyncio.sleep(0)
            thawed = gc.get_freeze_count()
            gc.collect()
            await asyncio.sleep(0)
            again = gc.get_freeze_count()
            assert len(kept) == 1000
            return frozen, thawed, again
        finally:
            pacer.uninstall()

    frozen, thawed, again = asyncio.run(scenario())
    assert frozen >= 1000  # the survivors, the kept lists among them, left the collector's walks
    assert thawed == 0  # time to walk everything once: all thawed
    assert again >= 1000  # and frozen again after that full collection
    assert gc.get_freeze_count() == 0  # uninstalled: nothing stays frozen


def test_a_cycle_among_frozen_objects_is_freed_after_the_thaw() -> None:
    import weakref

    class Node:
        """An object that can be in a reference cycle."""

    async def scenario() -> bool:
        now = [0.0]
        pacer = CollectorPacer(asyncio.get_running_loop(), clock=lambda: now[0])
        pacer.install()
        try:
            a, b = Node(), Node()
            a.other, b.other = b, a  # type: ignore[attr-defined]
            watch = weakref.ref(a)
            gc.collect()
            await asyncio.sleep(0)  # frozen, with the cycle
            del a, b
            gc.collect()
            await asyncio.sleep(0)
            if watch() is None:
                return False  # it was not frozen: nothing to show
            now[0] = THAW_EVERY + 1
            gc.collect()
            await asyncio.sleep(0)  # thawed
            gc.collect()
            return watch() is None
        finally:
            pacer.uninstall()

    assert asyncio.run(scenario())
