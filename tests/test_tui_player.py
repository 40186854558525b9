"""The terminal game as a new player finds it (issue 11): rounds, refusals that say why, numbered
choices that do what they say, neighbours, defending, quitting and saving."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from risk.cli import app as risk_app
from risk.rules.game import Game, Phase
from risk.rules.options import Rules
from risk.tui.render import render_text
from risk.tui.rounds import count_rounds, rounds_played
from risk.tui.session import PlaySession, make_seats
from risk.view import View
from test_tui import helper_line, new_session, say


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
    from risk.record import read_record_file

    loaded = read_record_file(path)
    resumed = PlaySession(loaded, make_seats(["human", "quick", "quick"], loaded.seed), directory=tmp_path)
    assert resumed.rounds.current == session.rounds.current >= 3
    assert View(loaded, 0).turn == game.turn
