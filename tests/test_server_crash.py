"""Crash, any moment (issue 14, item 1), CI-sized: 8 games on a real `risk serve` process (2 in `make
test`, tests/tiers.py), played to the end by websocket clients and server bots, the server SIGKILLed 6
times (3) at seeded random moments
and started again on the same store. Every record is the one of the same games played without a kill,
and every action a client saw acknowledged is in the store, checked after each kill and at the end.
The long run (50 games, 20+ kills) is ``benchmarks/bench_crash.py``; both use tests/crash_harness.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from crash_harness import KINDS, SHORT_KINDS, game_setups, kills, run
from tiers import sizes

SEED = 14_001


@pytest.mark.parametrize(("games", "killed", "kinds"), sizes((2, 3, SHORT_KINDS), (8, 6, KINDS)))
def test_killed_at_random_moments_every_game_ends_as_without_a_kill(
    storage_url: str, tmp_path: Path, games: int, killed: int, kinds: tuple[tuple[str, str, str], ...]
) -> None:
    store = storage_url.split(":", 1)[0]
    report = run(storage_url, store, tmp_path, game_setups(games, SEED, kinds), kills(killed, SEED), SEED)
    assert report.problems == [], report.summary()
    assert report.kills == killed and len(report.restart_seconds) == killed
    assert report.finished == report.records_identical == games
    assert report.acknowledged_lost == 0
    # Every ack was checked against the store after each kill it lived through, and at the end.
    assert report.acknowledged > 125 * games and report.ack_checks > report.acknowledged
    # The kills fell between a commit and its ack too: actions sent again after the reconnection
    # were taken (the crash came first) or refused as already stored (the crash ate the ack).
    assert report.reconnections > 0 and report.resent_taken + report.resent_stored <= report.resent
