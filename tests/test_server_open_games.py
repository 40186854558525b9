"""Open games (docs/web.md, "Open games"; issue 39 item 2) through the API: GET /api/games's filters
(edition, game, board, players, pace, rated) keep the games they name, apply before the list's cap of
100 (an old open game behind a hundred newer ones is still found), and a filter that names nothing
known is refused in words."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from risk.server.app import create_app
from risk.server.storage import MemoryStorage

LIST_CAP = 100


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(MemoryStorage(), limits=None)) as client:
        yield client


def waiting_game(client: TestClient, seats: int = 3, **body: Any) -> str:
    """A public game with its first seat taken and the others open: its id."""
    created = client.post(
        "/api/games",
        json={"seats": [{"kind": "human", "name": "Ann"}] + [{"kind": "open"}] * (seats - 1), **body},
    )
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


def open_ids(client: TestClient, query: str = "") -> list[str]:
    answer = client.get(f"/api/games?status=waiting{query}")
    assert answer.status_code == 200, answer.text
    games = answer.json()["games"]
    assert all(g["status"] == "waiting" for g in games)
    return [g["id"] for g in games]


def test_the_filters_find_an_open_game_behind_the_cap(client: TestClient) -> None:
    old = waiting_game(
        client, seats=4, edition="1993", game="secret-mission", board="pangaea", turn_time=86_400
    )
    newer = [waiting_game(client) for _ in range(LIST_CAP)]
    unfiltered = open_ids(client)
    assert len(unfiltered) == LIST_CAP and old not in unfiltered  # the cap: the newest hundred
    assert set(unfiltered) == set(newer)
    for query in ("&edition=1993", "&game=secret-mission", "&board=pangaea", "&players=4", "&pace=days"):
        assert open_ids(client, query) == [old], query
    assert set(open_ids(client, "&edition=1993&game=secret-mission&board=pangaea&players=4&pace=days")) == {
        old
    }
    assert open_ids(client, "&edition=1993&pace=live") == []
    # The summary carries what the lobby shows of it: game and edition (rules), board, seats, clock.
    summary = client.get(f"/api/games/{old}").json()
    assert summary["rules"].split()[:2] == ["1993", "game=secret-mission"]
    assert (summary["board"], summary["board_sha256"], summary["rated"]) == ("pangaea", None, False)
    assert [s["open"] for s in summary["seats"]] == [False, True, True, True]
    assert summary["timer"]["turn_time"] == 86_400


def test_each_filter_keeps_its_games(client: TestClient) -> None:
    generated = client.post("/api/boards/generate", json={"territories": 12, "continents": 3, "seed": 4})
    assert generated.status_code == 200, generated.text
    uploaded = waiting_game(client, seats=3, board=generated.json()["board"], turn_time=180)
    rated = waiting_game(client, seats=2, game="two-player", rated=True, turn_time=3_600)
    plain = waiting_game(client, seats=3, edition="1993")
    playing = client.post(
        "/api/games",
        json={
            "game": "two-player",
            "seats": [{"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "quick"}],
        },
    )
    assert playing.status_code == 201  # no open seat: playing, never in the waiting list
    assert set(open_ids(client)) == {plain, rated, uploaded}
    assert set(open_ids(client, "&board=other")) == {uploaded}  # uploaded or generated, whatever its name
    assert set(open_ids(client, "&board=classic")) == {plain, rated}
    assert set(open_ids(client, "&players=2")) == {rated}
    assert set(open_ids(client, "&players=3")) == {plain, uploaded}
    assert set(open_ids(client, "&rated=true")) == {rated}
    assert set(open_ids(client, "&rated=false")) == {plain, uploaded}
    assert set(open_ids(client, "&pace=live")) == {plain, uploaded}  # no clock, 3 minutes a turn
    assert set(open_ids(client, "&pace=days")) == {rated}  # an hour a turn: a game of days
    assert set(open_ids(client, "&game=world")) == {plain, uploaded}
    assert set(open_ids(client, "&edition=2008&game=two-player")) == {rated}
    # Without status, the filters keep games of every status alike.
    everyone = client.get("/api/games?players=2").json()["games"]
    assert {g["id"] for g in everyone} == {rated, playing.json()["id"]}


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("edition=1999", "no edition '1999'; editions: 1993, 2003, 2008"),
        ("game=checkers", "no game 'checkers'; games: world"),
        ("board=atlantis", "no board 'atlantis'; boards: classic"),
    ],
)
def test_an_unknown_filter_is_refused_by_name(client: TestClient, query: str, words: str) -> None:
    answer = client.get(f"/api/games?{query}")
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "bad-request"
    assert words in answer.json()["error"]["message"]


@pytest.mark.parametrize("query", ["pace=weeks", "players=four", "players=0", "rated=perhaps"])
def test_a_malformed_filter_is_refused(client: TestClient, query: str) -> None:
    answer = client.get(f"/api/games?{query}")
    assert answer.status_code == 422
    assert query.split("=")[0] in answer.text
