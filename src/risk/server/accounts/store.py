"""Accounts, their sessions and the failed sign-ins, in the game database (SQLite or PostgreSQL, one
for every server process; a server whose games are in memory keeps its accounts in memory too).

Nothing secret is stored as it is: a password only as its argon2id hash (risk.server.accounts.service),
a session's token only as its SHA-256 (the cookie holds the token). Names are unique by their key
(risk.server.accounts.names.name_key): the database's unique index decides a race of two sign-ups.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

from risk.server.auth import hash_token
from risk.server.sql import (
    account_blocks,
    account_sessions,
    accounts,
    chat_mutes,
    chat_reports,
    game_bans,
    password_resets,
    quick_match,
    rated_games,
    rating_history,
    ratings,
    sign_in_failures,
)

SESSION_IDLE_S = 30 * 86_400.0  # a session not used for 30 days ends
SEEN_EVERY_S = 3_600.0  # a session's last use is written at most once an hour
RESET_S = 3_600.0  # a password reset link works for an hour, once
MAX_RESETS = 3  # reset links an account may be sent within RESET_S
MAX_BLOCKS = 500  # accounts one account may block


class AccountStoreError(Exception):
    """The database could not be reached: the caller says "try again" (nothing was changed)."""


class NameTaken(Exception):
    """Another account has this name, or one that looks the same."""


class TooManyBlocks(Exception):
    """The account has blocked :data:`MAX_BLOCKS` accounts already."""


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    name_key: str
    password: str  # the argon2id hash
    email: str | None
    created: float
    site: str | None = None  # where a reset link points (sql.accounts.site)

    def shown(self) -> dict[str, Any]:
        """What the account's own player is shown (never the hash)."""
        return {"name": self.name, "email": self.email, "created": self.created}


@dataclass(frozen=True)
class Session:
    account: Account
    csrf: str
    token_hash: str


def memory_engine() -> Engine:
    """The accounts (their ratings, quick match entries and fair-play tables, which name them) of a
    server whose games are in memory: lost with it, as its games are."""
    engine = sa.create_engine("sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False})
    tables = [
        accounts,
        account_sessions,
        sign_in_failures,
        password_resets,
        ratings,
        rating_history,
        rated_games,
        quick_match,
        account_blocks,
        chat_mutes,
        chat_reports,
        game_bans,
    ]
    accounts.metadata.create_all(engine, tables=tables)
    return engine


class EngineStore:
    """A store of tables in the game database (the accounts', the ratings'): its transactions, with the
    database's failures raised as :attr:`failure` (a key refused passes through as IntegrityError)."""

    failure: type[Exception] = AccountStoreError

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # One connection shared by every thread (the in-memory database): one transaction at a time.
        self._one_at_a_time = threading.Lock() if isinstance(engine.pool, StaticPool) else None

    @contextlib.contextmanager
    def _begin(self, write: bool = False) -> Iterator[Connection]:
        """A transaction; ``write``: one that writes (SQLite takes its write lock at BEGIN, waiting for
        it, where a reading transaction that writes later may fail at once)."""
        try:
            with self._one_at_a_time or contextlib.nullcontext(), self.engine.connect() as connection:
                if write:
                    connection.execution_options(risk_write=True)
                with connection.begin():
                    yield connection
        except IntegrityError:
            raise
        except SQLAlchemyError as error:
            raise self.failure(str(error)) from None


class AccountStore(EngineStore):
    # -- accounts -------------------------------------------------------------------------------------
    def create(
        self,
        name: str,
        name_key: str,
        password_hash: str,
        email: str | None,
        now: float,
        site: str | None = None,
    ) -> Account:
        account = Account(secrets.token_hex(16), name, name_key, password_hash, email, now, site)
        try:
            with self._begin(write=True) as connection:
                if connection.execute(
                    sa.select(accounts.c.id).where(accounts.c.name_key == name_key)
                ).first():
                    raise NameTaken(name)
                connection.execute(
                    accounts.insert().values(
                        id=account.id,
                        name=name,
                        name_key=name_key,
                        password=password_hash,
                        email=email,
                        created=now,
                        site=site,
                    )
                )
        except IntegrityError:  # the other of two sign-ups at once took it
            raise NameTaken(name) from None
        return account

    def by_key(self, name_key: str) -> Account | None:
        with self._begin() as connection:
            row = connection.execute(sa.select(accounts).where(accounts.c.name_key == name_key)).first()
        return None if row is None else _account(row)

    def set_site(self, account_id: str, site: str) -> None:
        with self._begin(write=True) as connection:
            connection.execute(accounts.update().where(accounts.c.id == account_id).values(site=site))

    def set_password(self, account_id: str, password_hash: str) -> None:
        with self._begin(write=True) as connection:
            connection.execute(
                accounts.update().where(accounts.c.id == account_id).values(password=password_hash)
            )

    def delete(self, account_id: str) -> None:
        """The account and its sessions (its games stay: their seats keep the name they were played
        under, as "deleted player" once risk.server.accounts binds seats)."""
        with self._begin(write=True) as connection:
            connection.execute(account_sessions.delete().where(account_sessions.c.account_id == account_id))
            connection.execute(password_resets.delete().where(password_resets.c.account_id == account_id))
            connection.execute(quick_match.delete().where(quick_match.c.account_id == account_id))
            # As the foreign keys' cascade would, where it is off (an in-memory SQLite database).
            connection.execute(rating_history.delete().where(rating_history.c.account_id == account_id))
            connection.execute(ratings.delete().where(ratings.c.account_id == account_id))
            connection.execute(
                account_blocks.delete().where(
                    sa.or_(
                        account_blocks.c.blocker_id == account_id, account_blocks.c.blocked_id == account_id
                    )
                )
            )
            connection.execute(game_bans.delete().where(game_bans.c.account_id == account_id))
            connection.execute(accounts.delete().where(accounts.c.id == account_id))

    def export(self, account_id: str) -> dict[str, Any]:
        """Everything stored about the account, for its player (no hash, no session token)."""
        with self._begin() as connection:
            row = connection.execute(sa.select(accounts).where(accounts.c.id == account_id)).first()
            sessions = connection.execute(
                sa.select(account_sessions.c.created, account_sessions.c.seen)
                .where(account_sessions.c.account_id == account_id)
                .order_by(account_sessions.c.created)
            ).all()
            queued = connection.execute(
                sa.select(
                    quick_match.c.game,
                    quick_match.c.players,
                    quick_match.c.pace,
                    quick_match.c.queued,
                    quick_match.c.status,
                    quick_match.c.game_id,
                )
                .where(quick_match.c.account_id == account_id)
                .order_by(quick_match.c.queued)
            ).mappings()
            quick = [dict(entry) for entry in queued]
            blocked = self._blocked_rows(connection, account_id)
        if row is None:
            return {}
        account = _account(row)
        return {
            "account": account.shown(),
            "password": "stored only as an argon2id hash, which is not exported",
            "sessions": [{"signed_in": created, "last_used": seen} for created, seen in sessions],
            "quick_match": quick,
            "blocked": [{"name": name, "since": at} for name, at in blocked],
        }

    # -- sessions -------------------------------------------------------------------------------------
    def new_session(self, account_id: str, now: float) -> tuple[str, str]:
        """A new session's cookie token and CSRF token."""
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        with self._begin(write=True) as connection:
            connection.execute(
                account_sessions.insert().values(
                    token_hash=hash_token(token), account_id=account_id, csrf=csrf, created=now, seen=now
                )
            )
            # Sessions idle too long go on any sign-in: the table does not grow without bound.
            connection.execute(
                account_sessions.delete().where(account_sessions.c.seen < now - SESSION_IDLE_S)
            )
        return token, csrf

    def session(self, token: str, now: float) -> Session | None:
        """The session of a cookie's token, if it is one and not idle too long."""
        token_hash = hash_token(token)
        with self._begin() as connection:
            row = connection.execute(
                sa.select(accounts, account_sessions.c.csrf, account_sessions.c.seen)
                .join(account_sessions, account_sessions.c.account_id == accounts.c.id)
                .where(account_sessions.c.token_hash == token_hash)
            ).first()
            if row is None or row.seen < now - SESSION_IDLE_S:
                return None
            if row.seen < now - SEEN_EVERY_S:
                connection.execute(
                    account_sessions.update()
                    .where(account_sessions.c.token_hash == token_hash)
                    .values(seen=now)
                )
        return Session(_account(row), row.csrf, token_hash)

    def end_session(self, token_hash: str) -> None:
        with self._begin(write=True) as connection:
            connection.execute(account_sessions.delete().where(account_sessions.c.token_hash == token_hash))

    def end_other_sessions(self, account_id: str, keep_token_hash: str) -> None:
        """Every session of the account but one (a new password signs the others out)."""
        with self._begin(write=True) as connection:
            connection.execute(
                account_sessions.delete().where(
                    account_sessions.c.account_id == account_id,
                    account_sessions.c.token_hash != keep_token_hash,
                )
            )

    # -- password resets ---------------------------------------------------------------------------------
    def new_reset(self, account_id: str, now: float) -> str | None:
        """A reset link's token, or None when the account asked for :data:`MAX_RESETS` within the
        last hour (a flood of e-mail to one address)."""
        token = secrets.token_urlsafe(32)
        with self._begin(write=True) as connection:
            connection.execute(password_resets.delete().where(password_resets.c.created < now - RESET_S))
            recent = connection.execute(
                sa.select(sa.func.count()).where(password_resets.c.account_id == account_id)
            ).scalar_one()
            if recent >= MAX_RESETS:
                return None
            connection.execute(
                password_resets.insert().values(
                    token_hash=hash_token(token), account_id=account_id, created=now
                )
            )
        return token

    def reset_of(self, token: str, now: float) -> Account | None:
        """The account of a reset link's token still good, or None."""
        with self._begin() as connection:
            row = connection.execute(
                sa.select(accounts)
                .join(password_resets, password_resets.c.account_id == accounts.c.id)
                .where(
                    password_resets.c.token_hash == hash_token(token),
                    password_resets.c.created >= now - RESET_S,
                )
            ).first()
        return None if row is None else _account(row)

    def use_reset(self, token: str, password_hash: str, now: float) -> Account | None:
        """The account whose reset link ``token`` is (within the hour, never used), its password set
        and every reset link and session of it ended; None for a token that is not one."""
        with self._begin(write=True) as connection:
            row = connection.execute(
                sa.select(password_resets.c.account_id).where(
                    password_resets.c.token_hash == hash_token(token),
                    password_resets.c.created >= now - RESET_S,
                )
            ).first()
            if row is None:
                return None
            account_id = row.account_id
            connection.execute(
                accounts.update().where(accounts.c.id == account_id).values(password=password_hash)
            )
            connection.execute(password_resets.delete().where(password_resets.c.account_id == account_id))
            connection.execute(account_sessions.delete().where(account_sessions.c.account_id == account_id))
            found = connection.execute(sa.select(accounts).where(accounts.c.id == account_id)).first()
        return None if found is None else _account(found)

    # -- blocks (risk.server.fairplay): what quick match and the seats ask --------------------------------
    def block(self, blocker_id: str, blocked_id: str, now: float) -> None:
        """``blocker_id`` blocks ``blocked_id`` (again: nothing changes); :class:`TooManyBlocks` past
        :data:`MAX_BLOCKS`."""
        with self._begin(write=True) as connection:
            if blocked_id in self._blocks_of(connection, blocker_id):
                return
            count = connection.execute(
                sa.select(sa.func.count()).where(account_blocks.c.blocker_id == blocker_id)
            ).scalar_one()
            if count >= MAX_BLOCKS:
                raise TooManyBlocks(blocker_id)
            connection.execute(
                account_blocks.insert().values(blocker_id=blocker_id, blocked_id=blocked_id, at=now)
            )

    def unblock(self, blocker_id: str, blocked_id: str) -> bool:
        """Whether there was such a block (it is gone now)."""
        with self._begin(write=True) as connection:
            done = connection.execute(
                account_blocks.delete().where(
                    account_blocks.c.blocker_id == blocker_id, account_blocks.c.blocked_id == blocked_id
                )
            )
        return bool(done.rowcount)

    def blocked_list(self, account_id: str) -> list[tuple[str, float]]:
        """The names of the accounts ``account_id`` blocked, and since when, by name."""
        with self._begin() as connection:
            return self._blocked_rows(connection, account_id)

    def blocks_of(self, account_id: str) -> set[str]:
        """The ids of the accounts ``account_id`` blocked (one way: whose chat it is not sent)."""
        with self._begin() as connection:
            return self._blocks_of(connection, account_id)

    def blocked_with(self, account_id: str) -> set[str]:
        """The ids of the accounts with a block between them and ``account_id``, either way: never
        seated at one table with it, nor paired with it by quick match."""
        with self._begin() as connection:
            rows = connection.execute(
                sa.select(account_blocks.c.blocker_id, account_blocks.c.blocked_id).where(
                    sa.or_(
                        account_blocks.c.blocker_id == account_id, account_blocks.c.blocked_id == account_id
                    )
                )
            ).all()
        return {blocked if blocker == account_id else blocker for blocker, blocked in rows}

    def blocked_between(self, account_ids: Collection[str]) -> bool:
        """Whether any two of ``account_ids`` have a block between them, either way (quick match never
        puts such players at one table; a seat is refused to one where the other sits)."""
        ids = set(account_ids)
        if len(ids) < 2:
            return False
        with self._begin() as connection:
            found = connection.execute(
                sa.select(account_blocks.c.blocker_id)
                .where(account_blocks.c.blocker_id.in_(ids), account_blocks.c.blocked_id.in_(ids))
                .limit(1)
            ).first()
        return found is not None

    @staticmethod
    def _blocks_of(connection: Connection, account_id: str) -> set[str]:
        rows = connection.execute(
            sa.select(account_blocks.c.blocked_id).where(account_blocks.c.blocker_id == account_id)
        ).all()
        return {str(blocked) for (blocked,) in rows}

    @staticmethod
    def _blocked_rows(connection: Connection, account_id: str) -> list[tuple[str, float]]:
        rows = connection.execute(
            sa.select(accounts.c.name, account_blocks.c.at)
            .join(accounts, accounts.c.id == account_blocks.c.blocked_id)
            .where(account_blocks.c.blocker_id == account_id)
            .order_by(accounts.c.name_key)
        ).all()
        return [(str(name), float(at)) for name, at in rows]

    # -- the lockout ------------------------------------------------------------------------------------
    def failures_since(self, name_key: str, since: float) -> list[float]:
        """The times of the failed sign-ins to ``name_key`` since ``since``, oldest first."""
        with self._begin() as connection:
            rows = connection.execute(
                sa.select(sign_in_failures.c.at)
                .where(sign_in_failures.c.name_key == name_key, sign_in_failures.c.at >= since)
                .order_by(sign_in_failures.c.at)
            ).all()
        return [at for (at,) in rows]

    def add_failure(self, name_key: str, now: float, forget_before: float) -> None:
        with self._begin(write=True) as connection:
            connection.execute(sign_in_failures.insert().values(name_key=name_key, at=now))
            connection.execute(sign_in_failures.delete().where(sign_in_failures.c.at < forget_before))

    def clear_failures(self, name_key: str) -> None:
        with self._begin(write=True) as connection:
            connection.execute(sign_in_failures.delete().where(sign_in_failures.c.name_key == name_key))


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.name_key, row.password, row.email, row.created, row.site)
