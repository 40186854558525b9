"""The secrecy boundary: a view shows only what its player may know."""

from __future__ import annotations

import json
import random

from risk.rules.game import Game
from risk.rules.options import Rules
from risk.simulate import play_game
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
