"""The web server on a board given as JSON (docs/boards.md, "Where a board is used"): POST /api/games
takes a board object, validated and size-limited like a board file, stores it with the game (once
however many games use it) and replays the game on it after a restart, over SQLite and PostgreSQL."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from risk import View
from risk.bots import make_bot
from risk.history import summarize
from risk.maps import Board, load_map
from risk.record import replay_record, write_record
from risk.rules.missions import RANKED_MISSIONS, ranked_missions
from risk.server.app import create_app
from risk.server.master import GameMaster, GameSpec, SeatSpec
from risk.server.sql import SqlStorage
from risk.server.storage import MemoryStorage, Storage
from test_board_parts import generated_board, played, small_board


@contextmanager
def serving(storage: Storage) -> Iterator[TestClient]:
    with TestClient(create_app(storage)) as client:
        yield client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def claim_some(client: TestClient, game_id: str, tokens: list[str], board: Board, claims: int) -> None:
    """The humans to act claim the first unclaimed territories, over HTTP."""
    for _ in range(claims):
        state = client.get(f"/api/games/{game_id}/view").json()
        view = state["view"]
        free = next(i for i, t in enumerate(view["territories"]) if t["owner"] == -1)
        answer = client.post(
            f"/api/games/{game_id}/actions",
            json={"action": f"claim {board.slug_of(free)}", "state_id": state["state_id"]},
            headers=bearer(tokens[view["to_act"]]),
        )
        assert answer.status_code == 200, answer.text


def test_a_game_on_a_board_given_as_json_survives_a_restart(storage_url: str) -> None:
    data = generated_board(players=(2, 8))
    board = Board(data)
    names = [f"P{k}" for k in range(8)]
    with serving(SqlStorage(storage_url)) as client:
        answer = client.post(
            "/api/games",
            json={
                "edition": "2003",
                "seed": 5,
                "board": data,
                "seats": [{"kind": "human", "name": name} for name in names],
            },
        )
        assert answer.status_code == 201, answer.text
        game_id = answer.json()["id"]
        tokens = [seat["token"] for seat in answer.json()["seats"]]
        summary = client.get(f"/api/games/{game_id}").json()
        assert (summary["board"], summary["board_sha256"]) == (board.name, board.digest)
        claim_some(client, game_id, tokens, board, 12)
        before = client.get(f"/api/games/{game_id}/view").json()
        # A second game on the same board keeps one copy of it.
        again = client.post(
            "/api/games",
            json={
                "edition": "2003",
                "board": data,
                "seats": [{"kind": "human", "name": n} for n in names[:3]],
            },
        )
        assert again.status_code == 201, again.text

    engine = sa.create_engine(storage_url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT sha256 FROM boards")).scalars().all() == [board.digest]
    finally:
        engine.dispose()

    with serving(SqlStorage(storage_url)) as client:  # a new server on the same database
        after = client.get(f"/api/games/{game_id}/view").json()
        assert after["state_id"] == before["state_id"] == 12
        assert after["view"]["board"] == board.name
        assert after["view"]["territories"] == before["view"]["territories"]
        assert [t["name"] for t in after["view"]["territories"]] == [t.name for t in board.territories]
        claim_some(client, game_id, tokens, board, 1)  # and it goes on
        assert client.get(f"/api/games/{game_id}").json()["state_id"] == 13


def test_bots_play_a_hand_written_board_to_the_end() -> None:
    with serving(MemoryStorage()) as client:
        answer = client.post(
            "/api/games",
            json={
                "edition": "2003",
                "seed": 3,
                "bot_delay": 0,
                "board": small_board(),
                "seats": [{"kind": "bot", "bot": "quick"}] * 4,
            },
        )
        assert answer.status_code == 201, answer.text
        game_id = answer.json()["id"]
        client.get(f"/api/games/{game_id}/view")  # a page opened: the bots play on
        limit = time.monotonic() + 60
        while (summary := client.get(f"/api/games/{game_id}").json())["status"] != "over":
            assert time.monotonic() < limit, summary
            time.sleep(0.05)
        assert summary["winner"] is not None and summary["board"] == "shire"


def test_a_rematch_is_played_on_the_same_board() -> None:
    from risk.server.houserules import rematch

    master = GameMaster(MemoryStorage())
    spec = GameSpec(
        edition="2003", seed=2, bot_delay=0, board=small_board(), seats=[SeatSpec("bot", bot="quick")] * 3
    )
    record, _ = master.create_game(spec)
    while (turn := master.bot_turn(record.id)) is not None:
        seat, state_id, decide = turn
        master.submit_as(record.id, seat, decide(), state_id)
    assert master.live(record.id).game.is_over
    again, _ = rematch(master, record.id)
    assert master.live(again.id).game.board.digest == Board(small_board()).digest


def too_big_board() -> dict[str, Any]:
    data = small_board()
    data["title"] = "x" * 100
    data["territories"][0]["aliases"] = []
    data["territories"][0]["outline"] = [[k * 0.123456789, k * 0.987654321] for k in range(1000)]
    data["territories"] += [dict(data["territories"][0], name=f"Copy {k}", aliases=[]) for k in range(40)]
    return data


@pytest.mark.parametrize(
    ("board", "status", "code", "words"),
    [
        ("/etc/passwd.json", 422, "bad-request", "no board '/etc/passwd.json'"),
        ("nowhere", 422, "bad-request", "no board 'nowhere'"),
        ({"name": "empty"}, 422, "bad-request", "the board is not valid: "),
        (dict(small_board(), links=[{"between": ["Fen", "Nowhere"]}]), 422, "bad-request", "Nowhere"),
        (
            dict(small_board(), players={"min": 2, "max": 2}, starting_armies={}),
            422,
            "bad-request",
            "the shire board is for 2 players, not 3",
        ),
        (too_big_board(), 413, "too-large", "larger than 1 MiB"),
    ],
)
def test_a_board_that_is_not_a_board_is_refused(board: Any, status: int, code: str, words: str) -> None:
    with serving(MemoryStorage()) as client:
        answer = client.post(
            "/api/games",
            json={
                "edition": "2003",
                "board": board,
                "seats": [{"kind": "bot", "bot": "quick"}] * 3,
            },
        )
        assert (answer.status_code, answer.json()["error"]["code"]) == (status, code), answer.text
        message = answer.json()["error"]["message"]
        assert words in message and "\n" not in message
        assert client.get("/api/games").json()["games"] == []


def test_ten_seats_on_a_board_for_ten_and_no_more() -> None:
    data = generated_board()
    with serving(MemoryStorage()) as client:
        seats = [{"kind": "bot", "bot": "quick"}] * 10
        answer = client.post("/api/games", json={"edition": "2003", "board": data, "seats": seats})
        assert answer.status_code == 201, answer.text
        eleven = {"edition": "2003", "board": data, "seats": [*seats, seats[0]]}
        assert client.post("/api/games", json=eleven).status_code == 422


# -- after the game: the pages that read a finished game's record --------------------------------------


def finished_on(storage: Storage, data: dict[str, Any]) -> tuple[str, str]:
    """A game of a human and two bots on ``data``, played to the end (the human's moves chosen by a
    quick bot): its id and the human's token."""
    master = GameMaster(storage)
    record, seats = master.create_game(
        GameSpec(
            edition="2003",
            seed=11,
            bot_delay=0,
            defend_timeout=0,
            board=data,
            seats=[SeatSpec("human", "Ann"), SeatSpec("bot", bot="quick"), SeatSpec("bot", bot="quick")],
        )
    )
    live = master.live(record.id)
    ann = make_bot("quick", 1)
    while not live.game.is_over:
        turn = master.bot_turn(record.id)
        if turn is not None:
            seat, state_id, decide = turn
            master.submit_as(record.id, seat, decide(), state_id)
            continue
        view = View(live.game, 0)
        master.submit_as(record.id, 0, view.action_text(ann.choose(view)), live.state_id)
    token = seats[0].token
    assert token is not None
    return record.id, token


@pytest.mark.parametrize("made", [small_board, generated_board], ids=["hand-written", "generated"])
def test_a_finished_game_on_a_board_given_as_json_after_a_restart(
    tmp_path: Path, made: Callable[[], dict[str, Any]]
) -> None:
    """The record, the summary (charts, timelapse) and the board of a finished game on a board that is
    not shipped, from a new server on the same store; its record uploaded on /replay carries the board,
    which the replay answers whole (the page cannot ask for it by name)."""
    data = made()
    board = Board(data)
    url = f"sqlite:///{tmp_path / 'games.sqlite'}"
    game_id, token = finished_on(SqlStorage(url), data)
    with serving(SqlStorage(url)) as client:  # a new server: the game is replayed from the store
        text = client.get(f"/api/games/{game_id}/record", headers=bearer(token)).text
        assert f"board-sha256: {board.digest}\n" in text and f"board-json: {board.canonical_json}\n" in text
        game = replay_record(text).game
        assert game.is_over and game.board.digest == board.digest
        summary = client.get(f"/api/games/{game_id}/summary")
        assert summary.status_code == 200, summary.text
        assert summary.json() == summarize(game) and summary.json()["board"] == board.name
        shown = client.get(f"/api/games/{game_id}/board").json()
        assert [t["name"] for t in shown["board"]["territories"]] == [t.name for t in board.territories]
        assert sorted(shown["drawing"]["territories"]) == sorted(board.slug_of(i) for i in range(len(board)))

        uploaded = client.post("/api/replay", content=text, headers={"Content-Type": "text/plain"})
        assert uploaded.status_code == 200, uploaded.text
        assert uploaded.json() == summary.json() | {
            "verified": True,
            "board_data": shown | {"sha256": board.digest},
        }
        # The board it carries, edited: no longer the board of its digest.
        bonus = f'"bonus":{board.continents[0].bonus},'
        edited = text.replace(bonus, f'"bonus":{board.continents[0].bonus + 1},', 1)
        refused = client.post("/api/replay", content=edited, headers={"Content-Type": "text/plain"})
        assert refused.status_code == 422
        assert "board-json is not the board of its board-sha256" in refused.text
        # Without the board it names: refused, no file read.
        alone = "\n".join(line for line in text.splitlines() if not line.startswith("board-json"))
        refused = client.post("/api/replay", content=alone, headers={"Content-Type": "text/plain"})
        assert refused.status_code == 422 and f"line 3: no board '{board.name}'" in refused.text


def test_a_record_naming_a_path_replays_on_the_board_it_carries_never_the_file(tmp_path: Path) -> None:
    data = small_board()
    path = tmp_path / "shire.json"
    path.write_text(json.dumps(dict(data, title="another board, in a file")), encoding="utf-8")
    game = played(Board(data), max_turns=3)
    text = write_record(game).replace("board: shire", f"board: {path}")
    with serving(MemoryStorage()) as client:
        answer = client.post("/api/replay", content=text, headers={"Content-Type": "text/plain"})
        assert answer.status_code == 200, answer.text
        assert answer.json()["board_data"]["board"]["title"] == "A small hand-written board"
        # A shipped board's record gets no board_data: the page asks for the shipped board by name.
        classic = write_record(played(load_map("classic"), max_turns=2))
        answer = client.post("/api/replay", content=classic, headers={"Content-Type": "text/plain"})
        assert answer.status_code == 200 and "board_data" not in answer.json()


def test_a_boards_mission_cards_are_its_own() -> None:
    """The board's JSON lists its Mission RISK cards (the page's words for the keys the view gives):
    the book's on the classic board, those made from the board on another."""
    data = generated_board()
    with serving(MemoryStorage()) as client:
        answer = client.post(
            "/api/games",
            json={
                "edition": "2003",
                "game": "mission",
                "seed": 4,
                "board": data,
                "seats": [
                    {"kind": "human", "name": "Ann"},
                    {"kind": "bot", "bot": "quick"},
                    {"kind": "open"},
                ],
            },
        )
        assert answer.status_code == 201, answer.text
        game_id, token = answer.json()["id"], answer.json()["seats"][0]["token"]
        cards = client.get(f"/api/games/{game_id}/board").json()["mission_cards"]
        made = ranked_missions(Board(data))
        assert cards == [{"key": m.key, "rank": m.rank, "timing": m.timing, "text": m.text} for m in made]
        assert {c["text"] for c in cards} != {m.text for m in RANKED_MISSIONS}
        view = client.get(f"/api/games/{game_id}/view", headers=bearer(token)).json()["view"]
        assert set(view["mission_cards"][0]["unclaimed"]) <= {c["key"] for c in cards}
        classic = client.get("/api/boards/classic").json()["mission_cards"]
        assert [(c["key"], c["text"]) for c in classic] == [(m.key, m.text) for m in RANKED_MISSIONS]


def test_a_stored_board_changed_in_the_store_is_refused_by_every_page() -> None:
    """The board page reads a game's board as the game is replayed (one path, risk.server.boards): a
    board edited in the store is not the one of the game's digest, and is refused, not drawn."""
    storage = MemoryStorage()
    data = small_board()
    with serving(storage) as client:
        answer = client.post(
            "/api/games",
            json={
                "edition": "2003",
                "board": data,
                "seats": [{"kind": "human", "name": n} for n in "ABC"],
            },
        )
        game_id = answer.json()["id"]
    record = storage.get_game(game_id)
    assert record is not None and record.board_json is not None
    edited = record.board_json.replace('"bonus":2', '"bonus":5')
    storage.create_game(replace(record, id="edited", board_json=edited))
    with serving(storage) as client:
        assert client.get(f"/api/games/{game_id}/board").status_code == 200
        for path in ("/api/games/edited/board", "/api/games/edited/view"):
            answer = client.get(path)
            assert answer.status_code == 503, (path, answer.text)
            assert "is not the one it was made on" in answer.json()["error"]["message"]
