"""Output sent to a pipe (not a terminal) is never cut or wrapped: every long line arrives whole.

Each command runs in a child process whose standard output is a pipe, with COLUMNS=40: a console
fitted to any width would cut the table cells ("…") and wrap the long lines checked here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from risk.bots import BOTS, LEVELS
from risk.maps import load_map
from risk.rules.options import OPTIONS, PRESETS

NARROW = {**os.environ, "COLUMNS": "40"}


def piped(*args: str, code: int = 0) -> tuple[list[str], list[str]]:
    """The lines of standard output and error of `risk ARGS`, both sent to pipes."""
    done = subprocess.run(
        [sys.executable, "-m", "risk", *args],
        capture_output=True,
        text=True,
        env=NARROW,
        stdin=subprocess.DEVNULL,
        timeout=300,
    )
    assert done.returncode == code, done.stderr
    assert "…" not in done.stdout  # no cell cut short
    return done.stdout.splitlines(), done.stderr.splitlines()


def line_with(lines: list[str], *parts: str) -> str:
    """The one line holding every part, in order: they were printed on one line, so they arrive on one."""
    found = [line for line in lines if all(part in line for part in parts)]
    assert found, f"no line holds all of {parts}"
    return found[0]


def test_rules_arrive_whole() -> None:
    lines, _ = piped("rules")
    for name, info in OPTIONS.items():
        key = name.replace("_", "-")
        choices = f" ({' | '.join(info.choices)})" if info.choices else ""
        assert f"{key}{choices}: {info.description}." in lines
        assert f"  {info.source}" in lines
        row = line_with(lines, f"│ {key} ")
        assert all(f" {preset.option_values()[key]} " in row for preset in PRESETS.values())


def test_the_replay_verdict_is_one_line(tmp_path: Path) -> None:
    folder = tmp_path / ("a-folder-with-a-long-name-" * 3)
    piped("simulate", "--max-turns", "3", "--seed", "8", "--record", str(folder))
    record = next(folder.glob("*.risk"))
    lines, _ = piped("replay", str(record))
    assert len(lines) == 1 and lines[0].startswith(f"{record}: valid record of ")
    assert lines[0].endswith("dice verified against seed 8")


def test_the_map_arrives_whole() -> None:
    lines, _ = piped("map")
    board = load_map("classic")
    for territory in board.territories:
        neighbours = ", ".join(board.name_of(n) for n in board.neighbours[territory.index])
        line_with(lines, f" {territory.name} ", neighbours)


def test_bots_arrive_whole() -> None:
    lines, _ = piped("bots")
    for level in LEVELS.values():
        line_with(lines, f" {level.name} ", f" {level.bot} ", level.description)
    for name, bot in BOTS.items():
        line_with(lines, f" {name} ", bot.description)


def test_odds_arrive_whole() -> None:
    path = ",".join(str(n) for n in range(1, 31))
    lines, _ = piped("odds", "200", "--chain", path)
    line_with(
        lines,
        "Chain: 200 fighting armies (the territory holds 201) through territories defended by "
        + ", ".join(path.split(",")),
    )
    lines, _ = piped("odds", "30", "20", "--stop", "3")
    line_with(
        lines,
        "Invasion: 30 fighting armies (the territory holds 31) against 20 defenders; "
        "the attacker stops at 3 or fewer",
    )


def test_simulate_arrives_whole() -> None:
    bots = ["continental", "beginner", "continental", "beginner", "continental", "beginner"]
    lines, _ = piped("simulate", "--rules", "1993", "--bots", ",".join(bots), "--max-turns", "2")
    line_with(lines, f"1 game(s), rules 1993, bots {', '.join(bots)}")


def test_tournament_table_and_log_arrive_whole(tmp_path: Path) -> None:
    # A bot program that says nothing: the tournament logs it (on stderr) and plays on.
    mute = tmp_path / "a-bot-that-says-nothing-and-leaves.py"
    mute.write_text("import sys\nsys.exit(0)\n")
    out = tmp_path / ("tournament-output-folder-" * 3)
    lines, errors = piped(
        "tournament", "--bots", f"{mute},quick,quick", "--games", "1", "--max-turns", "3", "--out", str(out)
    )
    line_with(lines, "unfinished: ", f"; records, results.json and chart.png in {out}")
    results = json.loads((out / "results.json").read_text())
    for standing in results["bots"]:
        line_with(lines, f"│ {standing['name']} ", f" {standing['wins']} ")
    assert results["log"] and all(f"risk: {line}" in errors for line in results["log"])
    # and nothing else on stderr: a long program path fits the chart without a layout warning
    assert [line for line in errors if line.strip() and not line.startswith("risk: ")] == []
