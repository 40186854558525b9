"""Golden games: a fixed set of seeded bot games whose records must never change.

A speed-up of the engine or of a bot must leave every game it plays exactly as it was: the same
seed gives the same actions and the same chance outcomes. Each case below plays a few seeds and
digests the full record (``write_record``: every action and every outcome); the digests taken at the
commit before the speed work live in ``tests/test_golden_records.py`` and are printed by
``tools/golden_records.py``. The cases cover every bot of the ladder at 3 and 6 players and each
game of the rulebooks (secret missions, capitals, 2 players with passive and active neutrals, Mission
RISK, Team RISK, the 1993 expert options). The search bot plays turn-capped games at its default
iteration budget without its time cap, so that a slow machine cannot change its choices.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

from risk.bots import Bot, make_bot
from risk.bots.search import SearchBot
from risk.play.simulate import bot_seed, play_game
from risk.record import write_record
from risk.rules.options import Rules


@dataclass(frozen=True, slots=True)
class GoldenCase:
    label: str
    preset: str
    game: str
    options: tuple[str, ...]
    bots: tuple[str, ...]
    seeds: tuple[int, ...]
    max_turns: int = 1000

    def rules(self) -> Rules:
        return Rules.preset(self.preset).for_game(self.game).with_option_text(list(self.options))


EXPERTS = ("attack-advantage=on", "commanders=on", "army-cap=12", "fortify=extended", "card-values=plus-one")

CASES: tuple[GoldenCase, ...] = (
    GoldenCase("quick-2008-3", "2008", "world", (), ("quick",) * 3, (0, 1, 2, 3, 4, 5)),
    GoldenCase("quick-1993-6", "1993", "world", (), ("quick",) * 6, (0, 1, 2, 3)),
    GoldenCase("fortress-2008-3", "2008", "world", (), ("fortress",) * 3, (0, 1, 2)),
    GoldenCase("fortress-1993-6", "1993", "world", (), ("fortress",) * 6, (0, 1)),
    GoldenCase("continental-2008-3", "2008", "world", (), ("continental",) * 3, (0, 1, 2, 3)),
    GoldenCase("continental-1993-6", "1993", "world", (), ("continental",) * 6, (0, 1)),
    GoldenCase("ladder-2003-4", "2003", "world", (), ("random", "quick", "fortress", "continental"), (0, 1)),
    GoldenCase(
        "secret-mission-2008-4",
        "2008",
        "secret-mission",
        (),
        ("quick", "fortress", "continental", "quick"),
        (0, 1, 2),
    ),
    GoldenCase(
        "secret-mission-1993-6",
        "1993",
        "secret-mission",
        (),
        ("continental", "quick") * 3,
        (0, 1),
    ),
    GoldenCase(
        "capital-1993-4",
        "1993",
        "capital",
        (),
        ("continental", "quick", "fortress", "quick"),
        (0, 1),
    ),
    GoldenCase(
        "capital-2008-3-short",
        "2008",
        "capital",
        ("capitals-to-win=short",),
        ("continental",) * 3,
        (0,),
    ),
    GoldenCase("two-player-1993", "1993", "two-player", (), ("continental", "quick"), (0, 1, 2)),
    GoldenCase("two-player-2003", "2003", "two-player", (), ("fortress", "continental"), (0, 1)),
    GoldenCase(
        "two-player-2003-active",
        "2003",
        "two-player",
        ("neutral-mode=active",),
        ("quick", "continental"),
        (0, 1, 2),
    ),
    GoldenCase(
        "mission-2003-4",
        "2003",
        "mission",
        (),
        ("quick", "continental", "fortress", "random"),
        (0, 1),
    ),
    GoldenCase(
        "team-2003-4",
        "2003",
        "team",
        (),
        ("continental", "quick", "fortress", "continental"),
        (0, 1),
    ),
    GoldenCase("team-2003-6", "2003", "team", (), ("quick", "continental") * 3, (0,), max_turns=300),
    GoldenCase("experts-1993-3", "1993", "world", EXPERTS, ("quick", "continental", "fortress"), (0, 1)),
    GoldenCase("search-2008-3", "2008", "world", (), ("search", "continental", "quick"), (0, 1), max_turns=7),
    GoldenCase("search-1993-6", "1993", "world", (), ("search", "continental") * 3, (0,), max_turns=3),
    GoldenCase(
        "search-secret-mission-2008-3",
        "2008",
        "secret-mission",
        (),
        ("search", "fortress", "continental"),
        (0,),
        max_turns=6,
    ),
    GoldenCase("search-team-2003-4", "2003", "team", (), ("search", "quick") * 2, (0,), max_turns=3),
)


def golden_bot(name: str, seed: int) -> Bot:
    """The bot of a golden game: as ``play_game`` makes it, but the search bot without its time cap."""
    if name == "search":
        return SearchBot(seed, max_seconds=math.inf)
    return make_bot(name, seed)


def golden_digest(case: GoldenCase, seed: int) -> str:
    """The digest of the record of ``case`` played with ``seed``."""
    bots = [golden_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(case.bots)]
    game, _ = play_game(case.rules(), case.bots, seed, max_turns=case.max_turns, bots=bots)
    return hashlib.sha256(write_record(game).encode()).hexdigest()[:20]


def golden_keys() -> list[tuple[GoldenCase, int]]:
    return [(case, seed) for case in CASES for seed in case.seeds]
