"""Fair play (docs/web.md, "Fair play"; issue 39 item 5): one browser and one account a seat of a rated
game; blocks between accounts (chat hidden from the blocker, never one table); a seat's mutes; chat
lines reported to the host, who never learns who reported them; the host's bans, while a game waits
(the seat opened again, the account and the browser barred) and under way (the seat resigns, a loss).
Each refusal, and what none of it tells: another seat's secrets, the reporter."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from risk.server.accounts.browser import COOKIE as BROWSER
from risk.server.accounts.store import AccountStore
from risk.server.app import create_app
from risk.server.auth import hash_token
from risk.server.sql import open_storage
from risk.server.storage import MemoryStorage, Storage
from test_server_accounts import PASSWORD, CountingHasher, refused
from test_server_social import Watcher, bearer


@pytest.fixture(autouse=True)
def _close_watchers() -> Iterator[None]:
    yield
    Watcher.close_all()


def app_of(storage: Storage | None = None) -> Any:
    return create_app(storage or MemoryStorage(), password_hasher=CountingHasher(), sign_in_rate=None)


def browser(app: Any, base_url: str = "http://testserver") -> TestClient:
    """Another browser: a cookie jar of its own (its browser id, its session)."""
    return TestClient(app, base_url=base_url)


def sign_up(c: TestClient, name: str) -> str:
    answer = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    csrf: str = answer.json()["csrf"]
    return csrf


def sign_in(c: TestClient, name: str) -> str:
    answer = c.post("/api/account/signin", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    csrf: str = answer.json()["csrf"]
    return csrf


def create(c: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    answer = c.post("/api/games", json={"seats": seats, "seed": 7, "bot_delay": 0, **extra})
    assert answer.status_code == 201, answer.text
    game: dict[str, Any] = answer.json()
    return game


def join(c: TestClient, game_id: str, seat: int, name: str) -> Any:
    return c.post(f"/api/games/{game_id}/join", json={"seat": seat, "name": name})


def joined(c: TestClient, game_id: str, seat: int, name: str) -> str:
    answer = join(c, game_id, seat, name)
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def bind(c: TestClient, csrf: str, game_id: str, token: str) -> dict[str, Any]:
    answer = c.post(
        "/api/account/seats",
        json={"seats": [{"game": game_id, "token": token}]},
        headers={"X-CSRF-Token": csrf},
    )
    assert answer.status_code == 200, answer.text
    line: dict[str, Any] = answer.json()["seats"][0]
    return line


def say(c: TestClient, game_id: str, token: str, text: str) -> int:
    answer = c.post(f"/api/games/{game_id}/chat", json={"text": text}, headers=bearer(token))
    assert answer.status_code == 201, answer.text
    seq: int = answer.json()["message"]["seq"]
    return seq


def chat_texts(c: TestClient, game_id: str, token: str) -> list[str]:
    answer = c.get(f"/api/games/{game_id}/chat", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return [m["text"] for m in answer.json()["messages"] if not m["note"]]


def three_players(app: Any) -> tuple[dict[str, Any], list[TestClient], list[str]]:
    """A casual game of Ann, Bob and Cy, each in a browser of their own, signed in, seats bound."""
    host = browser(app)
    game = create(host, [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cyd")])
    clients, tokens = [], []
    for seat in game["seats"]:
        c = browser(app)
        csrf = sign_up(c, seat["name"])
        assert "error" not in bind(c, csrf, game["id"], seat["token"])
        clients.append(c)
        tokens.append(seat["token"])
    return game, clients, tokens


# -- the browser id ----------------------------------------------------------------------------------
def test_the_server_gives_each_browser_a_long_lived_id_cookie() -> None:
    app = app_of()
    with browser(app) as c:
        first = c.get("/api/meta")
        cookie = first.headers["set-cookie"]
        assert cookie.startswith(f"{BROWSER}=")
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Max-Age=34560000" in cookie
        assert "Secure" not in cookie  # plain HTTP: a Secure cookie would not come back
        assert BROWSER in c.cookies
        assert "set-cookie" not in c.get("/api/meta").headers  # it has one now: not set again
    with browser(app_of()) as forged:
        forged.cookies.set(BROWSER, "not-one-of-ours")  # anything but one of ours is replaced
        assert forged.get("/api/meta").headers["set-cookie"].startswith(f"{BROWSER}=")
    with browser(app_of(), "https://testserver") as secure:
        assert "Secure" in secure.get("/api/meta").headers["set-cookie"]


# -- one person, one seat of a rated game ---------------------------------------------------------------
def test_one_browser_takes_one_seat_of_a_rated_game_whatever_the_account() -> None:
    app = app_of()
    with browser(app) as host:
        shared, other = browser(app), browser(app)
        game = create(
            host, [{"kind": "human", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}], rated=True
        )
        sign_up(shared, "Bob")
        joined(shared, game["id"], 1, "Bob")
        sign_up(shared, "Cyd")  # another account, the same browser
        message = refused(join(shared, game["id"], 2, "Cyd"), 403, "same-browser")
        assert "one seat each" in message
        assert app.state.master.live(game["id"]).record.seats[2].kind == "open"  # nothing changed
        # Only the id's hash is kept, on the seat.
        seat = app.state.master.live(game["id"]).record.seats[1]
        assert seat.browser == hash_token(shared.cookies[BROWSER]) != shared.cookies[BROWSER]
        sign_in(other, "Cyd")  # Cy in a browser of their own: welcome
        joined(other, game["id"], 2, "Cyd")

        # A casual game: one browser may hold every seat (friends at one computer).
        casual = create(host, [{"kind": "human", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}])
        joined(shared, casual["id"], 1, "Bob")
        joined(shared, casual["id"], 2, "Dee")


def test_binding_two_seats_of_a_rated_game_from_one_browser_is_refused() -> None:
    app = app_of()
    with browser(app) as host:
        one = browser(app)
        game = create(
            host,
            [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
            game="two-player",
            rated=True,
        )
        ann_token, bob_token = (s["token"] for s in game["seats"])
        assert "error" not in bind(one, sign_up(one, "Ann"), game["id"], ann_token)
        line = bind(one, sign_up(one, "Bob"), game["id"], bob_token)
        assert line["error"]["code"] == "same-browser"
        assert app.state.master.live(game["id"]).record.seats[1].account is None


# -- blocks ------------------------------------------------------------------------------------------
def test_blocking_and_unblocking_by_name() -> None:
    app = app_of()
    with browser(app) as ann:
        bob = browser(app)
        csrf = sign_up(ann, "Ann")
        sign_up(bob, "Bob")
        headers = {"X-CSRF-Token": csrf}
        assert ann.get("/api/account/blocks").json() == {"blocked": []}
        blocked = ann.post("/api/account/blocks", json={"name": "bob"}, headers=headers)  # any case
        assert blocked.status_code == 200, blocked.text
        assert [b["name"] for b in blocked.json()["blocked"]] == ["Bob"]
        again = ann.post("/api/account/blocks", json={"name": "Bob"}, headers=headers)
        assert [b["name"] for b in again.json()["blocked"]] == ["Bob"]  # once
        refused(
            ann.post("/api/account/blocks", json={"name": "Ann"}, headers=headers), 422, "bad-field", "name"
        )
        refused(
            ann.post("/api/account/blocks", json={"name": "Nobody"}, headers=headers),
            422,
            "bad-field",
            "name",
        )
        refused(
            ann.post("/api/account/blocks", json={"name": "x" * 201}, headers=headers), 422, "bad-request"
        )
        refused(ann.post("/api/account/blocks", json={}, headers=headers), 422, "bad-request")
        refused(ann.post("/api/account/blocks", json={"name": "Bob"}), 403, "csrf")
        refused(browser(app).get("/api/account/blocks"), 401, "signed-out")

        store: AccountStore = app.state.accounts.store
        ann_id = store.by_key("ann")
        bob_id = store.by_key("bob")
        assert ann_id is not None and bob_id is not None
        assert store.blocks_of(ann_id.id) == {bob_id.id} and store.blocks_of(bob_id.id) == set()
        assert store.blocked_with(bob_id.id) == {ann_id.id}  # either way
        assert store.blocked_between([bob_id.id, ann_id.id]) and not store.blocked_between([bob_id.id])
        # The export holds the blocks.
        assert [b["name"] for b in ann.get("/api/account/export").json()["blocked"]] == ["Bob"]

        gone = ann.delete("/api/account/blocks/Bob", headers=headers)
        assert gone.status_code == 200 and gone.json() == {"blocked": []}
        refused(ann.delete("/api/account/blocks/Bob", headers=headers), 404, "not-found")
        assert not store.blocked_between([ann_id.id, bob_id.id])


def test_a_blocked_players_chat_is_not_sent_to_the_blocker_in_any_game() -> None:
    app = app_of()
    with browser(app):  # the app's lifespan (its hub) for the websockets
        game, (ann, bob, cy), (ann_token, bob_token, cy_token) = three_players(app)
        game_id = game["id"]
        ann_csrf = ann.get("/api/account").json()["csrf"]
        # By seat, in a game where Ann holds a seat (the page's button).
        blocked = ann.post(
            "/api/account/blocks", json={"game": game_id, "seat": 1}, headers={"X-CSRF-Token": ann_csrf}
        )
        assert [b["name"] for b in blocked.json()["blocked"]] == ["Bob"]
        ann_socket, cy_socket = Watcher(ann, game_id, ann_token), Watcher(cy, game_id, cy_token)
        say(bob, game_id, bob_token, "Bob here")
        assert cy_socket.next("chat")["messages"][0]["text"] == "Bob here"
        say(cy, game_id, cy_token, "Cy here")
        assert ann_socket.next("chat")["messages"][0]["text"] == "Cy here"  # Bob's line never came
        assert chat_texts(ann, game_id, ann_token) == ["Cy here"]
        assert chat_texts(cy, game_id, cy_token) == ["Bob here", "Cy here"]
        assert "Bob here" not in [m["text"] for m in Watcher(ann, game_id, ann_token).history["messages"]]  # type: ignore[index]
        # Another game of theirs: the same.
        other = create(
            browser(app),
            [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
            game="two-player",
        )
        bind(ann, ann_csrf, other["id"], other["seats"][0]["token"])
        bind(bob, bob.get("/api/account").json()["csrf"], other["id"], other["seats"][1]["token"])
        say(bob, other["id"], other["seats"][1]["token"], "hi again")
        assert chat_texts(ann, other["id"], other["seats"][0]["token"]) == []
        # Bob still reads Ann (a block hides the blocked player's lines from the blocker).
        say(ann, game_id, ann_token, "Ann here")
        assert "Ann here" in chat_texts(bob, game_id, bob_token)
        # By seat: only in a game of one's own; a guest's seat is muted, not blocked.
        refused(
            cy.post(
                "/api/account/blocks",
                json={"game": other["id"], "seat": 0},
                headers={"X-CSRF-Token": cy.get("/api/account").json()["csrf"]},
            ),
            422,
            "bad-request",
        )
        guest_game = create(
            browser(app),
            [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Gus"}],
            game="two-player",
        )
        bind(ann, ann_csrf, guest_game["id"], guest_game["seats"][0]["token"])
        message = refused(
            ann.post(
                "/api/account/blocks",
                json={"game": guest_game["id"], "seat": 1},
                headers={"X-CSRF-Token": ann_csrf},
            ),
            422,
            "bad-request",
        )
        assert "guest" in message


def test_players_with_a_block_between_them_never_sit_at_one_table() -> None:
    app = app_of()
    with browser(app) as ann:
        bob, cy = browser(app), browser(app)
        ann_csrf = sign_up(ann, "Ann")
        sign_up(bob, "Bob")
        sign_up(cy, "Cyd")
        ann.post("/api/account/blocks", json={"name": "Bob"}, headers={"X-CSRF-Token": ann_csrf})
        rated = [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}]
        game = create(browser(app), rated, rated=True)
        joined(ann, game["id"], 0, "Ann")
        message = refused(join(bob, game["id"], 1, "Bob"), 403, "blocked")
        assert "Ann" not in message and "Bob" not in message  # who blocked whom is not said
        joined(cy, game["id"], 1, "Cyd")
        # The blocker is kept from a table where the blocked player sits, too.
        other = create(browser(app), [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}], rated=True)
        joined(bob, other["id"], 0, "Bob")
        refused(join(ann, other["id"], 1, "Ann"), 403, "blocked")
        # A casual game: a signed-in player's block holds there too.
        casual = create(browser(app), [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}])
        joined(bob, casual["id"], 0, "Bob")
        # (Bob's casual seat is not bound to his account: no account sits there, so Ann may.)
        joined(ann, casual["id"], 1, "Ann")


# -- mutes -------------------------------------------------------------------------------------------
def test_a_seat_mutes_another_seats_chat_for_itself_and_it_holds_across_restarts(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    storage = open_storage(url)
    app = app_of(storage)
    with browser(app) as host:
        game = create(
            host,
            [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cyd")] + [{"kind": "bot", "bot": "quick"}],
        )
        game_id = game["id"]
        ann_token, bob_token, cy_token = (s["token"] for s in game["seats"][:3])
        muted = host.post(f"/api/games/{game_id}/mutes", json={"seat": 1}, headers=bearer(ann_token))
        assert muted.status_code == 200 and muted.json() == {"muted": [1]}
        say(host, game_id, bob_token, "noise")
        say(host, game_id, cy_token, "signal")
        assert chat_texts(host, game_id, ann_token) == ["signal"]
        assert chat_texts(host, game_id, cy_token) == ["noise", "signal"]  # Cy's own choice
        refused(
            host.post(f"/api/games/{game_id}/mutes", json={"seat": 0}, headers=bearer(ann_token)),
            422,
            "bad-request",
        )
        refused(
            host.post(f"/api/games/{game_id}/mutes", json={"seat": 3}, headers=bearer(ann_token)),
            422,
            "bad-request",
        )
        refused(
            host.post(f"/api/games/{game_id}/mutes", json={"seat": 9}, headers=bearer(ann_token)),
            422,
            "bad-request",
        )
        refused(
            host.post(f"/api/games/{game_id}/mutes", json={"seat": "1"}, headers=bearer(ann_token)),
            422,
            "bad-request",
        )
        refused(host.post(f"/api/games/{game_id}/mutes", json={"seat": 1}), 403, "bad-token")
        refused(host.get(f"/api/games/{game_id}/mutes"), 403, "bad-token")
    again = app_of(open_storage(url))  # the server restarted: the mute is the seat's, kept
    with browser(again) as host:
        assert host.get(f"/api/games/{game_id}/mutes", headers=bearer(ann_token)).json() == {"muted": [1]}
        assert chat_texts(host, game_id, ann_token) == ["signal"]
        unmuted = host.delete(f"/api/games/{game_id}/mutes/1", headers=bearer(ann_token))
        assert unmuted.json() == {"muted": []}
        assert chat_texts(host, game_id, ann_token) == ["noise", "signal"]


# -- reports -----------------------------------------------------------------------------------------
def test_a_player_reports_a_line_to_the_host_who_never_learns_who_reported_it() -> None:
    app = app_of()
    with browser(app) as c:
        game = create(c, [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cyd")])
        game_id, host_token = game["id"], game["host_token"]
        ann_token, bob_token, cy_token = (s["token"] for s in game["seats"])
        rude = say(c, game_id, bob_token, "you all stink")
        mine = say(c, game_id, ann_token, "let us be nice")
        path = f"/api/games/{game_id}/chat/{rude}/report"
        answer = c.post(path, json={"reason": "insults\u202e everyone"}, headers=bearer(ann_token))
        assert answer.status_code == 201 and answer.json() == {"reported": rude}
        refused(c.post(path, json={}, headers=bearer(ann_token)), 409, "already-reported")
        assert c.post(path, json={}, headers=bearer(cy_token)).status_code == 201  # no reason: fine
        refused(
            c.post(f"/api/games/{game_id}/chat/{mine}/report", json={}, headers=bearer(ann_token)),
            422,
            "bad-request",
        )
        refused(
            c.post(f"/api/games/{game_id}/chat/999/report", json={}, headers=bearer(ann_token)),
            404,
            "not-found",
        )
        refused(
            c.post(f"/api/games/{game_id}/chat/0/report", json={}, headers=bearer(ann_token)),
            422,
            "bad-request",
        )
        refused(
            c.post(path, json={"reason": "x" * 301}, headers=bearer(bob_token)), 422, "bad-field", "reason"
        )
        refused(c.post(path, json={"reason": 3}, headers=bearer(bob_token)), 422, "bad-request")
        refused(c.post(path, json={}), 403, "bad-token")  # a watcher reports nothing

        # The host's list: the line, how often, why; never who.
        refused(c.get(f"/api/games/{game_id}/reports", headers=bearer(ann_token)), 403, "bad-token")
        refused(c.get(f"/api/games/{game_id}/reports"), 403, "bad-token")
        reports = c.get(f"/api/games/{game_id}/reports", headers=bearer(host_token)).json()
        [line] = reports["reports"]
        assert line["seq"] == rude and line["seat"] == 1 and line["name"] == "Bob"
        assert line["text"] == "you all stink" and line["reports"] == 2
        assert line["reasons"] == ["insults everyone"]  # one line, no direction override
        assert set(line) == {"seq", "seat", "name", "text", "at", "reports", "reasons", "last"}
        assert reports["bans"] == []
        # The reported player is told nothing: their chat, their view hold no trace of it.
        bob_view = c.get(f"/api/games/{game_id}/view", headers=bearer(bob_token)).text
        bob_chat = c.get(f"/api/games/{game_id}/chat", headers=bearer(bob_token)).text
        for text in (bob_view, bob_chat):
            assert "report" not in text and "insults" not in text


def test_reports_are_rate_limited_and_notes_and_team_lines_are_not_reported() -> None:
    app = app_of()
    with browser(app) as c:
        game = create(c, [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cyd")])
        game_id = game["id"]
        ann_token, bob_token, _ = (s["token"] for s in game["seats"])
        lines = [say(c, game_id, bob_token, f"line {n}") for n in range(5)]
        app.state.social.chat.clock = lambda: 1e9  # past the chat's own rate
        lines.append(say(c, game_id, bob_token, "line 5"))
        for seq in lines[:5]:
            assert (
                c.post(
                    f"/api/games/{game_id}/chat/{seq}/report", json={}, headers=bearer(ann_token)
                ).status_code
                == 201
            )
        message = refused(
            c.post(f"/api/games/{game_id}/chat/{lines[5]}/report", json={}, headers=bearer(ann_token)),
            429,
            "rate-limited",
        )
        assert "5 reports in 10 minutes" in message
        team_game_is_refused(c)
        resigned = c.post(f"/api/games/{game_id}/resign", headers=bearer(bob_token))
        assert resigned.status_code == 200
        note = max(
            m["seq"]
            for m in c.get(f"/api/games/{game_id}/chat", headers=bearer(ann_token)).json()["messages"]
        )
        app.state.fairplay.clock = lambda: 1e12  # the reports' window has passed
        refused(
            c.post(f"/api/games/{game_id}/chat/{note}/report", json={}, headers=bearer(ann_token)),
            422,
            "bad-request",
        )


def team_game_is_refused(c: TestClient) -> None:
    """A line to a team is not reported: the host may not read it."""
    team = create(
        c,
        [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cyd", "Dee")],
        edition="2003",
        game="team",
    )
    tokens = [s["token"] for s in team["seats"]]
    view = c.get(f"/api/games/{team['id']}/view", headers=bearer(tokens[0])).json()
    teams = [p["team"] for p in view["view"]["players"]]
    mate = next(i for i in range(1, 4) if teams[i] == teams[0])
    sent = c.post(
        f"/api/games/{team['id']}/chat",
        json={"text": "psst", "channel": "team"},
        headers=bearer(tokens[mate]),
    )
    seq = sent.json()["message"]["seq"]
    message = refused(
        c.post(f"/api/games/{team['id']}/chat/{seq}/report", json={}, headers=bearer(tokens[0])),
        422,
        "bad-request",
    )
    assert "team" in message


# -- bans --------------------------------------------------------------------------------------------
def test_the_host_bans_a_player_from_a_waiting_game_and_lifts_the_ban() -> None:
    app = app_of()
    with browser(app) as host:
        bob, bob_elsewhere = browser(app), browser(app)
        game = create(
            host, [{"kind": "human", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}], rated=True
        )
        game_id, host_token = game["id"], game["host_token"]
        sign_up(bob, "Bob")
        bob_token = joined(bob, game_id, 1, "Bob")
        bob_socket = Watcher(bob, game_id, bob_token, chat_after=None)
        path = f"/api/games/{game_id}/bans"
        refused(
            host.post(path, json={"seat": 1}, headers=bearer(game["seats"][0]["token"])), 403, "bad-token"
        )
        refused(
            host.post(path, json={"seat": 1, "name": "Bob"}, headers=bearer(host_token)), 422, "bad-request"
        )
        refused(host.post(path, json={"seat": 2}, headers=bearer(host_token)), 422, "bad-request")  # open
        refused(
            host.post(path, json={"name": "Nobody"}, headers=bearer(host_token)), 422, "bad-field", "name"
        )
        banned = host.post(path, json={"seat": 1}, headers=bearer(host_token))
        assert banned.status_code == 200, banned.text
        [ban] = banned.json()["bans"]
        assert ban["name"] == "Bob" and set(ban) == {"id", "name", "at", "seat"}  # no account id, no hash
        refused(host.post(path, json={"name": "Bob"}, headers=bearer(host_token)), 422, "bad-request")  # once
        # The seat is open again; Bob's link no longer holds it; his page is told and closed.
        assert app.state.master.live(game_id).record.seats[1].kind == "open"
        refused(bob.get(f"/api/games/{game_id}/view", headers=bearer(bob_token)), 403, "bad-token")
        error = bob_socket.next("error")
        assert error["code"] == "banned"
        with pytest.raises(WebSocketDisconnect) as closed:
            bob_socket.socket.receive_json()
        assert closed.value.code == 4403
        notes = [
            m["text"]
            for m in host.get(f"/api/games/{game_id}/chat", headers=bearer(game["seats"][0]["token"])).json()[
                "messages"
            ]
        ]
        assert "The host removed Bob from the game: the seat is open again." in notes
        # Barred: the account, from any browser, and the browser, under any account.
        assert refused(join(bob, game_id, 1, "Bob"), 403, "banned")
        sign_in(bob_elsewhere, "Bob")
        refused(join(bob_elsewhere, game_id, 2, "Bob"), 403, "banned")
        sign_up(bob, "Bobby")
        refused(join(bob, game_id, 1, "Bobby"), 403, "banned")
        # The ban lifted (while the game waits): Bob sits again.
        lifted = host.delete(f"{path}/{ban['id']}", headers=bearer(host_token))
        assert lifted.status_code == 200 and lifted.json() == {"bans": []}
        refused(host.delete(f"{path}/{ban['id']}", headers=bearer(host_token)), 404, "not-found")
        joined(bob_elsewhere, game_id, 1, "Bob")


def test_a_ban_in_a_game_under_way_resigns_the_seat_and_counts_a_loss() -> None:
    app = app_of()
    with browser(app) as host:
        ann, bob = browser(app), browser(app)
        game = create(
            host,
            [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
            game="two-player",
            rated=True,
        )
        game_id, host_token = game["id"], game["host_token"]
        ann_token, bob_token = (s["token"] for s in game["seats"])
        bind(ann, sign_up(ann, "Ann"), game_id, ann_token)
        bind(bob, sign_up(bob, "Bob"), game_id, bob_token)
        banned = host.post(f"/api/games/{game_id}/bans", json={"name": "Bob"}, headers=bearer(host_token))
        assert banned.status_code == 200, banned.text
        assert banned.json()["bans"][0]["seat"] == 1
        # Nothing of a seat's secrets in what the host is answered.
        assert "hand" not in banned.text and "mission" not in banned.text
        summary = host.get(f"/api/games/{game_id}").json()
        assert summary["status"] == "over" and summary["winner"] == 0  # two-player: Ann wins
        refused(
            bob.post(f"/api/games/{game_id}/chat", json={"text": "unfair"}, headers=bearer(bob_token)),
            409,
            "game-over",
        )
        history = {name: ann.get(f"/api/players/{name}").json()["history"] for name in ("Ann", "Bob")}
        assert history["Ann"][0]["place"] == 1 and history["Bob"][0]["place"] == 2
        assert history["Ann"][0]["mu"] > history["Bob"][0]["mu"]
        refused(
            host.post(f"/api/games/{game_id}/bans", json={"seat": 0}, headers=bearer(host_token)),
            409,
            "game-over",
        )

    with browser(app_of()) as host:
        game = create(host, [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cyd")])
        game_id, host_token = game["id"], game["host_token"]
        bob_token = game["seats"][1]["token"]
        assert (
            host.post(f"/api/games/{game_id}/bans", json={"seat": 1}, headers=bearer(host_token)).status_code
            == 200
        )
        seats = host.get(f"/api/games/{game_id}/view", headers=bearer(bob_token)).json()["seats"]
        assert seats[1]["resigned"] and host.get(f"/api/games/{game_id}").json()["status"] == "playing"
        # Bob may still watch his seat (resigned), but its chat is closed to him.
        refused(
            host.post(f"/api/games/{game_id}/chat", json={"text": "hey"}, headers=bearer(bob_token)),
            403,
            "banned",
        )
        ban_id = host.get(f"/api/games/{game_id}/reports", headers=bearer(host_token)).json()["bans"][0]["id"]
        message = refused(
            host.delete(f"/api/games/{game_id}/bans/{ban_id}", headers=bearer(host_token)), 422, "bad-request"
        )
        assert "under way" in message
