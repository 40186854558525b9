"""tools/study_records.py reads a folder of tournament records and counts each bot's play."""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

from risk.play.tournament import run_tournament
from risk.record import read_record_file
from risk.rules.options import Rules

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from study_records import BotFigures, bot_of, record_seed, study_game


def test_bot_of_drops_the_seat_number() -> None:
    assert bot_of("search-2") == "search"
    assert bot_of("domination-hard-1") == "domination-hard"
    assert bot_of("Ann") == "Ann"


def test_study_counts_every_game_and_win(tmp_path: Path) -> None:
    result = run_tournament(["quick", "continental", "quick"], Rules.preset("2008"), 3, seed=4, out=tmp_path)
    figures: dict[str, BotFigures] = defaultdict(BotFigures)
    for path in sorted(tmp_path.glob("*.risk")):
        study_game(read_record_file(path), record_seed(path), figures)
    assert figures["quick"].games == 6 and figures["continental"].games == 3
    assert sum(f.wins for f in figures.values()) == 3 - result.unfinished
    for bot in ("quick", "continental"):
        summary = figures[bot].summary()
        assert figures[bot].turns > 0
        assert 0.0 <= float(summary["turns_without_conquest"]) <= 1.0  # type: ignore[arg-type]
        assert figures[bot].conquests >= figures[bot].turns - figures[bot].turns_without_conquest
    eliminations = sum(sum(f.eliminated.values()) for f in figures.values())
    assert eliminations == 2 * (3 - result.unfinished)  # each finished 3-player game eliminates two
