"""Saved-state snapshots (tests/data/states/): how a save is played on and digested.

tools/state_snapshots.py writes the files; tests/test_saved_states.py checks that they still load,
save again unchanged and play on identically.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from risk.rules.game import Game

FOLDER = Path(__file__).resolve().parent / "data" / "states"
PLAY_ON = 300  # actions played from the saved state


def state_digest(game: Game) -> str:
    """A digest of the whole state, history and generator included."""
    return hashlib.sha256(json.dumps(game.to_dict(), sort_keys=True).encode()).hexdigest()


def play_on(game: Game, seed: int, count: int = PLAY_ON) -> list[str]:
    """Play ``count`` legal actions (or until the game ends), each picked by index among the legal
    actions by a seeded generator: the engine alone decides, no bot."""
    chooser = random.Random(seed)
    played = []
    for _ in range(count):
        if game.is_over:
            break
        actions = list(game.legal_actions())
        action = actions[chooser.randrange(len(actions))]
        played.append(game.action_text(action))
        game.apply(action)
    return played
