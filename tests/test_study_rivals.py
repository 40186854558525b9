"""tools/study_rivals.py replays records of games against Domination's Hard AI and tells who
eliminated whom, where, with which cards, and what each seat did meanwhile (docs/bots.md, issue 42).

The records are three of ../shared/studies/strong-ai/ (t4-warlord-mixed-table, t4-6p-warlord-vs-five),
copied to tests/data/strong-ai/; the figures below are what replaying them shows, line for line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from risk.record import read_record_file

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "data" / "strong-ai"
sys.path.insert(0, str(ROOT / "tools"))

from study_rivals import report, study_folder, study_record, taken_from  # noqa: E402


def test_the_eliminations_of_a_three_player_game_are_the_replays() -> None:
    path = RECORDS / "mixed-game-0001-seed-1.risk"
    facts = study_record(path)
    assert facts.players == ["warlord-1", "continental-2", "domination-hard-3"]
    assert facts.winner == 2 == read_record_file(path).winner
    first, second = facts.eliminations
    # domination-hard-3 eliminates the warlord first, at its 4th turn, with its 3 cards: a hand of 6
    # it trades at once (line 427: "trade eastern-united-states yakutsk mongolia").
    assert (first.by, first.victim, first.turn, first.own_turn, first.line) == (2, 0, 12, 4, 424)
    assert (first.cards_taken, first.hand_after, first.traded_line, first.traded_same_turn) == (
        3,
        6,
        427,
        True,
    )
    assert path.read_text().splitlines()[first.line - 1] == "attack mongolia irkutsk 3"
    # then the weak seat, two turns later; the warlord had taken 4 of its territories while it was
    # prey (9 or fewer from turn 2), domination-hard 14.
    assert (second.by, second.victim, second.turn, second.line, second.prey_since) == (2, 1, 14, 486, 2)
    assert taken_from(facts, second, second.prey_since or 0) == {0: 4, 2: 14}


def test_a_six_player_turn_that_eliminates_two_players_with_their_cards() -> None:
    facts = study_record(RECORDS / "6p-game-0003-seed-1.risk")
    turn_56 = [
        (e.by, e.victim, e.line, e.cards_taken, e.traded_line) for e in facts.eliminations if e.turn == 56
    ]
    # domination-hard-3 takes domination-hard-1's 5 cards, trades two sets at once (lines 1174, 1175)
    # and goes on to eliminate the warlord in the same turn.
    assert turn_56 == [(2, 0, 1171, 5, 1174), (2, 3, 1217, 3, 1447)]
    assert facts.players[3] == "warlord-4"


def test_the_folder_figures_count_every_turn_and_elimination() -> None:
    games = study_folder(RECORDS)
    figures = report(games)
    wins = figures["wins"]
    assert isinstance(wins, dict)
    assert sum(int(w["wins"]) for w in wins.values()) == 3
    assert wins["domination-hard"]["wins"] == 3 and wins["domination-hard"]["seats"] == 7
    eliminations = figures["eliminations"]
    assert isinstance(eliminations, dict)
    # Two 3-player games (two eliminations each) and a 6-player one (five).
    assert sum(eliminations["pairs"].values()) == 2 + 2 + 5
    assert eliminations["first out"]["domination-hard > warlord"] == 2
    stopping = figures["stopping"]
    assert isinstance(stopping, dict)
    turns = sum(int(bot["turns"]) for bot in stopping.values())
    assert turns == sum(len(facts.turns) for facts in games)
    assert "full table" in figures  # a 6-player game is in the folder


def test_the_command_prints_the_figures_and_the_lines_to_read() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "study_rivals.py"), str(RECORDS), "--examples"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "mixed-game-0001-seed-1.risk:424: domination-hard-3 eliminates warlord-1 on turn 12" in done.stdout
    assert "traded that turn at mixed-game-0001-seed-1.risk:427" in done.stdout
    missing = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "study_rivals.py"), str(ROOT / "docs")],
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 2 and "no .risk records" in missing.stderr
