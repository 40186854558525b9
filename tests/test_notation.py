"""The action notation: printed and parsed exactly, with clear errors."""

from __future__ import annotations

import pytest

from risk.errors import NotationError
from risk.maps import load_map
from risk.rules.actions import (
    END_ATTACK,
    END_TURN,
    Attack,
    Claim,
    Defend,
    Fortify,
    Occupy,
    Place,
    Trade,
    parse_action,
)

BOARD = load_map("classic")
T = BOARD.territory


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("claim alaska", Claim(T("Alaska"))),
        ("place alaska 3", Place(T("Alaska"), 3)),
        ("place alaska", Place(T("Alaska"), 1)),
        ("trade alaska kamchatka wild1", Trade((T("Alaska"), T("Kamchatka"), 42))),
        ("attack kamchatka alaska 3", Attack(T("Kamchatka"), T("Alaska"), 3)),
        ("defend 2", Defend(2)),
        ("move 5", Occupy(5)),
        ("endattack", END_ATTACK),
        ("fortify siberia ural 4", Fortify(T("Siberia"), T("Ural"), 4)),
        ("endturn", END_TURN),
    ],
)
def test_canonical_forms_round_trip(text: str, action: object) -> None:
    parsed = parse_action(text, BOARD)
    assert parsed == action
    if text != "place alaska":
        assert parsed.text(BOARD) == text


def test_human_spellings() -> None:
    assert parse_action("Attack Western United States Alberta 2", BOARD) == Attack(
        T("Western United States"), T("Alberta"), 2
    )
    assert parse_action("  FORTIFY eastern canada, ontario 1 ", BOARD) == Fortify(
        T("Quebec"), T("Ontario"), 1
    )
    assert parse_action("end attack", BOARD) == END_ATTACK
    assert parse_action("End Turn", BOARD) == END_TURN
    assert parse_action("trade great britain, north africa, wild 2", BOARD) == Trade(
        (T("Great Britain"), T("North Africa"), 43)
    )
    assert parse_action("place northwest-territory 2", BOARD).text(BOARD) == "place northwest-territory 2"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("conquer alaska", "unknown action 'conquer'"),
        ("claim atlantis", "expected a territory name, got 'atlantis'"),
        ("attack alaska kamchatka", "ends with the number of dice"),
        ("attack alaska kamchatka three", "expected a number of dice"),
        ("place alaska 3 4", "unexpected '4'"),
        ("trade alaska kamchatka", "exactly three cards, not 2"),
        ("trade alaska kamchatka joker", "no card called 'joker'"),
        ("defend", "expected 'defend 1' or 'defend 2'"),
        ("move -1", "a whole number"),
        ("endturn now", "unexpected 'now'"),
    ],
)
def test_malformed_text_says_what_was_wrong(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_action(text, BOARD)


def test_game_and_view_print_an_action_in_the_notation() -> None:
    """``str(action)`` is the dataclass (``Claim(territory=0)``); ``game.text(action)`` is its
    notation on the game's board, as python-chess's ``board.san(move)``."""
    import risk

    game = risk.Game(risk.Rules.preset("2008"), ["Ann", "Bob", "Cy"], seed=42)
    first = next(iter(game.legal_actions()))
    assert str(first) == "Claim(territory=0)"
    assert game.text(first) == "claim alaska"
    assert risk.View(game, game.to_act).text(first) == "claim alaska"
    assert all(game.parse(game.text(action)) == action for action in game.legal_actions())


def test_apply_with_dice_says_why_an_action_does_not_roll() -> None:
    """Under the 2008 rules the defender chooses its dice: the attack rolls nothing, its ``defend``
    does, and the refusal says so (and changes nothing)."""
    import random

    import risk

    game = risk.Game(risk.Rules.preset("2008"), ["Ann", "Bob", "Cy"], seed=42)
    chooser = random.Random(1)
    while game.phase is not risk.Phase.ATTACK:
        game.apply_unchecked(chooser.choice(list(game.legal_actions())))
    attack = next(a for a in game.legal_actions() if isinstance(a, risk.Attack))
    before = game.to_dict()
    with pytest.raises(
        risk.IllegalActionError,
        match=r"the defender chooses its dice first: give the "
        r"dice with its 'defend N'",
    ):
        game.apply_with_dice(attack, (6, 5, 1)[: attack.dice], (4,))
    with pytest.raises(
        risk.IllegalActionError,
        match=r"'endattack' does not roll the dice: only an "
        r"attack or a defence does",
    ):
        game.apply_with_dice("endattack", (6,), (4,))
    assert game.to_dict() == before
    game.apply(attack)
    game.apply_with_dice("defend 1", (6, 5, 1)[: attack.dice], (4,))
    assert game.last_battle is not None and game.last_battle.defender_dice == (4,)
