"""`risk serve`'s own output (issue 36, item 17): a database password given in ``--db`` appears in
nothing it prints, whatever fails (a database that does not answer, a URL it cannot read, a driver it
does not have), and a failure is one line, never a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from live_server import free_port

PASSWORD = "Pw-9f3kq7zX"


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql+psycopg://ann:{PASSWORD}@127.0.0.1:1/games",  # nothing listens on port 1
        f"postgresql://ann:{PASSWORD}@127.0.0.1:1/games?connect_timeout=2",
        f"postgresql+psycopg://ann:{PASSWORD}@127.0.0.1:notaport/games",  # not a URL SQLAlchemy reads
        f"postgresql+nodriver://ann:{PASSWORD}@127.0.0.1:1/games",  # no such driver
        f"mysql://ann:{PASSWORD}@127.0.0.1:1/games",  # not a database risk takes
        f"postgresql+psycopg://ann:{PASSWORD}@/games?host=/nowhere",
    ],
)
def test_the_database_password_is_never_printed(url: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "risk", "serve", "--db", url, "--port", str(free_port())],
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 2, output
    assert PASSWORD not in output and "Traceback" not in output
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("risk serve: error: cannot open the game store"), output
    assert "***" in lines[0] or "ann@" not in lines[0]
