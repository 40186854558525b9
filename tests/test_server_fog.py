"""Fog of war on the server (docs/server.md, "Fog of war"): nothing a seat may not see reaches it.

The proof is by pairs, as in tests/test_server_secrets.py: at positions all through fogged games of
every game type, the game and its log are changed in everything a seat may not see (the owners and
armies out of its sight, what others remember, a battle it did not see, another's income, the log
lines it may not read, and every secret of the game without fog), and every message that seat
receives must stay the same: the state message (over the master, HTTP and the websocket, byte for
byte), and the refusal of every move it might try. The same for spectators. Then: whole fogged games
over the websocket, every seat's log exactly its own lines; the spectators' setting; the fogged record
while the game runs; undo lines under fog; and a fogged game restarted, or killed with SIGKILL, goes
on with the same fog.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from live_server import free_port, request, server
from risk import View
from risk.bots import make_bot
from risk.rules.game import Battle, Game, Phase
from risk.rules.variants.fog import EVERYONE, sees
from risk.server.app import create_app
from risk.server.errors import Refusal
from risk.server.logwindow import LogWindow
from risk.server.master import GameMaster, GameSpec, SeatSpec
from risk.server.sql import SqlStorage
from risk.server.storage import MemoryStorage
from test_server_secrets import SEED_BASE, perturb, scan
from tiers import only_in_test_all

FOG = {"fog": "on"}
# (edition, game, options, seats): "h" a human (through a websocket where it matters), "b" a server bot.
FOGGED_GAMES = [
    ("2008", "world", FOG, "hbh"),
    ("2003", "team", FOG, "hhbb"),
    ("1993", "two-player", FOG, "hb"),
    ("2003", "two-player", FOG | {"neutral-mode": "active"}, "hh"),
    ("2008", "capital", FOG, "hhb"),
    ("1993", "secret-mission", FOG, "hbhb"),
    ("2003", "mission", FOG, "hbh"),
]


def _spec(edition: str, game: str, options: dict[str, str], seats: str, seed: int, **table: Any) -> GameSpec:
    return GameSpec(
        edition=edition,
        game=game,
        options=dict(options),
        seats=[
            SeatSpec("human", f"Human {i + 1}") if kind == "h" else SeatSpec("bot", bot="quick")
            for i, kind in enumerate(seats)
        ],
        seed=seed,
        bot_delay=0,
        defend_timeout=0,
        **table,
    )


# -- changing what a seat may not see -----------------------------------------------------------------
def fog_perturb(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` in which everything ``seat`` may not see is changed: the secrets of a game
    without fog (tests/test_server_secrets.py), and what the fog hides from it."""
    other = perturb(game, seat, rng)
    view = View(game, seat)
    if not view.fogged:
        return other
    hidden = [t for t in range(len(game.board)) if not view.visible(t)]
    # Hidden owners: shuffled among the hidden territories, and one moved from a rival to another
    # (the counts of territories out of sight change too); hidden armies: anything.
    places = [(other.owner[t], None if other.units is None else list(other.units[t])) for t in hidden]
    rng.shuffle(places)
    for t, (owner, units) in zip(hidden, places, strict=True):
        other.owner[t] = owner
        if other.units is not None:
            other.units[t] = units  # type: ignore[assignment]
    counts = [other.owner.count(p) for p in range(len(game.players))]
    movable = [t for t in hidden if other.owner[t] >= 0 and counts[other.owner[t]] > 1]
    rivals = {other.owner[t] for t in hidden if other.owner[t] >= 0}
    if movable and len(rivals) > 1:
        t = rng.choice(movable)
        other.owner[t] = rng.choice(sorted(rivals - {other.owner[t]}))
    for t in hidden:
        factor = rng.randint(1, 9)
        if other.units is None:
            other.armies[t] = rng.randint(1, 40)
        else:  # Team RISK: each seat's armies there, scaled; the owner's share among them
            row = [0] * len(game.players)
            if other.owner[t] >= 0:
                row[other.owner[t]] = max(1, sum(other.units[t])) * factor
            other.units[t] = row
            other.armies[t] = sum(row)
    other.territory_count = [other.owner.count(p) for p in range(len(game.players))]
    # What the other seats remember of the board.
    # (A new list: a copy shares the memories with its game, which the engine replaces, never writes.)
    other.seen_armies = [
        row if p == seat else [rng.randint(0, 30) for _ in row] for p, row in enumerate(other.seen_armies)
    ]
    # A battle it did not see, another player's armies to place.
    if game.last_battle is not None and view.last_battle is None:
        other.last_battle = Battle(hidden[0] if hidden else 0, 0, (6, 6, 6), (1,), 0, 2, rng.random() < 0.5)
    if seat != game.current and game.phase not in (Phase.CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL):
        other.pending = rng.randint(0, 50)
    return other


def log_perturb(log: LogWindow, seat: int, rng: random.Random) -> LogWindow:
    """A copy of the log with every line ``seat`` may not read changed, some dropped, and new ones
    (lines of other seats' sight) put anywhere."""
    others = [s for s in range(10) if s != seat] if seat >= 0 else list(range(10))
    mask = sum(1 << s for s in rng.sample(others, 2))
    held = log.with_readers(log.base)
    readers = log._seen_by[: log.base] + [line.get("seen_by", EVERYONE) for line in held]
    lines: list[dict[str, Any] | None] = [None] * log.base + held
    changed: list[tuple[dict[str, Any] | None, int]] = []
    for line, seen_by in zip(lines, readers, strict=True):
        if rng.random() < 0.1:
            new = {"text": f"hidden {rng.random()}", "kind": "attack", "seat": 0}
            changed.append((None if line is None else new, mask))  # among the lines no longer held: one more
        if sees(seen_by, seat):
            changed.append((line, seen_by))
        elif rng.random() < 0.7:  # kept, with other words; else dropped
            changed.append((None if line is None else line | {"text": f"other {rng.random()}"}, seen_by))
    # The lines no longer held stay so (as many as before, or fewer: it is only their readers that count).
    base = sum(1 for line, _ in changed if line is None)
    copy = LogWindow()
    copy.base = base
    copy._seen_by = [seen_by for _, seen_by in changed]
    copy._lines = [
        {k: v for k, v in line.items() if k != "seen_by"} for line, _ in changed if line is not None
    ]
    assert all(line is None for line, _ in changed[:base])
    return copy


def swapped(master: GameMaster, game_id: str, game: Game, log: LogWindow | None = None) -> Any:
    """A context in which the live game (and its log) are the ones given."""
    import contextlib

    @contextlib.contextmanager
    def swap() -> Any:
        live = master.live(game_id)
        real, real_log = live.game, live.log
        live.game = game
        if log is not None:
            live.log = log
        try:
            yield
        finally:
            live.game, live.log = real, real_log

    return swap()


def tries(game: Game) -> list[str]:
    """Moves a player might send now, on any territory: each is refused (or stale) with a message."""
    board = game.board
    slugs = [board.slug_of(t) for t in range(len(board))]
    texts = ["endattack", "endturn", "occupy 1", "defend 1", "defend 2", "accept", "reroll", "calloff"]
    for t, slug in enumerate(slugs):
        texts += [f"place {slug} 1", f"claim {slug}", f"capital {slug}"]
        for n in board.neighbours[t]:
            texts += [
                f"attack {slug} {slugs[n]} 1",
                f"attack {slug} {slugs[n]} 3",
                f"fortify {slug} {slugs[n]} 1",
            ]
    return texts


def refusals(master: GameMaster, game_id: str, seat: int, texts: list[str]) -> list[tuple[str, str]]:
    """Each move's refusal (never applied: its state id is stale when it is legal)."""
    live = master.live(game_id)
    answers = []
    for text in texts:
        try:
            master.submit_as(game_id, seat, text, live.state_id + 1_000_000)
        except Refusal as refusal:
            answers.append((refusal.code, refusal.message))
        else:
            raise AssertionError(f"{text!r} was played")
    return answers


# Quick bots may play 2-player RISK with active neutrals for hundreds of turns (the game here: over
# 18,000 moves, which ran into the test's 900 s timeout under load): after RESIGN_AFTER turns, the seat
# to act resigns, one after another, until the game ends (as in tests/test_server_secrets.py).
RESIGN_AFTER = 40


def play_bots_to_positions(master: GameMaster, game_id: str, every: int) -> Any:
    """Play the (all-bot) game to its end, yielding every ``every`` moves."""
    step = 0
    while (turn := master.bot_turn(game_id)) is not None:
        if step % every == 0:
            yield step
        seat, state_id, decide = turn
        resigns = master.live(game_id).game.turn > RESIGN_AFTER
        master.submit_as(game_id, seat, "resign" if resigns else decide(), state_id)  # bots act in sight
        step += 1


@pytest.mark.parametrize(("edition", "game", "options", "seats"), FOGGED_GAMES)
def test_no_message_nor_refusal_depends_on_what_the_fog_hides(
    edition: str, game: str, options: dict[str, str], seats: str
) -> None:
    master = GameMaster(MemoryStorage())
    record, _ = master.create_game(_spec(edition, game, options, "b" * len(seats), seed=SEED_BASE + 41))
    live = master.live(record.id)
    rng = random.Random(13)
    checked = refused = hidden_lines = 0
    for step in play_bots_to_positions(master, record.id, 37):
        texts = tries(live.game)
        for seat in [-1, *range(live.game.humans)]:
            expected = master.state_message(record.id, seat)
            middle = max(0, expected["log_start"] + len(expected["log"]) - 7)
            expected_middle = master.state_message(record.id, seat, middle)
            assert expected["view"]["fog"] and all("seen_by" not in line for line in expected["log"])
            errors = refusals(master, record.id, seat, texts) if step % 74 == 0 and seat >= 0 else None
            for _ in range(2):
                changed_log = log_perturb(live.log, seat, rng)
                hidden_lines += len(changed_log) != len(live.log)
                with swapped(master, record.id, fog_perturb(live.game, seat, rng), changed_log):
                    assert master.state_message(record.id, seat) == expected, f"seat {seat} at step {step}"
                    assert master.state_message(record.id, seat, middle) == expected_middle
                    if errors is not None:
                        assert refusals(master, record.id, seat, texts) == errors
                        refused += 1
            checked += 1
    assert live.game.is_over and checked > 20 and refused > 5 and hidden_lines > 10
    # Once the game is over, everyone reads the whole log and sees the whole board.
    for seat in [-1, *range(live.game.humans)]:
        message = master.state_message(record.id, seat)
        assert not message["view"]["fog"] and message["log"] == live.log[message["log_start"] :]
        assert all("hidden" not in t for t in message["view"]["territories"])


# -- over HTTP and the websocket, byte for byte -------------------------------------------------------
MOVES = ["attack alaska kamchatka 1", "attack peru brazil 1", "place ukraine 1", "fortify siam china 1"]


def answers(client: TestClient, game_id: str, token: str | None, moves: list[str]) -> list[bytes]:
    """The seat's view over HTTP and over the websocket, and the refusals of ``moves`` over both (each
    sent with a stale state id: refused, never played), as the bytes received."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    got = [client.get(f"/api/games/{game_id}/view", headers=headers).content]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        socket.send_json({"type": "hello", "token": token})
        got.append(socket.receive_text().encode())
        for text in moves:
            socket.send_json({"type": "action", "action": text, "state_id": 1, "ref": 7})
            got.append(socket.receive_text().encode())
    for text in moves:
        sent = {"action": text, "state_id": 1}
        got.append(client.post(f"/api/games/{game_id}/actions", json=sent, headers=headers).content)
    return got


def test_http_and_websocket_answers_are_the_same_bytes_whatever_the_fog_hides() -> None:
    app = create_app(MemoryStorage())
    master: GameMaster = app.state.master
    rng = random.Random(3)
    with TestClient(app) as client:
        body = {
            "edition": "2008",
            "game": "world",
            "options": FOG,
            "seats": [{"kind": "human", "name": f"Human {i + 1}"} for i in range(3)],
            "seed": SEED_BASE + 43,
            "bot_delay": 0,
            "defend_timeout": 0,
        }
        created = client.post("/api/games", json=body).json()
        game_id = created["id"]
        tokens: dict[int | None, str | None] = {s["seat"]: s["token"] for s in created["seats"]}
        tokens[None] = None
        live = master.live(game_id)
        bots = [make_bot("quick", seat) for seat in range(3)]
        compared = 0
        for move in range(400):
            if move % 50 == 49:
                for seat, token in tokens.items():
                    moves = [] if seat != live.game.to_act else MOVES
                    expected = answers(client, game_id, token, moves)
                    index = -1 if seat is None else seat
                    for _ in range(2):
                        with swapped(
                            master,
                            game_id,
                            fog_perturb(live.game, index, rng),
                            log_perturb(live.log, index, rng),
                        ):
                            assert answers(client, game_id, token, moves) == expected, f"seat {seat}"
                    compared += 1
            seat = live.game.to_act
            view = View(live.game, seat)
            master.submit_as(game_id, seat, view.action_text(bots[seat].choose(view)), live.state_id)
        assert compared == 32


# -- whole games over the websocket -------------------------------------------------------------------
TURNS = 80  # then the people in the game resign, one after another, until it ends


# The 2-player game with active neutrals (the 1993 one is played too) only in `make test-all`.
@pytest.mark.parametrize(
    ("edition", "game", "options", "seats"), only_in_test_all(FOGGED_GAMES[:5], slow=[3])
)
def test_whole_fogged_games_each_seat_reads_its_own_lines(
    edition: str, game: str, options: dict[str, str], seats: str
) -> None:
    """Every message each client receives is scanned for secrets; each seat's log, put together as the
    page does from log_start, is exactly the lines it may read, in order, never with their readers,
    and its board hides what is out of its sight; a spectator sees no territory, until the end."""
    seed = SEED_BASE + 47 + len(seats)
    app = create_app(MemoryStorage())
    master: GameMaster = app.state.master
    with TestClient(app) as client:
        seat_list = [
            {"kind": "human", "name": f"Human {i + 1}"} if k == "h" else {"kind": "bot", "bot": "quick"}
            for i, k in enumerate(seats)
        ]
        body = {"edition": edition, "game": game, "options": options, "seats": seat_list, "seed": seed}
        created = client.post("/api/games", json=body | {"bot_delay": 0, "defend_timeout": 0}).json()
        game_id = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}
        live = master.live(game_id)
        deciders = {seat: make_bot("quick", seat) for seat in tokens}
        sockets: dict[int | None, Any] = {}
        logs: dict[int | None, list[dict[str, Any]]] = {}
        resets = dict.fromkeys([*tokens, None], 0)
        try:
            for seat in [*tokens, None]:
                socket = client.websocket_connect(f"/api/games/{game_id}/ws").__enter__()
                socket.send_json({"type": "hello", "token": tokens.get(seat)})
                sockets[seat] = socket

            def receive(seat: int | None) -> dict[str, Any]:
                raw = sockets[seat].receive_text()
                message = json.loads(raw)
                scan(message, raw, seat, [str(seed)] + [t for s, t in tokens.items() if s != seat])
                assert "seen_by" not in raw
                if message["type"] != "state":
                    return message
                held = logs.setdefault(seat, [])
                if message.get("log_reset"):
                    resets[seat] += 1
                    held.clear()
                    held.extend([{}] * message["log_start"])
                assert message["log_start"] <= len(held)
                del held[message["log_start"] :]
                held.extend(message["log"])
                view = message["view"]
                if view["fog"]:
                    index = -1 if seat is None else seat
                    # The game as last committed: the server's thread may be half-way through a move.
                    shown = live.published
                    log = shown.log
                    readable = [
                        line for line, m in zip(log, log._seen_by[log.base :], strict=True) if sees(m, index)
                    ]
                    if message["state_id"] == shown.state_id:  # all its lines, the newest still held
                        assert len(held) == log.position_for(index, len(log)), f"seat {seat}"
                        newest = min(len(held), len(readable))
                        assert held[len(held) - newest :] == readable[len(readable) - newest :], seat
                    for territory in view["territories"]:
                        assert ("owner" in territory) != bool(territory.get("hidden"))
                    if seat is None:
                        assert all(t.get("hidden") for t in view["territories"])
                return message

            def play(seat: int, action: str) -> None:
                """Send ``action`` for ``seat``; every message up to its answer is checked as it comes."""
                sent = {"type": "action", "action": action, "state_id": live.state_id, "ref": 1}
                sockets[seat].send_json(sent)
                answer = receive(seat)
                while answer["type"] not in ("ack", "error"):
                    answer = receive(seat)
                assert answer["type"] == "ack", answer

            deadline = time.monotonic() + 300
            # Quick bots may play a 2-player game for hundreds of turns: after TURNS the people resign.
            while not live.game.is_over:
                assert time.monotonic() < deadline, "the game did not finish"
                seat = live.game.to_act
                if live.game.turn > TURNS:
                    play(next(s for s in tokens if live.game.alive[s]), "resign")
                    continue
                if seat not in tokens:
                    time.sleep(0.001)
                    continue
                while True:
                    message = receive(seat)
                    assert message["type"] != "error", message
                    if (
                        message["type"] == "state"
                        and message["legal"]
                        and message["state_id"] == live.state_id
                    ):
                        break
                view = View(live.game.copy(), seat)
                play(seat, view.action_text(deciders[seat].choose(view)))
            for seat in sockets:  # the end: the whole log and board, for everyone
                while True:
                    message = receive(seat)
                    if message["type"] == "state" and message["state_id"] == live.state_id:
                        break
                assert not message["view"]["fog"] and resets[seat] == 1
                assert logs[seat][message["log_start"] :] == live.log[message["log_start"] :]
        finally:
            for socket in sockets.values():
                socket.__exit__(None, None, None)


# -- the spectators' setting, the record, undo ---------------------------------------------------------
def test_spectators_see_the_fog_of_no_one_unless_the_host_opens_the_board(tmp_path: Path) -> None:
    storage = SqlStorage(f"sqlite:///{tmp_path / 'games.db'}")
    app = create_app(storage)
    with TestClient(app) as client:
        seats = [
            {"kind": "human", "name": "Ann"},
            {"kind": "human", "name": "Bob"},
            {"kind": "bot", "bot": "quick"},
        ]
        body = {"options": FOG, "seats": seats, "seed": 5, "bot_delay": 0}
        wrong = client.post("/api/games", json=body | {"spectator_view": "peek"})
        assert wrong.status_code == 422, wrong.text
        message = wrong.json()["error"]["message"]
        assert message.startswith("no spectator view 'peek'") and "fogged" in message and "open" in message
        fogged = client.post("/api/games", json=body).json()
        opened = client.post("/api/games", json=body | {"spectator_view": "open"}).json()
        assert client.get(f"/api/games/{fogged['id']}").json()["spectator_view"] == "fogged"
        assert client.get(f"/api/games/{opened['id']}").json()["spectator_view"] == "open"
        ann = {"Authorization": f"Bearer {opened['seats'][0]['token']}"}
        for made in (fogged, opened):
            state = client.get(f"/api/games/{made['id']}/view").json()
            assert state["view"]["fog"] is (made is fogged)
            hidden = [t for t in state["view"]["territories"] if t.get("hidden")]
            assert len(hidden) == (42 if made is fogged else 0)
        assert client.get(f"/api/games/{opened['id']}/view", headers=ann).json()["view"]["fog"] is True
        # Saved house rules keep the setting.
        rules = client.post(
            "/api/rulesets",
            json={"name": "Fog", "options": FOG, "table": {"spectator_view": "open"}},
        )
        assert rules.status_code == 201 and rules.json()["settings"]["table"]["spectator_view"] == "open"
    # A restarted server keeps it (stored with the game's settings).
    with TestClient(create_app(SqlStorage(f"sqlite:///{tmp_path / 'games.db'}"))) as client:
        for made, hidden in ((fogged, 42), (opened, 0)):
            state = client.get(f"/api/games/{made['id']}/view").json()
            assert sum(1 for t in state["view"]["territories"] if t.get("hidden")) == hidden


def test_a_fogged_game_gives_a_player_its_own_record_while_it_runs_and_the_whole_one_after() -> None:
    master = GameMaster(MemoryStorage())
    record, created = master.create_game(_spec("2008", "world", FOG, "hhh", seed=SEED_BASE + 49))
    game_id, live = record.id, master.live(record.id)
    tokens = [c.token for c in created]
    bots = [make_bot("quick", seat) for seat in range(3)]
    while live.state_id < 300:
        seat = live.game.to_act
        view = View(live.game, seat)
        master.submit_as(game_id, seat, view.action_text(bots[seat].choose(view)), live.state_id)
    from risk.record import write_record

    for seat, token in enumerate(tokens):
        text = master.record_text(game_id, token)
        assert text == write_record(live.game, seat) and str(live.game.seed) not in text
        assert text != write_record(live.game)  # the whole record holds what this seat did not see
    with pytest.raises(Refusal, match="the record is for the game's players"):
        master.record_text(game_id, None)
    with pytest.raises(Refusal, match="the summary opens when the game is over"):
        master.after_game(game_id)
    while not live.game.is_over:
        seat = live.game.to_act
        view = View(live.game, seat)
        master.submit_as(game_id, seat, view.action_text(bots[seat].choose(view)), live.state_id)
    assert master.record_text(game_id, tokens[0]) == write_record(live.game)
    assert master.after_game(game_id)["frames"]


def test_an_undo_under_fog_tells_each_seat_only_the_moves_it_saw_and_survives_a_restart() -> None:
    storage = MemoryStorage()
    master = GameMaster(storage)
    record, _ = master.create_game(_spec("2008", "world", FOG, "hhhh", seed=SEED_BASE + 51))
    game_id, live = record.id, master.live(record.id)
    bots = [make_bot("quick", seat) for seat in range(4)]
    rng = random.Random(2)
    partial = undos = 0
    while live.state_id < 700 and not live.game.is_over:
        seat = live.game.to_act
        if master.undo_state(live, seat) is not None and rng.random() < 0.4:
            before = len(live.log)
            master.undo(game_id, seat, live.state_id)
            undos += 1
            added = live.log.with_readers(before - 1)[1:] if before else []
            lines = [line for line in live.log.with_readers(live.log.base) if line["kind"] == "undo"]
            partial += any(line.get("seen_by", EVERYONE) != EVERYONE for line in added + lines[-1:])
            for line in added:
                assert line["kind"] == "undo"
            continue
        view = View(live.game, seat)
        master.submit_as(game_id, seat, view.action_text(bots[seat].choose(view)), live.state_id)
    assert undos >= 5 and partial > 0
    # Each seat's undo lines name only moves it read (the lines of its own log before the cut).
    expected = {seat: master.state_message(game_id, seat) for seat in range(-1, 4)}
    restarted = GameMaster(storage)
    for seat, message in expected.items():
        assert restarted.state_message(game_id, seat) == message, f"seat {seat}"
    assert restarted.live(game_id).log == live.log


# -- restarts and SIGKILL ---------------------------------------------------------------------------
def test_a_fogged_game_killed_and_restarted_goes_on_with_the_same_fog(tmp_path: Path) -> None:
    """`risk serve` on SQLite, a fogged game with two humans and a bot; the server is SIGKILLed with a
    human to act and started again: every seat and a spectator get the same answer as before (what
    each player saw, its log, its record), and the game goes on under fog."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    port = free_port()
    rng = random.Random(17)
    with server(url, port) as first:
        body = {
            "options": FOG,
            "seats": [
                {"kind": "human", "name": "Ann"},
                {"kind": "bot", "bot": "quick"},
                {"kind": "human", "name": "Cy"},
            ],
            "seed": SEED_BASE + 53,
            "bot_delay": 0,
            "defend_timeout": 0,
        }
        created = request(port, "POST", "/api/games", body)
        game_id = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}

        def human_moves(count: int) -> dict[str, Any]:
            made = 0
            while True:
                for token in tokens.values():
                    state = request(port, "GET", f"/api/games/{game_id}/view", token=token)
                    if state["legal"]:
                        break
                else:
                    time.sleep(0.05)  # the bot is moving
                    continue
                if made >= count:
                    return state
                group = rng.choice(state["legal"])
                text = group["text"] if "max" not in group else f"{group['text']} {group['max']}"
                request(
                    port,
                    "POST",
                    f"/api/games/{game_id}/actions",
                    {"action": text, "state_id": state["state_id"]},
                    token,
                )
                made += 1

        human_moves(120)

        def answers() -> dict[str, Any]:
            got: dict[str, Any] = {}
            for seat, token in [*tokens.items(), (None, None)]:
                state = request(port, "GET", f"/api/games/{game_id}/view", token=token)
                for volatile in ("seats", "clock", "deadline"):
                    state.pop(volatile, None)
                got[f"view {seat}"] = state
                if token is not None:
                    got[f"record {seat}"] = request(port, "GET", f"/api/games/{game_id}/record", token=token)
            return got

        before = answers()
        assert before["view None"]["view"]["fog"] and before["view 0"]["view"]["fog"]
        assert any("seen" in t for t in before["view 0"]["view"]["territories"])  # remembered, out of sight
        first.kill()  # SIGKILL
        first.wait(10)
    with server(url, port):
        assert answers() == before
        state = human_moves(30)
        assert state["view"]["fog"] and state["state_id"] > before["view 0"]["state_id"]


# -- a step out of sight: the phase, who acts and the clock ------------------------------------------
def _witnessed_nothing(game: Game, before: Game, start: int, seat: int) -> bool:
    """Whether ``seat`` saw nothing of the step from ``before`` to ``game`` (history from ``start``):
    no entry it witnessed, no change in its sight, no public change (a turn passing, an elimination,
    cards changing hands, the setup, the end)."""
    if game.is_over or before.phase in (Phase.CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL):
        return False
    if (game.turn, game.current, game.alive) != (before.turn, before.current, before.alive):
        return False
    if [len(h) for h in game.hands] != [len(h) for h in before.hands]:
        return False
    if any(sees(mask, seat) for mask in game.witnessed[start:]):
        return False
    return seat < 0 or not any(
        (game.in_sight[seat][t] or before.in_sight[seat][t])
        and (game.owner[t], game.armies[t]) != (before.owner[t], before.armies[t])
        for t in range(len(game.board))
    )


@pytest.mark.parametrize("edition", ["2008", "1993"])
def test_a_step_out_of_sight_changes_no_byte_of_a_seats_message(edition: str) -> None:
    """Issue 36: after a roll a seat did not see, its state message said ``phase: "defend"``, who
    defends, and the defender's clock; a skipped defence step told the defending army count, an unseen
    conquest ``phase: "occupy"``. Now, with the turn clock and the defence clock running, a step that a
    seat (or a spectator) did not witness leaves every byte of its message as it was but the state id:
    the phase, who acts, the clock, the deadline and the refusal of a move out of turn."""
    now = [1_000_000.0]
    master = GameMaster(MemoryStorage(), clock=lambda: now[0])
    spec = _spec(edition, "world", FOG, "hhhh", seed=SEED_BASE + 47, turn_time=600)
    spec = dataclasses.replace(spec, defend_timeout=30)
    record, _ = master.create_game(spec)
    live = master.live(record.id)
    bots = [make_bot("quick", seat) for seat in range(4)]
    seats = [-1, *range(4)]

    def shown(seat: int) -> str:
        message = master.state_message(record.id, seat)
        del message["state_id"]
        if seat != live.game.to_act:  # (a move it may not make: refused, never played)
            with pytest.raises(Refusal) as refused:
                master.submit_as(record.id, seat, "endturn", None)
            message["refusal"] = refused.value.message
        return json.dumps(message, sort_keys=True)

    compared = defences = 0
    while not live.game.is_over and live.game.turn < 30:
        before, start = live.game.copy(), len(live.game.history)
        messages = {seat: shown(seat) for seat in seats}
        seat = live.game.to_act
        defences += live.game.phase == Phase.DEFEND
        view = View(live.game, seat)
        master.submit_as(record.id, seat, view.action_text(bots[seat].choose(view)), live.state_id)
        now[0] += 1.0  # the clocks run: only what the seat may see of them may differ
        for other in seats:
            if other != seat and _witnessed_nothing(live.game, before, start, other):
                assert shown(other) == messages[other], (other, live.game.history[start:])
                compared += 1
    assert compared > 100 and defences > 10
