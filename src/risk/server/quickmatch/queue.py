"""Quick match's matching, without a database: who waits for what, how far apart in rating they may be
(a range that widens as they wait), and which groups are formed (docs/web.md, "Quick match").

A player waits in one queue: a game type, a player count and a pace. The range around a player's
rating (OpenSkill's mu in the queue's family and pace, risk.server.ratings) starts at
:attr:`Pace.start` and widens by :attr:`Pace.step` each :attr:`Pace.every_s` of waiting; past
:attr:`Pace.anyone_after_s` anyone will do. A group is formed when enough players fit in the range of
each of them: no one is matched with a player further from them than their own range allows.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from risk.rules.options import GAMES


@dataclass(frozen=True)
class Pace:
    """A queue's pace: how its range widens, and the clock of the games it makes."""

    name: str
    start: float  # the range at first: mu this far either side
    step: float  # widened by this much...
    every_s: float  # ...each this many seconds of waiting
    anyone_after_s: float  # then, anyone
    turn_time: float  # the games' turn clock (risk.server.timing)
    time_bank: float = 0.0
    vacation_days: float = 0.0


PACES: dict[str, Pace] = {
    # Played at one sitting: three minutes a turn, five more in all; the range widens fast, since
    # the players are looking at the page.
    "live": Pace(
        "live", start=2.0, step=2.0, every_s=10.0, anyone_after_s=90.0, turn_time=180.0, time_bank=300.0
    ),
    # Over days: a day a turn, a week of vacation; the players come back later, so the range can
    # take its time.
    "days": Pace(
        "days",
        start=2.0,
        step=2.0,
        every_s=900.0,
        anyone_after_s=6 * 3_600.0,
        turn_time=86_400.0,
        vacation_days=7.0,
    ),
}


def edition_of(game: str) -> str:
    """The edition a quick match of ``game`` is played in: the newest that has it."""
    return GAMES[game][-1]


@dataclass(frozen=True)
class Waiting:
    """One waiting entry of a queue."""

    entry: int
    account: str
    mu: float
    queued: float


def rating_range(pace: Pace, waited_s: float) -> float:
    """How far from a player's rating their match may be after ``waited_s`` in the queue."""
    if waited_s >= pace.anyone_after_s:
        return math.inf
    return pace.start + pace.step * math.floor(max(waited_s, 0.0) / pace.every_s)


def form_groups(
    waiting: Sequence[Waiting],
    size: int,
    pace: Pace,
    now: float,
    apart: Collection[frozenset[str]] = frozenset(),
) -> list[tuple[Waiting, ...]]:
    """The groups of ``size`` that the queue makes now, the longest waiting served first: each takes
    the players nearest in rating to the one who waited longest, while every member stays within the
    range of every other. ``apart``: pairs of accounts never put together (one blocked the other)."""
    order = sorted(waiting, key=lambda w: (w.queued, w.entry))
    ranges = {w.entry: rating_range(pace, now - w.queued) for w in order}
    by_mu = sorted(order, key=lambda w: (w.mu, w.queued, w.entry))
    place = {w.entry: at for at, w in enumerate(by_mu)}
    used: set[int] = set()
    groups: list[tuple[Waiting, ...]] = []
    for first in order:
        if first.entry in used:
            continue
        group = [first]
        for candidate in _nearest(by_mu, place[first.entry], used, ranges[first.entry]):
            if len(group) == size:
                break
            if any(
                candidate.account == member.account or frozenset((candidate.account, member.account)) in apart
                for member in group
            ):
                continue
            members = [*group, candidate]
            spread = max(m.mu for m in members) - min(m.mu for m in members)
            if spread <= min(ranges[m.entry] for m in members):
                group.append(candidate)
        if len(group) == size:
            groups.append(tuple(group))
            used.update(m.entry for m in group)
    return groups


def _nearest(by_mu: Sequence[Waiting], at: int, used: Collection[int], reach: float) -> Iterator[Waiting]:
    """The players not yet in a group nearest in rating to ``by_mu[at]``, nearest first (the one who
    waited longer on a tie), no further than ``reach``: walked outwards from it in the list sorted by
    rating, so that a long queue of players far apart costs a step of the queue little (every member
    of a group is within the first one's range)."""
    centre = by_mu[at].mu
    left, right = at - 1, at + 1
    left_run: list[Waiting] = []  # the next players below with one rating, the longest waiting last
    while True:
        if not left_run:
            while left >= 0 and by_mu[left].entry in used:
                left -= 1
            if left >= 0:
                mu, top = by_mu[left].mu, left
                while left >= 0 and by_mu[left].mu == mu:
                    left -= 1
                run = [w for w in by_mu[left + 1 : top + 1] if w.entry not in used]
                left_run = sorted(run, key=lambda w: (w.queued, w.entry), reverse=True)
        while right < len(by_mu) and by_mu[right].entry in used:
            right += 1
        below = left_run[-1] if left_run and centre - left_run[-1].mu <= reach else None
        above = by_mu[right] if right < len(by_mu) and by_mu[right].mu - centre <= reach else None
        if below is None and above is None:
            return
        if above is None or (
            below is not None
            and (centre - below.mu, below.queued, below.entry)
            < (above.mu - centre, above.queued, above.entry)
        ):
            assert below is not None
            left_run.pop()
            yield below
        else:
            right += 1
            yield above
