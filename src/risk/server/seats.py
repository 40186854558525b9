"""Seats that change hands: resigning, handing a seat to a bot and taking it back, the host replacing an
absent player, and what the state message says about each seat (docs/web.md, "Seats").

A human seat keeps its token whatever happens: a stand-in bot (``SeatRecord.stand_in``) plays it while
its player is away, and the player takes it back with the same link. The host (whoever created the
game: a token of its own, stored hashed as ``GameRecord.host_hash``) may hand an absent player's seat
to a bot. A resignation is an action of the rules (``resign P``), stored like any other, so records
replay it. Each of these writes a server note (a chat message with no seat) that everyone sees.
"""

from __future__ import annotations

import hmac
from collections.abc import Collection
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from risk.bots import bot_choices, bot_label, is_bot_name
from risk.server import clock as turn_clock
from risk.server import master as game_master
from risk.server.storage import ActionRecord, SeatRecord

if TYPE_CHECKING:
    from risk.server.master import GameMaster, GameSpec, LiveGame


def is_resignation(text: str) -> bool:
    words = text.split(None, 1)
    return bool(words) and words[0].lower() == "resign"


def own_resignation(action: Any, seat: int) -> Any:
    """``resign`` or ``resign P`` sent by ``seat``: its own resignation (P must be that seat)."""
    if getattr(action, "player", None) not in (None, seat):
        raise game_master.Refusal("illegal", "a player resigns only their own seat: send 'resign'")
    return replace(action, player=seat)


def new_host(spec: GameSpec) -> str:
    """A host token for a game about to be created: kept (hashed) in the spec, answered once."""
    token = game_master.new_token()
    spec.host_hash = game_master.hash_token(token)
    return token


# -- hooks of the game master ---------------------------------------------------------------------------
def replayed(live: LiveGame, action: ActionRecord) -> None:
    """Each stored action as a game is loaded, after it is applied."""
    if is_resignation(action.text):
        live.resigned.add(action.seat)
    turn_clock.replayed(live, action)


def loaded(master: GameMaster, live: LiveGame, opening: int) -> None:
    turn_clock.loaded(master, live, opening)


def caught_up(master: GameMaster, live: LiveGame, log_before: int) -> None:
    """After another server process's change was replayed (risk.server.feed)."""
    turn_clock.caught_up(master, live, log_before)


def after_action(master: GameMaster, live: LiveGame, action: ActionRecord) -> None:
    """An action was accepted and stored: a player back at the table, a resignation, the clock."""
    seat = live.record.seats[action.seat] if action.seat < len(live.record.seats) else None
    if seat is not None and seat.missed and turn_clock.timed(live, action.seat):
        master.store_seat(live, replace(seat, missed=0))  # the player played: no longer missing turns
    if is_resignation(action.text):
        live.resigned.add(action.seat)
        turn_clock.write_note(master, live, f"{seat.name if seat else 'A player'} resigned.")
    turn_clock.arm(master, live, action.at)


# -- a player's actions ------------------------------------------------------------------------------------
def may_play(live: LiveGame, seat: int) -> bool:
    """Whether ``seat`` is shown what it may do: not a spectator, nor a player whose seat a bot plays."""
    if not 0 <= seat < len(live.record.seats):
        return False
    record = live.record.seats[seat]
    return record.kind != "human" or record.stand_in is None


def player_submit(master: GameMaster, game_id: str, seat: int, text: str, state_id: int | None) -> int:
    """An action sent by a player (its token checked): refused while a bot plays the seat for them."""
    live = master.live(game_id)
    record = live.record.seats[seat] if 0 <= seat < len(live.record.seats) else None
    if record is not None and record.stand_in is not None and not is_resignation(str(text)):
        raise game_master.Refusal(
            "stand-in", f"the {record.stand_in} bot plays your seat: take the seat back to play yourself"
        )
    return master.submit_as(game_id, seat, text, state_id)


# -- what the state message says ------------------------------------------------------------------------
def seat_entries(live: LiveGame, present: Collection[int] | None) -> list[dict[str, Any]]:
    """Each seat as everyone may see it. ``connected``: a human seat has a page open (bots are always
    there); None when the caller does not know (the master without the web app)."""
    return [
        {
            "seat": s.seat,
            "name": s.name,
            "kind": s.kind,
            "bot": s.bot if s.kind == "bot" else None,
            "bot_label": bot_label(s.bot or "") if s.kind == "bot" else None,  # "hard · continental"
            "stand_in": s.stand_in if s.kind == "human" else None,
            "missed": s.missed,
            "resigned": s.seat in live.resigned,
            "connected": None
            if present is None
            else (s.kind != "open" and (s.kind != "human" or s.seat in present)),
        }
        for s in live.record.seats
    ]


def clock_entry(master: GameMaster, live: LiveGame) -> dict[str, Any] | None:
    """The clock running now: whose, for what, seconds left (by the server's clock), the limit."""
    if live.deadline is None:
        return None
    game = live.game
    settings = turn_clock.timing(live)
    defence = turn_clock.defending(game)
    return {
        "seat": game.to_act,
        "for": "defence" if defence else "turn",
        "remaining": round(max(0.0, live.deadline - master.clock()), 1),
        "limit": settings.defence_limit if defence else settings.turn_time,
    }


def message_extras(master: GameMaster, live: LiveGame) -> dict[str, Any]:
    return {
        "clock": clock_entry(master, live),
        "timer": turn_clock.timing(live).public(),
        "notes": list(live.notes),
    }


# -- a player's own seat -------------------------------------------------------------------------------
def _playing_seat(live: LiveGame, seat: int) -> SeatRecord:
    """The human seat ``seat`` of a game under way, still in it; else a Refusal saying why."""
    Refusal = game_master.Refusal
    if live.game.is_over:
        raise Refusal("game-over", "the game is over")
    if live.waiting:
        raise Refusal("waiting", "the game has not started: it starts when every open seat is taken")
    if not 0 <= seat < len(live.record.seats):
        raise Refusal("bad-request", f"no seat {seat}: the game has seats 0 to {len(live.record.seats) - 1}")
    record = live.record.seats[seat]
    if record.kind != "human":
        raise Refusal("bad-request", f"seat {seat} ({record.name}) is not a human player's seat")
    if seat in live.resigned or not live.game.alive[seat]:
        raise Refusal("bad-request", f"{record.name} is out of the game")
    return record


def resign(master: GameMaster, game_id: str, token: str | None) -> int:
    """The token's player leaves the game (at any time): answers the new state id."""
    seat = _seat_of_player(master, game_id, token)
    live = master.live(game_id)
    with live.lock:
        _playing_seat(live, seat)
        return master.submit_as(game_id, seat, f"resign {seat}", None)


def hand_over(master: GameMaster, game_id: str, token: str | None, on: bool) -> dict[str, Any]:
    """The token's player hands the seat to the game's stand-in bot (``on``), or takes it back."""
    seat = _seat_of_player(master, game_id, token)
    live = master.live(game_id)
    with live.lock:
        record = _playing_seat(live, seat)
        if on:
            bot = turn_clock.timing(live).stand_in
            _stand_in(master, live, record, bot, f"{record.name} handed the seat to the {bot} bot.")
        else:
            if record.stand_in is None:
                raise game_master.Refusal(
                    "bad-request", f"no bot plays for {record.name}: the seat is already theirs"
                )
            master.store_seat(live, replace(record, stand_in=None, missed=0))
            turn_clock.write_note(master, live, f"{record.name} is back and plays the seat again.")
            turn_clock.arm(master, live, master.clock(), fresh=live.game.current == seat)
        return {"seat": seat, "stand_in": live.record.seats[seat].stand_in}


def replace_absent(
    master: GameMaster,
    game_id: str,
    host_token: str | None,
    seat: int,
    bot: str | None,
    present: Collection[int],
) -> dict[str, Any]:
    """The host hands the seat of a player who is not connected to a bot (the player keeps the link
    and may take the seat back)."""
    Refusal = game_master.Refusal
    live = master.live(game_id)
    if (
        not host_token
        or live.record.host_hash is None
        or not hmac.compare_digest(live.record.host_hash, game_master.hash_token(host_token))
    ):
        raise Refusal(
            "bad-token", "only the host (whoever created the game, with its host token) may do this"
        )
    with live.lock:
        record = _playing_seat(live, seat)
        name = (bot or turn_clock.timing(live).stand_in).strip().lower()
        if not is_bot_name(name):
            raise Refusal("bad-request", f"no bot or level {bot!r}; {bot_choices()}")
        if seat in present:
            raise Refusal(
                "present", f"{record.name} is connected: only an absent player's seat is handed to a bot"
            )
        _stand_in(master, live, record, name, f"The host handed {record.name}'s seat to the {name} bot.")
        return {"seat": seat, "stand_in": name}


def _stand_in(master: GameMaster, live: LiveGame, record: SeatRecord, bot: str, note: str) -> None:
    if record.stand_in is not None:
        raise game_master.Refusal("bad-request", f"the {record.stand_in} bot already plays for {record.name}")
    master.store_seat(live, replace(record, stand_in=bot, missed=0))
    turn_clock.write_note(master, live, note)
    turn_clock.arm(master, live, master.clock())


def _seat_of_player(master: GameMaster, game_id: str, token: str | None) -> int:
    seat = master.seat_of(game_id, token)
    if seat < 0:
        raise game_master.Refusal(
            "bad-token", "this is for the game's players: open your seat's private link"
        )
    return seat
