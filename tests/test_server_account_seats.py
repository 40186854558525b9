"""Seats bound to an account (docs/web.md, "Accounts"; issue 39 item 1): a guest who signs up keeps
the seats their browser holds by binding them; a bound seat's link then acts and sees for it only
with the account's session beside it (over HTTP, the websocket and "Your games"), so a stolen link is
no use; the account lists its seats; deleting it unbinds them and names them "deleted player"."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from risk.server.accounts.current import COOKIE
from risk.server.app import create_app
from risk.server.sql import open_storage
from risk.server.storage import MemoryStorage
from test_server_accounts import PASSWORD, CountingHasher, refused


def app_client(storage: Any = None) -> TestClient:
    app = create_app(storage or MemoryStorage(), password_hasher=CountingHasher(), sign_in_rate=None)
    return TestClient(app, base_url="http://testserver")


def two_humans(c: TestClient) -> tuple[str, list[str]]:
    body = {
        "seats": [
            {"kind": "human", "name": "Ann"},
            {"kind": "human", "name": "Bob"},
            {"kind": "bot", "bot": "quick"},
        ],
        "seed": 12,
        "bot_delay": 0,
    }
    answer = c.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    game = answer.json()
    return game["id"], [s["token"] for s in game["seats"][:2]]


def signed_up(c: TestClient, name: str = "Ann") -> str:
    answer = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    csrf: str = answer.json()["csrf"]
    return csrf


def bind(c: TestClient, csrf: str, seats: list[dict[str, str]]) -> list[dict[str, Any]]:
    answer = c.post("/api/account/seats", json={"seats": seats}, headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 200, answer.text
    lines: list[dict[str, Any]] = answer.json()["seats"]
    return lines


def view(c: TestClient, game_id: str, token: str) -> Any:
    return c.get(f"/api/games/{game_id}/view", headers={"Authorization": f"Bearer {token}"})


def test_a_bound_seats_link_works_only_beside_its_accounts_session() -> None:
    with app_client() as ann:
        game_id, (ann_token, bob_token) = two_humans(ann)
        csrf = signed_up(ann)
        lines = bind(ann, csrf, [{"game": game_id, "token": ann_token}, {"game": game_id, "token": "x" * 32}])
        assert lines[0] == {"game": game_id, "seat": 0, "name": "Ann"}
        assert lines[1]["error"]["code"] == "bad-token"
        assert view(ann, game_id, ann_token).json()["seat"] == 0  # with the session: as before

        thief = TestClient(ann.app, base_url="http://testserver")  # the link alone, in another browser
        message = refused(view(thief, game_id, ann_token), 403, "account-seat")
        assert "belongs to an account" in message
        acted = thief.post(
            f"/api/games/{game_id}/actions",
            json={"action": "end-turn", "state_id": 0},
            headers={"Authorization": f"Bearer {ann_token}"},
        )
        refused(acted, 403, "account-seat")
        mine = thief.post("/api/mine", json={"seats": [{"game": game_id, "token": ann_token}]}).json()[
            "seats"
        ]
        assert mine[0]["error"]["code"] == "account-seat" and "name" not in mine[0]
        with thief.websocket_connect(f"/api/games/{game_id}/ws") as socket:
            socket.send_json({"type": "hello", "token": ann_token})
            answer = socket.receive_json()
            assert answer["type"] == "error" and answer["code"] == "account-seat", answer
        with ann.websocket_connect(f"/api/games/{game_id}/ws") as socket:  # the handshake's cookie
            socket.send_json({"type": "hello", "token": ann_token})
            assert socket.receive_json()["type"] == "state"

        # Another account cannot act for it either, nor take it over by binding the link.
        bob_csrf = signed_up(thief, "Bob")
        refused(view(thief, game_id, ann_token), 403, "account-seat")
        taken = bind(thief, bob_csrf, [{"game": game_id, "token": ann_token}])
        assert taken[0]["error"]["code"] == "bad-token" and "another account" in taken[0]["error"]["message"]
        assert view(thief, game_id, bob_token).json()["seat"] == 1  # an unbound seat: the link suffices


def test_the_account_lists_its_seats_and_binding_twice_changes_nothing() -> None:
    with app_client() as c:
        first, (first_token, _) = two_humans(c)
        second, (_, second_token) = two_humans(c)
        csrf = signed_up(c)
        bind(c, csrf, [{"game": first, "token": first_token}, {"game": second, "token": second_token}])
        again = bind(c, csrf, [{"game": first, "token": first_token}])
        assert again == [{"game": first, "seat": 0, "name": "Ann"}]
        listed = c.get("/api/account/seats").json()["seats"]
        assert [(line["game"], line["seat"]) for line in listed] == [(second, 1), (first, 0)]  # newest first
        assert listed[0]["players"] == ["Ann", "Bob", listed[0]["players"][2]]
        assert "token" not in str(listed)
        c.cookies.clear()
        refused(c.get("/api/account/seats"), 401, "signed-out")
        refused(c.post("/api/account/seats", json={"seats": []}), 401, "signed-out")


def test_binding_needs_the_csrf_token() -> None:
    with app_client() as c:
        game_id, (token, _) = two_humans(c)
        signed_up(c)
        refused(
            c.post("/api/account/seats", json={"seats": [{"game": game_id, "token": token}]}), 403, "csrf"
        )
        thief = TestClient(c.app, base_url="http://testserver")
        assert view(thief, game_id, token).json()["seat"] == 0  # not bound


def test_deleting_the_account_unbinds_its_seats_as_deleted_player() -> None:
    with app_client() as c:
        game_id, (token, _) = two_humans(c)
        csrf = signed_up(c)
        bind(c, csrf, [{"game": game_id, "token": token}])
        export = c.get("/api/account/export").json()
        assert export["seats"][0]["game"] == game_id
        answer = c.post("/api/account/delete", json={"password": PASSWORD}, headers={"X-CSRF-Token": csrf})
        assert answer.status_code == 200, answer.text
        summary = c.get(f"/api/games/{game_id}").json()
        assert [s["name"] for s in summary["seats"]][:2] == ["deleted player", "Bob"], summary
        other = TestClient(c.app, base_url="http://testserver")
        assert view(other, game_id, token).json()["seat"] == 0  # unbound: the link works alone again


def test_a_binding_is_kept_across_a_restart(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    storage = open_storage(url)
    try:
        with app_client(storage) as c:
            game_id, (token, _) = two_humans(c)
            bind(c, signed_up(c), [{"game": game_id, "token": token}])
            session = c.cookies[COOKIE]
    finally:
        storage.close()
    storage = open_storage(url)
    try:
        with app_client(storage) as c:
            refused(view(c, game_id, token), 403, "account-seat")
            c.cookies.set(COOKIE, session)
            assert view(c, game_id, token).json()["seat"] == 0
    finally:
        storage.close()
