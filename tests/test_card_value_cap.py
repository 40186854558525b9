"""`card-value-cap=N`: a house rule, not from the rulebooks, shipped as a variant module
(src/risk/rules/variants/card_cap.py; docs/rules.md, and docs/rules-core.md's worked example).
No set is worth more than N armies, whatever the chart; 0 (the default) is no cap."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import deque

import pytest

from positions import make_position
from risk.errors import RulesError
from risk.maps import WILD
from risk.play.simulate import play_game
from risk.record import replay_record, write_record
from risk.rules.actions import Trade
from risk.rules.game import Game, Phase
from risk.rules.options import Rules
from risk.rules.variants import variants_for
from risk.view import View


def cards_of(game: Game, symbol: int, count: int) -> list[str]:
    board = game.board
    return [board.card_name(c) for c in range(board.card_count) if board.card_symbols[c] == symbol][:count]


def traded(rules: Rules, hand: list[str], sets_traded: int = 0, players: int = 3) -> int:
    """The armies a trade of ``hand`` gives player 0 at the start of a turn (no territory bonus: the
    cards' territories are another player's)."""
    game = make_position(
        rules, players, phase=Phase.REINFORCE, pending=3, hands={0: hand}, sets_traded=sets_traded
    )
    before = game.pending
    game.apply(Trade(tuple(game.board.card(c) for c in hand)))
    return game.pending - before


@pytest.fixture(scope="module")
def sample() -> Game:
    return Game("2008", 3, seed=0)


def test_escalating_sets_stop_at_the_cap(sample: Game) -> None:
    hand = cards_of(sample, 0, 3)  # three infantry
    capped = Rules.preset("2008").with_options(card_value_cap=10)
    plain = Rules.preset("2008")
    assert [traded(plain, hand, k) for k in range(8)] == [4, 6, 8, 10, 12, 15, 20, 25]
    assert [traded(capped, hand, k) for k in range(8)] == [4, 6, 8, 10, 10, 10, 10, 10]
    position = make_position(capped, phase=Phase.REINFORCE, sets_traded=6)
    assert position.next_set_value() == 10 == View(position, 0).next_set_value()


def test_the_cap_applies_to_the_fixed_chart_and_plus_one(sample: Game) -> None:
    infantry, artillery = cards_of(sample, 0, 3), cards_of(sample, 2, 3)
    one_of_each = [cards_of(sample, s, 1)[0] for s in (0, 1, 2)]
    mission = Rules.preset("2003").for_game("mission").with_options(card_value_cap=6)
    assert [traded(mission, h) for h in (infantry, artillery, one_of_each)] == [4, 6, 6]
    team = Rules.preset("2003").for_game("team").with_options(card_value_cap=7)
    assert traded(team, artillery, players=4) == 7
    plus_one = Rules.preset("1993").with_options(card_values="plus-one", card_value_cap=6)
    assert [traded(plus_one, infantry, k) for k in range(5)] == [4, 5, 6, 6, 6]


def test_the_territory_bonus_still_comes_on_top(sample: Game) -> None:
    hand = cards_of(sample, 0, 3)
    rules = Rules.preset("2008").with_options(card_value_cap=5)
    game = make_position(
        rules, owners={hand[0]: (0, 1)}, phase=Phase.REINFORCE, pending=3, hands={0: hand}, sets_traded=4
    )
    held = game.board.card(hand[0])
    game.apply(Trade(tuple(game.board.card(c) for c in hand)))
    assert (game.pending, game.armies[held]) == (3 + 5, 1 + 2)


def test_the_view_gives_each_set_its_capped_value(sample: Game) -> None:
    hand = [*cards_of(sample, 2, 3), sample.board.card_name(sample.board.card_count - 1)]
    assert sample.board.card_symbols[sample.board.card(hand[-1])] == WILD
    rules = Rules.preset("2003").for_game("mission").with_options(card_value_cap=7)
    game = make_position(rules, phase=Phase.REINFORCE, pending=3, hands={0: hand})
    values = View(game, 0).to_dict()["set_values"]
    assert len(values) == 4  # three artillery, and each pair of them with the wild
    assert {entry["value"] for entry in values} == {7}  # 8 by the chart


def test_the_option_brings_in_its_variant_only_when_set() -> None:
    assert "card-value-cap" not in {v.name for v in variants_for(Rules.preset("2008"))}
    described = "2003 game=two-player neutral-mode=active army-cap=12 commanders=on card-value-cap=12"
    names = {v.name for v in variants_for(Rules.from_description(described))}
    others = {"neutral-armies", "two-player", "active-neutrals", "army-cap", "dice-options"}
    assert names == others | {"card-value-cap"}


@pytest.mark.parametrize(
    ("description", "seats"),
    [
        ("2008 card-value-cap=8", 3),
        ("2003 game=two-player neutral-mode=active card-value-cap=6", 2),
        ("2008 game=capital card-value-cap=10", 4),
        ("2003 game=team card-value-cap=5", 4),
    ],
)
def test_a_game_with_the_cap_plays_saves_and_replays(description: str, seats: int) -> None:
    rules = Rules.from_description(description)
    cap = rules.card_value_cap
    game, _ = play_game(rules, ["quick"] * seats, seed=11, max_turns=300)
    assert game.rules.describe() == description
    # Every trade of the game gave at most the cap.
    chances = [(kind, value) for entry, kind, value in game.history if entry == "chance"]
    replay = Game(rules, list(game.players[: game.humans]), seed=0, _script=deque(chances))
    trades = []
    for entry, _, action in game.history:
        if entry != "action":
            continue
        before = replay.pending
        replay.apply(action)
        if isinstance(action, Trade):
            trades.append(replay.pending - before)
    assert trades and max(trades) <= cap
    # The record names the option and replays to the same game; a save loads and saves the same.
    text = write_record(game)
    assert f"rules: {description}" in text
    replayed = replay_record(text).game
    assert replayed.to_dict() == game.to_dict()
    assert Game.from_dict(game.to_dict()).to_dict() == game.to_dict()


def test_bad_values_are_refused_with_a_clear_message() -> None:
    for value in ("-1", "ten", "1001", "2.5"):
        message = f"bad value '{value}' for option 'card-value-cap' (allowed: a whole number from 0 to 1000)"
        with pytest.raises(RulesError, match=f"^{re.escape(message)}$"):
            Rules.preset("2008").with_option_text([f"card-value-cap={value}"])


def run_risk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "risk", *args], capture_output=True, text=True, timeout=120)


def test_risk_rules_lists_the_option_and_refuses_a_bad_value() -> None:
    shown = run_risk("rules", "2008", "--option", "card-value-cap=10")
    assert shown.returncode == 0, shown.stderr
    assert "card-value-cap" in shown.stdout and "house rule" in shown.stdout
    assert "2008 card-value-cap=10" in shown.stdout
    for preset in (["2008"], []):  # one preset, or all three
        refused = run_risk("rules", *preset, "--option", "card-value-cap=-5")
        assert refused.returncode == 2
        assert refused.stderr.strip().splitlines() == [
            "risk: error: bad value '-5' for option 'card-value-cap' (allowed: a whole number from 0 to 1000)"
        ]
    every = run_risk("rules", "--option", "card-value-cap=10")
    assert every.returncode == 0 and "1993 card-value-cap=10" in every.stdout


def test_the_server_lists_the_option_creates_a_game_with_it_and_refuses_a_bad_value() -> None:
    from fastapi.testclient import TestClient

    from risk.server.app import create_app
    from risk.server.storage import MemoryStorage

    with TestClient(create_app(MemoryStorage())) as client:
        meta = client.get("/api/meta").json()
        listed = {option["name"]: option for option in meta["options"]}["card-value-cap"]
        assert listed["choices"] is None and "house rule" in listed["description"]
        assert "not in any rulebook" in listed["source"]
        assert {edition["options"]["card-value-cap"] for edition in meta["editions"].values()} == {"0"}
        seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "quick"}] * 2
        body = {"edition": "2003", "game": "mission", "seats": seats, "seed": 4, "bot_delay": 0}
        made = client.post("/api/games", json=body | {"options": {"card-value-cap": "12"}})
        assert made.status_code == 201, made.text
        summary = client.get(f"/api/games/{made.json()['id']}").json()
        assert summary["rules"] == "2003 game=mission card-value-cap=12"
        refused = client.post("/api/games", json=body | {"options": {"card-value-cap": "-3"}})
        assert refused.status_code == 422
        assert refused.json()["error"] == {
            "code": "bad-request",
            "message": "bad value '-3' for option 'card-value-cap' (allowed: a whole number from 0 to 1000)",
        }
