"""A real `risk serve` process on a free loopback port, for the process and browser tests."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
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
    ``log``, everything the server prints goes there; ``launcher``: the command that runs `risk`."""
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
        stdout=subprocess.DEVNULL if log is None else log,
        stderr=subprocess.PIPE if log is None else subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/meta", timeout=1).read()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    said = process.stderr.read().decode() if process.stderr else "(see its log)"
                    raise RuntimeError(f"the server did not start: {said}") from None
                time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)
        if process.stderr:
            process.stderr.close()


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
