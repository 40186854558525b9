"""Old saves still load: states saved with ``Game.to_dict()`` before the rules core became a turn
machine with variant modules (issue 22) restore, save again unchanged, and play on identically.

The files in tests/data/states/ were written by tools/state_snapshots.py at the commit before that
change: each holds a mid-game state of one game of the rulebooks, the actions a seeded chooser then
played (tests/saved_states.py) and a digest of the state they led to.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from risk.rules.game import Game
from risk.rules.options import Rules
from saved_states import FOLDER, play_on, state_digest

SAVES = sorted(FOLDER.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_every_game_of_the_rulebooks_has_a_save() -> None:
    games = {Rules.from_description(load(path)["state"]["rules"]).game for path in SAVES}
    assert games == {"world", "team", "two-player", "capital", "secret-mission", "mission"}


@pytest.mark.parametrize("path", SAVES, ids=[p.stem for p in SAVES])
def test_an_old_save_loads_saves_again_unchanged_and_plays_on_identically(path: Path) -> None:
    data = load(path)
    game = Game.from_dict(data["state"])
    assert json.loads(json.dumps(game.to_dict())) == data["state"]  # as JSON: tuples are lists there
    assert play_on(game, data["play_on_seed"]) == data["played"]
    assert state_digest(game) == data["digest"]
