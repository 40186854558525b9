"""Tournaments: seat rotation, replays, statistics, the JSON shape, the chart, and the commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from risk.bots import BOTS
from risk.cli.main import app as risk_app
from risk.cli.tournament import register
from risk.play.tournament import (
    GameResult,
    TournamentError,
    bradley_terry_ratings,
    run_tournament,
    schedule,
    wilson_interval,
)
from risk.record import replay_record_file
from risk.rules.game import Game
from risk.rules.options import Rules


def cli() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def main() -> None:
        """The risk command (test copy)."""

    register(app)
    return app


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli(), list(args))
    return result.exit_code, result.stdout, result.stderr


# -- statistics ---------------------------------------------------------------------------------
def test_wilson_interval() -> None:
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def game(index: int, seats: tuple[str, ...], winner_seat: int | None) -> GameResult:
    return GameResult(index, 1, seats, winner_seat, 10, 100, 0.1)


def test_ratings_order_by_results() -> None:
    results = [game(k, ("a", "b", "c"), 0 if k % 4 else 1) for k in range(40)]
    ratings = bradley_terry_ratings(["a", "b", "c"], results)
    assert ratings["a"] > ratings["b"] > ratings["c"]
    assert sum(ratings.values()) / 3 == pytest.approx(1500, abs=0.5)
    # Unfinished games change nothing.
    assert bradley_terry_ratings(["a", "b", "c"], [*results, game(41, ("a", "b", "c"), None)]) == ratings


def test_seats_rotate_fairly() -> None:
    jobs = schedule(["a", "b", "c", "d"], 8, 10, Rules.preset("2008"), "classic", 100, 1.0, None)
    for seat in range(4):
        assert sorted(job.seats[seat] for job in jobs) == ["a", "a", "b", "b", "c", "c", "d", "d"]
    assert [job.seed for job in jobs] == [10, 10, 10, 10, 11, 11, 11, 11]


# -- running ------------------------------------------------------------------------------------
def test_same_seed_same_tournament(tmp_path: Path) -> None:
    bots = ["search:2", "continental", "fortress"]
    one = run_tournament(bots, Rules.preset("2003"), 3, seed=4, workers=1)
    two = run_tournament(bots, Rules.preset("2003"), 3, seed=4, workers=2)
    assert [r.to_json() | {"seconds": 0} for r in one.results] == [
        r.to_json() | {"seconds": 0} for r in two.results
    ]
    assert [s.to_json() for s in one.standings] == [s.to_json() for s in two.standings]


def test_unfinished_games_count_for_nobody() -> None:
    result = run_tournament(["random", "random", "random"], Rules.preset("1993"), 2, max_turns=3)
    assert result.unfinished == 2
    assert all(standing.wins == 0 for standing in result.standings)


def turns_with_actions(record: Path) -> list[int]:
    """The turns in which a record's game has actions (0 is the setup), replayed from its seed."""
    replay = replay_record_file(record)
    game = Game(replay.game.rules, list(replay.game.players), seed=replay.seed, board=replay.game.board.name)
    turns = []
    for entry, _, action in replay.game.history:
        if entry == "action":
            turns.append(game.turn)
            game.apply(action)
    return sorted(set(turns))


def test_turn_cap_means_the_same_in_tournament_and_simulate(tmp_path: Path) -> None:
    # --max-turns N: at most N turns played (one player's turn each; the setup is turn 0), and
    # "turns" reports them, in both commands; the same game, capped, gives the same record.
    cap = 4
    code, stdout, stderr = invoke(
        "tournament",
        "--bots",
        "quick,random,quick",
        "--games",
        "1",
        "--seed",
        "7",
        "--max-turns",
        str(cap),
        "--json",
        "--out",
        str(tmp_path / "tournament"),
    )
    assert code == 0, stderr
    tournament_game = json.loads(stdout)["results"][0]
    simulated = CliRunner().invoke(
        risk_app,
        [
            "simulate",
            "--bots",
            "quick,random,quick",
            "--seed",
            "7",
            "--max-turns",
            str(cap),
            "--json",
            "--record",
            str(tmp_path / "simulate"),
        ],
    )
    assert simulated.exit_code == 0, simulated.stderr
    simulate_game = json.loads(simulated.stdout)["games"][0]
    assert tournament_game["winner"] is None and simulate_game["winner"] is None
    assert tournament_game["turns"] == simulate_game["turns"] == cap
    assert tournament_game["actions"] == simulate_game["actions"]
    tournament_record = Path(tournament_game["record"])
    simulate_record = tmp_path / "simulate" / "game-7.risk"
    assert tournament_record.read_text() == simulate_record.read_text()
    assert turns_with_actions(tournament_record) == list(range(cap + 1))
    # risk replay says the same of the record: the turn begun at the cap, with no action, is not counted
    replayed = CliRunner().invoke(risk_app, ["replay", str(tournament_record), "--json"])
    assert replayed.exit_code == 0, replayed.stderr
    assert json.loads(replayed.stdout)["turns"] == cap


def test_run_tournament_checks_its_arguments() -> None:
    with pytest.raises(TournamentError, match="no bot or level called"):
        run_tournament(["quick", "bogus", "quick"], Rules.preset("2008"), 1)
    with pytest.raises(ValueError, match="3 to 5 players"):
        run_tournament(["quick"] * 6, Rules.preset("2008"), 1)


def test_tournament_json_chart_and_records(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, stdout, stderr = invoke(
        "tournament",
        "--bots",
        "quick,random,fortress,continental",
        "--games",
        "8",
        "--workers",
        "2",
        "--seed",
        "3",
        "--json",
        "--out",
        str(out),
    )
    assert code == 0, stderr
    data = json.loads(stdout)
    fields = {"name", "label", "games", "wins", "win_rate", "ci95", "rating"}
    assert [set(bot) for bot in data["bots"]] == [fields] * 4
    assert {bot["name"] for bot in data["bots"]} == {"quick", "random", "fortress", "continental"}
    assert all(bot["label"] == bot["name"] for bot in data["bots"])  # a built-in bot is named as given
    for bot in data["bots"]:
        low, high = bot["ci95"]
        assert 0.0 <= low <= bot["win_rate"] <= high <= 1.0
        assert bot["games"] == 8
        assert bot["win_rate"] == pytest.approx(bot["wins"] / bot["games"], abs=1e-4)
    assert sum(bot["wins"] for bot in data["bots"]) + data["unfinished"] == 8
    ratings = [bot["rating"] for bot in data["bots"]]
    assert ratings == sorted(ratings, reverse=True)
    assert data["chance"] == 0.25 and len(data["results"]) == 8
    assert json.loads((out / "results.json").read_text())["bots"] == data["bots"]
    assert (out / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(list(out.glob("game-*.risk"))) == 8


def test_tournament_table(tmp_path: Path) -> None:
    code, stdout, _ = invoke(
        "tournament", "--bots", "quick,fortress,quick", "--games", "3", "--out", str(tmp_path)
    )
    assert code == 0
    assert "win rate" in stdout and "fortress" in stdout and "rating" in stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "quick,nobody,quick"], "no bot or level called 'nobody'; levels: easy, normal"),
        (["--bots", "hard:10,quick,quick"], "a level has its own settings"),
        (["--bots", "quick,,quick"], "has an empty name"),
        (["--bots", "quick,quick,./no-such-bot"], "no bot program at ./no-such-bot"),
        (["--bots", "quick,quick,quick", "--games", "zero"], "--games 'zero' must be a whole number"),
        (["--bots", "quick,quick,quick", "--workers", "0"], "--workers '0' must be a whole number, at least"),
        (["--bots", "quick,quick,quick", "--rules", "1066"], "no preset called '1066'"),
        (["--bots", "quick"], "rules are for 3 to 5 players"),
        (["--bots", "fortress:10,quick,quick"], "the fortress bot takes no budget"),
        (["--bots", "quick,quick,quick", "--time", "-1"], "--time must be positive"),
        ([], "--bots is required"),
    ],
)
def test_tournament_argument_errors(args: list[str], message: str, tmp_path: Path) -> None:
    code, stdout, stderr = invoke("tournament", *args, "--out", str(tmp_path))
    assert code == 2
    assert stdout == ""
    assert message in stderr
    assert len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr


def test_tournament_of_another_game(tmp_path: Path) -> None:
    code, stdout, stderr = invoke(
        "tournament",
        "--game",
        "two-player",
        "--bots",
        "continental,fortress",
        "--games",
        "2",
        "--json",
        "--out",
        str(tmp_path),
    )
    assert code == 0, stderr
    data = json.loads(stdout)
    assert data["rules"] == "2008 game=two-player" and data["seats"] == 2
    code, _, stderr = invoke("tournament", "--game", "chess", "--bots", "quick,quick", "--out", str(tmp_path))
    assert code == 2 and "no game called 'chess'" in stderr


def test_bots_command() -> None:
    code, stdout, _ = invoke("bots", "--json")
    assert code == 0
    listing = json.loads(stdout)
    assert [entry["name"] for entry in listing["bots"]] == list(BOTS)
    assert all(set(entry) == {"name", "description"} and entry["description"] for entry in listing["bots"])
    assert [entry["name"] for entry in listing["levels"]] == ["easy", "normal", "hard", "expert"]
    assert all(entry["bot"] in BOTS and entry["description"] for entry in listing["levels"])
    code, stdout, _ = invoke("bots")
    assert code == 0 and "continental" in stdout and "search" in stdout
    assert "expert" in stdout and "beginner" in stdout
