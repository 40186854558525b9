"""The events a seat is told of, made from the published game after each announcement of the master.

Each event has a key that is the same however often it is made: "your move" is keyed by the turn and
the seat, a defence by the state, the losses of one opponent's turn by that turn (batched: told once
the turn is over, all of them in one line), the end by the seat. So a move heard twice (another server
process, a restart) queues one message (risk.server.notify.outbox).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace

from risk.rules.game import Game
from risk.server.notify.outbox import Event
from risk.server.storage import GameRecord
from risk.server.timing import defending


@dataclass(frozen=True)
class Seen:
    """What the last announcement showed of a game."""

    turn: int
    current: int  # whose turn it was
    owners: tuple[int, ...]


def _is_player(record: GameRecord, seat: int) -> bool:
    """A person plays the seat (not a bot, nor a stand-in bot, nor resigned: nobody to tell)."""
    if not 0 <= seat < len(record.seats):
        return False
    entry = record.seats[seat]
    return entry.kind == "human" and entry.stand_in is None


def turn_events(record: GameRecord) -> list[Event]:
    """What the game's row says a seat is waiting for: its move, its defence, the end. Made at startup
    from the stored rows too, so a move committed just before the server was killed is still told."""
    game_id = record.id
    if record.status == "over":
        winner = record.seats[record.winner].name if record.winner is not None else "nobody"
        return [
            Event(game_id, s.seat, "end", f"{game_id}:end:{s.seat}", f"Game {game_id} is over: {winner} won.")
            for s in record.seats
            if s.kind == "human"
        ]
    seat = record.to_act
    if record.status != "playing" or seat is None or not _is_player(record, seat):
        return []
    if record.defending:
        text = f"Game {game_id}: you are attacked and your defence dice are wanted."
        return [Event(game_id, seat, "defend", f"{game_id}:defend:{record.state_id}", text)]
    text = f"Game {game_id}: it is your move (turn {record.turn})."
    return [Event(game_id, seat, "move", f"{game_id}:move:{record.turn}:{seat}", text)]


class Watcher:
    """Turns announcements into events: it remembers what it last saw of each game (owners, turn,
    whose turn) to tell who lost territories, once that turn is over; the rest it reads from the
    published game alone."""

    def __init__(self) -> None:
        self._seen: dict[str, Seen] = {}
        self._losses: dict[tuple[str, int], list[str]] = {}  # (game, seat): names lost this turn
        self._lock = threading.Lock()  # announcements come from the threads that made the changes

    def events(self, record: GameRecord, game: Game) -> list[Event]:
        found = turn_events(_with_progress(record, game))
        owners = tuple(game.owner)
        with self._lock:
            before = self._seen.get(record.id)
            self._seen[record.id] = Seen(game.turn, game.current, owners)
            if game.is_over:
                self._forget(record.id)  # the end is told; losses no more
            elif before is not None:
                self._note_losses(record, game, before, owners)
                if before.turn != game.turn:
                    found += self._turn_told(record, before)
        return found

    def _note_losses(self, record: GameRecord, game: Game, before: Seen, after: tuple[int, ...]) -> None:
        for territory, (was, now) in enumerate(zip(before.owners, after, strict=True)):
            if was != now and was >= 0 and was != before.current and _is_player(record, was):
                self._losses.setdefault((record.id, was), []).append(game.board.territories[territory].name)

    def _turn_told(self, record: GameRecord, before: Seen) -> list[Event]:
        """The losses of the turn just over: one event per player who lost territories in it."""
        mover = (
            record.seats[before.current].name if 0 <= before.current < len(record.seats) else "another player"
        )
        found = []
        for game_id, seat in [key for key in self._losses if key[0] == record.id]:
            names = self._losses.pop((game_id, seat))
            text = f"Game {game_id}: during {mover}'s turn (turn {before.turn}) you lost {', '.join(names)}."
            found.append(Event(game_id, seat, "attacked", f"{game_id}:attacked:{before.turn}:{seat}", text))
        return found

    def _forget(self, game_id: str) -> None:
        self._seen.pop(game_id, None)
        for stale in [k for k in self._losses if k[0] == game_id]:
            del self._losses[stale]


def _with_progress(record: GameRecord, game: Game) -> GameRecord:
    """The record with the game's progress as it is now (the published record's may lag a commit)."""
    status = "over" if game.is_over else record.status
    return replace(
        record,
        status=status,
        winner=game.winner,
        turn=game.turn,
        to_act=None if game.is_over else game.to_act,
        defending=defending(game),
    )
