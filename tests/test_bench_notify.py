"""benchmarks/bench_notify.py, tiny: a few games, a few hundred moves in each variant, and the figures
it reports are sane (messages reached the SMTP server, every row queued is sent, skipped or a reminder
not due yet, the runs of each variant played the same moves)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
try:
    import bench_notify
finally:
    sys.path.pop(0)


def test_a_tiny_run_reports_sane_figures(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--games", "5", "--moves", "120", "--rounds", "2", "--step-every", "1", "--json"]
    assert bench_notify.main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 5 and result["variants"] == ["subscribed", "none", "absent"]
    runs = result["runs"]
    assert len(runs) == 6 and {r["moves"] for r in runs} == {120}
    # The rounds alternate the order of the variants.
    assert [r["variant"] for r in runs[:3]] != [r["variant"] for r in runs[3:]]
    for run in runs:
        assert run["us_per_move"] > 0 and run["actions_per_s"] > 0
        counts = run["outbox"]
        if run["variant"] != "subscribed":
            assert run["messages"] == 0 and counts == {}
            continue
        assert run["messages"] > 0 and run["events"] >= run["rows_queued"] > 0
        assert set(counts) <= {"sent", "skipped", "queued"}
        assert counts.get("queued", 0) == run["queued_not_due"]  # nothing due was left behind
        assert counts["sent"] >= run["messages"]  # and those of the start (the sweep), untimed
    summary = result["summary"]
    assert summary["sent_per_s"]["median"] > 0 and summary["queued_per_flush_s"]["median"] > 0
    low, high = summary["subscribed-none_us"]["min"], summary["subscribed-none_us"]["max"]
    assert low <= summary["subscribed-none_us"]["median"] <= high


def test_the_table_names_each_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_notify.main(["--games", "2", "--moves", "30", "--rounds", "1", "--no-absent"]) == 0
    out = capsys.readouterr().out
    assert "subscribed" in out and "none" in out and "absent" not in out.split("added")[0]
    assert "messages sent (received by the SMTP server)" in out


def test_bad_options_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_notify.main(["--games", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err
