"""A real `risk serve` process on a free loopback port, for the process and browser tests."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


RUNNING: dict[int, subprocess.Popen[bytes]] = {}  # the servers running now, by port (server_log)


@contextmanager
def server(
    url: str,
    port: int,
    *options: str,
    log_level: str = "warning",
    log: IO[bytes] | None = None,
    launcher: Sequence[str] = (sys.executable, "-m", "risk"),
) -> Iterator[subprocess.Popen[bytes]]:
    """`risk serve --db URL [OPTIONS]` on ``port``, ready to answer; killed on the way out. With
    ``log``, everything the server prints goes there, else to a file of its own (``server_log`` reads
    it): never a pipe nobody reads, where a server that printed 64 KB would stop at its next line;
    ``launcher``: the command that runs `risk`."""
    own_log = tempfile.TemporaryFile() if log is None else None  # noqa: SIM115 (closed in the finally)
    process = subprocess.Popen(
        [
            *launcher,
            "serve",
            "--port",
            str(port),
            "--db",
            url,
            "--log-level",
            log_level,
            *options,
        ],
        stdout=log or own_log,
        stderr=subprocess.STDOUT,
    )
    process.own_log = own_log  # type: ignore[attr-defined]
    RUNNING[port] = process
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/meta", timeout=1).read()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    said = server_log(process) if own_log else "(see its log)"
                    raise RuntimeError(f"the server did not start: {said}") from None
                time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)
        RUNNING.pop(port, None)
        if own_log is not None:
            own_log.close()


def server_log(process: subprocess.Popen[bytes] | int, tail: int = 20_000) -> str:
    """The last ``tail`` characters a `server` (or the one on a port) without a ``log`` of its own
    printed."""
    if isinstance(process, int):
        if process not in RUNNING:
            return "(no server of these tests on that port)"
        process = RUNNING[process]
    own_log = getattr(process, "own_log", None)
    if own_log is None or own_log.closed:
        return "(no log kept)"
    # pread: the file's offset is shared with the server, which still writes at it
    descriptor = own_log.fileno()
    size = os.fstat(descriptor).st_size
    start = max(0, size - tail)
    return os.pread(descriptor, size - start, start).decode(errors="replace")


def request(
    port: int, method: str, path: str, body: dict[str, Any] | None = None, token: str | None = None
) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    call = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data, headers, method=method)
    with urllib.request.urlopen(call, timeout=10) as answer:
        raw = answer.read()
        return raw.decode() if answer.headers.get_content_type() == "text/plain" else json.loads(raw)


def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    return request(port, "POST", path, body)
