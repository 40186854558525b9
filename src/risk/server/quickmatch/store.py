"""Quick match's queue in the game database (SQLite or PostgreSQL, shared by every server process), so
that no entry is lost across a restart and no entry is matched twice, whichever process matches.

An entry goes ``waiting`` -> ``matched`` (claimed for a game, its seat's token sealed beside it) ->
``placed`` (the game exists); or ``waiting`` -> ``left``. A claim changes each of its entries only
where it is still waiting, in one transaction: if any was taken or left meanwhile, nothing is claimed.
A game is made from its claimed entries alone, so any process may make (or finish making) it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from risk.server.accounts.store import EngineStore
from risk.server.quickmatch.queue import Waiting
from risk.server.ratings.model import MU
from risk.server.sql import account_blocks, accounts, quick_match, ratings

WAITING, MATCHED, PLACED, LEFT = "waiting", "matched", "placed", "left"
SHOWN_FOR_S = 86_400.0  # an account's matched entries are listed for a day after


class QuickMatchStoreError(Exception):
    """The database could not be reached."""


class Conflict(Exception):
    """A claim met an entry no longer waiting: nothing was claimed."""


@dataclass(frozen=True, order=True)
class Queue:
    game: str
    players: int
    pace: str


@dataclass(frozen=True)
class Entry:
    id: int
    account: str
    queue: Queue
    queued: float
    status: str
    game_id: str | None
    seat: int | None
    token: str | None  # sealed
    updated: float


def _entry(row: sa.RowMapping) -> Entry:
    return Entry(
        id=int(row["id"]),
        account=str(row["account_id"]),
        queue=Queue(str(row["game"]), int(row["players"]), str(row["pace"])),
        queued=float(row["queued"]),
        status=str(row["status"]),
        game_id=row["game_id"],
        seat=row["seat"],
        token=row["token"],
        updated=float(row["updated"]),
    )


class QuickMatchStore(EngineStore):
    failure = QuickMatchStoreError

    def join(
        self, account: str, queue: Queue, now: float, *, most: int, most_live: int
    ) -> tuple[Entry, bool]:
        """The account waits in ``queue``: its entry, and whether it is new (joining a queue it waits
        in already answers that entry). ``most``: the queues an account may wait in at once,
        ``most_live`` of them at the live pace (a :class:`Conflict` past either)."""
        where = (
            (quick_match.c.account_id == account)
            & (quick_match.c.status == WAITING)
            & (quick_match.c.game == queue.game)
            & (quick_match.c.players == queue.players)
            & (quick_match.c.pace == queue.pace)
        )
        try:
            with self._begin(write=True) as connection:
                row = connection.execute(sa.select(quick_match).where(where)).mappings().first()
                if row is not None:
                    return _entry(row), False
                paces = list(
                    connection.execute(
                        sa.select(quick_match.c.pace).where(
                            quick_match.c.account_id == account, quick_match.c.status == WAITING
                        )
                    ).scalars()
                )
                if len(paces) >= most:
                    raise Conflict(f"you wait in {len(paces)} queues already: leave one first")
                if queue.pace == "live" and paces.count("live") >= most_live:
                    raise Conflict("you wait for a live game already: one live queue at a time")
                connection.execute(
                    quick_match.insert().values(
                        account_id=account,
                        game=queue.game,
                        players=queue.players,
                        pace=queue.pace,
                        queued=now,
                        status=WAITING,
                        updated=now,
                    )
                )
                row = connection.execute(sa.select(quick_match).where(where)).mappings().one()
                return _entry(row), True
        except IntegrityError:  # the same join, at the same time, from another request: that one
            with self._begin() as connection:
                row = connection.execute(sa.select(quick_match).where(where)).mappings().one()
            return _entry(row), False

    def leave(self, account: str, entry: int, now: float) -> bool:
        """The account's waiting entry ends; False if it was not waiting (matched already, or gone)."""
        with self._begin(write=True) as connection:
            changed = connection.execute(
                sa.update(quick_match)
                .where(
                    quick_match.c.id == entry,
                    quick_match.c.account_id == account,
                    quick_match.c.status == WAITING,
                )
                .values(status=LEFT, updated=now)
            ).rowcount
        return bool(changed)

    def entries_of(self, account: str, now: float) -> list[Entry]:
        """The account's waiting entries and those matched within the last day, newest first."""
        with self._begin() as connection:
            rows = connection.execute(
                sa.select(quick_match)
                .where(
                    quick_match.c.account_id == account,
                    (quick_match.c.status == WAITING)
                    | (
                        quick_match.c.status.in_((MATCHED, PLACED))
                        & (quick_match.c.updated >= now - SHOWN_FOR_S)
                    ),
                )
                .order_by(quick_match.c.queued.desc(), quick_match.c.id.desc())
            ).mappings()
            return [_entry(row) for row in rows]

    def queues(self) -> list[Queue]:
        """The queues someone waits in."""
        with self._begin() as connection:
            rows = connection.execute(
                sa.select(quick_match.c.game, quick_match.c.players, quick_match.c.pace)
                .where(quick_match.c.status == WAITING)
                .distinct()
            )
            return sorted(Queue(str(r.game), int(r.players), str(r.pace)) for r in rows)

    def waiting(self, queue: Queue, family: str) -> list[Waiting]:
        """Who waits in ``queue``, each with their rating's mu in ``family`` and the queue's pace (a
        new player's if they have none yet)."""
        rated = ratings.alias()
        with self._begin() as connection:
            rows = connection.execute(
                sa.select(quick_match.c.id, quick_match.c.account_id, quick_match.c.queued, rated.c.mu)
                .select_from(
                    quick_match.outerjoin(
                        rated,
                        (rated.c.account_id == quick_match.c.account_id)
                        & (rated.c.family == family)
                        & (rated.c.pace == quick_match.c.pace),
                    )
                )
                .where(
                    quick_match.c.status == WAITING,
                    quick_match.c.game == queue.game,
                    quick_match.c.players == queue.players,
                    quick_match.c.pace == queue.pace,
                )
            )
            return [
                Waiting(int(r.id), str(r.account_id), MU if r.mu is None else float(r.mu), float(r.queued))
                for r in rows
            ]

    def claim(self, game_id: str, seats: Sequence[tuple[int, str]], now: float) -> bool:
        """Claim the entries ``seats`` (entry id, sealed token; seat i for the i-th) for ``game_id``,
        all or none: False if one of them was no longer waiting."""
        try:
            with self._begin(write=True) as connection:
                for seat, (entry, token) in enumerate(seats):
                    changed = connection.execute(
                        sa.update(quick_match)
                        .where(quick_match.c.id == entry, quick_match.c.status == WAITING)
                        .values(status=MATCHED, game_id=game_id, seat=seat, token=token, updated=now)
                    ).rowcount
                    if changed != 1:
                        raise Conflict(f"entry {entry} is no longer waiting")
        except Conflict:
            return False
        return True

    def claimed(self, game_id: str) -> list[Entry]:
        """The entries claimed for ``game_id``, by seat."""
        with self._begin() as connection:
            rows = connection.execute(
                sa.select(quick_match).where(quick_match.c.game_id == game_id).order_by(quick_match.c.seat)
            ).mappings()
            return [_entry(row) for row in rows]

    def placed(self, game_id: str, now: float) -> None:
        with self._begin(write=True) as connection:
            connection.execute(
                sa.update(quick_match)
                .where(quick_match.c.game_id == game_id, quick_match.c.status == MATCHED)
                .values(status=PLACED, updated=now)
            )

    def release(self, game_id: str, now: float) -> None:
        """The entries claimed for a game that cannot be made wait again, as they were (an entry whose
        player joined the same queue again meanwhile ends: they wait there already)."""
        with self._begin(write=True) as connection:
            for entry in (
                connection.execute(
                    sa.select(quick_match).where(
                        quick_match.c.game_id == game_id, quick_match.c.status == MATCHED
                    )
                )
                .mappings()
                .all()
            ):
                again = connection.execute(
                    sa.select(quick_match.c.id).where(
                        quick_match.c.account_id == entry["account_id"],
                        quick_match.c.status == WAITING,
                        quick_match.c.game == entry["game"],
                        quick_match.c.players == entry["players"],
                        quick_match.c.pace == entry["pace"],
                    )
                ).first()
                values: dict[str, object] = (
                    {"status": LEFT}
                    if again
                    else {"status": WAITING, "game_id": None, "seat": None, "token": None}
                )
                connection.execute(
                    sa.update(quick_match)
                    .where(quick_match.c.id == entry["id"])
                    .values(updated=now, **values)
                )

    def unplaced(self, before: float) -> list[str]:
        """The games claimed before ``before`` and not yet made (a process stopped between the two)."""
        with self._begin() as connection:
            return list(
                connection.execute(
                    sa.select(quick_match.c.game_id)
                    .where(quick_match.c.status == MATCHED, quick_match.c.updated < before)
                    .distinct()
                ).scalars()
            )

    def blocks_among(self, account_ids: Sequence[str]) -> set[frozenset[str]]:
        """The pairs of these accounts one of whom blocked the other (docs/web.md, "Fair play"): never
        put in one game."""
        ids = list(account_ids)
        with self._begin() as connection:
            rows = connection.execute(
                sa.select(account_blocks.c.blocker_id, account_blocks.c.blocked_id).where(
                    account_blocks.c.blocker_id.in_(ids), account_blocks.c.blocked_id.in_(ids)
                )
            )
            return {frozenset((str(r.blocker_id), str(r.blocked_id))) for r in rows}

    def names(self, account_ids: Sequence[str]) -> dict[str, str]:
        with self._begin() as connection:
            rows = connection.execute(
                sa.select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(list(account_ids)))
            )
            return {str(r.id): str(r.name) for r in rows}

    def addresses(self, account_ids: Sequence[str]) -> dict[str, tuple[str, str]]:
        """The e-mail address and site of each account that gave one (its notifications' link)."""
        with self._begin() as connection:
            rows = connection.execute(
                sa.select(accounts.c.id, accounts.c.email, accounts.c.site).where(
                    accounts.c.id.in_(list(account_ids)), accounts.c.email.is_not(None)
                )
            )
            return {str(r.id): (str(r.email), str(r.site or "")) for r in rows if r.email}

    def waiting_counts(self) -> dict[Queue, int]:
        """How many wait in each queue someone waits in."""
        with self._begin() as connection:
            rows = connection.execute(
                sa.select(quick_match.c.game, quick_match.c.players, quick_match.c.pace, sa.func.count())
                .where(quick_match.c.status == WAITING)
                .group_by(quick_match.c.game, quick_match.c.players, quick_match.c.pace)
            )
            return {Queue(str(r[0]), int(r[1]), str(r[2])): int(r[3]) for r in rows}
