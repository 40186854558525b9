"""A game variant's secret is its own (issue 41): a new variant written in one module, here this
test's, is hidden from the other seats by the View, by the record written for a player and by the
determiniser, through its secrecy hooks alone (``risk.rules.variants.base``: ``shown_to``,
``view_data``, ``redact``, ``sample_hidden``, ``chance_keys``), with no edit to view.py, record.py
or determinise.py.

"Sealed orders": each player is dealt a secret target territory at the setup, written to the history
as a chance outcome of one key per seat (as Secret Mission RISK writes its missions), and read back
from it, so that the variant needs no field of its own. The test registers it for one ruleset.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

import risk.rules.variants as registry
from risk.bots import make_bot
from risk.record import read_record, write_record
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.rules.state import HistoryEntry, State
from risk.rules.variants import hooks_for
from risk.rules.variants.base import Variant
from risk.view import SPECTATOR, View, public_history

SEALED = "sealed-orders"
RULES = Rules.preset("2008").with_options(elimination_trade_at=7)  # the ruleset that plays the variant


def sealed_orders(game: State) -> tuple[str | None, ...]:
    """Each seat's sealed order (a territory's slug), as the history holds it."""
    for kind, who, value in game.history:
        if kind == "chance" and who == SEALED:
            orders: tuple[str | None, ...] = value
            return orders
    return ()


class SealedOrders(Variant[State]):
    name = SEALED
    chance_keys = frozenset((SEALED,))

    def setup(self, game: State) -> None:
        board = game.board
        generated = tuple(board.slug_of(int(game._rng.random() * len(board))) for _ in range(game.humans))
        orders = generated if game._script is None else tuple(game._scripted(SEALED))
        if game._script is not None:
            game._check_chance(SEALED, orders, generated)
        game.history.append(("chance", SEALED, orders))

    def shown_to(self, game: State, seat: int) -> Mapping[str, Any]:
        orders = sealed_orders(game)
        return {
            "sealed_orders": orders
            if game.is_over
            else tuple(o if p == seat else None for p, o in enumerate(orders))
        }

    def view_data(self, game: State, seat: int) -> Mapping[str, Any]:
        return {"sealed_orders": list(self.shown_to(game, seat)["sealed_orders"])}

    def redact(self, game: State, entry: HistoryEntry, seat: int) -> HistoryEntry:
        kind, who, value = entry
        if kind == "chance" and who == SEALED and not game.is_over:
            return kind, who, tuple(o if p == seat else None for p, o in enumerate(value))
        return entry

    def sample_hidden(self, real: State, sample: State, seat: int, rng: random.Random) -> None:
        board = real.board
        mine = sealed_orders(real)
        drawn = tuple(
            mine[p] if p == seat else board.slug_of(int(rng.random() * len(board)))
            for p in range(real.humans)
        )
        sample.history.append(("chance", SEALED, drawn))


@pytest.fixture(autouse=True)
def sealed_orders_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The variant in the registry for ``RULES`` only, for this test alone."""
    monkeypatch.setattr(
        registry, "REGISTRY", (*registry.REGISTRY, (SealedOrders, lambda rules: rules == RULES))
    )
    hooks_for.cache_clear()
    yield
    monkeypatch.undo()
    hooks_for.cache_clear()


def played(turns: int, seed: int = 3) -> Game:
    game = Game(RULES, 4, seed=seed)
    bots = [make_bot("quick", seat) for seat in range(4)]
    while not game.is_over and game.turn < turns:
        game.apply(bots[game.to_act].choose(View(game, game.to_act)))
    assert not game.is_over
    return game


def test_the_view_shows_a_player_its_own_order_alone() -> None:
    game = played(3)
    orders = sealed_orders(game)
    assert len(orders) == 4 and all(orders)
    for seat in range(4):
        view = View(game, seat)
        expected = tuple(o if p == seat else None for p, o in enumerate(orders))
        assert view.shown("sealed_orders") == expected
        assert view.to_dict()["sealed_orders"] == list(expected)
        others = [o for p, o in enumerate(orders) if p != seat and o != orders[seat]]
        assert not any(o in repr(view.public_history()) for o in others)
    assert View(game, SPECTATOR).shown("sealed_orders") == (None,) * 4
    # A game without the variant shows no such thing.
    assert "sealed_orders" not in View(Game(Rules.preset("2008"), 4, seed=3), 0).to_dict()


def test_a_players_record_hides_the_others_orders_and_the_full_record_replays() -> None:
    game = played(3)
    orders = sealed_orders(game)
    for seat in range(4):
        line = next(line for line in write_record(game, viewer=seat).splitlines() if SEALED in line)
        assert line == f"~ {SEALED} " + ",".join(o if p == seat else "?" for p, o in enumerate(orders))
        assert public_history(game, seat)[0] == (
            "chance",
            SEALED,
            tuple(o if p == seat else None for p, o in enumerate(orders)),
        )
    replayed = read_record(write_record(game))
    assert sealed_orders(replayed) == orders and replayed.to_dict() == game.to_dict()


def test_the_determiniser_samples_the_others_orders_from_nothing_they_hide() -> None:
    game = played(2)
    me = game.current
    orders = sealed_orders(game)
    twin = game.copy()  # the same game but for another player's sealed order
    other = (me + 1) % 4
    changed = tuple(
        "alaska" if p == other and o != "alaska" else ("peru" if p == other else o)
        for p, o in enumerate(orders)
    )
    twin.history = [("chance", SEALED, changed) if e[1] == SEALED else e for e in twin.history]
    samples = []
    for rng_seed in range(12):
        sample = View(game, me).determinise(random.Random(rng_seed))
        twin_sample = View(twin, me).determinise(random.Random(rng_seed))
        sampled = sealed_orders(sample)
        assert sampled == sealed_orders(twin_sample)  # nothing of the hidden orders leaks
        assert sampled[me] == orders[me]
        samples.append(sampled)
    assert len({s[other] for s in samples}) > 1  # the others' orders are drawn, not copied
