"""benchmarks/bench_goals.py: every goal table of issue 42 is listed with the command that plays its
games, each table's rules accept its seats, a small real run reports the subject's rate and verdict,
and an unknown table is refused with the names there are."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from risk.bots import is_bot_name
from risk.maps import load_map
from risk.play.tournament import parse_bot_list

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
try:
    import bench_goals
finally:
    sys.path.pop(0)


def test_every_table_is_listed_with_a_command_its_rules_accept(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_goals.main(["--list", "--workers", "2"]) == 0
    out = capsys.readouterr().out
    for goal in bench_goals.GOALS:
        assert f"{goal.name}: {goal.wanted()}" in out
        command = goal.command(goal.games, 2)
        assert command in out
        words = shlex.split(command)
        bots = parse_bot_list(words[words.index("--bots") + 1])
        assert bots == list(goal.bots) and goal.subject in bots and all(is_bot_name(bot) for bot in bots)
        goal.rules().check_player_count(len(bots), load_map("classic"))
        assert goal.games >= (
            100 if len(bots) == 6 and any(bot.startswith("expert") for bot in bots) else 200
        )
    names = {goal.name for goal in bench_goals.GOALS}
    assert {
        "rival-1993",
        "rival-2008",
        "six-hard",
        "six-old-expert",
        "six-new-expert",
        "six-experts",
    } <= names


def test_a_small_run_reports_the_rate_the_verdict_and_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "goals.json"
    assert bench_goals.main(["--only", "weak-2008", "--games", "3", "--json", str(out_file)]) == 0
    printed = capsys.readouterr().out
    assert (
        "risk tournament --bots hard,continental,continental --rules 2008 --games 3 --workers 1 --seed 1"
        in printed
    )
    (figures,) = json.loads(out_file.read_text())
    assert figures["table"] == "weak-2008" and figures["games"] == 3
    hard = next(bot for bot in figures["bots"] if bot["name"] == "hard")
    assert hard["games"] == 3 and 0 <= hard["wins"] <= 3
    expected = "short" if hard["wins"] / 3 < 0.9 else "met"
    assert figures["verdict"].startswith(expected)


def test_an_unknown_table_is_refused_with_the_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_goals.main(["--only", "six-hard,seven"]) == 2
    err = capsys.readouterr().err
    assert "no table called seven" in err and "rival-1993" in err
