"""Game records: every record replays; a record that breaks the rules is refused with its line."""

from __future__ import annotations

import pytest

from risk.errors import RecordError
from risk.record import read_record, write_record
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.simulate import play_game


@pytest.fixture(scope="module")
def finished() -> tuple[Game, str]:
    game, _ = play_game(
        Rules.preset("2008").with_options(fortify="adjacent"), ["quick", "random", "quick"], 21
    )
    return game, write_record(game)


def test_every_record_replays_exactly() -> None:
    for preset in ("1993", "2003", "2008"):
        for seed in range(5):
            game, _ = play_game(Rules.preset(preset), ["quick", "random", "quick", "quick"], seed)
            replayed = read_record(write_record(game))
            assert replayed.history == game.history
            assert replayed.owner == game.owner and replayed.armies == game.armies
            assert replayed.hands == game.hands and replayed.deck == game.deck
            assert replayed.winner == game.winner
            # The replayed generator is where the original's was: a resumed game goes on identically.
            assert replayed._rng.getstate() == game._rng.getstate()


def test_header_keeps_overridden_options(finished: tuple[Game, str]) -> None:
    game, text = finished
    assert "rules: 2008 fortify=adjacent" in text
    assert read_record(text).rules == game.rules


def test_replay_needs_no_generator(finished: tuple[Game, str]) -> None:
    _, text = finished
    # A different seed in the header: the outcomes come from the record, so the game is the same.
    other = text.replace("seed: 21", "seed: 12345")
    assert read_record(other).owner == read_record(text).owner


def body_line(text: str, prefix: str, nth: int = 0) -> int:
    lines = text.splitlines()
    return [i for i, line in enumerate(lines) if line.startswith(prefix)][nth]


def with_line(text: str, index: int, new: str | None) -> str:
    lines = text.splitlines()
    if new is None:
        del lines[index]
    else:
        lines[index] = new
    return "\n".join(lines) + "\n"


def test_illegal_action_is_refused_with_its_line(finished: tuple[Game, str]) -> None:
    _, text = finished
    index = body_line(text, "claim ", 1)
    bad = with_line(text, index, "claim " + text.splitlines()[body_line(text, "claim ", 0)].split()[1])
    with pytest.raises(RecordError, match=rf"^line {index + 1}: .*already claimed"):
        read_record(bad)


def test_missing_and_extra_dice_are_refused(finished: tuple[Game, str]) -> None:
    _, text = finished
    index = body_line(text, "~ dice")
    with pytest.raises(RecordError, match="no 'dice' outcome"):
        read_record(with_line(text, index, None))
    duplicated = text.splitlines()
    duplicated.insert(index + 1, duplicated[index])
    with pytest.raises(RecordError, match=r"line \d+: .*does not lead to the chance outcome"):
        read_record("\n".join(duplicated) + "\n")
    with pytest.raises(RecordError, match=rf"line {index + 1}: dice show 1 to 6"):
        read_record(with_line(text, index, "~ dice 7 1"))


def test_wrong_result_and_malformed_header(finished: tuple[Game, str]) -> None:
    game, text = finished
    winner = game.players[game.winner]
    with pytest.raises(RecordError, match="the replay gives"):
        read_record(text.replace(f"result: {winner}", "result: nobody"))
    with pytest.raises(RecordError, match=r"^line 1: a record starts with"):
        read_record("hello\n")
    with pytest.raises(RecordError, match="no preset called"):
        read_record(text.replace("rules: 2008", "rules: 1850"))
    with pytest.raises(RecordError, match="unknown action"):
        read_record(text.replace("endturn", "fly away", 1))


def test_a_players_record_hides_other_draws(finished: tuple[Game, str]) -> None:
    game, _ = finished
    mine = write_record(game, viewer=0)
    assert "seed:" not in mine
    assert "~ draw ?" in mine
    drawn_by_me = [line for line in mine.splitlines() if line.startswith("~ draw ") and "?" not in line]
    assert drawn_by_me  # player 0 still sees its own draws
    with pytest.raises(RecordError, match="hides a card draw"):
        read_record(mine)
