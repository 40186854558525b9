"""Bots under fog of war (issue 27, "Bots play fair"): every bot plays fogged games of every game type
through its fogged view, acting only where it sees; the search bots' samples of the hidden board are
sensible; and the benchmarks' view through the fog is for benchmarks alone."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from risk.bots import BOTS, make_bot
from risk.bots.base import Bot
from risk.bots.expert import ExpertBot
from risk.bots.search import SearchBot
from risk.errors import IllegalActionError
from risk.rules.actions import Place
from risk.rules.determinise import determinise
from risk.rules.game import Game, Phase
from risk.rules.options import Rules
from risk.view import View

SOURCE = Path(__file__).resolve().parent.parent / "src" / "risk"

FOGGED = {
    "world": Rules.preset("2008"),
    "team": Rules.preset("2003").for_game("team"),
    "two-player": Rules.preset("2008").for_game("two-player"),
    "two-player-active": Rules.preset("2003").for_game("two-player").with_options(neutral_mode="active"),
    "capital": Rules.preset("2008").for_game("capital"),
    "secret-mission": Rules.preset("2008").for_game("secret-mission"),
    "mission": Rules.preset("2003").for_game("mission"),
}
SEATS = {
    "world": 3,
    "team": 4,
    "two-player": 2,
    "two-player-active": 2,
    "capital": 3,
    "secret-mission": 4,
    "mission": 3,
}
COMPANY = ["continental", "quick", "warlord"]


def fogged(name: str) -> Rules:
    return FOGGED[name].with_options(fog="on")


def bot_for(name: str, seed: int) -> Bot:
    if name == "expert":
        return ExpertBot(seed, iterations=2)
    return SearchBot(seed, iterations=2) if name == "search" else make_bot(name, seed)


def check_invariants(game: Game) -> None:
    for seat in range(len(game.players)):
        held = game.territory_count[seat]
        assert held == sum(1 for owner in game.owner if owner == seat)
        if game.alive[seat] and game.phase not in (Phase.CLAIM,) and game.turn > 0:
            assert held > 0 or game.team is not None, f"{game.players[seat]} is in the game with nothing"
    for territory, owner in enumerate(game.owner):
        if owner >= 0:
            assert game.armies[territory] >= 1


def play_fogged(game: Game, bots: list[Bot], max_turns: int) -> None:
    """Every action chosen from the actor's fogged view and checked through it (as front ends do)."""
    while not game.is_over and game.turn <= max_turns:
        actor = game.to_act
        view = View(game, actor)
        assert view.fogged
        action = bots[actor].choose(view)
        view.check(action)  # refuses an action on a territory out of the actor's sight
        game.apply(action)
        check_invariants(game)


@pytest.mark.parametrize("kind", sorted(FOGGED))
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_every_bot_plays_fogged_games_of_every_type(kind: str, bot: str) -> None:
    count = SEATS[kind]
    seed = sorted(BOTS).index(bot) + 7 * sorted(FOGGED).index(kind)
    names = [bot] + [COMPANY[(seed + i) % len(COMPANY)] for i in range(count - 1)]
    names = names[seed % count :] + names[: seed % count]  # the bot takes every seat over the types
    game = Game(fogged(kind), [f"{name}-{seat}" for seat, name in enumerate(names)], seed=seed)
    max_turns = 40 if bot in ("search", "expert") else 120  # (the search bots are slow)
    play_fogged(game, [bot_for(name, seat) for seat, name in enumerate(names)], max_turns)
    assert game.is_over or game.turn > max_turns


def test_an_allied_neutral_gets_its_armies_where_the_player_sees_it() -> None:
    """A territory remembered as the ally's but taken out of sight is no place for its armies: the
    quick bot placed them there (Iceland, turn 31 of this game) before it looked only where it sees,
    and the server's fog test hid that by playing the first legal move instead."""
    game = Game(fogged("two-player-active"), ["quick-0", "quick-1"], seed=0)
    bots = [make_bot("quick", 0), make_bot("quick", 1)]
    placed_with_a_lost_ally_territory = 0
    while not game.is_over and game.turn <= 60:
        actor = game.to_act
        view = View(game, actor)
        if game.phase == Phase.ALLY_PLACE:
            ally = view.placing_for
            remembered = [t for t, owner in enumerate(view.owner) if owner == ally and not view.visible(t)]
            placed_with_a_lost_ally_territory += bool(remembered)
        action = bots[actor].choose(view)
        view.check(action)  # refuses a placement out of the actor's sight
        game.apply(action)
    assert placed_with_a_lost_ally_territory > 0, "the game never put the bot in that position"


def test_no_legal_action_names_a_territory_out_of_sight() -> None:
    """View.legal_actions and View.is_legal agree with View.check: nothing out of sight (a bot picks
    from them). Here one of the player's own territories is taken out of its sight by hand."""
    game = Game(fogged("world"), 3, seed=4)
    bots = [make_bot("continental", seat) for seat in range(3)]
    while not (game.phase == Phase.REINFORCE and game.turn >= 2):
        game.apply(bots[game.to_act].choose(View(game, game.to_act)))
    me = game.to_act
    view = View(game, me)
    hidden = view.territories_of(me)[0]
    assert any(isinstance(a, Place) and a.territory == hidden for a in view.legal_actions())
    game.in_sight[me][hidden] = 0
    assert all(not isinstance(a, Place) or a.territory != hidden for a in view.legal_actions())
    assert view.legal_actions() and all(
        view.visible(a.territory) for a in view.legal_actions() if isinstance(a, Place)
    )
    place = Place(hidden, 1)
    assert game.is_legal(place) and not view.is_legal(place)
    with pytest.raises(IllegalActionError, match="out of your sight"):
        view.check(place)


@pytest.mark.parametrize("kind", sorted(FOGGED))
def test_samples_of_the_hidden_board_are_sensible(kind: str) -> None:
    """Each rival still in the game holds a territory; what is in sight is the real board; what is out
    of sight and remembered held by a rival still in the game keeps its armies and, but for the few
    given to a rival that holds nothing in memory, that holder."""
    game = Game(fogged(kind), SEATS[kind], seed=3)
    bots = [make_bot("continental", seat) for seat in range(SEATS[kind])]
    rng = random.Random(5)
    checked = 0
    while not game.is_over and game.turn <= 30:
        if game.turn >= 2 and game.to_act == game.current and rng.random() < 0.05:
            for me in range(game.humans):
                if not game.alive[me]:
                    continue
                view = View(game, me)
                sample = view.determinise(random.Random(checked))
                checked += 1
                assert sample.rules.fog == "off" and not sample.seen_owner
                moved = 0  # remembered territories given to a rival that holds nothing in memory
                for territory in range(len(game.board)):
                    if view.visible(territory):
                        assert sample.owner[territory] == game.owner[territory]
                        assert sample.armies[territory] == game.armies[territory]
                    elif view.owner[territory] >= 0 and game.alive[view.owner[territory]]:
                        held_by = view.owner[territory]
                        if game.team is None or game.team[held_by] != game.team[me]:
                            moved += sample.owner[territory] != held_by
                            assert sample.armies[territory] == max(1, view.armies[territory])
                    else:
                        assert sample.owner[territory] >= 0 and sample.armies[territory] >= 1
                rivals_in_game = sum(1 for p in range(len(game.players)) if p != me and game.alive[p])
                assert moved <= rivals_in_game
                for seat in range(len(game.players)):
                    rival = seat != me and (game.team is None or game.team[seat] != game.team[me])
                    if rival and game.alive[seat]:
                        assert sample.territory_count[seat] > 0
                    assert sample.territory_count[seat] == sum(1 for o in sample.owner if o == seat)
        game.apply(bots[game.to_act].choose(View(game, game.to_act)))
    assert checked > 0


def test_a_view_through_the_fog_sees_the_board() -> None:
    game = Game(fogged("world"), 3, seed=2)
    bots = [make_bot("continental", seat) for seat in range(3)]
    while game.turn < 6:
        game.apply(bots[game.to_act].choose(View(game, game.to_act)))
    fogged_view, seer = View(game, 0), View(game, 0, through_fog=True)
    assert fogged_view.fogged and not seer.fogged
    assert list(seer.owner) == game.owner and list(seer.armies) == game.armies
    # The fog hides something here.
    assert (list(fogged_view.owner), list(fogged_view.armies)) != (game.owner, game.armies)
    assert len(seer.public_history()) == len(game.history) > len(fogged_view.public_history())
    sample = seer.determinise(random.Random(1))
    assert sample.owner == game.owner and sample.armies == game.armies and sample.rules.fog == "off"
    assert determinise(game, 0, random.Random(1), through_fog=True).owner == game.owner


def test_nothing_but_the_view_and_the_engine_can_see_through_the_fog() -> None:
    """The keyword is for benchmarks: no server, protocol, front end or bot passes it."""
    allowed = {SOURCE / "view.py", SOURCE / "rules" / "determinise.py"}
    users = [
        str(path.relative_to(SOURCE))
        for path in SOURCE.rglob("*.py")
        if path not in allowed and "through_fog" in path.read_text(encoding="utf-8")
    ]
    assert users == []
