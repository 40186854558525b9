"""Game-aware heuristic play in constructed positions: 2-player RISK's neutrals, Team RISK, the
1993 expert dice."""

from __future__ import annotations

import sys
from pathlib import Path

from positions import make_position
from risk.bots import expert_dice, make_bot, neutrals
from risk.bots.heuristic import ContinentalBot, FortressBot, Survey
from risk.play.simulate import play_game
from risk.rules.actions import ACCEPT_DICE, CALL_OFF, Attack, Bribe, Commander, Place, ReinforceAlly, Reroll
from risk.rules.game import Game, Phase
from risk.rules.options import Rules
from risk.rules.variants.active import invasion_needs_call_off, open_invasion
from risk.view import View

TWO_PLAYER = Rules.preset("2008").for_game("two-player")
ACTIVE = Rules.preset("2003").for_game("two-player").with_options(neutral_mode="active")
NEUTRAL = 2  # the first neutral seat of a 2-player game
BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def test_a_passive_neutral_stack_is_no_threat() -> None:
    # Alaska (ours, 1 army) faces a 20-army neutral in Kamchatka and the opponent's 1 army elsewhere;
    # Greenland (ours, 1 army) faces the opponent's 6 armies in Iceland.
    game = make_position(
        TWO_PLAYER,
        2,
        {"alaska": (0, 1), "kamchatka": (NEUTRAL, 20), "greenland": (0, 1), "iceland": (1, 6)},
        default_owner=NEUTRAL,
        phase=Phase.REINFORCE,
        pending=5,
    )
    board = game.board
    bot = ContinentalBot(0)
    assert bot.threat(View(game, 0), 0, board.territory("alaska")) == 0
    assert bot.threat(View(game, 0), 0, board.territory("greenland")) == 5
    weakest, deficit = bot.weakest_border(View(game, 0), 0)
    assert weakest == board.territory("greenland") and deficit > 0


def test_today_threat_counts_neutrals_in_world_games() -> None:
    # Outside 2-player RISK every other seat is a threat, as before.
    game = make_position("2008", 3, {"alaska": (0, 1), "kamchatka": (2, 20)}, default_owner=1)
    assert ContinentalBot(0).threat(View(game, 0), 0, game.board.territory("alaska")) == 19


def test_taking_the_opponents_territory_is_worth_more_than_a_neutral_buffer() -> None:
    # Ontario borders us (Quebec) and the opponent (Eastern United States): a buffer; the opponent's
    # Greenland is worth its loss to them too.
    game = make_position(
        TWO_PLAYER,
        2,
        {"quebec": (0, 10), "ontario": (NEUTRAL, 1), "eastern united states": (1, 3), "greenland": (1, 1)},
        default_owner=NEUTRAL,
    )
    board = game.board
    hostile = neutrals.hostile(View(game, 0), 0)
    assert neutrals.value_change(View(game, 0), 0, board.territory("greenland"), hostile) == 1.0
    assert neutrals.value_change(View(game, 0), 0, board.territory("ontario"), hostile) < 0
    survey = Survey(View(game, 0), 0)
    bot = ContinentalBot(0)
    focus = survey.target_continent()
    view = View(game, 0)
    greenland = bot.conquest_value(view, 0, board.territory("greenland"), focus, survey)
    assert greenland > bot.conquest_value(view, 0, board.territory("ontario"), focus, Survey(view, 0))


def test_a_neutral_setup_army_goes_between_us_and_the_opponent() -> None:
    game = make_position(
        TWO_PLAYER,
        2,
        {
            "peru": (0, 1),
            "brazil": (NEUTRAL, 1),
            "venezuela": (1, 1),
            "argentina": (1, 1),
            "north africa": (1, 1),
            "siam": (NEUTRAL, 1),
        },
        default_owner=0,
        phase=Phase.SETUP_PLACE,
    )
    game.placing_for = NEUTRAL
    action = ContinentalBot(0).choose(View(game, 0))
    # Brazil touches the opponent three times and us once; Siam touches only us.
    assert action == Place(game.board.territory("brazil"), 1)


def test_active_neutrals_reinforce_an_ally_and_bribe_the_opponents_ally() -> None:
    game = make_position(
        ACTIVE,
        2,
        {"alaska": (0, 3), "kamchatka": (NEUTRAL, 8), "greenland": (1, 3)},
        default_owner=0,
        phase=Phase.REINFORCE,
        pending=3,
        hands={0: ["alaska", "greenland", "peru", "siam"]},
    )
    game.ally[NEUTRAL] = 1  # the opponent's ally stands next to us with 8 armies
    action = ContinentalBot(0).choose(View(game, 0))
    assert isinstance(action, Bribe) and action.neutral == 1
    assert game.is_legal(action)
    # Now our ally: after our reinforcements, a die of armies for it before any attack.
    game.ally[NEUTRAL] = 0
    game.phase, game.pending, game.placed_this_turn = Phase.ATTACK, 0, True
    assert ContinentalBot(0).choose(View(game, 0)) == ReinforceAlly(1)


def test_no_bribe_that_costs_a_set() -> None:
    game = make_position(
        ACTIVE,
        2,
        {"kamchatka": (NEUTRAL, 8), "alaska": (1, 2)},
        default_owner=0,
        phase=Phase.REINFORCE,
        pending=3,
    )
    game.ally[NEUTRAL] = 1
    symbols = game.board.card_symbols
    alike = [c for c in range(len(game.board)) if symbols[c] == symbols[0]]
    odd = next(c for c in range(len(game.board)) if symbols[c] != symbols[0])
    game.hands[0] = alike[:3]  # one set, every card needed
    assert neutrals.bribe(View(game, 0), 0) is None
    game.hands[0] = [*alike[:3], odd]  # the odd card is spare
    assert neutrals.bribe(View(game, 0), 0) == Bribe(1, odd)


def test_the_spare_card_is_found_without_touching_the_hand() -> None:
    """The bot reads its hand through the view: the spare card is the one whose loss leaves the most
    sets (the trade options without it, as the engine lists them), and no hand is ever written."""
    game = make_position(ACTIVE, 2, {"kamchatka": (NEUTRAL, 8)}, default_owner=0, phase=Phase.REINFORCE)
    symbols = game.board.card_symbols
    by_symbol = [[c for c in range(len(game.board)) if symbols[c] == symbol] for symbol in range(3)]
    game.hands[0] = [by_symbol[0][0], by_symbol[0][1], by_symbol[0][2], by_symbol[1][0], by_symbol[2][0]]
    hands = [hand[:] for hand in game.hands]
    spare = neutrals.spare_card(View(game, 0))
    assert game.hands == hands  # no hand written
    left = {}
    for card in game.hands[0]:
        without = game.copy()
        without.hands = [list(hand) for hand in game.hands]
        without.hands[0] = [c for c in game.hands[0] if c != card]
        left[card] = len(View(without, 0).trade_options())
    assert spare in left and left[spare] == max(left.values()) > 0


def test_an_open_invasion_of_a_neutral_is_called_off_before_the_next_target() -> None:
    owners = {"alaska": (0, 9), "kamchatka": (NEUTRAL, 5), "northwest territory": (1, 1)}
    game = make_position(ACTIVE, 2, owners, default_owner=0)
    board = game.board
    game.apply(Attack(board.territory("alaska"), board.territory("kamchatka"), 3))
    while game.phase == Phase.DEFEND:
        game.apply(make_bot("quick", 1).choose(View(game, game.to_act)))
    assert open_invasion(game) == board.territory("kamchatka") and invasion_needs_call_off(game)
    other = Attack(board.territory("alaska"), board.territory("northwest territory"), 3)
    assert not game.is_legal(other)
    assert neutrals.call_off_first(View(game, 0), other) == CALL_OFF


def _pending_roll(
    options: tuple[str, ...], attack: tuple[int, ...], defence: tuple[int, ...], hand: list[str]
) -> Game:
    """A 1993 game whose attacker (seat 0, Alaska 4 armies onto Kamchatka 3) may still change its roll."""
    rules = Rules.preset("1993").with_option_text(list(options))
    game = make_position(rules, 3, {"alaska": (0, 4), "kamchatka": (1, 3)}, default_owner=2, hands={0: hand})
    source, target = game.board.territory("alaska"), game.board.territory("kamchatka")
    game._rolled = (source, target, len(attack), attack, defence, False)
    game.phase = Phase.ADJUST_DICE
    return game


def test_a_losing_roll_is_rerolled_and_a_winning_one_accepted() -> None:
    # 6-4-1 against 6-3: one army each. A new defender's die is below 6 five times in six.
    losing = _pending_roll(("attack-advantage=on",), (6, 4, 1), (6, 3), ["alaska"])
    action = ContinentalBot(0).choose(View(losing, 0))
    assert isinstance(action, Reroll)
    assert losing.is_legal(action)
    # Re-rolling the defender's 6 helps more than any of our dice: it can only go down.
    assert action == Reroll("defender", 1)
    winning = _pending_roll(("attack-advantage=on",), (6, 6, 2), (3, 1), ["alaska"])
    assert ContinentalBot(0).choose(View(winning, 0)) == ACCEPT_DICE


def test_the_commander_is_kept_for_a_clear_gain() -> None:
    # 6-5-1 against 5-5: the commander turns the 5 into a 6 and wins both comparisons.
    decisive = _pending_roll(("commanders=on",), (5, 5, 1), (5, 4), [])
    gain = expert_dice.options(View(decisive, 0), 0)
    assert Commander(1) in [action for _, action in gain] or Commander(2) in [action for _, action in gain]
    assert isinstance(FortressBot(0).choose(View(decisive, 0)), Commander)
    # Already winning both: nothing to gain, the commander stays for later.
    easy = _pending_roll(("commanders=on",), (6, 5, 1), (4, 3), [])
    assert FortressBot(0).choose(View(easy, 0)) == ACCEPT_DICE


def test_heuristic_bots_finish_every_two_player_and_team_game() -> None:
    cases = [
        (TWO_PLAYER, ("continental", "fortress")),
        (ACTIVE, ("fortress", "continental")),
        (TWO_PLAYER, ("warlord", "continental")),
        (ACTIVE, ("continental", "warlord")),
        (Rules.preset("2003").for_game("team"), ("continental", "fortress") * 2),
        (
            Rules.preset("1993").with_option_text(["attack-advantage=on", "commanders=on"]),
            ("continental", "fortress", "quick"),
        ),
    ]
    for rules, bots in cases:
        game, _ = play_game(rules, bots, 3, max_turns=400)
        assert game.is_over


def test_baseline_bots_load_next_to_todays() -> None:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        from baseline_inprocess import load_baseline_bots
    finally:
        sys.path.remove(str(BENCHMARKS))
    src = Path(__file__).resolve().parent.parent / "src"
    old = load_baseline_bots(src)
    today = ContinentalBot
    assert old["continental"] is not today and old["continental"].name == "continental"
    # Today's modules are back in place, and the loaded copy plays the same game as today's bot.
    import risk.bots

    assert risk.bots.BOTS["continental"] is today
    rules = Rules.preset("2008").for_game("two-player")
    mine, _ = play_game(rules, ("continental", "quick"), 5, max_turns=200)
    theirs, _ = play_game(
        rules,
        ("continental", "quick"),
        5,
        max_turns=200,
        bots=[old["continental"](mine_seed(5, 0)), old["quick"](mine_seed(5, 1))],
    )
    assert theirs.history == mine.history


def mine_seed(seed: int, seat: int) -> int:
    from risk.play.simulate import bot_seed

    return bot_seed(seed, seat)
