"""SQL stores for the web server: SQLite (one file, the default) and PostgreSQL, with SQLAlchemy 2.

``open_storage(url)`` picks the store: ``"memory"``, ``None`` (SQLite in the user's data folder), a
``sqlite:///path`` or ``postgresql://user:pass@host/db`` URL (driven by psycopg 3), or a bare file path
(SQLite). Opening a SQL store upgrades its schema to the newest Alembic revision shipped in
``risk/server/migrations``, so a newer release opens a database made by an older one.

Durability: ``append_action`` returns only after its transaction committed. SQLite runs in WAL mode with
``synchronous=FULL``: a committed action survives the process being killed and the machine losing
power (``NORMAL`` survives a killed process but may lose the last commits on power loss; it is
offered for the benchmark, not used by default). PostgreSQL commits synchronously by default.

Two writers extending one game from the same state: the game row is locked first (``SELECT ... FOR
UPDATE`` on PostgreSQL; ``BEGIN IMMEDIATE`` takes SQLite's single write lock), its state id is checked,
and the actions table's primary key (game, seq) refuses a second action with the same number even if
the lock were bypassed. The loser gets ``StaleWrite``.

A new migration: change the tables below, then from the repository root
``.venv/bin/python -c "from risk.server.sql import alembic_config as c; from alembic import command;
command.revision(c('sqlite:////tmp/at-head.sqlite3'), 'what changed', autogenerate=True)"`` against a
database at the previous head, and review the file it writes under migrations/versions/.
"""

from __future__ import annotations

import contextlib
import re
import secrets
import threading
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import platformdirs
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import event
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError

from risk.server.feed import CHANGES_CHANNEL, change_payload
from risk.server.storage import (
    OTHER_BOARD,
    UNNAMED_GAME,
    ActionRecord,
    Change,
    ChatRecord,
    GameFilter,
    GameRecord,
    MemoryStorage,
    Progress,
    RulesetRecord,
    SeatRecord,
    StaleWrite,
    Storage,
    StorageError,
    check_consecutive,
)

MIGRATIONS = Path(__file__).with_name("migrations")

# The schema as the queries see it. The migrations create it; tests check the two agree.
metadata = sa.MetaData()

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("board", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),  # seeds go up to 2**63 - 1
    sa.Column("settings", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=False),
    sa.Column("created", sa.Double, nullable=False),
    sa.Column("updated", sa.Double, nullable=False),
    sa.Column("state_id", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("turn", sa.Integer, nullable=False),
    sa.Column("deadline", sa.Double, nullable=True),
    sa.Column("deadline_state", sa.Integer, nullable=True),
    sa.Column("host_hash", sa.String(64), nullable=True),
    sa.Column("to_act", sa.Integer, nullable=True),  # who is to act (the startup reads it, not the actions)
    sa.Column("defending", sa.Boolean, nullable=True),
    # A board given as JSON (not shipped): its digest, the key of ``boards``; NULL: the shipped ``board``.
    # (No foreign key: adding one makes SQLite rebuild the games table, whose drop deletes the seats.)
    sa.Column("board_sha256", sa.String(64), nullable=True),
    sa.Index("games_updated", "updated"),  # list_games: most recently updated first
)

# The boards given as JSON, each once however many games are played on it (up to 1 MiB each).
boards = sa.Table(
    "boards",
    metadata,
    sa.Column("sha256", sa.String(64), primary_key=True),
    sa.Column("json", sa.Text, nullable=False),  # the board's canonical JSON (risk.maps.Board.canonical_json)
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("bot", sa.Text, nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("stand_in", sa.Text, nullable=True),
    sa.Column("missed", sa.Integer, nullable=False, server_default="0"),
    sa.Column("prefs", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=True),  # the seat's settings
    sa.Column("clock", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=True),  # bank, vacation
    # The account the seat is bound to (risk.server.accounts.seats). No foreign key: adding one makes
    # SQLite rebuild the table; deleting an account unbinds its seats itself.
    sa.Column("account_id", sa.String(32), nullable=True),
    sa.Column("browser_hash", sa.String(64), nullable=True),  # who took the seat (risk.server.fairplay)
    sa.Index("seats_account", "account_id"),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.Double, nullable=False),
)

chat = sa.Table(
    "chat",
    metadata,
    sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("channel", sa.String(16), nullable=False),
    sa.Column("team", sa.Integer, nullable=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.Double, nullable=False),
)

rulesets = sa.Table(
    "rulesets",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("settings", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=False),
    sa.Column("created", sa.Double, nullable=False),
)

# Notifications (risk.server.notify): who asked to be told what, and the messages waiting to go.
notify_subscriptions = sa.Table(
    "notify_subscriptions",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),  # random: the unsubscribe link's secret
    sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("channel", sa.String(16), nullable=False),  # "email", "push" (Web Push), "webhook"
    sa.Column("address", sa.Text, nullable=False),  # never shown to others, never logged (push: its JSON)
    sa.Column("seat_token", sa.Text, nullable=False),  # for the seat link in each message
    sa.Column("site", sa.Text, nullable=False),  # the server's address as the player reached it
    sa.Column("every_s", sa.Double, nullable=False),  # at most one message per this many seconds
    sa.Column("failures", sa.Integer, nullable=False, server_default="0"),  # in a row
    sa.Column("paused", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("last_sent", sa.Double, nullable=True),
    sa.Column("retry_at", sa.Double, nullable=True),  # after a failure: nothing of it is tried before
    sa.Column("created", sa.Double, nullable=False),
    sa.UniqueConstraint("game_id", "seat", "channel", name="notify_subscriptions_seat"),
)

outbox = sa.Table(
    "outbox",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    # Stable per event and subscription: a second copy of an event is not queued (several server
    # processes hear the same move), and the message's Message-ID is made from it.
    sa.Column("key", sa.String(200), nullable=False, unique=True),
    sa.Column(
        "subscription_id",
        sa.String(64),
        sa.ForeignKey("notify_subscriptions.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("text", sa.Text, nullable=False),  # the event in words (no address, no token)
    sa.Column("status", sa.String(16), nullable=False),  # queued, sending, sent, skipped
    sa.Column("due", sa.Double, nullable=False),  # not before (backoff, throttle, batching)
    sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    sa.Column("claimed_by", sa.String(64), nullable=True),
    sa.Column("claimed_until", sa.Double, nullable=True),  # a sender that died: claimable again after
    sa.Column("created", sa.Double, nullable=False),
    sa.Column("sent_at", sa.Double, nullable=True),
    sa.Index("outbox_due", "status", "due"),
)

# Accounts (risk.server.accounts): optional, a guest plays by link as before.
accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),  # random, never shown to other players
    sa.Column("name", sa.Text, nullable=False),  # as chosen (NFKC), shown to others
    sa.Column("name_key", sa.Text, nullable=False, unique=True),  # risk.server.accounts.names.name_key
    sa.Column("password", sa.Text, nullable=False),  # its argon2id hash, never the password
    sa.Column("email", sa.Text, nullable=True),  # never shown to others, never logged
    # The server's address as the player's browser reached it at sign-up or their last sign-in: where
    # a reset link points (never a request's own Host, which anyone may forge).
    sa.Column("site", sa.Text, nullable=True),
    sa.Column("created", sa.Double, nullable=False),
)

account_sessions = sa.Table(
    "account_sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),  # the cookie's token, hashed
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("csrf", sa.String(64), nullable=False),  # sent back in X-CSRF-Token on every change
    sa.Column("created", sa.Double, nullable=False),
    sa.Column("seen", sa.Double, nullable=False),  # an idle session ends SESSION_IDLE_S after this
    sa.Index("account_sessions_account", "account_id"),
)

# Password resets asked for by e-mail: the link's token, hashed; used once, within RESET_S.
password_resets = sa.Table(
    "password_resets",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("created", sa.Double, nullable=False),
    sa.Index("password_resets_account", "account_id"),
)

# Failed sign-ins by name key (whether or not such an account exists): the lockout counts them.
sign_in_failures = sa.Table(
    "sign_in_failures",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name_key", sa.Text, nullable=False),
    sa.Column("at", sa.Double, nullable=False),
    sa.Index("sign_in_failures_key", "name_key", "at"),
)

# Ratings (risk.server.ratings): one per account, game family and pace; each change kept; each game
# rated once (its row written in the same transaction as the ratings it changed).
ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column(
        "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("family", sa.String(32), primary_key=True),
    sa.Column("pace", sa.String(8), primary_key=True),
    sa.Column("mu", sa.Double, nullable=False),
    sa.Column("sigma", sa.Double, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated", sa.Double, nullable=False),
    sa.Index("ratings_board", "family", "pace"),
)

rating_history = sa.Table(
    "rating_history",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("family", sa.String(32), nullable=False),
    sa.Column("pace", sa.String(8), nullable=False),
    sa.Column("game_id", sa.String(64), nullable=False),
    sa.Column("place", sa.Integer, nullable=False),  # 1: the winner
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("mu", sa.Double, nullable=False),  # after the game
    sa.Column("sigma", sa.Double, nullable=False),
    sa.Column("damping", sa.Double, nullable=False),  # the share of the model's move applied
    sa.Column("at", sa.Double, nullable=False),
    sa.Index("rating_history_account", "account_id", "at"),
)

rated_games = sa.Table(
    "rated_games",
    metadata,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("family", sa.String(32), nullable=False),
    sa.Column("pace", sa.String(8), nullable=False),
    sa.Column("accounts", sa.Text, nullable=False),  # the players' account ids, sorted, comma-separated
    sa.Column("outcome", sa.Text, nullable=False),  # "rated", or why not ("a seat not bound", ...)
    sa.Column("at", sa.Double, nullable=False),
    sa.Index("rated_games_accounts", "accounts", "at"),
)

# Quick match (risk.server.quickmatch): each player waiting in a queue (a game type, a player count and
# a pace), and the game and seat a matched entry was given (its seat's token sealed: its player's link).
# One waiting entry per account and queue: the partial unique index decides a race of two joins.
quick_match = sa.Table(
    "quick_match",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("pace", sa.String(8), nullable=False),
    sa.Column("queued", sa.Double, nullable=False),
    sa.Column("status", sa.String(8), nullable=False),  # waiting, matched, placed or left
    sa.Column("game_id", sa.String(64)),
    sa.Column("seat", sa.Integer),
    sa.Column("token", sa.Text),  # the seat's token, sealed (risk.server.notify.seal)
    sa.Column("updated", sa.Double, nullable=False),
    sa.Index("quick_match_queue", "status", "game", "players", "pace"),
    sa.Index("quick_match_account", "account_id", "updated"),
    sa.Index("quick_match_game", "game_id"),
    sa.Index(
        "quick_match_one_wait",
        "account_id",
        "game",
        "players",
        "pace",
        unique=True,
        sqlite_where=sa.text("status = 'waiting'"),
        postgresql_where=sa.text("status = 'waiting'"),
    ),
)

# Fair play (risk.server.fairplay): blocks between accounts, the chat a seat muted, chat lines reported
# to a game's host, and the host's bans. Games are never deleted: no foreign key to them (as rated_games).
account_blocks = sa.Table(
    "account_blocks",
    metadata,
    sa.Column(
        "blocker_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column(
        "blocked_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("at", sa.Double, nullable=False),
    sa.Index("account_blocks_blocked", "blocked_id"),
)

chat_mutes = sa.Table(
    "chat_mutes",
    metadata,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),  # who muted
    sa.Column("muted_seat", sa.Integer, primary_key=True),
)

chat_reports = sa.Table(
    "chat_reports",
    metadata,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("chat_seq", sa.Integer, primary_key=True),
    sa.Column("reporter_seat", sa.Integer, primary_key=True),  # one report per reporter per line
    sa.Column("reason", sa.Text, nullable=False),  # "" when none was given
    sa.Column("at", sa.Double, nullable=False),
)

game_bans = sa.Table(
    "game_bans",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(64), nullable=False),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
    sa.Column("browser_hash", sa.String(64), nullable=True),  # the banned seat's browser, when known
    sa.Column("seat", sa.Integer, nullable=True),  # a seat removed from a game under way (it resigned)
    sa.Column("name", sa.Text, nullable=False),  # as the host is shown it
    sa.Column("at", sa.Double, nullable=False),
    sa.Index("game_bans_game", "game_id"),
)

SQLITE_SYNCHRONOUS = ("FULL", "NORMAL")
BUSY_TIMEOUT_S = 10.0  # how long a SQLite writer waits for another's lock before "try again"
CONNECT_TIMEOUT_S = 10  # PostgreSQL: an unreachable host fails in seconds, not minutes
_MIGRATION_LOCK = 0x7269736B  # "risk": a PostgreSQL advisory lock, so two servers never migrate at once


def default_database_url() -> str:
    """SQLite in the user's data folder (created if absent), e.g. ~/.local/share/risk/games.sqlite3."""
    folder = Path(platformdirs.user_data_dir("risk"))
    folder.mkdir(parents=True, exist_ok=True)
    return URL.create("sqlite", database=str(folder / "games.sqlite3")).render_as_string()


def open_storage(url: str | None) -> Storage:
    """The store for ``risk serve --db``: "memory", None (the default SQLite file), a URL or a file path."""
    if url == "memory":
        return MemoryStorage()
    if url is None:
        return SqlStorage(default_database_url())
    if "://" not in url:  # a bare path: a SQLite file
        return SqlStorage(URL.create("sqlite", database=str(Path(url).resolve())).render_as_string())
    return SqlStorage(url)


def without_password(text: str, url: str) -> str:
    """``text`` (a URL, an error message) with the password of the database URL ``url`` blanked:
    as SQLAlchemy parses it, and as written (a URL it cannot parse is still masked)."""
    text = USERINFO.sub(r"\1***@", text)
    try:
        password = make_url(url).password
    except (ArgumentError, ValueError):
        password = None
    return text.replace(str(password), "***") if password else text


USERINFO = re.compile(r"(://[^:/@\s]*:)[^@\s]*@")  # scheme://user:PASSWORD@


def database_url(url: str) -> URL:
    """The URL parsed, plain ``postgresql://`` (and ``postgres://``) mapped to the psycopg 3 driver."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError) as exc:  # ValueError: a port that is not a number
        raise StorageError(
            f"not a database URL: {without_password(url, url)!r} (use sqlite:///PATH or postgresql://...)"
        ) from exc
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise StorageError(f"unsupported database {parsed.get_backend_name()!r}: use SQLite or PostgreSQL")
    if parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:"):
        # Each pooled connection would get its own empty database.
        raise StorageError("an in-memory SQLite database cannot be shared between connections: use 'memory'")
    return parsed


def alembic_config(url: str | None = None, connection: Connection | None = None) -> Config:
    """Alembic's configuration, built in code: no alembic.ini is needed (nor shipped)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    config.set_main_option("path_separator", "os")  # the newer Alembic default, stated to silence a warning
    if url is not None:
        config.set_main_option("sqlalchemy.url", database_url(url).render_as_string(False).replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def schema_head() -> str:
    """The newest schema revision this release knows."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def _make_engine(url: URL, sqlite_synchronous: str) -> Engine:
    if url.get_backend_name() == "sqlite":
        # One engine per process; the server calls from the event loop and from worker threads, so
        # connections may move between threads (each is used by one thread at a time).
        engine = sa.create_engine(
            url,
            connect_args={"check_same_thread": False},
            pool_size=5,
            max_overflow=10,
            pool_timeout=30,
            hide_parameters=True,  # no seed or token hash in a statement log or a driver's error
        )
        busy_ms = int(BUSY_TIMEOUT_S * 1000)

        @event.listens_for(engine, "connect")
        def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
            # pysqlite's own transaction handling begins late and always DEFERRED; we issue BEGIN ourselves.
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute(f"PRAGMA busy_timeout = {busy_ms}")
            cursor.execute("PRAGMA journal_mode = WAL")  # readers never block the writer, nor it them
            cursor.execute(f"PRAGMA synchronous = {sqlite_synchronous}")
            cursor.execute("PRAGMA foreign_keys = ON")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(connection: Connection) -> None:
            # A writer takes the write lock at BEGIN, waiting up to busy_timeout for it: a deferred
            # transaction that upgrades later can fail at once with SQLITE_BUSY in WAL mode.
            write = connection.get_execution_options().get("risk_write", False)
            connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

        return engine
    connect_args: dict[str, Any] = {}
    if "connect_timeout" not in url.query:
        connect_args["connect_timeout"] = CONNECT_TIMEOUT_S
    # pre_ping: a server restart costs a reconnect, not one failed request per pooled connection.
    return sa.create_engine(
        url,
        connect_args=connect_args,
        pool_size=20,
        max_overflow=20,
        pool_timeout=30,
        pool_pre_ping=True,
        hide_parameters=True,
    )


def _describe(exc: BaseException) -> str:
    """The driver's own message, first line: it names the cause (refused, locked, disk full...)."""
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _is_unique_violation(exc: IntegrityError) -> bool:
    orig = exc.orig
    if getattr(orig, "sqlstate", None) == "23505":  # psycopg: unique_violation
        return True
    sqlite_name = getattr(orig, "sqlite_errorname", "")
    return sqlite_name in ("SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE")


@dataclass
class _Append:
    """One caller's actions and change waiting for the next group commit."""

    game_id: str
    actions: Sequence[ActionRecord]
    progress: Progress | None
    change: Change
    done: bool = False
    error: StorageError | None = None
    notes: list[ChatRecord] = field(default_factory=list)  # the change's notes as stored


class SqlStorage(Storage):
    """Games in a SQLite file or a PostgreSQL database. Thread-safe: every call has its own connection."""

    def __init__(self, url: str, *, sqlite_synchronous: str = "FULL") -> None:
        if sqlite_synchronous not in SQLITE_SYNCHRONOUS:
            raise ValueError(f"sqlite_synchronous must be one of {SQLITE_SYNCHRONOUS}")
        self.url = database_url(url)
        self.backend = self.url.get_backend_name()
        self._shown = self.url.render_as_string(hide_password=True)
        self._closed = False
        # Names this process's writes in their announcements, so it does not catch up with itself.
        self.origin = secrets.token_hex(8)
        self._pending: list[_Append] = []
        self._pending_lock = threading.Lock()
        self._writer = threading.Lock()  # one group commit at a time in this process
        try:
            self._engine = _make_engine(self.url, sqlite_synchronous)
        except (SQLAlchemyError, ImportError) as exc:
            raise StorageError(f"cannot open the database {self._shown}: {_describe(exc)}") from exc
        try:
            self._upgrade()
        except BaseException:
            self._engine.dispose()
            raise

    def _upgrade(self) -> None:
        """Bring the schema to head, in one transaction that also excludes other servers doing the same."""
        with self._errors("opening the database"), self._transaction(write=True) as conn:
            if self.backend == "postgresql":
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
            try:
                command.upgrade(alembic_config(connection=conn), "head")
            except CommandError as exc:
                raise StorageError(
                    f"the database {self._shown} has a schema this version of risk does not know "
                    f"(made by a newer release?): {exc}"
                ) from exc

    @property
    def engine(self) -> Engine:
        """The engine, for the notifications' outbox (risk.server.notify), which shares the database."""
        return self._engine

    def schema_revision(self) -> str | None:
        """The revision recorded in the database's alembic_version table."""
        from alembic.runtime.migration import MigrationContext

        with self._errors("reading the schema revision"), self._transaction() as conn:
            return MigrationContext.configure(conn).get_current_revision()

    @contextlib.contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        """Every database failure becomes StorageError (StaleWrite passes as it is): "try again"."""
        if self._closed:
            raise StorageError(f"{doing}: the store is closed")
        try:
            yield
        except StorageError:
            raise
        except (SQLAlchemyError, OSError) as exc:
            raise StorageError(f"{doing} failed ({self._shown}): {_describe(exc)}") from exc

    @contextlib.contextmanager
    def _transaction(self, write: bool = False) -> Iterator[Connection]:
        """One transaction on a pooled connection; committed on leaving, rolled back on an exception."""
        with self._engine.connect() as conn:
            if write:
                conn.execution_options(risk_write=True)
            with conn.begin():
                yield conn

    def _lock_game(self, conn: Connection, game_id: str, change: str) -> int:
        """The game's state id, its row locked until the transaction ends (SQLite: locked already).
        Every write to a game goes through here, so on PostgreSQL it also announces the ``change`` to
        the other server processes (risk.server.feed): NOTIFY is delivered only if the transaction
        commits, and after it."""
        query = sa.select(games.c.state_id).where(games.c.id == game_id)
        if self.backend == "postgresql":
            query = query.with_for_update()
        state_id = conn.execute(query).scalar_one_or_none()
        if state_id is None:
            raise StorageError(f"no game {game_id!r}")
        if self.backend == "postgresql":
            conn.execute(
                sa.select(sa.func.pg_notify(CHANGES_CHANNEL, change_payload(self.origin, change, game_id)))
            )
        return int(state_id)

    def listen_conninfo(self) -> str | None:
        """Where the change feed listens (risk.server.feed): PostgreSQL only, None for SQLite."""
        if self.backend != "postgresql":
            return None
        return self.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def state_ids(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The stored state id of each of these games (one query: the feed's check that nothing was
        missed)."""
        if not game_ids:
            return {}
        query = sa.select(games.c.id, games.c.state_id).where(games.c.id.in_(list(game_ids)))
        with self._errors("reading games' states"), self._transaction() as conn:
            return {row.id: int(row.state_id) for row in conn.execute(query)}

    def announce(self, change: str, game_id: str, extra: str = "") -> None:
        """Tell the other server processes something that is not stored (who has a page open)."""
        if self.backend != "postgresql":
            return
        payload = change_payload(self.origin, change, game_id, extra)
        with self._errors("telling the other processes"), self._transaction() as conn:
            conn.execute(sa.select(sa.func.pg_notify(CHANGES_CHANNEL, payload)))

    def create_game(self, game: GameRecord) -> None:
        with self._errors("creating a game"), self._transaction(write=True) as conn:
            if game.board_sha256 is not None:
                if game.board_json is None:
                    raise ValueError("a game on a board that is not shipped needs the board's JSON")
                self._store_board(conn, game.board_sha256, game.board_json)
            try:
                conn.execute(
                    games.insert().values(
                        id=game.id,
                        rules=game.rules,
                        board=game.board,
                        seed=game.seed,
                        settings=game.settings,
                        created=game.created,
                        updated=game.updated,
                        state_id=game.state_id,
                        status=game.status,
                        winner=game.winner,
                        turn=game.turn,
                        deadline=game.deadline,
                        deadline_state=game.deadline_state,
                        host_hash=game.host_hash,
                        to_act=game.to_act,
                        defending=game.defending,
                        board_sha256=game.board_sha256,
                    )
                )
            except IntegrityError as exc:
                if _is_unique_violation(exc):
                    raise StorageError(f"a game with id {game.id!r} exists") from exc
                raise
            if game.seats:
                conn.execute(seats.insert(), [_seat_row(game.id, seat) for seat in game.seats])

    def _store_board(self, conn: Connection, digest: str, text: str) -> None:
        """Keep a board's JSON once: a second game on it (or two created at once) finds it there."""
        dialect_insert = pg_insert if self.backend == "postgresql" else sqlite_insert
        conn.execute(dialect_insert(boards).values(sha256=digest, json=text).on_conflict_do_nothing())

    def get_game(self, game_id: str) -> GameRecord | None:
        # One statement, so the seats belong to the same snapshot as the game row.
        query = (
            sa.select(games, seats)
            .select_from(games.outerjoin(seats))
            .where(games.c.id == game_id)
            .order_by(seats.c.seat)
        )
        with self._errors("reading a game"), self._transaction() as conn:
            rows = conn.execute(query).all()
            digest = rows[0].board_sha256 if rows else None
            board_json = None
            if digest is not None:  # apart from the seats' rows: the board may be 1 MiB
                board_json = conn.execute(sa.select(boards.c.json).where(boards.c.sha256 == digest)).scalar()
        if not rows:
            return None
        game = _game(rows[0], [_seat(row) for row in rows if row.seat is not None])
        return replace(game, board_json=board_json)

    def actions(self, game_id: str, after: int = 0) -> list[ActionRecord]:
        query = (
            sa.select(actions.c.seq, actions.c.seat, actions.c.text, actions.c.at)
            .where(actions.c.game_id == game_id, actions.c.seq > after)
            .order_by(actions.c.seq)
        )
        with self._errors("reading actions"), self._transaction() as conn:
            return [ActionRecord(seq=r.seq, seat=r.seat, text=r.text, at=r.at) for r in conn.execute(query)]

    def commit(
        self, game_id: str, actions: Sequence[ActionRecord], progress: Progress | None, change: Change
    ) -> list[ChatRecord]:
        """Group commit: commits that arrive while another is under way are written together in the
        next transaction, so many games share one fsync; each caller returns only once its own
        actions and change are committed (or raises its own error)."""
        if actions:
            check_consecutive(actions)
        request = _Append(game_id, list(actions), progress, change)
        with self._pending_lock:
            self._pending.append(request)
        with self._writer:
            if not request.done:
                with self._pending_lock:
                    batch, self._pending = self._pending, []
                self._commit_batch(batch)
        if request.error is not None:
            raise request.error
        return request.notes

    def _commit_batch(self, batch: list[_Append]) -> None:
        # Rows locked in one order (by game) so two server processes never deadlock.
        batch.sort(key=lambda r: r.game_id)
        try:
            with self._errors("storing an action"), self._transaction(write=True) as conn:
                for request in batch:
                    kind = "actions" if request.actions else "seats" if request.change.seats else "deadline"
                    state_id = self._lock_game(conn, request.game_id, kind)
                    if request.actions and request.actions[0].seq != state_id + 1:
                        first = request.actions[0].seq
                        request.error = StaleWrite(
                            f"game {request.game_id} is at state {state_id}, not {first - 1}"
                        )
                        continue
                    self._insert_actions(conn, request)
                    request.notes = self._write_change(conn, request.game_id, request.change)
        except StorageError as error:
            for request in batch:
                if request.error is None or not isinstance(request.error, StaleWrite):
                    request.error = error
        finally:
            for request in batch:
                request.done = True

    def _insert_actions(self, conn: Connection, request: _Append) -> None:
        """The request's actions and the game's progress with them."""
        if not request.actions or request.progress is None:
            return
        first, last = request.actions[0], request.actions[-1]
        try:
            conn.execute(
                actions.insert(),
                [
                    {"game_id": request.game_id, "seq": a.seq, "seat": a.seat, "text": a.text, "at": a.at}
                    for a in request.actions
                ],
            )
        except IntegrityError as exc:
            # Only reachable if a writer bypassed the lock: the primary key is the last word.
            # The transaction is spoilt, so the whole batch is refused ("try again").
            if _is_unique_violation(exc):
                request.error = StaleWrite(f"game {request.game_id} already has action {first.seq}")
            raise
        progress = request.progress
        conn.execute(
            games.update()
            .where(games.c.id == request.game_id)
            .values(
                state_id=last.seq,
                status=progress.status,
                winner=progress.winner,
                turn=progress.turn,
                updated=last.at,
                to_act=progress.to_act,
                defending=progress.defending,
            )
        )

    def _write_change(self, conn: Connection, game_id: str, change: Change) -> list[ChatRecord]:
        """A move's consequences (or a change with no move), in the transaction of ``conn``, the game's
        row locked already. Answers the notes as stored."""
        for seat in change.seats.values():
            row = _seat_row(game_id, seat)
            conn.execute(
                seats.update()
                .where(seats.c.game_id == game_id, seats.c.seat == seat.seat)
                .values({k: v for k, v in row.items() if k not in ("game_id", "seat")})
            )
        values: dict[str, Any] = {}
        if change.status:
            values["status"] = change.status
        if change.deadline is not None:
            values["deadline"], values["deadline_state"] = change.deadline
        if values:
            conn.execute(games.update().where(games.c.id == game_id).values(**values))
        notes = [self._insert_chat(conn, game_id, note) for note in change.notes]
        if notes and self.backend == "postgresql":  # the other processes' pages show chat live
            conn.execute(
                sa.select(sa.func.pg_notify(CHANGES_CHANNEL, change_payload(self.origin, "chat", game_id)))
            )
        return notes

    @staticmethod
    def _insert_chat(conn: Connection, game_id: str, message: ChatRecord) -> ChatRecord:
        """Number a chat message (its game's row locked: one writer at a time) and store it."""
        last = conn.execute(sa.select(sa.func.max(chat.c.seq)).where(chat.c.game_id == game_id)).scalar()
        stored = replace(message, seq=int(last or 0) + 1)
        conn.execute(chat.insert().values(game_id=game_id, **asdict(stored)))
        return stored

    def update_seat(self, game_id: str, seat: SeatRecord, status: str | None = None) -> None:
        with self._errors("updating a seat"), self._transaction(write=True) as conn:
            self._lock_game(conn, game_id, "seats")  # serialised with append_action on the same game
            row = _seat_row(game_id, seat)
            conn.execute(
                seats.update()
                .where(seats.c.game_id == game_id, seats.c.seat == seat.seat)
                .values({k: v for k, v in row.items() if k not in ("game_id", "seat")})
            )
            if status:
                conn.execute(games.update().where(games.c.id == game_id).values(status=status))

    def set_deadline(self, game_id: str, deadline: float | None, state_id: int | None) -> None:
        with self._errors("setting the turn clock"), self._transaction(write=True) as conn:
            self._lock_game(conn, game_id, "deadline")
            conn.execute(
                games.update().where(games.c.id == game_id).values(deadline=deadline, deadline_state=state_id)
            )

    def update_settings(self, game_id: str, settings: dict[str, Any]) -> None:
        with self._errors("updating a game's settings"), self._transaction(write=True) as conn:
            self._lock_game(conn, game_id, "settings")
            conn.execute(games.update().where(games.c.id == game_id).values(settings=settings))

    def add_chat(self, game_id: str, message: ChatRecord) -> ChatRecord:
        with self._errors("storing a chat message"), self._transaction(write=True) as conn:
            self._lock_game(conn, game_id, "chat")  # numbers the messages one writer at a time
            return self._insert_chat(conn, game_id, message)

    def chat(self, game_id: str, after: int = 0) -> list[ChatRecord]:
        query = sa.select(chat).where(chat.c.game_id == game_id, chat.c.seq > after).order_by(chat.c.seq)
        with self._errors("reading the chat"), self._transaction() as conn:
            return [
                ChatRecord(
                    seq=r.seq, seat=r.seat, channel=r.channel, team=r.team, name=r.name, text=r.text, at=r.at
                )
                for r in conn.execute(query)
            ]

    def save_ruleset(self, ruleset: RulesetRecord) -> None:
        with self._errors("saving house rules"), self._transaction(write=True) as conn:
            try:
                conn.execute(rulesets.insert().values(**asdict(ruleset)))
            except IntegrityError as exc:
                if _is_unique_violation(exc):
                    raise StorageError(f"house rules with id {ruleset.id!r} exist") from exc
                raise

    def get_ruleset(self, ruleset_id: str) -> RulesetRecord | None:
        with self._errors("reading house rules"), self._transaction() as conn:
            row = conn.execute(sa.select(rulesets).where(rulesets.c.id == ruleset_id)).one_or_none()
        if row is None:
            return None
        return RulesetRecord(
            id=row.id, name=row.name, settings=dict(row.settings), created=float(row.created)
        )

    def list_games(
        self,
        status: str | None = None,
        public_only: bool = True,
        limit: int = 100,
        where: GameFilter | None = None,
    ) -> list[GameRecord]:
        query = sa.select(games)
        if status is not None:
            query = query.where(games.c.status == status)
        if public_only:  # settings["public"], True when absent
            query = query.where(sa.func.coalesce(games.c.settings["public"].as_boolean(), sa.true()))
        if where is not None:
            query = query.where(*_filter_clauses(where))
        query = query.order_by(games.c.updated.desc(), games.c.created.desc(), games.c.id).limit(limit)
        with self._errors("listing games"), self._transaction() as conn:
            rows = conn.execute(query).all()
            ids = [row.id for row in rows]
            by_game: dict[str, list[SeatRecord]] = {game_id: [] for game_id in ids}
            if ids:
                seat_rows = conn.execute(
                    sa.select(seats).where(seats.c.game_id.in_(ids)).order_by(seats.c.game_id, seats.c.seat)
                )
                for row in seat_rows:
                    by_game[row.game_id].append(_seat(row))
        return [_game(row, by_game[row.id]) for row in rows]

    def account_seats(self, account: str) -> list[tuple[str, int]]:
        with self._errors("reading an account's seats"), self._transaction() as conn:
            rows = conn.execute(
                sa.select(seats.c.game_id, seats.c.seat)
                .join(games, games.c.id == seats.c.game_id)
                .where(seats.c.account_id == account)
                .order_by(games.c.created.desc(), seats.c.seat)
            ).all()
        return [(game_id, seat) for game_id, seat in rows]

    def close(self) -> None:
        self._closed = True
        self._engine.dispose()


def _filter_clauses(where: GameFilter) -> list[sa.ColumnElement[bool]]:
    """GameFilter.matches as SQL (SQLite and PostgreSQL alike): the rules' words, the board, the seats
    counted, and the settings' ``rated`` and ``turn_time``."""
    clauses: list[sa.ColumnElement[bool]] = []
    if where.edition is not None:  # the rules' first word
        clauses.append(
            sa.or_(
                games.c.rules == where.edition, games.c.rules.startswith(f"{where.edition} ", autoescape=True)
            )
        )
    if where.game is not None:  # a word "game=X" after the first; none: world
        # As GameFilter.matches reads the rules' words: the kind named by "game=", or the default.
        words = sa.literal(" ") + games.c.rules + sa.literal(" ")
        named = words.contains(f" game={where.game} ", autoescape=True)
        unnamed = sa.not_(words.contains(" game=", autoescape=True))
        clauses.append(sa.or_(named, unnamed) if where.game == UNNAMED_GAME else named)
    if where.board == OTHER_BOARD:
        clauses.append(games.c.board_sha256.is_not(None))
    elif where.board is not None:
        clauses.append(sa.and_(games.c.board == where.board, games.c.board_sha256.is_(None)))
    if where.seats is not None:
        counted = sa.select(sa.func.count()).where(seats.c.game_id == games.c.id).scalar_subquery()
        clauses.append(counted == where.seats)
    if where.rated is not None:  # settings["rated"], False when absent
        rated = sa.func.coalesce(games.c.settings["rated"].as_boolean(), sa.false())
        clauses.append(rated if where.rated else sa.not_(rated))
    turn_time = sa.func.coalesce(games.c.settings["turn_time"].as_float(), 0.0)
    if where.turn_time_from is not None:
        clauses.append(turn_time >= where.turn_time_from)
    if where.turn_time_below is not None:
        clauses.append(turn_time < where.turn_time_below)
    return clauses


def _seat_row(game_id: str, seat: SeatRecord) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "seat": seat.seat,
        "name": seat.name,
        "kind": seat.kind,
        "bot": seat.bot,
        "token_hash": seat.token_hash,
        "stand_in": seat.stand_in,
        "missed": seat.missed,
        "prefs": seat.prefs or None,
        "clock": seat.clock or None,
        "account_id": seat.account,
        "browser_hash": seat.browser,
    }


def _seat(row: Any) -> SeatRecord:
    return SeatRecord(
        seat=row.seat,
        name=row.name,
        kind=row.kind,
        bot=row.bot,
        token_hash=row.token_hash,
        stand_in=row.stand_in,
        missed=int(row.missed),
        prefs=dict(row.prefs or {}),
        clock=dict(row.clock or {}),
        account=row.account_id,
        browser=row.browser_hash,
    )


def _game(row: Any, game_seats: Sequence[SeatRecord]) -> GameRecord:
    return GameRecord(
        id=row.id,
        rules=row.rules,
        board=row.board,
        seed=int(row.seed),
        seats=tuple(game_seats),
        settings=dict(row.settings or {}),
        created=float(row.created),
        state_id=int(row.state_id),
        status=row.status,
        winner=row.winner,
        turn=int(row.turn),
        updated=float(row.updated),
        deadline=None if row.deadline is None else float(row.deadline),
        deadline_state=row.deadline_state,
        host_hash=row.host_hash,
        to_act=row.to_act,
        defending=bool(row.defending),
        board_sha256=row.board_sha256,
    )
