"""benchmarks/bench_players.py, small: eight accounts on two `risk serve` processes sign up, are matched
by quick match into two games of four and play them over their websockets; the figures it reports
say so, with no error. Its bad options are refused with what was wrong."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from pg import PgCluster

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
try:
    import bench_players
finally:
    sys.path.pop(0)


@pytest.mark.postgresql
def test_a_small_run_signs_up_matches_and_plays(
    postgres_cluster: PgCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    url = postgres_cluster.create_database("bench_players")
    argv = ["--players", "8", "--processes", "2", "--play-seconds", "6", "--think", "0.05,0.2"]
    argv += ["--poll", "0.5", "--every", "5", "--db", url, "--json"]
    assert bench_players.main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["errors"] == 0, result["error_kinds"]
    assert set(result["retried"]) <= {"poll"}  # only a GET is ever sent again
    assert result["sign_up"]["accounts"] == 8 and result["queue"]["joined"] == 8
    matching = result["matching"]
    assert matching["games"] == 2 and matching["players_placed"] == 8
    assert matching["matches_per_second"] > 0 and matching["wait_ms"]["count"] == 8
    assert matching["all_seen_placed_s"] is not None and matching["poll_ms"]["count"] >= 8
    play = result["play"]
    assert (
        play["actions"] > 10 and 0 < play["ack_ms"]["p50"] <= play["ack_ms"]["p99"] <= play["ack_ms"]["max"]
    )
    assert list(result["phases"]) == ["sign-up", "queue", "matching", "play"]
    assert 5 <= result["phases"]["play"]["seconds"] < 30
    assert result["machine"]["cores"] >= 1 and len(result["machine"]["load_before"]) == 3
    assert result["postgresql"] and result["processes"] == 2


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--players", "10", "--seats", "4"], "--players is a multiple of --seats (4)"),
        (["--processes", "9"], "--processes is from 1 to 8"),
        (["--db", "postgresql://risk:x@example.org/risk"], "whose host is this machine"),
        (["--think", "2,1"], "0 <= LOW <= HIGH"),
    ],
)
def test_bad_options_say_what_was_wrong(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench_players.main(argv) == 2
    assert said in capsys.readouterr().err
