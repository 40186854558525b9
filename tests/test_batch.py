"""Batch simulation for data (risk.play.batch, `risk simulate --out`): the Parquet tables, their schema and
their agreement with the games played, parallel runs, failed games, and the one-line errors.

The Ray backend's own tests are in tests/test_ray.py.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import crashing_bot
from risk.bots import BOTS
from risk.cli.main import app
from risk.play.batch import GAME_FIELDS, TURN_FIELDS, simulate_to_parquet, turns_path
from risk.play.simulate import play_game
from risk.play.tournament import run_tournament
from risk.rules.options import Rules
from risk.view import SPECTATOR, View


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def crasher(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The crashing bot, known by name here and in forked pool workers."""
    monkeypatch.setitem(BOTS, crashing_bot.NAME, crashing_bot.CrashingBot)
    yield crashing_bot.NAME


def tables(path: Path) -> tuple[list[dict], list[dict]]:
    return pq.read_table(path).to_pylist(), pq.read_table(turns_path(path)).to_pylist()


def test_the_tables_describe_the_games_played(tmp_path: Path) -> None:
    rules = Rules.preset("2003")
    bots = ["quick", "random", "quick"]
    out = tmp_path / "runs.parquet"
    simulate_to_parquet(out, rules, bots, 4, seed=11, max_turns=40)
    games, turns = tables(out)
    assert [row["game"] for row in games] == [0, 1, 2, 3]
    for row in games:
        game, report = play_game(rules, bots, row["seed"], max_turns=40)
        assert row["seed"] == 11 + row["game"]
        assert (row["winner"], row["winner_bot"], row["turns"], row["actions"]) == (
            report.winner,
            report.winner_bot,
            report.turns,
            report.actions,
        )
        assert (row["bots"], row["rules"], row["board"], row["error"]) == (bots, "2003", "classic", None)
        own = [turn for turn in turns if turn["game"] == row["game"]]
        # A row per turn, the setup (0) to the last turn played; every action in one of them.
        assert [turn["turn"] for turn in own] == list(range(report.turns + 1))
        assert sum(turn["actions"] for turn in own) == report.actions
        assert own[0]["player"] is None and all(turn["player"] in range(3) for turn in own[1:])
        # The last row is the board as the game ended.
        view = View(game, SPECTATOR)
        last = own[-1]
        assert last["owner"] == list(view.owner) and last["armies"] == list(view.armies)
        assert last["seat_territories"] == list(view.territory_count)
        assert last["seat_cards"] == list(view.hand_sizes) and last["seat_alive"] == list(view.alive)
        assert sum(last["seat_armies"]) == sum(view.armies)
        if report.winner is not None:
            assert last["player"] == report.winner
            assert last["seat_territories"][report.winner] == len(view.board)


def test_the_schema_is_the_documented_one(tmp_path: Path) -> None:
    out = tmp_path / "runs.parquet"
    simulate_to_parquet(out, Rules.preset("2008"), ["quick", "quick", "quick"], 1, max_turns=5)
    documented = (Path(__file__).resolve().parents[1] / "docs" / "research.md").read_text()
    for path, fields in ((out, GAME_FIELDS), (turns_path(out), TURN_FIELDS)):
        schema = pq.read_schema(path)
        assert schema.names == [name for name, *_ in fields]
        for name, kind, nullable, doc in fields:
            field = schema.field(name)
            assert str(field.type).replace("element: ", "") == kind and field.nullable == nullable
            assert field.metadata[b"doc"].decode() == doc
            assert f"| `{name}` | `{kind}` |" in documented, f"docs/research.md does not list {name}"
        assert schema.metadata[b"risk.schema"] == b"1"


def test_workers_give_the_same_files(tmp_path: Path) -> None:
    rules = Rules.preset("1993").for_game("secret-mission")
    one, two = tmp_path / "one.parquet", tmp_path / "two.parquet"
    simulate_to_parquet(one, rules, ["quick"] * 4, 6, seed=3, max_turns=30)
    simulate_to_parquet(two, rules, ["quick"] * 4, 6, seed=3, max_turns=30, workers=2)
    assert one.read_bytes() == two.read_bytes()
    assert turns_path(one).read_bytes() == turns_path(two).read_bytes()


def test_the_command_writes_what_it_prints(tmp_path: Path) -> None:
    out = tmp_path / "deep" / "runs.parquet"  # the folder is created
    args = ("simulate", "--bots", "quick,random,quick", "--games", "3", "--seed", "5", "--max-turns", "50")
    args = (*args, "--json")
    code, printed, _ = run(*args, "--out", str(out), "--workers", "2", "--record", str(tmp_path / "records"))
    assert code == 0
    code, plain, _ = run(*args)
    assert code == 0
    summary = json.loads(printed)
    assert summary["games"] == json.loads(plain)["games"] and summary["out"] == str(out)
    games, turns = tables(out)
    assert [(g["seed"], g["turns"], g["actions"]) for g in games] == [
        (g["seed"], g["turns"], g["actions"]) for g in summary["games"]
    ]
    assert len(turns) == sum(g["turns"] + 1 for g in games)
    records = sorted(p.name for p in (tmp_path / "records").iterdir())
    assert records == ["game-5.risk", "game-6.risk", "game-7.risk"]
    assert sorted(p.name for p in out.parent.iterdir()) == ["runs.parquet", "runs.turns.parquet"]


def test_no_turns_writes_the_games_table_alone(tmp_path: Path) -> None:
    out = tmp_path / "runs.parquet"
    assert run("simulate", "--games", "2", "--max-turns", "5", "--out", str(out), "--no-turns")[0] == 0
    assert pq.read_table(out).num_rows == 2 and not turns_path(out).exists()


def test_a_failed_game_is_a_row_not_the_end(tmp_path: Path, crasher: str) -> None:
    out = tmp_path / "runs.parquet"
    played = simulate_to_parquet(out, Rules.preset("2008"), [crasher, "quick", "quick"], 3, seed=1, workers=2)
    games, turns = tables(out)
    assert [row["error"] for row in games] == [None, "RuntimeError: crashed on purpose", None]
    assert games[1]["winner"] is None and games[0]["winner"] is not None and games[2]["winner"] is not None
    assert {row["game"] for row in turns} == {0, 2}
    assert [game.error for game in played] == [row["error"] for row in games]
    code, printed, _ = run("simulate", "--bots", f"{crasher},quick,quick", "--games", "3", "--json")
    assert code == 0 and json.loads(printed)["failed"] == 1


def test_a_failed_tournament_game_counts_for_no_one(crasher: str) -> None:
    result = run_tournament([crasher, "quick", "random"], Rules.preset("2008"), 6, seed=1, workers=2)
    failed = [r for r in result.results if r.error is not None]
    assert len(failed) == 1 and failed[0].seed == crashing_bot.CRASH_SEED and failed[0].seats[0] == crasher
    assert failed[0].error == "RuntimeError: crashed on purpose"
    assert result.failed == 1 and result.to_json()["failed"] == 1
    assert any("failed: RuntimeError: crashed on purpose" in line for line in result.log)
    # The failed game's seats are not counted.
    assert sum(standing.games for standing in result.standings) == 5 * 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--out", "{tmp}/runs.csv"), "the file name must end in .parquet"),
        (("--out", "{tmp}/folder.parquet"), "is a folder"),
        (("--out", "{tmp}/file/runs.parquet"), "cannot create its folder"),
        (("--workers", "0"), "--workers must be at least 1"),
        (("--backend", "slurm"), "--backend 'slurm': choose local or ray"),
        (("--address", "10.0.0.1:6379"), "--address names a Ray cluster: it goes with --backend ray"),
        (("--backend", "ray", "--address", "nowhere"), "--address 'nowhere': give host:port"),
    ],
)
def test_bad_options_are_one_line_errors(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    (tmp_path / "folder.parquet").mkdir()
    (tmp_path / "file").write_text("not a folder")
    before = sorted(tmp_path.iterdir())
    code, _, err = run("simulate", "--games", "2", *(arg.format(tmp=tmp_path) for arg in args))
    assert code == 2 and err.startswith("risk: error: ") and message in err and err.count("\n") == 1
    assert sorted(tmp_path.iterdir()) == before  # nothing written


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_ray_not_installed_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, command: str
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails, as without the extra
    out = tmp_path / "n" / ("x.parquet" if command == "simulate" else "t")
    code, _, err = run(command, "--bots", "quick,quick,quick", "--backend", "ray", "--out", str(out))
    assert code == 2
    assert err == "risk: error: --backend ray needs Ray, which is not installed: pip install 'risk[ray]'\n"
    assert list(tmp_path.iterdir()) == []


def test_pyarrow_not_installed_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    code, _, err = run("simulate", "--games", "2", "--out", str(tmp_path / "x.parquet"))
    assert code == 2
    assert err == "risk: error: --out needs pyarrow, which is not installed: pip install 'risk[data]'\n"
    assert list(tmp_path.iterdir()) == []


def test_turns_path_takes_the_name_as_text_or_a_path() -> None:
    """docs/research.md reads the tables back with ``turns_path("runs.parquet")``."""
    assert turns_path("runs.parquet") == turns_path(Path("runs.parquet")) == Path("runs.turns.parquet")
    assert turns_path("data/missions.parquet") == Path("data/missions.turns.parquet")
