"""The move pipeline: the one place that accepts or refuses a move. For each it checks, in this order,
that the game is not over (nor waiting for players), that it is this seat's turn, that the move is
legal (parsed and checked once, through the seat's view) and that the state id is the current one;
then it applies the move, and the move and every consequence (a blitz going on, the plug-ins' seats,
clock and notes) are stored in one transaction (:meth:`MasterBase.transaction`) before anything is
acknowledged or shown."""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any

from risk.errors import NotationError, RiskError
from risk.rules.actions import Action
from risk.rules.game import PHASE_NAMES, Game, Phase
from risk.server.errors import Refusal
from risk.server.live import LiveGame
from risk.server.master.base import game_progress
from risk.server.master.loading import keep_undo_point
from risk.server.master.seeing import Seeing
from risk.server.seatprefs import attack_key, with_answer
from risk.server.steps import apply_narrated, is_resignation, own_resignation
from risk.server.storage import ActionRecord, SeatRecord
from risk.server.undo import reveals_nothing
from risk.view import SPECTATOR, View


class Pipeline(Seeing):
    """Moves in, refusals out; every accepted change stored in one commit."""

    def submit(self, game_id: str, token: str | None, text: str, state_id: int | None) -> int:
        """A player's action. Answers the new state id once the action is stored."""
        seat = self.seat_of(game_id, token)
        if seat == SPECTATOR:
            raise Refusal("bad-token", "spectators cannot act: open your seat's private link to play")
        return self.submit_player(game_id, seat, text, state_id)

    def submit_player(self, game_id: str, seat: int, text: str, state_id: int | None) -> int:
        """A player's own move (its token checked): the plugged-in modules may refuse it (a seat a
        stand-in bot plays), then it is tried as any other; a defence's answer kept for the rest of
        the attack is stored with it."""
        live = self.live(game_id)
        for plugged in self.hooks:
            plugged.check_move(live, seat, text)
        with live.lock, self.transaction(live):
            key = attack_key(live.game) if live.game.to_act == seat else None
            seq = self.submit_as(game_id, seat, text, state_id)
            words = text.lower().split()
            if key is not None and words[:1] == ["defend"] and len(words) == 2 and words[1].isdigit():
                # Asked, the seat answered: the answer stands for the rest of this attack.
                record = live.record.seats[seat]
                kept = with_answer(record, key, int(words[1]))
                if kept is not None:
                    self.store_seat(live, replace(record, prefs=kept))
            return seq

    def submit_as(self, game_id: str, seat: int, text: str, state_id: int | None) -> int:
        """An action for ``seat`` (the token already checked, or a bot of the server's)."""
        live = self.live(game_id)
        if not isinstance(text, str) or not text.strip():
            raise Refusal(
                "bad-request", "the action is empty: send it in the action notation, e.g. 'place alaska 3'"
            )
        if len(text) > 200:
            raise Refusal("bad-request", "the action is longer than 200 characters")
        with live.lock, self.transaction(live):
            resigning = is_resignation(text)
            game = self._check_turn(live, seat, out_of_turn=resigning)  # a player resigns at any time
            action = self._checked(game, seat, text, resigning)
            self._check_state(live, state_id)
            # Apply to a copy: the live game changes only once the action is checked; parsed and
            # checked once, above, it is applied as it is.
            moved, new_lines = game.copy(), list[dict[str, Any]]()
            apply_narrated(moved, new_lines, action, checked=True)
            steps = [(seat, game.action_text(action))]
            # A blitz waiting for this defence goes on at once, stored with it (fast-play).
            run = self._continue_blitz(live, game, moved, seat)
            if run is not None:
                steps += run.steps
                new_lines += run.lines
                moved = run.game
            seq = self._take_move(live, steps, moved, new_lines)
            live.blitz = None if run is None else run.waiting
            return seq

    @staticmethod
    def _checked(game: Game, seat: int, text: str, resigning: bool) -> Action:
        """The action ``text`` names, if the rules allow it now; else the refusal that says why."""
        try:
            action = game.parse(text)
            if resigning:  # at any time, and it names no territory
                action = own_resignation(action, seat)
                game.check(action)
            else:
                # Through the seat's view: under fog of war the rules' reason could name what the
                # seat does not see (a hidden owner or army count); the view's never does.
                View(game, seat).check(action)
        except NotationError as error:
            raise Refusal("notation", str(error)) from None
        except RiskError as error:  # IllegalActionError, and any other the rules raise
            raise Refusal("illegal", str(error)) from None
        return action

    def _take_move(
        self, live: LiveGame, steps: list[tuple[int, str]], moved: Game, new_lines: list[dict[str, Any]]
    ) -> int:
        """A move (and what it set off), applied to ``moved``: taken into the transaction under way, the
        position before it kept if it may be taken back, and the plug-ins told. Answers the new state id."""
        before, log_length, turns = live.game, len(live.log), len(live.starters)
        stored = self._take(live, steps, moved, new_lines, self.clock())
        seat = steps[0][0]
        undoable = len(stored) == 1 and reveals_nothing(before, moved, seat)
        keep_undo_point(
            live, stored[0].seq, seat, steps[0][1], before if undoable else None, log_length, turns
        )
        for plugged in self.hooks:
            plugged.after_action(
                self.table, live, stored[0]
            )  # the player's own move: the clock, a resignation
        return stored[-1].seq

    @staticmethod
    def _take(
        live: LiveGame, steps: list[tuple[int, str]], moved: Game, new_lines: list[dict[str, Any]], at: float
    ) -> list[ActionRecord]:
        """``steps`` (seat, text), applied to ``moved``: ``moved`` becomes the live game, the steps are
        stored by the transaction under way."""
        assert live.pending is not None, "a move is taken inside a transaction"
        first = live.state_id + 1
        stored = [ActionRecord(seq=first + i, seat=s, text=t, at=at) for i, (s, t) in enumerate(steps)]
        live.pending.actions.extend(stored)
        live.game = moved
        live.log.extend(new_lines)
        live.note_turns(moved)
        live.record = replace(live.record, state_id=stored[-1].seq, updated=at, **asdict(game_progress(live)))
        return stored

    # -- the checks every move shares ------------------------------------------------------------
    def _check_turn(self, live: LiveGame, seat: int, out_of_turn: bool = False) -> Game:
        """The game, if ``seat`` may act in it now (``out_of_turn``: a move allowed at any time, a
        resignation); else the refusal that says why."""
        game = live.game
        if game.is_over:
            raise Refusal("game-over", f"the game is over: {_result_text(game)}")
        if live.waiting:
            raise Refusal("waiting", "the game starts when every open seat is taken")
        if seat != game.to_act and not out_of_turn:
            view = self.view_of(live, seat)  # under fog of war: whose turn it is, not its step
            if view.phase == Phase.OTHER_TURN:
                whose = game.players[view.to_act]
                raise Refusal("not-your-turn", f"it is not your turn: it is {whose}'s turn")
            raise Refusal(
                "not-your-turn",
                f"it is not your turn: {game.players[game.to_act]} is to act "
                f"(phase {PHASE_NAMES[game.phase]})",
            )
        return game

    @staticmethod
    def _check_state(live: LiveGame, state_id: int | None) -> None:
        if state_id is not None and state_id != live.state_id:
            raise Refusal(
                "stale",
                f"the game moved on (state {live.state_id}, not {state_id}): "
                "look at the board again and retry",
            )

    # -- what the plug-ins ask (risk.server.hooks.Table) -----------------------------------------
    def commit_batch(self, live: LiveGame, seat: int, texts: list[str], at: float) -> int:
        """Several actions of ``seat`` (legal in turn, in canonical text), applied and taken into the
        transaction under way (or one of their own): all or none. Answers the new state id. A
        Refusal: "stale" (another process moved the game on: it is forgotten, to be reloaded), or
        "unavailable" when the store fails (nothing changed)."""
        with live.lock, self.transaction(live):
            before, moved = live.game, live.game.copy()
            new_lines: list[dict[str, Any]] = []
            for text in texts:
                apply_narrated(moved, new_lines, text)
            steps = [(seat, text) for text in texts]
            # A blitz waiting for this (timed-out) defence goes on at once, stored with it (fast-play).
            run = self._continue_blitz(live, before, moved, seat) if len(texts) == 1 else None
            if run is not None:
                steps += run.steps
                new_lines += run.lines
                moved = run.game
            stored = self._take(live, steps, moved, new_lines, at)
            live.undo_points.clear()  # the server played for the seat: nothing before it is taken back
            live.blitz = None if run is None else run.waiting
            return stored[-1].seq

    def store_seat(self, live: LiveGame, seat: SeatRecord) -> None:
        """A changed seat (a stand-in, missed turns, its settings): in memory, and stored with the
        transaction under way (or one of its own)."""
        with live.lock, self.transaction(live) as pending:
            pending.change.seats[seat.seat] = seat
            seats = tuple(seat if s.seat == seat.seat else s for s in live.record.seats)
            live.record = replace(live.record, seats=seats)


def _result_text(game: Game) -> str:
    outcome = game.outcome()
    if outcome is None or outcome.winner is None:
        return "no winner"
    return f"{game.players[outcome.winner]} won ({outcome.reason})"
