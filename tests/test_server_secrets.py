"""Secrets stay on the server: whole games of every game type, humans and bots, every message scanned.

Two checks. Over the websocket, every message each client receives is scanned: no other seat's token,
no seed, no deck order, no generator, no other hand, mission, hidden headquarters or mission card.
On the master, at positions all through the games, the message for each seat must not change when
everything that seat may not see is changed (other hands, the deck order, the generator, other
missions and hidden headquarters): so nothing of it can be in the message.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from risk import View
from risk.bots import make_bot
from risk.rules.game import Game, Phase
from risk.server.app import create_app
from risk.server.master import GameMaster, GameSpec, SeatSpec
from risk.server.storage import MemoryStorage
from tiers import only_in_test_all

# (edition, game, options, seats): "h" a human played through a websocket, "b" a server bot.
GAMES = [
    ("2008", "world", {}, "hbh"),
    ("1993", "secret-mission", {}, "hbhb"),
    ("2008", "capital", {}, "hhbb"),
    ("2003", "two-player", {"neutral-mode": "active"}, "hh"),
    ("1993", "two-player", {}, "hb"),
    ("2003", "mission", {}, "hbh"),
    ("2003", "team", {}, "hhbb"),
    ("1993", "world", {"attack-advantage": "on", "commanders": "on"}, "hbh"),
]
FORBIDDEN_KEYS = {"seed", "rng", "deck", "hands", "history", "token", "token_hash", "missions_all", "_rng"}
SEED_BASE = 7_364_519_283_746  # long enough that its digits never appear by chance
# Quick bots may play 2-player RISK for hundreds of turns (the 2003 active neutrals' game here goes past
# turn 450, over 16,000 moves, and ran out of its 120 s on a busy machine): after TURNS, the people
# resign, one after another.
TURNS = 120


def _spec(edition: str, game: str, options: dict[str, str], seats: str, seed: int) -> GameSpec:
    return GameSpec(
        edition=edition,
        game=game,
        options=options,
        seats=[
            SeatSpec("human", f"Human {i + 1}") if kind == "h" else SeatSpec("bot", bot="quick")
            for i, kind in enumerate(seats)
        ],
        seed=seed,
        bot_delay=0,
        defend_timeout=0,
    )


def forbidden_keys(message: dict[str, Any]) -> set[str]:
    """The forbidden keys anywhere in ``message`` (a walk with no set per level: every message of
    every game passes here)."""
    found: set[str] = set()
    stack: list[Any] = [message]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            found.update(FORBIDDEN_KEYS.intersection(value))
            stack.extend(v for v in value.values() if isinstance(v, dict | list))
        elif isinstance(value, list):
            stack.extend(v for v in value if isinstance(v, dict | list))
    return found


def scan(message: dict[str, Any], raw: str, seat: int | None, secrets: list[str]) -> None:
    """What a client with ``seat`` (None: a spectator) must never receive."""
    for secret in secrets:
        assert secret not in raw, f"a secret reached seat {seat}: {message.get('type')}"
    leaked = forbidden_keys(message)
    assert not leaked, leaked
    if message.get("type") != "state":
        return
    view = message["view"]
    over = message["status"] == "over"
    assert ("hand" in view) == (seat is not None)
    for player in view["players"]:
        assert isinstance(player["cards"], int)
    if "missions" in view and not over:
        for index, mission in enumerate(view["missions"]):
            assert mission is None or index == seat
    if "capitals" in view and view["phase"] == "choose-capital":
        for index, capital in enumerate(view["capitals"]):
            assert capital is None or index == seat
    if "mission_cards" in view and not over:
        for index, cards in enumerate(view["mission_cards"]):
            assert cards["unclaimed"] is None or index == seat or len(cards["claimed"]) >= 3
    if seat is None or message["view"]["to_act"] != seat:
        assert message["legal"] == []


def test_the_scan_finds_a_forbidden_key_at_any_depth() -> None:
    assert forbidden_keys({"view": {"players": [{"cards": 2}, [{"x": {"deck": []}}]]}}) == {"deck"}
    deep = {"rng": 1, "log": [{"token": "t"}], "seat": [[[{"seed": 5}]]]}
    assert forbidden_keys(deep) == {"rng", "token", "seed"}
    assert forbidden_keys({"view": {"hand": ["alaska"]}, "legal": []}) == set()


# In `make test`, each kind of secret once: the worlds (cards alone, the longest games) and the active
# neutrals' 2-player game (the 1993 one has its hidden neutral cards too) only in `make test-all`.
@pytest.mark.parametrize(("edition", "game", "options", "seats"), only_in_test_all(GAMES, slow=[0, 3, 7]))
def test_every_message_of_whole_games(edition: str, game: str, options: dict[str, str], seats: str) -> None:
    seed = SEED_BASE + len(seats) * 31 + len(game)
    app = create_app(MemoryStorage())
    master: GameMaster = app.state.master
    with TestClient(app) as client:
        answer = client.post(
            "/api/games",
            json={
                "edition": edition,
                "game": game,
                "options": options,
                "seats": [
                    {"kind": "human", "name": f"Human {i + 1}"}
                    if k == "h"
                    else {"kind": "bot", "bot": "quick"}
                    for i, k in enumerate(seats)
                ],
                "seed": seed,
                "bot_delay": 0,
                "defend_timeout": 0,
            },
        )
        assert answer.status_code == 201, answer.text
        created = answer.json()
        game_id = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}
        live = master.live(game_id)
        deciders = {seat: make_bot("quick", seat) for seat in tokens}
        sockets: dict[int | None, Any] = {}
        received = dict.fromkeys([*tokens, None], 0)
        try:
            for seat in [*tokens, None]:
                socket = client.websocket_connect(f"/api/games/{game_id}/ws").__enter__()
                socket.send_json({"type": "hello", "token": tokens.get(seat) if seat is not None else None})
                sockets[seat] = socket

            def secrets_for(seat: int | None) -> list[str]:
                return [str(seed)] + [t for s, t in tokens.items() if s != seat]

            def receive(seat: int | None) -> dict[str, Any]:
                raw = sockets[seat].receive_text()
                message = json.loads(raw)
                scan(message, raw, seat, secrets_for(seat))
                received[seat] += 1
                return message

            latest: dict[int | None, int] = dict.fromkeys(sockets, -1)
            deadline = time.monotonic() + 120
            while not live.game.is_over:
                assert time.monotonic() < deadline, "the game did not finish"
                seat = live.game.to_act
                if live.game.turn > TURNS:  # the people resign, one after another, until it ends
                    resigning = next(s for s in tokens if live.game.alive[s])
                    sockets[resigning].send_json(
                        {"type": "action", "action": "resign", "state_id": live.state_id, "ref": 1}
                    )
                    while (answer := receive(resigning))["type"] not in ("ack", "error"):
                        latest[resigning] = answer["state_id"]
                    assert answer["type"] == "ack", answer
                    continue
                if seat not in tokens:
                    time.sleep(0.001)  # a bot of the server's is thinking
                    continue
                # Read this seat's messages until it sees the position where it is to act.
                while True:
                    message = receive(seat)
                    if message["type"] == "state":
                        latest[seat] = message["state_id"]
                        if message["legal"] and message["state_id"] == live.state_id:
                            break
                    assert message["type"] != "error", message
                view = View(live.game, seat)
                action = view.action_text(deciders[seat].choose(view))
                sockets[seat].send_json(
                    {"type": "action", "action": action, "state_id": message["state_id"], "ref": 1}
                )
                while (answer := receive(seat))["type"] not in ("ack", "error"):
                    latest[seat] = answer["state_id"]
                assert answer["type"] == "ack", answer
            final = live.state_id
            for seat in sockets:
                while latest[seat] != final:
                    message = receive(seat)
                    if message["type"] == "state":
                        latest[seat] = message["state_id"]
        finally:
            for socket in sockets.values():
                socket.__exit__(None, None, None)
        assert all(count > 0 for count in received.values())
        # The record: for the players, once the game is over; never for a spectator.
        first = next(iter(tokens))
        record = client.get(
            f"/api/games/{game_id}/record", headers={"Authorization": f"Bearer {tokens[first]}"}
        )
        assert record.status_code == 200 and record.text.startswith("risk-record 1")
        refused = client.get(f"/api/games/{game_id}/record")
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "bad-token"


# -- the master: messages do not depend on what a seat may not see ----------------------------------


def perturb(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` in which everything ``seat`` may not see is changed."""
    other = game.copy()
    other._rng = random.Random(rng.random())
    other.seed = rng.randrange(2**63)
    # Other hands and the deck: pool the unseen cards and deal them again, keeping the counts.
    own = other.hands[seat] if seat >= 0 else None
    unseen_hands = []
    for hand in other.hands:
        if hand is not own and all(hand is not h for h in unseen_hands):
            unseen_hands.append(hand)
    pool = list(other.deck) + [c for hand in unseen_hands for c in hand]
    rng.shuffle(pool)
    for hand in unseen_hands:
        size = len(hand)
        hand[:] = pool[:size]
        pool = pool[size:]
    other.deck = pool
    if not game.is_over:
        hidden = [p for p in range(game.humans) if p != seat]
        if any(m is not None for m in other.missions):
            missions = [other.missions[p] for p in hidden]
            rng.shuffle(missions)
            for p, mission in zip(hidden, missions, strict=True):
                other.missions[p] = mission
        # Unclaimed mission cards: swapped between players holding as many (the counts are public).
        cards = [p for p in hidden if len(other.missions_claimed[p]) < 3]
        for size in {len(other.mission_cards[p]) for p in cards}:
            same = [p for p in cards if len(other.mission_cards[p]) == size]
            unclaimed = [list(other.mission_cards[p]) for p in same]
            rng.shuffle(unclaimed)
            for p, keys in zip(same, unclaimed, strict=True):
                other.mission_cards[p] = keys
    if game.phase == Phase.CHOOSE_CAPITAL:
        for p in range(game.humans):
            if p != seat and other.capitals[p] >= 0:
                other.capitals[p] = rng.choice(other.territories_of(p))
    return other


def message_with(master: GameMaster, game_id: str, game: Game, seat: int) -> dict[str, Any]:
    live = master.live(game_id)
    real = live.game
    live.game = game
    try:
        return master.state_message(game_id, seat)
    finally:
        live.game = real


@pytest.mark.parametrize(("edition", "game", "options", "seats"), only_in_test_all(GAMES, slow=[3]))
def test_messages_do_not_depend_on_unseen_secrets(
    edition: str, game: str, options: dict[str, str], seats: str
) -> None:
    master = GameMaster(MemoryStorage())
    record, _ = master.create_game(_spec(edition, game, options, "b" * len(seats), seed=SEED_BASE + 1))
    live = master.live(record.id)
    rng = random.Random(5)
    checked = 0
    step = 0
    while (turn := master.bot_turn(record.id)) is not None:
        seat_to_act, state_id, decide = turn
        if step % 23 == 0:
            for seat in [-1, *range(live.game.humans)]:
                expected = master.state_message(record.id, seat)
                for _ in range(2):
                    assert message_with(master, record.id, perturb(live.game, seat, rng), seat) == expected
                checked += 1
        master.submit_as(record.id, seat_to_act, decide(), state_id)
        step += 1
    assert live.game.is_over and checked > 20


# -- fast play: undo and blitz reveal nothing -------------------------------------------------------

PRIVATE_TO_A_STATE = ("state_id", "log", "log_start", "undo")  # what differs after an undo by design


@pytest.mark.parametrize(("edition", "game", "options", "seats"), GAMES)
def test_an_undo_shows_each_seat_exactly_what_it_saw_before(
    edition: str, game: str, options: dict[str, str], seats: str
) -> None:
    """Every seat a human, taking moves back now and then: after each undo, every seat (and a
    spectator) is shown exactly the message it was shown before the moves taken back, nothing that
    depends on what it may not see, and a record for a player holds the effective actions only."""
    from risk.record import write_record
    from risk.server.undo import effective_actions

    master = GameMaster(MemoryStorage())
    record, _ = master.create_game(_spec(edition, game, options, "h" * len(seats), seed=SEED_BASE + 3))
    game_id, live = record.id, master.live(record.id)
    everyone = [-1, *range(live.game.humans)]
    deciders = {seat: make_bot("quick", seat) for seat in range(live.game.humans)}
    rng = random.Random(11)
    seen: dict[int, dict[int, dict[str, Any]]] = {}  # state id -> seat -> the message it was shown
    undos = 0
    while not live.game.is_over and live.state_id < 1500:
        seen[live.state_id] = {s: master.state_message(game_id, s) for s in everyone}
        seen.pop(live.state_id - 80, None)
        seat = live.game.to_act
        undo = seen[live.state_id][seat]["undo"]
        if undo is not None and rng.random() < 0.35:
            first = live.undo_points[-rng.randint(1, len(live.undo_points))].seq
            master.undo(game_id, seat, live.state_id, first)
            undos += 1
            for s in everyone:
                now, before = master.state_message(game_id, s), seen[first - 1][s]
                for key in PRIVATE_TO_A_STATE:
                    now.pop(key), before.pop(key)
                assert now == before, f"seat {s} sees something new after an undo"
                if s >= 0 and undos % 5 == 1:
                    assert message_with(master, game_id, perturb(live.game, s, rng), s) == (
                        master.state_message(game_id, s)
                    )
                    # A record for this player now: the effective actions, no seed, nothing undone.
                    text = write_record(live.game, viewer=s)
                    assert str(live.game.seed) not in text and "#undo" not in text
                    body = text.split("---\n", 1)[1].splitlines()
                    moves = [line for line in body if not line.startswith("~")]
                    assert len(moves) == len(effective_actions(master.storage.actions(game_id)))
            assert live.log[-1]["kind"] == "undo" and str(live.game.seed) not in live.log[-1]["text"]
            continue
        view = View(live.game.copy(), seat)
        master.submit_as(game_id, seat, view.action_text(deciders[seat].choose(view)), live.state_id)
    assert undos >= 3


@pytest.mark.parametrize(
    ("edition", "game", "options", "seats"),
    [g for g in GAMES if g[1] in ("world", "capital", "secret-mission", "team")][:4],
)
def test_every_message_with_blitzes_and_undos(
    edition: str, game: str, options: dict[str, str], seats: str
) -> None:
    """Whole games over the websocket where the humans blitz instead of attacking once and take back
    what they may: every message every client receives is scanned, as above."""
    seed = SEED_BASE + 17 + len(seats)
    app = create_app(MemoryStorage())
    master: GameMaster = app.state.master
    rng = random.Random(seed)
    counts = {"blitz": 0, "undo": 0}
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
        try:
            for seat in [*tokens, None]:
                socket = client.websocket_connect(f"/api/games/{game_id}/ws").__enter__()
                socket.send_json({"type": "hello", "token": tokens.get(seat) if seat is not None else None})
                sockets[seat] = socket

            def receive(seat: int | None) -> dict[str, Any]:
                raw = sockets[seat].receive_text()
                message = json.loads(raw)
                scan(message, raw, seat, [str(seed)] + [t for s, t in tokens.items() if s != seat])
                if message["type"] == "state":
                    assert message["blitz"] is None or message["seat"] == message["view"]["current"]
                    assert message["undo"] is None or message["seat"] == message["view"]["to_act"]
                return message

            deadline = time.monotonic() + 120
            while not live.game.is_over:
                assert time.monotonic() < deadline, "the game did not finish"
                seat = live.game.to_act
                if live.game.turn > TURNS:  # the people resign, one after another, until it ends
                    resigning = next(s for s in tokens if live.game.alive[s])
                    sockets[resigning].send_json(
                        {"type": "action", "action": "resign", "state_id": live.state_id, "ref": 1}
                    )
                    answer = receive(resigning)
                    while answer["type"] not in ("ack", "error"):
                        answer = receive(resigning)
                    assert answer["type"] == "ack", answer
                    continue
                if seat not in tokens:
                    time.sleep(0.001)
                    continue
                while True:
                    message = receive(seat)
                    assert message["type"] != "error", message
                    current = message["type"] == "state" and message["state_id"] == live.state_id
                    if current and message["legal"]:
                        break
                state_id = message["state_id"]
                if message["undo"] is not None and rng.random() < 0.3:
                    sent = {"type": "undo", "state_id": state_id, "ref": 1}
                    counts["undo"] += 1
                else:
                    view = View(live.game.copy(), seat)
                    action = view.action_text(deciders[seat].choose(view))
                    words = action.split()
                    if words[0] == "attack" and rng.random() < 0.6:
                        sent = {"type": "blitz", "from": words[1], "to": words[2]}
                        sent |= {"state_id": state_id, "ref": 1}
                        counts["blitz"] += 1
                    else:
                        sent = {"type": "action", "action": action, "state_id": state_id, "ref": 1}
                sockets[seat].send_json(sent)
                while (answer := receive(seat))["type"] not in ("ack", "error"):
                    pass
                assert answer["type"] == "ack", (sent, answer)
            for seat in sockets:  # read what is left: the final states are scanned too
                while True:
                    message = receive(seat)
                    if message["type"] == "state" and message["state_id"] == live.state_id:
                        break
        finally:
            for socket in sockets.values():
                socket.__exit__(None, None, None)
    assert counts["blitz"] >= 3 and counts["undo"] >= 3, counts


# -- seats-timer: server notes, stand-in bots, resignations, the host token ------------------------------


@pytest.mark.parametrize(("edition", "game", "options", "seats"), GAMES)
def test_notes_and_stand_ins_keep_secrets(
    edition: str, game: str, options: dict[str, str], seats: str
) -> None:
    """Every human's clock runs out (the server plays for it, then a stand-in bot takes the seat),
    a player resigns; all through, no message depends on what its seat may not see, and no note
    names a card, a mission or a secret."""
    from risk.server import seats as seat_desk
    from risk.server.clock import run_out
    from risk.server.master import new_host

    now = [5_000_000.0]
    master = GameMaster(MemoryStorage(), clock=lambda: now[0])
    spec = _spec(edition, game, options, "h" * len(seats), seed=SEED_BASE + 2)
    spec.turn_time, spec.missed_turns, spec.stand_in = 30, 1, "quick"
    host = new_host(spec)
    record, created = master.create_game(spec)
    tokens = [c.token for c in created]
    live = master.live(record.id)
    rng = random.Random(9)
    checked = step = 0
    resigner = len(seats) - 1 if len(seats) >= 3 and game != "team" else None
    while not live.game.is_over:
        if step == 150 and resigner is not None:
            seat_desk.resign(master, record.id, tokens[resigner])
        elif (turn := master.bot_turn(record.id)) is not None:
            master.submit_as(record.id, turn[0], turn[2](), turn[1])
        else:
            now[0] = live.deadline  # type: ignore[assignment]
            assert run_out(master, record.id, live.state_id) is not None
        if step % 29 == 0:
            for seat in [-1, *range(live.game.humans)]:
                expected = master.state_message(record.id, seat)
                assert message_with(master, record.id, perturb(live.game, seat, rng), seat) == expected
                checked += 1
        step += 1
        assert step < 20_000
    final = master.state_message(record.id, -1)
    raw = json.dumps(final)
    assert all(t not in raw for t in [*tokens, host, str(SEED_BASE + 2)])
    assert {s["stand_in"] for s in final["seats"]} == {"quick"} and checked > 5
    texts = [n["text"] for n in final["notes"]]
    assert texts and all(n.startswith(("The clock ran out for", "Human")) for n in texts)
    cards = {live.game.board.card_name(c) for c in range(live.game.board.card_count)}
    assert not any(card in note.split() for note in texts for card in cards)


def test_stand_ins_host_and_resignations_over_the_websocket() -> None:
    """Seats handed to bots, by their players and by the host, and a resignation, in a game watched
    to its end by every seat and a spectator: no message holds a token (the host's included), the
    seed, or anything of another seat."""
    seed = SEED_BASE + 5
    app = create_app(MemoryStorage())
    with TestClient(app) as client:
        answer = client.post(
            "/api/games",
            json={
                "edition": "1993",
                "game": "secret-mission",
                "seats": [{"kind": "human", "name": f"Human {i + 1}"} for i in range(4)],
                "seed": seed,
                "bot_delay": 0,
                "defend_timeout": 0,
            },
        )
        assert answer.status_code == 201, answer.text
        created = answer.json()
        game_id, host = created["id"], created["host_token"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        sockets: dict[int | None, Any] = {}
        try:
            for seat in [0, 1, 2, None]:
                socket = client.websocket_connect(f"/api/games/{game_id}/ws").__enter__()
                socket.send_json({"type": "hello", "token": tokens[seat] if seat is not None else None})
                sockets[seat] = socket
            headers = {seat: {"Authorization": f"Bearer {token}"} for seat, token in tokens.items()}
            assert (
                client.post(
                    f"/api/games/{game_id}/replace",
                    json={"seat": 3},
                    headers={"Authorization": f"Bearer {host}"},
                ).status_code
                == 200
            )  # seat 3 has no page open
            for seat in (0, 1):
                assert (
                    client.post(
                        f"/api/games/{game_id}/stand-in", json={"on": True}, headers=headers[seat]
                    ).status_code
                    == 200
                )
            assert client.post(f"/api/games/{game_id}/resign", headers=headers[2]).status_code == 200
            for seat, socket in sockets.items():
                secrets = [str(seed), host] + [t for s, t in tokens.items() if s != seat]
                while True:
                    raw = socket.receive_text()
                    message = json.loads(raw)
                    scan(message, raw, seat, secrets)
                    if message.get("status") == "over":
                        break
        finally:
            for socket in sockets.values():
                socket.__exit__(None, None, None)
        notes = [n["text"] for n in message["notes"]]
        assert notes[:4] == [
            "The host handed Human 4's seat to the quick bot.",
            "Human 1 handed the seat to the quick bot.",
            "Human 2 handed the seat to the quick bot.",
            "Human 3 resigned.",
        ]


# -- chat and spectators (issue 13) -----------------------------------------------------------------


def test_team_chat_never_reaches_the_other_team_nor_spectators() -> None:
    """Team RISK played to the end by four humans while they chat in both channels: every message each
    socket receives is scanned as above, and each sees exactly the chat it may read."""
    import itertools

    app = create_app(MemoryStorage())
    master: GameMaster = app.state.master
    app.state.social.chat.clock = itertools.count(0, 100).__next__  # no rate limit in the way
    seed = SEED_BASE + 977
    with TestClient(app) as client:
        created = client.post(
            "/api/games",
            json={
                "edition": "2003",
                "game": "team",
                "seats": [{"kind": "human", "name": f"Human {i + 1}"} for i in range(4)],
                "seed": seed,
                "defend_timeout": 0,
            },
        ).json()
        game_id = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        live = master.live(game_id)
        teams = list(live.game.team)
        sockets: dict[int | None, Any] = {}
        heard: dict[int | None, list[str]] = {seat: [] for seat in [*tokens, None]}
        said: list[tuple[str, int | None]] = []  # (text, team or None for everyone)
        latest: dict[int | None, int] = dict.fromkeys(heard, -1)

        def receive(seat: int | None) -> dict[str, Any]:
            raw = sockets[seat].receive_text()
            message = json.loads(raw)
            scan(message, raw, seat, [str(seed)] + [t for s, t in tokens.items() if s != seat])
            assert message["type"] != "error", message
            if message["type"] == "chat":
                heard[seat].extend(m["text"] for m in message["messages"])
            elif message["type"] == "state":
                latest[seat] = message["state_id"]
            return message

        def may_hear(seat: int | None) -> list[str]:
            return [text for text, team in said if team is None or (seat is not None and teams[seat] == team)]

        try:
            for seat in heard:
                sockets[seat] = client.websocket_connect(f"/api/games/{game_id}/ws").__enter__()
                sockets[seat].send_json({"type": "hello", "token": tokens.get(seat), "chat_after": 0})
            deciders = {seat: make_bot("quick", seat) for seat in tokens}
            step = 0
            while not live.game.is_over:
                seat = live.game.to_act
                while not (
                    (m := receive(seat))["type"] == "state" and m["legal"] and m["state_id"] == live.state_id
                ):
                    pass
                if step % 9 == 0:
                    for channel in ("team", "all"):
                        text = f"{channel} word {step} from seat {seat}"
                        sockets[seat].send_json({"type": "chat", "text": text, "channel": channel})
                        said.append((text, teams[seat] if channel == "team" else None))
                view = View(live.game, seat)
                action = view.action_text(deciders[seat].choose(view))
                sockets[seat].send_json(
                    {"type": "action", "action": action, "state_id": m["state_id"], "ref": 1}
                )
                while receive(seat)["type"] != "ack":
                    pass
                step += 1
            for seat in sockets:
                while latest[seat] != live.state_id or len(heard[seat]) < len(may_hear(seat)):
                    receive(seat)
        finally:
            for socket in sockets.values():
                socket.__exit__(None, None, None)
        assert step > 50 and len(said) > 10
        for seat in heard:
            assert heard[seat] == may_hear(seat), seat
        assert not any(text.startswith("team") for text in heard[None])
        # Over HTTP the same: a spectator reads the "all" channel only.
        spectator = client.get(f"/api/games/{game_id}/chat").json()["messages"]
        assert [m["text"] for m in spectator] == may_hear(None)


def test_spectators_of_a_closed_game_get_nothing() -> None:
    """A game without spectators: a watcher's hello is answered by the refusal alone, no state."""
    app = create_app(MemoryStorage())
    with TestClient(app) as client:
        created = client.post(
            "/api/games",
            json={
                "edition": "1993",
                "game": "secret-mission",
                "seats": [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "quick"}] * 3,
                "seed": SEED_BASE,
                "spectators": False,
            },
        ).json()
        url = f"/api/games/{created['id']}/ws"
        with client.websocket_connect(url) as socket:
            socket.send_json({"type": "hello", "token": None, "chat_after": 0})
            raw = socket.receive_text()
            assert json.loads(raw)["code"] == "no-spectators"
            assert "mission" not in raw and "territories" not in raw
        for path in ("view", "chat", "record"):
            answer = client.get(f"/api/games/{created['id']}/{path}")
            assert answer.status_code == 403, path
            assert set(answer.json()) == {"error"}
