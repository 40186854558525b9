"""What a request may cost the server (issue 36): every body capped before it is parsed, chunked or not
(risk.server.limits.BodyLimitMiddleware); board checks and generations rate-limited per address and
run a few at once (risk.server.boards.BoardJobs); game options that are numbers taken only as JSON
numbers; a finished game's chat and seat settings closed."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from risk.server.app import create_app
from risk.server.boards import BoardJobs
from risk.server.errors import Refusal
from risk.server.limits import LARGE_BODIES, MAX_BODY, Limits, Rate, body_cap
from risk.server.mine import MAX_SEATS
from risk.server.storage import MemoryStorage
from test_server_social import finished_game

BOTS = [{"kind": "bot", "bot": "quick"}] * 3


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(MemoryStorage())) as client:
        yield client


def refused(answer: Any, status: int, code: str, words: str = "") -> None:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code and words in error["message"] and "\n" not in error["message"]


# -- every body capped before it is parsed -----------------------------------------------------------
BODY_ROUTES = [
    "/api/games",
    "/api/rulesets",
    "/api/boards/generate",
    "/api/games/abc/chat",
    "/api/replay",
    "/api/mine",
]


def padded(path: str, size: int) -> bytes:
    """A JSON body of ``size`` bytes, as the route would take it but for its size (spaces)."""
    body = json.dumps({"name": "x", "seats": BOTS, "territories": 42}).encode()
    return body[:-1] + b" " * (size - len(body)) + b"}"


@pytest.mark.parametrize("path", BODY_ROUTES)
def test_a_body_over_the_cap_is_refused_by_its_length_before_it_is_read(
    client: TestClient, path: str
) -> None:
    cap = body_cap(path)
    answer = client.post(path, content=padded(path, cap + 1), headers={"content-type": "application/json"})
    refused(answer, 413, "too-large", f"larger than {cap // 1024} KB")
    assert client.get("/api/games").json()["games"] == []


@pytest.mark.parametrize("path", BODY_ROUTES)
def test_a_chunked_body_over_the_cap_is_refused_without_reading_it_all(client: TestClient, path: str) -> None:
    cap = body_cap(path)

    def chunks() -> Iterator[bytes]:  # far more than the cap: the server stops reading at the cap
        for _ in range(64):
            yield b" " * (cap // 4)

    answer = client.post(path, content=chunks(), headers={"content-type": "application/json"})
    assert "content-length" not in answer.request.headers  # sent chunked
    refused(answer, 413, "too-large", f"larger than {cap // 1024} KB")
    assert client.get("/api/games").json()["games"] == []


def test_a_body_within_the_cap_still_works_chunked_or_not(client: TestClient) -> None:
    body = padded("/api/games", MAX_BODY + 1000)  # over the small cap, within the games' one
    assert len(body) < LARGE_BODIES["/api/games"]
    made = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    assert made.status_code == 201, made.text
    chunked = client.post(
        "/api/games", content=iter([body[:100], body[100:]]), headers={"content-type": "application/json"}
    )
    assert chunked.status_code == 201, chunked.text
    assert len(client.get("/api/games").json()["games"]) == 2


def test_the_most_seats_a_browser_keeps_fit_in_your_games_cap(client: TestClient) -> None:
    """Every seat at its longest, each letter one outside the BMP and escaped as JSON escapes it (12
    bytes a letter): a body the schema takes is answered, not refused as too large."""
    seat = {"game": "\U0001f600" * 64, "token": "\U0001f600" * 128, "seen": 2**31 - 1}
    body = json.dumps({"seats": [seat] * MAX_SEATS}).encode()  # ensure_ascii: the longest spelling
    assert MAX_BODY < len(body) < body_cap("/api/mine")
    answer = client.post("/api/mine", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 200, answer.text[:300]
    assert len(answer.json()["seats"]) == MAX_SEATS


def test_every_route_says_it_may_refuse_a_body_too_large(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    routes = [(path, method, route) for path, methods in paths.items() for method, route in methods.items()]
    assert len(routes) > 20
    for path, method, route in routes:
        if "422" in route["responses"]:  # a route that lists its refusals
            assert "413" in route["responses"], (method, path)


# -- board checks and generations -----------------------------------------------------------------------
def test_board_checks_and_generations_are_rate_limited_per_address() -> None:
    limits = Limits(games=None, actions=None, messages=None, boards=Rate(2, 600))
    with TestClient(create_app(MemoryStorage(), limits=limits)) as client:
        assert client.post("/api/boards/check", content=b"{}").status_code == 200
        generated = client.post("/api/boards/generate", json={"territories": 6, "continents": 1})
        assert generated.status_code == 200, generated.text
        for path, body in (("/api/boards/check", b"{}"), ("/api/boards/generate", b"{}")):
            answer = client.post(path, content=body)
            refused(answer, 429, "rate-limited", "board checks")
            assert int(answer.headers["retry-after"]) > 0
        assert client.get("/api/boards").status_code == 200  # the rest of the server answers


def test_board_jobs_run_a_few_at_once_and_refuse_a_crowd() -> None:
    jobs = BoardJobs(running=1, waiting=2)
    release = threading.Event()
    running: list[int] = []
    most = [0]
    lock = threading.Lock()

    def work(n: int) -> int:
        with lock:
            running.append(n)
            most[0] = max(most[0], len(running))
        release.wait(10)
        with lock:
            running.remove(n)
        return n

    async def crowd() -> list[Any]:
        tasks = [asyncio.ensure_future(jobs.run(work, n)) for n in range(5)]
        await asyncio.sleep(0.2)
        release.set()
        return await asyncio.gather(*tasks, return_exceptions=True)

    results = asyncio.run(crowd())
    assert results[:3] == [0, 1, 2] and most[0] == 1
    assert all(isinstance(r, Refusal) and r.code == "unavailable" for r in results[3:])


# -- numbers are numbers --------------------------------------------------------------------------------
@pytest.mark.parametrize("field", ["bot_delay", "defend_timeout", "turn_time"])
@pytest.mark.parametrize("value", ["3", " 3 ", True, "10", None])
def test_timing_options_are_json_numbers(client: TestClient, field: str, value: Any) -> None:
    refused(client.post("/api/games", json={"seats": BOTS, field: value}), 422, "bad-request", field)
    assert client.get("/api/games").json()["games"] == []


@pytest.mark.parametrize("field", ["bot_delay", "defend_timeout"])
def test_timing_options_take_numbers(client: TestClient, field: str) -> None:
    for value in (0, 2, 0.5):
        assert client.post("/api/games", json={"seats": BOTS, field: value}).status_code == 201


@pytest.mark.parametrize("players", [[2, "3"], ["2", 3], [True, 4], [2.0, 4]])
def test_generated_player_counts_are_json_integers(client: TestClient, players: Any) -> None:
    answer = client.post(
        "/api/boards/generate", json={"territories": 12, "continents": 2, "players": players}
    )
    refused(answer, 422, "bad-request", "players")


# -- a finished game ----------------------------------------------------------------------------------------
def test_a_finished_game_takes_no_chat_nor_seat_settings() -> None:
    storage = MemoryStorage()
    game_id, tokens = finished_game(storage)
    with TestClient(create_app(storage)) as client:
        auth = {"Authorization": f"Bearer {tokens[0]}"}
        before = client.get(f"/api/games/{game_id}/chat", headers=auth).json()["messages"]
        refused(
            client.post(f"/api/games/{game_id}/chat", json={"text": "gg"}, headers=auth), 409, "game-over"
        )
        refused(
            client.post(f"/api/games/{game_id}/prefs", json={"pace": "fast"}, headers=auth), 409, "game-over"
        )
        refused(
            client.post(f"/api/games/{game_id}/prefs", json={"defence": "most"}, headers=auth),
            409,
            "game-over",
        )
        assert client.get(f"/api/games/{game_id}/chat", headers=auth).json()["messages"] == before


def test_a_real_server_refuses_a_large_chunked_body_and_stays_small() -> None:
    """Over uvicorn, as sent on the wire: a chunked 64 MB body and a declared 256 MB one to every route
    that took them whole (1.1 to 1.5 GB of memory): refused at the cap, the server's memory unchanged."""
    import socket

    import httpx

    from live_server import free_port, server

    port = free_port()
    with server("memory", port) as process:

        def resident_mb() -> float:
            with open(f"/proc/{process.pid}/status", encoding="ascii") as status:
                line = next(row for row in status if row.startswith("VmRSS:"))
            return int(line.split()[1]) / 1024

        before = resident_mb()
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
            for path in ("/api/games", "/api/rulesets", "/api/boards/generate"):

                def chunks() -> Iterator[bytes]:
                    for _ in range(64):
                        yield b" " * (1024 * 1024)

                answer = http.post(path, content=chunks(), headers={"content-type": "application/json"})
                refused(answer, 413, "too-large")
                declared = http.post(
                    path, content=b"{}", headers={"content-type": "application/json", "content-length": "2"}
                )
                assert declared.status_code != 413  # a small body still gets through
                # 256 MB declared, a byte sent: answered at once, before the rest would arrive
                with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
                    raw.sendall(
                        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        f"Content-Length: {256 << 20}\r\n\r\n{{".encode()
                    )
                    assert raw.recv(4096).startswith(b"HTTP/1.1 413 ")
            assert http.get("/api/games").json()["games"] == []
        assert resident_mb() - before < 40
