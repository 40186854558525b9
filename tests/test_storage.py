"""The game stores: MemoryStorage, SQLite and PostgreSQL behave alike (the ``storage`` and
``storage_url`` fixtures of conftest.py), SQL stores keep what they acknowledged, and their schema
migrates."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from pg import free_port
from risk.server.sql import (
    SqlStorage,
    alembic_config,
    database_url,
    default_database_url,
    metadata,
    open_storage,
    schema_head,
)
from risk.server.storage import (
    OTHER_BOARD,
    ActionRecord,
    Change,
    ChatRecord,
    GameFilter,
    GameRecord,
    MemoryStorage,
    Progress,
    RulesetRecord,
    SeatRecord,
    StaleWrite,
    Storage,
    StorageError,
)


def make_game(game_id: str = "g1", **changes: object) -> GameRecord:
    fields: dict[str, object] = {
        "id": game_id,
        "rules": "2008 fortify=adjacent",
        "board": "world",
        "seed": 2**63 - 1,
        "seats": (
            SeatRecord(0, "Ann", "human", None, "a" * 64),
            SeatRecord(1, "", "open"),
            SeatRecord(2, "Continental", "bot", "continental"),
        ),
        "settings": {"public": True, "bot_delay": 0.6, "defend_timeout": 20, "options": {"fort": "adjacent"}},
        "created": 1_700_000_000.25,
        "updated": 1_700_000_000.25,
        "status": "waiting",
    }
    fields.update(changes)
    return GameRecord(**fields)  # type: ignore[arg-type]


def act(seq: int, seat: int = 0, text: str | None = None) -> ActionRecord:
    return ActionRecord(seq=seq, seat=seat, text=text or f"action {seq}", at=1_700_000_000.0 + seq)


PLAYING = Progress(status="playing", winner=None, turn=1)


# --- the interface, on every store ---------------------------------------------------------------


def test_create_and_get_round_trip(storage: Storage) -> None:
    game = make_game()
    storage.create_game(game)
    assert storage.get_game("g1") == game
    other = make_game("g2", seed=0, seats=(), settings={}, winner=None)
    storage.create_game(other)
    assert storage.get_game("g2") == other


def test_create_refuses_a_taken_id(storage: Storage) -> None:
    storage.create_game(make_game())
    with pytest.raises(StorageError, match="exists") as refused:
        storage.create_game(make_game(board="other"))
    assert not isinstance(refused.value, StaleWrite)
    assert storage.get_game("g1") == make_game()


def test_unknown_game(storage: Storage) -> None:
    assert storage.get_game("nope") is None
    assert storage.actions("nope") == []
    with pytest.raises(StorageError, match="no game"):
        storage.append_action("nope", act(1), PLAYING)
    with pytest.raises(StorageError, match="no game"):
        storage.update_seat("nope", SeatRecord(0, "Ann", "human"))


def test_actions_in_order_and_after(storage: Storage) -> None:
    storage.create_game(make_game())
    for seq in range(1, 8):
        storage.append_action("g1", act(seq, seat=seq % 3), Progress("playing", None, turn=seq // 3))
    assert storage.actions("g1") == [act(seq, seat=seq % 3) for seq in range(1, 8)]
    assert [a.seq for a in storage.actions("g1", after=4)] == [5, 6, 7]
    assert storage.actions("g1", after=7) == []
    game = storage.get_game("g1")
    assert game is not None
    assert (game.state_id, game.status, game.turn, game.updated) == (7, "playing", 2, act(7).at)
    storage.append_action("g1", act(8), Progress("over", winner=2, turn=3))
    game = storage.get_game("g1")
    assert game is not None and (game.status, game.winner, game.turn) == ("over", 2, 3)


def test_wrong_seq_is_stale_and_changes_nothing(storage: Storage) -> None:
    storage.create_game(make_game())
    storage.append_action("g1", act(1), PLAYING)
    before = storage.get_game("g1")
    for seq in (1, 3, 0):  # taken, skipping one, nonsense
        with pytest.raises(StaleWrite):
            storage.append_action("g1", act(seq, text="intruder"), Progress("over", 1, 9))
    assert storage.get_game("g1") == before
    assert storage.actions("g1") == [act(1)]


def race(storage: Storage, seq: int, writers: int) -> tuple[list[int], list[int], list[BaseException]]:
    """Writers appending the same seq at once: who won, who was told StaleWrite, who failed otherwise."""
    barrier = threading.Barrier(writers)
    won: list[int] = []
    lost: list[int] = []
    failed: list[BaseException] = []

    def write(who: int) -> None:
        barrier.wait()
        try:
            storage.append_action("g1", act(seq, seat=who, text=f"writer {who}"), PLAYING)
            won.append(who)
        except StaleWrite:
            lost.append(who)
        except BaseException as exc:  # reported by the caller
            failed.append(exc)

    threads = [threading.Thread(target=write, args=(who,)) for who in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return won, lost, failed


def test_two_threads_appending_the_same_seq_one_wins(storage: Storage) -> None:
    storage.create_game(make_game())
    for seq in range(1, 6):
        won, lost, failed = race(storage, seq, writers=2 if seq == 1 else 6)
        assert not failed
        assert len(won) == 1 and len(won) + len(lost) == (2 if seq == 1 else 6)
        assert storage.actions("g1", after=seq - 1) == [act(seq, seat=won[0], text=f"writer {won[0]}")]
    game = storage.get_game("g1")
    assert game is not None and game.state_id == 5


def test_many_threads_on_many_games(storage: Storage) -> None:
    """Concurrent writers on different games all succeed (no "database is locked")."""
    games = [f"g{n}" for n in range(4)]
    for game_id in games:
        storage.create_game(make_game(game_id))
    failed: list[BaseException] = []

    def play(game_id: str) -> None:
        try:
            for seq in range(1, 26):
                storage.append_action(game_id, act(seq), PLAYING)
                storage.get_game(game_id)
        except BaseException as exc:  # reported below
            failed.append(exc)

    threads = [threading.Thread(target=play, args=(game_id,)) for game_id in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failed
    for game_id in games:
        assert [a.seq for a in storage.actions(game_id)] == list(range(1, 26))


def test_update_seat(storage: Storage) -> None:
    storage.create_game(make_game())
    taken = SeatRecord(1, "Bob", "human", None, "b" * 64)
    storage.update_seat("g1", taken, status="playing")
    game = storage.get_game("g1")
    assert game is not None
    assert game.seats == (make_game().seats[0], taken, make_game().seats[2])
    assert game.status == "playing"
    handed = SeatRecord(0, "Ann (bot)", "bot", "search")
    storage.update_seat("g1", handed)  # no status: it stays
    game = storage.get_game("g1")
    assert game is not None and game.seats[0] == handed and game.status == "playing"


def test_several_actions_at_once_all_or_none(storage: Storage) -> None:
    storage.create_game(make_game())
    storage.append_action("g1", act(1), PLAYING)
    storage.append_actions("g1", [act(2), act(3), act(4)], Progress("playing", None, turn=2))
    game = storage.get_game("g1")
    assert game is not None and (game.state_id, game.turn, game.updated) == (4, 2, act(4).at)
    before = storage.actions("g1")
    with pytest.raises(StaleWrite):  # the first is taken: none is stored
        storage.append_actions("g1", [act(4), act(5)], PLAYING)
    with pytest.raises(ValueError, match="not consecutive"):
        storage.append_actions("g1", [act(5), act(7)], PLAYING)
    with pytest.raises(ValueError, match="no actions"):
        storage.append_actions("g1", [], PLAYING)
    assert storage.actions("g1") == before == [act(seq) for seq in range(1, 5)]


def test_a_move_and_its_consequences_in_one_commit_all_or_none(storage: Storage) -> None:
    """``commit``: actions, seats, status, the clock and server notes in one transaction."""
    storage.create_game(make_game())
    storage.add_chat("g1", ChatRecord(0, 0, "all", None, "Ann", "hello", 5.0))
    taken = SeatRecord(1, "Bob", "human", None, "b" * 64, missed=1)
    note = ChatRecord(0, None, "all", None, "", "Bob missed a turn.", 9.0)
    change = Change(seats={1: taken}, status="playing", deadline=(1_700_000_100.0, 2), notes=[note, note])
    stored = storage.commit("g1", [act(1), act(2)], Progress("playing", None, turn=1, to_act=1), change)
    assert [n.seq for n in stored] == [2, 3] and storage.chat("g1", after=1) == stored
    game = storage.get_game("g1")
    assert game is not None and game.seats[1] == taken and game.status == "playing"
    assert (game.state_id, game.to_act, game.deadline, game.deadline_state) == (2, 1, 1_700_000_100.0, 2)
    # A change with no action (a seat handed to a bot): the game's state stays.
    handed = replace(taken, stand_in="quick", missed=0)
    assert storage.commit("g1", [], None, Change(seats={1: handed}, deadline=(None, None))) == []
    game = storage.get_game("g1")
    assert game is not None and game.seats[1] == handed and game.deadline is None and game.state_id == 2
    # Stale: nothing of it is stored, its consequences neither.
    with pytest.raises(StaleWrite):
        storage.commit("g1", [act(2)], PLAYING, Change(seats={1: taken}, notes=[note]))
    game = storage.get_game("g1")
    assert game is not None and game.seats[1] == handed and len(storage.chat("g1")) == 3


def test_online_play_fields_round_trip(storage: Storage) -> None:
    away = SeatRecord(0, "Ann", "human", None, "a" * 64, stand_in="continental", missed=2)
    storage.create_game(
        make_game(host_hash="h" * 64, seats=(away, SeatRecord(1, "Bob", "human", None, "b" * 64)))
    )
    game = storage.get_game("g1")
    assert game is not None and game.host_hash == "h" * 64 and game.seats[0] == away
    assert (game.deadline, game.deadline_state) == (None, None)
    storage.set_deadline("g1", 1_700_000_123.5, 7)
    game = storage.get_game("g1")
    assert game is not None and (game.deadline, game.deadline_state) == (1_700_000_123.5, 7)
    back = SeatRecord(0, "Ann", "human", None, "a" * 64)
    storage.update_seat("g1", back)
    storage.set_deadline("g1", None, None)
    storage.update_settings("g1", {"public": False, "rematch": "g2"})
    game = storage.get_game("g1")
    assert game is not None and game.seats[0] == back and game.deadline is None
    assert game.settings == {"public": False, "rematch": "g2"}
    with pytest.raises(StorageError, match="no game"):
        storage.set_deadline("nope", 1.0, 1)


def test_chat_is_numbered_per_game(storage: Storage) -> None:
    storage.create_game(make_game())
    storage.create_game(make_game("g2"))
    said = [
        storage.add_chat("g1", ChatRecord(0, 0, "all", None, "Ann", "hello <b>all</b>", 5.0)),
        storage.add_chat("g2", ChatRecord(0, 1, "all", None, "Bob", "elsewhere", 6.0)),
        storage.add_chat("g1", ChatRecord(0, 2, "team", 1, "Cy", "team only", 7.0)),
    ]
    assert [m.seq for m in said] == [1, 1, 2]
    assert storage.chat("g1") == [said[0], said[2]]
    assert storage.chat("g1", after=1) == [said[2]]
    assert storage.chat("g2") == [said[1]] and storage.chat("nope") == []
    with pytest.raises(StorageError, match="no game"):
        storage.add_chat("nope", said[0])


def test_rulesets(storage: Storage) -> None:
    rules = RulesetRecord("r1", "Friday night", {"edition": "2008", "game": "capital", "options": {}}, 3.0)
    storage.save_ruleset(rules)
    assert storage.get_ruleset("r1") == rules and storage.get_ruleset("r2") is None
    with pytest.raises(StorageError, match="exist"):
        storage.save_ruleset(rules)


def test_list_games_filters_and_order(storage: Storage) -> None:
    storage.create_game(make_game("old", updated=10.0, status="over"))
    storage.create_game(make_game("private", updated=40.0, settings={"public": False}))
    storage.create_game(make_game("unsaid", updated=30.0, settings={}))  # public by default
    storage.create_game(make_game("new", updated=20.0, status="playing"))
    storage.append_action("new", ActionRecord(1, 0, "x", at=50.0), PLAYING)  # now the most recent

    def ids(**filters: object) -> list[str]:
        return [g.id for g in storage.list_games(**filters)]  # type: ignore[arg-type]

    assert ids() == ["new", "unsaid", "old"]
    assert ids(public_only=False) == ["new", "private", "unsaid", "old"]
    assert ids(status="over") == ["old"]
    assert ids(status="waiting") == ["unsaid"]
    assert ids(status="waiting", public_only=False) == ["private", "unsaid"]
    assert ids(limit=2) == ["new", "unsaid"]
    listed = storage.list_games(status="over")[0]
    assert listed == make_game("old", updated=10.0, status="over")  # seats and settings come along


def test_list_games_where_filters_before_the_cap(storage: Storage) -> None:
    """GameFilter in each store (memory, SQLite, PostgreSQL) keeps the same games, and the cap counts
    the games it keeps: the oldest match is found behind newer games that do not match."""
    two = (SeatRecord(0, "Ann", "human", None, "a" * 64), SeatRecord(1, "", "open"))
    storage.create_game(make_game("plain", updated=1.0, rules="2008", board="classic", settings={}))
    storage.create_game(
        make_game(
            "mission",
            updated=2.0,
            rules="2003 game=secret-mission fog=on",
            board="pangaea",
            seats=two,
            settings={"turn_time": 86400.0, "rated": True},
        )
    )
    storage.create_game(
        make_game(
            "uploaded",
            updated=3.0,
            rules="1993 game=two-player",
            board="classic",  # a board given as JSON named as a shipped one: still "other"
            board_sha256="c" * 64,
            board_json='{"name": "classic"}',
            seats=two,
            settings={"turn_time": 180.0, "rated": False},
        )
    )
    storage.create_game(
        make_game("live", updated=4.0, rules="2008 game=world-ish", settings={"turn_time": 3599.0})
    )
    for n in range(5):  # newer games that no filter below keeps but "any"
        storage.create_game(
            make_game(f"newer{n}", updated=10.0 + n, rules="2003 game=team", board="crossroads")
        )

    def ids(limit: int = 2, **where: object) -> list[str]:
        found = storage.list_games(status="waiting", limit=limit, where=GameFilter(**where))  # type: ignore[arg-type]
        return [g.id for g in found]

    assert ids() == ["newer4", "newer3"]
    assert ids(edition="2008") == ["live", "plain"]
    assert ids(edition="200") == []  # the whole first word
    assert ids(game="world") == ["plain"]  # no game= word; "game=world-ish" is another game
    assert ids(game="world-ish") == ["live"]
    assert ids(game="secret-mission") == ["mission"]
    assert ids(game="secret") == []
    assert ids(board="classic") == ["plain"]
    assert ids(board=OTHER_BOARD) == ["uploaded"]
    assert ids(board="pangaea") == ["mission"]
    assert ids(seats=2) == ["uploaded", "mission"]
    assert ids(seats=3, edition="2003") == ["newer4", "newer3"]
    assert ids(rated=True) == ["mission"]
    assert ids(rated=False, seats=2) == ["uploaded"]
    assert ids(turn_time_below=3600.0, limit=10)[-3:] == ["live", "uploaded", "plain"]
    assert ids(turn_time_from=3600.0) == ["mission"]
    assert ids(turn_time_from=3600.0, rated=False) == []
    assert ids(edition="2003", game="secret-mission", board="pangaea", seats=2, rated=True) == ["mission"]


# --- SQL stores ----------------------------------------------------------------------------------


def everything(store: Storage) -> tuple[object, ...]:
    games = store.list_games(public_only=False)
    return store.get_game("g1"), store.get_game("g2"), store.actions("g1"), games


def test_reopening_gives_everything_back(storage_url: str) -> None:
    first = SqlStorage(storage_url)
    first.create_game(make_game())
    first.create_game(make_game("g2", settings={"public": False}))
    for seq in range(1, 4):
        first.append_action("g1", act(seq), PLAYING)
    first.update_seat("g1", SeatRecord(1, "Bob", "human", None, "b" * 64), status="playing")
    expected = everything(first)
    first.close()
    again = SqlStorage(storage_url)
    try:
        assert everything(again) == expected
    finally:
        again.close()


KILLED_WRITER = """
import sys
from risk.server.sql import SqlStorage
from risk.server.storage import ActionRecord, Progress

store = SqlStorage(sys.argv[1])
seq = 0
while True:
    seq += 1
    store.append_action("g1", ActionRecord(seq, 0, f"action {seq}", seq), Progress("playing", None, seq))
    print(seq, flush=True)  # acknowledged
"""


def test_acknowledged_actions_survive_kill_9(storage_url: str) -> None:
    store = SqlStorage(storage_url)
    store.create_game(make_game())
    store.close()
    acknowledged: list[int] = []
    with subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, storage_url],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
    ) as writer:
        assert writer.stdout is not None
        try:
            for line in writer.stdout:
                acknowledged.append(int(line))
                if len(acknowledged) == 40:
                    break
        finally:
            os.kill(writer.pid, signal.SIGKILL)  # mid-append, most likely
            writer.wait(timeout=30)
    assert writer.returncode == -signal.SIGKILL
    assert acknowledged == list(range(1, 41))
    again = SqlStorage(storage_url)
    try:
        stored = [a.seq for a in again.actions("g1")]
        game = again.get_game("g1")
    finally:
        again.close()
    assert game is not None
    assert stored[:40] == acknowledged  # everything acknowledged is there...
    assert stored == list(range(1, game.state_id + 1))  # ...and the game row agrees with the actions


TWO_PROCESS_WRITER = """
import sys
from risk.server.sql import SqlStorage
from risk.server.storage import ActionRecord, Progress, StaleWrite

store = SqlStorage(sys.argv[1])
me = int(sys.argv[2])
sys.stdin.readline()  # start together
for seq in range(1, 31):
    try:
        store.append_action("g1", ActionRecord(seq, me, f"writer {me}", seq), Progress("playing", None, 0))
        print(seq, flush=True)
    except StaleWrite:
        continue  # the other writer took this seq: losing the race is the expected refusal
store.close()
"""


def test_processes_racing_never_both_win(storage_url: str) -> None:
    store = SqlStorage(storage_url)
    store.create_game(make_game())
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", TWO_PROCESS_WRITER, storage_url, str(who)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for who in range(3)
    ]
    won: dict[int, int] = {}
    try:
        for writer in writers:
            assert writer.stdin is not None
            writer.stdin.write("go\n")
            writer.stdin.flush()
        for who, writer in enumerate(writers):
            out, _ = writer.communicate(timeout=120)
            assert writer.returncode == 0
            for line in out.split():
                assert int(line) not in won, f"seq {line} won twice"
                won[int(line)] = who
        stored = store.actions("g1")
        assert [a.seq for a in stored] == sorted(won) == list(range(1, len(won) + 1))
        assert all(a.text == f"writer {won[a.seq]}" for a in stored)
    finally:
        for writer in writers:
            writer.kill()
        store.close()


def test_unreachable_database_is_a_storage_error() -> None:
    url = f"postgresql://someone:secret@127.0.0.1:{free_port()}/risk"
    with pytest.raises(StorageError, match="opening the database") as failed:
        SqlStorage(url)
    assert "secret" not in str(failed.value)
    with pytest.raises(StorageError):
        SqlStorage("sqlite:////nonexistent-folder/for/sure/games.sqlite3")


def test_closed_store_is_a_storage_error(storage_url: str) -> None:
    store = SqlStorage(storage_url)
    store.create_game(make_game())
    store.close()
    with pytest.raises(StorageError, match="closed"):
        store.get_game("g1")
    with pytest.raises(StorageError, match="closed"):
        store.append_action("g1", act(1), PLAYING)


def test_sqlite_is_durable_and_shared(tmp_path: Path) -> None:
    store = SqlStorage(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    try:
        with store._engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
            assert (conn.exec_driver_sql("PRAGMA busy_timeout").scalar() or 0) >= 1000
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    finally:
        store.close()


# --- opening: URLs and migrations ------------------------------------------------------------------


def test_urls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert database_url("postgresql://u:p@h/db").drivername == "postgresql+psycopg"
    assert database_url("postgres://u:p@h/db").drivername == "postgresql+psycopg"
    assert database_url("postgresql+psycopg://u:p@h/db").drivername == "postgresql+psycopg"
    for bad in ("no such thing://", "mysql://u@h/db", "sqlite://", "sqlite:///:memory:"):
        with pytest.raises(StorageError):
            database_url(bad)
    assert isinstance(open_storage("memory"), MemoryStorage)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    url = default_database_url()
    assert database_url(url).database == str(tmp_path / "data" / "risk" / "games.sqlite3")
    assert (tmp_path / "data" / "risk").is_dir()
    for opened in (open_storage(None), open_storage(str(tmp_path / "by-path.sqlite3"))):
        assert isinstance(opened, SqlStorage)
        opened.close()
    assert (tmp_path / "data" / "risk" / "games.sqlite3").exists()
    assert (tmp_path / "by-path.sqlite3").exists()


def table_names(url: str) -> set[str]:
    engine = sa.create_engine(database_url(url), poolclass=sa.NullPool)
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_new_database_is_created_at_head(storage_url: str) -> None:
    store = SqlStorage(storage_url)
    try:
        assert store.schema_revision() == schema_head()
        with store._engine.connect() as conn:
            versions = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalars().all()
            assert versions == [schema_head()]
            # The tables the queries use are exactly what the migrations made.
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    finally:
        store.close()
    assert table_names(storage_url) == {
        "alembic_version",
        "games",
        "seats",
        "actions",
        "chat",
        "rulesets",
        "boards",
        "notify_subscriptions",
        "outbox",
        "accounts",
        "account_sessions",
        "sign_in_failures",
        "password_resets",
        "ratings",
        "rating_history",
        "rated_games",
        "quick_match",
        "account_blocks",
        "chat_mutes",
        "chat_reports",
        "game_bans",
    }


def test_opening_twice_is_harmless(storage_url: str) -> None:
    first = SqlStorage(storage_url)
    first.create_game(make_game())
    second = SqlStorage(storage_url)  # while the first is open
    try:
        assert second.get_game("g1") == make_game()
        assert second.schema_revision() == schema_head()
    finally:
        first.close()
        second.close()


def test_older_database_is_upgraded(storage_url: str) -> None:
    SqlStorage(storage_url).close()
    command.downgrade(alembic_config(storage_url), "base")  # as a database from before the first release
    assert table_names(storage_url) == {"alembic_version"}
    store = SqlStorage(storage_url)
    try:
        assert store.schema_revision() == schema_head()
        store.create_game(make_game())
        assert store.get_game("g1") == make_game()
    finally:
        store.close()


def test_games_stored_before_online_play_keep_their_seats(storage_url: str) -> None:
    store = SqlStorage(storage_url)
    store.create_game(make_game())
    store.append_action("g1", act(1), PLAYING)
    store.close()
    command.downgrade(alembic_config(storage_url), "0001")
    store = SqlStorage(storage_url)  # upgraded again on opening
    try:
        game = store.get_game("g1")
        assert game is not None and game.seats == make_game().seats  # no stand-in, nothing missed
        assert (game.state_id, game.deadline, game.host_hash) == (1, None, None)
        assert store.chat("g1") == []
    finally:
        store.close()


def test_database_from_a_newer_release_is_refused(storage_url: str) -> None:
    store = SqlStorage(storage_url)
    store.create_game(make_game())
    with store._engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = 'from_the_future'"))
    store.close()
    with pytest.raises(StorageError, match="newer release"):
        SqlStorage(storage_url)


def test_seat_clocks_round_trip_and_seats_from_before_them_have_none(storage_url: str) -> None:
    """Migration 0006 (seats.clock): a seat stored by the previous release keeps its settings and has an
    untouched clock; a seat's clock (time bank and vacation left, its vacation) is stored as given."""
    store = SqlStorage(storage_url)
    store.create_game(make_game())
    with_prefs = replace(make_game().seats[0], prefs={"defence": "most"})
    store.update_seat("g1", with_prefs)
    store.close()
    command.downgrade(alembic_config(storage_url), "0005")
    store = SqlStorage(storage_url)  # upgraded again on opening
    try:
        game = store.get_game("g1")
        assert game is not None and game.seats[0] == with_prefs and game.seats[0].clock == {}
        away = {"bank": 1800.0, "vacation_left": 86400.0, "away_from": 5.0, "away_until": 90.0}
        store.update_seat("g1", replace(with_prefs, clock=away))
        game = store.get_game("g1")
        assert game is not None and game.seats[0].clock == away
    finally:
        store.close()
