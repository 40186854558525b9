"""The game master (:class:`GameMaster`): creating and joining games, on top of the layers below it
(base: store and transactions; loading; bots; seeing; pipeline; fastplay)."""

from __future__ import annotations

import secrets
from dataclasses import replace

from risk.errors import RiskError
from risk.maps import Board, shipped_board
from risk.rules.options import GAMES, PRESETS, Rules
from risk.server.auth import hash_token, new_token
from risk.server.errors import Refusal
from risk.server.fairplay.rules import check_one_browser
from risk.server.live import LiveGame, Pending
from risk.server.master.base import new_game
from risk.server.master.fastplay import FastPlay
from risk.server.master.specs import (
    CreatedSeat,
    GameSpec,
    SeatSpec,
    check_settings,
    clean_name,
    new_game_id,
    seat_records,
    spec_board,
)
from risk.server.seats import check_host
from risk.server.steps import opening_log
from risk.server.storage import GameRecord, SeatRecord
from risk.server.timing import timing_settings


class GameMaster(FastPlay):
    """Creates games, accepts actions, and answers what each seat may see."""

    def rules_for(self, spec: GameSpec, *, check_count: bool = True, board: Board | None = None) -> Rules:
        edition = spec.edition.strip().lower()
        if edition not in PRESETS:
            raise Refusal("bad-request", f"no edition {spec.edition!r}; editions: {', '.join(PRESETS)}")
        try:
            rules = Rules.preset(edition)
            if spec.game:  # "world" gives the edition's rules as they are
                if spec.game not in GAMES:
                    raise Refusal("bad-request", f"no game {spec.game!r}; games: {', '.join(GAMES)}")
                rules = rules.for_game(spec.game)
            if spec.options:
                rules = rules.with_options(**{k: str(v) for k, v in spec.options.items()})
            if check_count:  # on the board's player counts
                rules.check_player_count(len(spec.seats), board or spec_board(spec))
        except RiskError as error:
            raise Refusal("bad-request", str(error)) from None
        return rules

    def create_game(self, spec: GameSpec) -> tuple[GameRecord, list[CreatedSeat]]:
        board = spec_board(spec)
        rules = self.rules_for(spec, board=board)
        shipped = shipped_board(board)
        check_settings(spec)
        seats, created = seat_records(spec, self.allow_external_bots)
        seed = spec.seed if spec.seed is not None else secrets.randbelow(2**63)
        if not 0 <= seed < 2**63:
            raise Refusal("bad-request", "the seed is a whole number from 0 to 2**63 - 1")
        now = self.clock()
        record = GameRecord(
            id=spec.game_id or new_game_id(),
            rules=rules.describe(),
            board=board.name,
            board_sha256=None if shipped else board.digest,
            board_json=None if shipped else board.canonical_json,
            seed=seed,
            seats=tuple(seats),
            settings={
                "public": spec.public,
                "bot_delay": spec.bot_delay,
                "defend_timeout": spec.defend_timeout,
                **timing_settings(
                    spec.turn_time, spec.missed_turns, spec.stand_in, spec.time_bank, spec.vacation_days
                ),
                "spectators": spec.spectators,
                "spectator_view": spec.spectator_view,
                "rated": spec.rated,
            },
            created=now,
            updated=now,
            status="waiting" if any(s.kind == "open" for s in seats) else "playing",
            host_hash=spec.host_hash,
        )
        return self.add_game(record), created

    def add_game(self, record: GameRecord) -> GameRecord:
        """Store a new game (or one made from another: a rematch); the engine must accept its rules,
        names and board. Its bots, if any are to move, are then started (announced as moved). Answers
        the game as stored."""
        try:
            game = new_game(record)
        except RiskError as error:
            raise Refusal("bad-request", str(error)) from None
        stored = replace(record, to_act=game.to_act)
        self._store(lambda: self.storage.create_game(stored))
        self.announce(record.id, "moved")
        return stored

    def join(self, game_id: str, seat: int, name: str) -> str:
        """Take an open seat; answers the new seat's token. A rated game's seat is taken signed in
        (it is bound to the account at once: docs/web.md, "Ratings"), one seat an account and one a
        browser; a ban or a block refuses it (docs/web.md, "Fair play")."""
        live = self.live(game_id)
        name = clean_name(name, "a player joining")
        signed_in, browser = self.signed_in(), self.browser()
        account = signed_in if live.record.settings.get("rated") else None
        if live.record.settings.get("rated") and account is None:
            raise Refusal(
                "signed-out", "a seat of a rated game is taken signed in to an account: sign in first"
            )
        with live.lock, self.transaction(live) as pending:
            seats = live.record.seats
            if not 0 <= seat < len(seats):
                raise Refusal("bad-request", f"no seat {seat}: the game has seats 0 to {len(seats) - 1}")
            if seats[seat].kind != "open":
                raise Refusal("seat-taken", f"seat {seat} is not open: {seats[seat].name} has it")
            if any(s.name.lower() == name.lower() for s in seats if s.seat != seat and s.kind != "open"):
                raise Refusal("bad-request", f"{name!r} is already playing in this game: choose another name")
            if account is not None and any(s.account == account for s in seats):
                raise Refusal(
                    "bad-request", "this account holds a seat of this rated game already: one seat each"
                )
            check_one_browser(live.record, seat, browser)
            self.may_sit(live.record, seat, signed_in, browser)
            token = new_token()
            taken = SeatRecord(seat, name, "human", None, hash_token(token), account=account, browser=browser)
            self._fill(live, pending, {seat: taken})
        return token

    def start_with_bots(self, game_id: str, host_token: str | None, bot: str) -> GameRecord:
        """The host starts a game that waits for players: a ``bot`` in each open seat."""
        live = self.live(game_id)
        check_host(live, host_token)
        if live.record.settings.get("rated"):
            raise Refusal(
                "bad-request", "a rated game is played by people only: it starts when its seats are taken"
            )
        with live.lock, self.transaction(live) as pending:
            seats = live.record.seats
            opened = [s.seat for s in seats if s.kind == "open"]
            if not opened:
                raise Refusal("seat-taken", "every seat is taken: the game has started")
            taken_names = {s.name.lower() for s in seats if s.kind != "open"}
            bots: dict[int, SeatRecord] = {}
            for seat in opened:
                record = seat_records(GameSpec(seats=[SeatSpec("bot", bot=bot)]), False)[0][0]
                name = next(f"Bot {n}" for n in range(seat + 1, seat + 100) if f"bot {n}" not in taken_names)
                taken_names.add(name.lower())
                bots[seat] = replace(record, seat=seat, name=name)
            self._fill(live, pending, bots)
        return live.record

    def reopen_seat(self, game_id: str, seat: int) -> SeatRecord:
        """A person's seat of a game still waiting made open again (the host banned its player: its
        link no longer holds it); answers the seat as it was. The caller holds the game's lock."""
        live = self.live(game_id)
        with live.lock, self.transaction(live) as pending:
            if not live.waiting or live.game.is_over:
                raise Refusal("bad-request", "only a seat of a game still waiting is opened again")
            before = live.record.seats[seat]
            self._fill(live, pending, {seat: SeatRecord(seat, f"Seat {seat + 1}", "open")})
        return before

    def _fill(self, live: LiveGame, pending: Pending, taken: dict[int, SeatRecord]) -> None:
        """Open seats taken (a player, or bots): the game starts when none is left open."""
        new_seats = tuple(taken.get(s.seat, s) for s in live.record.seats)
        status = "waiting" if any(s.kind == "open" for s in new_seats) else "playing"
        pending.change.seats.update(taken)
        pending.change.status = status
        live.record = replace(live.record, seats=new_seats, status=status)
        # No action is accepted while seats are open, so the game can take the final names.
        live.game = new_game(live.record)
        live.log = opening_log(live.game)
        for plugged in self.hooks:
            plugged.after_change(self.table, live, self.clock(), fresh=True)  # the clock starts with the game
