"""Scripted positions (risk.rules.scenario): the map rearranged at the start of a turn, the counts and
the reinforcements following it, and every position the rules would not reach refused with the game
left unchanged."""

from __future__ import annotations

import pytest

from risk.bots import make_bot
from risk.errors import IllegalActionError
from risk.rules.actions import Place
from risk.rules.game import Game, Phase
from risk.rules.options import Rules
from risk.rules.scenario import rearrange
from risk.view import View


def at_first_turn(rules: Rules | str = "2008", players: int = 3, seed: int = 3) -> Game:
    """A game whose setup quick bots have played, at the start of the first turn."""
    game = Game(rules, players, seed=seed)
    bots = [make_bot("quick", seat) for seat in range(players)]
    while game.turn == 0:
        game.apply(bots[game.to_act].choose(View(game, game.to_act)))
    return game


def two_continents_to(game: Game, leader: int) -> tuple[list[int], list[int]]:
    """The leader holds South America and Africa with 3 armies each; the others alternate elsewhere."""
    board = game.board
    continents = [board.continents[board.continent(name)] for name in ("south america", "africa")]
    ours = {t for continent in continents for t in continent.territories}
    others = [seat for seat in range(game.humans) if seat != leader]
    rest = [t for t in range(len(board)) if t not in ours]
    owner = [leader] * len(board)
    for i, t in enumerate(rest):
        owner[t] = others[i % len(others)]
    armies = [3 if t in ours else 2 for t in range(len(board))]
    return owner, armies


def test_the_map_is_rearranged_and_the_current_player_counts_its_reinforcements_afresh() -> None:
    game = at_first_turn()
    leader = game.current
    owner, armies = two_continents_to(game, leader)
    seen_owner, seen_armies = View(game, 1).owner, View(game, 1).armies
    rearrange(game, owner, armies)
    board = game.board
    assert game.owner == owner and game.armies == armies
    assert seen_owner == owner and seen_armies == armies  # what a view handed out stays live
    assert game.territory_count[leader] == 10
    assert sum(game.territory_count) == len(board)
    assert sorted(board.continents[c].name for c in game.continents_of(leader)) == ["Africa", "South America"]
    assert game.pending == 3 + 2 + 3  # 10 territories, South America and Africa
    assert game.phase == Phase.REINFORCE and game.current == leader
    places = [a for a in game.legal_actions() if isinstance(a, Place)]
    assert places and {a.territory for a in places} == {t for t in range(len(board)) if owner[t] == leader}


def test_a_rearranged_game_plays_on_to_its_end() -> None:
    game = at_first_turn(seed=5)
    rearrange(game, *two_continents_to(game, (game.current + 1) % 3))
    bots = [make_bot("quick", seat) for seat in range(3)]
    while not game.is_over and game.turn < 400:
        game.apply(bots[game.to_act].choose(View(game, game.to_act)))
    assert game.is_over and game.winner is not None


def refusal(game: Game, owner: list[int], armies: list[int]) -> str:
    before = game.to_dict()
    with pytest.raises(IllegalActionError) as caught:
        rearrange(game, owner, armies)
    assert game.to_dict() == before
    return str(caught.value)


def test_a_position_the_rules_would_not_reach_is_refused_and_changes_nothing() -> None:
    game = at_first_turn()
    owner, armies = two_continents_to(game, game.current)
    assert "42 territories" in refusal(game, owner[:-1], armies[:-1])
    assert "at least 1" in refusal(game, owner, [0, *armies[1:]])
    assert "not a player" in refusal(game, [3, *owner[1:]], armies)
    nobody_else = [game.current] * len(owner)
    assert "no territory left" in refusal(game, nobody_else, armies)
    game.apply(Place(game.territories_of(game.current)[0], 1))
    assert "start of a turn" in refusal(game, owner, armies)


def test_a_game_with_variants_is_refused() -> None:
    game = at_first_turn(Rules.preset("2008").for_game("capital"))
    while game.turn == 0 or game.phase != Phase.REINFORCE:  # the headquarters are chosen first
        game.apply(make_bot("quick", 0).choose(View(game, game.to_act)))
    assert "variants" in refusal(game, *two_continents_to(game, game.current))
