"""The turn clock and seats that change hands (docs/web.md, "The turn clock" and "Seats").

- the clock runs out: the server plays for the seat (carefully), writes a note, counts a missed turn,
  and after K in a row a stand-in bot plays the seat; the player who plays again is no longer missing;
- a defence has its own, shorter clock, and the attacker's clock stops meanwhile;
- the clock is stored: a new game master on the same store, and a real server killed and started
  again, go on with the same deadline;
- resigning, handing a seat to a bot and taking it back, the host replacing an absent player, the
  seat opened on another device, ``connected`` per seat; every bad request refused, nothing changed.

The master tests run on memory, SQLite and PostgreSQL (the ``storage`` fixture) with a clock of their own.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from live_server import free_port, post, request, server
from risk import View
from risk.bots import make_bot
from risk.record import replay_record
from risk.rules.game import Phase
from risk.server import seats as seat_desk
from risk.server.app import create_app
from risk.server.clock import run_out
from risk.server.master import GameMaster, GameSpec, Refusal, SeatSpec, new_host
from risk.server.sql import SqlStorage
from risk.server.storage import MemoryStorage, Storage


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def new_game(
    master: GameMaster, seats: str = "hbb", seed: int = 3, **timing: Any
) -> tuple[str, list[str | None], str]:
    """A game with seats "h" (human) and "b" (quick bot); answers its id, the tokens, the host token."""
    spec = GameSpec(
        seats=[
            SeatSpec("human", f"H{i}") if k == "h" else SeatSpec("bot", bot="quick")
            for i, k in enumerate(seats)
        ],
        seed=seed,
        bot_delay=0,
        **timing,
    )
    host = new_host(spec)
    record, created = master.create_game(spec)
    return record.id, [c.token for c in created], host


def play_bots(master: GameMaster, game_id: str) -> None:
    while (turn := master.bot_turn(game_id)) is not None:
        seat, state_id, decide = turn
        master.submit_as(game_id, seat, decide(), state_id)


def human_move(master: GameMaster, game_id: str, token: str | None) -> int:
    """The human to act plays a quick bot's choice, as a person would with the page."""
    live = master.live(game_id)
    seat = live.game.to_act
    view = View(live.game, seat)
    text = view.action_text(make_bot("quick", live.state_id).choose(view))
    return master.submit(game_id, token, text, live.state_id)


def until(master: GameMaster, game_id: str, tokens: list[str | None], done: Any, limit: int = 5000) -> None:
    """Bots and humans play (humans at once: no clock runs out) until ``done(live)``."""
    live = master.live(game_id)
    for _ in range(limit):
        if done(live):
            return
        assert not live.game.is_over, "the game ended before the position the test needs"
        play_bots(master, game_id)
        if done(live):
            return
        human_move(master, game_id, tokens[live.game.to_act])
    raise AssertionError("the position never came")


def notes(storage: Storage, game_id: str) -> list[str]:
    return [c.text for c in storage.chat(game_id) if c.seat is None]


# -- the turn clock -----------------------------------------------------------------------------------
def test_the_clock_runs_out_then_a_stand_in_plays(storage: Storage) -> None:
    clock = Clock()
    master = GameMaster(storage, clock=clock)
    game_id, tokens, _ = new_game(master, "hbb", seed=5, turn_time=60, missed_turns=2, stand_in="fortress")
    live = master.live(game_id)
    # The setup: H0's claim is a stretch of its own; the clock shows it to everyone.
    until(master, game_id, tokens, lambda live: live.game.to_act == 0)
    state = master.state_message(game_id, 1)
    assert state["clock"] == {"seat": 0, "for": "turn", "remaining": 60.0, "limit": 60.0}
    assert state["deadline"] == live.deadline == clock.now + 60
    assert state["timer"] == {
        "turn_time": 60.0,
        "defend_timeout": 30.0,
        "missed_turns": 2,
        "stand_in": "fortress",
        "time_bank": 0.0,
        "vacation_days": 0.0,
    }
    stored = storage.get_game(game_id)
    assert stored is not None and (stored.deadline, stored.deadline_state) == (live.deadline, live.state_id)
    # Not yet: nothing happens.
    clock.now += 59
    assert run_out(master, game_id, live.state_id) is None
    assert master.state_message(game_id, 1)["clock"]["remaining"] == 1.0
    # Time is up: a bot claims for H0, the note says so, one missed turn.
    clock.now += 1
    before = live.state_id
    assert run_out(master, game_id, before - 1) is None  # an old state: the game moved on
    assert run_out(master, game_id, before) == before + 1
    assert [(a.seat, a.text.split()[0]) for a in storage.actions(game_id, after=before)] == [(0, "claim")]
    assert notes(storage, game_id) == [
        "The clock ran out for H0: a bot chose for H0. Missed turns in a row: 1 of 2, then the fortress bot "
        "plays."
    ]
    assert storage.get_game(game_id).seats[0].missed == 1  # type: ignore[union-attr]
    message = master.state_message(game_id, 2)
    assert message["seats"][0]["missed"] == 1 and message["notes"][0]["log_at"] == len(live.log)
    # The second time in a row: the stand-in bot takes the seat.
    until(master, game_id, tokens, lambda live: live.game.to_act == 0)
    clock.now = live.deadline
    run_out(master, game_id, live.state_id)
    seat = storage.get_game(game_id).seats[0]  # type: ignore[union-attr]
    assert (seat.stand_in, seat.missed, seat.kind, seat.token_hash is not None) == (
        "fortress",
        2,
        "human",
        True,
    )
    assert notes(storage, game_id)[-1] == (
        "The clock ran out for H0: a bot chose for H0. H0 missed 2 turns in a row: the fortress bot plays "
        "for H0 until H0 takes the seat back."
    )
    # From now on the stand-in plays H0's seat, with no clock.
    for _ in range(10):
        seat_to_act, state_id, decide = master.bot_turn(game_id)  # type: ignore[misc]
        if seat_to_act == 0:
            break
        master.submit_as(game_id, seat_to_act, decide(), state_id)
    assert seat_to_act == 0, "the stand-in never played"
    assert live.deadline is None and master.state_message(game_id, 1)["clock"] is None
    assert master.state_message(game_id, 0)["seats"][0]["stand_in"] == "fortress"
    master.submit_as(game_id, 0, decide(), state_id)
    assert storage.actions(game_id, after=state_id)[0].seat == 0


def test_a_timed_out_turn_is_finished_carefully_and_a_player_who_plays_is_not_missing(
    storage: Storage,
) -> None:
    clock = Clock()
    master = GameMaster(storage, clock=clock)
    game_id, tokens, _ = new_game(master, "hbb", seed=9, turn_time=30, missed_turns=3)
    live = master.live(game_id)
    until(
        master, game_id, tokens, lambda live: live.game.to_act == 0 and live.game.phase == Phase.SETUP_PLACE
    )
    clock.now = live.deadline  # type: ignore[assignment]
    run_out(master, game_id, live.state_id)
    assert storage.get_game(game_id).seats[0].missed == 1  # type: ignore[union-attr]
    until(master, game_id, tokens, lambda live: live.game.to_act == 0)
    human_move(master, game_id, tokens[0])  # H0 plays: the missed turns no longer count
    assert storage.get_game(game_id).seats[0].missed == 0  # type: ignore[union-attr]
    # A real turn runs out: armies placed (by the stand-in bot), no attack, the turn ended.
    until(
        master,
        game_id,
        tokens,
        lambda live: live.game.current == 0 and live.game.phase == Phase.REINFORCE and live.game.turn > 3,
    )
    turn, before = live.game.turn, live.state_id
    assert live.deadline == clock.now + 30
    clock.now += 31
    run_out(master, game_id, before)
    played = [a.text for a in storage.actions(game_id, after=before)]
    assert played[-2:] == ["endattack", "endturn"] and all(
        t.startswith(("place", "trade")) for t in played[:-2]
    )
    assert {a.at for a in storage.actions(game_id, after=before)} == {clock.now}  # one batch
    assert live.game.turn == turn + 1 and live.game.current == 1
    assert notes(storage, game_id)[-1] == (
        "The clock ran out for H0: the server finished the turn for H0. "
        "Missed turns in a row: 1 of 3, then the quick bot plays."
    )


def test_a_defence_has_its_own_clock_and_the_attacker_waits(storage: Storage) -> None:
    clock = Clock()
    master = GameMaster(storage, clock=clock)
    game_id, tokens, _ = new_game(master, "hhb", seed=21, turn_time=120, defend_timeout=10)
    live = master.live(game_id)

    def human_defends(live: Any) -> bool:
        game = live.game
        return game.phase == Phase.DEFEND and game.to_act < 2 and game.current < 2

    until(master, game_id, tokens, human_defends)
    attacker, defender = live.game.current, live.game.to_act
    turn_deadline = live.clock.turn_deadline
    assert live.deadline == clock.now + 10
    assert master.state_message(game_id, attacker)["clock"] == {
        "seat": defender,
        "for": "defence",
        "remaining": 10.0,
        "limit": 10.0,
    }
    clock.now += 4
    human_move(master, game_id, tokens[defender])
    assert (
        live.game.to_act == attacker and live.deadline == turn_deadline + 4
    )  # the 4 s are not the attacker's
    assert storage.get_game(game_id).deadline == live.deadline  # type: ignore[union-attr]
    # The next defence runs out: the most dice are rolled; a defence is not a missed turn.
    until(master, game_id, tokens, human_defends)
    defender, state_id = live.game.to_act, live.state_id
    most = min(2, live.game.armies[live.game.pending_attack[1]])  # type: ignore[index]
    clock.now = live.deadline  # type: ignore[assignment]
    assert run_out(master, game_id, state_id) == state_id + 1
    assert storage.actions(game_id, after=state_id)[0].text == f"defend {most}"
    assert (
        notes(storage, game_id)[-1]
        == f"The clock ran out for H{defender}'s defence: the most dice ({most}) were rolled."
    )
    assert storage.get_game(game_id).seats[defender].missed == 0  # type: ignore[union-attr]


def test_a_new_master_on_the_same_store_keeps_the_clock(storage: Storage) -> None:
    clock = Clock()
    master = GameMaster(storage, clock=clock)
    game_id, tokens, _ = new_game(master, "hhb", seed=21, turn_time=120, defend_timeout=10)
    live = master.live(game_id)
    until(
        master,
        game_id,
        tokens,
        lambda live: live.game.current == live.game.to_act == 0 and live.game.turn > 2,
    )
    clock.now += 50
    again = GameMaster(storage, clock=clock).live(game_id)
    assert again.deadline == live.deadline == clock.now - 50 + 120
    assert again.clock.started == live.clock.started
    # In the middle of a defence: the defender's clock comes from the stored time of the attack.
    until(master, game_id, tokens, lambda live: live.game.phase == Phase.DEFEND and live.game.to_act < 2)
    assert storage.actions(game_id)[-1].at == clock.now
    clock.now += 3
    reborn = GameMaster(storage, clock=clock)
    assert reborn.live(game_id).deadline == live.deadline == clock.now - 3 + 10
    assert reborn.state_message(game_id, 0)["clock"] == master.state_message(game_id, 0)["clock"]
    assert reborn.state_message(game_id, 0)["notes"] == master.state_message(game_id, 0)["notes"]


def test_the_clock_survives_a_real_restart(storage_url: str) -> None:
    """A real `risk serve`, killed with SIGKILL while a player's clock runs, started again: the same
    deadline, and the time runs out then (not before), with the note."""
    port = free_port()
    with server(storage_url, port) as process:
        created = post(
            port,
            "/api/games",
            {
                "seats": [
                    {"kind": "human", "name": "Ann"},
                    {"kind": "bot", "bot": "quick"},
                    {"kind": "bot", "bot": "quick"},
                ],
                "seed": 8,
                "bot_delay": 0,
                "turn_time": 8,
            },
        )
        game_id, token = created["id"], created["seats"][0]["token"]
        deadline = time.monotonic() + 30
        while not (state := request(port, "GET", f"/api/games/{game_id}/view", token=token))["legal"]:
            assert time.monotonic() < deadline, "it never became Ann's turn"
            time.sleep(0.05)
        assert state["clock"]["seat"] == 0 and state["clock"]["for"] == "turn"
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    store = SqlStorage(storage_url)
    stored = store.get_game(game_id)
    store.close()
    assert stored is not None and stored.state_id == state["state_id"], "the time ran out before the kill"
    assert stored.deadline == state["deadline"]
    with server(storage_url, port):
        again = request(port, "GET", f"/api/games/{game_id}/view", token=token)
        assert again["deadline"] == state["deadline"]
        if again["state_id"] == state["state_id"]:
            assert 0 < again["clock"]["remaining"] <= 8
        limit = time.monotonic() + 60
        while (
            request(port, "GET", f"/api/games/{game_id}/view", token=token)["state_id"] == state["state_id"]
        ):
            assert time.monotonic() < limit, "the time never ran out after the restart"
            time.sleep(0.1)
        after = request(port, "GET", f"/api/games/{game_id}/view", token=token)
    store = SqlStorage(storage_url)
    played = store.actions(game_id, after=state["state_id"])
    chat = store.chat(game_id)
    store.close()
    assert played[0].seat == 0 and played[0].at >= state["deadline"]  # not a moment early
    assert chat[0].text == (
        "The clock ran out for Ann: a bot chose for Ann. Missed turns in a row: 1 of 2, then the quick bot "
        "plays."
    )
    assert after["notes"][0]["text"] == chat[0].text and after["seats"][0]["missed"] == 1


# -- resigning -------------------------------------------------------------------------------------------
def test_resign_at_any_time(storage: Storage) -> None:
    master = GameMaster(storage)
    game_id, tokens, _ = new_game(master, "hhhb", seed=4)
    live = master.live(game_id)
    until(master, game_id, tokens, lambda live: live.game.turn >= 3 and live.game.to_act not in (1, 3))
    owned = live.game.territories_of(1)
    state_id = seat_desk.resign(master, game_id, tokens[1])  # out of turn
    assert storage.actions(game_id, after=state_id - 1)[0].text == "resign 1"
    assert storage.actions(game_id, after=state_id - 1)[0].seat == 1
    assert live.game.territories_of(1) == owned and not live.game.alive[1]
    message = master.state_message(game_id, 0)
    assert message["seats"][1]["resigned"] is True and message["seats"][0]["resigned"] is False
    assert message["log"][-1]["text"] == "H1 resigns: H1's armies stay on the board as neutral armies."
    assert notes(storage, game_id) == ["H1 resigned."]
    # Refused, saying why, changing nothing:
    for token, code, words in [
        (tokens[1], "bad-request", "H1 is out of the game"),
        (None, "bad-token", "players"),
        ("forged", "bad-token", "does not hold a seat"),
    ]:
        with pytest.raises(Refusal) as refused:
            seat_desk.resign(master, game_id, token)
        assert refused.value.code == code and words in refused.value.message
    with pytest.raises(Refusal) as refused:
        master.submit(game_id, tokens[0], "resign 2", live.state_id)
    assert refused.value.code in ("illegal", "not-your-turn")
    assert live.state_id == state_id and notes(storage, game_id) == ["H1 resigned."]
    # A restart replays the resignation; the game goes on without H1 and ends.
    reborn = GameMaster(storage)
    assert reborn.state_message(game_id, 1)["seats"][1]["resigned"] is True
    seat_desk.resign(master, game_id, tokens[2])
    seat_desk.resign(master, game_id, tokens[0])
    assert live.game.is_over and live.game.winner == 3
    with pytest.raises(Refusal) as refused:
        seat_desk.resign(master, game_id, tokens[0])
    assert refused.value.code == "game-over"
    record = replay_record(master.record_text(game_id, tokens[0]))
    assert record.verified and record.game.to_dict() == live.game.to_dict()


def test_resign_waits_for_the_game_to_start(storage: Storage) -> None:
    master = GameMaster(storage)
    record, created = master.create_game(
        GameSpec(seats=[SeatSpec("human", "Ann"), SeatSpec("open"), SeatSpec("bot", bot="quick")], seed=2)
    )
    with pytest.raises(Refusal) as refused:
        seat_desk.resign(master, record.id, created[0].token)
    assert refused.value.code == "waiting" and storage.actions(record.id) == []


# -- handing a seat to a bot ---------------------------------------------------------------------------
def test_hand_the_seat_to_a_bot_and_take_it_back(storage: Storage) -> None:
    clock = Clock()
    master = GameMaster(storage, clock=clock)
    game_id, tokens, _ = new_game(master, "hhb", seed=6, turn_time=90, stand_in="continental")
    live = master.live(game_id)
    until(master, game_id, tokens, lambda live: live.game.to_act == 1 and live.game.turn > 0)
    assert live.deadline is not None
    assert seat_desk.hand_over(master, game_id, tokens[1], True) == {"seat": 1, "stand_in": "continental"}
    assert live.deadline is None and master.bot_turn(game_id) is not None  # the bot plays now
    # The player's own moves wait until the seat is taken back; the page is offered none meanwhile.
    legal_then = View(live.game, 1).action_text(next(iter(live.game.legal_actions())))
    assert master.state_message(game_id, 1)["legal"] == []
    with pytest.raises(Refusal) as refused:
        master.submit(game_id, tokens[1], legal_then, live.state_id)
    assert refused.value.code == "stand-in" and "take the seat back" in refused.value.message
    assert storage.get_game(game_id).seats[1].stand_in == "continental"  # type: ignore[union-attr]
    with pytest.raises(Refusal) as refused:
        seat_desk.hand_over(master, game_id, tokens[1], True)
    assert refused.value.code == "bad-request" and "already plays for H1" in refused.value.message
    turn, state_id = live.game.turn, live.state_id
    play_bots(master, game_id)  # the stand-in finishes H1's turn (and the bot's)
    assert live.game.turn > turn and live.state_id > state_id
    # H1 takes the seat back in the middle of a turn: a whole turn's time from now.
    until(
        master, game_id, tokens, lambda live: master.bot_turn(game_id) is not None and live.game.to_act == 1
    )
    clock.now += 500
    assert seat_desk.hand_over(master, game_id, tokens[1], False) == {"seat": 1, "stand_in": None}
    assert master.bot_turn(game_id) is None and live.deadline == clock.now + 90
    with pytest.raises(Refusal) as refused:
        seat_desk.hand_over(master, game_id, tokens[1], False)
    assert "already theirs" in refused.value.message
    assert notes(storage, game_id) == [
        "H1 handed the seat to the continental bot.",
        "H1 is back and plays the seat again.",
    ]
    with pytest.raises(Refusal) as refused:
        seat_desk.hand_over(master, game_id, None, True)
    assert refused.value.code == "bad-token"


# -- the web app: host, presence, another device, bad requests -----------------------------------------
@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(MemoryStorage())) as test_client:
        yield test_client


def create(client: TestClient, **extra: Any) -> dict[str, Any]:
    body = {
        "seats": [
            {"kind": "human", "name": "Ann"},
            {"kind": "human", "name": "Bob"},
            {"kind": "bot", "bot": "quick"},
        ],
        "seed": 12,
        "bot_delay": 0,
    } | extra
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def test_the_host_replaces_an_absent_player(client: TestClient) -> None:
    game = create(client)
    game_id, host = game["id"], game["host_token"]
    ann, bob = game["seats"][0]["token"], game["seats"][1]["token"]
    assert host and host not in (ann, bob) and len(host) >= 32
    master: GameMaster = client.app.state.master  # type: ignore[attr-defined]
    assert master.storage.get_game(game_id).host_hash not in (None, host)  # type: ignore[union-attr]
    url = f"/api/games/{game_id}/replace"
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": ann})
        assert ws.receive_json()["seats"][0]["connected"] is True
        cases = [
            (bearer(ann), {"seat": 1}, 403, "bad-token", "only the host"),
            ({}, {"seat": 1}, 403, "bad-token", "only the host"),
            (bearer("forged"), {"seat": 1}, 403, "bad-token", "only the host"),
            (bearer(host), {"seat": 0}, 409, "present", "Ann is connected"),
            (bearer(host), {"seat": 2}, 422, "bad-request", "not a human player's seat"),
            (bearer(host), {"seat": 7}, 422, "bad-request", "no seat 7"),
            (bearer(host), {"seat": 1, "bot": "deep-blue"}, 422, "bad-request", "no bot"),
            (bearer(host), {"seat": "one"}, 422, "bad-request", "seat"),
        ]
        for headers, body, status, code, words in cases:
            answer = client.post(url, json=body, headers=headers)
            assert answer.status_code == status and answer.json()["error"]["code"] == code, (
                body,
                answer.text,
            )
            assert words in answer.json()["error"]["message"]
        assert [s.stand_in for s in master.storage.get_game(game_id).seats] == [None, None, None]  # type: ignore[union-attr]
        assert master.storage.chat(game_id) == []
        answer = client.post(url, json={"seat": 1, "bot": "fortress"}, headers=bearer(host))
        assert answer.status_code == 200 and answer.json() == {"seat": 1, "stand_in": "fortress"}
        state = wait_for(ws, lambda state: state["seats"][1]["stand_in"] == "fortress")
        assert state["notes"][-1]["text"] == "The host handed Bob's seat to the fortress bot."
        again = client.post(url, json={"seat": 1}, headers=bearer(host))
        assert again.status_code == 422 and "already plays for Bob" in again.json()["error"]["message"]
    # Bob comes back with his link and takes the seat.
    back = client.post(f"/api/games/{game_id}/stand-in", json={"on": False}, headers=bearer(bob))
    assert back.status_code == 200 and back.json() == {"seat": 1, "stand_in": None}


def connected(state: dict[str, Any]) -> list[bool]:
    return [s["connected"] for s in state["seats"]]


def wait_for(socket: Any, wanted: Any) -> dict[str, Any]:
    """Read a page's state messages until one is ``wanted`` (bots' moves may come between)."""
    while not wanted(state := socket.receive_json()):
        assert state["type"] == "state", state
    return state


def test_another_device_takes_the_seat_and_connected_follows(client: TestClient) -> None:
    game = create(client)
    game_id, ann, bob = game["id"], game["seats"][0]["token"], game["seats"][1]["token"]
    url = f"/api/games/{game_id}/ws"
    with client.websocket_connect(url) as watcher:
        watcher.send_json({"type": "hello", "token": bob})
        assert [s["connected"] for s in watcher.receive_json()["seats"]] == [False, True, True]
        with client.websocket_connect(url) as laptop:
            laptop.send_json({"type": "hello", "token": ann})
            assert laptop.receive_json()["seats"][0]["connected"] is True
            wait_for(watcher, lambda state: connected(state) == [True, True, True])
            with client.websocket_connect(url) as phone:
                phone.send_json({"type": "hello", "token": ann})
                assert phone.receive_json()["seat"] == 0
                # The laptop's page is told, then closed: it does not play on beside the phone.
                while (moved := laptop.receive_json())["type"] != "moved":
                    assert moved["type"] == "state"  # a bot's move may come first
                assert "another device" in moved["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    laptop.receive_json()
                assert closed.value.code == 4409
                phone.send_json({"type": "ping"})
                assert phone.receive_json() == {"type": "pong"}
            # The phone left too: Ann is no longer connected.
            wait_for(watcher, lambda state: connected(state)[0] is False)
    view = client.get(f"/api/games/{game_id}/view").json()
    assert view["seats"][0]["connected"] is False and view["seats"][2]["connected"] is True


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"turn_time": 3}, "turn_time"),
        ({"turn_time": -5}, "turn_time"),
        ({"turn_time": 10**9}, "turn_time"),
        ({"missed_turns": -1}, "missed_turns"),
        ({"missed_turns": 99}, "missed_turns"),
        ({"stand_in": "deep-blue"}, "no stand-in bot"),
        ({"turn_time": "soon"}, "turn_time"),
    ],
)
def test_bad_clock_settings_are_refused(client: TestClient, extra: dict[str, Any], words: str) -> None:
    answer = client.post(
        "/api/games", json={"seats": [{"kind": "bot", "bot": "quick"}] * 3, "seed": 1, **extra}
    )
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "bad-request"
    assert words in answer.json()["error"]["message"]
    assert client.get("/api/games").json()["games"] == []


def test_bad_seat_requests_over_http_change_nothing(client: TestClient) -> None:
    game = create(client)
    game_id, ann = game["id"], game["seats"][0]["token"]
    deadline = time.monotonic() + 30
    while (before := client.get(f"/api/games/{game_id}/view", headers=bearer(ann)).json())["view"][
        "to_act"
    ] == 2:
        assert time.monotonic() < deadline, "the bot never finished its move"
        time.sleep(0.02)  # the bot may be first: wait until the humans are to act, then nothing moves
    for path, body, headers, status in [
        ("stand-in", {"on": "maybe"}, bearer(ann), 422),
        ("stand-in", {}, bearer(ann), 422),
        ("stand-in", {"on": True}, {}, 403),
        ("stand-in", {"on": False}, bearer(ann), 422),  # nobody plays for Ann
        ("resign", None, {}, 403),
        ("resign", None, bearer("forged"), 403),
        ("replace", {"seat": 0}, bearer(ann), 403),
    ]:
        answer = client.post(f"/api/games/{game_id}/{path}", json=body, headers=headers)
        assert answer.status_code == status, (path, body, answer.text)
        assert answer.json()["error"]["message"]
    assert client.post("/api/games/nosuchgame/resign", headers=bearer(ann)).status_code == 404
    after = client.get(f"/api/games/{game_id}/view", headers=bearer(ann)).json()
    assert after == before


def test_resign_and_stand_in_over_http(client: TestClient) -> None:
    game = create(client, seats=[{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")])
    game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
    answer = client.post(f"/api/games/{game_id}/stand-in", json={"on": True}, headers=bearer(tokens[2]))
    assert answer.json() == {"seat": 2, "stand_in": "quick"}
    answer = client.post(f"/api/games/{game_id}/resign", headers=bearer(tokens[1]))
    assert answer.status_code == 200 and answer.json()["state_id"] >= 1
    view = client.get(f"/api/games/{game_id}/view", headers=bearer(tokens[0])).json()
    assert view["seats"][1]["resigned"] is True and view["seats"][2]["stand_in"] == "quick"
    assert [n["text"] for n in view["notes"]] == ["Cy handed the seat to the quick bot.", "Bob resigned."]
