"""The `risk` command: JSON contracts, determinism, one-line errors."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from risk.cli.main import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_map_json_contract() -> None:
    code, out, _ = run("map", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["territories"]) == 42
    assert {"name", "continent", "neighbours"} <= set(data["territories"][0])
    assert {k: data["continents"][5][k] for k in ("name", "bonus")} == {"name": "Australia", "bonus": 2}
    code, out, _ = run("map")
    assert code == 0 and "Kamchatka" in out


def test_rules_lists_presets_and_options() -> None:
    code, out, _ = run("rules", "--json")
    data = json.loads(out)
    assert code == 0 and set(data["presets"]) == {"1993", "2003", "2008"}
    assert data["presets"]["1993"]["fortify"] == "adjacent" and data["presets"]["2008"]["fortify"] == "chain"
    code, out, _ = run("rules", "global", "--option", "fortify=adjacent", "--json")
    assert json.loads(out)["presets"]["2003"]["fortify"] == "adjacent"


def test_simulate_is_deterministic_and_finishes() -> None:
    args = ("simulate", "--rules", "1993", "--players", "4", "--games", "3", "--seed", "5", "--json")
    first = run(*args)
    second = run(*args)
    assert first == second and first[0] == 0
    data = json.loads(first[1])
    assert [g["seed"] for g in data["games"]] == [5, 6, 7]
    assert all(g["winner"] is not None and g["turns"] > 0 for g in data["games"])


def test_simulate_turn_cap_reports_unfinished() -> None:
    code, out, _ = run("simulate", "--max-turns", "2", "--json")
    game = json.loads(out)["games"][0]
    assert code == 0 and game["winner"] is None


def test_simulate_records_replay(tmp_path) -> None:
    code, _, _ = run("simulate", "--games", "2", "--bots", "quick,random,quick", "--record", str(tmp_path))
    assert code == 0
    files = sorted(tmp_path.glob("*.risk"))
    assert len(files) == 2
    code, out, _ = run("replay", str(files[0]), "--json")
    assert code == 0 and json.loads(out)["valid"] is True


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "--players", "7"),
        ("simulate", "--rules", "1850"),
        ("simulate", "--bots", "deep-blue"),
        ("simulate", "--bots", "quick,quick", "--players", "3"),
        ("simulate", "--games", "0"),
        ("simulate", "--option", "fortify=teleport"),
        ("map", "atlantis"),
        ("rules", "1850"),
        ("replay", "/no/such/file.risk"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(args: tuple[str, ...]) -> None:
    code, out, err = run(*args)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("risk: error: ")
    assert "Traceback" not in out + err


def test_replay_refuses_a_bad_record(tmp_path) -> None:
    path = tmp_path / "bad.risk"
    path.write_text("risk-record 1\nrules: 2008\nplayers: a, b, c\n---\n~ first 0\nclaim atlantis\n")
    code, _, err = run("replay", str(path))
    assert code == 2 and "line 6" in err and "atlantis" in err


def test_two_player_bot_games_suggest_the_two_player_game() -> None:
    code, _, err = run("simulate", "--bots", "quick,continental", "--players", "2")
    assert code == 2 and "not 2" in err and "--game two-player" in err
    assert len(err.strip().splitlines()) == 1


def test_replay_checks_the_dice_against_the_seed(tmp_path) -> None:
    code, _, _ = run("simulate", "--games", "1", "--seed", "3", "--record", str(tmp_path))
    path = next(tmp_path.glob("*.risk"))
    text = path.read_text()
    code, out, _ = run("replay", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["dice_verified"] is True and data["seed"] == 3
    code, out, _ = run("replay", str(path))
    assert code == 0 and "dice verified against seed 3" in " ".join(out.split())
    # Edited dice (the attacker's lowest die made a 6): refused at that line.
    lines = text.splitlines()
    index = next(i for i, x in enumerate(lines) if x.startswith("~ dice ") and x.split()[2][-1] != "6")
    attack, defence = lines[index].split()[2:]
    dice = sorted([6, *map(int, attack.split(",")[:-1])], reverse=True)
    lines[index] = f"~ dice {','.join(map(str, dice))} {defence}"
    edited = tmp_path / "edited.risk"
    edited.write_text("\n".join(lines) + "\n")
    code, _, err = run("replay", str(edited))
    assert code == 2 and f"line {index + 1}:" in err and "seed 3" in err
    assert len(err.strip().splitlines()) == 1
    # Another seed: refused by default; --no-verify replays it and says the dice are unverified.
    other = tmp_path / "other.risk"
    other.write_text(text.replace("seed: 3\n", "seed: 4\n"))
    assert run("replay", str(other))[0] == 2
    code, out, _ = run("replay", str(other), "--no-verify", "--json")
    assert code == 0 and json.loads(out)["dice_verified"] is False
    code, out, _ = run("replay", str(other), "--no-verify")
    assert code == 0 and "dice unverified" in " ".join(out.split())
    # A record without a seed replays, and says its dice are unverified.
    study = tmp_path / "study.risk"
    study.write_text(text.replace("seed: 3\n", ""))
    code, out, _ = run("replay", str(study), "--json")
    data = json.loads(out)
    assert code == 0 and data["dice_verified"] is False and data["seed"] is None
    code, out, _ = run("replay", str(study))
    assert code == 0 and "dice unverified: the record names no seed" in " ".join(out.split())


def test_simulate_refuses_a_game_the_board_cannot_start(tmp_path) -> None:
    """A board without enough starting armies for its territories: no game could start (issue 36)."""
    from risk.maps.generate import generate_board

    data = generate_board(150, 12, 1)
    del data["players"], data["starting_armies"]  # the rules' 35 armies each, for 150 territories
    board = tmp_path / "wide.json"
    board.write_text(json.dumps(data))
    code, out, err = run("simulate", "--board", str(board), "--games", "2")
    assert code == 2 and out == ""
    assert (
        err.startswith("risk: error: 3 players with 35 starting armies each cannot claim the 150 territories")
        and err.count("\n") == 1
    )


def test_simulate_exits_non_zero_when_every_game_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    import risk.play.batch

    def broken(job: risk.play.batch.SimulationJob) -> risk.play.batch.SimulatedGame:
        raise RuntimeError("a bot broke")

    monkeypatch.setattr(risk.play.batch, "play_simulation", broken)
    code, out, err = run("simulate", "--games", "2", "--seed", "3")
    assert code == 1 and "failed: 2" in out
    assert err == "risk: error: every game failed (seed 3: RuntimeError: a bot broke)\n"
    code, out, err = run("simulate", "--games", "2", "--json")
    assert code == 1 and json.loads(out)["failed"] == 2 and err.startswith("risk: error: every game failed")


@pytest.mark.parametrize("command", [["play"], ["simulate"], ["replay"], ["board", "validate"]])
def test_help_shows_no_value_for_a_flag(command: list[str]) -> None:
    """A flag takes no value (`--hotseat true` is refused): its help line must not ask for one."""
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0 and "--help" in result.stdout
    assert "<bool>" not in result.stdout
