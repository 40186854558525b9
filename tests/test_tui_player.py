"""The terminal game as a new player finds it (issue 11): rounds, refusals that say why, numbered
choices that do what they say, neighbours, defending, quitting and saving."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from risk.cli.main import app as risk_app
from risk.record import read_record_file
from risk.rules.game import Game, Phase
from risk.rules.options import Rules
from risk.tui.render import Palette, mission_text, render_text
from risk.tui.rounds import count_rounds, rounds_played
from risk.tui.session import PlaySession, make_seats
from risk.view import View
from test_tui import helper_line, new_session, say, squashed, unwrapped


@pytest.fixture(autouse=True)
def data_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Saved games go to a throwaway data folder, never the user's (platformdirs reads XDG_DATA_HOME)."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    return folder


# -----------------------------------------------------------------------------------------------
# rounds, as players count them
# -----------------------------------------------------------------------------------------------
def test_rounds_go_back_round_to_the_first_player_even_once_they_are_out() -> None:
    assert count_rounds([], 3) == 0
    assert count_rounds([1], 3) == 1
    assert count_rounds([1, 2, 0, 1, 2, 0, 1], 3) == 3
    # Player 0 is eliminated in round 2: the rounds still end when the turn goes back round.
    assert count_rounds([0, 1, 2, 0, 1, 2, 1, 2, 1], 3) == 4


def test_the_turn_screen_shows_the_round_not_the_player_turn(tmp_path: Path) -> None:
    session = new_session(5, tmp_path, auto_defend=True)
    screens = [render_text(session.start())]
    screens.append(say(session, "auto"))
    game = session.game
    opened = 0
    while opened < 1:  # the first turn opened after the setup
        before = (game.current, game.turn)
        screens.append(say(session, helper_line(session)))
        if game.current == 0 and game.phase == Phase.REINFORCE and (game.current, game.turn) != before:
            opened += 1
    text = "".join(screens)
    assert game.turn > 2  # Ann's second turn is the third or a later player-turn ...
    assert "Round 2 · Ann" in text  # ... and the second round
    assert not re.search(r"Turn \d", text)
    assert "Round 2 · " in say(session, "map")  # the status line


def test_the_winner_and_risk_replay_count_rounds(tmp_path: Path) -> None:
    game = Game(Rules.preset("2008"), ["Ann", "Bob", "Cy"], seed=2)
    session = PlaySession(game, make_seats(["quick"] * 3, 2), directory=tmp_path)
    text = render_text(session.start(), 200)
    assert game.winner is not None
    # The brief's definition: how many times the first player has started a turn.
    replay = Game(Rules.preset("2008"), ["Ann", "Bob", "Cy"], seed=2)
    starters: list[int] = []
    for kind, _, action in game.history:
        if kind == "action":
            replay.apply(action)
            while len(starters) < replay.turn:
                starters.append(replay.current)
    assert replay.to_dict() == game.to_dict()
    first = starters[0]
    assert game.alive[first], "pick a seed where the first player lasts"
    rounds = starters.count(first)
    assert rounds < game.turn
    assert rounds_played(game) == rounds
    assert f"wins the world in round {rounds}!" in text
    assert session.record_path is not None
    result = CliRunner().invoke(risk_app, ["replay", str(session.record_path)])
    assert result.exit_code == 0, result.output
    assert f"valid record of {sum(k == 'action' for k, _, _ in game.history)} actions, {rounds} rounds;" in (
        result.output
    )


def test_a_loaded_game_knows_its_round(tmp_path: Path) -> None:
    session = new_session(11, tmp_path, auto_defend=True)
    session.start()
    say(session, "auto")
    game = session.game
    while game.turn < 8:
        say(session, helper_line(session))
    path = tmp_path / "saved.risk"
    say(session, f"save {path}")
    loaded = read_record_file(path)
    resumed = PlaySession(loaded, make_seats(["human", "quick", "quick"], loaded.seed), directory=tmp_path)
    assert resumed.rounds.current == session.rounds.current >= 3
    assert View(loaded, 0).turn == game.turn


# -----------------------------------------------------------------------------------------------
# refusals that say why, in the rules' terms
# -----------------------------------------------------------------------------------------------
def setup_session(tmp_path: Path) -> PlaySession:
    """Ann to place her setup armies (every territory claimed)."""
    session = new_session(3, tmp_path)
    session.start()
    game = session.game
    while not (game.phase == Phase.SETUP_PLACE and game.to_act == 0):
        say(session, helper_line(session))
    return session


def test_setup_place_more_than_is_left_is_refused_with_the_number_left(tmp_path: Path) -> None:
    session = setup_session(tmp_path)
    game = session.game
    left = game.setup_armies[0]
    mine = game.board.slug_of(game.territories_of(0)[0])
    name = game.board.name_of(game.territories_of(0)[0])
    before = game.to_dict()
    screen = say(session, f"place {mine} 50", 200)
    assert game.to_dict() == before and game.phase == Phase.SETUP_PLACE
    refusal = f"Not allowed: You have {left} setup armies left, not 50: place {mine} {left} puts them all on "
    assert refusal + f"{name}." in screen
    # A number that fits is queued; once it has been placed the map shows where everything is.
    screen = say(session, f"place {mine} 5", 200)
    assert f"Your next 5 setup armies go to {name}." in screen
    assert (
        "North America +5" in screen and game.phase == Phase.SETUP_PLACE and game.setup_armies[0] == left - 5
    )
    assert session.prompt == f"Ann place ({left - 5} left)> "


def test_claim_after_the_claims_says_what_to_do_now(tmp_path: Path) -> None:
    session = setup_session(tmp_path)
    game = session.game
    free = game.board.slug_of(game.territories_of(1)[0])
    screen = say(session, f"claim {free}", 200)
    assert (
        "Not allowed: Every territory is claimed now: place your setup armies on your own territories"
        in screen
    )
    assert "claiming is only during setup" not in screen
    say(session, "auto")
    assert game.phase == Phase.REINFORCE and game.to_act == 0
    screen = say(session, f"claim {free}", 200)
    assert "Every territory was claimed at the start of the game: to take one, attack it." in screen


def fortify_position() -> PlaySession:
    from positions import make_position

    owners = {
        "ural": (0, 1),
        "siberia": (0, 3),
        "mongolia": (0, 1),
        "alaska": (0, 10),
        "kamchatka": (1, 6),
    }
    game = make_position(owners=owners, phase=Phase.ATTACK, current=0)
    return PlaySession(game, make_seats(["human", "quick", "quick"], 1))


def test_nothing_moves_from_a_territory_with_one_army() -> None:
    session = fortify_position()
    session.start()
    say(session, "end")
    assert session.game.phase == Phase.FORTIFY
    screen = say(session, "fortify ural siberia", 200)
    assert (
        "Not allowed: Ural has only 1 army, and one army always stays behind: nothing can move from it."
        in screen
    )
    assert "1 to 0" not in screen
    screen = say(session, "fortify siberia ural 5", 200)
    assert "Not allowed: Siberia can move at most 2 armies (one stays behind)." in screen


def test_odds_from_a_territory_with_one_army_says_it_cannot_attack() -> None:
    session = fortify_position()
    session.start()
    screen = say(session, "odds mongolia china", 200)
    assert (
        "Mongolia has only 1 army, so it cannot attack: an attack needs at least 2 (one stays behind)."
        in screen
    )
    assert "0.0%" not in screen
    assert "Siberia is yours: you cannot attack your own territory." in say(
        session, "odds mongolia siberia", 200
    )
    assert "Peru is not next to Alaska" in say(session, "odds alaska peru", 200)
    assert "the attack takes it" in say(session, "odds alaska kamchatka", 200)


def test_the_defender_is_told_the_rule_not_a_count_of_armies() -> None:
    from positions import make_position

    game = make_position(
        owners={"kamchatka": (1, 10), "alaska": (0, 6), "northwest territory": (0, 1)},
        phase=Phase.FORTIFY,
        current=0,
    )
    session = PlaySession(game, make_seats(["human", "quick", "quick"], 1))
    session.start()
    say(session, "end")
    assert game.phase == Phase.DEFEND and game.to_act == 0
    before = game.to_dict()
    screen = say(session, "3", 200)
    assert game.to_dict() == before
    assert (
        "Not allowed: The defender rolls 1 or 2 dice, never more: defend 1 or defend 2 (Enter: 2)." in screen
    )
    assert "has 6 armies" not in screen
    screen = say(session, "attack alaska kamchatka 4", 200)
    assert "Attacks are only made in the attack phase." in screen


def test_attack_dice_refusals_name_the_rule() -> None:
    session = fortify_position()
    session.start()
    assert "Not allowed: The attacker rolls 1 to 3 dice." in say(session, "attack alaska kamchatka 4", 200)
    assert "Siberia has 3 armies and one stays behind, so it may roll 1 or 2 dice." in say(
        session, "attack siberia yakutsk 3", 200
    )


ODD_PLURALS = re.compile(r"\b1 (armies|dice|cards|setup armies|territories|rolls|times)\b|\b1 \w+ armies\b")


def test_a_whole_game_reads_in_sentences_with_the_right_plurals(tmp_path: Path) -> None:
    session = new_session(7, tmp_path)
    screens = [render_text(session.start(), 200)]
    game = session.game
    noise = ["place nowhere-land 3", "fortify alaska peru 2", "attack alaska peru 9", "defend 3", "move 99"]
    step = 0
    while not session.finished:
        if step % 7 == 0:
            screens.append(say(session, noise[step // 7 % len(noise)], 200))
        screens.append(say(session, helper_line(session), 200))
        step += 1
    text = "".join(screens)
    assert game.winner is not None
    assert not ODD_PLURALS.search(text), ODD_PLURALS.search(text)
    refusals = [line for line in text.splitlines() if line.startswith("Not allowed: ")]
    assert len(refusals) > 10
    assert all(line.rstrip().endswith(".") for line in refusals), [r for r in refusals if not r.endswith(".")]
    assert not any(" to act, phase " in line for line in refusals)


# -----------------------------------------------------------------------------------------------
# numbered choices, unknown words, neighbours
# -----------------------------------------------------------------------------------------------
def test_a_numbered_choice_does_what_its_line_says() -> None:
    from positions import make_position

    game = make_position(
        owners={"middle east": (0, 3), "egypt": (1, 1), "ukraine": (0, 1), "alaska": (0, 5)},
        phase=Phase.REINFORCE,
        pending=4,
        current=0,
    )
    session = PlaySession(game, make_seats(["human", "quick", "quick"], 1), auto_defend=True)
    session.start()
    menu = say(session, "moves", 200)
    line = next(line for line in menu.splitlines() if "1) " in line)
    assert "1) place " in line and re.search(r"1\) place [a-z-]+ 4 ", line)  # the count it places
    say(session, "place ukraine")
    menu = say(session, "moves", 200)
    entry = re.search(r"(\d+)\) blitz middle-east egypt  3 v 1, wins \d+%", menu)
    assert entry is not None, menu
    number = entry.group(1)
    rolls_before = sum(1 for kind, what, _ in game.history if what == "dice")
    screen = say(session, number, 200)
    # A blitz: rolls until Egypt falls or Middle East is down to one army.
    board = game.board
    assert "Blitz Middle East -> Egypt" in screen
    assert game.owner[board.territory("egypt")] == 0 or game.armies[board.territory("middle east")] == 1
    assert sum(1 for kind, what, _ in game.history if what == "dice") > rolls_before


def test_an_unknown_word_lists_what_makes_sense_now_in_this_game(tmp_path: Path) -> None:
    session = setup_session(tmp_path)
    screen = say(session, "banana", 200)
    assert "Not understood: 'banana'." in screen
    assert "Now: place NAME [N], or a number from help." in screen
    for word in ("reroll", "commander", "accept", "bribe", "reinforce", "calloff", "claim", "attack"):
        assert word not in screen, word
    assert "Any time: help · map" in screen
    say(session, "auto")
    screen = say(session, "banana", 200)
    assert "Now: place NAME [N], or a number from help." in screen or "Now: trade" in screen
    screen = say(session, "hlep", 200)
    assert "Not understood: 'hlep' (did you mean help?)." in screen


def test_neighbours_of_one_territory_and_of_all_of_yours() -> None:
    session = fortify_position()
    session.start()
    screen = say(session, "neighbours alaska", 200)
    assert (
        "Alaska (yours, 10) borders 3 territories. Enemies: Alberta (Player 2 1), Kamchatka (Player 2 6),"
        in (screen)
    )
    screen = say(session, "neighbours siberia", 200)
    assert "Siberia (yours, 3) borders 5 territories. Enemies: China (Player 2 1)," in screen
    assert "Yours: Mongolia (1), Ural (1)." in screen
    screen = say(session, "neighbors kamchatka", 200)
    assert "Kamchatka (Player 2 6) borders 5 territories. Yours: Alaska (10), Mongolia (1). Others: " in (
        screen
    )
    assert "No territory is called 'atlantis'" in say(session, "neighbours atlantis", 200)
    front = say(session, "neighbours", 200)
    assert "Player 1's territories and the enemy territories beside them" in front
    lines = front.splitlines()
    alaska = next(line for line in lines if line.startswith("Alaska"))
    assert re.match(r"Alaska +10 beside Kamchatka \(Player 2 6\), ", alaska)
    siberia = next(line for line in lines if line.startswith("Siberia"))
    assert "Ural" not in siberia and "Mongolia" not in siberia and "Yakutsk (Player 2 1)" in siberia
    assert session.completions("neighbours ala") == ["alaska"]


# -----------------------------------------------------------------------------------------------
# secret missions name the player to destroy
# -----------------------------------------------------------------------------------------------
def test_a_destroy_mission_names_the_player_not_only_a_colour(tmp_path: Path) -> None:
    game = Game(Rules.preset("2008").for_game("secret-mission"), ["Ann", "Bob", "Cy"], seed=5)
    session = PlaySession(game, make_seats(["human", "quick", "quick"], 5), directory=tmp_path)
    screens = [render_text(session.start(), 200)]
    mission = game.missions[0]
    assert mission is not None and mission.key == "destroy-green"
    assert "Ann's secret mission: Destroy all of Cy's armies (green)." in screens[0]
    assert "Destroy all green armies" not in screens[0]
    screens.append(say(session, "missions", 200))
    assert "Destroy all of Cy's armies (green)." in screens[-1]
    # Seat 5's card says black, but the screen shows that player in another colour: the name only.
    palette = Palette.for_players(["Ann", "Bob", "Cy", "Dee", "Eve"])
    assert (
        mission_text("destroy-black", "Destroy all black armies.", palette).plain
        == "Destroy all of Eve's armies."
    )
    assert (
        mission_text("asia-africa", "Conquer Asia and Africa.", palette).plain == "Conquer Asia and Africa."
    )


# -----------------------------------------------------------------------------------------------
# defending: one question an attack, and automatic defence
# -----------------------------------------------------------------------------------------------
def test_enter_defends_a_whole_attack_with_one_question(tmp_path: Path) -> None:
    """One Enter defends the rest of an attack with the most dice: at most one question per attack
    and turn, where each roll used to ask again."""
    session = new_session(5, tmp_path)
    session.start()
    say(session, "auto")
    game = session.game
    questions, attacks, rolls = 0, set(), 0
    while not session.finished and game.turn < 60:
        if game.phase == Phase.DEFEND and game.to_act == 0:
            attack = game.pending_attack
            assert attack is not None
            key = (game.turn, attack[0], attack[1])
            assert key not in attacks  # never asked twice about the same attack
            attacks.add(key)
            questions += 1
            before = sum(1 for kind, what, _ in game.history if what == "dice")
            say(session, "")
            rolls += sum(1 for kind, what, _ in game.history if what == "dice") - before
        else:
            say(session, helper_line(session))
    assert questions >= 3 and rolls > questions


def asked_to_defend(tmp_path: Path) -> PlaySession:
    """A game of Ann's against two quick bots, played until she is first asked to defend."""
    session = new_session(5, tmp_path)
    session.start()
    say(session, "auto")
    game = session.game
    while not (game.phase == Phase.DEFEND and game.to_act == 0):
        say(session, helper_line(session))
    return session


def test_autodefend_switches_automatic_defence_on_and_off(tmp_path: Path) -> None:
    session = asked_to_defend(tmp_path)
    game = session.game
    screen = say(session, "autodefend", 200)
    assert (
        "Automatic defence is on: you defend every attack with the most dice, without being asked" in screen
    )
    assert not (game.phase == Phase.DEFEND and game.to_act == 0)
    turn = game.turn
    for _ in range(400):
        if game.turn > turn + 6 or session.finished:
            break
        assert not (game.phase == Phase.DEFEND and game.to_act == 0)
        say(session, helper_line(session))
    if session.finished:
        return
    assert "Automatic defence is off" in say(session, "autodefend off", 200)
    asked = False
    for _ in range(2000):
        if session.finished:
            break
        if game.phase == Phase.DEFEND and game.to_act == 0:
            asked = True
            assert "Automatic defence is on" in say(session, "auto", 200)  # `auto` at the question, too
            break
        say(session, helper_line(session))
    assert asked or session.finished
    assert "autodefend" in session.completions("autod")


# -----------------------------------------------------------------------------------------------
# quitting, saving as you play, --load without a file
# -----------------------------------------------------------------------------------------------
def test_quit_asks_first_and_every_game_is_saved_as_it_goes(tmp_path: Path) -> None:
    session = new_session(3, tmp_path)
    session.start()
    say(session, helper_line(session))  # a claim
    game = session.game
    path = session.save_file
    assert path.parent == tmp_path and path.suffix == ".risk"
    assert read_record_file(path).history == game.history  # saved after the move, unasked
    screen = say(session, "q")
    assert not session.finished and session.prompt == "Quit? y/n> "
    assert squashed(f"Leave the game? The game is saved in {path}") in squashed(screen)
    screen = say(session, "n")
    assert "Playing on." in screen and not session.finished and session.prompt == "Ann claim> "
    say(session, helper_line(session))
    say(session, "quit")
    screen = say(session, "y")
    assert session.finished and squashed(f"Quitting. Saved to {path}.") in squashed(screen)
    saved = read_record_file(path)
    assert saved.history == game.history
    assert "# risk play status: setup · Ann to act · setup: claim" in path.read_text(encoding="utf-8")


def test_autodefend_is_kept_in_the_save_and_lasts_after_load(tmp_path: Path) -> None:
    """`autodefend` lasts "from then on": across `--load` too. A save without it (an older one) loads
    with automatic defence off."""
    session = asked_to_defend(tmp_path)
    say(session, "autodefend")
    say(session, "quit")
    say(session, "y")
    path = session.save_file
    text = path.read_text(encoding="utf-8")
    assert "# risk play autodefend: 1" in text.splitlines()
    older = tmp_path / "older.risk"
    older.write_text(text.replace("# risk play autodefend: 1\n", ""), encoding="utf-8")
    runner = CliRunner()
    resumed = runner.invoke(risk_app, ["play", "--load", str(path)], input="autodefend\nquit\ny\n")
    assert resumed.exit_code == 0, resumed.output
    assert "Automatic defence is off" in unwrapped(resumed.output)  # it was on: the switch turns it off
    assert "# risk play autodefend:" not in path.read_text(encoding="utf-8")  # and the save says so
    old = runner.invoke(risk_app, ["play", "--load", str(older)], input="autodefend\nquit\ny\n")
    assert old.exit_code == 0, old.output
    assert "Automatic defence is on" in unwrapped(old.output)


def test_auto_for_the_rest_of_the_setup_lasts_after_load(tmp_path: Path) -> None:
    """Hot-seat: Ann lets the computer play the rest of her setup; Bob saves and leaves. Resumed, the
    computer still plays Ann's setup: Bob is asked, Ann is not."""
    kinds = ("human", "human", "quick")
    session = PlaySession(Game(Rules.preset("2008"), ["Ann", "Bob", "Cy"], seed=4), make_seats(kinds, 4))
    session.start()
    say(session, "auto")
    assert session.prompt == "Bob claim> "
    say(session, "quit")
    say(session, "y")
    path = session.save_file
    assert "# risk play auto: 1=setup" in path.read_text(encoding="utf-8").splitlines()
    game = session.game
    free = next(game.board.slug_of(t) for t, who in enumerate(game.owner) if who < 0)
    result = CliRunner().invoke(risk_app, ["play", "--load", str(path)], input=f"claim {free}\nquit\ny\n")
    assert result.exit_code == 0, result.output
    assert f"Bob claim> claim {free}" in result.output and "Bob claim> quit" in result.output
    assert "Ann claim>" not in result.output


def test_load_without_a_file_lists_recent_saves_and_shows_the_map(data_folder: Path) -> None:
    runner = CliRunner()
    saves = data_folder / "risk" / "saves"
    result = runner.invoke(risk_app, ["play", "--load"])
    assert result.exit_code == 1 and squashed(f"no saved games in {saves}") in squashed(result.output)
    first = runner.invoke(risk_app, ["play", "--seed", "4"], input="auto\nplace iceland\n")
    assert first.exit_code == 0, first.output
    second = runner.invoke(risk_app, ["play", "--seed", "5", "--names", "Zoe,Yan,Xi"], input="claim peru\n")
    assert second.exit_code == 0, second.output
    assert len(list(saves.iterdir())) == 2
    listing = runner.invoke(risk_app, ["play", "--load"], input="2\nquit\ny\n")
    assert listing.exit_code == 0, listing.output
    text = listing.output
    assert squashed(f"Saved games in {saves}, newest first:") in squashed(text)
    lines = text.splitlines()
    newest = next(line for line in lines if line.startswith(" 1) "))
    older = next(line for line in lines if line.startswith(" 2) "))
    assert "Zoe, Yan, Xi · setup · Yan to act" in newest or "Zoe, Yan, Xi · setup" in newest
    assert "Ann, Bob, Cy · round 1 · Ann to act · attack" in older
    assert re.search(r"^    rules 2008 · \d{8}-\d{6}-world-seed4\.risk$", text, re.MULTILINE)
    assert "Which game? A number (Enter: 1, q: none)> 2" in text
    # The seed-4 game resumed in its attack phase: the board is shown, then the question.
    after = text[text.index("Resumed") :]
    assert "North America +5" in after and "Round 1 · Ann to act · attack" in after
    assert after.index("North America +5") < after.index("Ann attack> ")
    # --load NAME finds a save by its name in the saves folder.
    name = next(p.name for p in saves.iterdir() if "seed5" in p.name)
    again = runner.invoke(risk_app, ["play", "--load", name.removesuffix(".risk")], input="")
    assert again.exit_code == 0 and "Resumed" in again.output and "Zoe (you)" in again.output


# -----------------------------------------------------------------------------------------------
# issue 21: the trade menu, the odds, eliminated players, move-ins, a bot's turn around a defence
# -----------------------------------------------------------------------------------------------
def trade_position(
    rules: str = "2008", hand: tuple[str, ...] = ("alaska", "northwest territory", "alberta")
) -> PlaySession:
    """Ann to reinforce, holding cards of her own territories; Alberta is inland (no enemy beside it)."""
    from positions import make_position

    owners = {
        name: (0, 3)
        for name in ("alaska", "northwest territory", "alberta", "ontario", "western united states", "quebec")
    }
    owners["greenland"] = (0, 3)
    owners["eastern united states"] = (0, 3)
    owners["central america"] = (0, 3)
    game = make_position(rules, owners=owners, phase=Phase.REINFORCE, pending=5, hands={0: list(hand)})
    return PlaySession(game, make_seats(["human", "quick", "quick"], 1), auto_defend=True)


def trade_lines(screen: str) -> list[str]:
    """The trade entries of a numbered menu (shown in columns, three spaces or more apart)."""
    cells = [cell.strip() for line in screen.splitlines() for cell in re.split(r"\s{3,}(?=\d+\) )", line)]
    return [cell for cell in cells if re.match(r"\d+\) trade ", cell)]


def test_the_trade_menu_lists_each_set_once_and_names_the_bonus_territory() -> None:
    session = trade_position()
    session.start()
    lines = trade_lines(say(session, "moves", 200))
    # One set, whose three cards show territories of Ann's: one line, not one per card order. The
    # +2 (once per trade in 2008) goes on the front territory first named; the others are named too.
    assert len(lines) == 1, lines
    assert re.fullmatch(
        r"1\) trade alaska \S+ \S+  \+4 armies, \+2 on Alaska \(or on Northwest Territory or Alberta: "
        r"name its card first\)",
        lines[0],
    ), lines[0]
    hand = unwrapped(say(session, "hand", 200))
    assert hand.count("trade ") == 1 and "+2 on Alaska" in hand
    game, alaska = session.game, session.game.board.territory("alaska")
    screen = say(session, "trade", 200)  # one set: traded at once, no question
    assert "Traded a set for 4 armies and +2 on Alaska." in screen
    assert game.armies[alaska] == 5 and not game.hands[0]


def test_several_sets_one_line_each_and_the_bonus_as_the_rules_give_it() -> None:
    session = trade_position(hand=("alaska", "northwest territory", "alberta", "wild1"))
    session.start()
    lines = trade_lines(say(session, "trade", 200))
    assert len(lines) == 4, lines  # the four sets of three among four cards, each once
    assert all(re.search(r"\+4 armies, \+2 on (Alaska|Northwest Territory)", line) for line in lines), lines
    say(session, "3")
    assert session.game.phase == Phase.REINFORCE and len(session.game.hands[0]) == 1
    # 1993: the +2 is given once a turn: once taken, a set names no territory and says why.
    session = trade_position("1993")
    session.game.territory_bonus_used = True
    session.start()
    (line,) = trade_lines(say(session, "moves", 200))
    assert line.endswith("+4 armies (no +2: the territory bonus was taken this turn)"), line
    # 2003 has no territory bonus: nothing is said of one.
    session = trade_position("2003")
    session.start()
    (line,) = trade_lines(say(session, "moves", 200))
    assert line.endswith("+4 armies"), line


def test_odds_are_never_rounded_to_certain_or_impossible() -> None:
    from positions import make_position

    owners = {"alaska": (0, 7), "kamchatka": (1, 1), "northwest territory": (0, 2), "greenland": (2, 6)}
    game = make_position(owners=owners, phase=Phase.ATTACK, current=0)
    session = PlaySession(game, make_seats(["human", "quick", "quick"], 1), auto_defend=True)
    session.start()
    screen = say(session, "moves", 200)
    assert "blitz alaska kamchatka  7 v 1, wins 99.7%" in screen  # 99.67%: not "100%"
    assert "blitz northwest-territory greenland  2 v 6, wins <0.1%" in screen  # 0.04%: not "0%"
    assert "wins 100%" not in screen and "wins 0%" not in screen
    # `odds A D`: A armies in the attacking territory, as the list above counts them (one stays).
    assert "the attack takes it 99.96% of the time" in say(session, "odds 9 1", 200)  # not "100.0%"
    assert "the attack takes it <0.01% of the time" in say(session, "odds 2 11", 200)
    assert "an attack needs at least 2 armies in the territory" in say(session, "odds 1 3", 200)
    # Floating point makes these 1 and 0; the dice can still go either way.
    assert "the attack takes it >99.99% of the time" in say(session, "odds 169 1", 200)
    assert "the attack takes it <0.01% of the time" in say(session, "odds 2 900", 200)


@pytest.mark.parametrize("line", ["blitz alaska kamchatka", "attack alaska kamchatka"])
def test_a_move_in_with_one_possible_amount_is_told(line: str) -> None:
    """Alaska (4) conquers Kamchatka and is left with one army: the armies that rolled move in with no
    question asked, and the screen says how many."""
    from positions import make_position

    game = make_position(owners={"alaska": (0, 4), "kamchatka": (1, 1)}, phase=Phase.ATTACK, current=0)
    session = PlaySession(game, make_seats(["human", "quick", "quick"], 1), auto_defend=True)
    session.start()
    screen = unwrapped(say(session, line, 200))
    board = game.board
    kamchatka, alaska = board.territory("kamchatka"), board.territory("alaska")
    assert game.owner[kamchatka] == 0 and game.armies[alaska] == 1 and game.phase == Phase.ATTACK
    moved = game.armies[kamchatka]
    assert f"Moved {moved} armies into Kamchatka, all that could move (one stays behind in Alaska)." in screen


def test_an_eliminated_player_is_marked_out_in_the_players_line() -> None:
    from positions import make_position

    # Player 3 holds nothing: out of the game.
    game = make_position(owners={"alaska": (0, 5)}, phase=Phase.REINFORCE, pending=3, current=0)
    session = PlaySession(game, make_seats(["human", "quick", "quick"], 1), auto_defend=True)
    opening = render_text(session.start(), 200)
    line = next(line for line in opening.splitlines() if line.startswith("Territories/armies/cards: "))
    assert line.endswith(" · Player 3 out"), line


def test_a_bots_turn_is_summarised_in_one_piece_around_your_defence() -> None:
    """Bob reinforces, then attacks Ann, who is asked how to defend. She sees what Bob did so far
    before the question; once his turn is over, its summary comes in one line, all of it, and the
    log has one line for the turn (it used to be cut in two around the defence)."""
    from positions import make_position

    owners = {"kamchatka": (1, 10), "alaska": (0, 5), "northwest territory": (0, 1), "brazil": (2, 3)}
    owners |= {name: (0, 6) for name in ("indonesia", "new guinea", "western australia", "eastern australia")}
    game = make_position(owners=owners, phase=Phase.FORTIFY, current=0)
    session = PlaySession(game, make_seats(["human", "quick", "quick"], 1))
    session.start()
    asked = say(session, "end", 200)
    assert game.phase == Phase.DEFEND and game.to_act == 0
    assert re.search(
        r"^Player 2 so far this turn: reinforced \+\d+ \(Kamchatka \+\d+\)\.$", asked, re.MULTILINE
    )
    assert not re.search(r"^Player 2: ", asked, re.MULTILINE)
    turn = game.turn
    after = say(session, "", 400)
    assert game.turn > turn and game.current == 0  # Bob's and Cy's turns are over: Ann's again
    summaries = [line for line in after.splitlines() if line.startswith("Player 2:")]
    assert len(summaries) == 1 and summaries[0].startswith("Player 2: reinforced +"), summaries
    assert "attacked" in summaries[0] and "conquered Alaska" in summaries[0]
    logged = [line.plain for line in session.journal if line.plain.startswith("Player 2")]
    assert logged == summaries


# -----------------------------------------------------------------------------------------------
# issue 36: names with any character in saves; a save is never left empty or half-written
# -----------------------------------------------------------------------------------------------
def test_a_name_with_a_hash_is_listed_and_loaded_from_its_save(data_folder: Path) -> None:
    runner = CliRunner()
    first = runner.invoke(risk_app, ["play", "--seed", "5", "--names", "A#n, Bob ,Cy"], input="claim peru\n")
    assert first.exit_code == 0, first.output
    listing = runner.invoke(risk_app, ["play", "--load"], input="1\nquit\ny\n")
    assert listing.exit_code == 0, listing.output
    newest = next(line for line in listing.output.splitlines() if line.startswith(" 1) "))
    assert "A#n, Bob, Cy · setup" in newest
    assert "Resumed" in listing.output and "A#n (you)" in listing.output


def test_a_save_that_cannot_be_written_leaves_the_last_one_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.risk"
    session = PlaySession(
        Game(Rules.preset("2008"), ["Ann", "Bob", "Cy"], seed=4),
        make_seats(("human", "quick", "quick"), 4),
        save_path=path,
    )
    session.start()
    say(session, "claim peru")
    saved = path.read_bytes()
    assert saved.startswith(b"risk-record 1\n")
    # Text that cannot be written as UTF-8 (a lone surrogate): the save fails before the file is touched.
    monkeypatch.setattr("risk.tui.saving.record_text", lambda *args: "risk-record 1\n\udcff")
    output = squashed(say(session, "save"))
    assert "Couldnotwrite" in output and "notUTF-8" in output
    assert path.read_bytes() == saved and sorted(p.name for p in tmp_path.iterdir()) == ["game.risk"]
    fresh = tmp_path / "new.risk"
    say(session, f"save {fresh}")
    assert not fresh.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["game.risk"]


def test_place_while_claiming_says_to_claim_a_territory(tmp_path: Path) -> None:
    session = new_session(2, tmp_path)
    session.start()
    game = session.game
    assert game.phase == Phase.CLAIM and game.to_act == 0
    before = game.to_dict()
    screen = unwrapped(say(session, "place alaska", 200))
    assert "no armies to place" not in screen
    assert (
        "Not allowed: Every territory is claimed first, one each in turn: claim an empty one (claim NAME); "
        f"you place the rest of your {game.setup_armies[0]} armies once all are claimed." in screen
    )
    assert game.to_dict() == before


def test_the_odds_of_a_listed_attack_are_the_odds_of_odds_a_d() -> None:
    """`help` lists 'blitz alaska kamchatka  10 v 6, wins X'; `odds 10 6` counts the same armies."""
    session = fortify_position()
    session.start()
    menu = say(session, "moves", 200)
    listed = re.search(r"blitz alaska kamchatka\s+(\d+) v (\d+), wins ([\d.]+)%", menu)
    assert listed is not None and listed.groups()[:2] == ("10", "6")
    screen = unwrapped(say(session, "odds 10 6", 200))
    assert "10 armies in the attacking territory (9 attack, 1 stays) against 6" in screen
    taken = re.search(r"the attack takes it ([\d.]+)%", screen)
    assert taken is not None and round(float(taken.group(1)), 0) == round(float(listed.group(3)), 0)
    board_odds = unwrapped(say(session, "odds alaska kamchatka", 200))
    assert f"takes it {taken.group(1)}%" in board_odds
    assert "odds A D · FROM TO    odds of an attack to the end (A counts the one that stays)" in say(
        session, "help", 80
    )


def test_help_fits_a_terminal_of_80_by_24() -> None:
    session = fortify_position()
    session.start()
    screen = say(session, "help", 80)
    lines = screen.rstrip("\n").splitlines()
    assert len(lines) <= 23, screen  # and the prompt below: 24 lines
    assert "odds A D" in screen and "autodefend" in screen and "save [FILE]" in screen
    commands = [line for line in lines if line.startswith(("claim T", "place T", "fortify FROM"))]
    assert len(commands) == 3  # each command on one line of its own, never wrapped
    # Seven choices do not fit below the commands: `moves` lists them.
    assert lines[-1] == "Your choices (7): moves lists them, numbered."
    assert len(say(session, "moves", 80).splitlines()) == 8
    # Four choices do: they are listed, numbered, below the commands.
    from positions import make_position

    game = make_position(owners={"alaska": (0, 5), "kamchatka": (1, 3)}, phase=Phase.ATTACK, current=0)
    fewer = PlaySession(game, make_seats(["human", "quick", "quick"], 1))
    fewer.start()
    lines = say(fewer, "help", 80).rstrip("\n").splitlines()
    assert len(lines) <= 23 and lines[-1].strip() == "4) endattack  stop attacking"


def test_resume_command_finds_a_save_outside_the_saves_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "my games"
    folder.mkdir()
    monkeypatch.chdir(folder)
    game = Game(Rules.preset("2008"), ["Ann", "Bob", "Cy"], seed=4)
    session = PlaySession(game, make_seats(("human", "quick", "quick"), 4), save_path=Path("first game.risk"))
    session.start()
    say(session, "quit")
    screen = say(session, "y", 200)
    line = next(line for line in screen.splitlines() if line.startswith("Resume with: "))
    command = shlex.split(line.removeprefix("Resume with: "))
    assert command[:3] == ["risk", "play", "--load"] and len(command) == 4
    monkeypatch.chdir(tmp_path)  # elsewhere: the command still finds it
    result = CliRunner().invoke(risk_app, command[1:], input="quit\ny\n")
    assert result.exit_code == 0 and "Resumed" in result.output, result.output


def test_a_seat_beyond_the_players_is_said_and_seat_0_refused() -> None:
    result = CliRunner().invoke(risk_app, ["play", "--seat", "5", "--seed", "3"], input="quit\ny\n")
    assert result.exit_code == 0, result.output
    assert "5 players, so that there is a seat 5 (--players sets the number)." in unwrapped(result.output)
    refused = CliRunner().invoke(risk_app, ["play", "--humans", "0"])
    assert refused.exit_code == 2 and refused.output == (
        "risk: error: --humans '0': seats are numbered from 1 (for no human seat: --humans none)\n"
    )


def test_replay_says_1_round(tmp_path: Path) -> None:
    from risk.play.simulate import play_game
    from risk.record import write_record

    game, _ = play_game(Rules.preset("2008"), ["quick"] * 3, 1, max_turns=1)
    assert rounds_played(game) == 1
    path = tmp_path / "one.risk"
    path.write_text(write_record(game), encoding="utf-8")
    result = CliRunner().invoke(risk_app, ["replay", str(path)])
    assert result.exit_code == 0 and " actions, 1 round; " in result.output, result.output
