"""Write the saved-state snapshots of tests/data/states/ (reference data for tests/test_saved_states.py).

    PYTHONPATH=src .venv/bin/python tools/state_snapshots.py

Each case plays a seeded bot game to a mid-game moment of one game of the rulebooks, saves it with
``Game.to_dict()``, then plays on from that moment with a seeded chooser that picks among the legal
actions by index (engine only: no bot, so a change of bot play cannot change it). The file holds the
saved state, the actions played on and a digest of the state they lead to.

The files in the repository were written before the rules core became a turn machine with variant
modules (issue 22): they are the old saves that must still load and play on identically. Do not
write them again unless the saved-state format is meant to change.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from risk.bots import make_bot
from risk.play.simulate import bot_seed
from risk.rules.game import Game, Phase
from risk.rules.options import Rules
from risk.rules.variants.active import open_invasion
from risk.view import View

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from saved_states import FOLDER, play_on, state_digest


@dataclass(frozen=True, slots=True)
class Case:
    name: str
    rules: str  # a ruleset description, as in a record header
    players: int
    seed: int
    stop: Callable[[Game], bool]  # the moment to save


CASES = (
    Case("world-2008-3", "2008", 3, 11, lambda g: g.turn >= 9 and g.phase == Phase.OCCUPY),
    Case("world-1993-5-defend", "1993", 5, 4, lambda g: g.turn >= 12 and g.phase == Phase.DEFEND),
    Case("team-2003-4", "2003 game=team", 4, 3, lambda g: g.turn >= 10 and g.phase == Phase.ATTACK),
    Case(
        "two-player-active-experts",
        "2003 game=two-player neutral-mode=active attack-advantage=on commanders=on army-cap=12",
        2,
        5,
        lambda g: g.turn >= 6 and g.phase == Phase.ADJUST_DICE,
    ),
    Case(
        "two-player-active-invasion",
        "2003 game=two-player neutral-mode=active",
        2,
        8,
        lambda g: g.turn >= 5 and g.phase == Phase.ATTACK and open_invasion(g) is not None,
    ),
    Case("capital-1993-4", "1993 game=capital", 4, 2, lambda g: g.turn >= 8 and g.phase == Phase.FORTIFY),
    Case("capital-choosing", "2008 game=capital", 3, 6, lambda g: g.phase == Phase.CHOOSE_CAPITAL),
    Case(
        "secret-mission-2008-4",
        "2008 game=secret-mission",
        4,
        7,
        lambda g: g.turn >= 7 and g.phase == Phase.REINFORCE,
    ),
    Case(
        "mission-2003-4",
        "2003 game=mission",
        4,
        9,
        lambda g: g.turn >= 9 and any(g.missions_claimed) and g.phase == Phase.ATTACK,
    ),
    Case(
        "two-player-1993-setup",
        "1993 game=two-player",
        2,
        1,
        lambda g: g.phase == Phase.SETUP_PLACE and len(g.history) > 30,
    ),
)


def snapshot(case: Case) -> dict[str, object]:
    rules = Rules.from_description(case.rules)
    game = Game(rules, case.players, seed=case.seed)
    bots = [make_bot("quick", bot_seed(case.seed, seat)) for seat in range(case.players)]
    views = [View(game, seat) for seat in range(case.players)]
    while not case.stop(game):
        if game.is_over or game.turn > 300:
            raise SystemExit(f"{case.name}: the game never reached its moment")
        game.apply(bots[game.to_act].choose(views[game.to_act]))
    saved = json.loads(json.dumps(game.to_dict()))  # now: to_dict shares some lists with the game
    played = play_on(game, case.seed)
    return {
        "case": case.name,
        "state": saved,
        "play_on_seed": case.seed,
        "played": played,
        "digest": state_digest(game),
    }


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        data = snapshot(case)
        (FOLDER / f"{case.name}.json").write_text(json.dumps(data, separators=(",", ":")) + "\n")
        print(case.name, "saved", file=sys.stderr)


if __name__ == "__main__":
    main()
