"""Game records: every record replays; a record that breaks the rules is refused with its line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogged import fogged_positions, fogged_rules
from risk.errors import RecordError, RulesError
from risk.play.simulate import play_game
from risk.record import (
    FOGGED_FOR,
    _format_chance,
    format_name,
    format_names,
    parse_names,
    read_header,
    read_record,
    replay_record,
    write_record,
)
from risk.rules.actions import Attack
from risk.rules.game import Game, Phase
from risk.rules.options import Rules
from risk.view import View


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
    # Without checking, the outcomes come from the record: a different seed gives the same game.
    other = text.replace("seed: 21", "seed: 12345")
    assert read_record(other, verify=False).owner == read_record(text).owner
    assert read_record(text).chance_from_seed and not read_record(other, verify=False).chance_from_seed
    # Checked (the default), the first chance line is not what seed 12345 gives.
    first = body_line(text, "~ first")
    with pytest.raises(RecordError, match=rf"^line {first + 1}: .*seed 12345"):
        read_record(other)


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


# -- a record that names a seed verifies its own chance lines ------------------------------------


def test_edited_dice_are_refused_at_their_line(finished: tuple[Game, str]) -> None:
    # Issue 11: a record whose dice were edited (`~ dice 5,4,2 2` made `~ dice 5,5,2 2`) replayed as
    # valid. The seed's generator rolls every die: the record must hold exactly those.
    _, text = finished
    lines = text.splitlines()
    index = next(
        i for i, line in enumerate(lines) if line.startswith("~ dice ") and line.split()[2].count(",") == 2
    )
    attack, defence = lines[index].split()[2:]
    dice = sorted(map(int, attack.split(",")), reverse=True)
    dice[1] = dice[0]  # a better second die: the battle is still legal, its outcome may change
    if dice == sorted(map(int, attack.split(",")), reverse=True):
        dice[2] = 1 if dice[2] != 1 else 2
        dice.sort(reverse=True)
    edited = with_line(text, index, f"~ dice {','.join(map(str, dice))} {defence}")
    with pytest.raises(RecordError, match=rf"^line {index + 1}: .*'{lines[index]}'") as caught:
        read_record(edited)
    assert caught.value.line == index + 1 and "seed 21" in str(caught.value)


@pytest.mark.parametrize("prefix", ["~ first", "~ draw", "~ deal", "~ missions"])
def test_every_kind_of_chance_line_is_checked(prefix: str) -> None:
    game, _ = play_game(Rules.preset("2008").for_game("secret-mission"), ["quick", "random", "quick"], 4)
    text = write_record(game)
    index = body_line(text, prefix)
    line = text.splitlines()[index]
    if prefix == "~ first":
        other = line[:-1] + str((int(line[-1]) + 1) % 3)
    elif prefix == "~ draw":
        drawn = {x.split()[2] for x in text.splitlines() if x.startswith("~ draw ")}
        card = next(c for c in ("wild1", "wild2", "alaska", "peru", "siam") if c not in drawn)
        other = f"~ draw {card}"
    else:  # a list: swap its first two items
        items = line.split()[2].split(",")
        items[0], items[1] = items[1], items[0]
        other = f"{prefix} {','.join(items)}"
    lines = with_line(text, index, other).replace("result: ", "result: unfinished #").splitlines()
    end = next(i for i in range(index + 1, len(lines)) if not lines[i].startswith("~"))
    edited = "\n".join(lines[:end]) + "\n"  # up to the edited line's outcomes: a legal record
    read_record(edited, verify=False)
    with pytest.raises(RecordError, match=rf"^line {index + 1}: ") as caught:
        read_record(edited)
    assert "seed 4" in str(caught.value)


def test_a_record_without_a_seed_replays_unverified(finished: tuple[Game, str]) -> None:
    game, text = finished
    study = text.replace("seed: 21\n", "")
    replayed = read_record(study)  # a hand-made position: nothing to check against
    assert replayed.owner == game.owner and not replayed.chance_from_seed
    # Written again, it still names no seed: its outcomes are not seed 0's.
    assert "seed:" not in write_record(replayed)
    assert read_record(write_record(replayed)).history == replayed.history


def test_dice_given_by_hand_are_not_credited_to_the_seed() -> None:
    game = Game("2008", 3, seed=5)
    while game.phase != Phase.ATTACK:
        game.apply(next(iter(game.legal_actions())))
    assert game.chance_from_seed and "seed: 5" in write_record(game)
    attack = next(a for a in game.legal_actions() if isinstance(a, Attack) and a.dice == 1)
    if game.armies[attack.target] == 1:
        game.apply_with_dice(attack, (6,), (1,))
    else:
        game.apply(attack)
        game.apply_with_dice("defend 1", (6,), (1,))
    assert not game.chance_from_seed  # the dice were given, not rolled by the seed's generator
    text = write_record(game)
    assert "seed:" not in text and read_record(text).history == game.history


# -- fog of war -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fogged() -> tuple[Game, str]:
    game, _ = play_game(fogged_rules("2008"), ["quick", "random", "quick"], 21)
    assert game.is_over
    return game, write_record(game)


def test_a_fogged_games_full_record_replays_with_the_same_fog(fogged: tuple[Game, str]) -> None:
    """After the end, the full record of a fogged game replays to the same game, state for state:
    every player's memory of the board and who witnessed each entry are rebuilt, not reset."""
    game, text = fogged
    assert "rules: 2008 fog=on\n" in text and f"seed: {game.seed}\n" in text
    assert FOGGED_FOR not in text
    replayed = replay_record(text)
    assert replayed.verified
    assert replayed.game.to_dict() == game.to_dict()
    assert replayed.game.seen_owner == game.seen_owner and replayed.game.witnessed == game.witnessed


def test_a_fogged_players_record_is_its_fogged_history_and_is_not_replayable(tmp_path: Path) -> None:
    game = next(g for g in fogged_positions(fogged_rules("2008"), 3, seed=4, every=1) if g.turn >= 12)
    for seat in range(3):
        text = write_record(game, viewer=seat)
        header, body = text.split("---\n")
        # No seed (it would give away the hidden board and hands); says whose record it is.
        assert "seed:" not in header
        assert header.endswith(f"{FOGGED_FOR}: {game.players[seat]}\nresult: unfinished\n")
        expected = [
            ("capital ?" if value is None else value.text(game.board))
            if kind == "action"
            else _format_chance(game.board, who, value)
            for kind, who, value in View(game, seat).public_history()
        ]
        assert body.splitlines() == expected
        assert len(expected) < len(write_record(game).split("---\n")[1].splitlines())  # entries left out
        path = tmp_path / f"seat-{seat}.txt"
        path.write_text(text)
        with pytest.raises(RecordError, match=f"line 5: this record was written for {game.players[seat]}"):
            replay_record(text)
        run = subprocess.run(
            [sys.executable, "-m", "risk", "replay", str(path)], capture_output=True, text=True, check=False
        )
        assert run.returncode == 2 and run.stdout == ""
        assert run.stderr == (
            f"risk: error: {path}: line 5: this record was written for {game.players[seat]} during a game "
            f"under fog of war: it leaves out what {game.players[seat]} did not see, so it cannot be "
            "replayed (the full record is written once the game is over)\n"
        )


def test_once_a_fogged_game_is_over_a_players_record_hides_only_the_usual_secrets(
    fogged: tuple[Game, str],
) -> None:
    game, text = fogged
    mine = write_record(game, viewer=0)
    assert FOGGED_FOR not in mine and "seed:" not in mine
    assert len(mine.splitlines()) == len(text.splitlines()) - 1  # every entry; only the seed line less


# ----------------------------------------------------------------------------------------------
# Player names in records (issue 36, item 7): any name round-trips; a header error names its line
# ----------------------------------------------------------------------------------------------
ODD_NAMES = ["A#n", "  spaced out ", "back\\slash", "名前 🎲", "Zoë\u00a0x", "#", "semi;colon: x"]


def test_names_with_a_hash_spaces_and_unicode_round_trip_through_a_record(
    finished: tuple[Game, str],
) -> None:
    game, text = finished
    winner = game.players[game.winner]
    for name in ODD_NAMES:
        names = [name, "Bob", "Cy"]
        assert read_record(write_record(Game(game.rules, names, seed=21))).players == tuple(names)
        # A finished game whose winner has the odd name: its result line reads back too.
        renamed = read_record(text)
        renamed.players = tuple(name if player == winner else player for player in renamed.players)
        renamed_text = write_record(renamed)
        replayed = read_record(renamed_text)
        assert replayed.players == renamed.players and replayed.winner == game.winner
        assert read_header(renamed_text).result == name


def test_plain_names_are_written_as_before_and_odd_ones_quoted() -> None:
    assert format_names(["Ann", "Bob", "Cy"]) == "Ann, Bob, Cy"  # the golden records' form
    assert format_names(["A#n", " Bob", "Cy"]) == '"A#n", " Bob", Cy'
    assert format_name('say "hi", \\ \n\x00') == '"say \\"hi\\", \\\\ \\u000a\\u0000"'
    assert parse_names("Ann, Bob ,Cy,") == ["Ann", "Bob", "Cy"]  # as records were always read
    with pytest.raises(RecordError, match=r"^line 4: the quoted name .* is not closed"):
        parse_names('"Ann, Bob', 4)
    with pytest.raises(RecordError, match=r"^line 4: the quoted name 'Ann' is followed by 'x, Bob', not a"):
        parse_names('"Ann" x, Bob', 4)


@settings(deadline=None, max_examples=300, database=None)
@given(st.lists(st.text(), min_size=1, max_size=6), st.text())
def test_any_names_round_trip_through_a_record_header(names: list[str], result: str) -> None:
    text = (
        f'risk-record 1\nrules: 2008\nplayers: {format_names(names)}   # a comment, "quoted" # too\n'
        f"result: {format_name(result)}\n---\n"
    )
    header = read_header(text)
    assert header.players == names
    assert header.result == result


def test_a_header_error_names_the_players_line(finished: tuple[Game, str]) -> None:
    game, text = finished
    one_player = text.replace(f"players: {', '.join(game.players)}", "players: A#n, Bob, Cy")
    with pytest.raises(RecordError, match=r"^line 4: the 2008 rules are for 3 to 5 players, not 1"):
        read_record(one_player)


def test_a_hash_in_a_name_saves_and_replays_from_the_command_line(tmp_path: Path) -> None:
    save = tmp_path / "h.risk"
    play = subprocess.run(
        [
            sys.executable,
            "-m",
            "risk",
            "play",
            "--names",
            "A#n,Bob,Cy",
            "--humans",
            "none",
            "--seed",
            "1",
            "--save",
            str(save),
        ],
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert play.returncode == 0, play.stderr
    assert 'players: "A#n", Bob, Cy' in save.read_text()
    replay = subprocess.run(
        [sys.executable, "-m", "risk", "replay", str(save)], capture_output=True, text=True, check=False
    )
    assert replay.returncode == 0 and replay.stderr == ""
    assert "valid record of" in replay.stdout


@settings(deadline=None, max_examples=200, database=None)
@given(st.text(min_size=1, max_size=12))
def test_any_name_a_game_takes_replays_from_its_record(name: str) -> None:
    names = [name, "Bob", "Cy"]
    try:
        game = Game(Rules.preset("2008"), names, seed=3)
    except RulesError as error:  # what the game refuses, it says why, naming the name
        assert repr(name) in str(error)
        assert name in ("Bob", "Cy") or not name.strip() or not name.isprintable() or set(name) & set(',"')
        return
    for _ in range(12):
        game.apply(next(iter(game.legal_actions())))
    assert read_record(write_record(game)).players == game.players
    assert read_record(write_record(game)).history == game.history


@pytest.mark.parametrize("name", ["A\nB", "tab\there", "bell\x07", "esc\x1b[31m", "A\u2028B", "A\udcffn"])
def test_a_name_that_cannot_be_shown_is_refused(name: str) -> None:
    with pytest.raises(RulesError, match="cannot be shown"):
        Game(Rules.preset("2008"), [name, "Bob", "Cy"], seed=1)
