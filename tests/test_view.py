"""The secrecy boundary: a view shows only what its player may know."""

from __future__ import annotations

import json
import random

import pytest

from risk.errors import IllegalActionError
from risk.play.simulate import play_game
from risk.rules.game import Game, Phase, trade_options
from risk.rules.options import Rules
from risk.view import SPECTATOR, View, public_history


def mid_game() -> Game:
    game, _ = play_game(Rules.preset("2003"), ["quick"] * 4, 8, max_turns=12)
    assert not game.is_over and any(game.hands)
    return game


def test_other_players_secrets_do_not_change_a_view() -> None:
    game = mid_game()
    other = game.copy()
    # Change everything player 0 may not know: the others' cards, the deck order, the generator.
    pool = [c for p in (1, 2, 3) for c in other.hands[p]] + other.deck
    random.Random(3).shuffle(pool)
    for p in (1, 2, 3):
        size = len(other.hands[p])
        other.hands[p], pool = pool[:size], pool[size:]
    other.deck = pool
    other._rng = random.Random(999)
    assert View(game, 0).to_dict() == View(other, 0).to_dict()
    assert View(game, 1).to_dict() != View(other, 1).to_dict() or game.hands[1] == other.hands[1]


def test_a_view_holds_no_secret() -> None:
    game = mid_game()
    data = View(game, 0).to_dict()
    text = json.dumps(data)
    assert "rng" not in data and "deck" not in data and "seed" not in text
    assert data["deck_size"] == len(game.deck)
    mine = [c["card"] for c in data["hand"]]
    assert mine == [game.board.card_name(c) for c in game.hands[0]]
    assert [p["cards"] for p in data["players"]] == [len(h) for h in game.hands]
    assert "hand" not in View(game, SPECTATOR).to_dict()


def test_only_the_player_to_act_gets_actions() -> None:
    game = mid_game()
    actor = game.to_act
    assert View(game, actor).legal_actions()
    assert View(game, (actor + 1) % 4).legal_actions() == []


def test_public_history_hides_other_draws() -> None:
    game = mid_game()
    for player in range(4):
        seen = public_history(game, player)
        assert len(seen) == len(game.history)
        drawer = -1
        for (kind, who, value), original in zip(seen, game.history, strict=True):
            if kind == "action":
                drawer = who
            elif who == "draw":
                assert (value is None) == (drawer != player)
                if value is not None:
                    assert value == original[2]


# -- the bots' read-only API ---------------------------------------------------------------------
def test_the_view_reads_the_live_game_without_copying() -> None:
    game = mid_game()
    view = View(game, game.to_act)
    owner, armies = view.owner, view.armies
    assert owner is view.owner and armies is view.armies  # no copy on each read
    assert list(owner) == game.owner and list(armies) == game.armies
    before = list(armies)
    for _ in range(50):  # a few actions, until an army moves
        game.apply(next(iter(game.legal_actions())))
        if game.armies != before:
            break
    assert list(view.armies) == game.armies != before  # the same view follows the game


def test_the_views_queries_are_the_engines() -> None:
    game = mid_game()
    me = game.current
    view = View(game, me)
    assert [view.hand_size(p) for p in range(4)] == [len(h) for h in game.hands] == list(view.hand_sizes)
    assert view.trade_options() == trade_options(game, me)
    assert View(game, SPECTATOR).trade_options() == [] and View(game, SPECTATOR).hand == ()
    for t in range(len(game.board)):
        assert view.force(t, me) == game.force(t, me) and view.room(t) == game.room(t)
    assert view.reinforcement_for(me) == game.reinforcement_for(me)
    assert view.continents_of(me) == game.continents_of(me)


def test_public_history_from_any_entry_is_the_tail_of_the_whole() -> None:
    game = mid_game()
    for player in (SPECTATOR, 0, 2):
        whole = public_history(game, player)
        size = len(whole)
        for start in (0, 1, 7, size // 2, size - 1, size, size + 3, -1, -5, -size, -size - 3):
            assert View(game, player).public_history(start) == whole[start:]


def test_last_action_is_the_seats_latest_public_move() -> None:
    game = mid_game()
    for seat in range(4):
        latest = next(v for kind, who, v in reversed(game.history) if kind == "action" and who == seat)
        assert View(game, (seat + 1) % 4).last_action(seat) == latest
    capital = Game(Rules.preset("2008").for_game("capital"), 3, seed=4)
    while capital.phase != Phase.CHOOSE_CAPITAL:
        capital.apply(next(iter(capital.legal_actions())))
    chooser = capital.to_act
    capital.apply(next(iter(capital.legal_actions())))  # a headquarters, chosen in secret
    assert capital.phase == Phase.CHOOSE_CAPITAL
    assert View(capital, chooser).last_action(chooser) is not None
    assert View(capital, capital.to_act).last_action(chooser) is None  # not revealed yet


def test_check_says_why_an_action_is_refused() -> None:
    game = mid_game()
    actor = game.to_act
    legal = next(iter(game.legal_actions()))
    View(game, actor).check(legal)
    with pytest.raises(IllegalActionError, match="is not the player to act"):
        View(game, (actor + 1) % 4).check(legal)
    with pytest.raises(IllegalActionError, match="is not the player to act"):
        View(game, SPECTATOR).check(legal)
    wrong = game.parse("claim alaska")
    with pytest.raises(IllegalActionError):
        View(game, actor).check(wrong)
