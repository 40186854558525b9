"""A server starting with unfinished games in its store (docs/web.md, "Restarts"; issue 21, item 5).

- it serves at once and replays no game before it is needed: the lobby lists every game from the
  store, a game is loaded on its first page or request, once, however many ask at the same moment;
- games whose next move is a bot's go on by themselves, nobody asking for them (also games stored by
  an older release, whose rows do not say who is to act);
- a clock on a game nobody has opened still runs out, on time;
- what each game's row says (who is to act, the clock) is what the game, replayed, says;
- a game that does not replay is refused with the reason, for itself only.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from risk.server import wakeups
from risk.server.app import create_app
from risk.server.clock import run_out
from risk.server.master import GameMaster, GameSpec, Refusal, SeatSpec
from risk.server.storage import MemoryStorage, Progress, Storage
from risk.server.timing import server_plays, wake_time
from test_server_seats import Clock, human_move, new_game, play_bots


def counting_loads(storage: Storage) -> Counter[str]:
    """Count the games read for loading (a load reads a game's actions once)."""
    loads: Counter[str] = Counter()
    read = storage.actions

    def actions(game_id: str, after: int = 0) -> Any:
        if after == 0:
            loads[game_id] += 1
        return read(game_id, after)

    storage.actions = actions  # type: ignore[method-assign]
    return loads


def human_to_act(master: GameMaster, game_id: str, tokens: list[str | None], actions: int = 40) -> None:
    """Play (bots and humans) until at least ``actions`` are stored and a human is to act."""
    while True:
        play_bots(master, game_id)
        if master.live(game_id).state_id >= actions:
            return
        human_move(master, game_id, tokens[master.live(game_id).game.to_act])


def bot_moves(master: GameMaster, game_id: str, moves: int) -> None:
    for _ in range(moves):
        seat, state_id, decide = master.bot_turn(game_id)  # type: ignore[misc]
        master.submit_as(game_id, seat, decide(), state_id)


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    limit = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < limit, what
        time.sleep(0.02)


@contextmanager
def serving(storage: Storage) -> Iterator[tuple[TestClient, GameMaster]]:
    with TestClient(create_app(storage)) as client:
        yield client, client.app.state.master  # type: ignore[attr-defined]


def stored_state(storage: Storage, game_id: str) -> int:
    record = storage.get_game(game_id)
    assert record is not None
    return record.state_id


def test_startup_serves_at_once_and_loads_a_game_on_its_first_page() -> None:
    storage = MemoryStorage()
    master = GameMaster(storage)
    humans, tokens = [], {}
    for seed in range(30):  # no clock: nothing happens in these games until a player moves
        game_id, game_tokens, _ = new_game(master, "hhb", seed=seed, defend_timeout=0)
        human_to_act(master, game_id, game_tokens)
        humans.append(game_id)
        tokens[game_id] = game_tokens
    bots = []
    for seed in range(2):
        game_id, _, _ = new_game(master, "bbb", seed=100 + seed)
        bot_moves(master, game_id, 25)
        bots.append(game_id)
    before = {game_id: stored_state(storage, game_id) for game_id in bots}
    loads = counting_loads(storage)
    with serving(storage) as (client, server):
        games = client.get("/api/games").json()["games"]
        # The lobby lists every game with its status, from the store: nothing was replayed for it.
        assert {g["id"] for g in games} == set(humans) | set(bots)
        assert {g["status"] for g in games} == {"playing"}
        assert not any(loads[game_id] for game_id in humans)
        # The bot games go on by themselves, nobody asking for them.
        wait_for(
            lambda: all(stored_state(storage, g) > before[g] for g in bots), 20, "the bots did not move again"
        )
        assert all(loads[g] == 1 for g in bots)
        # Games where a player is to move stay in the store until someone opens them.
        assert not any(loads[game_id] for game_id in humans)
        assert all(server.loaded(game_id) is None for game_id in humans)
        first = humans[0]
        assert client.get(f"/api/games/{first}").json()["state_id"] == stored_state(storage, first)
        assert loads[first] == 0  # a game's summary is read from its row
        token = tokens[first][master.live(first).game.to_act]
        view = client.get(f"/api/games/{first}/view", headers={"Authorization": f"Bearer {token}"})
        assert view.status_code == 200 and view.json()["legal"]
        assert view.json()["state_id"] == stored_state(storage, first)
        assert loads[first] == 1 and server.loaded(first) is not None
        # The same game, once loaded, is not read again; the others are still not loaded.
        with client.websocket_connect(f"/api/games/{first}/ws") as socket:
            socket.send_json({"type": "hello", "token": token})
            assert socket.receive_json()["state_id"] == view.json()["state_id"]
        assert loads[first] == 1
        assert sum(loads[game_id] for game_id in humans) == 1


def copy_game(
    source: Storage, target: Storage, game_id: str, *, older: bool = False, broken: int = 0
) -> None:
    """Store the game again in ``target``: as an older release stored it (its row does not say who is
    to act), or with action ``broken`` replaced by one that does not fit."""
    record = source.get_game(game_id)
    assert record is not None
    progress = Progress(record.status, record.winner, record.turn, record.to_act, record.defending)
    if older:
        progress, record = Progress(record.status, record.winner, record.turn), replace(record, to_act=None)
    target.create_game(replace(record, state_id=0))
    actions = [replace(a, text="endturn") if a.seq == broken else a for a in source.actions(game_id)]
    target.append_actions(game_id, actions, progress)


def test_a_game_stored_by_an_older_release_is_loaded_in_the_background_and_goes_on() -> None:
    storage = MemoryStorage()
    master = GameMaster(storage)
    game_id, _, _ = new_game(master, "bbb", seed=7)
    bot_moves(master, game_id, 30)
    old = MemoryStorage()
    copy_game(storage, old, game_id, older=True)
    assert old.get_game(game_id).to_act is None  # type: ignore[union-attr]
    loads = counting_loads(old)
    with serving(old):
        wait_for(lambda: stored_state(old, game_id) > 30, 20, "the bots did not move again")
        assert loads[game_id] == 1
        assert old.get_game(game_id).to_act is not None  # type: ignore[union-attr]  # kept from now on


def test_a_clock_runs_out_on_a_game_nobody_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wakeups, "LOAD_AHEAD", 0.3)
    storage = MemoryStorage()
    master = GameMaster(storage)
    game_id, tokens, _ = new_game(master, "hbb", seed=4, turn_time=60, defend_timeout=0)
    human_to_act(master, game_id, tokens, actions=20)
    row = storage.get_game(game_id)
    assert row is not None and row.deadline is not None and master.live(game_id).game.to_act == 0
    deadline = time.time() + 1.5  # the clock as if the turn began 58.5 seconds ago
    storage.set_deadline(game_id, deadline, row.deadline_state)
    loads = counting_loads(storage)
    with serving(storage) as (client, server):
        assert client.get("/api/games").status_code == 200
        assert loads[game_id] == 0 and server.loaded(game_id) is None  # 1.5 s to go: not needed yet
        wait_for(lambda: stored_state(storage, game_id) > row.state_id, 15, "the clock never ran out")
    played = storage.actions(game_id, after=row.state_id)
    assert played[0].seat == 0 and played[0].at >= deadline  # not a moment early
    assert storage.chat(game_id)[0].text.startswith("The clock ran out for H0")
    assert loads[game_id] == 1


STEPS = 250


def test_the_row_says_who_the_server_waits_for(storage: Storage) -> None:
    """At every step of a game with clocks, stand-ins, defences and bots, what the stored row says
    (``wake_time``) is what a restarted server finds when it replays the game."""
    clock = Clock()
    master = GameMaster(storage, clock=clock)
    game_id, tokens, _ = new_game(
        master, "hhb", seed=11, turn_time=60, defend_timeout=10, missed_turns=3, options={"setup": "deal"}
    )
    rng = random.Random(5)
    seen: Counter[str] = Counter()
    for _ in range(STEPS):
        live = master.live(game_id)
        if live.game.is_over:
            break
        row = storage.get_game(game_id)
        assert row is not None
        restarted = GameMaster(storage, clock=clock).live(game_id)  # as a restarted server loads it
        to_act = restarted.game.to_act
        assert (row.to_act, row.defending) == (to_act, restarted.game.phase.name == "DEFEND")
        if server_plays(restarted.record.seats[to_act]):
            assert wake_time(row) == 0.0
            seen["bot"] += 1
        elif restarted.deadline is not None:
            assert wake_time(row) == restarted.deadline
            seen["defence" if row.defending else "turn"] += 1
        else:
            assert wake_time(row) is None
            seen["player"] += 1
        turn = master.bot_turn(game_id)
        if turn is not None:
            master.submit_as(game_id, turn[0], turn[2](), turn[1])
        elif live.deadline is not None and rng.random() < 0.1:
            clock.now = live.deadline
            assert run_out(master, game_id, live.state_id) is not None
        else:
            clock.now += 1
            human_move(master, game_id, tokens[live.game.to_act])
    assert seen["bot"] and seen["turn"] and seen["defence"]  # each case met


def test_rows_that_wait_for_no_one() -> None:
    record, _ = GameMaster(MemoryStorage()).create_game(
        GameSpec(seats=[SeatSpec("human", name) for name in ("Ann", "Bob", "Cy")], seed=1)
    )
    playing = replace(record, to_act=0, status="playing")
    assert wake_time(playing) is None  # no clock: only a player's move changes the game
    assert wake_time(replace(playing, status="over")) is None
    assert wake_time(replace(playing, status="waiting")) is None
    assert wake_time(replace(playing, to_act=None)) == 0.0  # not known: loaded at once
    stand_in = replace(playing.seats[0], stand_in="quick")
    assert wake_time(replace(playing, seats=(stand_in, *playing.seats[1:]))) == 0.0


def test_first_requests_load_a_game_once_and_games_load_side_by_side(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    master = GameMaster(storage)
    first, tokens, _ = new_game(master, "hhb", seed=1)
    human_to_act(master, first, tokens, actions=20)
    second, tokens, _ = new_game(master, "hhb", seed=2)
    human_to_act(master, second, tokens, actions=20)
    restarted = GameMaster(storage)
    loads: Counter[str] = Counter()
    both_loading = threading.Barrier(2, timeout=10)
    read = storage.actions

    def slow_actions(game_id: str, after: int = 0) -> Any:
        loads[game_id] += 1
        if loads[game_id] == 1:
            both_loading.wait()  # each game's load waits until the other's is under way too
            if game_id == first:
                time.sleep(0.2)  # the other first requests for this game arrive meanwhile
        return read(game_id, after)

    monkeypatch.setattr(storage, "actions", slow_actions)
    found: list[Any] = []
    errors: list[BaseException] = []

    def ask(game_id: str) -> None:
        try:
            found.append((game_id, restarted.live(game_id)))
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=ask, args=(first,)) for _ in range(6)]
    threads.append(threading.Thread(target=ask, args=(second,)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert not errors, errors
    assert loads == Counter({first: 1, second: 1})
    assert len({id(live) for game_id, live in found if game_id == first}) == 1
    assert restarted.loaded(first) is not None and restarted.loaded(second) is not None


def test_a_game_that_does_not_replay_is_refused_alone_and_not_tried_again_and_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    played = MemoryStorage()
    master = GameMaster(played)
    broken, _, _ = new_game(master, "bbb", seed=5)
    bot_moves(master, broken, 20)
    good, _, _ = new_game(master, "bbb", seed=6)
    bot_moves(master, good, 20)
    storage = MemoryStorage()
    copy_game(played, storage, broken, broken=5)
    copy_game(played, storage, good)
    loads = counting_loads(storage)
    with serving(storage) as (client, _server):
        wait_for(lambda: stored_state(storage, good) > 20, 20, "the good game's bots did not move")
        wait_for(lambda: loads[broken] >= 1, 5, "the broken game was never tried")
        answer = client.get(f"/api/games/{broken}/view")
        assert answer.status_code == 503
        message = answer.json()["error"]["message"]
        assert message == (
            f"game {broken} cannot be loaded: stored action 5 does not fit the rules "
            "(the server's log says why)"
        )
        # The engine's words on a stored action may name a secret: they go to the server's log only.
        assert "endturn" not in message
        logged = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
        said = f"game {broken} cannot be loaded: stored action 5 ('endturn') does not fit"
        assert any(said in line for line in logged)
        assert client.get(f"/api/games/{good}/view").status_code == 200
        assert {g["id"] for g in client.get("/api/games").json()["games"]} == {broken, good}
        tries = loads[broken]
        time.sleep(wakeups.STORE_RETRY * 2.5)  # a store that failed is tried again each second: not this
        assert loads[broken] == tries == 2  # the background's try and the page's
        assert stored_state(storage, broken) == 20


def test_stored_rules_the_engine_refuses_are_refused_for_that_game_alone() -> None:
    storage = MemoryStorage()
    master = GameMaster(storage)
    game_id, _, _ = new_game(master, "bbb", seed=8)
    record = storage.get_game(game_id)
    assert record is not None
    edited = MemoryStorage()
    edited.create_game(replace(record, rules="no-such-edition"))
    with pytest.raises(Refusal) as refused:
        GameMaster(edited).live(game_id)
    assert refused.value.code == "unavailable"
    assert refused.value.message.startswith(f"game {game_id} cannot be loaded: no preset called 'no-such")
