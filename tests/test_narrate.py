"""The plain-words log and the grouped legal actions that front ends show."""

from __future__ import annotations

import re

import pytest

from risk import Game, Rules, View
from risk.bots import make_bot
from risk.narrate import narrate, snapshot
from risk.view import public_history

GAMES = [
    ("2008", "world", 3, {}),
    ("1993", "secret-mission", 4, {}),
    ("2008", "capital", 4, {}),
    ("2003", "two-player", 2, {"neutral-mode": "active"}),
    ("2003", "mission", 3, {}),
    ("2003", "team", 4, {}),
    ("1993", "world", 3, {"attack-advantage": "on", "commanders": "on"}),
]


def _play(preset: str, game_name: str, players: int, options: dict[str, str], seed: int, steps: int = 4000):
    rules = (
        Rules.preset(preset).for_game(game_name).with_options(**options)
        if options
        else (Rules.preset(preset).for_game(game_name))
    )
    game = Game(rules, [f"P{i}" for i in range(players)], seed=seed)
    bots = [make_bot("quick", seed + i) for i in range(len(game.players))]
    for _ in range(steps):
        if game.is_over:
            break
        before, start = snapshot(game), len(game.history)
        game.apply(bots[game.to_act].choose(View(game, game.to_act)))
        yield game, before, start


@pytest.mark.parametrize(("preset", "game_name", "players", "options"), GAMES)
def test_the_log_does_not_depend_on_secrets(preset: str, game_name: str, players: int, options: dict) -> None:
    """Every line is the same when the step's secret outcomes (cards drawn, missions dealt, hidden
    headquarters) are blanked out, as a spectator's history shows them: the log says nothing secret."""
    lines = 0
    # 1,500 steps: a two-player game with active neutrals runs on long after that, and each step here
    # rebuilds the spectator's history whole (the step count's square: 74 s at 4,000 steps).
    for game, before, start in _play(preset, game_name, players, options, seed=11, steps=1500):
        real = narrate(game, before, game.history[start:])
        redacted = narrate(game, before, public_history(game, -1)[start:])
        assert [x.text for x in real] == [x.text for x in redacted]
        assert all(x.text.endswith(".") and x.text[0].isupper() for x in real)
        lines += len(real)
    assert lines > 100


def test_log_words() -> None:
    texts: list[str] = []
    for game, before, start in _play("2008", "world", 3, {}, seed=5):
        texts += [line.text for line in narrate(game, before, game.history[start:])]
    joined = "\n".join(texts)
    assert "P0 claims " in joined
    assert " attacks " in joined and " with 3 dice." in joined
    assert " conquers " in joined
    assert " draws a card." in joined
    assert not re.search(r"\b1 (armies|dice)\b", joined)
    assert texts[-1].split(":")[0].endswith("wins")


@pytest.mark.parametrize("preset", ["1993", "2003", "2008"])
def test_the_card_is_drawn_by_the_player_whose_turn_earned_it(preset: str) -> None:
    """Under the 1993 and 2003 rules the card is drawn as the turn ends, when the next player is
    already the current one: the line still names the player who conquered (it once named the next)."""
    draws = 0
    for game, before, start in _play(preset, "world", 3, {}, seed=7, steps=1500):
        for line in narrate(game, before, game.history[start:]):
            if line.kind == "draw":
                draws += 1
                assert line.seat == before.current, line.text
                assert line.text == f"{game.players[before.current]} draws a card."
    assert draws > 5


@pytest.mark.parametrize(("preset", "game_name", "players", "options"), GAMES)
def test_legal_groups_expand_to_the_legal_actions(
    preset: str, game_name: str, players: int, options: dict
) -> None:
    checked = 0
    for index, (game, _before, _start) in enumerate(
        _play(preset, game_name, players, options, seed=3, steps=900)
    ):
        if index % 7 or game.is_over:
            continue
        view = View(game, game.to_act)
        expanded = set()
        for group in view.legal_groups():
            if "min" in group:
                expanded |= {f"{group['text']} {n}" for n in range(group["min"], group["max"] + 1)}
            else:
                expanded.add(group["text"])
        assert expanded == {view.action_text(a) for a in game.legal_actions()}
        other = View(game, (game.to_act + 1) % game.humans)
        assert other.legal_groups() == []
        checked += 1
    assert checked > 20


def test_a_trade_names_its_cards_in_words() -> None:
    """A trade's line names its cards as people do, "P0 trades in Japan, Quebec and a wild card for 10
    armies.", never by their notation (japan, new-guinea, wild1)."""
    trades: list[str] = []
    wild = 0
    for seed in range(3, 9):
        for game, before, start in _play("2008", "world", 3, {}, seed=seed, steps=2500):
            for kind, _who, action in game.history[start:]:
                if kind != "action" or type(action).__name__ != "Trade":
                    continue
                line = next(x.text for x in narrate(game, before, game.history[start:]) if x.kind == "trade")
                count = len(game.board.territories)
                names = [game.board.name_of(c) for c in action.cards if c < count]
                wilds = len(action.cards) - len(names)
                wild += wilds > 0
                said = [
                    *names,
                    *(["a wild card"] if wilds == 1 else [f"{wilds} wild cards"] if wilds else []),
                ]
                listed = f"{', '.join(said[:-1])} and {said[-1]}"
                assert re.fullmatch(rf"P\d trades in {re.escape(listed)}( for \d+ armies)?\.", line), line
                assert not re.search(r"wild\d|[a-z]-[a-z]", line), line
                trades.append(line)
    assert len(trades) > 10 and wild > 0, (len(trades), wild)
