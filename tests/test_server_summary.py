"""After the game over HTTP: GET /api/games/{id}/summary and POST /api/replay (docs/web.md).

A finished game's summary is for anyone who may watch it; a running game's is refused to everyone
(the board and its log are the public history until then). An uploaded record gets the same summary,
or a refusal that says what is wrong with it; nothing past the size limit is read.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from risk.errors import RecordError
from risk.history import summarize
from risk.record import replay_record, write_record
from risk.server.api.after import MAX_RECORD
from risk.server.app import create_app
from risk.server.storage import MemoryStorage

SEED = 4_817_305_529_631  # long enough that its digits never appear by chance


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(MemoryStorage())) as test_client:
        yield test_client


def create(client: TestClient, seats: list[dict[str, Any]]) -> dict[str, Any]:
    answer = client.post("/api/games", json={"seats": seats, "seed": SEED, "bot_delay": 0})
    assert answer.status_code == 201, answer.text
    return answer.json()


def finished_bot_game(client: TestClient) -> str:
    game = create(client, [{"kind": "bot", "bot": "quick"}] * 3)
    deadline = time.monotonic() + 120
    while client.get(f"/api/games/{game['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    return game["id"]


def record_of(client: TestClient, game_id: str) -> str:
    master = client.app.state.master  # type: ignore[attr-defined]
    return write_record(master.live(game_id).game)


def refused(answer: Any, status: int, code: str, *words: str) -> None:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code, error
    for word in words:
        assert word in error["message"], error


def test_a_finished_games_summary_for_anyone(client: TestClient) -> None:
    game_id = finished_bot_game(client)
    answer = client.get(f"/api/games/{game_id}/summary")  # no token: a watcher
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["content-encoding"] == "gzip"  # the test client asks for it, as browsers do
    summary = answer.json()
    text = record_of(client, game_id)
    game = replay_record(text).game
    assert summary == summarize(game)
    assert summary["over"] and summary["winner"] == game.winner
    assert len(summary["frames"]["steps"]) == summary["actions"] + 1
    assert summary["luck"]["total"]["rolls"] > 0
    # A point at the start of every turn, and one at the end of the game (in its last turn).
    assert summary["series"]["turn"] == [*range(1, summary["turns"] + 1), summary["turns"]]
    assert str(SEED) not in answer.text and "seed" not in answer.text
    # Asked again: the same answer (kept while the server runs), and plain JSON without gzip.
    plain = client.get(f"/api/games/{game_id}/summary", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and json.loads(plain.content) == summary
    # The record of the same game uploaded: the same summary, said to match its seed.
    uploaded = client.post("/api/replay", content=text, headers={"Content-Type": "text/plain"})
    assert uploaded.status_code == 200, uploaded.text
    assert uploaded.json() == summary | {"verified": True}


def test_a_running_game_is_refused_to_everyone(client: TestClient) -> None:
    humans = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    game = create(client, [*humans, {"kind": "bot", "bot": "quick"}])
    token = game["seats"][0]["token"]
    for headers in ({}, {"Authorization": f"Bearer {token}"}):
        answer = client.get(f"/api/games/{game['id']}/summary", headers=headers)
        refused(answer, 409, "not-over", "when the game is over")
        assert str(SEED) not in answer.text and token not in answer.text
    # Waiting for players is not over either.
    waiting = create(client, [{"kind": "human", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}])
    refused(client.get(f"/api/games/{waiting['id']}/summary"), 409, "not-over")
    refused(client.get("/api/games/nosuchgame/summary"), 404, "not-found", "nosuchgame")


def test_the_record_of_a_running_game_is_refused_as_its_summary_is(client: TestClient) -> None:
    """One situation, one code: the record answered 422 ``bad-request`` where the summary answers 409
    ``not-over``; now both do, and the OpenAPI schema says so."""
    humans = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    game = create(client, [*humans, {"kind": "bot", "bot": "quick"}])
    waiting = create(client, [{"kind": "human", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}])
    for created in (game, waiting):
        token = created["seats"][0]["token"]
        answer = client.get(
            f"/api/games/{created['id']}/record", headers={"Authorization": f"Bearer {token}"}
        )
        refused(answer, 409, "not-over", "when the game is over")
        assert str(SEED) not in answer.text and token not in answer.text
    responses = client.get("/openapi.json").json()["paths"]["/api/games/{game_id}/record"]["get"]["responses"]
    assert "not-over" in responses["409"]["description"]


def test_uploads_that_are_not_records(client: TestClient) -> None:
    game_id = finished_bot_game(client)
    text = record_of(client, game_id)

    def upload(body: bytes | str) -> Any:
        return client.post("/api/replay", content=body, headers={"Content-Type": "text/plain"})

    refused(upload(b""), 422, "bad-record", "nothing was uploaded")
    refused(upload(b"\xff\xfe\x00risk"), 422, "bad-record", "UTF-8")
    refused(upload("a shopping list\n"), 422, "bad-record", "line 1", "risk-record 1")
    lines = text.splitlines()
    attack = next(i for i, line in enumerate(lines) if line.startswith("attack "))
    changed = "\n".join([*lines[:attack], "attack alaska argentina 3", *lines[attack + 1 :]]) + "\n"
    refused(upload(changed), 422, "bad-record", f"line {attack + 1}:")
    dice = next(i for i, line in enumerate(lines) if line.startswith("~ dice "))
    attack, defence = (side.count(",") + 1 for side in lines[dice].split()[2:])
    # The same dice, other faces: not what the record's seed rolled.
    other = f"~ dice {','.join('1' * attack)} {','.join('6' * defence)}"
    if other == lines[dice]:
        other = f"~ dice {','.join('6' * attack)} {','.join('1' * defence)}"
    loaded = "\n".join([*lines[:dice], other, *lines[dice + 1 :]]) + "\n"
    refused(upload(loaded), 422, "bad-record", f"line {dice + 1}:", "not what seed")
    refused(upload(text.replace("board: classic", "board: /etc/hosts.json")), 422, "bad-record", "no board")
    # Past the limit nothing more is read: by the declared length, and by what arrives.
    refused(upload(text + "#" * MAX_RECORD), 413, "too-large", "at most")

    def chunks() -> Iterator[bytes]:  # sent without a declared length
        yield text.encode()
        for _ in range(2 * MAX_RECORD // 100_000):
            yield b"# padding\n" * 10_000

    streamed = client.post("/api/replay", content=chunks(), headers={"Content-Type": "text/plain"})
    refused(streamed, 413, "too-large")
    # A record of an unfinished game (what a player saves mid-game) replays as far as it goes.
    cut = len(lines) // 2
    while lines[cut].startswith("~"):  # an action's chance outcomes stay with it
        cut += 1
    half = ["result: unfinished" if line.startswith("result:") else line for line in lines[:cut]]
    partial = upload("\n".join(half) + "\n")
    assert partial.status_code == 200, partial.text
    assert partial.json()["over"] is False


def test_pages_are_served(client: TestClient) -> None:
    for path in ("/game/abc/summary", "/replay"):
        page = client.get(path)
        assert page.status_code == 200 and "summary.js" in page.text
        assert "script-src 'self'" in page.headers["content-security-policy"]


def test_a_summary_that_cannot_be_made_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = finished_bot_game(client)

    def broken(game: Any) -> dict[str, Any]:
        raise RecordError("action 7 does not replay")

    monkeypatch.setattr("risk.server.master.seeing.summarize", broken)
    refused(client.get(f"/api/games/{game_id}/summary"), 503, "unavailable", "action 7 does not replay")
