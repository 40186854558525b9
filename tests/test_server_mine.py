""" "Your games" (docs/web.md, "Your games"): POST /api/mine answers every seat link a browser holds in
one request, each on its own line: whose move, the time left, and what happened since the browser
last looked, as that seat may see it (under fog of war, only what it saw); a wrong link is a line
that says so; a finished game is answered from its stored row without loading it."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from risk.server.app import create_app
from risk.server.live import LiveGame
from risk.server.master import GameMaster, GameSpec, SeatSpec
from risk.server.mine import HeldSeat, since_words, your_games
from risk.server.storage import MemoryStorage
from test_server_seats import Clock, new_game, until

DAY = 86_400.0


def mine(client: TestClient, seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    answer = client.post("/api/mine", json={"seats": seats})
    assert answer.status_code == 200, answer.text
    lines: list[dict[str, Any]] = answer.json()["seats"]
    return lines


def conquests_from(live: LiveGame, start: int, victim: str) -> dict[str, tuple[int, int]]:
    """Per conqueror, the conquests in the whole log since ``start`` and those from ``victim``."""
    counts: dict[str, tuple[int, int]] = {}
    for line in live.log[start:]:
        if line["kind"] == "conquest":
            name = live.game.players[line["seat"]]
            taken, from_victim = counts.get(name, (0, 0))
            counts[name] = (taken + 1, from_victim + line["text"].endswith(f" from {victim}."))
    return counts


def test_your_move_first_the_time_left_and_what_happened_since_you_looked() -> None:
    # Without the app's lifespan: no bot driver plays meanwhile, the test plays every move itself.
    client = TestClient(create_app(MemoryStorage()))
    master: GameMaster = client.app.state.master  # type: ignore[attr-defined]
    master.clock = Clock()
    first, first_tokens, _ = new_game(master, "hhb", seed=5, turn_time=DAY)
    other, other_tokens, _ = new_game(master, "hbb", seed=6)
    live = master.live(first)
    until(master, first, first_tokens, lambda live: live.game.turn >= 3 and live.game.to_act == 0)
    # One request for both games: seat 0 of the first game is to move, with the turn's whole day.
    lines = mine(
        client,
        [{"game": first, "token": first_tokens[0]}, {"game": first, "token": first_tokens[1]}],
    )
    assert [line["seat"] for line in lines] == [0, 1]
    assert lines[0]["yours"] is True and lines[0]["to_act"] == 0 and lines[0]["status"] == "playing"
    assert lines[1]["yours"] is False and lines[1]["to_act"] == 0
    assert lines[0]["left"] == DAY and lines[0]["since"] is None
    mark = lines[0]["mark"]
    assert mark == len(live.log)
    # Time passes; H1 (seat 1) conquers from H0 before H0 looks again.
    master.clock.now += 3600
    until(master, first, first_tokens, lambda live: "H1" in conquests_from(live, mark, "H0"))
    until(master, first, first_tokens, lambda live: live.game.to_act == 0)
    (line,) = mine(client, [{"game": first, "token": first_tokens[0], "seen": mark}])
    taken, from_me = conquests_from(live, mark, "H0")["H1"]
    words = "territory" if taken == 1 else "territories"
    said = [s for s in line["since"] if s.startswith("H1 took")]
    assert said and f"H1 took {taken} {words}" in said[0]
    assert ("from you" in said[0]) == (from_me > 0)
    assert line["mark"] == len(live.log) and line["yours"] is True
    # Nothing new since that mark.
    (again,) = mine(client, [{"game": first, "token": first_tokens[0], "seen": line["mark"]}])
    assert again["since"] == ["Nothing new."]
    # The second game: a one-human game is the human's move or the bot's, never a clock (none set).
    (solo,) = mine(client, [{"game": other, "token": other_tokens[0]}])
    assert solo["left"] is None and solo["players"][0] == "H0"


def test_a_wrong_link_is_a_line_of_its_own_and_the_rest_is_answered() -> None:
    with TestClient(create_app(MemoryStorage())) as client:
        master: GameMaster = client.app.state.master  # type: ignore[attr-defined]
        first, first_tokens, _ = new_game(master, "hhb", seed=5)
        other, other_tokens, _ = new_game(master, "hbb", seed=6)
        lines = mine(
            client,
            [
                {"game": first, "token": other_tokens[0]},  # another game's seat token
                {"game": "nosuchgame", "token": first_tokens[0]},
                {"game": first, "token": "x" * 32},
                {"game": other, "token": other_tokens[0]},
            ],
        )
        assert [line.get("error", {}).get("code") for line in lines] == [
            "bad-token",
            "not-found",
            "bad-token",
            None,
        ]
        assert lines[3]["seat"] == 0
        # Nothing of a wrong link's game is told: no seat, no players, no state.
        assert set(lines[0]) == {"game", "error"} and set(lines[1]) == {"game", "error"}


def test_bad_requests_are_refused_whole() -> None:
    with TestClient(create_app(MemoryStorage())) as client:
        for body in (
            {"seats": [{"game": "a", "token": "b"}] * 201},
            {"seats": [{"game": "a", "token": "b", "seen": -1}]},
            {"seats": [{"game": "a", "token": "b" * 129}]},
            {"seats": "a"},
            {},
        ):
            answer = client.post("/api/mine", json=body)
            assert answer.status_code == 422, body
            assert answer.json()["error"]["code"] == "bad-request"


def test_a_finished_game_is_answered_from_its_row_without_loading_it() -> None:
    master = GameMaster(MemoryStorage())
    game_id, tokens, _ = new_game(master, "hbb", seed=11)
    until(master, game_id, tokens, lambda live: live.game.is_over, limit=20_000)
    winner = master.live(game_id).game.outcome().winner  # type: ignore[union-attr]
    master.forget(game_id)
    (line,) = your_games(master, [HeldSeat(game_id, tokens[0] or "", seen=3)])
    assert master.loaded(game_id) is None
    assert line["status"] == "over" and line["winner"] == winner and line["yours"] is False
    assert line["since"] == ["you won" if winner == 0 else "the game is over"]


def test_under_fog_a_seat_is_told_only_what_it_saw() -> None:
    master = GameMaster(MemoryStorage())
    master.clock = Clock()
    spec = GameSpec(
        options={"fog": "on"},
        seats=[SeatSpec("human", "H0"), SeatSpec("human", "H1"), SeatSpec("bot", bot="quick")],
        seed=8,
        bot_delay=0,
        defend_timeout=0,
        turn_time=DAY,
    )
    record, created = master.create_game(spec)
    tokens = [c.token for c in created]
    live = master.live(record.id)
    until(master, record.id, tokens, lambda live: live.game.turn >= 4 and live.game.to_act == 0)
    (before,) = your_games(master, [HeldSeat(record.id, tokens[0] or "")])
    mark = before["mark"]
    assert mark == live.log.position_for(0, len(live.log)) < len(live.log)  # its own lines only
    whole = len(live.log)

    # Play on until the whole log holds a conquest that seat 0 did not see.
    def unseen_conquest(live: LiveGame) -> bool:
        _, seen_lines = live.log.seat_lines(0, mark)
        return sum(ln["kind"] == "conquest" for ln in live.log[whole:]) > sum(
            ln["kind"] == "conquest" for ln in seen_lines
        )

    until(master, record.id, tokens, lambda live: unseen_conquest(live) and live.game.to_act != 0)
    (line,) = your_games(master, [HeldSeat(record.id, tokens[0] or "", seen=mark)])
    _, seen_lines = live.log.seat_lines(0, mark)
    assert line["since"] == since_words(seen_lines, 0, live.game.players, cut=False)
    # During another player's turn, under fog, its clock is not told (as in the state message).
    assert line["left"] is None and line["yours"] is False
