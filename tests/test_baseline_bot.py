"""benchmarks/baseline_bot.py: a bot of another checkout, played through the protocol, plays exactly
as the same bot played in process (here the other checkout is this one)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from risk.play.tournament import GameJob, play_job
from risk.rules.options import Rules

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = ROOT / "benchmarks" / "baseline_bot.py"
SRC = ROOT / "src"


@pytest.mark.parametrize(
    ("bot", "rules"),
    [
        ("continental", Rules.preset("2008").with_options(game="secret-mission")),
        ("fortress", Rules.preset("2008").with_options(game="capital")),
        ("quick", Rules.preset("2003").with_options(game="mission")),
    ],
)
def test_protocol_bot_replays_the_in_process_bot(bot: str, rules: Rules) -> None:
    program = f"{PROGRAM} --baseline {SRC} --bot {bot}"
    seats_in_process = (bot, bot, bot)
    seats_with_program = (program, bot, bot)
    for seed in (5, 6):
        direct = play_job(GameJob(0, seed, seats_in_process, rules.describe(), "classic", 200, 10.0, None))
        remote = play_job(GameJob(0, seed, seats_with_program, rules.describe(), "classic", 200, 10.0, None))
        assert remote.log == []  # the program never failed or sent an illegal action
        assert (remote.winner_seat, remote.turns, remote.actions) == (
            direct.winner_seat,
            direct.turns,
            direct.actions,
        )


def test_refuses_a_folder_without_a_risk_package(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(PROGRAM), "--baseline", str(tmp_path), "--bot", "quick"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "is not a src folder holding a risk package" in done.stderr
