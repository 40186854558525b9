"""The game master without HTTP: the order of its checks, stale ids, concurrent submits, restarts.

The ``storage`` fixture (tests/conftest.py) runs each test on memory, SQLite and PostgreSQL alike."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

import pytest

from risk import View
from risk.bots import make_bot
from risk.server.clock import default_defence
from risk.server.master import GameMaster, GameSpec, Refusal, SeatSpec, hash_token
from risk.server.storage import MemoryStorage, Progress, Storage, StorageError


def human_game(master: GameMaster, seed: int = 1, humans: int = 2, bots: int = 1, **spec_args):
    seats = [SeatSpec("human", f"H{i}") for i in range(humans)] + [
        SeatSpec("bot", bot="quick") for _ in range(bots)
    ]
    record, created = master.create_game(GameSpec(seats=seats, seed=seed, **spec_args))
    return record.id, [c.token for c in created]


def run_bots(master: GameMaster, game_id: str) -> int:
    moves = 0
    while (turn := master.bot_turn(game_id)) is not None:
        seat, state_id, decide = turn
        master.submit_as(game_id, seat, decide(), state_id)
        moves += 1
    return moves


def first_legal(master: GameMaster, game_id: str, seat: int) -> str:
    group = master.state_message(game_id, seat)["legal"][0]
    return group["text"] if "min" not in group else f"{group['text']} {group['max']}"


def test_tokens_are_random_and_stored_hashed(storage: Storage) -> None:
    master = GameMaster(storage)
    game_id, tokens = human_game(master)
    record = storage.get_game(game_id)
    assert record is not None
    for seat, token in zip(record.seats[:2], tokens[:2], strict=True):
        assert token is not None and len(token) >= 32  # 192 bits in base64
        assert seat.token_hash == hash_token(token) and token not in repr(record)
    assert tokens[2] is None and record.seats[2].token_hash is None


def test_checks_in_order(storage: Storage) -> None:
    master = GameMaster(storage)
    game_id, tokens = human_game(master, seed=4)
    game = master.live(game_id).game
    to_act = game.to_act
    other = 1 - to_act if to_act < 2 else 0
    state = master.live(game_id).state_id
    # 1. the token
    with pytest.raises(Refusal) as refused:
        master.submit(game_id, "not-a-token", "claim alaska", state)
    assert refused.value.code == "bad-token" and refused.value.status == 403
    with pytest.raises(Refusal) as refused:
        master.submit(game_id, None, "claim alaska", state)
    assert refused.value.code == "bad-token"
    if to_act < 2:
        # 3. whose turn comes before legality: a player out of turn learns nothing about the position
        with pytest.raises(Refusal) as refused:
            master.submit(game_id, tokens[other], "banana", state)
        assert refused.value.code == "not-your-turn"
        assert game.players[to_act] in refused.value.message
        # 4. legality, then 5. the state id
        with pytest.raises(Refusal) as refused:
            master.submit(game_id, tokens[to_act], "banana", state - 1)
        assert refused.value.code == "notation" and "banana" in refused.value.message
        with pytest.raises(Refusal) as refused:
            master.submit(game_id, tokens[to_act], "attack alaska kamchatka 3", state)
        assert refused.value.code == "illegal"
        legal = first_legal(master, game_id, to_act)
        with pytest.raises(Refusal) as refused:
            master.submit(game_id, tokens[to_act], legal, state + 5)
        assert refused.value.code == "stale" and "moved on" in refused.value.message
        assert master.live(game_id).state_id == state  # nothing changed
        assert master.submit(game_id, tokens[to_act], legal, state) == state + 1
    # 2. game over
    live = master.live(game_id)
    while not live.game.is_over:
        seat = live.game.to_act
        if seat < 2:
            master.submit(game_id, tokens[seat], first_legal(master, game_id, seat), live.state_id)
        else:
            run_bots(master, game_id)
    with pytest.raises(Refusal) as refused:
        master.submit(game_id, tokens[0], "endturn", live.state_id)
    assert refused.value.code == "game-over" and "won" in refused.value.message


def test_a_refused_action_changes_nothing(storage: Storage) -> None:
    master = GameMaster(storage)
    game_id, tokens = human_game(master, seed=2, humans=3, bots=0)
    live = master.live(game_id)
    before = live.game.to_dict()
    seat = live.game.to_act
    for text in ["", "x" * 500, "claim atlantis", "fortify alaska kamchatka 3", "place alaska 99"]:
        with pytest.raises(Refusal):
            master.submit(game_id, tokens[seat], text, live.state_id)
    assert live.game.to_dict() == before
    assert storage.actions(game_id) == []


def test_concurrent_submits_are_serialised(storage: Storage) -> None:
    """Two browsers of one seat send the same move at once: one is stored, the other is told why."""
    master = GameMaster(storage)
    game_id, tokens = human_game(master, seed=9, humans=3, bots=0)
    live = master.live(game_id)
    for _ in range(30):
        seat, state = live.game.to_act, live.state_id
        text = first_legal(master, game_id, seat)
        results: list[object] = []
        barrier = threading.Barrier(4)

        def send(
            text: str = text,
            seat: int = seat,
            state: int = state,
            barrier: threading.Barrier = barrier,
            results: list[object] = results,
        ) -> None:
            barrier.wait()
            try:
                results.append(master.submit(game_id, tokens[seat], text, state))
            except Refusal as refusal:
                results.append(refusal)

        threads = [threading.Thread(target=send) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        accepted = [r for r in results if isinstance(r, int)]
        refused = [r for r in results if isinstance(r, Refusal)]
        assert accepted == [state + 1]
        assert len(refused) == 3 and all(r.code in ("stale", "not-your-turn", "illegal") for r in refused)
    assert [a.seq for a in storage.actions(game_id)] == list(range(1, 31))


def test_restart_from_storage_is_exact(storage: Storage) -> None:
    """A new master on the same store rebuilds every game exactly: state, log, future dice, bot moves."""
    master = GameMaster(storage)
    game_id, _ = human_game(master, seed=21, humans=0, bots=3)
    live = master.live(game_id)
    for _ in range(200):
        seat, state_id, decide = master.bot_turn(game_id)  # type: ignore[misc]
        master.submit_as(game_id, seat, decide(), state_id)
    reborn = GameMaster(clone(storage, game_id))
    again = reborn.live(game_id)
    assert again.game.to_dict() == live.game.to_dict()
    assert again.log == live.log
    assert reborn.state_message(game_id, 1) == master.state_message(game_id, 1)
    run_bots(master, game_id)
    run_bots(reborn, game_id)
    assert reborn.live(game_id).game.to_dict() == live.game.to_dict()
    assert live.game.is_over


def clone(storage: Storage, game_id: str) -> MemoryStorage:
    """A second store holding the same game, so two masters can play it on independently."""
    record = storage.get_game(game_id)
    assert record is not None
    other = MemoryStorage()
    other.create_game(replace(record, state_id=0))
    for action in storage.actions(game_id):
        other.append_action(game_id, action, Progress(record.status, record.winner, record.turn))
    return other


def test_open_seats_wait_then_join(storage: Storage) -> None:
    master = GameMaster(storage)
    record, created = master.create_game(
        GameSpec(seats=[SeatSpec("human", "Ann"), SeatSpec("open"), SeatSpec("bot", bot="quick")], seed=3)
    )
    assert record.status == "waiting" and created[1].token is None
    assert master.bot_turn(record.id) is None
    with pytest.raises(Refusal) as refused:
        master.submit(record.id, created[0].token, "claim alaska", 0)
    assert refused.value.code in ("waiting", "not-your-turn")
    with pytest.raises(Refusal) as refused:
        master.join(record.id, 1, "Ann")
    assert "already playing" in refused.value.message
    token = master.join(record.id, 1, "Bob")
    assert master.seat_of(record.id, token) == 1
    assert master.live(record.id).game.players[:3] == ("Ann", "Bob", "Quick 3")
    with pytest.raises(Refusal) as refused:
        master.join(record.id, 1, "Cy")
    assert refused.value.code == "seat-taken"
    assert storage.get_game(record.id).status == "playing"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        (GameSpec(edition="1066", seats=[SeatSpec("human", "A")] * 3), "no edition"),
        (GameSpec(game="chess", seats=[SeatSpec("human", "A")] * 3), "no game"),
        (
            GameSpec(edition="2003", game="secret-mission", seats=[SeatSpec("bot", bot="quick")] * 3),
            "no secret-mission",
        ),
        (GameSpec(seats=[SeatSpec("bot", bot="quick")] * 2), "3 to 5 players"),
        (GameSpec(seats=[SeatSpec("bot", bot="deep-blue")] * 3), "no bot"),
        (
            GameSpec(seats=[SeatSpec("human", "A"), SeatSpec("human", "A"), SeatSpec("open")]),
            "different names",
        ),
        (GameSpec(seats=[SeatSpec("human", 'Bad, "name"')] * 3), "commas"),
        (GameSpec(seats=[SeatSpec("robot")] * 3), "no seat kind"),
        (GameSpec(seats=[SeatSpec("external", bot="./x")] * 3), "--allow-external-bots"),
        (GameSpec(options={"fortify": "teleport"}, seats=[SeatSpec("open")] * 3), "fortify"),
        (GameSpec(seed=-1, seats=[SeatSpec("open")] * 3), "seed"),
    ],
)
def test_bad_games_are_refused_with_a_reason(storage: Storage, spec: GameSpec, words: str) -> None:
    master = GameMaster(storage)
    with pytest.raises(Refusal) as refused:
        master.create_game(spec)
    assert refused.value.code == "bad-request" and words in refused.value.message
    assert storage.list_games(public_only=False) == []


class BrokenStorage(MemoryStorage):
    def __init__(self) -> None:
        super().__init__()
        self.broken = False

    def commit(self, game_id, actions, progress, change):  # type: ignore[no-untyped-def]
        if self.broken:
            raise StorageError("the database is down")
        return super().commit(game_id, actions, progress, change)


def test_an_action_that_cannot_be_stored_is_not_taken() -> None:
    storage = BrokenStorage()
    master = GameMaster(storage)
    game_id, tokens = human_game(master, seed=5, humans=3, bots=0)
    live = master.live(game_id)
    seat = live.game.to_act
    text = first_legal(master, game_id, seat)
    before = live.game.to_dict()
    log_length = len(live.log)
    storage.broken = True
    with pytest.raises(Refusal) as refused:
        master.submit(game_id, tokens[seat], text, 0)
    assert refused.value.code == "unavailable" and "try again" in refused.value.message
    assert live.game.to_dict() == before and len(live.log) == log_length and live.state_id == 0
    storage.broken = False
    assert master.submit(game_id, tokens[seat], text, 0) == 1


def test_record_only_for_players_after_the_game(storage: Storage) -> None:
    master = GameMaster(storage)
    game_id, tokens = human_game(master, seed=8, humans=1, bots=2)
    with pytest.raises(Refusal):
        master.record_text(game_id, tokens[0])
    live = master.live(game_id)
    while not live.game.is_over:
        if live.game.to_act == 0:
            master.submit(game_id, tokens[0], first_legal(master, game_id, 0), live.state_id)
        run_bots(master, game_id)
    with pytest.raises(Refusal):
        master.record_text(game_id, None)
    text = master.record_text(game_id, tokens[0])
    assert text.startswith("risk-record 1") and f"seed: {live.game.seed}" in text


def test_defender_default_after_the_time_limit(storage: Storage) -> None:
    now = [1000.0]
    master = GameMaster(storage, clock=lambda: now[0])
    game_id, tokens = human_game(master, seed=13, humans=1, bots=2, defend_timeout=5)
    live = master.live(game_id)
    human = make_bot("quick", 1)
    while not live.game.is_over:
        if live.game.to_act == 0 and live.game.phase.name == "DEFEND":
            assert live.deadline == now[0] - 1 + 5  # set when the attack was stored
            state = live.state_id
            assert default_defence(master, game_id, state - 1) is None  # moved on: nothing
            assert default_defence(master, game_id, state) == state + 1
            assert storage.actions(game_id)[-1].text.startswith("defend ")
            return
        if live.game.to_act == 0:
            choice = human.choose(View(live.game, 0))
            master.submit(game_id, tokens[0], live.game.action_text(choice), live.state_id)
        else:
            seat, state_id, decide = master.bot_turn(game_id)  # type: ignore[misc]
            master.submit_as(game_id, seat, decide(), state_id)
        waiting_for_human = live.game.phase.name == "DEFEND" and live.game.to_act == 0
        assert (live.deadline is not None) == waiting_for_human
        now[0] += 1
    pytest.fail("the human never had to defend")


def test_views_are_per_seat(storage: Storage) -> None:
    master = GameMaster(storage)
    game_id, _ = human_game(master, seed=3, humans=0, bots=3)
    for _ in range(400):
        turn = master.bot_turn(game_id)
        assert turn is not None
        master.submit_as(game_id, turn[0], turn[2](), turn[1])
    game = master.live(game_id).game
    for seat in range(3):
        message = master.state_message(game_id, seat)
        assert message["view"] == View(game, seat).to_dict()
        assert message["seat"] == seat
        assert (message["legal"] != []) == (seat == game.to_act)
    spectator = master.state_message(game_id, -1)
    assert spectator["seat"] is None and "hand" not in spectator["view"] and spectator["legal"] == []


def test_an_external_bot_takes_a_seat(storage: Storage) -> None:
    """A program speaking the line protocol (examples/bots/simple_bot.py) plays a whole game."""
    program = str(Path(__file__).parent.parent / "examples" / "bots" / "simple_bot.py")
    assert GameMaster(storage).allow_external_bots is False
    master = GameMaster(storage, allow_external_bots=True)
    with pytest.raises(Refusal) as refused:
        master.create_game(
            GameSpec(seats=[SeatSpec("external", "X", "./no/such/bot")] + [SeatSpec("open")] * 2)
        )
    assert "no bot program" in refused.value.message
    record, _ = master.create_game(
        GameSpec(
            seats=[
                SeatSpec("external", "Simple", program),
                SeatSpec("bot", bot="quick"),
                SeatSpec("bot", bot="quick"),
            ],
            seed=6,
        )
    )
    run_bots(master, record.id)
    live = master.live(record.id)
    assert live.game.is_over
    external = live.externals[0]
    assert external.decisions > 10 and not external.failed
    assert external._process is None  # closed at the end of the game


def test_rounds_as_players_count_them(storage: Storage) -> None:
    """The state message counts rounds (as the terminal does), not the engine's player-turns."""
    from risk.tui.rounds import rounds_played

    master = GameMaster(storage)
    game_id, _ = human_game(master, seed=17, humans=0, bots=3)
    assert master.state_message(game_id, 0)["round"] == 0  # the setup
    run_bots(master, game_id)
    game = master.live(game_id).game
    message = master.state_message(game_id, 0)
    assert message["round"] == rounds_played(game) and 0 < message["round"] < game.turn
    assert GameMaster(storage).state_message(game_id, 0)["round"] == message["round"]  # after a restart


def test_a_store_that_does_not_replay_is_refused_clearly() -> None:
    storage = MemoryStorage()
    master = GameMaster(storage)
    game_id, _ = human_game(master, seed=3, humans=0, bots=3)
    run_bots(master, game_id)
    record = storage.get_game(game_id)
    assert record is not None
    broken = MemoryStorage()
    broken.create_game(replace(record, state_id=0))
    for action in storage.actions(game_id)[:10]:
        text = "endturn" if action.seq == 5 else action.text
        broken.append_action(game_id, replace(action, text=text), Progress("playing", None, 0))
    with pytest.raises(Refusal) as refused:
        GameMaster(broken).live(game_id)
    assert refused.value.code == "unavailable" and "stored action 5" in refused.value.message
