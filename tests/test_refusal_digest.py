"""Refusals and legal actions along random games of every kind, pinned by a digest taken with the
engine before the rules core became a turn machine with variant modules (issue 22, at 4bd58ad).

At each step of seeded random games (every game of the rulebooks, the expert options, active
neutrals), the legal actions in order and the reason each of some forty actions (legal and not:
every verb, territories and counts at random, out-of-range values) is refused, word for word. A
change to any refusal text, to the order in which the checks are made, or to the legal actions
changes the digest.
"""

from __future__ import annotations

import hashlib
import json
import random

from risk.errors import RiskError
from risk.rules.actions import (
    ACCEPT_DICE,
    CALL_OFF,
    END_ATTACK,
    END_TURN,
    Action,
    Attack,
    Bribe,
    Capital,
    Claim,
    ClaimMission,
    Commander,
    Defend,
    Fortify,
    Occupy,
    Place,
    ReinforceAlly,
    Reroll,
    Resign,
    Trade,
)
from risk.rules.game import Game
from risk.rules.options import Rules

GAMES = (
    ("2008", 3),
    ("1993", 5),
    ("2003 game=team", 4),
    ("2003 game=team", 6),
    ("2003 game=two-player neutral-mode=active attack-advantage=on commanders=on army-cap=12", 2),
    ("2003 game=two-player neutral-mode=active", 2),
    ("1993 game=two-player", 2),
    ("2008 game=two-player", 2),
    ("1993 game=capital", 4),
    ("2008 game=capital capitals-to-win=short", 4),
    ("2008 game=secret-mission", 4),
    ("2003 game=mission", 4),
    ("1993 army-cap=12 fortify=extended card-values=plus-one", 3),
    ("1993 attack-advantage=on commanders=on", 3),
)
SEEDS, STEPS = 3, 300
DIGEST = "6b2cf4ceb26a6b330abf487f3363169e3a5376fa6f1f1fdaf83693806b898cc2"  # at 4bd58ad


def tried(game: Game, rng: random.Random) -> list[Action]:
    t = len(game.board)
    actions: list[Action] = []
    for _ in range(12):
        a, b = rng.randrange(t), rng.randrange(t)
        attack, fortify = Attack(a, b, rng.randint(0, 4)), Fortify(a, b, rng.randint(0, 5))
        actions += [attack, fortify, Place(a, rng.randint(0, 6))]
        actions += [Claim(a), Capital(a)]
    actions += [Defend(1), Defend(2), Defend(3), Occupy(rng.randint(0, 6)), END_ATTACK, END_TURN, ACCEPT_DICE]
    actions += [CALL_OFF, Reroll("attacker", 1), Reroll("defender", 2), Commander(1), Commander(3)]
    actions += [Bribe(1, rng.randrange(44)), Bribe(3, 0), ReinforceAlly(1), ReinforceAlly(2)]
    actions += [ClaimMission("captain-australia"), ClaimMission("general-asia"), Resign(rng.randrange(-1, 8))]
    actions += [Resign(), Trade((rng.randrange(44), rng.randrange(44), rng.randrange(44)))]
    return [*actions, Attack(99, 1, 1), Place(-1, 1)]


def refusal(game: Game, action: Action) -> str:
    try:
        game.check(action)
    except RiskError as error:
        return str(error)
    return "ok"


def random_games_digest() -> str:
    digest = hashlib.sha256()
    for index, (description, players) in enumerate(GAMES):
        for seed in range(SEEDS):
            game = Game(Rules.from_description(description), players, seed=seed)
            rng = random.Random(seed * 100 + index)
            for step in range(STEPS):
                if game.is_over:
                    break
                legal = list(game.legal_actions())
                texts = [game.action_text(a) for a in legal]
                line = [description, seed, step, len(game.legal_actions()), texts]
                line += [refusal(game, action) for action in tried(game, rng)]
                digest.update(json.dumps(line).encode())
                game.apply(legal[0] if rng.random() < 0.2 else rng.choice(legal))
            outcome = game.outcome()
            ending = None if outcome is None else [outcome.winner, outcome.reason, list(outcome.winners)]
            digest.update(json.dumps([description, seed, ending]).encode())
    return digest.hexdigest()


def test_refusals_and_legal_actions_of_random_games_are_as_before() -> None:
    assert random_games_digest() == DIGEST
