"""The live game's log window (risk.server.logwindow): memory holds the newest lines, positions stay
those of the whole log, and what a page is sent depends on the log only."""

from __future__ import annotations

import pytest

from risk import View
from risk.bots import make_bot
from risk.server.logwindow import HELD, PAGE, SLACK, LogWindow
from risk.server.master import GameMaster, GameSpec, SeatSpec
from risk.server.storage import MemoryStorage


def lines(start: int, stop: int) -> list[dict[str, object]]:
    return [{"text": f"line {n}", "kind": "info", "seat": -1} for n in range(start, stop)]


def test_positions_count_from_the_start_of_the_whole_log() -> None:
    log = LogWindow(lines(0, HELD + SLACK + 1))
    log.trim()
    assert log.base == SLACK + 1 and len(log) == HELD + SLACK + 1 and len(list(log)) == HELD
    assert log[log.base]["text"] == f"line {log.base}" and log[-1]["text"] == f"line {HELD + SLACK}"
    newest = [line["text"] for line in log[len(log) - 2 :]]
    assert newest == [f"line {HELD + SLACK - 1}", f"line {HELD + SLACK}"]
    assert log[0:] == list(log)  # from before the window: what is held
    with pytest.raises(IndexError, match="no longer held"):
        log[3]
    del log[len(log) - 5 :]  # an undo cuts back
    assert len(log) == HELD + SLACK - 4 and log[-1]["text"] == f"line {HELD + SLACK - 5}"
    with pytest.raises(IndexError, match="cannot cut the log back"):
        del log[2:]
    with pytest.raises(ValueError, match="cut back from a position to its end"):
        del log[2:4]


def test_lines_are_dropped_in_batches_and_never_before_an_undo_point() -> None:
    log = LogWindow(lines(0, HELD + SLACK))
    log.trim()
    assert log.base == 0  # not yet: SLACK lines pile up first
    log.append(lines(HELD + SLACK, HELD + SLACK + 1)[0])
    log.trim(keep_from=700)  # an undo may cut back to 700: the PAGE lines before it stay
    assert log.base == 700 - PAGE
    log.trim(keep_from=None)
    assert log.base == 700 - PAGE  # once the undo point is gone, SLACK lines pile up again first
    log.extend(lines(len(log), len(log) + SLACK))
    log.trim(keep_from=None)
    assert log.base == len(log) - HELD


def test_a_page_gets_the_newest_lines_of_a_long_game_and_the_same_after_a_reload() -> None:
    storage = MemoryStorage()
    master = GameMaster(storage)
    spec = GameSpec(seats=[SeatSpec("human", f"P{i}") for i in range(3)], seed=11, bot_delay=0)
    record, _ = master.create_game(spec)
    live = master.live(record.id)
    bots = [make_bot("quick", seat) for seat in range(3)]
    while len(live.log) < HELD + SLACK + PAGE and not live.game.is_over:
        seat = live.game.to_act
        view = View(live.game, seat)
        master.submit_as(record.id, seat, view.action_text(bots[seat].choose(view)), live.state_id)
        assert len(list(live.log)) <= HELD + SLACK  # memory holds a window, however long the game
    assert live.log.base > 0, "the game ended too soon to test a long log"
    whole = len(live.log)
    fresh = master.state_message(record.id, 0)
    assert fresh["log_start"] == whole - PAGE and len(fresh["log"]) == PAGE
    assert fresh["log"][-1] == live.log[-1]
    behind = master.state_message(record.id, 0, log_start=whole - 3)  # a page that has all but 3
    assert behind["log_start"] == whole - 3 and behind["log"] == live.log[whole - 3 :]
    far_behind = master.state_message(record.id, 0, log_start=5)
    assert far_behind["log_start"] == whole - PAGE
    reloaded = GameMaster(storage)  # a restart rebuilds the whole log, then drops its old lines
    for seat in (-1, 0, 1, 2):
        assert reloaded.state_message(record.id, seat) == master.state_message(record.id, seat)
