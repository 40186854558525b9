"""The terminal game: a PlaySession driven line by line, the `play` command, and a real terminal."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
import typer
from rich.console import Console
from rich.style import Style
from rich.text import Text
from typer.testing import CliRunner

from positions import make_position
from risk.bots import make_bot
from risk.record import read_record, read_record_file
from risk.rules.actions import Fortify
from risk.rules.game import Game, Phase
from risk.rules.options import Rules
from risk.rules.variants.team import recontrol
from risk.tui.command import load_game, register
from risk.tui.render import (
    HEADQUARTERS_MARK,
    NEUTRAL_COLOUR,
    TIED_STYLE,
    ClearScreen,
    MapView,
    Palette,
    mission_text,
    render_text,
)
from risk.tui.rounds import rounds_played
from risk.tui.session import DEFAULT_NAMES, PlaySession, make_seats
from risk.view import View

PLAYERS = ["Ann", "Bob", "Cy"]


def new_session(
    seed: int, tmp_path: Path, kinds: tuple[str, ...] = ("human", "quick", "quick"), **options: object
) -> PlaySession:
    game = Game(Rules.preset("2008"), PLAYERS[: len(kinds)], seed=seed)
    return PlaySession(game, make_seats(kinds, seed), directory=tmp_path, **options)  # type: ignore[arg-type]


def unwrapped(output: str) -> str:
    """Output as one line: rich wraps long lines at spaces (kept) or inside long words."""
    return output.replace("\n", "")


def squashed(text: str) -> str:
    """Text without any whitespace: for lines holding a temporary path, whose length moves the wrap
    (rich may drop the space it wraps at)."""
    return re.sub(r"\s+", "", text)


def say(session: PlaySession, line: str, width: int = 80) -> str:
    """Send one line and return the screen text it produced (rendered, so rendering is tested too)."""
    return render_text(session.handle(line), width)


def helper_line(session: PlaySession, helper_seed: int = 99) -> str:
    """What a quick bot would type for the human who must act, in the action notation."""
    game = session.game
    bot = make_bot("quick", helper_seed)
    return bot.choose(View(game, game.to_act)).text(game.board)


def play_on(session: PlaySession, until: object = None, limit: int = 20_000) -> None:
    """Answer every question with the helper bot's move, until ``until(session)`` or the end."""
    for _ in range(limit):
        if session.finished or (callable(until) and until(session)):
            return
        say(session, helper_line(session))
    raise AssertionError("the game did not finish")


@pytest.fixture(autouse=True)
def data_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Saved games go to a throwaway data folder, never the user's (platformdirs reads XDG_DATA_HOME)."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    return folder


# -----------------------------------------------------------------------------------------------
# whole games
# -----------------------------------------------------------------------------------------------
def test_a_whole_game_through_the_interface_with_noise(tmp_path: Path) -> None:
    """Every human decision typed as text, with illegal lines, screens and a save along the way."""
    session = new_session(3, tmp_path)
    opening = render_text(session.start())
    assert "claim NAME" in opening and session.prompt == "Ann claim> "
    game = session.game
    noise = [
        "attack alaska kamchatka 3",
        "fly to the moon",
        "place atlantis 3",
        "help",
        "map",
        "hand",
        "players",
        "odds 3 2",
        "log",
        "12345",
    ]
    refusals = 0
    steps = 0
    while not session.finished:
        if steps % 4 == 0:
            line = noise[(steps // 4) % len(noise)]
            before = game.to_dict()
            screen = say(session, line)
            assert game.to_dict() == before, f"{line!r} changed the game"
            assert screen.strip(), f"{line!r} printed nothing"
            refusals += "Not allowed" in screen or "Not understood" in screen
        if steps == 100:
            assert "Saved to" in say(session, f"save {tmp_path / 'middle.risk'}")
        if not session.finished:
            say(session, helper_line(session))
        steps += 1
        assert steps < 20_000
    assert game.winner is not None
    assert refusals >= 5
    record_path = session.save_file  # saved as it went, in the session's folder
    assert session.record_path == record_path and record_path.parent == tmp_path
    replayed = read_record(record_path.read_text(encoding="utf-8"))
    assert replayed.winner == game.winner and replayed.history == game.history
    middle = read_record_file(tmp_path / "middle.risk")
    assert middle.history == game.history[: len(middle.history)]


def test_bots_turns_are_summarised_in_one_line_each(tmp_path: Path) -> None:
    session = new_session(5, tmp_path, auto_defend=True)
    session.start()
    say(session, "auto")  # the computer plays Ann's setup
    screens = []
    play_on(session, until=lambda s: s.game.turn > 6 and s.game.current == 0)
    screens.append(say(session, "log 20"))
    text = "".join(screens)
    assert re.search(r"Bob: (traded a set for \d+; )?reinforced \+\d+ \(", text)
    assert re.search(r"Cy: .*reinforced \+\d+", text)
    # One line per turn in the journal: no per-roll dice in bots' summaries.
    assert all(" against " not in line.plain for line in session.journal)


def test_when_every_human_is_out_the_bots_finish_quietly(tmp_path: Path) -> None:
    session = new_session(3, tmp_path, auto_defend=True)
    session.start()
    say(session, "auto")
    screens = []
    while not session.finished:
        # A passive human: places everything on one territory and never attacks.
        game = session.game
        if game.phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE) and not game.must_trade():
            line = f"place {game.board.slug_of(game.territories_of(game.to_act)[0])}"
        elif game.phase == Phase.ATTACK or game.phase == Phase.FORTIFY:
            line = "end"
        else:
            line = helper_line(session)
        screens.append(say(session, line))
    text = "".join(screens)
    assert "Ann is eliminated" in text
    assert "No human player is left" in text
    assert session.game.winner in (1, 2)
    assert "wins the world" in text


# -----------------------------------------------------------------------------------------------
# the other games: Secret Mission, Capital, 2-player and Mission RISK
# -----------------------------------------------------------------------------------------------
def game_session(
    preset: str, name: str, kinds: tuple[str, ...], seed: int, tmp_path: Path, **options: str
) -> PlaySession:
    game = Game(Rules.preset(preset).for_game(name).with_options(**options), PLAYERS[: len(kinds)], seed=seed)
    return PlaySession(game, make_seats(kinds, seed), directory=tmp_path)


def play_to_the_end(session: PlaySession, extra: dict[str, str] | None = None) -> str:
    """Every human decision typed as the helper bot's move; ``extra`` lines are typed once each,
    the first time the prompt contains their key. Returns all the screens."""
    screens = [render_text(session.start(), 200)]
    pending = dict(extra or {})
    for _ in range(20_000):
        if session.finished:
            return "".join(screens)
        for key in [k for k in pending if k in session.prompt]:
            screens.append(say(session, pending.pop(key), 200))
        screens.append(say(session, helper_line(session), 200))
    raise AssertionError("the game did not finish")


GAME_CASES = [
    # preset, game, players, seed, what the screens must say
    ("1993", "secret-mission", 3, 5, ["secret mission: ", "completes the secret mission and wins in round"]),
    ("2008", "capital", 3, 5, ["All headquarters are chosen: Ann ", "holding the headquarters"]),
    ("1993", "two-player", 2, 5, ["place a Neutral army", ": eliminated the opponent (the neutral"]),
    ("2003", "two-player", 2, 5, ["place a Neutral 4 army", ": eliminated the opponent (the neutral"]),
    ("2003", "mission", 3, 2, ["Mission claimed: ", "completes all four missions and wins"]),
]


@pytest.mark.parametrize(("preset", "name", "players", "seed", "expected"), GAME_CASES)
def test_every_game_plays_to_a_winner_through_the_session(
    tmp_path: Path, preset: str, name: str, players: int, seed: int, expected: list[str]
) -> None:
    session = game_session(preset, name, ("human",) + ("quick",) * (players - 1), seed, tmp_path)
    game = session.game
    text = play_to_the_end(session, {"reinforce": "missions", "attack": "mission"})
    assert game.winner is not None
    for phrase in expected:
        assert phrase in text, phrase
    # The seats line names the players only, never the neutral armies.
    assert session.record_path is not None and session.record_path.parent == tmp_path
    record = session.record_path.read_text(encoding="utf-8")
    assert "# risk play seats: " + ",".join(["human"] + ["quick"] * (players - 1)) in record.splitlines()
    replayed = read_record(record)
    assert replayed.winner == game.winner and replayed.history == game.history
    if name == "secret-mission":
        mission = game.missions[0]
        shown = mission_text(mission.key, mission.text, session.palette).plain if mission else ""
        assert mission is not None and f"Ann's secret mission: {shown}" in text
        assert "Missions: Ann: " in text  # everyone's mission is shown at the end
    if name == "mission":
        # `missions` (and `mission` with nothing to claim) list the cards with rank and timing.
        assert "Ann's mission cards (0 of 4 claimed)" in text and "Captain " in text
        assert "end of turn" in text and "not yet" in text and "Bob claimed 0: none" in text


def test_capital_choices_stay_secret_between_hotseat_players(tmp_path: Path) -> None:
    session = game_session("2008", "capital", ("human", "human", "quick"), 2, tmp_path)
    game = session.game
    session.start()
    play_on(session, until=lambda s: s.game.phase == Phase.CHOOSE_CAPITAL and s.seats[s.game.to_act].is_human)
    first = game.to_act
    second = 1 - first
    assert session.prompt == f"{PLAYERS[first]} headquarters> "
    choice = max(game.territories_of(first), key=lambda t: game.armies[t])
    output = session.handle(f"capital {game.board.slug_of(choice)}")
    if game.phase == Phase.CHOOSE_CAPITAL:  # the other human chooses next, bots between
        assert game.to_act == second
        # The screen is cleared before anything else is shown; nothing marks the first choice.
        assert isinstance(output[0], ClearScreen)
        text = render_text(output, 200)
        assert "Headquarters chosen (secret until everyone has chosen)" in text
        assert f"{PLAYERS[second]}'s move: pass the keyboard" in text
        assert HEADQUARTERS_MARK not in text
        assert "choose your headquarters (secret until everyone has chosen)" in text
        assert HEADQUARTERS_MARK not in say(session, "map", 200)
        assert "All headquarters" not in "".join(render_text([line]) for line in session.journal)
        other = game.territories_of(second)[0]
        output = session.handle(f"capital {game.board.slug_of(other)}")
    text = render_text(output, 200)
    assert f"All headquarters are chosen: Ann {game.board.name_of(game.capitals[0])}" in text
    assert game.capitals[first] == choice
    # After the reveal every headquarters is marked on the map.
    assert say(session, "map", 200).count(HEADQUARTERS_MARK) == 3


def test_two_player_human_places_neutral_armies_and_defends_a_neutral(tmp_path: Path) -> None:
    session = game_session("1993", "two-player", ("human", "quick"), 5, tmp_path)
    game = session.game
    screens = [render_text(session.start(), 200)]
    neutral_placed = neutral_defended = 0
    while not session.finished:
        line = helper_line(session)
        prompt = session.prompt
        if game.phase == Phase.SETUP_PLACE and game.placing_for == 2:
            assert prompt.startswith("Ann place a Neutral army (")
            territory = game.board.territory(line.split()[1])
            before = game.armies[territory]
            screens.append(say(session, line, 200))
            assert game.owner[territory] == 2 and game.armies[territory] >= before + 1
            neutral_placed += 1
            continue
        attack = game.pending_attack
        if game.phase == Phase.DEFEND and attack is not None and game.owner[attack[1]] == 2:
            assert game.to_act == 0 and prompt.startswith("Ann defend Neutral with 1-")
            screens.append(say(session, "defend 1", 200))
            battle = game.last_battle
            assert battle is not None and battle.target == attack[1] and len(battle.defender_dice) == 1
            neutral_defended += 1
            continue
        screens.append(say(session, line, 200))
    text = "".join(screens)
    assert neutral_placed > 10 and neutral_defended > 0
    assert "attacks Neutral's" in text and "You roll the defence for Neutral." in text
    assert "placed neutral armies on" in text  # Bob's setup summary
    assert game.winner is not None


def test_two_player_save_and_load_keep_the_seat_kinds(tmp_path: Path, app: typer.Typer) -> None:
    session = game_session("2003", "two-player", ("quick", "human"), 8, tmp_path)
    session.start()
    play_on(session, until=lambda s: s.game.turn >= 3)
    path = tmp_path / "duel.risk"
    assert "Saved to" in say(session, f"save {path}")
    assert "# risk play seats: quick,human" in path.read_text(encoding="utf-8").splitlines()
    game, kinds, _ = load_game(path, None, None, None, None, "2008")
    assert kinds == ["quick", "human"] and game.humans == 2 and len(game.players) == 6
    result = CliRunner().invoke(app, ["play", "--load", str(path)], input="players\nquit\ny\n")
    assert result.exit_code == 0, result.output
    assert "Bob (you)" in result.output and "Ann (bot: quick)" in result.output
    assert "Neutral 3" in result.output and "neutral" in result.output
    assert squashed(f"Quitting. Saved to {path}.") in squashed(result.output)


def test_neutrals_are_grey_with_their_own_tags() -> None:
    game = Game(Rules.preset("2003").for_game("two-player"), ["Ann", "Bob"], seed=1)
    palette = Palette.for_players(game.players, neutral=game.neutral)
    assert palette.tags == ("A", "B", "1", "2", "3", "4")
    assert palette.colours[2:] == (NEUTRAL_COLOUR,) * 4
    text = render_text([MapView(View(game, 0), palette)], 120)
    assert "Neut 1" in text and "Neut 4" in text  # a wide map names the neutrals


def test_a_phase_the_screen_does_not_know_lists_its_actions_by_number() -> None:
    """The 1993 experts' dice step has no screen of its own: its actions are listed and picked."""
    rules = Rules.preset("1993").with_options(commanders="on")
    game = make_position(rules, owners={"alaska": (0, 10), "kamchatka": (1, 1)}, phase=Phase.ATTACK)
    session = PlaySession(game, make_seats(["human", "quick", "quick"], 1), auto_defend=True)
    session.start()
    screen = say(session, "attack alaska kamchatka")
    assert game.phase == Phase.ADJUST_DICE and session.prompt == "Player 1 adjust dice> "
    rolled = game.pending_roll
    assert rolled is not None
    assert f"{' '.join(map(str, rolled[2]))} against {rolled[3][0]}" in screen  # the dice to adjust
    screen = say(session, "help")
    assert ") accept" in screen and ") commander " in screen
    entries = [line for line in screen.splitlines() if ") accept" in line]
    number = int(entries[0].split(")")[0].split()[-1])
    say(session, str(number))
    assert game.phase != Phase.ADJUST_DICE and game.last_battle is not None


# -----------------------------------------------------------------------------------------------
# short forms, numbered choices, defaults
# -----------------------------------------------------------------------------------------------
def attack_position(owners_extra: dict[str, tuple[int, int]] | None = None) -> PlaySession:
    """Ann to reinforce with 5 armies; Alaska (Ann, 10) borders Kamchatka (Bob, 2)."""
    owners = {
        "alaska": (0, 10),
        "northwest territory": (0, 1),
        "alberta": (0, 1),
        "kamchatka": (1, 2),
        "greenland": (2, 1),
        **(owners_extra or {}),
    }
    game = make_position(owners=owners, phase=Phase.REINFORCE, pending=5, current=0)
    return PlaySession(game, make_seats(["human", "quick", "quick"], 1), auto_defend=True)


def test_place_without_a_count_places_everything() -> None:
    session = attack_position()
    session.start()
    screen = say(session, "place Alaska")
    assert session.game.armies[session.game.board.territory("alaska")] == 15
    assert "all placed" in screen and session.game.phase == Phase.ATTACK


def test_blitz_attacks_until_conquered_then_enter_moves_everything_in() -> None:
    session = attack_position()
    session.start()
    say(session, "place alaska 5")
    game, board = session.game, session.game.board
    kamchatka, alaska = board.territory("kamchatka"), board.territory("alaska")
    screen = say(session, "blitz alaska kamchatka", width=200)
    assert "Blitz Alaska -> Kamchatka" in screen and "Kamchatka is conquered!" in screen
    assert game.owner[kamchatka] == 0 and game.phase == Phase.OCCUPY
    low, high = game.occupy_range()
    assert f"Player 1 move {low}-{high} [{high}]> " == session.prompt
    say(session, "")  # Enter: the default, everything that may move
    assert game.armies[alaska] == 1 and game.phase == Phase.ATTACK


def test_attack_without_dice_rolls_the_most_and_attack_all_is_a_blitz() -> None:
    session = attack_position(owners_extra={"kamchatka": (1, 8)})
    session.start()
    say(session, "place alaska")
    game, board = session.game, session.game.board
    say(session, "attack alaska kamchatka")
    assert game.last_battle is not None and len(game.last_battle.attacker_dice) == 3
    rolls_before = sum(1 for kind, what, _ in game.history if what == "dice")
    screen = say(session, "attack alaska kamchatka all", width=200)
    rolls = sum(1 for kind, what, _ in game.history if what == "dice") - rolls_before
    assert "Blitz Alaska -> Kamchatka" in screen and f"{rolls} rolls" in screen and rolls > 1
    # A blitz stops at a conquest or when the attacker is down to one army.
    assert game.owner[board.territory("kamchatka")] == 0 or game.armies[board.territory("alaska")] == 1


def test_end_ends_the_attack_then_fortify_moves_all_but_one_and_ends_the_turn() -> None:
    session = attack_position()
    session.start()
    say(session, "place alaska")
    say(session, "end")
    game, board = session.game, session.game.board
    assert game.phase == Phase.FORTIFY
    screen = say(session, "fortify alaska alberta", width=200)
    assert "Moved 14 armies from Alaska to Alberta. Turn over." in screen
    annes = [action for kind, who, action in game.history if kind == "action" and who == 0]
    assert annes[-1] == Fortify(board.territory("alaska"), board.territory("alberta"), 14)
    assert game.current != 0 or game.turn > 1


def test_numbered_choices_pick_an_action_and_stale_numbers_are_refused() -> None:
    session = attack_position()
    session.start()
    screen = say(session, "help")
    assert "1) place alaska" in screen
    before = session.game.to_dict()
    assert "There is no choice 99." in say(session, "99")
    assert session.game.to_dict() == before
    say(session, "1")
    assert session.game.phase == Phase.ATTACK
    # The menu on screen was for placing: once the game moved on, a number shows the new menu.
    stale = say(session, "1")
    assert "Pick from the current choices" in stale and "1) blitz alaska kamchatka" in stale
    say(session, "1")
    assert session.game.last_battle is not None


def test_defence_dice_are_asked_and_enter_takes_the_most() -> None:
    game = make_position(
        owners={"kamchatka": (1, 10), "alaska": (0, 5), "northwest territory": (0, 1)},
        phase=Phase.FORTIFY,
        current=0,
    )
    session = PlaySession(game, make_seats(["human", "quick", "quick"], 1))
    session.start()
    screen = say(session, "end", width=200)  # Ann's turn ends; Bob masses on Kamchatka and attacks Alaska
    assert game.phase == Phase.DEFEND and game.to_act == 0
    assert "attacks your Alaska (5) from Kamchatka" in screen
    assert (
        "Defend with 1 or 2 dice; Enter: 2 dice, this roll and the rest of this attack; autodefend:" in screen
    )
    assert session.prompt == "Player 1 defend 1-2 [2]> "
    screen = say(session, "", width=200)
    # Enter: the most dice for every roll of this attack on Alaska, each roll shown, no more questions.
    rolls = re.findall(r"Player 2 attacks Alaska from Kamchatka: [\d ]+ against ([\d ]+);", screen)
    assert len(rolls) >= 2 and len(rolls[0].split()) == 2
    assert "Defend with" not in screen
    assert game.owner[game.board.territory("alaska")] == 1


# -----------------------------------------------------------------------------------------------
# illegal input, saving and resuming
# -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("attack alaska kamchatka 3", "Not allowed: Attacks are only made in the attack phase."),
        ("place kamchatka 2", "Kamchatka is not held by Player 1"),
        ("place alaska 9", "Not allowed: You have 5 armies to place, not 9."),
        ("endturn", "cannot end in this phase"),
        ("conquer the world", "Not understood: 'conquer'."),
        ("blitz alaska atlantis", "no territory is called 'atlantis'"),
        ("move", "Not allowed: There is no conquered territory to move into."),
        ("end", "Not allowed: There is nothing to end now: place your armies first;"),
    ],
)
def test_illegal_input_changes_nothing_and_says_why(line: str, reason: str) -> None:
    session = attack_position()
    session.start()
    before = session.game.to_dict()
    screen = say(session, line, width=200)
    assert reason in screen
    assert session.game.to_dict() == before
    assert not session.finished


def test_save_then_resume_gives_the_same_game(tmp_path: Path) -> None:
    session = new_session(11, tmp_path)
    session.start()
    play_on(session, until=lambda s: s.game.turn >= 9)
    path = tmp_path / "saved.risk"
    assert "Saved to" in say(session, f"save {path}")
    resumed = read_record_file(path)
    assert resumed.to_dict() == session.game.to_dict()
    # The resumed game goes on exactly as the original: same dice, same cards.
    for game in (session.game, resumed):
        for _ in range(200):
            if game.is_over:
                break
            game.apply(make_bot("quick", 1).choose(View(game, game.to_act)))
    assert resumed.to_dict() == session.game.to_dict()


# -----------------------------------------------------------------------------------------------
# the play command (typer), with piped input
# -----------------------------------------------------------------------------------------------
@pytest.fixture
def app() -> typer.Typer:
    application = typer.Typer(add_completion=False)
    register(application)

    @application.callback()
    def main() -> None:
        """A two-level app like `risk`, so that `play` is a subcommand."""

    return application


def test_play_command_resumes_a_saved_game_with_its_seats(app: typer.Typer, tmp_path: Path) -> None:
    runner = CliRunner()
    save = tmp_path / "game.risk"
    first = runner.invoke(
        app, ["play", "--seed", "4", "--bots", "random", "--save", str(save)], input="auto\nplace alaska\n"
    )
    assert first.exit_code == 0, first.output
    assert "Input ended. Saved to" in first.output and save.exists()
    assert "# risk play seats: human,random,random" in save.read_text().splitlines()
    saved = read_record_file(save)
    second = runner.invoke(app, ["play", "--load", str(save)], input="players\nquit\ny\n")
    assert second.exit_code == 0, second.output
    assert "Resumed" in second.output and "bot: random" in second.output
    assert squashed(f"Quitting. Saved to {save}.") in squashed(second.output)
    assert read_record_file(save).to_dict() == saved.to_dict()


def test_play_command_end_of_input_saves_in_the_data_folder(
    app: typer.Typer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data_folder: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["play", "--seed", "2"], input="claim peru\n")
    assert result.exit_code == 0
    saves = list((data_folder / "risk" / "saves").iterdir())
    assert len(saves) == 1 and squashed(f"Input ended. Saved to {saves[0]}.") in squashed(result.output)
    assert "Resume with: risk play --load (it lists your recent games; Enter picks the newest)." in unwrapped(
        result.output
    )
    assert "Ann claim> claim peru" in result.output  # piped input is echoed after its prompt
    assert not list(tmp_path.iterdir())  # nothing in the current folder


def test_a_finished_game_writes_its_record_where_it_says(
    app: typer.Typer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["play", "--seed", "6", "--humans", "none"])
    assert result.exit_code == 0, result.output
    path = re.search(r"The game record is in (\S+?\.risk)", unwrapped(result.output))
    assert path is not None and Path(path.group(1)).parent.name == "saves"
    assert read_record_file(path.group(1)).winner is not None


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--game", "chess"], "no game called 'chess'; games: world, secret-mission"),
        (["--rules", "2003", "--game", "capital"], "the 2003 rulebook has no capital game"),
        (["--rules", "2008", "--game", "mission"], "the 2008 rulebook has no mission game"),
        (["--game", "two-player", "--players", "3"], "not 3 (two-player game)"),
        (["--load", "x.risk", "--game", "capital"], "--game does not apply"),
        (["--players", "9"], "3 to 5 players"),
        (["--bots", "deep-blue"], "no bot or level called 'deep-blue'"),
        (["--level", "grandmaster"], "no level called 'grandmaster'; levels: easy, normal, hard, expert"),
        (["--level", "hard", "--bots", "quick"], "only one of --bots and --level"),
        (["--players", "3", "--humans", "1,7"], "only 3 seats"),
        (["--humans", "1,7"], "3 to 5 players, not 7"),
        (["--seat", "2", "--hotseat"], "only one of"),
        (["--load", "missing.risk"], "missing.risk: no such file"),
        (["--option", "fortify=teleport"], "bad value 'teleport'"),
        (
            ["--rules", "2003", "--game", "team", "--players", "5"],
            "Team RISK is for 4 or 6 players in two teams",
        ),
        (["--rules", "2003", "--game", "team", "--players", "3"], "4 to 6 players, not 3 (team game)"),
    ],
)
def test_play_command_refuses_bad_arguments_in_one_line(
    app: typer.Typer, arguments: list[str], message: str
) -> None:
    result = CliRunner().invoke(app, ["play", *arguments])
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert "Traceback" not in result.output


def test_play_refuses_a_save_file_it_cannot_write_before_the_game_starts(
    app: typer.Typer, tmp_path: Path, data_folder: Path
) -> None:
    """`--save` to a folder, under a regular file, or (not as root, who may write anywhere) into a
    read-only folder: one line, exit 2, no game and nothing saved. A missing folder is created."""
    notes = tmp_path / "notes.txt"
    notes.write_text("not a folder\n", encoding="utf-8")
    cases = [
        (tmp_path, "it is a folder (--save takes a file"),
        (notes / "game.risk", f"{notes} is a file, not a folder"),
        (notes / "deeper" / "game.risk", f"{notes} is a file, not a folder"),
    ]
    locked = tmp_path / "locked"
    locked.mkdir()
    if os.geteuid() != 0:  # root writes whatever the permission bits say
        locked.chmod(0o500)
        cases.append((locked / "game.risk", "Permission denied"))
    try:
        for path, message in cases:
            result = CliRunner().invoke(app, ["play", "--save", str(path)], input="claim peru\n")
            assert result.exit_code == 2, result.output
            assert result.output.startswith(f"risk: error: cannot save to {path}: "), result.output
            assert message in result.output
            assert len(result.output.strip().splitlines()) == 1, result.output
            assert not (data_folder / "risk").exists()  # no game was started or saved
        assert notes.read_text(encoding="utf-8") == "not a folder\n" and not list(locked.iterdir())
    finally:
        locked.chmod(0o700)
    # A folder that does not exist yet is created by the first save.
    path = tmp_path / "new" / "folder" / "game.risk"
    result = CliRunner().invoke(app, ["play", "--seed", "3", "--save", str(path)], input="claim peru\n")
    assert result.exit_code == 0, result.output
    assert squashed(f"Input ended. Saved to {path}.") in squashed(result.output)
    assert read_record_file(path).history


def test_hotseat_hands_the_keyboard_over(app: typer.Typer) -> None:
    result = CliRunner().invoke(app, ["play", "--seed", "7", "--humans", "1,2"], input="auto\nauto\nquit\n")
    assert result.exit_code == 0
    assert "Bob's move: pass the keyboard" in result.output
    assert "Bob (human)" in result.output and "Cy (bot: quick)" in result.output


# -----------------------------------------------------------------------------------------------
# screens and completion
# -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("width", [80, 120])
def test_the_map_shows_every_territory_within_the_width(width: int) -> None:
    game = Game(Rules.preset("2008"), PLAYERS, seed=1)
    while game.phase == Phase.CLAIM:
        game.apply(next(iter(game.legal_actions())))
    text = render_text([MapView(View(game, 0), Palette.for_players(game.players))], width)
    lines = text.splitlines()
    assert all(len(line) <= width for line in lines)
    assert len(lines) == 18  # three columns: Asia and Australia are the tallest
    for territory in game.board.territories:
        shown = territory.name if width >= 120 or len(territory.name) <= 19 else territory.name.split()[-1]
        assert shown in text
    assert text.count(" Ann ") + text.count(" A ") >= 14


def test_tab_completion_offers_verbs_and_the_right_territories() -> None:
    session = attack_position()
    session.start()
    assert session.completions("pl") == ["place", "players"]
    assert session.completions("place al") == ["alaska", "alberta"]
    say(session, "place alaska")
    assert session.completions("attack ") == ["alaska"]
    assert session.completions("attack alaska ") == ["kamchatka"]
    assert session.completions("blitz alaska k") == ["kamchatka"]
    assert session.completions("attack alaska kamchatka ") == ["1", "2", "3", "all"]


# -----------------------------------------------------------------------------------------------
# Team RISK
# -----------------------------------------------------------------------------------------------
TEAM_RULES = Rules.preset("2003").for_game("team")


def team_session(kinds: tuple[str, ...], seed: int, tmp_path: Path | None = None) -> PlaySession:
    game = Game(TEAM_RULES, list(DEFAULT_NAMES[: len(kinds)]), seed=seed)
    return PlaySession(game, make_seats(kinds, seed), directory=tmp_path)


def team_position(units: dict[str, dict[int, int]], kinds: tuple[str, ...], **kwargs: object) -> PlaySession:
    """Ann, Bob, Cy and Dee in mid-game: ``units`` gives named territories' armies by seat; every
    other territory holds one army of Bob's."""
    game = make_position(TEAM_RULES, players=4, **kwargs)  # type: ignore[arg-type]
    game.players = tuple(DEFAULT_NAMES[:4])
    assert game.units is not None
    for t in range(len(game.board)):
        game.units[t] = [0, 1, 0, 0]
    for name, stack in units.items():
        t = game.board.territory(name)
        game.units[t] = [stack.get(p, 0) for p in range(4)]
        game.armies[t] = sum(game.units[t])
    game.owner = [-1] * len(game.board)
    game.territory_count = [0] * 4
    for t in range(len(game.board)):
        recontrol(game, t)
    game.alive = [True] * 4
    return PlaySession(game, make_seats(kinds, 1), auto_defend=True)


# Siam is shared (Ann 3, Cy 2: Ann controls it); Greenland is tied (Bob 4, Dee 4: no one controls it).
SHARED_AND_TIED = {
    "siam": {0: 3, 2: 2},
    "greenland": {1: 4, 3: 4},
    "india": {0: 6},
    "indonesia": {2: 1},
    "iceland": {0: 5},
    "middle east": {3: 2},
    "china": {1: 10},
}


def test_a_team_game_plays_to_the_end_through_the_session(tmp_path: Path) -> None:
    session = team_session(("human", "quick", "quick", "quick"), 5, tmp_path)
    game = session.game
    text = play_to_the_end(session, {"reinforce": "hand", "attack": "players", "fortify": "help"})
    assert game.winner is not None
    loser = game.alive.index(False)
    assert game.team is not None and game.team[loser] != game.team[game.winner]
    assert "Teams: Team 1: Ann, Cy · Team 2: Bob, Dee" in text
    assert "Teammates share one hand of cards" in text
    assert "Team hand of Ann and Cy (" in text  # `hand`
    assert "Team 1: Ann, Cy · Team 2: Bob, Dee · armies: each player's own" in text  # `players`
    assert "into and through teammates' territories" in text  # the fortify hint and `help`
    mates = " and ".join(game.players[p] for p in range(4) if game.team[p] == game.team[game.winner])
    ending = f"The team of {mates} wins in round {session.rounds.current}: "
    assert ending + f"{game.players[loser]} was eliminated by {game.players[game.winner]}!" in text
    assert "who takes" not in text  # the game just ends: no cards change hands
    assert session.record_path is not None
    replayed = read_record(session.record_path.read_text(encoding="utf-8"))
    assert replayed.history == game.history and replayed.winner == game.winner


def test_a_six_player_team_game_of_bots_finishes(
    app: typer.Typer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data_folder: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    arguments = [
        "play",
        "--rules",
        "2003",
        "--game",
        "team",
        "--players",
        "6",
        "--humans",
        "none",
        "--seed",
        "2",
    ]
    result = CliRunner().invoke(app, arguments)
    assert result.exit_code == 0, result.output
    (path,) = (data_folder / "risk" / "saves").iterdir()
    game = read_record_file(path)
    assert game.winner is not None and game.team is not None and len(game.players) == 6
    assert "Teams: Team 1: Ann, Cy, Eve · Team 2: Bob, Dee, Fay" in result.output
    mates = ", ".join(game.players[p] for p in range(6) if game.team[p] == game.team[game.winner])
    mates = " and ".join(mates.rsplit(", ", 1))
    assert f"The team of {mates} wins in round {rounds_played(game)}: " in result.output


@pytest.mark.parametrize("width", [80, 120])
def test_shared_and_tied_territories_on_the_map(width: int) -> None:
    session = team_position(SHARED_AND_TIED, ("human", "quick", "quick", "quick"))
    game = session.game
    siam, greenland = game.board.territory("siam"), game.board.territory("greenland")
    assert game.owner[siam] == 0 and game.owner[greenland] == -2
    session.start()
    text = say(session, "map", width)
    if width == 80:  # the controller's tag with "+" when shared; "=" when tied
        assert re.search(r"Siam +A\+ +5", text) and re.search(r"Greenland += +8", text)
    else:  # room for the stacks by tag
        assert re.search(r"Siam +A3\+C2 +5", text) and re.search(r"Greenland +B4=D4 +8", text)
    assert "Shared (+ on the map, = tied): Greenland (Bob 4+Dee 4: tied, no one controls it)" in text
    assert "Siam (Ann 3+Cy 2)" in text
    # The tie is drawn in the neutral style, like territories no player controls.
    console = Console(width=width)
    lines = list(MapView(View(game, 0), session.palette).__rich_console__(console, console.options))
    line = next(line for line in lines if isinstance(line, Text) and "Greenland" in line.plain)
    style = line.get_style_at_offset(console, line.plain.index("Greenland"))
    assert style.color == Style.parse(TIED_STYLE).color and style.italic
    # The players table: the teams, and each player's own armies (Ann: Siam 3, India 6, Iceland 5).
    table = say(session, "players", 200)
    assert re.search(r"Ann \[A\] +1 +you +\d+ +14 ", table) and re.search(
        r"Cy \[C\] +1 +bot: quick +\d+ +3 ", table
    )
    assert "Team 1: Ann, Cy · Team 2: Bob, Dee" in table


def test_team_attacks_use_your_own_armies_and_never_a_teammate() -> None:
    session = team_position(SHARED_AND_TIED, ("human", "quick", "quick", "quick"))
    game = session.game
    session.start()
    screen = say(session, "attack india siam", 200)
    assert "Siam is held by Ann's team: 'You may not attack another player on your team'" in screen
    menu = say(session, "moves")
    assert "blitz siam china" in menu and "india indonesia" not in menu
    assert "3 v 10" in menu  # Ann's own 3 armies in Siam attack, not Cy's 2
    assert "your own armies; never a teammate" in say(session, "help")
    assert session.completions("attack ") == ["iceland", "india", "siam"]
    assert session.completions("attack india ") == ["afghanistan", "china", "middle-east"]  # not Siam
    say(session, "attack siam china")
    battle = game.last_battle
    assert battle is not None and len(battle.attacker_dice) == 2  # the most dice for 3 own armies


def test_team_fortify_moves_your_own_armies_through_teammates() -> None:
    # Everyone human: the game waits for Bob after Ann's move.
    session = team_position(SHARED_AND_TIED, ("human",) * 4, phase=Phase.FORTIFY)
    game = session.game
    session.start()
    assert "into and through teammates' territories" in say(session, "")
    siam, indonesia = game.board.territory("siam"), game.board.territory("indonesia")
    assert session.completions("fortify siam ") == ["india", "indonesia"]  # through team territories
    screen = say(session, "fortify siam indonesia")
    # All of Ann's 3 armies leave Siam; Cy's 2 stay and Cy now controls it.
    assert game.units is not None and game.units[siam] == [0, 0, 2, 0] and game.owner[siam] == 2
    assert game.units[indonesia] == [3, 0, 1, 0] and game.owner[indonesia] == 0
    assert "Moved 3 armies from Siam to Indonesia (now Ann 3+Cy 1). Turn over." in screen


def test_a_tied_territory_is_defended_by_its_first_stack_and_hotseat_clears_between_teams() -> None:
    session = team_position(SHARED_AND_TIED, ("human", "human", "quick", "quick"))
    session.auto_defend = False
    session.start()
    output = session.handle("attack iceland greenland")
    assert isinstance(output[0], ClearScreen)  # Bob's team must not see Ann's team's hand
    screen = render_text(output, 200)
    assert session.prompt == "Bob defend 1-2 [2]> "
    assert (
        "Ann attacks your Greenland (Bob 4+Dee 4: tied, no one controls it) from Iceland (5) with 3 dice"
        in screen
    )
    assert "You have the most armies there: you roll, and lose armies first." in screen
    assert "Greenland" in screen and "Shared (+ on the map" in screen  # the map after the screen is cleared
    output = session.handle("")
    assert isinstance(output[0], ClearScreen)  # back to Ann, whose hand `hand` shows again
    screen = render_text(output, 200)
    assert "Ann attacks Greenland from Iceland: " in screen and "Ann's move: pass the keyboard" in screen
    assert "Attack: attack FROM TO" in screen and session.prompt == "Ann attack> "
    assert "Team hand of Ann and Cy" in say(session, "hand")


def test_hotseat_teammates_share_the_screen_and_the_hand(tmp_path: Path) -> None:
    session = team_session(("human", "quick", "human", "quick"), 3, tmp_path)
    outputs = [session.start()]
    while not session.finished:
        outputs.append(session.handle(helper_line(session)))
    # Ann and Cy are on one team: nothing is hidden between them, and both see the one hand.
    assert not any(isinstance(r, ClearScreen) for output in outputs for r in output)
    text = "".join(render_text(output, 200) for output in outputs)
    assert re.search(r"Round \d+ · Cy · pass the keyboard", text)
    assert "Team hand of Ann and Cy (" in text
    assert "Team hand of Bob and Dee" not in text


# -----------------------------------------------------------------------------------------------
# a real terminal
# -----------------------------------------------------------------------------------------------
ANSI = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-Za-z]|[=>])")


class Terminal:
    """A child process on a pseudo-terminal of 80 x 24, read with a deadline so a test cannot hang."""

    def __init__(self, arguments: list[str], cwd: Path) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        environment = {**os.environ, "TERM": "xterm", "COLUMNS": "80", "LINES": "24"}
        environment.pop("NO_COLOR", None)
        self.process = subprocess.Popen(
            arguments, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=environment, close_fds=True
        )
        os.close(slave)
        self.screen = ""

    def expect(self, pattern: str, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.screen):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no {pattern!r} within {timeout}s; the screen:\n{self.screen[-2000:]}")
            ready, _, _ = select.select([self.master], [], [], remaining)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the child closed the terminal
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"the program ended before {pattern!r}:\n{self.screen[-2000:]}")
                self.screen += ANSI.sub("", chunk.decode("utf-8", "replace")).replace("\r", "")
        return self.screen

    def send(self, text: str) -> None:
        os.write(self.master, text.encode())

    def wait(self) -> int:
        """The exit code, once the program has ended by itself."""
        return self.process.wait(timeout=10)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)


def test_play_in_a_real_terminal(tmp_path: Path) -> None:
    terminal = Terminal([sys.executable, "-m", "risk.tui", "--seed", "3"], tmp_path)
    try:
        terminal.expect(r"Ann claim> ")
        assert "North America +5" in terminal.screen and "Eastern Australia" in terminal.screen
        terminal.send("claim pe\t\n")  # Tab completes 'pe' to 'peru' through readline
        terminal.expect(r"Bob: claimed .* · Cy: claimed ")
        terminal.expect(r"Ann claim> ")
        terminal.send("hlep\n")
        terminal.expect(r"Not understood: 'hlep'")
        terminal.send("auto\n")
        terminal.expect(r"Round 1 · Ann")
        terminal.expect(r"Ann reinforce \(\d+ to place\)> ")
        turn_screen = terminal.screen[terminal.screen.rindex("Round 1 · Ann") :]
        assert "Peru                A" in turn_screen  # Ann's claim is on the map
        assert "Territories/armies/cards: Ann 14/35/0" in turn_screen
        terminal.send("quit\n")
        terminal.expect(r"Quit\? y/n> ")
        terminal.send("y\n")
        terminal.expect(r"Quitting\. Saved to ")
        assert terminal.wait() == 0
    finally:
        terminal.close()


# -----------------------------------------------------------------------------------------------
# fog of war
# -----------------------------------------------------------------------------------------------
def test_under_fog_the_human_sees_its_surroundings_and_the_rest_as_last_seen(tmp_path: Path) -> None:
    game = Game(Rules.preset("2008").with_options(fog="on"), PLAYERS, seed=5)
    seats = make_seats(("human", "quick", "quick"), 5)
    session = PlaySession(game, seats, directory=tmp_path, auto_defend=True)
    assert "Fog of war: you see your own territories" in unwrapped(render_text(session.start(), 100))
    say(session, "auto")
    play_on(session, until=lambda s: s.game.turn > 7 and s.game.current == 0)
    screen = say(session, "map", 100)
    board = game.board
    hidden = [t for t in range(len(board)) if not game.in_sight[0][t]]
    assert hidden and f"{len(hidden)} territories out of your sight" in unwrapped(screen)
    for t in range(len(board)):
        line = next(row for row in screen.splitlines() if board.name_of(t) in row)
        cell = line[line.index(board.name_of(t)) :][:30]
        if t in hidden:  # what Ann last saw, marked as old: never the truth unless it is the same
            assert f"~{game.seen_armies[0][t]:>3}" in cell, cell
        else:
            assert "~" not in cell and f"{game.armies[t]:>4}" in cell, cell
    # Orders and odds on a territory out of sight are refused without a word of what is there.
    name, slug = board.name_of(hidden[0]), board.slug_of(hidden[0])
    own = board.slug_of(game.territories_of(0)[0])
    for typed in (f"attack {own} {slug} 1", f"odds {own} {slug}"):
        answer = unwrapped(say(session, typed, 200))
        assert f"{name} is out of your sight (fog of war)" in answer
        assert str(game.armies[hidden[0]]) not in answer.replace(f"{name}", "")
    # The log tells only what Ann saw: a bot's turn out of her sight is summarised by its public part.
    lines = [line.plain for line in session.journal]
    assert any(re.fullmatch(r"(Bob|Cy): (drew a card|ended the turn)\.", line) for line in lines), lines
    for line in lines:
        for t in range(len(board)):
            if board.name_of(t) in line:
                assert game.seen_turn[0][t] >= 0, (line, board.name_of(t))  # named: seen at some time
    end = ""
    while not session.finished:
        end = say(session, helper_line(session), 100)
    # The end: the fog lifts, the whole board is shown as it is.
    assert "The fog of war lifts" in end and "Fog of war:" not in end
    assert all(f"{board.name_of(t)}" in end for t in range(len(board)))
    assert session.record_path is not None
    full = read_record_file(session.record_path)  # the saved record is the full game: it replays
    assert full.to_dict() == game.to_dict()
