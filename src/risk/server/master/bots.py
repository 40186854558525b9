"""The moves the server makes itself: its bots' (and stand-ins'), a human seat's standing orders
(risk.server.seatprefs), a blitz's defender, and the pace of all of them. A decision depends only on
the game's seed, the seat and the state id, so a restarted server makes the same moves."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace

from risk.bots import Bot, make_bot
from risk.bots.protocol import ExternalBot
from risk.errors import RiskError
from risk.play.simulate import bot_seed
from risk.rules.game import Game, Phase
from risk.server.blitz import BlitzRun, Defence, run_blitz
from risk.server.clock import careful_choice
from risk.server.live import LiveGame
from risk.server.master.base import log
from risk.server.master.loading import Loading
from risk.server.master.specs import DEFAULT_BOT_DELAY
from risk.server.seatprefs import (
    AUTO_SETUP_BOT,
    SETUP_PHASES,
    SeatPrefs,
    game_pace,
    move_delay,
    queued_placement,
    standing_defence,
)
from risk.server.timing import defending, server_plays
from risk.view import View


class Bots(Loading):
    """What the server plays, and when."""

    def needs_driver(self, game_id: str) -> bool:
        """Whether the game has work for its driver: a bot of the server's to move, or a clock running."""
        live = self.live(game_id)
        game = live.game
        if game.is_over or live.waiting:
            return False
        if live.deadline is not None:
            return True
        if game.to_act >= len(live.record.seats):
            return False
        if self._standing(live, game, game.to_act, live.state_id) is not None:
            return True
        return server_plays(live.record.seats[game.to_act])

    def bot_turn(self, game_id: str) -> tuple[int, int, Callable[[], str]] | None:
        """If a bot of the server's is to act: (seat, state id, a function that decides on a copy of
        the game, safe to run in another thread). The decision depends only on the game's seed, the
        seat and the state id, so a restarted server makes the same moves."""
        live = self.live(game_id)
        with live.lock:
            game = live.game
            if game.is_over or live.waiting:
                return None
            seat_index = game.to_act
            if seat_index >= len(live.record.seats):
                return None
            state_id = live.state_id
            bot = self._server_bot(live, seat_index, state_id)
            if bot is None:
                # A human seat's own standing orders (its defence dice, its setup): played like a bot's.
                standing = self._standing(live, game.copy(), seat_index, state_id)
                return None if standing is None else (seat_index, state_id, standing)
            copy = game.copy()

        def decide() -> str:
            view = View(copy, seat_index)
            return view.action_text(bot.choose(view))

        return seat_index, state_id, decide

    def _standing(
        self, live: LiveGame, game: Game, seat_index: int, state_id: int
    ) -> Callable[[], str] | None:
        """What the server plays now, by the seat's own settings (risk.server.seatprefs), for a human
        playing their own seat: its defence dice, a queued setup placement, its setup when it asked
        for it to be done. None: the seat plays. The decision (a bot's, for the setup) is made when
        the returned function is called, on ``game``."""
        if not 0 <= seat_index < len(live.record.seats) or game.to_act != seat_index:
            return None
        seat = live.record.seats[seat_index]
        if seat.kind != "human" or seat.stand_in is not None or seat_index in live.resigned:
            return None
        if game.phase == Phase.DEFEND:
            text = standing_defence(game, seat)
        elif game.phase in SETUP_PHASES:
            text = queued_placement(game, seat)
            if text is None and SeatPrefs.of(seat).auto_setup:
                return lambda: careful_choice(game, seat_index, state_id, AUTO_SETUP_BOT)
        else:
            return None
        if text is None:
            return None
        chosen: str = text
        return lambda: chosen

    def turn_delay(self, game_id: str, present: Collection[int] | None) -> float:
        """Seconds before the server's next move in the game (a bot's, or a seat's standing order): the
        game's delay at the pace of the slowest human watching (risk.server.seatprefs); a human's
        standing defence at once (the attack it answers has just waited)."""
        live = self.live(game_id)
        game, seats = live.game, live.record.seats
        if defending(game) and 0 <= game.to_act < len(seats) and seats[game.to_act].kind == "human":
            return 0.0
        delay = float(live.record.settings.get("bot_delay", DEFAULT_BOT_DELAY))
        return move_delay(game_pace(seats, present), delay, game.phase)

    def _server_bot(self, live: LiveGame, seat_index: int, state_id: int) -> Bot | None:
        """The bot of the server's that plays ``seat_index`` at ``state_id``; None for a human's seat."""
        seat = live.record.seats[seat_index]
        if seat.kind == "human" and seat.stand_in is not None:
            seat = replace(seat, kind="bot", bot=seat.stand_in)  # a bot plays for the away player
        if seat.kind not in ("bot", "external"):
            return None
        seed = (bot_seed(live.game.seed, seat_index) * 1_000_003 + state_id) % 2**63
        if seat.kind == "bot":
            return make_bot(seat.bot or "quick", seed)
        bot = live.externals.get(seat_index)
        if bot is None:
            bot = ExternalBot(seat.bot or "", seed, label=seat.name)
            live.externals[seat_index] = bot
        return bot

    # -- a blitz's defender ----------------------------------------------------------------------
    def _defence(self, live: LiveGame) -> Defence:
        """How a blitz's defender chooses: a bot of the server's as it would one roll at a time (the same
        seed, from the state id), a human never (None: the blitz waits for them)."""

        def choose(game: Game, defender: int, state_id: int) -> str | None:
            if defender >= len(live.record.seats):
                return None
            bot = self._server_bot(live, defender, state_id)
            if bot is None:
                standing = self._standing(live, game, defender, state_id)  # the seat's defence setting
                return None if standing is None else standing()
            view = View(game.copy(), defender)
            return view.action_text(bot.choose(view))

        return choose

    def _continue_blitz(self, live: LiveGame, before: Game, moved: Game, seat: int) -> BlitzRun | None:
        """After a defender chose the dice of a blitz's roll: the blitz's next rolls, on ``moved``."""
        plan = live.blitz
        if plan is None or seat == plan.seat or before.phase != Phase.DEFEND:
            return None
        pending = before.pending_attack
        if pending is None or pending[:2] != (plan.source, plan.target):
            return None
        trial = moved.copy()
        try:
            return run_blitz(trial, plan, live.state_id + 1, self._defence(live), settled=True)
        except RiskError as error:  # a bot's bad answer: the defence alone is taken
            log.error("game %s: the blitz of seat %d stopped: %s", live.record.id, plan.seat, error)
            return None
