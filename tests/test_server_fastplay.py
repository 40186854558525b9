"""Faster play on the server (docs/web.md "Faster play"): blitz and undo.

- a blitz stores exactly what the same attacks sent one by one would (same seed, same bot defences),
  in one transaction: a store that fails keeps nothing and changes nothing;
- "until N left", refusals that say what was wrong, a human defender choosing their own dice;
- undo: what may be taken back and what may not, the generator untouched, state ids that only grow,
  a restart after undos that rebuilds exactly the same game, records with the effective actions only.

The ``storage`` fixture (tests/conftest.py) runs the store-facing tests on memory, SQLite and PostgreSQL.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from risk import View
from risk.bots import make_bot
from risk.record import read_record, replay_record, write_record
from risk.rules.game import Game, Phase
from risk.server.app import create_app
from risk.server.clock import default_defence
from risk.server.master import GameMaster, GameSpec, LiveGame, Refusal, SeatSpec
from risk.server.storage import ActionRecord, MemoryStorage, Progress, Storage, StorageError
from risk.server.undo import Undo, effective_actions, effective_entries, undo_target, undo_text

# -- playing a game on the master ----------------------------------------------------------------


def new_game(master: GameMaster, seats: str, seed: int, **spec: Any) -> tuple[str, list[str | None]]:
    """A game with "h" human and "b" quick-bot seats; the human tokens by seat (None for bots)."""
    record, created = master.create_game(
        GameSpec(
            seats=[
                SeatSpec("human", f"H{i}") if kind == "h" else SeatSpec("bot", bot="quick")
                for i, kind in enumerate(seats)
            ],
            seed=seed,
            defend_timeout=0,
            **spec,
        )
    )
    return record.id, [c.token for c in created]


class Table:
    """A game on a master with its human seats decided by quick bots, one move at a time."""

    def __init__(self, master: GameMaster, game_id: str) -> None:
        self.master, self.game_id = master, game_id
        self.deciders = {seat: make_bot("quick", 100 + seat) for seat in range(8)}

    @property
    def live(self) -> LiveGame:
        return self.master.live(self.game_id)

    @property
    def game(self) -> Game:
        return self.live.game

    def human(self, seat: int) -> bool:
        return self.live.record.seats[seat].kind == "human"

    def step(self) -> None:
        """One move: a bot of the server's, or a human seat's quick decision. Made at the state it was
        decided at: where an app's driver moved a bot meanwhile (a test slower than its bot delay, on a
        loaded machine: CI met it), the move is refused as stale and the next step looks again."""
        turn = self.master.bot_turn(self.game_id)
        try:
            if turn is not None:
                seat, state_id, decide = turn
                self.master.submit_as(self.game_id, seat, decide(), state_id)
                return
            state_id = self.master.published_state(self.game_id)
            seat = self.game.to_act
            view = View(self.game.copy(), seat)
            self.master.submit_as(
                self.game_id, seat, view.action_text(self.deciders[seat].choose(view)), state_id
            )
        except Refusal as refusal:
            if refusal.code not in ("stale", "not-your-turn"):
                raise

    def until(self, found: Callable[[], Any], limit: int = 20_000) -> Any:
        """Play on until ``found()`` answers something (which is returned)."""
        for _ in range(limit):
            result = found()
            if result:
                return result
            if self.game.is_over:
                return None
            self.step()
        raise AssertionError("the position never came")

    def legal(self, seat: int) -> dict[str, dict[str, Any]]:
        return {g["text"]: g for g in self.master.state_message(self.game_id, seat)["legal"]}

    def attack_for(
        self, seat: int, floor: int, defender: Callable[[int], bool], strong: bool = False
    ) -> tuple[str, str] | None:
        """An attack of ``seat``'s with a few rolls in it: the source above ``floor`` + 2, the target
        held by a seat ``defender`` accepts, with 2 or more armies (so that it defends); ``strong``:
        with about as many as the attack can spare."""
        game = self.game
        if game.is_over or game.to_act != seat or game.phase != Phase.ATTACK:
            return None
        board = game.board
        for text in self.legal(seat):
            words = text.split()
            if words[0] != "attack":
                continue
            source, target = board.territory(words[1]), board.territory(words[2])
            attackers, defenders = game.armies[source], game.armies[target]
            if strong and defenders < attackers - floor:
                continue
            if attackers > floor + 2 and defenders >= 2 and defender(game.owner[target]):
                return words[1], words[2]
        return None


def clone(storage: Storage, game_id: str) -> MemoryStorage:
    """A second store holding the same game, so that two masters can go on from the same position."""
    record = storage.get_game(game_id)
    assert record is not None
    other = MemoryStorage()
    other.create_game(replace(record, state_id=0))
    entries = storage.actions(game_id)
    if entries:
        other.append_actions(game_id, entries, Progress(record.status, record.winner, record.turn))
    return other


def one_by_one(table: Table, seat: int, source: str, target: str, floor: int) -> int:
    """The same invasion as a blitz, sent as single attacks with the most dice the legal list offers,
    the bots defending as the server's driver has them. Answers the rolls."""
    rolls = 0
    slug_of = table.game.board.slug_of
    while True:
        game = table.game
        if game.is_over or game.phase != Phase.ATTACK or game.to_act != seat:
            return rolls
        if game.armies[game.board.territory(source)] <= floor:
            return rolls
        group = table.legal(seat).get(f"attack {source} {target}")
        if group is None:
            return rolls
        table.master.submit_as(table.game_id, seat, f"attack {source} {target} {group['max']}", None)
        while table.game.phase == Phase.DEFEND:
            defender, state_id, decide = table.master.bot_turn(table.game_id)  # type: ignore[misc]
            table.master.submit_as(table.game_id, defender, decide(), state_id)
        rolls += 1
        if table.game.phase == Phase.ADJUST_DICE:
            return rolls  # 1993 experts: the attacker may change the dice, a choice of its own
        battle = table.game.last_battle
        assert battle is not None and slug_of(battle.target) == target
        if battle.conquered:
            return rolls


# -- blitz ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "floor"), [(3, 1), (11, 1), (29, 1), (5, 3), (17, 4)])
def test_a_blitz_stores_what_the_same_attacks_one_by_one_would(seed: int, floor: int) -> None:
    storage = MemoryStorage()
    master = GameMaster(storage)
    game_id, _ = new_game(master, "hbb", seed)
    table = Table(master, game_id)
    compared = 0
    while compared < 3:
        found = table.until(lambda: table.attack_for(0, floor, lambda owner: owner != 0))
        if found is None:
            break
        source, target = found
        twin = Table(GameMaster(clone(storage, game_id)), game_id)
        start = table.live.state_id
        seq, run = master.blitz(game_id, 0, source, target, floor, start)
        rolls = one_by_one(twin, 0, source, target, floor)
        assert run.rolls == rolls >= 1
        assert seq == twin.live.state_id and seq == start + len(run.steps)
        assert [(a.seat, a.text) for a in storage.actions(game_id)] == [
            (a.seat, a.text) for a in twin.master.storage.actions(game_id)
        ]
        assert table.game.to_dict() == twin.game.to_dict()
        assert table.live.log == twin.live.log
        # Every roll is in the log: one battle line each.
        new_lines = table.live.log[-len(run.lines) :]
        assert [line["kind"] for line in new_lines].count("battle") == rolls
        game = table.game
        if run.stopped == "floor":
            assert game.armies[game.board.territory(source)] <= floor
        elif run.stopped == "conquered":
            assert game.last_battle is not None and game.last_battle.conquered
        else:
            assert run.stopped == "cannot", run.to_dict()
        compared += 1
        table.step()
    assert compared >= 2


@pytest.mark.parametrize(
    ("edition", "game", "options", "seats"),
    [
        ("1993", "secret-mission", {}, "hbbb"),
        ("2008", "capital", {}, "hbbb"),
        ("2003", "two-player", {"neutral-mode": "active"}, "hb"),
        ("1993", "two-player", {}, "hb"),
        ("2003", "mission", {}, "hbb"),
        ("2003", "team", {}, "hbbb"),
        ("1993", "world", {"attack-advantage": "on", "commanders": "on"}, "hbb"),
    ],
)
def test_a_blitz_in_every_game_stores_what_the_attacks_one_by_one_would(
    edition: str, game: str, options: dict[str, str], seats: str
) -> None:
    storage = MemoryStorage()
    master = GameMaster(storage)
    game_id, _ = new_game(master, seats, 5, edition=edition, game=game, options=options)
    table = Table(master, game_id)
    stops: set[str] = set()
    for _ in range(4):
        found = table.until(lambda: table.attack_for(0, 1, lambda owner: owner != 0))
        if found is None:
            break
        twin = Table(GameMaster(clone(storage, game_id)), game_id)
        _, run = master.blitz(game_id, 0, *found, 1, None)
        assert run.rolls == one_by_one(twin, 0, *found, 1) >= 1
        assert [(a.seat, a.text) for a in storage.actions(game_id)] == [
            (a.seat, a.text) for a in twin.master.storage.actions(game_id)
        ]
        assert table.game.to_dict() == twin.game.to_dict() and table.live.log == twin.live.log
        stops.add(run.stopped)
        table.step()
    assert stops, "no attack came"
    if options.get("commanders") == "on":
        assert "adjust" in stops  # the experts' dice are the attacker's to change: the blitz stops


def test_a_blitz_is_one_transaction_and_a_failed_store_keeps_nothing() -> None:
    class OneShotStorage(MemoryStorage):
        """Counts the commits; fails the next ones while ``broken``."""

        def __init__(self) -> None:
            super().__init__()
            self.broken = False
            self.commits: list[int] = []

        def commit(self, game_id, actions, progress, change):  # type: ignore[no-untyped-def]
            if self.broken:
                raise StorageError("the disk is full")
            self.commits.append(len(actions))
            return super().commit(game_id, actions, progress, change)

    storage = OneShotStorage()
    master = GameMaster(storage)
    game_id, _ = new_game(master, "hbb", 3)
    table = Table(master, game_id)
    source, target = table.until(lambda: table.attack_for(0, 1, lambda owner: owner != 0))
    live = table.live
    before, log, stored = live.game.to_dict(), list(live.log), storage.actions(game_id)
    storage.broken = True
    with pytest.raises(Refusal) as refused:
        master.blitz(game_id, 0, source, target, 1, live.state_id)
    assert refused.value.code == "unavailable" and "try again" in refused.value.message
    assert live.game.to_dict() == before and live.log == log and storage.actions(game_id) == stored
    assert live.state_id == stored[-1].seq
    storage.broken = False
    storage.commits.clear()
    seq, run = master.blitz(game_id, 0, source, target, 1, live.state_id)
    assert storage.commits == [len(run.steps)] and len(run.steps) >= 2  # all the rolls, one commit
    assert seq == storage.actions(game_id)[-1].seq


def test_blitz_until_n_left_stops_at_n(storage: Storage) -> None:
    master = GameMaster(storage)
    game_id, _ = new_game(master, "hbb", 31)
    table = Table(master, game_id)
    stops: set[str] = set()
    for _ in range(6):
        found = table.until(lambda: table.attack_for(0, 5, lambda owner: owner != 0, strong=True))
        if found is None:
            break
        source, target = found
        territory = table.game.board.territory(source)
        _, run = master.blitz(game_id, 0, source, target, 5, None)
        game = table.game
        stops.add(run.stopped)
        if run.stopped == "floor":
            assert game.armies[territory] <= 5 and "left in" in run.message
            # It stopped as soon as it got there: the roll before left more than 5.
            battle = game.last_battle
            assert battle is not None and game.armies[territory] + battle.attacker_losses > 5
        else:
            assert run.stopped in ("conquered", "cannot")
            assert run.stopped != "conquered" or game.phase in (Phase.OCCUPY, Phase.ATTACK)
        table.step()
    assert "floor" in stops


def test_a_blitz_that_cannot_be_is_refused_clearly() -> None:
    master = GameMaster(MemoryStorage())
    game_id, _ = new_game(master, "hhb", 3)
    table = Table(master, game_id)
    source, target = table.until(lambda: table.attack_for(0, 1, lambda owner: True))
    live = table.live
    game = live.game
    board = game.board
    before, state = game.to_dict(), live.state_id
    own = next(board.slug_of(t) for t in game.territories_of(0) if board.slug_of(t) != source)
    far = next(
        board.slug_of(t)
        for t in range(len(board))
        if game.owner[t] != 0 and t not in board.adjacent[board.territory(source)]
    )
    armies = game.armies[board.territory(source)]
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"target": "atlantis"}, "notation", "atlantis"),
        ({"target": own}, "illegal", "no blitz"),
        ({"target": far}, "illegal", "no blitz"),
        ({"until": 0}, "bad-request", "1 or more"),
        ({"until": armies}, "bad-request", "would not roll"),
        ({"state_id": state - 1}, "stale", "moved on"),
        ({"seat": 1}, "not-your-turn", "H0"),
    ]
    for change, code, words in cases:
        args = {"seat": 0, "source": source, "target": target, "until": 1, "state_id": state} | change
        with pytest.raises(Refusal) as refused:
            master.blitz(game_id, *(args[k] for k in ("seat", "source", "target", "until", "state_id")))
        assert refused.value.code == code and words in refused.value.message, (change, refused.value.message)
        assert live.game.to_dict() == before and live.state_id == state
    assert master.stop_blitz(game_id, 0) is False  # nothing waits


def test_a_human_defender_chooses_and_the_blitz_goes_on_after() -> None:
    storage = MemoryStorage()
    master = GameMaster(storage)
    game_id, _ = new_game(master, "hhb", 7)
    table = Table(master, game_id)

    def blitz_on_a_human() -> tuple[str, str] | None:
        for seat in (0, 1):
            found = table.attack_for(seat, 1, lambda owner, seat=seat: owner in (0, 1) and owner != seat)
            if found:
                return seat, *found  # type: ignore[return-value]
        return None

    attacker, source, target = table.until(blitz_on_a_human)
    defender = 1 - attacker
    live = table.live
    start = live.state_id
    seq, run = master.blitz(game_id, attacker, source, target, 1, start)
    # Only the attack is stored: the human defender's dice are theirs to choose.
    assert run.stopped == "defender" and run.rolls == 0 and seq == start + 1
    assert [(a.seat, a.text) for a in storage.actions(game_id)[start:]] == run.steps
    assert run.steps[0][1].startswith(f"attack {source} {target} ")
    assert live.game.phase == Phase.DEFEND and live.game.to_act == defender
    mine, theirs = (master.state_message(game_id, s) for s in (attacker, defender))
    assert mine["blitz"] == {"from": source, "to": target, "until": 1} and theirs["blitz"] is None
    rolls = 0
    while live.game.phase == Phase.DEFEND and live.game.to_act == defender:
        state = live.state_id
        group = table.legal(defender)["defend"]
        after = master.submit_as(game_id, defender, f"defend {group['max']}", state)
        rolls += 1
        # The defence and the attack that follows it are stored together.
        stored = storage.actions(game_id)
        assert stored[state].text.startswith("defend") and after == stored[-1].seq
        if live.game.phase == Phase.DEFEND:
            assert after == state + 2 and stored[-1].text.startswith("attack")
    battles = [line for line in live.log if line["kind"] == "battle"]
    assert rolls >= 1 and len(battles) >= rolls
    assert live.blitz is None  # the blitz ended: conquered, or down to its last army
    game = live.game
    conquered = game.last_battle is not None and game.last_battle.conquered
    assert conquered or game.armies[game.board.territory(source)] == 1 or game.phase != Phase.ATTACK


def test_a_waiting_blitz_can_be_called_off_and_the_defend_time_limit_rolls_for_a_human() -> None:
    now = [1000.0]
    storage = MemoryStorage()
    master = GameMaster(storage, clock=lambda: now[0])
    record, _ = master.create_game(
        GameSpec(
            seats=[SeatSpec("human", "Ann"), SeatSpec("human", "Bob"), SeatSpec("bot", bot="quick")],
            seed=7,
            defend_timeout=20,
        )
    )
    game_id = record.id
    table = Table(master, game_id)

    def blitz_on_a_human() -> tuple[int, str, str] | None:
        for seat in (0, 1):
            found = table.attack_for(seat, 1, lambda owner, seat=seat: owner in (0, 1) and owner != seat)
            if found and table.game.armies[table.game.board.territory(found[1])] >= 3:
                return seat, *found
        return None

    attacker, source, target = table.until(blitz_on_a_human)
    live = table.live
    master.blitz(game_id, attacker, source, target, 1, live.state_id)
    assert live.deadline == now[0] + 20  # the defender's clock, as for any attack
    # The time runs out: the most dice are rolled for the defender, as every player was told, and
    # the blitz goes on with the next attack.
    state = live.state_id
    assert default_defence(master, game_id, state) is not None
    stored = storage.actions(game_id)
    assert stored[state].text == "defend 2" and len(stored) > state + 1
    if live.game.phase == Phase.DEFEND:
        assert master.stop_blitz(game_id, 1 - attacker) is False  # not the defender's to call off
        assert master.stop_blitz(game_id, attacker) is True
        assert master.state_message(game_id, attacker)["blitz"] is None
        state = live.state_id
        master.submit_as(game_id, 1 - attacker, "defend 1", state)
        assert live.state_id == state + 1  # called off: the defence alone
        assert live.game.phase != Phase.DEFEND


# -- undo ----------------------------------------------------------------------------------------


def rng_state(game: Game) -> list[Any]:
    return game.to_dict()["rng"]


def reinforcing(table: Table, seat: int, armies: int) -> Callable[[], bool]:
    def found() -> bool:
        game = table.game
        return (
            game.to_act == seat
            and game.phase == Phase.REINFORCE
            and game.pending >= armies
            and not game.must_trade(seat)
            and not any(text.startswith("trade") for text in table.legal(seat))
        )

    return found


def test_placements_are_taken_back_one_at_a_time(storage: Storage) -> None:
    master = GameMaster(storage)
    game_id, _ = new_game(master, "hbb", 8)
    table = Table(master, game_id)
    table.until(reinforcing(table, 0, 3))
    live = table.live
    game = live.game
    board = game.board
    mine = [board.slug_of(t) for t in game.territories_of(0)][:2]
    positions = [game.to_dict()]
    generator = rng_state(game)
    assert master.state_message(game_id, 0)["undo"] is None
    first = master.submit_as(game_id, 0, f"place {mine[0]} 1", live.state_id)
    positions.append(live.game.to_dict())
    second = master.submit_as(game_id, 0, f"place {mine[1]} 2", first)
    # Placing drew on no chance at all: the generator is where it was.
    assert rng_state(live.game) == generator
    undo = {"to": second, "actions": 2, "last": f"place {mine[1]} 2"}
    assert master.state_message(game_id, 0)["undo"] == undo
    assert master.state_message(game_id, 1)["undo"] is None  # only for the seat that placed
    undone = master.undo(game_id, 0, second)
    assert undone == second + 1 and live.game.to_dict() == positions[1]
    assert live.log[-1] == {
        "text": f"H0 takes back a move: H0 places 2 armies in {board.name_of(board.territory(mine[1]))}.",
        "kind": "undo",
        "seat": 0,
    }
    # A move chosen before the undo is refused: the state id only grows.
    with pytest.raises(Refusal) as refused:
        master.submit_as(game_id, 0, f"place {mine[0]} 1", second)
    assert refused.value.code == "stale"
    assert master.undo(game_id, 0, undone) == undone + 1
    assert live.game.to_dict() == positions[0] and rng_state(live.game) == generator
    with pytest.raises(Refusal) as refused:
        master.undo(game_id, 0, live.state_id)
    assert refused.value.code == "nothing-to-undo" and "nothing to take back" in refused.value.message
    assert [a.text for a in storage.actions(game_id)[-4:]] == [
        f"place {mine[0]} 1",
        f"place {mine[1]} 2",
        undo_text(second),
        undo_text(first),
    ]
    # The same placements again give the same game as if nothing had been taken back.
    master.submit_as(game_id, 0, f"place {mine[0]} 1", live.state_id)
    assert live.game.to_dict() == positions[1]


def test_the_move_in_after_a_conquest_is_taken_back_to_the_choice() -> None:
    master = GameMaster(MemoryStorage())
    game_id, _ = new_game(master, "hbb", 3)
    table = Table(master, game_id)
    live = table.live
    for _ in range(20):
        source, target = table.until(lambda: table.attack_for(0, 1, lambda owner: owner != 0))
        master.blitz(game_id, 0, source, target, 1, None)
        if live.game.phase == Phase.OCCUPY:
            break
    assert live.game.phase == Phase.OCCUPY
    choice = table.legal(0)["move"]
    position = live.game.to_dict()
    master.submit_as(game_id, 0, f"move {choice['max']}", None)
    assert live.game.phase == Phase.ATTACK
    master.undo(game_id, 0, live.state_id)
    assert live.game.to_dict() == position and table.legal(0)["move"] == choice
    master.submit_as(game_id, 0, f"move {choice['min']}", None)
    assert live.game.phase == Phase.ATTACK
    # After a roll nothing before it can be taken back.
    source, target = table.until(lambda: table.attack_for(0, 1, lambda owner: owner != 0))
    master.submit_as(game_id, 0, f"attack {source} {target} 1", None)
    while live.game.phase == Phase.DEFEND:
        table.step()
    if live.game.to_act == 0:
        assert master.state_message(game_id, 0)["undo"] is None
        with pytest.raises(Refusal) as refused:
            master.undo(game_id, 0, None)
        assert refused.value.code == "nothing-to-undo"


def fortifying(table: Table, seat: int) -> Callable[[], bool]:
    return lambda: (
        table.game.to_act == seat
        and table.game.phase == Phase.FORTIFY
        and any(text.startswith("fortify") for text in table.legal(seat))
    )


def test_a_fortification_is_taken_back_only_while_the_turn_goes_on() -> None:
    # Extended fortification (1993 experts): the phase goes on after a move, so it can be taken back.
    master = GameMaster(MemoryStorage())
    game_id, _ = new_game(master, "hbb", 4, options={"fortify": "extended"})
    table = Table(master, game_id)
    table.until(fortifying(table, 0))
    live = table.live
    position = live.game.to_dict()
    move = next(g for text, g in table.legal(0).items() if text.startswith("fortify"))
    master.submit_as(game_id, 0, f"{move['text']} {move['min']}", None)
    assert live.game.phase == Phase.FORTIFY and master.state_message(game_id, 0)["undo"]["actions"] == 1
    master.undo(game_id, 0, None)
    assert live.game.to_dict() == position
    # The usual free move ends the turn: nothing to take back once another seat is to act.
    master = GameMaster(MemoryStorage())
    game_id, _ = new_game(master, "hbb", 4)
    table = Table(master, game_id)
    table.until(fortifying(table, 0))
    move = next(g for text, g in table.legal(0).items() if text.startswith("fortify"))
    master.submit_as(game_id, 0, f"{move['text']} {move['min']}", None)
    assert table.game.to_act != 0
    with pytest.raises(Refusal) as refused:
        master.undo(game_id, 0, None)
    assert refused.value.code == "not-your-turn"
    assert table.live.undo_points == []


def test_a_trade_shows_cards_and_is_never_taken_back() -> None:
    master = GameMaster(MemoryStorage())
    game_id, _ = new_game(master, "hbb", 12)
    table = Table(master, game_id)

    def may_trade() -> bool:
        game = table.game
        return (
            game.to_act == 0
            and game.phase == Phase.REINFORCE
            and any(text.startswith("trade") for text in table.legal(0))
        )

    table.until(may_trade)
    live = table.live
    trade = next(text for text in table.legal(0) if text.startswith("trade"))
    traded = master.submit_as(game_id, 0, trade, None)
    assert master.state_message(game_id, 0)["undo"] is None
    with pytest.raises(Refusal) as refused:
        master.undo(game_id, 0, None)
    assert refused.value.code == "nothing-to-undo"
    mine = live.game.board.slug_of(live.game.territories_of(0)[0])
    master.submit_as(game_id, 0, f"place {mine} 1", None)
    assert master.state_message(game_id, 0)["undo"]["actions"] == 1
    with pytest.raises(Refusal) as refused:
        master.undo(game_id, 0, None, to=traded)
    assert refused.value.code == "bad-request"
    assert f"the moves that can are {traded + 1}" in refused.value.message
    master.undo(game_id, 0, None)
    with pytest.raises(Refusal) as refused:
        master.undo(game_id, 0, None)
    assert refused.value.code == "nothing-to-undo"


def undoing(table: Table, rng: random.Random) -> None:
    """Play on, the humans sometimes taking back one or more of their moves."""
    master, game_id = table.master, table.game_id
    seat = table.game.to_act
    undo = master.state_message(game_id, seat)["undo"] if table.human(seat) else None
    if undo is not None and rng.random() < 0.3:
        points = table.live.undo_points
        to = points[-rng.randint(1, len(points))].seq if rng.random() < 0.5 else None
        master.undo(game_id, seat, table.live.state_id, to)
        return
    table.step()


def test_a_restart_after_undos_rebuilds_exactly_the_same_game(storage: Storage) -> None:
    master = GameMaster(storage)
    game_id, tokens = new_game(master, "hhb", 21)
    table = Table(master, game_id)
    rng = random.Random(4)
    restarts = 0
    while not table.game.is_over:
        undoing(table, rng)
        if table.live.state_id % 300 == 0 or table.game.is_over:
            reborn = GameMaster(storage)
            for seat in (-1, 0, 1, 2):
                assert reborn.state_message(game_id, seat) == master.state_message(game_id, seat)
            assert reborn.live(game_id).game.to_dict() == table.game.to_dict()
            # Memory holds the newest lines of each log, dropped at different times by the two
            # masters: the whole log's length and the lines both hold must agree.
            reborn_log, live_log = reborn.live(game_id).log, table.live.log
            start = max(reborn_log.base, live_log.base)
            assert len(reborn_log) == len(live_log) and reborn_log[start:] == live_log[start:]
            restarts += 1
    entries = storage.actions(game_id)
    undos = [e for e in entries if undo_target(e.text) is not None]
    assert len(undos) >= 10 and restarts >= 3
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))  # every state id, in order
    # The record holds the effective actions only, and replays, every chance outcome checked against
    # the seed: the undos left the generator exactly where the game needed it.
    text = master.record_text(game_id, tokens[0])
    assert "#undo" not in text
    replayed = replay_record(text)
    assert replayed.verified and replayed.game.to_dict() == table.game.to_dict()
    moves = [line for line in text.split("---\n", 1)[1].splitlines() if not line.startswith("~")]
    assert moves == [a.text for a in effective_actions(entries)]


def test_a_record_given_mid_game_holds_the_effective_actions_only() -> None:
    storage = MemoryStorage()
    master = GameMaster(storage)
    game_id, _ = new_game(master, "hbb", 8)
    table = Table(master, game_id)
    table.until(reinforcing(table, 0, 3))
    mine = table.game.board.slug_of(table.game.territories_of(0)[0])
    master.submit_as(game_id, 0, f"place {mine} 2", None)
    master.undo(game_id, 0, None)
    for seat in (0, 1, None):
        text = write_record(table.game, viewer=seat)
        assert f"place {mine} 2" not in text and "#undo" not in text
        rebuilt = Game(table.game.rules, list(table.game.players[: table.game.humans]), seed=table.game.seed)
        for action in effective_actions(storage.actions(game_id)):
            rebuilt.apply(action.text)
        assert text == write_record(rebuilt, viewer=seat)
    assert read_record(write_record(table.game)).to_dict() == table.game.to_dict()


def test_effective_actions_drop_what_each_undo_took_back() -> None:
    def entry(seq: int, text: str) -> ActionRecord:
        return ActionRecord(seq, 0, text, 0.0)

    records = [
        entry(1, "a"),
        entry(2, "b"),
        entry(3, "c"),
        entry(4, "#undo 3"),  # takes back c
        entry(5, "d"),
        entry(6, "#undo 2"),  # takes back b and d, and the undo at 4 with them
        entry(7, "e"),
    ]
    assert [a.text for a in effective_actions(records)] == ["a", "e"]
    entries = effective_entries(records)
    assert [type(e).__name__ for e in entries] == ["ActionRecord", "Undo", "ActionRecord"]
    undo = entries[1]
    assert isinstance(undo, Undo) and undo.seq == 6 and [a.text for a in undo.undone] == ["b", "d"]
    with pytest.raises(ValueError, match="not an undo entry"):
        effective_actions([entry(1, "#redo 1")])
    assert undo_target("place alaska 3") is None and undo_target(undo_text(12)) == 12


def test_a_stored_undo_of_a_roll_is_refused_on_loading() -> None:
    storage = MemoryStorage()
    master = GameMaster(storage)
    game_id, _ = new_game(master, "hbb", 3)
    table = Table(master, game_id)
    source, target = table.until(lambda: table.attack_for(0, 1, lambda owner: owner != 0))
    master.submit_as(game_id, 0, f"attack {source} {target} 1", None)
    while table.game.phase == Phase.DEFEND:
        table.step()
    stored = storage.actions(game_id)
    attack = next(a for a in reversed(stored) if a.text.startswith("attack"))
    forged = clone(storage, game_id)
    undo = ActionRecord(stored[-1].seq + 1, 0, undo_text(attack.seq), 0.0)
    forged.append_action(game_id, undo, Progress("playing", None, 0))
    with pytest.raises(Refusal) as refused:
        GameMaster(forged).live(game_id)
    assert refused.value.code == "unavailable" and f"stored action {undo.seq}" in refused.value.message


# -- over HTTP and the websocket -----------------------------------------------------------------


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(MemoryStorage())) as test_client:
        yield test_client


def test_blitz_and_undo_over_the_websocket_and_http(client: TestClient) -> None:
    master: GameMaster = client.app.state.master  # type: ignore[attr-defined]
    # Created on the master, so the app's driver is not started for it: the test makes every move
    # up to Ann's attack itself (and whenever the app kicks the driver, Ann is the one to act).
    game_id, tokens = new_game(master, "hbb", 3, bot_delay=10)
    token = tokens[0]
    table = Table(master, game_id)
    source, target = table.until(lambda: table.attack_for(0, 1, lambda owner: owner != 0))
    with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        socket.send_json({"type": "hello", "token": token})
        hello = socket.receive_json()
        assert hello["type"] == "state" and hello["blitz"] is None
        seen = len(hello["log"])
        blitz = {"type": "blitz", "from": source, "to": target, "until": 1, "ref": 7}
        socket.send_json(blitz | {"state_id": hello["state_id"]})
        ack = socket.receive_json()
        assert ack["type"] == "ack" and ack["ref"] == 7 and ack["blitz"]["rolls"] >= 1
        state = socket.receive_json()
        assert state["type"] == "state" and state["state_id"] == ack["state_id"]
        assert state["log_start"] == seen
        assert [line["kind"] for line in state["log"]].count("battle") == ack["blitz"]["rolls"]
        seen += len(state["log"])
        # Undo over the websocket: a placement of the next turn.
        table.until(reinforcing(table, 0, 2))
        mine = table.game.board.slug_of(table.game.territories_of(0)[0])
    # The game moved on without the page (the test moved for everyone): it connects again.
    with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        socket.send_json({"type": "hello", "token": token})
        state = socket.receive_json()
        seen = len(state["log"])
        place = {"type": "action", "action": f"place {mine} 1", "ref": 8}
        socket.send_json(place | {"state_id": state["state_id"]})
        assert socket.receive_json()["type"] == "ack"
        placed = socket.receive_json()
        assert placed["undo"]["last"] == f"place {mine} 1"
        seen += len(placed["log"])
        socket.send_json({"type": "undo", "state_id": placed["state_id"], "ref": 9})
        ack = socket.receive_json()
        assert ack == {"type": "ack", "ref": 9, "state_id": placed["state_id"] + 1}
        after = socket.receive_json()
        # The log was cut back: it is sent again from where the placement's lines began.
        assert after["log_start"] == seen - len(placed["log"]) and after["log"][-1]["kind"] == "undo"
        assert after["undo"] is None
        socket.send_json({"type": "undo", "state_id": after["state_id"], "ref": 10})
        refused = socket.receive_json()
        assert refused["type"] == "error" and refused["code"] == "nothing-to-undo"
        socket.send_json({"type": "blitz", "from": 3, "ref": 11})
        refused = socket.receive_json()
        assert refused["code"] == "bad-request" and "'from': TERRITORY" in refused["message"]
        socket.send_json({"type": "blitz-stop", "ref": 12})
        ack = socket.receive_json()
        assert ack == {"type": "ack", "ref": 12, "state_id": after["state_id"], "stopped": False}
        assert socket.receive_json()["type"] == "state"
        socket.send_json({"type": "rewind", "ref": 13})
        assert "blitz, blitz-stop, undo" in socket.receive_json()["message"]
    # The same over HTTP.
    auth = {"Authorization": f"Bearer {token}"}

    def now() -> int:
        return master.live(game_id).state_id

    move = {"action": f"place {mine} 1", "state_id": now()}
    answer = client.post(f"/api/games/{game_id}/actions", json=move, headers=auth)
    assert answer.status_code == 200
    placed_id = answer.json()["state_id"]
    answer = client.post(f"/api/games/{game_id}/undo", json={"state_id": placed_id}, headers=auth)
    assert answer.status_code == 200 and master.live(game_id).log[-1]["kind"] == "undo"
    answer = client.post(f"/api/games/{game_id}/undo", json={"state_id": now()}, headers=auth)
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "nothing-to-undo"
    answer = client.post(f"/api/games/{game_id}/undo", json={"state_id": now()})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "bad-token"
    answer = client.post(f"/api/games/{game_id}/undo", json={}, headers=auth)
    assert answer.status_code == 422 and answer.json()["error"]["message"] == "state_id: Field required"
    blitz = {"from": mine, "to": mine, "state_id": now()}
    answer = client.post(f"/api/games/{game_id}/blitz", json=blitz, headers=auth)
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "illegal"
    answer = client.post(f"/api/games/{game_id}/blitz", json={"from": mine, "state_id": now()}, headers=auth)
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "bad-request"
    table.until(lambda: table.attack_for(0, 1, lambda owner: owner != 0))
    source, target = table.attack_for(0, 1, lambda owner: owner != 0)  # type: ignore[misc]
    blitz = {"from": source, "to": target, "until": 1, "state_id": now()}
    answer = client.post(f"/api/games/{game_id}/blitz", json=blitz, headers=auth)
    assert answer.status_code == 200 and answer.json()["blitz"]["rolls"] >= 1
    answer = client.post(f"/api/games/{game_id}/blitz/stop", headers=auth)
    assert answer.json() == {"stopped": False}
