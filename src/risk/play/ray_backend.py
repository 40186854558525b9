"""Games as Ray tasks: the ``ray`` backend of :func:`risk.play.parallel.run_jobs`.

Ray (``pip install 'risk[ray]'``) is imported here only, and only when a run asks for it, so that
``import risk`` never needs it. A run uses the Ray this process is already connected to (a notebook's,
a test's), else connects to ``address`` (a cluster's head node; else ``RAY_ADDRESS``, as in a Ray
job), else starts a local Ray for the run alone, even where another Ray runs; what it started, it
shuts down at the end, so no Ray process outlives the run.

Each game is one task (one CPU). A task that raises is an outcome with its error; a task whose worker
dies is retried by Ray on another worker (a node lost mid-run), and reported as failed only if that
fails too. The games are deterministic (a job carries its seed), so a retried game plays the same.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from risk.play.jobs import BackendError, Outcome, attempt, describe_error

if TYPE_CHECKING:
    from types import ModuleType

Job = TypeVar("Job")
Result = TypeVar("Result")

REACH_TIMEOUT = 5.0  # seconds to open a connection to the cluster's address before giving up
ADDRESS_FORMS = "host:port (the head node's GCS port, 6379 unless changed), ray://host:port or auto"


def import_ray() -> ModuleType:
    try:
        import ray
    except ImportError:
        message = "--backend ray needs Ray, which is not installed: pip install 'risk[ray]'"
        raise BackendError(message) from None
    return ray


def check_reachable(address: str) -> None:
    """A clear error at once for an address nothing answers at: ``ray.init`` itself would retry for
    minutes and then exit the process."""
    if address in ("auto", "local"):
        return  # found through the files of a Ray started on this machine; ray.init says if there is none
    host, port_text = address.removeprefix("ray://").rpartition(":")[::2]
    if not host or not port_text.isdigit() or "/" in host:
        raise BackendError(f"--address {address!r}: give {ADDRESS_FORMS}")
    try:
        with socket.create_connection((host.strip("[]"), int(port_text)), timeout=REACH_TIMEOUT):
            pass
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise BackendError(f"cannot reach a Ray cluster at {address}: {reason}") from None


@contextmanager
def connected(address: str | None) -> Iterator[Any]:
    """Ray, connected: to what this process already uses, to ``address``, or to a new local Ray."""
    ray = import_ray()
    if address is not None:
        check_reachable(address)
    if ray.is_initialized():
        yield ray
        return
    if address is None and not os.environ.get("RAY_ADDRESS"):
        # A Ray of the run's own, even when another runs here (`ray start`: join it with --address auto).
        address = "local"
    try:
        ray.init(
            address=address,
            include_dashboard=False,
            logging_level=logging.ERROR,
            log_to_driver=False,
            configure_logging=True,
        )
    except (Exception, SystemExit) as error:  # ray.init exits the process on some failures
        where = f"the Ray cluster at {address}" if address not in (None, "local") else "a local Ray"
        hint = ""
        if address not in (None, "auto", "local") and "RAY_AUTH_MODE" not in os.environ:
            # Ray sends its token to an address given by name only when told to (RAY_AUTH_MODE=token).
            hint = "; a cluster with token authentication also needs RAY_AUTH_MODE=token and its token"
        raise BackendError(f"cannot start or join {where}: {describe_error(error)}{hint}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


def run_on_ray(
    play: Callable[[Job], Result],
    jobs: Sequence[Job],
    *,
    in_flight: int | None = None,
    address: str | None = None,
) -> Iterator[Outcome[Result]]:
    """Each job as a Ray task; at most ``in_flight`` at once (default: twice the cluster's CPUs)."""
    with connected(address) as ray:
        task = ray.remote(attempt)
        limit = in_flight or max(1, 2 * int(ray.cluster_resources().get("CPU", 1)))
        pending: dict[Any, int] = {}
        waiting = iter(enumerate(jobs))
        try:
            while True:
                for position, job in waiting:
                    pending[task.remote(play, job)] = position
                    if len(pending) >= limit:
                        break
                if not pending:
                    return
                [done], _ = ray.wait(list(pending), num_returns=1)
                position = pending.pop(done)
                try:
                    result, error = ray.get(done)
                except ray.exceptions.RayError as failure:  # the worker died, twice over
                    result, error = None, f"the Ray task failed: {describe_error(failure)}"
                yield Outcome(position, result, error)
        finally:
            for reference in pending:  # stopped early (an interrupt): nothing left running
                ray.cancel(reference, force=True)


__all__ = ["check_reachable", "connected", "import_ray", "run_on_ray"]
