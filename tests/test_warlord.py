"""The warlord (the `hard` level): eliminations planned by chain odds, trades timed for them, continents
broken before they pay, the blitz, legal play in every game, seeded replays and its speed."""

from __future__ import annotations

import time

import pytest

from positions import make_position
from risk.bots import BOTS, make_bot
from risk.bots.base import Bot
from risk.bots.heuristic import ContinentalBot
from risk.bots.levels import level_of
from risk.bots.warlord import WarlordBot, WarlordV1, chain_odds
from risk.odds import chain
from risk.rules.actions import END_ATTACK, Attack, Defend, Occupy, Place, Trade
from risk.rules.game import Game, Phase
from risk.rules.options import Rules
from risk.view import View

CARDS = ["alaska", "alberta", "argentina", "brazil"]  # a hand of four cards for the prey


def prey_position(stack: int, prey_armies: int, *, hands: dict[int, list[str]] | None = None) -> Game:
    """Four players: seat 2 holds only Scandinavia and Iceland, next to our stack in Ukraine; seat 1
    holds the rest of the world with 5 armies a territory (nothing else worth attacking)."""
    return make_position(
        "2008",
        4,
        {
            "ukraine": (0, stack),
            "ural": (0, 1),
            "scandinavia": (2, prey_armies),
            "iceland": (2, prey_armies),
            "argentina": (3, 5),
        },
        default_owner=1,
        default_armies=5,
        hands=hands if hands is not None else {2: CARDS},
    )


def play_turn(game: Game, bot: Bot) -> None:
    """Play seat 0's turn to its end (the others' defence dice by the same bot)."""
    while game.current == 0 and not game.is_over:
        actor = game.to_act
        game.apply(bot.choose(View(game, actor)))


def test_it_eliminates_a_weak_player_with_cards_when_the_whole_plan_holds() -> None:
    game = prey_position(20, 2)
    bot = WarlordBot(1)
    view = View(game, 0)
    plan = bot.best_plan(view, 0)
    assert plan is not None and plan.victim == 2
    scandinavia, iceland = game.board.territory("scandinavia"), game.board.territory("iceland")
    # One chain from Ukraine through both territories; its odds are the exact chain odds.
    assert plan.chains == [(game.board.territory("ukraine"), (scandinavia, iceland))]
    assert plan.odds == pytest.approx(chain(19, (2, 2)).takes_all)
    first = bot.choose(view)
    assert isinstance(first, Attack) and first.target == scandinavia
    play_turn(game, bot)
    assert not game.alive[2]
    assert len(game.hands[0]) >= len(CARDS)  # the prey's cards came to us (traded at once if five or more)


def test_it_leaves_a_weak_player_alone_when_the_plan_does_not_hold() -> None:
    game = prey_position(4, 3)
    game.conquered_this_turn = True  # the card is earned: only the plan could make it attack
    bot = WarlordBot(1)
    view = View(game, 0)
    assert bot.plan(view, 0, 2) is not None  # reachable, but ...
    assert bot.plan(view, 0, 2).odds < bot.plan_odds_needed(view, 2)  # type: ignore[union-attr]
    assert bot.best_plan(view, 0) is None
    action = bot.choose(view)
    assert not (isinstance(action, Attack) and game.owner[action.target] == 2)


def test_the_prey_s_cards_lower_the_odds_it_takes() -> None:
    with_cards = View(prey_position(9, 3), 0)
    without = View(prey_position(9, 3, hands={}), 0)
    bot = WarlordBot(1)
    assert bot.plan_odds_needed(with_cards, 2) < bot.plan_odds_needed(without, 2)


def reinforce_position(stack: int, hand: list[str], prey_armies: int = 3) -> Game:
    game = prey_position(stack, prey_armies, hands={0: hand, 2: CARDS})
    # Enough territories not to fear for our cards.
    for name in ("siberia", "yakutsk", "kamchatka", "irkutsk"):
        game.owner[game.board.territory(name)] = 0
    game.territory_count = [game.owner.count(p) for p in range(len(game.players))]
    game.phase, game.pending = Phase.REINFORCE, 3
    return game


# A set of three kinds (infantry, cavalry, artillery) on the classic board.
def a_set(game: Game) -> list[str]:
    board = game.board
    by_symbol: dict[str, str] = {}
    for card in range(len(board)):
        by_symbol.setdefault(board.card_symbols[card], board.card_name(card))
    return [by_symbol[symbol] for symbol in sorted(by_symbol) if symbol != "wild"][:3]


def test_it_trades_a_set_when_its_armies_make_an_elimination_hold_and_holds_it_otherwise() -> None:
    bot = WarlordBot(1)
    # 4 in Ukraine: the 3 reinforcements alone leave the plan short (43%); with the set's 4, 83%.
    hand = a_set(reinforce_position(4, []))
    game = reinforce_position(4, hand)
    view = View(game, 0)
    assert bot.best_plan(view, 0, 3) is None and bot.best_plan(view, 0, 3 + 4) is not None
    assert isinstance(bot.choose(view), Trade)
    # Nothing to gain: the prey's stacks are out of reach, with the set or without.
    game = reinforce_position(4, hand, prey_armies=8)
    action = bot.choose(View(game, 0))
    assert isinstance(action, Place)
    # The same set, forced (five cards): traded.
    forced = reinforce_position(4, [*hand, *CARDS[:2]], prey_armies=8)
    assert isinstance(bot.choose(View(forced, 0)), Trade)


def test_reinforcements_go_to_the_plan_s_first_stack() -> None:
    game = reinforce_position(9, [])
    action = WarlordBot(1).choose(View(game, 0))
    assert action == Place(game.board.territory("ukraine"), 3)


def test_it_breaks_a_continent_about_to_pay_where_continental_waits() -> None:
    game = make_position(
        "2008",
        4,
        {"siam": (0, 4), "argentina": (2, 10), "brazil": (3, 10)},
        default_owner=1,
        default_armies=3,
    )
    game.conquered_this_turn = True  # the card is earned: only the continent is at stake
    view = View(game, 0)
    indonesia = game.board.territory("indonesia")
    assert WarlordBot(1).choose(view) == Attack(game.board.territory("siam"), indonesia, 3)
    assert not isinstance(ContinentalBot(1).choose(view), Attack)


def test_a_runaway_leader_s_territories_are_worth_more_and_its_buffers_less() -> None:
    game = make_position(
        "2008",
        5,
        {"ukraine": (0, 6), "ural": (2, 2), "afghanistan": (3, 2), "middle-east": (4, 2)},
        default_owner=1,
        default_armies=6,
    )
    bot = WarlordBot(1)
    view = View(game, 0)
    assert bot.leader(view, 0) == 1
    board = game.board
    focus = bot.survey(view, 0).target_continent()
    ural = bot.conquest_value(view, 0, board.territory("ural"), focus)  # a buffer next to the leader
    scandinavia = bot.conquest_value(view, 0, board.territory("scandinavia"), focus)  # the leader's
    assert scandinavia > ural


def taken_scandinavia(rest_to: int, northern_europe: int | None = None) -> View:
    """Seat 0 has just taken Scandinavia from Ukraine, more of seat 2 beyond it; the rest of the
    world ``rest_to``'s (seat 1: three players alive; seat 2: two), Northern Europe
    ``northern_europe``'s if given."""
    owners = {"ukraine": (0, 12), "scandinavia": (2, 1), "iceland": (2, 2), "great-britain": (2, 2)}
    if northern_europe is not None:
        owners["northern-europe"] = (northern_europe, 2)
    game = make_position("2008", 3, owners, default_owner=rest_to, default_armies=6)
    ukraine, scandinavia = game.board.territory("ukraine"), game.board.territory("scandinavia")
    while game.phase != Phase.OCCUPY:  # take Scandinavia
        if game.phase == Phase.DEFEND:
            game.apply(Defend(1))
        else:
            game.apply(Attack(ukraine, scandinavia, 3))
    return View(game, 0)


def test_the_blitz_moves_everything_in_while_more_of_the_opponent_lies_ahead() -> None:
    view = taken_scandinavia(rest_to=2)  # two players left: the blitz is on
    low, high = view.occupy_range()
    assert low < high
    assert WarlordBot(1).choose(view) == Occupy(high)


def test_with_three_alive_the_blitz_rolls_through_the_strongest_opponent_only() -> None:
    """Issue 42: at three players the warlord before it rolled its stack through whoever was next,
    the weak seat too, and a strong rival ate it (docs/bots.md); today's rolls on only into the
    strongest opponent (seat 1, the rest of the world here), never on through the weak seat."""
    weak_beyond = taken_scandinavia(rest_to=1, northern_europe=2)  # only seat 2 next to Scandinavia
    assert WarlordV1(1).choose(weak_beyond) == Occupy(weak_beyond.occupy_range()[1])
    assert WarlordBot(1).choose(weak_beyond) != Occupy(weak_beyond.occupy_range()[1])
    strong_beyond = taken_scandinavia(rest_to=1)  # Northern Europe is seat 1's
    assert WarlordBot(1).choose(strong_beyond) == Occupy(strong_beyond.occupy_range()[1])
    # The warlord with the choice switched off keeps armies behind wherever it stands.
    off = WarlordBot(1)
    off.blitz_strongest = False
    assert off.choose(strong_beyond) != Occupy(strong_beyond.occupy_range()[1])


GAMES = [
    ("2008", "world", 3, ()),
    ("2008", "world", 5, ()),
    ("1993", "world", 6, ()),
    ("1993", "world", 3, ("attack-advantage=on", "commanders=on", "army-cap=12")),
    ("2008", "two-player", 2, ()),
    ("1993", "two-player", 2, ()),
    ("2003", "two-player", 2, ("neutral-mode=active",)),
    ("2008", "secret-mission", 4, ()),
    ("1993", "capital", 4, ()),
    ("2003", "mission", 4, ()),
    ("2003", "team", 4, ()),
]


@pytest.mark.parametrize(("preset", "game_name", "players", "options"), GAMES)
def test_it_plays_legal_actions_in_every_game_to_the_end(
    preset: str, game_name: str, players: int, options: tuple[str, ...]
) -> None:
    rules = Rules.preset(preset).for_game(game_name).with_option_text(list(options))
    seats = ["warlord", "continental", "fortress", "quick", "warlord", "continental"][:players]
    game = Game(rules, [f"{name}-{seat}" for seat, name in enumerate(seats)], seed=players)
    bots = [make_bot(name, seat) for seat, name in enumerate(seats)]
    while not game.is_over and game.turn <= 500:
        actor = game.to_act
        action = bots[actor].choose(View(game, actor))
        assert game.is_legal(action), f"{action} is not legal in {game.phase.name}"
        game.apply(action)
    assert game.winner is not None


def test_same_seed_same_game() -> None:
    def history(seed: int) -> list[object]:
        game = Game(Rules.preset("2008"), 3, seed=seed)
        bots = [WarlordBot(seed), make_bot("continental", 1), WarlordBot(seed + 1)]
        while not game.is_over and game.turn <= 200:
            actor = game.to_act
            game.apply(bots[actor].choose(View(game, actor)))
        return game.history

    assert history(5) == history(5)


def test_it_decides_in_well_under_two_milliseconds_on_average() -> None:
    game = Game(Rules.preset("2008"), 4, seed=11)
    bots = [WarlordBot(0), *(make_bot("continental", seat) for seat in range(1, 4))]
    spent, decisions = 0.0, 0
    while not game.is_over and game.turn <= 300:
        actor = game.to_act
        view = View(game, actor)
        started = time.process_time()
        action = bots[actor].choose(view)
        if actor == 0:
            spent += time.process_time() - started
            decisions += 1
        game.apply(action)
    assert decisions > 100
    assert spent / decisions < 0.002


def test_hard_is_the_warlord() -> None:
    level = level_of("hard")
    assert level is not None and level.bot == "warlord"
    assert isinstance(make_bot("hard", 1), WarlordBot)


def reference_plan(
    view: View, me: int, victim: int
) -> tuple[list[tuple[int, tuple[int, ...]]], float] | None:
    """The plan as the warlord made it before its chain odds were spared: every source's chain odds
    asked, each path found by a plain recursive search."""
    owner, armies, neighbours = view.owner, view.armies, view.board.neighbours
    targets = {t for t in range(len(owner)) if owner[t] == victim}

    def longest(source: int) -> tuple[int, ...]:
        best: tuple[tuple[int, ...], int] = ((), 0)

        def extend(path: list[int], cost: int) -> None:
            nonlocal best
            if len(path) > len(best[0]) or (len(path) == len(best[0]) and cost < best[1]):
                best = (tuple(path), cost)
            if len(best[0]) == len(targets):
                return
            for n in neighbours[path[-1]]:
                if n in targets and n not in path:
                    extend([*path, n], cost + armies[n])

        for t in neighbours[source]:
            if t in targets:
                extend([t], armies[t])
        return best[0]

    used: set[int] = set()
    chains: list[tuple[int, tuple[int, ...]]] = []
    odds = 1.0
    while targets:
        best: tuple[float, int, int, tuple[int, ...]] | None = None
        for s in {n for t in targets for n in neighbours[t]}:
            if owner[s] != me or s in used or armies[s] < 2:
                continue
            path = longest(s)
            key = (
                len(path) * chain_odds(armies[s] - 1, tuple(armies[t] for t in path)),
                armies[s] - 1,
                -s,
                path,
            )
            if best is None or key[:3] > best[:3]:
                best = key
        if best is None:
            return None
        used.add(-best[2])
        targets.difference_update(best[3])
        odds *= chain_odds(best[1], tuple(armies[t] for t in best[3]))
        chains.append((-best[2], best[3]))
        if odds < 0.35:
            break
    return chains, odds


def test_the_plans_are_those_of_the_search_that_asks_every_chain_s_odds() -> None:
    # The plan skips the chain odds of a path that cannot be the best (its length times its first
    # conquest's odds fall short): the plans must be the very ones of asking them all, checked on the
    # positions of 12 seeded 5-player games every 10 actions, for every seat and every thin player.
    bot = WarlordBot(seed=1)
    compared = 0
    for seed in range(12):
        game = Game(Rules.preset("1993"), [f"p{i}" for i in range(5)], seed=seed)
        bots = [WarlordBot(seed=seed * 10 + i) for i in range(5)]
        actions = 0
        while not game.is_over and game.turn <= 40:
            game.apply(bots[game.to_act].choose(View(game, game.to_act)))
            actions += 1
            if actions % 10 or game.phase in (Phase.CLAIM, Phase.SETUP_PLACE):
                continue
            for me in range(5):
                view = View(game, me)
                if not view.alive[me]:
                    continue
                for victim in bot.victims(view, me):
                    made = bot.plan(view, me, victim)
                    expected = reference_plan(view, me, victim)
                    assert (None if made is None else (made.chains, made.odds)) == expected
                    compared += 1
    assert compared > 300


def full_table_position(conquered: bool, players: int = 6) -> Game:
    """Seat 0's attack phase with a stack of 12 in Ukraine next to Scandinavia (seat 2, 2 armies);
    the rest of the world seat 1's at 3 armies a territory, seats 3.. each a territory of the far
    south: no continent to break, no one thin enough to plan an elimination of but the far seats."""
    owners = {
        "ukraine": (0, 12),
        "ural": (0, 1),
        "scandinavia": (2, 2),
        "iceland": (2, 5),
        "great-britain": (2, 5),
        "northern-europe": (2, 5),
        "western-europe": (2, 5),
        "southern-europe": (2, 5),
        "middle-east": (2, 5),
        "afghanistan": (2, 5),
        "siberia": (2, 5),
    }
    far = ["argentina", "peru", "brazil", "venezuela"]
    for seat in range(3, players):
        owners[far[seat - 3]] = (seat, 9)
    game = make_position("1993", players, owners, default_owner=1, default_armies=3)
    game.conquered_this_turn = conquered
    game.conquests_this_turn = int(conquered)
    return game


def test_at_a_full_table_it_stops_attacking_once_the_card_is_earned() -> None:
    # Issue 42: at six players the strong player takes its card and keeps its stacks; five warlords
    # against one that does so: 22.5% for it over 600 games (a fair share 16.7%).
    view = View(full_table_position(conquered=True), 0)
    assert WarlordBot(seed=1).choose(view) == END_ATTACK
    # Before the card it attacks, and the warlord before issue 42 attacks on after it.
    assert isinstance(WarlordBot(seed=1).choose(View(full_table_position(conquered=False), 0)), Attack)
    assert isinstance(WarlordV1(seed=1).choose(view), Attack)
    # With three players alive the table is not full: the warlord attacks on as before.
    assert isinstance(
        WarlordBot(seed=1).choose(View(full_table_position(conquered=True, players=3), 0)), Attack
    )


def test_the_warlord_before_issue_42_is_kept_by_name() -> None:
    bot = make_bot("warlord-v1", seed=3)
    assert isinstance(bot, WarlordV1) and not bot.full_table and "warlord-v1" not in BOTS  # not in the lobby
    assert make_bot("hard", seed=3).full_table  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", [4, 6])
def test_in_team_risk_its_setup_is_the_heuristic_s_pile(players: int) -> None:
    """Issue 42's ladder: in Team RISK the spread setup of issue 37 lost to the pile (62.7% of 1,000
    6-player games for the pile, 57.3% at 4): there the warlord places as the heuristic does. Outside
    Team RISK it spreads."""

    def setup_places(game_name: str) -> tuple[int, int]:
        game = Game(Rules.preset("2003").for_game(game_name), players, seed=players)
        bots = [WarlordBot(seat) for seat in range(players)]
        pilers = [WarlordBot(seat) for seat in range(players)]  # the same seeds, asked alike
        for bot in pilers:
            bot.spread_setup = False
        same = differ = 0
        while game.phase in (Phase.CLAIM, Phase.SETUP_PLACE):
            actor = game.to_act
            view = View(game, actor)
            action = bots[actor].choose(view)
            piled = pilers[actor].choose(view)
            if game.phase == Phase.SETUP_PLACE:
                if action == piled:
                    same += 1
                else:
                    differ += 1
            game.apply(action)
        return same, differ

    same, differ = setup_places("team")
    assert same > 0 and differ == 0
    assert setup_places("world")[1] > 0
