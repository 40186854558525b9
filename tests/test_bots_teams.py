"""Team RISK play in constructed positions: the conquest values of the race to the first player out,
the odds its targets are attacked at, counts of armies that tie no territory, and the search bot's
team evaluation."""

from __future__ import annotations

from positions import make_position
from risk.bots import teams
from risk.bots.heuristic import ContinentalBot, FortressBot
from risk.bots.search import SearchBot, strength_share, team_evaluate
from risk.rules.actions import Attack, Fortify, Occupy
from risk.rules.game import TIED, Game, Phase
from risk.rules.options import Rules
from risk.rules.variants.team import recontrol
from risk.view import View

TEAM = Rules.preset("2003").for_game("team")  # seats 0 and 2 against seats 1 and 3


def team_position(owners: dict[str, tuple[int, int]], phase: Phase = Phase.ATTACK, armies: int = 3) -> Game:
    """A Team RISK position: each territory's armies are its holder's units; the rest is seat 2's
    (``armies`` each)."""
    game = make_position(TEAM, 4, owners, default_owner=2, default_armies=armies, phase=phase)
    game.units = [[0] * 4 for _ in range(len(game.board))]
    for t, seat in enumerate(game.owner):
        game.units[t][seat] = game.armies[t]
    return game


def share(game: Game, territory: str, seat: int, units: int) -> None:
    """Put ``units`` of ``seat`` into ``territory`` beside what is there (a teammate's stack)."""
    t = game.board.territory(territory)
    assert game.units is not None
    game.units[t][seat] += units
    game.armies[t] += units
    recontrol(game, t)


def test_the_last_units_of_an_opposing_player_are_worth_the_game() -> None:
    # Seat 1 has all its 3 units in Alaska; seat 3 has 20 in Argentina and 2 in Venezuela.
    game = team_position({"alaska": (1, 3), "argentina": (3, 20), "venezuela": (3, 2), "kamchatka": (0, 4)})
    board = game.board
    values = teams.focus_values(View(game, 0), 0)
    assert values[board.territory("alaska")] == teams.WIN_VALUE
    # Seat 3's units: the focus scaled by how weak seat 3 is against the weakest (3 of 22 units).
    assert values[board.territory("venezuela")] == teams.FOCUS_WEIGHT * 3 / 22**2 * 2
    assert values[board.territory("brazil")] == 0.0  # our teammate's
    # The other team sees our players the same way.
    assert teams.focus_values(View(game, 1), 1)[board.territory("kamchatka")] == teams.WIN_VALUE


def test_a_game_winning_attack_is_made_at_long_odds() -> None:
    # Kamchatka's 3 fighting armies against Alaska's 3 (47%: below every style's odds) end the game;
    # Peru's 9 against Venezuela's 2 (99%) is the attack the world-domination plan would make.
    game = team_position(
        {"alaska": (1, 3), "kamchatka": (0, 4), "argentina": (3, 20), "venezuela": (3, 2), "peru": (0, 10)}
    )
    board = game.board
    for bot in (ContinentalBot(0), FortressBot(0)):
        assert bot.choose(View(game, 0)) == Attack(board.territory("kamchatka"), board.territory("alaska"), 3)
    # In a world game the same odds are not worth it.
    world = make_position(
        "2003",
        4,
        {"alaska": (1, 3), "kamchatka": (0, 4), "venezuela": (3, 2), "peru": (0, 10)},
        default_owner=2,
        default_armies=3,
    )
    action = ContinentalBot(0).choose(View(world, 0))
    assert action != Attack(board.territory("kamchatka"), board.territory("alaska"), 3)


def test_the_weakest_opposing_players_units_are_attacked_at_lower_odds() -> None:
    # Seat 1 holds 6 units (Alaska 4, Greenland 2), seat 3 holds 30: Alaska is worth 12 × 4/6 / 6 more
    # than a plain territory, so Kamchatka's 4 fighting armies attack it at 48% odds.
    game = team_position({"alaska": (1, 4), "greenland": (1, 2), "kamchatka": (0, 5), "argentina": (3, 30)})
    board = game.board
    alaska = board.territory("alaska")
    assert teams.focus_values(View(game, 0), 0)[alaska] >= teams.FOCUS_FLOOR
    assert ContinentalBot(0).choose(View(game, 0)) == Attack(board.territory("kamchatka"), alaska, 3)


def test_a_free_move_ties_no_territory() -> None:
    # Seat 0's interior stack of 5 in the Eastern United States; its teammate (seat 2) holds 4 in
    # Quebec, the border most threatened by seat 1's 20 in Greenland. Moving all 4 spare armies would
    # tie Quebec at 4 against 4: no one could reinforce it or attack from it.
    game = team_position(
        {
            "eastern united states": (0, 5),
            "quebec": (2, 4),
            "greenland": (1, 20),
            "ontario": (2, 10),
            "iceland": (2, 10),
            "northwest territory": (2, 10),
            "argentina": (3, 1),
        },
        phase=Phase.FORTIFY,
    )
    board = game.board
    source, quebec = board.territory("eastern united states"), board.territory("quebec")
    assert teams.ties(View(game, 0), 0, source, quebec, 4) == 1
    assert teams.untied(View(game, 0), 0, source, quebec, 4, 1, 4) == 3
    assert ContinentalBot(0).choose(View(game, 0)) == Fortify(source, quebec, 3)


def test_a_move_in_leaves_no_tie_behind() -> None:
    # Seat 0 has just taken Alaska from Kamchatka (3 moved in), where 6 of its units stand with 3 of
    # its teammate's; seat 1 threatens both (6 in Japan, 4 in Alberta), so the plan keeps 2 back:
    # moving 3 more would leave 3 against 3, a tie. The bot moves 2 more (4 stay, in control).
    game = team_position(
        {"kamchatka": (0, 6), "alaska": (0, 3), "japan": (1, 6), "alberta": (1, 4), "argentina": (3, 20)},
        phase=Phase.OCCUPY,
    )
    board = game.board
    kamchatka, alaska = board.territory("kamchatka"), board.territory("alaska")
    share(game, "kamchatka", 2, 3)
    game._occupy = (kamchatka, alaska, 3, False)
    assert game.occupy_range() == (3, 8)
    assert ContinentalBot(0).occupy_count(View(game, 0), 0, 3, 8) == 6  # the plan alone: 3 more, a tie
    move = ContinentalBot(0).choose(View(game, 0))
    assert move == Occupy(5)
    game.apply(move)
    assert game.owner[kamchatka] == 0 and game.owner[kamchatka] != TIED


def test_the_search_bot_counts_a_teammates_win_as_its_own() -> None:
    game = team_position({"alaska": (1, 3), "argentina": (3, 20)})
    game.winner = 2  # seat 0's teammate
    assert strength_share(View(game, 0), lambda player, armies: armies) == 1.0
    assert strength_share(View(game, 1), lambda player, armies: armies) == 0.0


def test_the_team_evaluation_weighs_the_race_to_the_first_player_out() -> None:
    # The same armies for both teams; in the second position the opposing team's weakest player
    # has fewer units than ours, in the first ours has fewer.
    behind = team_position(
        {"alaska": (1, 10), "argentina": (3, 10), "peru": (0, 2), "brazil": (2, 18)}, armies=0
    )
    ahead = team_position(
        {"alaska": (1, 2), "argentina": (3, 18), "peru": (0, 10), "brazil": (2, 10)}, armies=0
    )
    assert team_evaluate(View(ahead, 0)) > 0.5 > team_evaluate(View(behind, 0))
    assert SearchBot(0).evaluate(View(ahead, 0)) == team_evaluate(View(ahead, 0))
