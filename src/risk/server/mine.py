""" "Your games" (docs/web.md, "Your games"): the seats a browser holds, each checked by its token, with
the game's state as that seat may see it and what happened since the browser last looked.

A browser sends every seat link it holds in one request; each is answered on its own line, so a link
that is wrong, or a game the server no longer has, is a line that says so, never a failed list. What a
seat is told comes through its :class:`~risk.view.View` and its own log lines (under fog of war only
the lines it witnessed), as the board page would show it. A finished game is read from its stored
row alone: listing it must not load it back into memory.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from risk.rules.game import Phase
from risk.server.errors import Refusal
from risk.server.live import LiveGame
from risk.server.logwindow import Line
from risk.server.master import GameMaster
from risk.server.master.seeing import token_seat
from risk.view import View

MAX_SEATS = 200  # what the browser keeps (risk.seats.v1 in localStorage)


@dataclass(frozen=True)
class HeldSeat:
    """A seat link as the browser holds it: the game, the token, and the mark of the log it last saw
    (None: it never looked)."""

    game: str
    token: str
    seen: int | None = None


def your_games(master: GameMaster, held: list[HeldSeat]) -> list[dict[str, Any]]:
    """One line per seat link, in the order given (the page sorts them)."""
    now = master.clock()
    answers = []
    for seat_link in held:
        try:
            answers.append(_one(master, seat_link, now))
        except Refusal as refusal:
            answers.append({"game": seat_link.game, "error": refusal.to_dict()})
    return answers


def _one(master: GameMaster, held: HeldSeat, now: float) -> dict[str, Any]:
    record = master.record_of(held.game)
    seat = token_seat(record, held.token)
    if seat is None:
        raise Refusal("bad-token", "this link's token does not hold a seat in this game")
    master.check_bound(record, seat)
    answer: dict[str, Any] = {
        "game": record.id,
        "seat": seat,
        "name": record.seats[seat].name,
        "rules": record.rules,
        "status": record.status,
        "turn": record.turn,
        "updated": record.updated,
        "winner": record.winner,
        "players": [s.name for s in record.seats],
    }
    if record.status == "over":
        won = "you won" if record.winner == seat else "the game is over"
        return answer | {
            "to_act": None,
            "yours": False,
            "defending": False,
            "left": None,
            "mark": held.seen,
            "since": None if held.seen is None else [won],
        }
    live = master.live(held.game).published
    return answer | _playing(live, seat, held.seen, now)


def _playing(live: LiveGame, seat: int, seen: int | None, now: float) -> dict[str, Any]:
    """Whose move it is and how long is left, as ``seat`` may know it, and its news since ``seen``."""
    game = live.game
    view = View(game, seat)
    waiting = live.waiting or game.is_over
    to_act = None if waiting else view.to_act
    # Under fog, during another player's turn, when its time runs out tells of its steps (as the
    # state message: docs/web.md, "Fog of war").
    deadline = None if waiting or view.phase == Phase.OTHER_TURN else live.deadline
    mark, lines, cut = _news(live, seat, view.fogged, seen)
    return {
        "status": "over" if game.is_over else live.record.status,
        "to_act": to_act,
        "yours": to_act == seat,
        "defending": to_act == seat and view.phase == Phase.DEFEND,
        "stand_in": live.record.seats[seat].stand_in is not None,
        "left": None if deadline is None else max(0.0, deadline - now),
        "mark": mark,
        "since": None if seen is None else since_words(lines, seat, game.players, cut),
    }


def _news(live: LiveGame, seat: int, fogged: bool, seen: int | None) -> tuple[int, list[Line], bool]:
    """The seat's log mark now (a position in its own lines under fog of war, else in the whole log,
    as the board page counts them), the lines since ``seen``, and whether older ones since then are
    no longer held (the news is only the newest part)."""
    log = live.log
    if fogged:
        mark = log.position_for(seat, len(log))
        if seen is None or seen >= mark:
            return mark, [], False
        begin, lines = log.seat_lines(seat, seen)
        return mark, lines, begin > seen
    mark = len(log)
    if seen is None or seen >= mark:
        return mark, [], False
    begin = log.start_from(seen)
    return mark, log[begin:], begin > seen


def since_words(lines: list[Line], seat: int, players: Sequence[str], cut: bool) -> list[str]:
    """What the lines tell, in a few sentences: "Bob took 3 territories, 2 from you." One sentence a
    player who took territories, then eliminations and the end; turns played when nothing changed hands."""
    me = players[seat]
    taken: Counter[int] = Counter()
    from_me: Counter[int] = Counter()
    after: list[str] = []
    turns = 0
    for line in lines:
        kind, actor = line.get("kind"), int(line.get("seat", -1))
        if kind == "conquest" and 0 <= actor < len(players):
            taken[actor] += 1
            if str(line.get("text", "")).endswith(f" from {me}."):
                from_me[actor] += 1
        elif kind == "eliminated":
            after.append("You were eliminated." if actor == seat else str(line.get("text", "")))
        elif kind == "over":
            after.append(str(line.get("text", "")))
        elif kind == "turn":
            turns += 1
    words = [_taking(actor, count, from_me[actor], seat, players) for actor, count in taken.items()]
    if not words and turns:
        words.append(f"{turns} {'turn' if turns == 1 else 'turns'} played; no territory changed hands.")
    words += after
    if cut:
        words.append("(only the newest moves are counted.)")
    return words or ["Nothing new."]


def _taking(actor: int, count: int, mine: int, seat: int, players: Sequence[str]) -> str:
    what = f"{count} {'territory' if count == 1 else 'territories'}"
    if actor == seat:
        return f"You took {what}."
    if mine == 0:
        return f"{players[actor]} took {what}."
    if mine == count:
        return (
            f"{players[actor]} took {what} from you."
            if count == 1
            else f"{players[actor]} took {what}, all from you."
        )
    return f"{players[actor]} took {what}, {mine} from you."
