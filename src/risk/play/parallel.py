"""Where many games run: in this process, in a pool of local processes, or on Ray.

Tournaments (:mod:`risk.play.tournament`) and batch simulation (:mod:`risk.play.batch`) hand
:func:`run_jobs` a function that plays one game and the games' jobs; it yields each game's outcome as
it finishes, in any order. A game whose function raises is an outcome with an error (the exception's
type and message), never the end of the run: the other games play on. Every backend plays the same
games (a job carries its own seed), so they give the same results; only their order of arrival differs.

- ``local``: one worker plays the games in this process; more start a process pool whose workers die
  with this process, even when it is killed (:func:`die_with_parent`).
- ``ray``: the games are Ray tasks (:mod:`risk.play.ray_backend`), on a local Ray started for the run or on
  the cluster at ``address``. Ray is an optional dependency, imported only then.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from risk.play.jobs import BackendError, Outcome, attempt

BACKENDS = ("local", "ray")

Job = TypeVar("Job")
Result = TypeVar("Result")


def check_backend(backend: str, address: str | None, workers: int | None) -> None:
    """Refuse a backend or its options that cannot work, before any game is played."""
    if backend not in BACKENDS:
        raise BackendError(f"--backend {backend!r}: choose {' or '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise BackendError("--address names a Ray cluster: it goes with --backend ray")
    if workers is not None and workers < 1:
        raise BackendError("--workers must be at least 1")
    if backend == "ray":
        from risk.play.ray_backend import import_ray

        import_ray()  # installed? Said now, before anything is written


def run_jobs(
    play: Callable[[Job], Result],
    jobs: Sequence[Job],
    *,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
) -> Iterator[Outcome[Result]]:
    """Run ``play`` on every job and yield the outcomes as they finish.

    ``play`` and the jobs must pickle (a module-level function, plain data). ``workers``: locally, the
    processes (default 1: this process); on Ray, the most games in flight at once (default: twice the
    cluster's CPUs, enough to keep them busy). :class:`BackendError` when the backend cannot start.
    """
    check_backend(backend, address, workers)  # here, not at the first game: the caller's error at once
    if backend == "ray":
        from risk.play.ray_backend import run_on_ray

        return run_on_ray(play, jobs, in_flight=workers, address=address)
    if workers is None or workers == 1:
        return (Outcome(position, *attempt(play, job)) for position, job in enumerate(jobs))
    return _run_in_pool(play, jobs, workers)


def _run_in_pool(
    play: Callable[[Job], Result], jobs: Sequence[Job], workers: int
) -> Iterator[Outcome[Result]]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    # Fork where there is one: works from any script (spawn needs a __main__ guard); the workers
    # only play games, so no lock held by the parent's progress thread is ever needed there.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=die_with_parent, initargs=(os.getpid(),)
    ) as pool:
        futures = {pool.submit(attempt, play, job): position for position, job in enumerate(jobs)}
        for future in as_completed(futures):
            yield Outcome(futures[future], *future.result())


# ---------------------------------------------------------------------------------------------
# worker lifetime: a pool's workers die with the run that started them
# ---------------------------------------------------------------------------------------------
PR_SET_PDEATHSIG = 1  # linux/prctl.h
PARENT_POLL_SECONDS = 0.5


def die_with_parent(parent_pid: int) -> None:
    """Make this worker process exit when ``parent_pid`` (the tournament) dies, even by SIGKILL,
    which runs no clean-up in the parent: a killed tournament must not leave its games playing on.

    On Linux the kernel sends SIGKILL at the parent's death (``prctl(PR_SET_PDEATHSIG)``); everywhere,
    a daemon thread also watches for this process being re-parented, the portable fallback."""
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # no prctl here (an unusual libc): the watching thread below still works
    watch_parent(parent_pid)


def watch_parent(parent_pid: int) -> None:
    """Exit this process (within PARENT_POLL_SECONDS) once it is no longer ``parent_pid``'s child."""
    if os.getppid() != parent_pid:  # the parent died already, before the watch could start
        os._exit(1)
    threading.Thread(target=_exit_when_orphaned, args=(parent_pid,), name="watch-parent", daemon=True).start()


def _exit_when_orphaned(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)  # no clean-up: the results had nowhere to go


__all__ = [
    "BACKENDS",
    "BackendError",
    "Outcome",
    "check_backend",
    "die_with_parent",
    "run_jobs",
    "watch_parent",
]
