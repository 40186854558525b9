"""Chat, house rules, rematches and spectators over the HTTP and websocket API (docs/web.md)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

import pytest
import segno
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from risk import View
from risk.bots import make_bot
from risk.server.app import create_app
from risk.server.chat import MAX_CHAT, RATE_COUNT, RATE_WINDOW
from risk.server.master import GameMaster, GameSpec, SeatSpec
from risk.server.storage import ChatRecord, MemoryStorage, Storage


@pytest.fixture
def storage() -> MemoryStorage:
    return MemoryStorage()


@contextmanager
def serving(storage: Storage) -> Iterator[TestClient]:
    with TestClient(create_app(storage)) as client:
        try:
            yield client
        finally:
            Watcher.close_all()  # a failed test's sockets, so that the client can stop


@pytest.fixture
def client(storage: MemoryStorage) -> Iterator[TestClient]:
    with serving(storage) as test_client:
        yield test_client


def new_game(
    client: TestClient, names: tuple[str, ...] = ("Ann", "Bob", "Cy"), **extra: Any
) -> dict[str, Any]:
    body = {"seats": [{"kind": "human", "name": n} for n in names], "seed": 3, "bot_delay": 0} | extra
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


class Watcher:
    """One websocket connection that says hello and asks for the chat from ``chat_after``."""

    open: ClassVar[list[Watcher]] = []

    def __init__(self, client: TestClient, game_id: str, token: str | None, chat_after: int | None = 0):
        self.socket = client.websocket_connect(f"/api/games/{game_id}/ws").__enter__()
        self.open.append(self)
        hello: dict[str, Any] = {"type": "hello", "token": token}
        if chat_after is not None:
            hello["chat_after"] = chat_after
        self.socket.send_json(hello)
        self.state = self.socket.receive_json()
        assert self.state["type"] == "state", self.state
        self.history: dict[str, Any] | None = None
        if chat_after is not None:
            self.history = self.socket.receive_json()
            assert self.history["type"] == "chat" and self.history["after"] == chat_after

    def say(self, text: Any, channel: str | None = "all", ref: Any = "c1") -> None:
        self.socket.send_json({"type": "chat", "text": text, "channel": channel, "ref": ref})

    def next(self, kind: str) -> dict[str, Any]:
        """The next message of ``kind`` (others in between are skipped, but never an error)."""
        while True:
            message = self.socket.receive_json()
            if message["type"] == kind:
                return message
            assert message["type"] != "error", message

    def close(self) -> None:
        if self in self.open:
            self.open.remove(self)
            self.socket.__exit__(None, None, None)

    @classmethod
    def close_all(cls) -> None:
        for watcher in list(cls.open):
            watcher.close()


# -- chat ------------------------------------------------------------------------------------------


def test_chat_reaches_players_and_spectators_and_is_stored(
    client: TestClient, storage: MemoryStorage
) -> None:
    game = new_game(client)
    game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
    ann, bob, watcher = (
        Watcher(client, game_id, tokens[0]),
        Watcher(client, game_id, tokens[1]),
        Watcher(client, game_id, None),
    )
    assert ann.history and ann.history["messages"] == []
    text = 'gl hf <img src=x onerror=alert(1)> & "quotes"'
    ann.say(text)
    for who in (ann, bob, watcher):
        [message] = who.next("chat")["messages"]
        # Sent as written: the pages show chat as text, never as HTML.
        assert message | {"at": 0} == {
            "seq": 1,
            "seat": 0,
            "name": "Ann",
            "channel": "all",
            "text": text,
            "at": 0,
            "note": False,
        }
    # A spectator reads but may not write; nothing is stored.
    watcher.say("hello from the stands", ref=9)
    refused = watcher.next("error")
    assert refused["code"] == "bad-token" and refused["ref"] == 9 and "spectators" in refused["message"]
    assert [m.text for m in storage.chat(game_id)] == [text]
    bob.say("  thanks,\n\tyou too  ")
    assert ann.next("chat")["messages"][0]["text"] == "thanks, you too"  # one line, spaces collapsed
    for who in (ann, bob, watcher):
        who.close()
    # Reconnecting fetches only what is missing.
    again = Watcher(client, game_id, tokens[0], chat_after=1)
    assert again.history and [m["seq"] for m in again.history["messages"]] == [2]
    again.close()
    # A client that does not ask for the chat gets no history message after hello.
    quiet = Watcher(client, game_id, tokens[2], chat_after=None)
    quiet.socket.send_json({"type": "ping"})
    assert quiet.socket.receive_json() == {"type": "pong"}
    quiet.close()
    # Over HTTP too.
    answer = client.get(f"/api/games/{game_id}/chat", params={"after": 1}, headers=bearer(tokens[2]))
    assert [m["text"] for m in answer.json()["messages"]] == ["thanks, you too"]
    posted = client.post(f"/api/games/{game_id}/chat", json={"text": "by HTTP"}, headers=bearer(tokens[2]))
    assert posted.status_code == 201 and posted.json()["message"]["seq"] == 3
    assert (
        client.post(f"/api/games/{game_id}/chat", json={"text": "x"}).json()["error"]["code"] == "bad-token"
    )


def test_chat_limits(client: TestClient, storage: MemoryStorage) -> None:
    game = new_game(client)
    game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
    now = [1000.0]
    client.app.state.social.chat.clock = lambda: now[0]  # type: ignore[attr-defined]
    ann, bob = Watcher(client, game_id, tokens[0]), Watcher(client, game_id, tokens[1])
    cases = [
        ("x" * (MAX_CHAT + 1), "all", f"{MAX_CHAT + 1} characters long; the limit is {MAX_CHAT}"),
        ("   \n ", "all", "empty"),
        (42, "all", "a chat message is"),
        ("hi", "shout", "no chat channel 'shout'"),
        ("hi", "team", "not Team RISK"),
    ]
    for text, channel, words in cases:
        ann.say(text, channel, ref=words)
        refused = ann.next("error")
        assert (refused["code"], refused["ref"]) == ("bad-request", words) and words in refused["message"]
    assert storage.chat(game_id) == []
    ann.say("y" * MAX_CHAT)
    assert len(bob.next("chat")["messages"][0]["text"]) == MAX_CHAT
    for i in range(RATE_COUNT - 1):
        ann.say(f"message {i}")
        bob.next("chat")
    ann.say("one too many", ref="late")
    refused = ann.next("error")
    assert refused["code"] == "rate-limited" and refused["ref"] == "late"
    assert f"at most {RATE_COUNT} messages in {RATE_WINDOW:.0f} seconds" in refused["message"]
    assert len(storage.chat(game_id)) == RATE_COUNT
    bob.say("Bob has his own limit")
    assert ann.next("chat")["messages"][0]["seat"] == 1
    bob.next("chat")  # his own, echoed
    now[0] += RATE_WINDOW
    ann.say("back again")
    assert bob.next("chat")["messages"][0]["text"] == "back again"
    ann.close()
    bob.close()


def test_messages_written_at_once_reach_everyone_once_and_in_order(client: TestClient) -> None:
    game = new_game(client)
    game_id = game["id"]
    watcher, ann = Watcher(client, game_id, None), Watcher(client, game_id, game["seats"][0]["token"])
    social = client.app.state.social  # type: ignore[attr-defined]

    async def burst() -> None:  # three seats, five messages each, all at once
        await asyncio.gather(
            *(social.write(game_id, seat, f"{seat}-{n}", "all") for seat in range(3) for n in range(5))
        )

    client.portal.call(burst)  # type: ignore[union-attr]
    for who in (watcher, ann):
        who.socket.send_json({"type": "ping"})  # answered after every message already sent
        seqs = []
        while (message := who.socket.receive_json())["type"] != "pong":
            if message["type"] == "chat":  # (states come too: a player connecting is shown to all)
                seqs += [m["seq"] for m in message["messages"]]
        assert seqs == list(range(1, 16))
    watcher.close()
    ann.close()


def team_game(client: TestClient, **extra: Any) -> tuple[str, list[str], list[int]]:
    game = new_game(client, ("Ann", "Bob", "Cy", "Dee"), edition="2003", game="team", **extra)
    view = client.get(f"/api/games/{game['id']}/view", headers=bearer(game["seats"][0]["token"])).json()
    teams = [p["team"] for p in view["view"]["players"]]
    assert sorted(teams) == [0, 0, 1, 1]
    return game["id"], [s["token"] for s in game["seats"]], teams


def test_team_channel_reaches_only_the_team(client: TestClient) -> None:
    game_id, tokens, teams = team_game(client)
    seats = [Watcher(client, game_id, token) for token in tokens]
    watcher = Watcher(client, game_id, None)
    mate = next(s for s in range(1, 4) if teams[s] == teams[0])
    seats[0].say("attack Bob next", "team")
    [message] = seats[mate].next("chat")["messages"]
    assert message["channel"] == "team" and message["text"] == "attack Bob next"
    seats[0].next("chat")  # the writer sees it too
    # Then a message for everyone: the other team and the spectator see it first, never the team one.
    seats[mate].say("good game all")
    for s in [*range(4), None]:
        who = watcher if s is None else seats[s]
        if s in (0, mate):
            assert who.next("chat")["messages"][0]["text"] == "good game all"
        else:
            assert [m["text"] for m in who.next("chat")["messages"]] == ["good game all"]
    for s, token in enumerate(tokens):
        read = client.get(f"/api/games/{game_id}/chat", headers=bearer(token)).json()["messages"]
        expected = ["attack Bob next", "good game all"] if teams[s] == teams[0] else ["good game all"]
        assert [m["text"] for m in read] == expected
    assert [m["text"] for m in client.get(f"/api/games/{game_id}/chat").json()["messages"]] == [
        "good game all"
    ]
    for who in [*seats, watcher]:
        who.close()


def test_server_notes_and_history_survive_a_restart(storage: MemoryStorage) -> None:
    with serving(storage) as client:
        game = new_game(client)
        game_id, token = game["id"], game["seats"][1]["token"]
        bob = Watcher(client, game_id, token)
        social = client.app.state.social  # type: ignore[attr-defined]
        client.portal.call(social.note, game_id, "The clock ran out for Ann: a bot ended her attack.")  # type: ignore[union-attr]
        note = bob.next("chat")["messages"][0]
        assert note["note"] is True and note["seat"] is None and note["channel"] == "all"
        bob.say("noted")
        bob.next("chat")
        bob.close()
    storage.add_chat(game_id, ChatRecord(0, None, "all", None, "", "Cy resigned.", 5.0))
    with serving(storage) as client:
        again = Watcher(client, game_id, None)
        assert again.history is not None
        assert [(m["seat"], m["text"]) for m in again.history["messages"]] == [
            (None, "The clock ran out for Ann: a bot ended her attack."),
            (1, "noted"),
            (None, "Cy resigned."),
        ]
        again.close()


# -- house rules -----------------------------------------------------------------------------------

RULESET = {
    "name": "Friday night",
    "edition": "2008",
    "game": "capital",
    "options": {"fortify": "adjacent"},
    "seats": [{"kind": "human", "name": "Ann"}, {"kind": "open"}, {"kind": "bot", "bot": "quick"}],
    "table": {"bot_delay": 0, "spectators": False},
}


def qr_matrix(svg: str) -> list[list[int]]:
    """The dark modules of a segno SVG (one path of horizontal runs), as rows of 0 and 1."""
    scale = float(re.search(r'transform="scale\(([\d.]+)\)"', svg).group(1))  # type: ignore[union-attr]
    width = round(float(re.search(r'width="([\d.]+)"', svg).group(1)) / scale)  # type: ignore[union-attr]
    path = re.search(r'class="qrline"[^>]* d="([^"]+)"', svg).group(1)  # type: ignore[union-attr]
    grid = [[0] * width for _ in range(width)]
    x = y = 0.0
    for command, number, extra in re.findall(r"([Mmhv])(-?[\d.]+)(?:[ ,](-?[\d.]+))?", path):
        value = float(number)
        if command == "M":
            x, y = value, float(extra)
        elif command == "m":
            x, y = x + value, y + float(extra)
        elif command == "h":
            for column in range(int(x), int(x + value)):
                grid[int(y)][column] = 1
            x += value
    return grid


def test_rulesets_are_saved_shared_and_shown_as_qr(client: TestClient) -> None:
    answer = client.post("/api/rulesets", json=RULESET)
    assert answer.status_code == 201, answer.text
    saved = answer.json()
    ruleset_id = saved["id"]
    assert saved["name"] == "Friday night" and saved["rules"] == "2008 game=capital fortify=adjacent"
    assert saved["link"] == f"/#rules={ruleset_id}" and saved["qr"] == f"/api/rulesets/{ruleset_id}/qr.svg"
    assert saved["settings"]["seats"] == [
        {"kind": "human", "name": "Ann"},
        {"kind": "open"},
        {"kind": "bot", "name": "Quick 3", "bot": "quick"},
    ]
    assert saved["settings"]["table"] == {"bot_delay": 0.0, "spectators": False}
    assert client.get(f"/api/rulesets/{ruleset_id}").json() == saved
    qr = client.get(saved["qr"])
    assert qr.status_code == 200 and qr.headers["content-type"] == "image/svg+xml"
    assert "<script" not in qr.text
    expected = segno.make(f"http://testserver/#rules={ruleset_id}", error="m")
    border = 2
    matrix = [row[border:-border] for row in qr_matrix(qr.text)[border:-border]]
    assert matrix == [list(row) for row in expected.matrix]
    # A game created from the saved settings has the rules named.
    s = saved["settings"]
    game = client.post(
        "/api/games",
        json={"edition": s["edition"], "game": s["game"], "options": s["options"], "seats": s["seats"]}
        | s["table"],
    ).json()
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["rules"] == saved["rules"] and summary["spectators"] is False
    # Without seats: the rules only.
    bare = client.post("/api/rulesets", json={"name": "Team night", "edition": "2003", "game": "team"}).json()
    assert "seats" not in bare["settings"] and bare["rules"] == "2003 game=team"


def test_house_rules_keep_the_turn_clock(client: TestClient) -> None:
    clock = {"turn_time": 90, "missed_turns": 1, "stand_in": " Fortress", "defend_timeout": 15}
    saved = client.post("/api/rulesets", json=RULESET | {"table": clock}).json()
    table = saved["settings"]["table"]
    assert table == {"turn_time": 90.0, "missed_turns": 1, "stand_in": "fortress", "defend_timeout": 15.0}
    # A game created from them has the same clock (none of the long clock's settings: none kept).
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "quick"}] * 2
    game = client.post("/api/games", json={"seats": seats} | table).json()
    timer = client.get(f"/api/games/{game['id']}/view").json()["timer"]
    assert timer == table | {"time_bank": 0.0, "vacation_days": 0.0}
    # A long game's clock: a day a turn, a time bank of six hours, three days of vacation.
    long = {"turn_time": 86400, "time_bank": 21600, "vacation_days": 3, "missed_turns": 2}
    table = client.post("/api/rulesets", json=RULESET | {"table": long}).json()["settings"]["table"]
    assert table == {"turn_time": 86400.0, "time_bank": 21600.0, "vacation_days": 3.0, "missed_turns": 2}
    game = client.post("/api/games", json={"seats": seats} | table).json()
    timer = client.get(f"/api/games/{game['id']}/view").json()["timer"]
    assert timer == table | {"defend_timeout": 30.0, "stand_in": "quick"}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"name": "  "}, "the name of the house rules is empty"),
        ({"name": "x" * 61}, "61 characters long; the limit is 60"),
        ({"edition": "1999"}, "no edition"),
        ({"game": "chess"}, "no game"),
        ({"options": {"fortify": "anywhere"}}, "fortify"),
        ({"board": "../classic"}, "no board"),
        ({"seats": [{"kind": "human", "name": "Ann"}]}, "players"),
        ({"seats": [{"kind": "bot", "bot": "genius"}] * 3}, "no bot or level 'genius'"),
        ({"seats": [{"kind": "human", "name": "Ann"}] * 3}, "different names"),
        ({"table": {"bot_delay": 99}}, "bot_delay"),
        ({"table": {"colour": "red"}}, "colour"),
        ({"table": {"turn_time": 3}}, "turn_time is 0 (no turn clock) or seconds from 5"),
        ({"table": {"stand_in": "genius"}}, "no stand-in bot or level 'genius'"),
        ({"table": {"turn_time": 600, "vacation_days": 31}}, "vacation_days is the days each player"),
        ({"table": {"time_bank": 3600}}, "a time bank and vacations need a turn clock"),
        ({"options": "fast"}, "options"),
    ],
)
def test_bad_rulesets_are_refused(
    client: TestClient, storage: MemoryStorage, change: dict[str, Any], words: str
) -> None:
    answer = client.post("/api/rulesets", json=RULESET | change)
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["code"] == "bad-request" and words in error["message"], error
    assert storage._rulesets == {}  # nothing saved


def test_unknown_ruleset(client: TestClient) -> None:
    for path in ("/api/rulesets/nope", "/api/rulesets/nope/qr.svg"):
        answer = client.get(path)
        assert answer.status_code == 404 and "no house rules 'nope'" in answer.json()["error"]["message"]


# -- rematch ---------------------------------------------------------------------------------------


def finished_game(storage: Storage) -> tuple[str, list[str]]:
    """A game of two humans and a bot, played to the end (the humans' moves chosen by a quick bot)."""
    master = GameMaster(storage)
    record, seats = master.create_game(
        GameSpec(
            seats=[SeatSpec("human", "Ann"), SeatSpec("human", "Bob"), SeatSpec("bot", bot="quick")],
            seed=11,
            bot_delay=0,
            defend_timeout=0,
            public=False,
        )
    )
    live = master.live(record.id)
    deciders = {0: make_bot("quick", 1), 1: make_bot("quick", 2)}
    while not live.game.is_over:
        turn = master.bot_turn(record.id)
        if turn is not None:
            seat, state_id, decide = turn
            master.submit_as(record.id, seat, decide(), state_id)
            continue
        seat = live.game.to_act
        view = View(live.game, seat)
        master.submit_as(record.id, seat, view.action_text(deciders[seat].choose(view)), live.state_id)
    return record.id, [s.token for s in seats if s.token]


def test_rematch_once_with_the_same_seats_and_rules(storage: MemoryStorage) -> None:
    playing = GameMaster(storage).create_game(GameSpec(seats=[SeatSpec("human", n) for n in "ABC"], seed=1))
    game_id, tokens = finished_game(storage)
    with serving(storage) as client:
        refused = client.post(f"/api/games/{playing[0].id}/rematch", headers=bearer(playing[1][0].token))
        assert refused.status_code == 422 and "once the game is over" in refused.json()["error"]["message"]
        for headers, code in (({}, "bad-token"), (bearer("wrong"), "bad-token")):
            assert (
                client.post(f"/api/games/{game_id}/rematch", headers=headers).json()["error"]["code"] == code
            )
        bob = Watcher(client, game_id, tokens[1])
        first = client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[0]))
        assert first.status_code == 201, first.text
        new_id = first.json()["id"]
        assert first.json() == {
            "id": new_id,
            "seat": 0,
            "created": True,
            "link": f"/game/{new_id}#token={tokens[0]}",
        }
        note = bob.next("chat")["messages"][0]
        assert note["note"] and "Ann asked for a rematch" in note["text"]
        bob.close()
        second = client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[1]))
        assert second.status_code == 200 and second.json()["id"] == new_id and second.json()["seat"] == 1
        old, new = client.get(f"/api/games/{game_id}").json(), client.get(f"/api/games/{new_id}").json()
        assert old["rematch"] == new_id and new["rematch_of"] == game_id
        assert new["rules"] == old["rules"] and new["public"] is False and new["status"] == "playing"
        assert [(s["name"], s["kind"], s["bot"]) for s in new["seats"]] == [
            (s["name"], s["kind"], s["bot"]) for s in old["seats"]
        ]
        # Each player's old link plays their seat in the rematch.
        for seat, token in enumerate(tokens):
            assert client.get(f"/api/games/{new_id}/view", headers=bearer(token)).json()["seat"] == seat
        master = client.app.state.master  # type: ignore[attr-defined]
        assert master.live(new_id).record.seed != master.live(game_id).record.seed  # new dice
    # Asked again after a restart: still the same game.
    with serving(storage) as client:
        assert client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[1])).json()["id"] == new_id


# -- spectators ------------------------------------------------------------------------------------


def test_a_game_without_spectators_refuses_watchers(client: TestClient) -> None:
    game = new_game(client, spectators=False)
    game_id, token = game["id"], game["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": None, "chat_after": 0})
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["code"] == "no-spectators"
        assert "does not allow spectators" in refused["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    for path in (f"/api/games/{game_id}/view", f"/api/games/{game_id}/chat"):
        answer = client.get(path)
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "no-spectators"
    ann = Watcher(client, game_id, token)  # players are welcome
    assert ann.state["seat"] == 0
    ann.close()
    listed = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert listed[game_id]["spectators"] is False and listed[game_id]["watchers"] == 0


def test_the_list_counts_watchers(client: TestClient) -> None:
    game = new_game(client)
    game_id = game["id"]

    def watchers() -> int:
        return next(g["watchers"] for g in client.get("/api/games").json()["games"] if g["id"] == game_id)

    assert watchers() == 0
    first, second = Watcher(client, game_id, None), Watcher(client, game_id, None)
    player = Watcher(client, game_id, game["seats"][0]["token"])
    assert watchers() == 2  # players are not counted
    assert first.state["seat"] is None and "hand" not in first.state["view"]
    first.close()
    deadline = time.monotonic() + 10
    while watchers() != 1:
        assert time.monotonic() < deadline, "a watcher who left is still counted"
        time.sleep(0.02)
    second.close()
    player.close()
