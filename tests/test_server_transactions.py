"""One move, one commit (issue 41): a move and every consequence it sets off (the turn clock, a seat's
missed turns or stand-in, a server note) are stored in one database transaction, counted here by
SQLAlchemy's own events; and a server killed between a move and its consequences keeps both or
neither (docs/reliability.md)."""

from __future__ import annotations

import signal
import sys
import textwrap
import threading
import urllib.error
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from live_server import free_port, post, request, server
from played import human_game, play_moves
from risk.server import seats as seat_desk
from risk.server.clock import run_out
from risk.server.hooks import TableHooks
from risk.server.master import GameMaster, GameSpec, SeatSpec, new_host
from risk.server.sql import SqlStorage
from risk.server.storage import MemoryStorage
from risk.view import View

WRITES = ("INSERT", "UPDATE", "DELETE")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class WriteCommits:
    """Counts the committed transactions that wrote something, on every SQLAlchemy engine (reads are
    transactions too, but store nothing)."""

    def __init__(self) -> None:
        self.count = 0

    def executed(self, conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        if statement.lstrip().upper().startswith(WRITES):
            conn.info["risk_wrote"] = True

    def committed(self, conn: Any) -> None:
        if conn.info.pop("risk_wrote", False):
            self.count += 1

    def rolled_back(self, conn: Any) -> None:
        conn.info.pop("risk_wrote", None)

    def during(self, step: Callable[..., object], *args: Any) -> int:
        """How many transactions that wrote were committed while ``step(*args)`` ran."""
        before = self.count
        step(*args)
        return self.count - before


@pytest.fixture
def commits() -> Iterator[WriteCommits]:
    counter = WriteCommits()
    listeners = [
        ("after_cursor_execute", counter.executed),
        ("commit", counter.committed),
        ("rollback", counter.rolled_back),
    ]
    for name, listener in listeners:
        event.listen(sa.engine.Engine, name, listener)
    yield counter
    for name, listener in listeners:
        event.remove(sa.engine.Engine, name, listener)


@pytest.fixture
def timed_game(tmp_path: Path) -> Iterator[tuple[GameMaster, str, list[str], str, Clock]]:
    """Three human seats on SQLite, a 60 s turn clock, 2 missed turns before a stand-in plays."""
    clock = Clock()
    store = SqlStorage(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    master = GameMaster(store, clock=clock)
    spec = GameSpec(
        seats=[SeatSpec("human", name) for name in ("Ann", "Bob", "Cy")],
        seed=7,
        bot_delay=0,
        turn_time=60,
        missed_turns=2,
    )
    host = new_host(spec)
    record, created = master.create_game(spec)
    yield master, record.id, [str(seat.token) for seat in created], host, clock
    store.close()


def a_move(master: GameMaster, game_id: str) -> tuple[int, str]:
    """The seat to act and a legal move of its own."""
    live = master.live(game_id)
    seat = live.game.to_act
    group = View(live.game, seat).legal_groups()[0]
    return seat, group["text"] if "max" not in group else f"{group['text']} {group['max']}"


def test_a_move_that_moves_the_clock_is_one_commit(timed_game: Any, commits: WriteCommits) -> None:
    master, game_id, tokens, _, clock = timed_game
    master.live(game_id)  # loaded (its clock stored) before counting
    for _ in range(6):  # setup moves: each ends a stretch, so the next seat's deadline is stored
        seat, text = a_move(master, game_id)
        deadline = master.live(game_id).deadline
        clock.now += 1
        state = master.live(game_id).state_id
        assert commits.during(master.submit, game_id, tokens[seat], text, state) == 1
        assert master.live(game_id).deadline != deadline  # the clock moved, stored with the move
        assert master.storage.get_game(game_id).deadline == master.live(game_id).deadline


def test_a_resignation_its_note_and_the_clock_are_one_commit(timed_game: Any, commits: WriteCommits) -> None:
    master, game_id, tokens, _, _ = timed_game
    master.live(game_id)
    seat = master.live(game_id).game.to_act
    assert commits.during(seat_desk.resign, master, game_id, tokens[seat]) == 1
    assert [note.text for note in master.storage.chat(game_id)] == [f"{('Ann', 'Bob', 'Cy')[seat]} resigned."]


def test_a_clock_running_out_and_a_stand_in_taking_over_are_one_commit(
    timed_game: Any, commits: WriteCommits
) -> None:
    master, game_id, _, _, clock = timed_game
    live = master.live(game_id)
    run_outs = 0
    while live.record.seats[live.game.to_act].stand_in is None:  # each seat misses in turn, twice
        seat = live.game.to_act
        clock.now = live.deadline + 1
        state = live.state_id
        # The server's moves for the seat, its missed turn (or its stand-in), the note, the next clock.
        assert commits.during(run_out, master, game_id, state) == 1
        run_outs += 1
        live = master.live(game_id)
        stored = master.storage.get_game(game_id)
        assert live.state_id == stored.state_id > state
        assert stored.seats[seat] == live.record.seats[seat] and stored.seats[seat].missed >= 1
        assert stored.deadline == live.clock.turn_deadline
        if stored.seats[seat].stand_in is not None:
            break
        assert run_outs < 10
    assert run_outs == 4  # seats 0, 1, 2 miss once, then seat 0 a second time: the stand-in plays
    assert len(master.storage.chat(game_id)) == run_outs  # a note per missed turn, each with its move


def test_handing_a_seat_over_is_one_commit(timed_game: Any, commits: WriteCommits) -> None:
    master, game_id, tokens, _, _ = timed_game
    master.live(game_id)
    assert commits.during(seat_desk.hand_over, master, game_id, tokens[1], True) == 1
    assert commits.during(seat_desk.hand_over, master, game_id, tokens[1], False) == 1
    assert len(master.storage.chat(game_id)) == 2


# -- killed between a move and its consequences ----------------------------------------------------
# `risk serve` with one more SQLAlchemy listener: the process SIGKILLs itself right after writing a
# server note, that is after the move the note tells of was written and before anything after it.
# Before moves were one commit, the move was committed on its own first: a kill there kept the
# resignation and lost its note (and its clock).
KILLED_AT_THE_NOTE = textwrap.dedent(
    """
    import os, runpy, signal, sys

    import sqlalchemy as sa
    from sqlalchemy import event

    @event.listens_for(sa.engine.Engine, "after_cursor_execute")
    def killed_after_the_note(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().upper().startswith("INSERT INTO CHAT"):
            os.kill(os.getpid(), signal.SIGKILL)

    sys.argv = ["risk", *sys.argv[1:]]
    runpy.run_module("risk", run_name="__main__")
    """
)


@pytest.mark.timeout(120)
def test_killed_between_a_move_and_its_consequences_keeps_both_or_neither(
    storage_url: str, tmp_path: Path
) -> None:
    launcher = tmp_path / "killed_at_the_note.py"
    launcher.write_text(KILLED_AT_THE_NOTE, encoding="utf-8")
    port = free_port()
    with server(storage_url, port, launcher=[sys.executable, str(launcher)]) as process:
        seats = [{"kind": "human", "name": name} for name in ("Ann", "Bob", "Cy")]
        game = post(port, "/api/games", {"seats": seats, "seed": 5, "turn_time": 600})
        before = request(port, "GET", f"/api/games/{game['id']}")["state_id"]
        with pytest.raises((urllib.error.URLError, ConnectionError, OSError)):
            request(port, "POST", f"/api/games/{game['id']}/resign", {}, token=game["seats"][1]["token"])
        assert process.wait(10) == -signal.SIGKILL  # killed mid-move, by its note
    store = SqlStorage(storage_url)
    try:
        texts = [action.text for action in store.actions(game["id"])]
        notes = [note.text for note in store.chat(game["id"])]
        stored = store.get_game(game["id"])
    finally:
        store.close()
    # Neither: the note was written in the move's own transaction, which never committed.
    assert (texts, notes) == ([], []) and stored is not None and stored.state_id == before == 0
    with server(storage_url, port) as _:  # the game goes on: the resignation is taken, whole, now
        answer = request(port, "POST", f"/api/games/{game['id']}/resign", {}, token=game["seats"][1]["token"])
        assert answer["state_id"] == 1
        view = request(port, "GET", f"/api/games/{game['id']}/view", token=game["seats"][1]["token"])
        assert [note["text"] for note in view["notes"]] == ["Bob resigned."]


# -- a game dropped from memory while a move on it is being committed -------------------------------
class DuringCommit(MemoryStorage):
    """A store that runs ``before_commit`` inside its next commit, before storing it."""

    def __init__(self) -> None:
        super().__init__()
        self.before_commit: Callable[[], None] | None = None

    def commit(self, game_id: str, actions: Any, progress: Any, change: Any) -> Any:
        step, self.before_commit = self.before_commit, None
        if step is not None:
            step()
        return super().commit(game_id, actions, progress, change)


class DuringMove(TableHooks):
    """Runs ``step`` inside the next move's transaction, after the move, before its commit."""

    step: Callable[[], None] | None = None

    def after_action(self, table: Any, live: Any, action: Any) -> None:
        step, self.step = self.step, None
        if step is not None:
            step()


def drop_and_read(master: GameMaster, game_id: str) -> threading.Thread:
    """Another thread does what the hub does with a game nobody watches (drops it from memory) and
    what the next request does (reads it again)."""

    def run() -> None:
        master.forget(game_id)
        master.live(game_id)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_a_game_dropped_and_read_again_during_a_commit_has_the_move() -> None:
    """The hub drops a game nobody watches as soon as its driver is done, which may be while the next
    move on it is being committed; the game read again then must not miss that move (it did: every
    later move was refused as stale)."""
    store, during_move = DuringCommit(), DuringMove()
    master = GameMaster(store, hooks=[during_move])
    game_id, _ = human_game(master, ["Ann", "Bob", "Cy"], seed=3)
    play_moves(master, game_id, 2)
    readers: list[threading.Thread] = []

    # Read again while the move is committed: the read waits for the commit.
    def read_during_commit() -> None:
        readers.append(drop_and_read(master, game_id))
        readers[-1].join(timeout=0.5)
        assert readers[-1].is_alive()  # waiting for the commit

    store.before_commit = read_during_commit
    play_moves(master, game_id, 1)
    # Read again before the move is committed (the load is over first): the copy read is dropped.
    during_move.step = lambda: drop_and_read(master, game_id).join()
    play_moves(master, game_id, 1)
    for reader in readers:
        reader.join()
    stored = store.get_game(game_id)
    assert stored is not None and stored.state_id == 4
    assert master.live(game_id).state_id == 4
    play_moves(master, game_id, 20)  # and the game goes on
    assert master.live(game_id).state_id == 24
