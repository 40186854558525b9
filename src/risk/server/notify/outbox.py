"""The durable outbox: the players' subscriptions and the messages waiting to go, in the game database.

Delivery is at least once, with a duplicate-suppression key: an event is queued once per subscription
(the ``key`` column is unique, so the same move heard by several server processes, or twice after a
restart, queues one row), a sender claims rows before sending (one transaction that marks them
``sending`` with a lease: on PostgreSQL ``FOR UPDATE SKIP LOCKED``, on SQLite the single write lock),
and marks them ``sent`` after the channel accepted the message. A sender killed between the two sends
the message again once the lease has run out, with the same Message-ID (made from the key of the
oldest row in the message), which mail clients use to show one copy.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

from risk.server.sql import notify_subscriptions as subs
from risk.server.sql import outbox

PAUSE_AFTER = 5  # failures in a row before a subscription is paused (the player told on their next visit)
LEASE_S = 120.0  # a claimed row not marked sent by then is claimable again (its sender died)


class OutboxError(Exception):
    """The database could not be reached: the caller tries again later (nothing is lost)."""


@dataclass(frozen=True)
class Subscription:
    id: str
    game_id: str
    seat: int
    channel: str
    address: str
    seat_token: str
    site: str
    every_s: float
    failures: int
    paused: bool
    last_sent: float | None
    retry_at: float | None


@dataclass(frozen=True)
class Event:
    """Something a seat is told: ``key`` is stable for the event (the same move heard twice: one key)."""

    game_id: str
    seat: int
    kind: str  # move, defend, attacked, end, remind
    key: str
    text: str
    due: float | None = None  # not sent before (a reminder); None: at once


@dataclass(frozen=True)
class Queued:
    id: int
    key: str
    kind: str
    text: str
    attempts: int


def memory_engine() -> Engine:
    """The outbox of a server whose games are in memory: lost with it, as its games are."""
    engine = sa.create_engine("sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False})
    subs.metadata.create_all(engine, tables=[subs, outbox])
    return engine


def _subscription(row: sa.RowMapping) -> Subscription:
    return Subscription(**{name: row[name] for name in Subscription.__dataclass_fields__})


class Outbox:
    """Subscriptions and queued messages; every method is one transaction (OutboxError if it fails)."""

    def __init__(self, engine: Engine, *, origin: str | None = None) -> None:
        self.engine = engine
        self.backend = engine.dialect.name
        self.origin = origin or secrets.token_hex(8)  # names this process's claims
        # One connection shared by every thread (a memory store): one transaction at a time.
        self._serial = threading.Lock() if isinstance(engine.pool, StaticPool) else None

    @contextlib.contextmanager
    def _transaction(self, write: bool = False) -> Iterator[Connection]:
        with self._serial or contextlib.nullcontext():
            try:
                with self.engine.connect() as conn:
                    if write:
                        conn.execution_options(risk_write=True)  # SQLite: BEGIN IMMEDIATE
                    with conn.begin():
                        yield conn
            except SQLAlchemyError as exc:
                raise OutboxError(f"the outbox could not be reached: {type(exc).__name__}") from exc

    def _insert(self) -> sa.Insert:
        return (pg_insert if self.backend == "postgresql" else sqlite_insert)(outbox)

    # -- subscriptions ---------------------------------------------------------------------------
    def subscribe(
        self,
        game_id: str,
        seat: int,
        channel: str,
        address: str,
        seat_token: str,
        site: str,
        every_s: float,
        now: float,
    ) -> Subscription:
        """Set a seat's channel (replacing its address and pace; a paused one starts again)."""
        values = {
            "address": address,
            "seat_token": seat_token,
            "site": site,
            "every_s": every_s,
            "failures": 0,
            "paused": False,
            "retry_at": None,
        }
        where = (subs.c.game_id == game_id) & (subs.c.seat == seat) & (subs.c.channel == channel)
        with self._transaction(write=True) as conn:
            if conn.execute(sa.update(subs).where(where).values(**values)).rowcount == 0:
                conn.execute(
                    sa.insert(subs).values(
                        id=secrets.token_urlsafe(24),
                        game_id=game_id,
                        seat=seat,
                        channel=channel,
                        created=now,
                        **values,
                    )
                )
            row = conn.execute(sa.select(subs).where(where)).mappings().one()
        return _subscription(row)

    def subscription(self, game_id: str, seat: int, channel: str) -> Subscription | None:
        where = (subs.c.game_id == game_id) & (subs.c.seat == seat) & (subs.c.channel == channel)
        with self._transaction() as conn:
            row = conn.execute(sa.select(subs).where(where)).mappings().one_or_none()
        return None if row is None else _subscription(row)

    def unsubscribe(self, game_id: str, seat: int, channel: str) -> bool:
        where = (subs.c.game_id == game_id) & (subs.c.seat == seat) & (subs.c.channel == channel)
        with self._transaction(write=True) as conn:
            return conn.execute(sa.delete(subs).where(where)).rowcount > 0

    def unsubscribe_by_id(self, subscription_id: str) -> bool:
        """The unsubscribe link's way (no seat token): its queued messages go with it."""
        with self._transaction(write=True) as conn:
            return conn.execute(sa.delete(subs).where(subs.c.id == subscription_id)).rowcount > 0

    def forget_game(self, game_id: str) -> int:
        """The game is over: the addresses whose last messages are gone, and the paused ones (their
        player told nothing more can go), are deleted."""
        unsent = sa.select(outbox.c.id).where(
            (outbox.c.subscription_id == subs.c.id) & outbox.c.status.in_(("queued", "sending"))
        )
        with self._transaction(write=True) as conn:
            query = sa.delete(subs).where((subs.c.game_id == game_id) & (subs.c.paused | ~sa.exists(unsent)))
            return conn.execute(query).rowcount

    def subscribed_games(self) -> list[str]:
        with self._transaction() as conn:
            return list(conn.execute(sa.select(subs.c.game_id).distinct()).scalars())

    # -- events ----------------------------------------------------------------------------------
    def enqueue(self, events: Sequence[Event], now: float) -> int:
        """Queue each event for the seat's subscriptions (none: nothing), once per key."""
        # A read first: most games have no subscription, and a write takes SQLite's one write lock,
        # which the moves' commits wait for.
        games = sorted({event.game_id for event in events})
        with self._transaction() as conn:
            told = set(conn.execute(sa.select(subs.c.game_id).where(subs.c.game_id.in_(games))).scalars())
        events = [event for event in events if event.game_id in told]
        if not events:
            return 0
        queued = 0
        with self._transaction(write=True) as conn:
            for event in events:
                chosen = sa.select(
                    (sa.literal(event.key + ":") + subs.c.id).label("key"),
                    subs.c.id.label("subscription_id"),
                    sa.literal(event.kind).label("kind"),
                    sa.literal(event.text).label("text"),
                    sa.literal("queued").label("status"),
                    sa.literal(now if event.due is None else max(now, event.due)).label("due"),
                    sa.literal(0).label("attempts"),
                    sa.literal(now).label("created"),
                ).where((subs.c.game_id == event.game_id) & (subs.c.seat == event.seat))
                columns = ["key", "subscription_id", "kind", "text", "status", "due", "attempts", "created"]
                insert = self._insert().from_select(columns, chosen)
                statement = insert.on_conflict_do_nothing(index_elements=["key"])  # type: ignore[attr-defined]
                queued += max(conn.execute(statement).rowcount, 0)
        return queued

    # -- sending ---------------------------------------------------------------------------------
    def claim(self, now: float, limit: int = 20) -> dict[Subscription, list[Queued]]:
        """The rows due (or whose sender's lease ran out) of up to ``limit`` subscriptions not paused,
        marked ``sending`` by this process: no other sender takes them before the lease runs out."""
        ready = ((outbox.c.status == "queued") & (outbox.c.due <= now)) | (
            (outbox.c.status == "sending") & (outbox.c.claimed_until < now)
        )
        # Every due row of a subscription together (one message for all of them), the subscription's
        # row locked: on PostgreSQL another sender skips it until this claim is committed.
        chosen = (
            sa.select(subs.c.id)
            .where(
                ~subs.c.paused
                & (subs.c.retry_at.is_(None) | (subs.c.retry_at <= now))  # a failure's backoff
                & sa.exists().where(ready & (outbox.c.subscription_id == subs.c.id))
            )
            .limit(limit)
        )
        if self.backend == "postgresql":
            chosen = chosen.with_for_update(skip_locked=True)
        # A read first: most passes find nothing due, and a claim takes SQLite's write lock.
        with self._transaction() as conn:
            if conn.execute(sa.select(outbox.c.id).where(ready).limit(1)).first() is None:
                return {}
        with self._transaction(write=True) as conn:
            owners = list(conn.execute(chosen).scalars())
            query = sa.select(outbox.c.id).where(ready & outbox.c.subscription_id.in_(owners))
            ids = list(conn.execute(query.order_by(outbox.c.id)).scalars())
            if not ids:
                return {}
            conn.execute(
                sa.update(outbox)
                .where(outbox.c.id.in_(ids))
                .values(status="sending", claimed_by=self.origin, claimed_until=now + LEASE_S)
            )
            rows = conn.execute(
                sa.select(outbox).where(outbox.c.id.in_(ids)).order_by(outbox.c.id)
            ).mappings()
            queued = list(rows)
            found = conn.execute(sa.select(subs).where(subs.c.id.in_(owners))).mappings()
            by_id = {row["id"]: _subscription(row) for row in found}
        claimed: dict[Subscription, list[Queued]] = {}
        for row in queued:
            claimed.setdefault(by_id[row["subscription_id"]], []).append(
                Queued(row["id"], row["key"], row["kind"], row["text"], row["attempts"])
            )
        return claimed

    def sent(self, sub: Subscription, rows: Sequence[Queued], now: float) -> None:
        with self._transaction(write=True) as conn:
            conn.execute(
                sa.update(outbox)
                .where(outbox.c.id.in_([r.id for r in rows]))
                .values(status="sent", sent_at=now, claimed_by=None, claimed_until=None)
            )
            conn.execute(
                sa.update(subs).where(subs.c.id == sub.id).values(failures=0, last_sent=now, retry_at=None)
            )

    def skipped(self, rows: Sequence[Queued]) -> None:
        """Not sent, and never will be: the player saw it on the page, or it is no longer true (the
        move was made, the defence rolled)."""
        with self._transaction(write=True) as conn:
            conn.execute(
                sa.update(outbox)
                .where(outbox.c.id.in_([r.id for r in rows]))
                .values(status="skipped", claimed_by=None, claimed_until=None)
            )

    def later(self, rows: Sequence[Queued], due: float) -> None:
        """Back in the queue until ``due`` (the subscription's pace, the player's page open, a
        reminder whose deadline moved), not counted as an attempt."""
        with self._transaction(write=True) as conn:
            conn.execute(
                sa.update(outbox)
                .where(outbox.c.id.in_([r.id for r in rows]))
                .values(status="queued", due=due, claimed_by=None, claimed_until=None)
            )

    def failed(self, sub: Subscription, rows: Sequence[Queued], due: float) -> bool:
        """The channel refused or could not be reached: the rows wait until ``due``; the subscription
        is paused after PAUSE_AFTER failures in a row (its rows kept). True if it is paused now."""
        with self._transaction(write=True) as conn:
            conn.execute(
                sa.update(outbox)
                .where(outbox.c.id.in_([r.id for r in rows]))
                .values(
                    status="queued",
                    due=due,
                    attempts=outbox.c.attempts + 1,
                    claimed_by=None,
                    claimed_until=None,
                )
            )
            failures = conn.execute(
                sa.update(subs)
                .where(subs.c.id == sub.id)
                .values(
                    failures=subs.c.failures + 1,
                    paused=subs.c.failures + 1 >= PAUSE_AFTER,
                    retry_at=due,  # the subscription's later events wait too: one backoff, not one each
                )
                .returning(subs.c.failures)
            ).scalar_one_or_none()
        return failures is not None and failures >= PAUSE_AFTER

    def counts(self) -> dict[str, int]:
        """How many rows in each status (for tests and the host's log)."""
        with self._transaction() as conn:
            rows = conn.execute(sa.select(outbox.c.status, sa.func.count()).group_by(outbox.c.status)).all()
        return {status: count for status, count in rows}
