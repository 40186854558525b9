"""The websocket under bad input: every bad message is refused with a clear message, the server stays
up, and the game does not change (its stored actions, its record and its log, compared before and
after). Malformed JSON, unknown types, messages over the size limit, binary frames, wrong, stale,
ill-typed and out-of-range numbers (at and past 2**63, negative) in every numeric field, moves
without a state id or with control characters, a second hello, moves for other seats, a spectator's
moves, random messages and hellos from hypothesis, and floods over the per-connection rate limit.
The games are stored in SQLite, where a number past 2**63 - 1 would fail in the store. One test runs
against a real `risk serve` process: a frame over uvicorn's own limit, and a flood over `risk
serve`'s default limit.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api_table import Table, make_table, reply
from risk.server.api.websocket import MAX_MESSAGE
from risk.server.inputs import NUMBER_MAX
from risk.server.limits import Limits, Rate
from risk.server.master import Refusal


@pytest.fixture
def table() -> Iterator[Table]:
    yield from make_table()


def refused(socket: Any, frame: Any, code: str | None = None) -> dict[str, Any]:
    """Send one frame (text, bytes, or an object sent as JSON); the answer must be a refusal. (A
    state answering a hello is its answer, not a state pushed meanwhile: none is pushed to a socket
    that says hello again here.)"""
    if isinstance(frame, bytes):
        socket.send_bytes(frame)
    elif isinstance(frame, str):
        socket.send_text(frame)
    else:
        socket.send_text(json.dumps(frame))
    answer = reply(socket, state=isinstance(frame, dict) and frame.get("type") == "hello")
    assert answer["type"] == "error", (frame if len(str(frame)) < 200 else str(frame)[:200], answer)
    assert answer["code"] in Refusal.STATUS and answer["message"], answer
    if code is not None:
        assert answer["code"] == code, (str(frame)[:200], answer)
    if isinstance(frame, dict) and "ref" in frame:
        assert answer["ref"] == frame["ref"]
    return answer


# Whole numbers no field takes: past the store's INTEGER columns (2**31 - 1 on PostgreSQL), at and past
# 2**63 (SQLite's), negative.
OUT_OF_RANGE = [NUMBER_MAX + 1, 2**63 - 1, 2**63, 2**64, -1, -(2**63) - 1, -(10**30)]
MALFORMED: list[tuple[Any, str, str]] = [
    ("not json", "bad-request", "not JSON"),
    ("{", "bad-request", "not JSON"),
    ("", "bad-request", "not JSON"),
    ("\x00\x01", "bad-request", "not JSON"),
    ('{"type": "action", "action": "x"', "bad-request", "not JSON"),
    ("null", "bad-request", "object"),
    ("[1, 2]", "bad-request", "object"),
    ('"hello"', "bad-request", "object"),
    ("1e999999", "bad-request", "object"),
    ("[" * 5000 + "]" * 5000, "bad-request", "nested too deeply"),
    ('{"a":' * 2000 + "1" + "}" * 2000, "bad-request", "nested too deeply"),
    ("x" * (MAX_MESSAGE + 1), "too-large", "longer than"),
    (json.dumps({"type": "action", "action": "a" * (MAX_MESSAGE + 10)}), "too-large", "longer than"),
    (
        json.dumps({"type": "action", "action": "a" * 16_000, "state_id": 0, "ref": 1}),
        "bad-request",
        "200 characters",
    ),
    (b"", "bad-request", "binary"),
    (b"\x00\xff\xfe", "bad-request", "binary"),
    (b'{"type": "ping"}', "bad-request", "binary"),
    ({}, "bad-request", "unknown message type"),
    ({"type": "dance", "ref": "r1"}, "bad-request", "unknown message type"),
    ({"type": None, "ref": [1, {"a": None}]}, "bad-request", "unknown message type"),
    ({"type": 7}, "bad-request", "unknown message type"),
    ({"type": ["action"]}, "bad-request", "unknown message type"),
    ({"type": {"action": 1}}, "bad-request", "unknown message type"),
    ({"type": "ACTION", "action": "endturn"}, "bad-request", "unknown message type"),
    ({"type": "action"}, "bad-request", "action message"),
    ({"type": "action", "action": None}, "bad-request", "action message"),
    ({"type": "action", "action": ["claim", "alaska"]}, "bad-request", "action message"),
    ({"type": "action", "action": "   ", "state_id": 0}, "bad-request", "empty"),
    ({"type": "action", "action": "endturn"}, "bad-request", "no 'state_id'"),
    *(
        (
            {"type": "action", "action": "endturn", "state_id": bad},
            "bad-request",
            "'state_id' is a whole number",
        )
        for bad in ["0", " 0 ", 0.0, True, None, *OUT_OF_RANGE]
    ),
    ({"type": "action", "action": "claim alaska\u0000", "state_id": 0}, "bad-request", "U+0000"),
    ({"type": "action", "action": "claim\nalaska", "state_id": 0}, "bad-request", "U+000A"),
    ({"type": "blitz", "from": "alaska", "to": "kamchatka"}, "bad-request", "no 'state_id'"),
    ({"type": "blitz", "from": "alaska\u202e", "to": "kamchatka", "state_id": 0}, "bad-request", "U+202E"),
    *(
        (
            {"type": "blitz", "from": "alaska", "to": "kamchatka", "until": bad, "state_id": 0},
            "bad-request",
            "'until'",
        )
        for bad in [0, *OUT_OF_RANGE]
    ),
    ({"type": "undo"}, "bad-request", "no 'state_id'"),
    *(({"type": "undo", "to": bad, "state_id": 0}, "bad-request", "'to'") for bad in OUT_OF_RANGE),
    ({"type": "blitz-stop", "state_id": 2**63}, "bad-request", "'state_id'"),
    ({"type": "hello", "token": None}, "bad-request", "already said hello"),
    ({"type": "hello", "token": None, "chat_after": 2**63, "ref": "h"}, "bad-request", "already said hello"),
    ({"type": "blitz", "from": 1, "to": 2}, "bad-request", "blitz message"),
    ({"type": "blitz", "from": "alaska", "to": "kamchatka", "until": "all"}, "bad-request", "until"),
    ({"type": "blitz", "from": "alaska", "to": "kamchatka", "state_id": "3"}, "bad-request", "state_id"),
    ({"type": "undo", "to": "last"}, "bad-request", "'to'"),
    ({"type": "undo", "to": True}, "bad-request", "'to'"),
]


@pytest.mark.parametrize("seat_kind", ["to act", "waiting", "spectator"])
def test_malformed_messages_are_refused_and_change_nothing(table: Table, seat_kind: str) -> None:
    seat = {"to act": table.to_act, "waiting": (table.to_act + 1) % 3, "spectator": None}[seat_kind]
    socket = table.connect(seat)
    before = table.snapshot()
    for frame, code, words in MALFORMED:
        answer = refused(socket, frame)
        if seat is None and code == "bad-request" and answer["code"] == "bad-token":
            continue  # a spectator's move is refused for who sends it before what it holds
        assert (answer["code"], words in answer["message"]) == (code, True), (str(frame)[:80], answer)
    assert table.snapshot() == before
    # Still up, and still the same connection: a ping is answered, the seat to act can move.
    socket.send_json({"type": "ping"})
    assert reply(socket) == {"type": "pong"}


def test_wrong_stale_and_foreign_moves_are_refused(table: Table) -> None:
    mover, other = table.to_act, (table.to_act + 1) % 3
    sockets = {seat: table.connect(seat) for seat in (mover, other, None)}
    move, state_id = table.legal_move(), table.master.live(table.game_id).state_id
    before = table.snapshot()
    for wrong in (state_id - 1, state_id + 1, 0, NUMBER_MAX):
        refused(sockets[mover], {"type": "action", "action": move, "state_id": wrong, "ref": wrong}, "stale")
    for bad in ("17", str(state_id), 1.5, float(state_id), True, [state_id], {"id": state_id}, None, 10**40):
        refused(sockets[mover], {"type": "action", "action": move, "state_id": bad}, "bad-request")
    for bad in OUT_OF_RANGE:
        refused(
            sockets[mover], {"type": "action", "action": move, "state_id": bad, "ref": bad}, "bad-request"
        )
    refused(sockets[mover], {"type": "action", "action": move, "ref": "none"}, "bad-request")
    # Another seat's move, from a seat that is not to act: the seat is the connection's, never the message's.
    for message in (
        {"type": "action", "action": move, "state_id": state_id},
        {"type": "action", "action": move, "state_id": state_id, "seat": mover, "token": table.tokens[mover]},
        {"type": "undo", "state_id": state_id},
        {"type": "blitz", "from": "alaska", "to": "kamchatka", "state_id": state_id},
    ):
        refused(sockets[other], message, "not-your-turn")
        refused(sockets[None], message, "bad-token")
    # A second hello is refused, and cannot change the connection's seat.
    refused(sockets[other], {"type": "hello", "token": table.tokens[mover], "ref": "again"}, "bad-request")
    refused(sockets[other], {"type": "action", "action": move, "state_id": state_id}, "not-your-turn")
    assert table.snapshot() == before
    # The same move, right: taken once, then stale.
    sockets[mover].send_json({"type": "action", "action": move, "state_id": state_id, "ref": "ok"})
    assert sockets[mover].receive_json() == {"type": "ack", "ref": "ok", "state_id": state_id + 1}
    assert sockets[mover].receive_json()["type"] == "state"
    after = table.snapshot()
    assert after[0] == state_id + 1 and after[1][:-1] == before[1]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
TYPES = st.sampled_from(["action", "blitz", "undo", "hello", "ping", "blitz-stop", "Action", ""]) | st.text(
    max_size=12
)
# Whole numbers at the edges of every range: the store's (2**31 - 1, 2**63 - 1), past them, negative.
EDGES = st.sampled_from([0, 1, NUMBER_MAX, *OUT_OF_RANGE, -(2**63), 2**100, -(2**100)])
NUMBERS = EDGES | st.integers() | JSON_VALUES
MESSAGES = st.fixed_dictionaries(
    {"type": TYPES},
    optional={
        "action": st.text(max_size=40) | JSON_VALUES,
        "state_id": NUMBERS,
        "from": st.sampled_from(["alaska", "kamchatka", "peru"]) | JSON_VALUES,
        "to": st.sampled_from(["alaska", "kamchatka", "peru"]) | NUMBERS,
        "until": NUMBERS,
        "token": st.text(max_size=40) | JSON_VALUES,
        "chat_after": NUMBERS,
        "seat": NUMBERS,
        "ref": JSON_VALUES,
    },
)


def test_random_messages_from_seats_not_to_act_change_nothing(table: Table) -> None:
    """Whatever a seat that is not to act (or a spectator) sends, the game stays as it was; every
    message gets one answer, and it is a refusal unless it asks for nothing (ping) or calls off a
    blitz there is none of (a second hello too is refused)."""
    other = (table.to_act + 1) % 3
    sockets = [table.connect(other), table.connect(None)]
    before = table.snapshot()

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(message=MESSAGES, which=st.sampled_from([0, 1]))
    def send(message: dict[str, Any], which: int) -> None:
        socket = sockets[which]
        socket.send_text(json.dumps(message))
        kind = message["type"]
        answer = reply(socket, state=kind == "hello")
        if kind == "ping":
            assert answer == {"type": "pong"}
        elif answer["type"] == "ack":  # calling off a blitz there is none of: nothing to do
            assert (kind, which, answer["stopped"]) == ("blitz-stop", 0, False)
            assert socket.receive_json()["type"] == "state"  # the seat's view, sent again
        else:
            assert answer["type"] == "error" and answer["code"] in Refusal.STATUS and answer["message"]
            assert answer["ref"] == message.get("ref")

    send()
    assert table.snapshot() == before


HELLOS = st.fixed_dictionaries(
    {"type": st.just("hello")},
    optional={
        "token": st.none() | st.text(max_size=40) | JSON_VALUES,
        "chat_after": NUMBERS,
        "ref": JSON_VALUES,
    },
)


def test_random_hellos_are_answered_once_and_never_dropped(table: Table) -> None:
    """A first message ``hello``, with any token and any ``chat_after``: answered by the state (and
    the chat history it asked for), or by one error and a close frame; never a dropped connection
    (``chat_after`` 2**63 once made the store fail and the connection end with no close frame)."""
    from starlette.websockets import WebSocketDisconnect

    before = table.snapshot()

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(hello=HELLOS, token_of=st.sampled_from([None, 0, 1]))
    def connect(hello: dict[str, Any], token_of: int | None) -> None:
        if token_of is not None:
            hello = hello | {"token": table.tokens[token_of]}
        with table.client.websocket_connect(f"/api/games/{table.game_id}/ws") as socket:
            socket.send_text(json.dumps(hello))
            answer = socket.receive_json()
            if answer["type"] == "error":
                assert answer["code"] in ("bad-request", "bad-token") and answer["message"], answer
                with pytest.raises(WebSocketDisconnect) as closed:
                    socket.receive_json()
                assert closed.value.code in (4400, 4403), closed.value.code
                return
            assert answer["type"] == "state", answer
            chat_after = hello.get("chat_after")
            assert chat_after is None or (type(chat_after) is int and 0 <= chat_after <= NUMBER_MAX)
            if chat_after is not None:
                assert socket.receive_json() == {"type": "chat", "after": chat_after, "messages": []}
            socket.send_json({"type": "ping"})
            assert reply(socket) == {"type": "pong"}

    connect()
    assert table.snapshot() == before


def test_a_flood_is_refused_past_the_connection_limit_and_nothing_else_changes() -> None:
    now = [1000.0]
    for table in make_table(Limits(games=None, actions=None, messages=Rate(20, 2))):
        table.client.app.state.guard.clock = lambda: now[0]  # type: ignore[attr-defined]
        mover = table.to_act
        socket = table.connect(mover)  # the hello is the first of 20
        before = table.snapshot()
        answers = []
        for index in range(40):
            socket.send_json({"type": "ping", "ref": index} if index % 2 else {"type": "dance", "ref": index})
            answers.append(socket.receive_json())
        allowed, throttled = answers[:19], answers[19:]
        assert all(a["type"] == "pong" or a["code"] == "bad-request" for a in allowed)
        for index, answer in enumerate(throttled, start=19):
            assert answer["type"] == "error" and answer["code"] == "rate-limited", answer
            assert answer["ref"] == index and "at most 20 per 2 seconds" in answer["message"]
        # Garbage counts too, and a good move over the limit is not taken.
        refused(socket, b"\x00", "rate-limited")
        refused(socket, "[" * 5000, "rate-limited")
        move, state_id = table.legal_move(), table.master.live(table.game_id).state_id
        refused(socket, {"type": "action", "action": move, "state_id": state_id, "ref": "m"}, "rate-limited")
        assert table.snapshot() == before
        now[0] += 1.0  # ten messages' worth of time
        socket.send_json({"type": "action", "action": move, "state_id": state_id, "ref": "m"})
        assert socket.receive_json() == {"type": "ack", "ref": "m", "state_id": state_id + 1}


def test_http_bodies_nested_too_deeply_are_refused(table: Table) -> None:
    answer = table.client.post(
        "/api/games", content="[" * 5000 + "]" * 5000, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "bad-request"
    answer = table.client.post(
        f"/api/games/{table.game_id}/actions",
        content='{"action": ' + "[" * 5000 + "]" * 5000 + "}",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {table.tokens[0]}"},
    )
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "bad-request"


def test_a_real_server_closes_frames_over_its_limit_and_throttles_floods() -> None:
    """`risk serve` as shipped: uvicorn closes a frame over 64 KiB (1009, message too big), the default
    limit refuses a flood, and the server goes on answering."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from live_server import free_port, post, request, server

    port = free_port()
    with server("memory", port):
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}]
        game = post(port, "/api/games", {"seats": seats})
        url = f"ws://127.0.0.1:{port}/api/games/{game['id']}/ws"
        with connect(url) as socket:
            socket.send(json.dumps({"type": "hello", "token": game["seats"][0]["token"]}))
            assert json.loads(socket.recv(10))["type"] == "state"
            socket.send("x" * 70_000)
            with pytest.raises(ConnectionClosed) as closed:
                socket.recv(10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        with connect(url) as socket:
            socket.send(json.dumps({"type": "hello", "token": None}))
            assert json.loads(socket.recv(10))["type"] == "state"
            for index in range(150):  # the default: 100 messages per 10 seconds on one connection
                socket.send(json.dumps({"type": "ping", "ref": index}))
            answers = [json.loads(socket.recv(10)) for _ in range(150)]
            limited = [a for a in answers if a.get("code") == "rate-limited"]
            assert len(limited) >= 10 and all(a["type"] == "pong" for a in answers[:99])
        assert request(port, "GET", f"/api/games/{game['id']}")["state_id"] == 0
