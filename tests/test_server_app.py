"""The HTTP and websocket API (docs/web.md): answers, refusals with their codes, and pages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from risk.server.api.websocket import MAX_MESSAGE
from risk.server.app import create_app
from risk.server.storage import MemoryStorage


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(MemoryStorage())) as test_client:
        yield test_client


def new_game(client: TestClient, **extra: Any) -> dict[str, Any]:
    body = {
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "open"}],
        "seed": 12,
        "bot_delay": 0,
    } | extra
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_meta_lists_editions_games_options_bots(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert set(meta["editions"]) == {"1993", "2003", "2008"}
    assert meta["editions"]["2008"]["options"]["fortify"] == "chain"
    assert meta["games"]["mission"]["editions"] == ["2003"]
    names = [o["name"] for o in meta["options"]]
    assert "fortify" in names and "card-values" in names and "game" not in names
    assert all(o["description"] for o in meta["options"])
    assert [b["name"] for b in meta["bots"]][:3] == ["random", "beginner", "quick"]
    levels = {level["name"]: level for level in meta["levels"]}
    assert list(levels) == ["easy", "normal", "hard", "expert"]
    assert levels["easy"]["bot"] == "beginner" and all(level["description"] for level in levels.values())


def test_board_and_drawing(client: TestClient) -> None:
    data = client.get("/api/boards/classic").json()
    assert len(data["board"]["territories"]) == 42
    assert data["board"]["territories"][0]["slug"] == "alaska"
    assert set(data["drawing"]["territories"]) == {t["slug"] for t in data["board"]["territories"]}
    for bad in ["atlantis", "..%2Fclassic", "classic.json"]:
        answer = client.get(f"/api/boards/{bad}")
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "not-found"


def test_odds(client: TestClient) -> None:
    odds = client.get("/api/odds", params={"attackers": 3, "defenders": 2}).json()
    assert 0.6 < odds["win"] < 0.7
    assert (
        client.get("/api/odds", params={"attackers": 0, "defenders": 2}).json()["error"]["code"]
        == "bad-request"
    )


def test_create_list_join_view(client: TestClient) -> None:
    game = new_game(client)
    assert game["seats"][0]["link"] == f"/game/{game['id']}#token={game['seats'][0]['token']}"
    assert game["seats"][2]["token"] is None
    listed = client.get("/api/games").json()["games"]
    assert [g["id"] for g in listed] == [game["id"]] and listed[0]["status"] == "waiting"
    assert listed[0]["seats"][2]["open"] is True
    assert "token" not in str(listed)
    # Before everyone is seated, nothing moves.
    refused = client.post(
        f"/api/games/{game['id']}/actions",
        json={"action": "claim alaska", "state_id": 0},
        headers=bearer(game["seats"][0]["token"]),
    )
    assert refused.status_code == 409 and refused.json()["error"]["code"] in ("waiting", "not-your-turn")
    joined = client.post(f"/api/games/{game['id']}/join", json={"seat": 2, "name": "Cy"}).json()
    assert client.get(f"/api/games/{game['id']}").json()["status"] == "playing"
    again = client.post(f"/api/games/{game['id']}/join", json={"seat": 2, "name": "Dee"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "seat-taken"
    view = client.get(f"/api/games/{game['id']}/view", headers=bearer(joined["token"])).json()
    assert view["seat"] == 2 and view["view"]["players"][2]["name"] == "Cy" and "hand" in view["view"]
    spectator = client.get(f"/api/games/{game['id']}/view").json()
    assert spectator["seat"] is None and "hand" not in spectator["view"]


def test_actions_over_http(client: TestClient) -> None:
    game = new_game(client, seats=[{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")])
    game_id = game["id"]
    tokens = [s["token"] for s in game["seats"]]
    state = client.get(f"/api/games/{game_id}/view").json()
    to_act = state["view"]["to_act"]
    url = f"/api/games/{game_id}/actions"
    cases = [
        ({"Authorization": "Bearer nope"}, {"action": "claim alaska", "state_id": 0}, 403, "bad-token"),
        ({"Authorization": "Basic abc"}, {"action": "claim alaska", "state_id": 0}, 403, "bad-token"),
        ({}, {"action": "claim alaska", "state_id": 0}, 403, "bad-token"),
        (bearer(tokens[(to_act + 1) % 3]), {"action": "claim alaska", "state_id": 0}, 409, "not-your-turn"),
        (bearer(tokens[to_act]), {"action": "claim", "state_id": 0}, 422, "notation"),
        (bearer(tokens[to_act]), {"action": "endturn", "state_id": 0}, 422, "illegal"),
        (bearer(tokens[to_act]), {"action": "claim alaska", "state_id": 7}, 409, "stale"),
        (bearer(tokens[to_act]), {"state_id": 0}, 422, "bad-request"),
        (bearer(tokens[to_act]), {"action": "x" * 300, "state_id": 0}, 422, "bad-request"),
    ]
    for headers, body, status, code in cases:
        answer = client.post(url, json=body, headers=headers)
        assert (answer.status_code, answer.json()["error"]["code"]) == (status, code), (body, answer.text)
        assert answer.json()["error"]["message"]
    assert client.get(f"/api/games/{game_id}").json()["state_id"] == 0  # nothing changed
    answer = client.post(url, json={"action": "claim alaska", "state_id": 0}, headers=bearer(tokens[to_act]))
    assert answer.status_code == 200 and answer.json() == {"state_id": 1}
    assert (
        client.post("/api/games/nosuchgame/actions", json={"action": "x", "state_id": 0}).status_code == 404
    )


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"seats": []}, "seats"),
        ({"seats": [{"kind": "bot", "bot": "quick"}] * 3, "edition": "1999"}, "no edition"),
        ({"seats": [{"kind": "bot", "bot": "quick"}] * 3, "bot_delay": -1}, "bot_delay"),
        ({"seats": [{"kind": "bot", "bot": "quick"}] * 3, "options": {"army-cap": "lots"}}, "army"),
        ({"seats": "three"}, "seats"),
    ],
)
def test_bad_create_requests(client: TestClient, body: dict[str, Any], words: str) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error["code"] == "bad-request" and words in error["message"]
    assert client.get("/api/games").json()["games"] == []


def test_websocket_play_and_refusals(client: TestClient) -> None:
    game = new_game(
        client,
        seats=[
            {"kind": "human", "name": "Ann"},
            {"kind": "bot", "bot": "quick"},
            {"kind": "bot", "bot": "quick"},
        ],
    )
    game_id, token = game["id"], game["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": token})
        state = ws.receive_json()
        assert state["type"] == "state" and state["seat"] == 0 and state["log_start"] == 0
        states = [state]

        def reply() -> dict[str, Any]:
            """The answer to the last message: the bots may move meanwhile, their states come between."""
            while (message := ws.receive_json())["type"] == "state":
                states.append(message)
            return message

        ws.send_text("not json")
        assert reply() == {
            "type": "error",
            "ref": None,
            "code": "bad-request",
            "message": "the message is not JSON",
        }
        ws.send_bytes(b"\x00\x01")
        assert "binary" in reply()["message"]
        ws.send_text("x" * (MAX_MESSAGE + 1))
        assert "longer" in reply()["message"]
        ws.send_json([1, 2])
        assert "object" in reply()["message"]
        ws.send_json({"type": "dance", "ref": 5})
        answer = reply()
        assert answer["ref"] == 5 and "unknown message type" in answer["message"]
        ws.send_json({"type": "action", "action": 3, "ref": 6})
        assert reply()["code"] == "bad-request"
        ws.send_json({"type": "ping"})
        assert reply() == {"type": "pong"}
        # Play until the bots have moved and it is Ann's turn; a stale id is refused, the right one taken.
        state = states[-1]
        while not state["legal"]:
            state = ws.receive_json()
        legal = state["legal"][0]["text"]
        ws.send_json({"type": "action", "action": legal, "state_id": state["state_id"] - 1, "ref": 7})
        refused = ws.receive_json()
        assert refused["code"] in ("stale", "illegal") and refused["ref"] == 7
        ws.send_json({"type": "action", "action": legal, "state_id": state["state_id"], "ref": 8})
        assert ws.receive_json() == {"type": "ack", "ref": 8, "state_id": state["state_id"] + 1}
        following = ws.receive_json()
        assert following["type"] == "state" and following["log_start"] > 0


def test_websocket_hello_refusals(client: TestClient) -> None:
    game = new_game(client)
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as ws:
        ws.send_json({"type": "hello", "token": "wrong"})
        assert ws.receive_json()["code"] == "bad-token"
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as ws:
        ws.send_json({"type": "action", "action": "claim alaska"})
        assert ws.receive_json()["code"] == "bad-request"
    with client.websocket_connect("/api/games/nope/ws") as ws:
        ws.send_json({"type": "hello", "token": None})
        assert ws.receive_json()["code"] == "not-found"
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as ws:
        ws.send_json({"type": "hello", "token": None})
        assert ws.receive_json()["seat"] is None
        ws.send_json({"type": "action", "action": "claim alaska", "state_id": 0})
        assert ws.receive_json()["code"] == "bad-token"


def test_pages_and_security_headers(client: TestClient) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200 and "<html" in lobby.text.lower()
    policy = lobby.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert lobby.headers["x-content-type-options"] == "nosniff"
    page = client.get("/game/abc")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    assert "<script>" not in lobby.text and "<script>" not in page.text  # no inline script
    assert client.get("/openapi.json").json()["info"]["title"] == "risk"


def test_websockets_from_other_sites_are_refused(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    game = new_game(client)
    url = f"/api/games/{game['id']}/ws"
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(url, headers={"origin": "http://evil.example"}) as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 4403
    with client.websocket_connect(url, headers={"origin": "http://testserver"}) as ws:
        ws.send_json({"type": "hello", "token": None})
        assert ws.receive_json()["type"] == "state"


def test_a_finished_game_nobody_watches_leaves_memory(client: TestClient) -> None:
    import time

    master = client.app.state.master  # type: ignore[attr-defined]
    game = new_game(client, seats=[{"kind": "bot", "bot": "quick"}] * 3)
    deadline = time.monotonic() + 60
    while client.get(f"/api/games/{game['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as ws:
        ws.send_json({"type": "hello", "token": None})
        assert ws.receive_json()["status"] == "over"
        assert game["id"] in master._live
    deadline = time.monotonic() + 10
    while game["id"] in master._live:
        assert time.monotonic() < deadline, "the finished game stayed in memory"
        time.sleep(0.02)
    assert client.get(f"/api/games/{game['id']}").json()["status"] == "over"  # reloaded from the store


def test_a_bot_game_nobody_ever_watched_leaves_memory_when_it_ends(client: TestClient) -> None:
    # A server that plays bot games for days must not keep every finished one (bench_load found it).
    import time

    master = client.app.state.master  # type: ignore[attr-defined]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    game = new_game(client, seats=[{"kind": "bot", "bot": "quick"}] * 3)
    deadline = time.monotonic() + 60
    while game["id"] in master._live or game["id"] in hub.drivers:
        assert time.monotonic() < deadline, "the finished game, or its driver, stayed in memory"
        time.sleep(0.05)
    summary = client.get(f"/api/games/{game['id']}").json()  # read from the store
    assert summary["status"] == "over"
    assert summary["winner"] is not None
    assert game["id"] not in master._live  # a look at the summary does not load the game again
    assert client.get("/api/games/nosuchgame").status_code == 404
