"""Crash, any moment (issue 14, item 1), CI-sized: 8 games on a real `risk serve` process, played to
the end by websocket clients and server bots, the server SIGKILLed 6 times at seeded random moments
and started again on the same store. Every record is the one of the same games played without a kill,
and every action a client saw acknowledged is in the store, checked after each kill and at the end.
The long run (50 games, 20+ kills) is ``benchmarks/bench_crash.py``; both use tests/crash_harness.py.
"""

from __future__ import annotations

from pathlib import Path

from crash_harness import game_setups, kills, run

GAMES = 8
KILLS = 6
SEED = 14_001


def test_killed_at_random_moments_every_game_ends_as_without_a_kill(storage_url: str, tmp_path: Path) -> None:
    store = storage_url.split(":", 1)[0]
    report = run(storage_url, store, tmp_path, game_setups(GAMES, SEED), kills(KILLS, SEED), SEED)
    assert report.problems == [], report.summary()
    assert report.kills == KILLS and len(report.restart_seconds) == KILLS
    assert report.finished == report.records_identical == GAMES
    assert report.acknowledged_lost == 0
    # Every ack was checked against the store after each kill it lived through, and at the end.
    assert report.acknowledged > 1000 and report.ack_checks > report.acknowledged
    # The kills fell between a commit and its ack too: actions sent again after the reconnection
    # were taken (the crash came first) or refused as already stored (the crash ate the ack).
    assert report.reconnections > 0 and report.resent_taken + report.resent_stored <= report.resent
