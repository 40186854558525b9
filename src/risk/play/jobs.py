"""One game's run, as every backend reports it (:mod:`risk.play.parallel`, :mod:`risk.play.ray_backend`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

Job = TypeVar("Job")
Result = TypeVar("Result")


class BackendError(ValueError):
    """A backend that cannot run (Ray not installed, a cluster out of reach); the message says why."""


@dataclass(frozen=True, slots=True)
class Outcome(Generic[Result]):
    """One job's end: its position in the list of jobs, and its result or the error that stopped it."""

    position: int
    result: Result | None
    error: str | None = None


def attempt(play: Callable[[Job], Result], job: Job) -> tuple[Result | None, str | None]:
    """``play(job)``, with any exception turned into its one-line description (run in the worker)."""
    try:
        return play(job), None
    except Exception as error:  # any bug of one game: reported with its game, not fatal to the run
        return None, describe_error(error)


def describe_error(error: BaseException) -> str:
    first_line = (str(error).strip().splitlines() or [""])[0]
    return f"{type(error).__name__}: {first_line}" if first_line else type(error).__name__


__all__ = ["BackendError", "Outcome", "attempt", "describe_error"]
