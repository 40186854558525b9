"""Resigning (docs/rules.md, "Resigning"): a player leaves the game at any time, even out of turn.

What happens to the player's territories (they stay, neutral), cards (they stay with the armies, for
whoever takes the last territory), missions and headquarters, the turn order, and who wins. A
resignation is an action in the history, so records replay it exactly.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from risk.bots import make_bot
from risk.errors import GameOverError, IllegalActionError, NotationError
from risk.maps import load_map
from risk.narrate import narrate, snapshot
from risk.record import replay_record, write_record
from risk.rules.actions import Resign, parse_action
from risk.rules.game import Game, Phase
from risk.rules.options import Rules
from risk.rules.variants.capital import capitals_needed
from risk.rules.variants.missions import mission_complete
from risk.view import View

BOARD = load_map("classic")


def new_game(
    players: int = 4, game: str = "world", edition: str = "2008", seed: int = 11, **options: str
) -> Game:
    rules = Rules.preset(edition)
    if game != "world":
        rules = rules.for_game(game)
    if options:
        rules = rules.with_options(**options)
    return Game(rules, [f"P{i}" for i in range(players)], seed=seed)


def play_until(game: Game, done: Callable[[Game], bool], limit: int = 20_000) -> None:
    """Quick bots play every seat until ``done``: the game must not end first (unless ``done`` says so)."""
    bots = {seat: make_bot("quick", seat) for seat in range(len(game.players))}
    for _ in range(limit):
        if done(game):
            return
        assert not game.is_over, "the game ended before the position the test needs"
        view = View(game, game.to_act)
        game.apply(bots[game.to_act].choose(view))
    raise AssertionError("the position never came")


def resign(game: Game, seat: int) -> list[str]:
    """Resign ``seat`` and answer the log lines the step makes."""
    before, start = snapshot(game), len(game.history)
    game.apply(Resign(seat))
    return [line.text for line in narrate(game, before, game.history[start:])]


def test_notation() -> None:
    assert parse_action("resign", BOARD) == Resign(None)
    assert parse_action("Resign 2", BOARD) == Resign(2)
    assert Resign(3).text(BOARD) == "resign 3" and Resign().text(BOARD) == "resign"
    for bad in ("resign two", "resign 1 2", "resign -1"):
        with pytest.raises(NotationError):
            parse_action(bad, BOARD)


def test_refusals_say_why_and_change_nothing() -> None:
    game = Game(Rules.preset("2008").for_game("two-player"), ["Ann", "Bob"], seed=3)
    before = game.to_dict()
    for action, words in [
        (Resign(7), "no player 7"),
        (Resign(2), "neutral armies"),  # the 2-player game's neutral seat
    ]:
        with pytest.raises(IllegalActionError) as refused:
            game.apply(action)
        assert words in str(refused.value)
    assert game.to_dict() == before
    four = new_game(4)
    play_until(four, lambda g: g.turn >= 2)
    four.apply(Resign(2))
    with pytest.raises(IllegalActionError) as refused:
        four.apply(Resign(2))
    assert "already out of the game" in str(refused.value)
    four.apply(Resign(0))
    four.apply(Resign(1))
    assert four.is_over and four.winner == 3
    with pytest.raises(GameOverError):
        four.apply(Resign(3))


def test_out_of_turn_the_armies_stay_neutral_and_the_turn_order_skips_the_player() -> None:
    game = new_game(4, seed=21)
    play_until(game, lambda g: g.turn >= 6 and g.phase == Phase.ATTACK)
    current = game.current
    gone = (current + 2) % 4
    owner, armies, hand = game.owner[:], game.armies[:], game.hands[gone][:]
    phase, to_act, pending = game.phase, game.to_act, game.pending
    lines = resign(game, gone)
    assert lines == [f"P{gone} resigns: P{gone}'s armies stay on the board as neutral armies."]
    assert game.history[-1] == ("action", gone, Resign(gone))
    assert not game.alive[gone] and not game.is_over
    # Nothing else changes: the board, the turn, the hand (it stays with the armies).
    assert (game.owner, game.armies, game.hands[gone]) == (owner, armies, hand)
    assert (game.phase, game.to_act, game.pending, game.current) == (phase, to_act, pending, current)
    assert not any(isinstance(a, Resign) for a in game.legal_actions())  # never listed: bots do not resign
    assert game.resigned_players() == [gone]
    # The player takes no more turns; the others still do.
    starters = []
    for _ in range(6):
        turn = game.turn
        play_until(game, lambda g, t=turn: g.turn > t or g.is_over)
        starters.append(game.current)
    assert gone not in starters and len(set(starters)) >= 2


def test_a_resigned_players_armies_defend_with_the_most_dice_and_yield_its_cards() -> None:
    game = new_game(3, seed=5)
    play_until(game, lambda g: g.turn >= 7 and g.phase == Phase.ATTACK and bool(g.hands[(g.current + 1) % 3]))
    me = game.current
    gone = (me + 1) % 3
    cards = list(game.hands[gone])
    game.apply(Resign(gone))
    # A test position: the resigned player keeps one territory, next to a big army of the player to act.
    last, *rest = game.territories_of(gone)
    for territory in rest:
        game.take_territory(territory, me, 1)
    source = BOARD.neighbours[last][0]
    game.take_territory(source, me, 60)
    game.armies[last] = 3
    held = me_cards = len(game.hands[me])
    while game.owner[last] == gone:
        held = game.armies[last]
        start = len(game.history)
        game.apply(f"attack {BOARD.slug_of(source)} {BOARD.slug_of(last)} 3")
        assert game.phase != Phase.DEFEND  # no one is asked: the dice are rolled at once
        rolled = [v for k, w, v in game.history[start:] if k == "chance" and w == "dice"]
        assert len(rolled) == 1 and len(rolled[0][1]) == min(2, held)
    assert game.territory_count[gone] == 0 and game.hands[gone] == []
    assert sorted(game.hands[me]) == sorted(game.hands[me][:me_cards] + cards)
    assert game.phase in (Phase.OCCUPY, Phase.ELIMINATION_TRADE, Phase.ATTACK)


def test_resigning_in_ones_own_turn_passes_the_turn_and_draws_no_card() -> None:
    game = new_game(4, seed=8)
    play_until(game, lambda g: g.turn >= 5 and g.phase == Phase.OCCUPY)
    me, turn, hand = game.current, game.turn, len(game.hands[game.current])
    assert game.conquered_this_turn
    lines = resign(game, me)
    assert game.turn == turn + 1 and game.current == (me + 1) % 4 and game.phase == Phase.REINFORCE
    assert game.pending_occupation is None and len(game.hands[me]) == hand  # no card for the conquest
    assert lines[-1] == f"P{(me + 1) % 4}'s turn." and "eliminated" not in " ".join(lines)


def test_resigning_while_defending_rolls_for_the_defender() -> None:
    game = new_game(3, seed=30)
    play_until(game, lambda g: g.phase == Phase.DEFEND)
    defender, attacker = game.to_act, game.current
    _, target, _ = game.pending_attack  # type: ignore[misc]
    most = min(2, game.armies[target])
    resign(game, defender)
    dice = game.history[-1] if game.history[-1][1] == "dice" else None
    rolled = [v for k, w, v in game.history[-3:] if k == "chance" and w == "dice"]
    assert rolled and len(rolled[-1][1]) == most, dice
    assert game.to_act == attacker and game.phase != Phase.DEFEND


def test_the_last_player_in_the_game_wins() -> None:
    game = new_game(3, seed=2)
    play_until(game, lambda g: g.turn >= 3)
    game.apply("resign 0")
    game.apply("resign 2")
    outcome = game.outcome()
    assert game.is_over and outcome is not None and outcome.winner == 1
    assert outcome.reason == "the last player in the game: P2 resigned"
    two = Game(Rules.preset("1993").for_game("two-player"), ["Ann", "Bob"], seed=4)
    play_until(two, lambda g: g.turn >= 2)
    lines = resign(two, 1)
    assert two.winner == 0 and two.outcome().reason == "the opponent resigned (Bob)"  # type: ignore[union-attr]
    assert lines == ["Bob resigns.", "Ann wins: the opponent resigned (Bob)."]


@pytest.mark.parametrize("setup", ["claim", "deal"])
def test_everyone_else_resigning_in_the_setup_ends_it_before_a_turn(setup: str) -> None:
    """Two people and a bot; both people resign while the territories are claimed (or the armies
    placed): the bot is the last player in the game and wins, and the words say how, not "after 0
    turns" of a game no one played (issue 37)."""
    game = Game(Rules.preset("2008").with_options(setup=setup), ["Ann", "Bob", "Hard 3"], seed=7)
    play_until(game, lambda g: len(g.history) > 6)
    assert game.phase in (Phase.CLAIM, Phase.SETUP_PLACE) and game.turn == 0
    assert resign(game, 0) == ["Ann resigns: Ann's armies stay on the board as neutral armies."]
    lines = resign(game, 1)
    outcome = game.outcome()
    assert game.is_over and game.turn == 0 and outcome is not None and outcome.winners == (2,)
    assert outcome.reason == "the other players resigned during the setup (Ann, Bob)"
    assert lines == ["Bob resigns.", "Hard 3 wins: the other players resigned during the setup (Ann, Bob)."]


def test_team_risk_ends_as_the_rulebook_says_for_a_player_out() -> None:
    game = new_game(4, game="team", edition="2003", seed=6)
    play_until(game, lambda g: g.turn >= 3)
    game.apply(Resign(2))
    outcome = game.outcome()
    assert game.is_over and outcome is not None
    assert set(outcome.winners) == {1, 3} and outcome.winner in (1, 3)
    assert outcome.reason == "the team of P1 and P3: P2 resigned"


def test_a_destroy_mission_needs_the_resigned_armies_destroyed() -> None:
    game = Game(Rules.preset("2008").for_game("secret-mission"), ["A", "B", "C", "D"], seed=40)
    play_until(game, lambda g: g.turn >= 2)
    holder = next(p for p, m in enumerate(game.missions) if m is not None and m.destroy is not None)
    target = game.missions[holder].destroy  # type: ignore[union-attr]
    assert target is not None
    if game.to_act == target or game.current == target:
        play_until(game, lambda g: g.current not in (target,) and g.to_act != target)
    game.apply(Resign(target))
    assert not mission_complete(game, holder)  # its armies are still on the board
    for t in game.territories_of(target):
        game.take_territory(t, holder, 1)  # the armies destroyed (a test position)
    assert mission_complete(game, holder)


def test_capital_risk_a_headquarters_not_chosen_is_not_wanted() -> None:
    game = Game(Rules.preset("2008").for_game("capital"), ["A", "B", "C", "D"], seed=12)
    play_until(game, lambda g: g.phase == Phase.CHOOSE_CAPITAL)
    needed = capitals_needed(game)
    chooser = game.to_act
    game.apply(Resign(chooser))
    assert game.phase == Phase.CHOOSE_CAPITAL and game.to_act != chooser
    assert game.capitals[chooser] == -1 and capitals_needed(game) == needed - 1
    play_until(game, lambda g: g.phase == Phase.REINFORCE)
    assert game.current != chooser and all(game.capitals[p] >= 0 for p in range(4) if p != chooser)


def test_resigning_during_the_setup() -> None:
    game = new_game(4, seed=13)
    play_until(game, lambda g: g.phase == Phase.CLAIM and sum(g.territory_count) == 5)
    first = game.to_act
    game.apply("resign")  # the player to act
    assert game.history[-1] == ("action", first, Resign(first))
    assert game.to_act != first and game.setup_armies[first] == 0
    play_until(game, lambda g: g.turn >= 6)
    assert sum(game.territory_count) == 42
    assert all(game.armies[t] == 1 for t in game.territories_of(first))  # nothing more placed there
    starters = {p for k, p, a in game.history if k == "action"} - {first}
    assert starters and game.current != first


@pytest.mark.parametrize(
    ("game_name", "edition", "players"),
    [("world", "2008", 4), ("mission", "2003", 4), ("capital", "1993", 4), ("secret-mission", "1993", 5)],
)
def test_records_replay_a_resignation_exactly(game_name: str, edition: str, players: int) -> None:
    game = new_game(players, game=game_name, edition=edition, seed=77)
    play_until(game, lambda g: g.turn >= 4 and g.phase == Phase.DEFEND)
    game.apply(Resign(game.to_act))  # its dice are rolled in the record, after the resignation
    play_until(game, lambda g: g.turn >= 8)
    game.apply(Resign(next(p for p in range(players) if game.alive[p] and p != game.to_act)))
    play_until(game, lambda g: g.turn >= 12 or g.is_over)
    text = write_record(game)
    assert "\nresign " in text
    replay = replay_record(text)
    assert replay.verified and replay.game.to_dict() == game.to_dict()
