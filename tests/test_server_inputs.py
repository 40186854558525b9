"""What enters the server is checked where it enters (risk.server.inputs, docs/web.md "Refusals").

Every whole number of every HTTP route and websocket message is a JSON integer (never ``true``,
``"0"`` nor ``0.0``) within the range of the store's column (0 to 2**31 - 1 for positions and seats,
PostgreSQL's INTEGER; 0 to 2**63 - 1 for a seed, a BIGINT), else refused as ``bad-request`` in the
one error shape, changing nothing: one past the largest, 2**63 - 1, 2**63, 2**64, -1 and huge
negative numbers, in each field. A move carries its ``state_id`` (the stale-move check needs it); a
move's text with a control character is refused, not cleaned. A second ``hello`` on a connection is
answered with an error. The games are stored in SQLite (and PostgreSQL where the number reaches a
query), where a number out of range would fail in the store.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from api_table import Table, make_table, reply
from conftest import SQL_KINDS, fresh_database_url
from risk.server.inputs import NUMBER_MAX, SEED_MAX
from risk.server.timing import MAX_MISSED_TURNS

SEED = 5_310_442

BEYOND: list[Any] = [2**63 - 1, 2**63, 2**64, -1, -(2**63) - 1, -(10**30)]


def out_of_range(high: int = NUMBER_MAX, low: int = 0) -> list[Any]:
    """Whole numbers a field from ``low`` to ``high`` refuses."""
    return [low - 1, high + 1, *(n for n in BEYOND if not low <= n <= high)]


NOT_INTEGERS: list[Any] = [True, False, "0", " 0 ", "7", 0.0, 1.5, [0], {"n": 0}, None]
CONTROL = ["\x00", "\n", "\t", "\r", "\x1b[31m", "\x7f", "\u202e", "\u200b"]


@pytest.fixture
def table() -> Iterator[Table]:
    """A game past the claims (placing armies), stored in SQLite."""
    yield from make_table(seed=SEED)


@pytest.fixture(params=SQL_KINDS)
def any_store_table(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Table]:
    """The same, once in SQLite and once in PostgreSQL: for numbers that reach a query."""
    yield from make_table(url=fresh_database_url(request.param, request, tmp_path), seed=SEED)


@pytest.fixture
def claiming() -> Iterator[Table]:
    """A game where the first territory is being claimed."""
    yield from make_table(moves=0, seed=SEED)


def put(body: dict[str, Any], at: tuple[str, ...], value: Any) -> dict[str, Any]:
    """A copy of ``body`` with ``value`` at the key path ``at``."""
    copy = json.loads(json.dumps(body))
    inner = copy
    for key in at[:-1]:
        inner = inner.setdefault(key, {})
    inner[at[-1]] = value
    return copy


def assert_refused(answer: Any, field: str) -> None:
    """A 422 ``bad-request`` in the one error shape, whose message starts with the field's name."""
    body = answer.json()
    assert answer.status_code == 422 and set(body) == {"error"}, (field, answer.status_code, body)
    assert body["error"]["code"] == "bad-request", (field, body)
    assert body["error"]["message"].startswith(f"{field}: "), (field, body)


# -- HTTP ------------------------------------------------------------------------------------------
GAME = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}], "bot_delay": 0}
RULESET = {"name": "Friday", "table": {"missed_turns": 1}, "options": {"army-cap": 3}}
BLITZ = {"from": "alaska", "to": "kamchatka", "until": 1, "state_id": 0}
BODY_FIELDS = [  # every whole number of every JSON body, and the largest it takes
    ("/api/games", GAME, ("seed",), SEED_MAX),
    ("/api/games", GAME, ("missed_turns",), MAX_MISSED_TURNS),
    ("/api/games", GAME, ("options", "army-cap"), NUMBER_MAX),
    ("/api/games/{id}/join", {"seat": 1, "name": "Joe"}, ("seat",), NUMBER_MAX),
    ("/api/games/{id}/replace", {"seat": 1}, ("seat",), NUMBER_MAX),
    ("/api/games/{id}/actions", {"action": "MOVE", "state_id": 0}, ("state_id",), NUMBER_MAX),
    ("/api/games/{id}/blitz", BLITZ, ("state_id",), NUMBER_MAX),
    ("/api/games/{id}/blitz", BLITZ, ("until",), NUMBER_MAX),
    ("/api/games/{id}/undo", {"state_id": 0, "to": 1}, ("state_id",), NUMBER_MAX),
    ("/api/games/{id}/undo", {"state_id": 0, "to": 1}, ("to",), NUMBER_MAX),
    ("/api/rulesets", RULESET, ("table", "missed_turns"), MAX_MISSED_TURNS),
    ("/api/rulesets", RULESET, ("options", "army-cap"), NUMBER_MAX),
]


@pytest.mark.parametrize(("path", "body", "field", "high"), BODY_FIELDS, ids=lambda x: str(x)[:30])
def test_every_whole_number_of_a_body_is_range_checked_and_strict(
    table: Table, path: str, body: dict[str, Any], field: tuple[str, ...], high: int
) -> None:
    url = path.replace("{id}", table.game_id)
    body = put(body, ("action",), table.legal_move()) if "action" in body else body
    body = put(body, ("state_id",), table.state_id) if "state_id" in body else body
    strings_allowed = field[0] == "options"  # an option's value may be its text ("chain")
    before = table.snapshot()
    low = 1 if field == ("until",) else 0
    for value in out_of_range(high, low) + NOT_INTEGERS:
        if (isinstance(value, str) and strings_allowed) or (value is None and field != ("state_id",)):
            continue  # null: "not given" for the optional ones
        answer = table.client.post(url, json=put(body, field, value), headers=table.auth())
        assert_refused(answer, ".".join(field))
    assert table.snapshot() == before
    # The largest the field takes is taken (whatever the route then makes of it: a stale state id,
    # a seat the game does not have, a new game with the largest seed).
    answer = table.client.post(url, json=put(body, field, high), headers=table.auth())
    message = answer.json()["error"]["message"] if answer.status_code >= 400 else ""
    assert not message.startswith(".".join(field)), (field, answer.text)


QUERY_FIELDS = [  # every whole number of every query: path, field, smallest, largest
    ("/api/games/{id}/chat", "after", 0, NUMBER_MAX),
    ("/api/odds?attackers=3&defenders=2", "stop", 0, 1000),
    ("/api/odds?defenders=2", "attackers", 1, 1000),
    ("/api/odds?attackers=3", "defenders", 1, 1000),
]


def test_every_whole_number_of_a_query_is_range_checked(any_store_table: Table) -> None:
    """``GET /api/games/{id}/chat?after=2**63`` answered 500 on SQLite (an ``OverflowError``), and
    ``after=2**31`` 503 on PostgreSQL (its INTEGER column): the store could not take the number."""
    table = any_store_table
    for path, field, low, high in QUERY_FIELDS:
        url = path.replace("{id}", table.game_id)
        joiner = "&" if "?" in url else "?"
        for value in out_of_range(high, low):
            assert_refused(table.client.get(f"{url}{joiner}{field}={value}"), field)
        for value in (low, high):
            assert table.client.get(f"{url}{joiner}{field}={value}").status_code == 200, (field, value)


@pytest.mark.parametrize("path", ["actions", "blitz", "undo"])
def test_a_move_over_http_needs_a_whole_number_state_id(table: Table, path: str) -> None:
    """Without it the stale-move check was skipped; ``"0"``, ``" 0 "`` and ``0.0`` passed for 0."""
    bodies = {
        "actions": {"action": table.legal_move()},
        "blitz": {"from": "alaska", "to": "kamchatka", "until": 1},
        "undo": {},
    }
    url, state_id = f"/api/games/{table.game_id}/{path}", table.state_id
    before = table.snapshot()
    for state in (None, str(state_id), f" {state_id} ", float(state_id), [state_id]):
        body = bodies[path] if state is None else bodies[path] | {"state_id": state}
        answer = table.client.post(url, json=body, headers=table.auth())
        assert_refused(answer, "state_id")
        assert state is not None or "Field required" in answer.json()["error"]["message"]
    assert table.snapshot() == before
    if path == "actions":  # the same move with its state id is taken
        answer = table.client.post(url, json=bodies[path] | {"state_id": state_id}, headers=table.auth())
        assert answer.status_code == 200 and answer.json() == {"state_id": state_id + 1}


def test_a_move_with_a_control_character_is_refused_not_cleaned(claiming: Table) -> None:
    table = claiming
    move, state_id = table.legal_move(), table.state_id
    assert move.startswith("claim ")
    before = table.snapshot()
    for control in CONTROL:
        for text in (move + control, control + move, move.replace(" ", control, 1)):
            body = {"action": text, "state_id": state_id}
            answer = table.client.post(f"/api/games/{table.game_id}/actions", json=body, headers=table.auth())
            assert_refused(answer, "action")
            assert "control character" in answer.json()["error"]["message"]
        blitz = {"from": "alaska" + control, "to": "kamchatka", "state_id": state_id}
        answer = table.client.post(f"/api/games/{table.game_id}/blitz", json=blitz, headers=table.auth())
        assert_refused(answer, "from")
    assert table.snapshot() == before
    answer = table.client.post(
        f"/api/games/{table.game_id}/actions",
        json={"action": move, "state_id": state_id},
        headers=table.auth(),
    )
    assert answer.status_code == 200


# -- the websocket ---------------------------------------------------------------------------------
def closed_with(socket: Any) -> int:
    """The close code the server sent next (1006 would be a dropped connection: never)."""
    with pytest.raises(WebSocketDisconnect) as closed:
        socket.receive_json()
    return closed.value.code


def test_a_hello_asking_for_the_chat_out_of_range_is_refused(any_store_table: Table) -> None:
    """``chat_after`` 2**63 dropped the connection without a close frame (the store failed); -1 and
    ``"5"`` were taken as 0. Now each is refused with one error, and the connection closed (4400)."""
    table = any_store_table
    for value in out_of_range() + [v for v in NOT_INTEGERS if v is not None]:
        with table.client.websocket_connect(f"/api/games/{table.game_id}/ws") as socket:
            socket.send_json({"type": "hello", "token": table.tokens[0], "chat_after": value})
            answer = socket.receive_json()
            assert answer["type"] == "error" and answer["code"] == "bad-request", (value, answer)
            assert "'chat_after'" in answer["message"], answer
            assert closed_with(socket) == 4400
    socket = table.connect(0, chat_after=NUMBER_MAX)
    assert socket.receive_json() == {"type": "chat", "after": NUMBER_MAX, "messages": []}


WS_FIELDS = [  # every whole number of every websocket message after hello
    ({"type": "action", "action": "MOVE", "state_id": 0}, "state_id"),
    ({"type": "blitz", "from": "alaska", "to": "kamchatka", "until": 1, "state_id": 0}, "state_id"),
    ({"type": "blitz", "from": "alaska", "to": "kamchatka", "until": 1, "state_id": 0}, "until"),
    ({"type": "undo", "state_id": 0, "to": 1}, "state_id"),
    ({"type": "undo", "state_id": 0, "to": 1}, "to"),
    ({"type": "blitz-stop", "state_id": 0}, "state_id"),
]


@pytest.mark.parametrize(("message", "field"), WS_FIELDS, ids=lambda x: str(x)[:30])
def test_every_whole_number_of_a_websocket_message_is_range_checked(
    table: Table, message: dict[str, Any], field: str
) -> None:
    socket = table.connect(table.to_act)
    message = message | {"state_id": table.state_id}
    if "action" in message:
        message["action"] = table.legal_move()
    before = table.snapshot()
    low = 1 if field == "until" else 0
    for ref, value in enumerate(out_of_range(NUMBER_MAX, low) + NOT_INTEGERS):
        if value is None and field == "to":
            continue  # no 'to': the last move
        socket.send_json(message | {field: value, "ref": ref})
        answer = reply(socket)
        assert answer["type"] == "error" and answer["code"] == "bad-request", (field, value, answer)
        assert answer["ref"] == ref and f"'{field}'" in answer["message"], (field, value, answer)
    assert table.snapshot() == before
    socket.send_json({"type": "ping"})
    assert reply(socket) == {"type": "pong"}


@pytest.mark.parametrize("kind", ["action", "blitz", "undo"])
def test_a_move_over_the_websocket_needs_its_state_id(table: Table, kind: str) -> None:
    socket = table.connect(table.to_act)
    message = {
        "action": {"type": "action", "action": table.legal_move()},
        "blitz": {"type": "blitz", "from": "alaska", "to": "kamchatka", "until": 1},
        "undo": {"type": "undo"},
    }[kind]
    before = table.snapshot()
    socket.send_json(message | {"ref": "m"})
    answer = reply(socket)
    assert answer == {
        "type": "error",
        "ref": "m",
        "code": "bad-request",
        "message": "the move has no 'state_id': send the state_id of the state message it was chosen at",
    }
    assert table.snapshot() == before


def test_a_move_over_the_websocket_with_a_control_character_is_refused(claiming: Table) -> None:
    table = claiming
    socket = table.connect(table.to_act)
    move, state_id = table.legal_move(), table.state_id
    before = table.snapshot()
    for ref, control in enumerate(CONTROL):
        socket.send_json({"type": "action", "action": move + control, "state_id": state_id, "ref": ref})
        answer = reply(socket)
        assert answer["type"] == "error" and answer["code"] == "bad-request", (control, answer)
        assert f"U+{ord(control[0]):04X}" in answer["message"] and answer["ref"] == ref
        blitz = {"type": "blitz", "from": "alaska", "to": control + "kamchatka", "state_id": state_id}
        socket.send_json(blitz)
        assert "control character" in reply(socket)["message"]
    assert table.snapshot() == before
    socket.send_json({"type": "action", "action": move, "state_id": state_id, "ref": "ok"})
    assert reply(socket) == {"type": "ack", "ref": "ok", "state_id": state_id + 1}


def test_a_second_hello_is_answered_with_an_error(table: Table) -> None:
    """It was ignored (a state sent again): every bad message gets exactly one answer."""
    other = (table.to_act + 1) % 3
    socket = table.connect(other, chat_after=0)
    assert socket.receive_json()["type"] == "chat"
    for ref, hello in enumerate(
        [
            {"type": "hello", "token": table.tokens[table.to_act]},
            {"type": "hello", "token": table.tokens[other], "chat_after": 0},
            {"type": "hello", "token": None},
        ]
    ):
        socket.send_json(hello | {"ref": ref})
        answer = socket.receive_json()  # the very next message: no state, no chat history
        assert answer["type"] == "error" and answer["code"] == "bad-request", answer
        assert answer["ref"] == ref and "already said hello" in answer["message"]
    socket.send_json({"type": "ping"})
    assert socket.receive_json() == {"type": "pong"}
    # The connection is still the seat it said hello as.
    move = {"type": "action", "action": table.legal_move(), "state_id": table.state_id, "ref": "x"}
    socket.send_json(move)
    assert reply(socket)["code"] == "not-your-turn"
