"""Game-aware play (risk.bots.aims): the heuristic bots pursue Secret Mission, Capital and Mission
RISK goals, and the search bot's samples of hidden goals agree with what its view shows."""

from __future__ import annotations

import random

import pytest

from positions import make_position
from risk.bots import make_bot
from risk.bots.aims import HOME_GUARD, aim_for, goal_progress
from risk.rules.actions import Attack, Capital, ClaimMission, EndTurn, Fortify, Place
from risk.rules.game import Game, Phase
from risk.rules.missions import mission_by_key
from risk.rules.options import Rules
from risk.rules.variants.missions import claimable_missions, mission_complete
from risk.view import View

SECRET = Rules.preset("2008").with_options(game="secret-mission")
CAPITAL = Rules.preset("2008").with_options(game="capital")
MISSION = Rules.preset("2003").with_options(game="mission")


def choose(game: Game, bot: str = "continental", seat: int = 0) -> object:
    return make_bot(bot, seat).choose(View(game, seat))


def territory(game: Game, name: str) -> int:
    return game.board.territory(name)


# -- Secret Mission RISK -------------------------------------------------------------------------
def two_fronts(mission: str) -> Game:
    """Seat 0 has one stack in Africa (next to Asia) and one in North America, the same size."""
    game = make_position(
        SECRET,
        players=4,
        owners={"east-africa": (0, 6), "western-united-states": (0, 6), "middle-east": (2, 2)},
        default_owner=1,
        default_armies=2,
        phase=Phase.REINFORCE,
        pending=5,
    )
    game.territory_count = [game.owner.count(p) for p in range(4)]
    game.alive = [True, True, True, False]
    game.missions[0] = mission_by_key(mission, 4)
    return game


@pytest.mark.parametrize("bot", ["continental", "fortress", "warlord"])
def test_a_mission_to_take_asia_and_africa_reinforces_there(bot: str) -> None:
    africa = two_fronts("asia-africa")
    america = two_fronts("north-america-australia")
    for game, wanted in ((africa, "east-africa"), (america, "western-united-states")):
        action = choose(game, bot)
        assert isinstance(action, Place)
        assert action.territory == territory(game, wanted)


def test_a_mission_to_take_asia_and_africa_attacks_there() -> None:
    game = two_fronts("asia-africa")
    game.phase, game.pending = Phase.ATTACK, 0
    action = choose(game)
    assert isinstance(action, Attack)
    target = game.board.continent_of[action.target]
    assert game.board.continents[target].name in ("Asia", "Africa")


def test_a_colour_to_destroy_is_attacked_first() -> None:
    game = two_fronts("destroy-green")  # seat 2, green, holds the Middle East
    game.phase, game.pending = Phase.ATTACK, 0
    action = choose(game)
    assert action == Attack(territory(game, "east-africa"), territory(game, "middle-east"), 3)


def test_an_opponent_close_to_two_continents_is_blocked() -> None:
    # Seat 1 holds North America and all of Africa but Egypt: one conquest from a mission.
    owners = {name: (1, 2) for name in ("north-africa", "east-africa", "congo", "south-africa", "madagascar")}
    owners |= {"egypt": (0, 8), "southern-europe": (0, 8), "ukraine": (3, 2), "middle-east": (3, 2)}
    owners |= {"western-europe": (3, 2), "northern-europe": (3, 2)}  # no one else near a mission
    game = make_position(SECRET, players=4, owners=owners, default_owner=2, default_armies=2)
    board = game.board
    for t in board.continents[board.continent("North America")].territories:
        game.owner[t] = 1
    game.territory_count = [game.owner.count(p) for p in range(4)]
    game.missions[0] = mission_by_key("occupy-18-with-2", 4)
    aim = aim_for(View(game, 0))
    assert aim is not None
    assert aim.value[territory(game, "north-africa")] > aim.value[territory(game, "ukraine")]
    action = choose(game)
    assert isinstance(action, Attack)
    assert game.owner[action.target] == 1


def test_eighteen_territories_with_two_armies_placed_one_by_one_at_the_end() -> None:
    # Seat 0 holds 16 territories with 2 armies and 3 with 1: three placements win.
    names = [game_name for game_name in Game(SECRET, 4).board.territories][:19]
    owners = {t.name: (0, 2 if i < 16 else 1) for i, t in enumerate(names)}
    game = make_position(
        SECRET, players=4, owners=owners, default_owner=1, default_armies=3, phase=Phase.REINFORCE, pending=3
    )
    game.missions[0] = mission_by_key("occupy-18-with-2", 4)
    bot = make_bot("continental", 0)
    while game.winner is None:
        action = bot.choose(View(game, 0))
        assert isinstance(action, Place) and action.armies == 1 and game.armies[action.territory] == 1
        game.apply(action)
    assert game.winner == 0


# -- Capital RISK --------------------------------------------------------------------------------
def test_the_headquarters_chosen_is_inside_our_ground() -> None:
    owners = {name: (0, 3) for name in ("indonesia", "new-guinea", "western-australia", "eastern-australia")}
    owners["siam"] = (0, 8)
    game = make_position(CAPITAL, players=3, owners=owners, default_owner=1, phase=Phase.CHOOSE_CAPITAL)
    action = choose(game)
    assert isinstance(action, Capital)
    assert all(game.owner[n] == 0 for n in game.board.neighbours[action.territory])


def capital_position(phase: Phase, pending: int = 0) -> Game:
    owners = {
        "ural": (0, 3),
        "siberia": (0, 10),
        "yakutsk": (0, 10),
        "ukraine": (0, 6),
        "afghanistan": (1, 12),
    }
    owners |= {"kamchatka": (1, 2), "iceland": (2, 2), "scandinavia": (2, 2)}
    game = make_position(
        CAPITAL, players=3, owners=owners, default_owner=2, default_armies=2, phase=phase, pending=pending
    )
    game.territory_count = [game.owner.count(p) for p in range(3)]
    game.capitals = [territory(game, "ural"), territory(game, "kamchatka"), territory(game, "iceland")]
    return game


def test_a_threatened_headquarters_is_reinforced_first() -> None:
    game = capital_position(Phase.REINFORCE, pending=9)
    action = choose(game)
    assert action == Place(territory(game, "ural"), 9)  # short of 12 against 11 next door: everything


def test_the_headquarters_keeps_a_guard_when_fortifying() -> None:
    australia = ("indonesia", "new-guinea", "western-australia", "eastern-australia")
    owners = {name: (0, 3) for name in australia} | {"siam": (1, 12)}
    game = make_position(CAPITAL, players=3, owners=owners, default_owner=2, phase=Phase.FORTIFY)
    home = territory(game, "western-australia")
    game.armies[home] = 20
    game.capitals = [home, territory(game, "siam"), territory(game, "iceland")]
    action = choose(game)
    # The headquarters is the largest stack behind the front: the armies go to Indonesia, facing
    # Siam's 11, but a guard stays against half of them (two steps away), and one more.
    guard = round(HOME_GUARD * 11 // 2) + 1
    assert 2 < guard < 20
    assert action == Fortify(home, territory(game, "indonesia"), 20 - guard)


def test_the_weakest_opposing_headquarters_is_attacked() -> None:
    game = capital_position(Phase.ATTACK)
    game.armies[territory(game, "afghanistan")] = 2  # no threat now: free to attack
    action = choose(game)
    assert isinstance(action, Attack)
    assert action.target == territory(game, "kamchatka")  # a headquarters on two armies


def test_a_lost_headquarters_is_taken_back_first() -> None:
    game = capital_position(Phase.ATTACK)
    ural = territory(game, "ural")
    game.owner[ural], game.armies[ural] = 1, 3  # seat 1 took it
    game.territory_count = [game.owner.count(p) for p in range(3)]
    action = choose(game)
    assert isinstance(action, Attack) and action.target == ural


# -- Mission RISK --------------------------------------------------------------------------------
def mission_position(phase: Phase, cards: list[str], pending: int = 0) -> Game:
    owners = {name: (0, 3) for name in ("indonesia", "new-guinea", "western-australia", "eastern-australia")}
    game = make_position(
        MISSION, players=4, owners=owners, default_owner=1, default_armies=2, phase=phase, pending=pending
    )
    game.mission_cards[0] = cards
    return game


def test_a_complete_mission_is_claimed_at_its_time() -> None:
    cards = ["general-asia", "major-europe", "colonel-africa", "captain-australia"]  # Australia: "start"
    game = mission_position(Phase.REINFORCE, cards, pending=3)
    assert choose(game) == ClaimMission("captain-australia")
    game.apply(ClaimMission("captain-australia"))
    assert game.missions_claimed[0] == ["captain-australia"]
    # One a turn: the next decision places armies.
    assert isinstance(choose(game), Place)


def test_an_end_of_turn_card_is_shown_then_the_turn_ends() -> None:
    cards = ["general-asia", "major-europe", "colonel-africa", "captain-two-islands"]  # "end"
    game = mission_position(Phase.TURN_END, cards)
    assert choose(game) == ClaimMission("captain-two-islands")
    game.mission_cards[0] = cards[:3]
    assert choose(game) == EndTurn()


def test_a_stack_card_gets_the_reinforcements_in_one_place() -> None:
    cards = ["general-asia", "major-europe", "colonel-africa", "captain-stack-10"]
    game = mission_position(Phase.REINFORCE, cards, pending=8)
    game.placed_this_turn = True  # past the start of the turn
    action = choose(game)
    assert action == Place(territory(game, "indonesia"), 8)  # 3 + 8 armies: the stack of 10


# -- goal progress and the search bot's samples ------------------------------------------------
def test_goal_progress_measures_the_goal() -> None:
    game = two_fronts("asia-africa")
    assert goal_progress(View(game, 0)) == pytest.approx(1 / 18)  # East Africa of Asia's 12 and Africa's 6
    world = make_position("2008", players=3)
    assert goal_progress(View(world, 0)) is None
    capital = capital_position(Phase.ATTACK)
    assert goal_progress(View(capital, 0)) == pytest.approx(0.5)  # its own headquarters, none of the others
    capital.owner[territory(capital, "kamchatka")] = 0
    assert goal_progress(View(capital, 0)) == pytest.approx(0.75)


def played_to(rules: Rules, turn: int, seed: int) -> Game:
    game = Game(rules, 4, seed=seed)
    bots = [make_bot("continental", seat) for seat in range(4)]
    while not game.is_over and game.turn < turn:
        game.apply(bots[game.to_act].choose(View(game, game.to_act)))
    return game


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_sampled_secret_missions_are_never_already_complete(seed: int) -> None:
    game = played_to(SECRET, 12, seed)
    assert not game.is_over
    me = game.current
    for rng_seed in range(30):
        sample = View(game, me).determinise(random.Random(rng_seed))
        assert sample.missions[me] == game.missions[me]
        for seat in range(4):
            if seat != me and game.alive[seat]:
                assert not mission_complete(sample, seat)


def test_a_complete_looking_mission_is_never_sampled() -> None:
    # Seat 1 holds Asia and Africa: it cannot hold that card (the game would be over).
    game = played_to(SECRET, 2, seed=6)
    board = game.board
    for name in ("Asia", "Africa"):
        for t in board.continents[board.continent(name)].territories:
            game.owner[t] = 1
    game.territory_count = [game.owner.count(p) for p in range(4)]
    me = 0 if game.missions[0].key != "asia-africa" else 2  # type: ignore[union-attr]
    for rng_seed in range(40):
        sample = View(game, me).determinise(random.Random(rng_seed))
        assert sample.missions[1].key != "asia-africa"  # type: ignore[union-attr]


def test_secret_headquarters_are_sampled_among_the_territories_held() -> None:
    game = Game(CAPITAL, 4, seed=9)
    bots = [make_bot("continental", seat) for seat in range(4)]
    while game.phase != Phase.CHOOSE_CAPITAL:
        game.apply(bots[game.to_act].choose(View(game, game.to_act)))
    game.apply(bots[game.to_act].choose(View(game, game.to_act)))  # one seat chooses, in secret
    chooser = next(p for p, c in enumerate(game.capitals) if c >= 0)
    me = game.to_act
    seen = set()
    for rng_seed in range(20):
        sample = View(game, me).determinise(random.Random(rng_seed))
        assert game.owner[sample.capitals[chooser]] == chooser
        assert all(c < 0 for p, c in enumerate(sample.capitals) if p not in (chooser, me))
        seen.add(sample.capitals[chooser])
    assert len(seen) > 1  # sampled, not copied


def test_revealed_mission_cards_stay_in_samples() -> None:
    game = played_to(MISSION, 3, seed=7)
    # Seat 1 has claimed three: its last card is shown to everyone.
    game.missions_claimed[1] = ["captain-two-conquests", "colonel-africa", "major-europe"]
    game.mission_cards[1] = ["general-asia"]
    me = 0 if game.current != 0 else 2
    for rng_seed in range(10):
        sample = View(game, me).determinise(random.Random(rng_seed))
        assert sample.mission_cards[1] == ["general-asia"]
        assert sample.mission_cards[me] == game.mission_cards[me]
        for seat in (p for p in range(4) if p not in (1, me)):
            assert len(sample.mission_cards[seat]) == len(game.mission_cards[seat])
            assert not set(sample.mission_cards[seat]) & {"general-asia", *game.mission_cards[me]}


def test_the_search_bot_claims_a_complete_mission_without_searching() -> None:
    from risk.bots.search import SearchBot

    cards = ["general-asia", "major-europe", "colonel-africa", "captain-south-america"]  # "reinforced"
    owners = {name: (0, 3) for name in ("venezuela", "brazil", "peru", "argentina")}
    game = make_position(MISSION, players=4, owners=owners, default_owner=1, default_armies=2)
    game.mission_cards[0] = cards
    game.placed_this_turn = True  # reinforcements placed: the attack phase has begun
    assert claimable_missions(game) == ["captain-south-america"]
    assert SearchBot(0, iterations=8).choose(View(game, 0)) == ClaimMission("captain-south-america")
