"""Determinisation in the engine (risk.rules.determinise, View.determinise): a full game sampled from
what one player may know, and from nothing else.

Each test builds a twin of a real game that differs only in what the player cannot see (another
player's cards, secret mission, unrevealed mission cards or secret headquarters; the order of the
draw pile; the seed and the generator), through the public save format, and checks that the same
generator gives the very same determinised game for both.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from risk.bots import make_bot
from risk.rules.determinise import determinise
from risk.rules.game import Game, Phase
from risk.rules.missions import ranked_mission
from risk.rules.options import Rules
from risk.view import View

Secrets = Callable[[dict[str, Any], int, random.Random], None]


def played(rules: Rules, turn: int, seed: int, until: Callable[[Game], bool] | None = None) -> Game:
    game = Game(rules, 4, seed=seed)
    bots = [make_bot("continental", seat) for seat in range(4)]
    done = until or (lambda g: g.turn >= turn)
    while not game.is_over and not done(game):
        game.apply(bots[game.to_act].choose(View(game, game.to_act)))
    assert not game.is_over
    return game


def shuffle_cards(data: dict[str, Any], me: int, rng: random.Random) -> None:
    """Deal the cards ``me`` cannot see (the other hands and the draw pile) afresh, sizes kept."""
    hands = data["hands"]
    pool = [card for seat, hand in enumerate(hands) if seat != me for card in hand] + data["deck"]
    rng.shuffle(pool)
    for seat, hand in enumerate(hands):
        if seat != me:
            hands[seat], pool = pool[: len(hand)], pool[len(hand) :]
    data["deck"] = pool


def swap_secret_missions(data: dict[str, Any], me: int, rng: random.Random) -> None:
    others = [seat for seat in range(4) if seat != me]
    first, second = rng.sample(others, 2)
    missions = data["missions"]
    missions[first], missions[second] = missions[second], missions[first]


def swap_mission_cards(data: dict[str, Any], me: int, rng: random.Random) -> None:
    """Two other players' unrevealed mission cards of the same rank change hands."""
    cards = data["mission_cards"]
    first, second = rng.sample([seat for seat in range(4) if seat != me], 2)
    for i, key in enumerate(cards[first]):
        for j, other in enumerate(cards[second]):
            if ranked_mission(key).rank == ranked_mission(other).rank:
                cards[first][i], cards[second][j] = other, key
                return
    raise AssertionError("no two cards of one rank to swap")


def move_secret_headquarters(data: dict[str, Any], me: int, rng: random.Random) -> None:
    """Another seat's headquarters, chosen in secret, moves to another territory it holds."""
    capitals = data["capitals"]
    chooser = next(seat for seat, capital in enumerate(capitals) if capital >= 0 and seat != me)
    held = [t for t, seat in enumerate(data["owner"]) if seat == chooser and t != capitals[chooser]]
    capitals[chooser] = rng.choice(held)


def twin(game: Game, me: int, seed: int, *changes: Secrets) -> Game:
    """``game`` with everything ``me`` may not see changed: the secrets in ``changes``, the cards,
    the seed and the generator."""
    data = json.loads(json.dumps(game.to_dict()))  # a copy: to_dict shares some of the game's lists
    rng = random.Random(seed)
    for change in (shuffle_cards, *changes):
        change(data, me, rng)
    version, internal, gauss = random.Random(seed).getstate()
    data["rng"], data["seed"] = [version, list(internal), gauss], seed
    other = Game.from_dict(data)
    assert View(other, me).to_dict() == View(game, me).to_dict()  # the player cannot tell them apart
    assert other.to_dict() != game.to_dict()  # and yet they differ
    return other


def capital_choosing() -> Game:
    """Capital RISK with one headquarters chosen in secret and another seat to choose."""
    rules = Rules.preset("2008").for_game("capital")
    return played(rules, 0, 9, until=lambda game: any(capital >= 0 for capital in game.capitals))


CASES: dict[str, tuple[Callable[[], Game], tuple[Secrets, ...]]] = {
    "world": (lambda: played(Rules.preset("2008"), 25, 5), ()),
    "secret-mission": (
        lambda: played(Rules.preset("2008").for_game("secret-mission"), 6, 3),
        (swap_secret_missions,),
    ),
    "mission": (lambda: played(Rules.preset("2003").for_game("mission"), 3, 7), (swap_mission_cards,)),
    "capital": (capital_choosing, (move_secret_headquarters,)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_determinised_game_depends_only_on_what_the_player_may_see(name: str) -> None:
    make, changes = CASES[name]
    game = make()
    me = game.to_act
    assert name != "capital" or game.phase == Phase.CHOOSE_CAPITAL
    other = twin(game, me, 99, *changes)
    for rng_seed in range(3):
        first = View(game, me).determinise(random.Random(rng_seed))
        second = determinise(other, me, random.Random(rng_seed))
        assert first.to_dict() == second.to_dict()


@pytest.mark.parametrize("name", list(CASES))
def test_a_determinised_game_looks_the_same_to_the_player(name: str) -> None:
    game = CASES[name][0]()
    me = game.to_act
    before = game.to_dict()
    sample = View(game, me).determinise(random.Random(4))
    assert game.to_dict() == before  # the real game is not touched
    assert View(sample, me).to_dict() == View(game, me).to_dict()
    assert sample.history == [] and sample.seed == 0
