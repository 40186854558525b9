"""A throwaway PostgreSQL cluster for tests and benchmarks.

Debian's server binaries (package ``postgresql``; /usr/lib/postgresql/VERSION/bin, which is not on
PATH), a fresh cluster in a temporary folder, listening on 127.0.0.1 (and one more address if asked)
on a free port, fsync on (the durability tests mean it), a random password over TCP. The server
refuses to run as root, so as root (CI) the cluster belongs to the ``postgres`` system user that the
Debian package creates, and the commands run through ``runuser``. Stopped and deleted on leaving::

    with PgCluster() as cluster:
        url = cluster.create_database("t1")  # postgresql+psycopg://risk:...@127.0.0.1:PORT/t1
"""

from __future__ import annotations

import os
import pwd
import re
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType

SERVER_USER = "postgres"  # who owns the cluster when we are root
ADMIN_USER = "risk"  # the cluster's superuser


def find_bindir() -> Path | None:
    """The folder of initdb, pg_ctl and postgres: $RISK_PG_BINDIR, PATH, or Debian's newest version."""
    candidates: list[Path] = []
    if os.environ.get("RISK_PG_BINDIR"):
        candidates.append(Path(os.environ["RISK_PG_BINDIR"]))
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).parent)
    debian = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if p.parent.name.isdigit()]
    candidates += sorted(debian, key=lambda p: int(p.parent.name), reverse=True)
    for folder in candidates:
        if all((folder / name).is_file() for name in ("initdb", "pg_ctl", "postgres")):
            return folder
    return None


def unavailable_reason() -> str | None:
    """Why no cluster can be started here, or None if one can."""
    if find_bindir() is None:
        return "no PostgreSQL server binaries (Debian: apt-get install postgresql)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(SERVER_USER)
        except KeyError:
            return f"running as root and there is no {SERVER_USER!r} user to own the cluster"
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PgCluster:
    """A PostgreSQL server of our own; ``start()``/``stop()`` or a ``with`` block."""

    def __init__(
        self, bindir: Path | None = None, also_listen: str | None = None, clients: str | None = None
    ) -> None:
        """``also_listen``: an address to listen on besides 127.0.0.1 (another network of this
        machine's), and ``clients``: the network (CIDR) allowed in from there with the password."""
        found = bindir or find_bindir()
        if found is None:
            raise RuntimeError(unavailable_reason() or "no PostgreSQL")
        self.bindir = found
        self.password = secrets.token_hex(16)
        self.port = 0
        self.folder: Path | None = None
        self._as_root = os.geteuid() == 0
        self.listen = "127.0.0.1" if also_listen is None else f"127.0.0.1,{also_listen}"
        self.clients = clients

    # Every server command runs as the cluster's owner, with the folder as working directory (the
    # owner may not be allowed into ours).
    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        assert self.folder is not None
        command = [str(self.bindir / args[0]), *args[1:]]
        if self._as_root:
            command = ["runuser", "-u", SERVER_USER, "--", *command]
        return subprocess.run(
            command, cwd=self.folder, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120
        )

    def _check(self, result: subprocess.CompletedProcess[str], doing: str) -> None:
        if result.returncode != 0:
            tail = self._log_text()[-2000:]
            raise RuntimeError(f"PostgreSQL {doing} failed: {result.stdout}{result.stderr}\n{tail}")

    def start(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="risk-pg-"))
        if self._as_root:
            owner = pwd.getpwnam(SERVER_USER)
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
        secret = self.folder / "password"
        secret.write_text(self.password + "\n")
        secret.chmod(0o600)
        if self._as_root:
            os.chown(secret, owner.pw_uid, owner.pw_gid)
        data = self.folder / "data"
        initdb = self._run(
            "initdb",
            f"--pgdata={data}",
            f"--username={ADMIN_USER}",
            f"--pwfile={secret}",
            "--auth-local=trust",  # the socket lives in our 0700 folder
            "--auth-host=scram-sha-256",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",  # the cluster's birth need not be durable, its commits do (fsync below)
        )
        self._check(initdb, "initdb")
        secret.unlink()
        if self.clients is not None:
            with open(data / "pg_hba.conf", "a") as hba:
                hba.write(f"host all all {self.clients} scram-sha-256\n")
        for attempt in range(3):  # a free port may be taken between asking and binding
            self.port = free_port()
            with open(data / "postgresql.conf", "a") as conf:
                conf.write(
                    "\n# risk tests\n"
                    f"listen_addresses = '{self.listen}'\n"
                    f"port = {self.port}\n"
                    f"unix_socket_directories = '{self.folder}'\n"
                    "fsync = on\n"
                    "synchronous_commit = on\n"
                    "max_connections = 200\n"
                )
            started = self._pg_ctl_start()
            if started.returncode == 0:
                return
            if attempt == 2 or "could not bind" not in self._log_text():
                self._check(started, "start")

    def _pg_ctl_start(self) -> subprocess.CompletedProcess[str]:
        assert self.folder is not None
        log = str(self.folder / "server.log")
        return self._run("pg_ctl", "-D", str(self.folder / "data"), "-l", log, "-w", "-t", "60", "start")

    def _log_text(self) -> str:
        log = None if self.folder is None else self.folder / "server.log"
        return log.read_text(errors="replace") if log is not None and log.exists() else ""

    def stop_server(self, mode: str = "fast") -> None:
        """Stop the database server, keeping the cluster (``start_server`` brings it back on the same
        port): the database going away under a running app. ``fast`` rolls back open transactions and
        disconnects every client at once; ``immediate`` is a crash of the database server."""
        assert self.folder is not None
        stopped = self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", mode, "-w", "-t", "60", "stop")
        self._check(stopped, "stop")

    def start_server(self) -> None:
        """Start the stopped database server again, on the same port, with the same data."""
        self._check(self._pg_ctl_start(), "start")

    def stop(self) -> None:
        if self.folder is None:
            return
        data = self.folder / "data"
        if (data / "postmaster.pid").exists():
            stopped = self._run("pg_ctl", "-D", str(data), "-m", "fast", "-w", "-t", "60", "stop")
            if stopped.returncode != 0:
                self._run("pg_ctl", "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None

    def __enter__(self) -> PgCluster:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def url(self, database: str = "postgres", host: str = "127.0.0.1") -> str:
        return f"postgresql+psycopg://{ADMIN_USER}:{self.password}@{host}:{self.port}/{database}"

    def _admin(self, sql: str) -> None:
        import psycopg

        dsn = f"host=127.0.0.1 port={self.port} user={ADMIN_USER} password={self.password} dbname=postgres"
        with psycopg.connect(dsn, autocommit=True) as conn:  # CREATE DATABASE cannot run in a transaction
            conn.execute(sql)  # type: ignore[arg-type,unused-ignore]  # not a LiteralString; the name was checked

    def create_database(self, name: str) -> str:
        """A new empty database; its URL."""
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            raise ValueError(f"database name {name!r}: lower-case letters, digits and _ only")
        self._admin(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, name: str) -> None:
        """Drop it, closing whatever connections are still open to it."""
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            raise ValueError(f"database name {name!r}: lower-case letters, digits and _ only")
        self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
