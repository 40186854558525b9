"""What each seat may see: who holds a token, the state message (built from the game as last
committed, without the game's lock: the event loop never waits for a commit), records and summaries."""

from __future__ import annotations

import hmac
from collections.abc import Collection
from typing import Any

from risk.errors import RecordError
from risk.history import summarize
from risk.record import write_record
from risk.rounds import count_rounds
from risk.rules.determinise import in_the_open
from risk.rules.game import Phase
from risk.server.auth import hash_token
from risk.server.errors import Refusal
from risk.server.live import LiveGame
from risk.server.master.base import game_progress
from risk.server.master.bots import Bots
from risk.server.master.specs import game_summary
from risk.server.seatprefs import SeatPrefs
from risk.server.storage import GameFilter, GameRecord
from risk.view import SPECTATOR, View


def token_seat(record: GameRecord, token: str) -> int | None:
    """The seat of ``record`` that ``token`` holds, or None."""
    digest = hash_token(token)
    found = None
    for seat in record.seats:
        # Compare every seat in constant time, so timing says nothing about the hashes.
        if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
            found = seat.seat
    return found


class Seeing(Bots):
    """Who is asking, and what they are shown."""

    def seat_of(self, game_id: str, token: str | None) -> int:
        """The seat a token holds, or SPECTATOR for no token. A wrong token is refused."""
        live = self.live(game_id)
        if token is None or token == "":
            return SPECTATOR
        found = token_seat(live.record, token)
        if found is None:
            raise Refusal("bad-token", "this link's token does not hold a seat in this game")
        self.check_bound(live.record, found)
        return found

    def check_bound(self, record: GameRecord, seat: int) -> None:
        """A seat bound to an account is its alone: a link (a token) used without that account's
        session, kept or stolen, is refused, in the words of a wrong token."""
        bound = record.seats[seat].account
        if bound is not None and self.signed_in() != bound:
            raise Refusal(
                "account-seat", "this seat belongs to an account: sign in as its player to use this link"
            )

    def published_state(self, game_id: str) -> int:
        """The state id of the game as last committed (what a state message would show now)."""
        return self.live(game_id).published.state_id

    def state_message(
        self,
        game_id: str,
        seat: int,
        log_start: int = 0,
        present: Collection[int] | None = None,
        log_fogged: bool | None = None,
    ) -> dict[str, Any]:
        """What ``seat`` sees; ``present``: the seats with a page open (the web app knows). The log from
        ``log_start``, counted in the lines the page was sent; ``log_fogged``: whether those were the
        seat's own lines under fog of war (None: a page with no log yet). Read from the game as last
        committed, without its lock."""
        live = self.live(game_id).published
        game = live.game
        view = self.view_of(live, seat)
        outcome = game.outcome()
        # Under fog of war a seat gets only the lines it may read, counted in its own lines: the
        # whole log's positions would count the lines it does not see. A page that had the other
        # kind of log (the game just ended: now everyone reads the whole log) starts over.
        fogged = view.fogged
        reset = log_fogged is not None and log_fogged != fogged
        if reset:
            log_start = 0
        if fogged:
            log_start, lines = live.log.seat_lines(seat, log_start)
        else:
            # A page gets the newest lines, not a whole long log.
            log_start = live.log.start_from(log_start)
            lines = live.log[log_start:]
        own = live.record.seats[seat] if 0 <= seat < len(live.record.seats) else None
        # A move the server makes for the seat by its own settings is not offered to it meanwhile.
        standing = own is not None and self._standing(live, game, seat, live.state_id) is not None
        return {
            "type": "state",
            "game": game_id,
            "state_id": live.state_id,
            "seat": None if seat == SPECTATOR else seat,
            "status": game_progress(live).status,
            "round": count_rounds(live.starters, game.humans),
            "seats": live.seat_entries(present),
            "view": view.to_dict(),
            "legal": [] if live.waiting or not live.may_play(seat) or standing else view.legal_groups(),
            "standing": standing,
            "prefs": SeatPrefs.of(own).public() if own is not None and own.kind == "human" else None,
            "log_start": log_start,
            "log": lines,
            **({"log_reset": True} if reset else {}),
            "outcome": None
            if outcome is None
            else {"winner": outcome.winner, "winners": list(outcome.winners), "reason": outcome.reason},
            # Under fog, during another player's turn, when its time runs out tells of its steps.
            "deadline": None if view.phase == Phase.OTHER_TURN else live.deadline,
            "undo": None if seat == SPECTATOR else self.undo_state(live, seat),
            "blitz": live.blitz.describe(game) if live.blitz and live.blitz.seat == seat else None,
            **self._messages(live, view, seat if fogged else None),
        }

    def view_of(self, live: LiveGame, seat: int) -> View:
        """What ``seat`` (SPECTATOR: a spectator) may see of the game: under fog of war, a spectator
        sees the whole board if the host chose so (``spectator_view`` open), else no territory."""
        game = live.game
        if seat == SPECTATOR and game.rules.fog == "on" and self.spectators_see_all(live.record):
            return View(in_the_open(game), SPECTATOR)
        return View(game, seat)

    @staticmethod
    def spectators_see_all(record: GameRecord) -> bool:
        return bool(record.settings.get("spectator_view", "fogged") == "open")

    def _messages(self, live: LiveGame, view: View, fogged_for: int | None) -> dict[str, Any]:
        """The plugged-in modules' parts of the state message of ``view``'s seat; ``fogged_for``: the
        seat shown only its own log lines (fog of war), whose server notes are placed among them."""
        parts: dict[str, Any] = {}
        for plugged in self.hooks:
            parts |= plugged.message(self.table, live, view)
        if fogged_for is not None and parts.get("notes"):
            at = live.log.position_for
            parts["notes"] = [note | {"log_at": at(fogged_for, note["log_at"])} for note in parts["notes"]]
        return parts

    @staticmethod
    def undo_state(live: LiveGame, seat: int) -> dict[str, Any] | None:
        """What ``seat`` may take back now: the seq of the move one undo takes back, how many in a row
        can be, and that move's text. None when nothing can be."""
        points = live.undo_points
        if not points or live.waiting or live.game.is_over or live.game.to_act != seat:
            return None
        if points[-1].seat != seat:
            return None
        return {"to": points[-1].seq, "actions": len(points), "last": points[-1].text}

    def log_resume(self, game_id: str, log_sent: int, state_sent: int, fogged_for: int | None = None) -> int:
        """Where a connection's next log starts: after what it was sent, or earlier if an undo since
        the state it saw cut the log back. ``fogged_for``: the seat whose own lines (fog of war) the
        connection was sent, positions counted in them."""
        live = self.live(game_id).published  # no lock: the event loop never waits for a commit
        cuts = [length for state, length in live.log_cuts if state > state_sent]
        if fogged_for is not None:
            cuts = [live.log.position_for(fogged_for, length) for length in cuts]
        return min([log_sent, *cuts])

    # -- summaries and records -------------------------------------------------------------------
    def summary(self, game_id: str) -> dict[str, Any]:
        """A game's public summary, from memory if it is there, else from the store: a look at a
        game nobody plays (a finished one) must not load it back into memory for good."""
        return game_summary(self.record_of(game_id), self.clock())

    def record_of(self, game_id: str) -> GameRecord:
        """A game's stored settings (its record), from memory or the store, without loading it."""
        live = self._live.get(game_id)
        if live is not None:
            return live.record
        record = self._store(lambda: self.storage.get_game(game_id))
        if record is None:
            raise Refusal("not-found", f"no game {game_id!r}")
        return record

    def record_text(self, game_id: str, token: str | None) -> str:
        """A finished game's record, for its players: the whole record, seed included, so it replays.
        Under fog of war, while the game runs, a player's own record: what it saw (docs/server.md)."""
        live = self.live(game_id)
        seat = self.seat_of(game_id, token)
        if seat == SPECTATOR:
            raise Refusal("bad-token", "the record is for the game's players: open your seat's link")
        with live.lock:
            if View(live.game, seat).fogged:
                return write_record(live.game, seat)
            if not live.game.is_over:
                raise Refusal(
                    "not-over",
                    "the record can be downloaded when the game is over; until then the board and its "
                    "log show what has happened",
                )
            return write_record(live.game)

    def after_game(self, game_id: str) -> dict[str, Any]:
        """A finished game's charts, luck meter and timelapse (:mod:`risk.history`), for anyone who
        may watch it: they hold only what the players saw. Refused while the game is played."""
        live = self.live(game_id)
        with live.lock:
            game = live.game
            if not game.is_over:
                raise Refusal(
                    "not-over",
                    "the summary opens when the game is over; until then the board and its log show "
                    "what has happened",
                )
        try:
            return summarize(game)  # a finished game no longer changes: no lock needed
        except RecordError as error:  # never seen: the game was just replayed to load it
            raise Refusal("unavailable", f"game {game_id}'s summary could not be made: {error}") from None

    def list_games(self, status: str | None = None, where: GameFilter | None = None) -> list[dict[str, Any]]:
        records = self._store(lambda: self.storage.list_games(status=status, public_only=True, where=where))
        now = self.clock()
        return [game_summary(r, now) for r in records]

    def unfinished_games(self) -> list[GameRecord]:
        """Every game still being played, public or not: their stored rows only, nothing replayed (a
        starting server reads which of them a bot or a clock needs soon, risk.server.wakeups)."""
        return self._store(
            lambda: self.storage.list_games(status="playing", public_only=False, limit=1_000_000)
        )
