"""Clocks for long games (docs/web.md, "The turn clock"; issue 38, item 1): the clock in words, a time
bank per player used before the stand-in plays, vacations that pause a player's own clock, all stored
(a new master on the same store, as after a restart, goes on with them); bad values refused.

The master tests run on memory, SQLite and PostgreSQL (the ``storage`` fixture) with a clock of their own.
"""

from __future__ import annotations

import calendar
from typing import Any

import pytest
from fastapi.testclient import TestClient

from risk.server.clock import run_out
from risk.server.master import GameMaster
from risk.server.storage import Storage
from risk.server.timing import DAY, duration_words, moment_words, turn_words, vacation_words, wake_time
from risk.server.vacations import come_back, take_vacation
from test_server_seats import Clock, client, human_move, new_game, notes, until

__all__ = ["client"]  # the fixture, shared

HOUR = 3600.0


# -- words ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (0, "no time"),
        (1, "1 second"),
        (40.9, "40 seconds"),
        (60, "1 minute"),
        (5 * 60 + 59, "5 minutes 59 seconds"),
        (2 * HOUR + 30, "2 hours"),  # the two largest units in a row, rounded down
        (DAY + 3 * HOUR + 59 * 60, "1 day 3 hours"),
        (DAY + 20 * 60, "1 day"),
        (7 * DAY, "7 days"),
        (-5, "no time"),
    ],
)
def test_durations_in_words(seconds: float, words: str) -> None:
    assert duration_words(seconds) == words


def test_moments_and_turns_in_words() -> None:
    now = float(calendar.timegm((2026, 12, 6, 10, 0, 0)))  # Sun 6 Dec 2026 10:00 UTC
    tuesday = now + 2 * DAY + 4 * HOUR
    assert moment_words(tuesday, now) == "Tue 14:00 UTC"  # within the week: no date
    assert moment_words(now + 9 * DAY + 30 * 60, now) == "Tue 15 Dec 10:30 UTC"
    assert turn_words("Ann", DAY + 3 * HOUR, yours=True) == "your move: 1 day 3 hours left"
    assert turn_words("Ann", 300, in_bank=True) == "Ann's move: 5 minutes left (time bank)"
    assert vacation_words("Ann", tuesday, now) == f"Ann is on vacation until {moment_words(tuesday, now)}"


# -- the time bank -------------------------------------------------------------------------------------
def test_the_bank_is_used_before_the_stand_in_and_what_is_left_is_kept(storage: Storage) -> None:
    clock = Clock()
    master = GameMaster(storage, clock=clock)
    game_id, tokens, _ = new_game(master, "hbb", seed=5, turn_time=HOUR, time_bank=2 * HOUR, missed_turns=2)
    live = master.live(game_id)
    until(master, game_id, tokens, lambda live: live.game.to_act == 0)
    started = clock.now
    assert live.deadline == started + 3 * HOUR  # the turn's hour, then the bank's two
    entry = master.state_message(game_id, 0)["clock"]
    assert (entry["remaining"], entry["bank"], entry["in_bank"]) == (3 * HOUR, 2 * HOUR, False)
    # 30 minutes past the turn's own time: out of the bank; the server has not played.
    clock.now = started + HOUR + 1800
    assert run_out(master, game_id, live.state_id) is None
    entry = master.state_message(game_id, 0)["clock"]
    assert (entry["bank"], entry["in_bank"]) == (1.5 * HOUR, True)
    summary = master.summary(game_id)
    assert summary["clock"]["turn"]["words"] == "H0's move: 1 hour 30 minutes left (time bank)"
    # The player moves: their stretch ends, the half hour is charged and stored.
    while master.live(game_id).game.to_act == 0:
        human_move(master, game_id, tokens[0])
    stored = storage.get_game(game_id)
    assert stored is not None and stored.seats[0].clock["bank"] == pytest.approx(1.5 * HOUR)
    assert master.summary(game_id)["seats"][0]["bank"] == pytest.approx(1.5 * HOUR)
    # Next time the bank runs dry: the server plays for the seat only when it is used up.
    until(master, game_id, tokens, lambda live: live.game.to_act == 0)
    started = clock.now
    assert live.deadline == started + 2.5 * HOUR
    clock.now = started + 2.5 * HOUR - 1
    assert run_out(master, game_id, live.state_id) is None
    clock.now += 1
    assert run_out(master, game_id, live.state_id) is not None
    assert notes(storage, game_id)[-1].startswith("The clock ran out for H0")
    stored = storage.get_game(game_id)
    assert stored is not None and stored.seats[0].clock["bank"] == 0.0
    until(master, game_id, tokens, lambda live: live.game.to_act == 0)
    assert live.deadline == clock.now + HOUR  # no bank left: the turn's own time


# -- vacations -----------------------------------------------------------------------------------------
def test_a_vacation_moves_the_deadline_and_survives_a_restart(storage: Storage) -> None:
    clock = Clock()
    master = GameMaster(storage, clock=clock)
    game_id, tokens, _ = new_game(master, "hhb", seed=7, turn_time=DAY, vacation_days=5)
    until(master, game_id, tokens, lambda live: live.game.to_act == 0)
    live = master.live(game_id)
    deadline = live.deadline
    assert deadline is not None
    clock.now += HOUR
    answer = take_vacation(master, game_id, tokens[0], 3)
    assert answer["away_until"] == clock.now + 3 * DAY and answer["vacation_left"] == 2 * DAY
    assert live.deadline == deadline + 3 * DAY  # the clock stopped for the whole vacation
    assert (
        notes(storage, game_id)[-1]
        == f"H0 is on vacation until {moment_words(clock.now + 3 * DAY, clock.now)}."
    )
    summary = master.summary(game_id)
    assert summary["clock"]["vacations"] == [
        {
            "seat": 0,
            "name": "H0",
            "until": clock.now + 3 * DAY,
            "words": vacation_words("H0", clock.now + 3 * DAY, clock.now),
        }
    ]
    # A restart in the middle: a new master on the same store has the vacation and the deadline.
    clock.now += DAY
    restarted = GameMaster(storage, clock=clock)
    again = restarted.live(game_id)
    assert again.deadline == deadline + 3 * DAY
    row = storage.get_game(game_id)
    assert row is not None and wake_time(row) == deadline + 3 * DAY
    assert restarted.state_message(game_id, 1)["seat_clocks"][0]["away_until"] == clock.now + 2 * DAY
    # Back two days early: the unused days go back to the allowance, the deadline comes back by as much.
    back = come_back(restarted, game_id, tokens[0])
    assert back["away_until"] is None and back["vacation_left"] == 4 * DAY
    assert again.deadline == deadline + DAY
    assert notes(storage, game_id)[-1] == "H0 is back from vacation."
    assert restarted.summary(game_id)["clock"]["vacations"] == []
    # Still on time: the server does not play for the seat before the moved deadline.
    clock.now = deadline + DAY - 1
    assert run_out(restarted, game_id, again.state_id) is None
    clock.now += 1
    assert run_out(restarted, game_id, again.state_id) is not None


def test_a_turn_that_begins_during_a_vacation_starts_its_clock_at_the_return(storage: Storage) -> None:
    clock = Clock()
    master = GameMaster(storage, clock=clock)
    game_id, tokens, _ = new_game(master, "hhb", seed=7, turn_time=DAY, vacation_days=2)
    until(master, game_id, tokens, lambda live: live.game.to_act == 1)
    take_vacation(master, game_id, tokens[0], 1.5)  # H0 leaves during H1's stretch
    away_until = clock.now + 1.5 * DAY
    clock.now += 60
    while master.live(game_id).game.to_act == 1:
        human_move(master, game_id, tokens[1])
    until(master, game_id, tokens, lambda live: live.game.to_act in (0, 1))
    live = master.live(game_id)
    assert live.game.to_act == 0 and clock.now < away_until
    assert live.deadline == away_until + DAY
    assert master.summary(game_id)["clock"]["turn"]["remaining"] == pytest.approx(
        away_until + DAY - clock.now
    )


# -- refusals ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"turn_time": 60, "time_bank": -1}, "time_bank"),
        ({"turn_time": 60, "time_bank": 8 * DAY}, "time_bank"),
        ({"turn_time": 60, "vacation_days": 31}, "vacation_days"),
        ({"turn_time": 60, "vacation_days": -2}, "vacation_days"),
        ({"time_bank": 600}, "need a turn clock"),
        ({"vacation_days": 3}, "need a turn clock"),
        ({"turn_time": 60, "vacation_days": "3"}, "vacation_days"),
    ],
)
def test_bad_long_clock_settings_are_refused(client: TestClient, extra: dict[str, Any], words: str) -> None:
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "bot", "bot": "quick"},
        {"kind": "bot", "bot": "quick"},
    ]
    body = {"seats": seats, **extra}
    before = len(client.get("/api/games").json())
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 422 and words in answer.text
    assert len(client.get("/api/games").json()) == before  # nothing made


def test_bad_vacations_are_refused_and_change_nothing(client: TestClient) -> None:
    body = {
        "seats": [
            {"kind": "human", "name": "Ann"},
            {"kind": "human", "name": "Bob"},
            {"kind": "bot", "bot": "quick"},
        ],
        "turn_time": 3600,
        "vacation_days": 2,
    }
    made = client.post("/api/games", json=body).json()
    game_id, token = made["id"], made["seats"][0]["token"]
    url = f"/api/games/{game_id}/vacation"
    auth = {"Authorization": f"Bearer {token}"}

    def refused(json: Any, headers: dict[str, str], code: int, words: str) -> None:
        answer = client.post(url, json=json, headers=headers)
        assert answer.status_code == code and words in answer.text, answer.text
        assert client.get(f"/api/games/{game_id}").json()["seats"][0]["away_until"] is None

    refused({"days": 1}, {}, 403, "private link")
    refused({"days": 1}, {"Authorization": "Bearer nope"}, 403, "")
    refused({"days": 3}, auth, 422, "of vacation left")
    refused({"days": 0}, auth, 422, "")
    refused({"days": "1"}, auth, 422, "")
    refused({}, auth, 422, "give either")
    refused({"days": 1, "back": True}, auth, 422, "give either")
    refused({"back": True}, auth, 422, "not on vacation")
    taken = client.post(url, json={"days": 0.5}, headers=auth)
    assert taken.status_code == 200 and taken.json()["vacation_left"] == 1.5 * DAY
    again = client.post(url, json={"days": 0.5}, headers=auth)
    assert again.status_code == 422 and "come back first" in again.text
    assert client.post(url, json={"back": True}, headers=auth).status_code == 200

    no_vacations = client.post("/api/games", json={**body, "vacation_days": 0}).json()
    answer = client.post(
        f"/api/games/{no_vacations['id']}/vacation",
        json={"days": 1},
        headers={"Authorization": f"Bearer {no_vacations['seats'][0]['token']}"},
    )
    assert answer.status_code == 422 and "no vacations" in answer.text
