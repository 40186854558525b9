"""The state's fields are declared once (risk/rules/state.py and each variant's module): a copy, a
save and a restore go through the declarations, so no field can be left out of any of them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from risk.play.simulate import play_game
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.rules.state import same, state_fields

GAMES = {
    "world": "2008",
    "team": "2003 game=team",
    "two-player-active-experts": (
        "2003 game=two-player neutral-mode=active attack-advantage=on commanders=on army-cap=12"
    ),
    "capital": "1993 game=capital",
    "secret-mission": "2008 game=secret-mission",
    "mission": "2003 game=mission",
}


def mid_game(description: str) -> Game:
    rules = Rules.from_description(description)
    seats = 4 if rules.game in ("team", "mission") else (2 if rules.game == "two-player" else 3)
    game, _ = play_game(rules, ["quick"] * seats, seed=3, max_turns=6)
    return game


def mutable_parts(value: Any) -> list[Any]:
    """The lists inside a field's value (the value itself, its inner lists, a deque)."""
    if isinstance(value, list):
        return [value, *(inner for inner in value if isinstance(inner, list))]
    if type(value).__name__ == "deque":
        return [value]
    return []


def test_every_slot_is_a_declared_field() -> None:
    declared = {name for name, _ in state_fields(Game)}
    if hasattr(Game, "__mypyc_attrs__"):  # the compiled build: a native class lists its attributes
        slots = set(Game.__mypyc_attrs__)
    else:
        slots = {name for cls in Game.__mro__ for name in getattr(cls, "__slots__", ())}
    assert slots == declared


@pytest.mark.parametrize("description", GAMES.values(), ids=GAMES.keys())
def test_a_copy_shares_no_list_with_its_original(description: str) -> None:
    game = mid_game(description)
    copy = game.copy()
    for name, kept in state_fields(Game):
        original, copied = getattr(game, name), getattr(copy, name)
        if name not in ("_script", "_verify", "_rng"):
            assert copied == original, name
        if kept.copy is same:
            continue  # declared shared: immutable, or replaced and never changed in place
        shared = {id(part) for part in mutable_parts(original)} & {id(part) for part in mutable_parts(copied)}
        assert not shared, f"the copy shares a list of {name!r} with the original"
    if game.team is not None:  # teammates still hold one hand between them in the copy
        assert copy.hands[0] is copy.hands[2] and copy.hands[0] is not game.hands[0]


@pytest.mark.parametrize("description", GAMES.values(), ids=GAMES.keys())
def test_a_saved_state_is_a_snapshot_that_restores_every_field(description: str) -> None:
    game = mid_game(description)
    saved = game.to_dict()
    frozen = json.loads(json.dumps(saved))
    restored = Game.from_dict(frozen)
    for name, _ in state_fields(Game):
        if name not in ("_script", "_verify", "_rng"):
            assert getattr(restored, name) == getattr(game, name), name
    # Playing on does not change a save taken before (it shares no list with the game).
    while game.to_act >= 0 and len(game.history) < len(frozen["history"]) + 40:
        game.apply(next(iter(game.legal_actions())))
    assert json.loads(json.dumps(saved)) == frozen
