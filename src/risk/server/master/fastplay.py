"""Faster play (docs/web.md, "Faster play"): a blitz, every roll of it one transaction, and taking
moves back that revealed nothing."""

from __future__ import annotations

from dataclasses import asdict, replace

from risk.errors import RiskError
from risk.rules.actions import Attack
from risk.server.blitz import BlitzPlan, BlitzRun, most_dice, run_blitz, strength
from risk.server.errors import Refusal
from risk.server.live import LiveGame
from risk.server.master.base import game_progress
from risk.server.master.pipeline import Pipeline
from risk.server.storage import ActionRecord
from risk.server.undo import Checkpoint, undo_lines, undo_text
from risk.view import View


class FastPlay(Pipeline):
    """Blitz, calling a blitz off, undo."""

    def blitz(
        self, game_id: str, seat: int, source: str, target: str, until: int, state_id: int | None
    ) -> tuple[int, BlitzRun]:
        """Attack from ``source`` to ``target`` with the most dice, again and again, until the target
        falls, ``source`` is down to ``until`` armies, or the attack can go no further. Every roll is
        stored in one transaction (all or none) and narrated. Answers the new state id and the run."""
        live = self.live(game_id)
        if not isinstance(until, int) or isinstance(until, bool) or until < 1:
            raise Refusal(
                "bad-request",
                "'until' is how many armies to keep in the attacking territory: 1 or more (1: to the end)",
            )
        with live.lock:
            game = self._check_turn(live, seat)
            try:
                origin, aim = game.board.territory(source), game.board.territory(target)
            except RiskError as error:
                raise Refusal("notation", str(error)) from None
            if most_dice(game, origin, aim) == 0:
                try:
                    View(game, seat).check(Attack(origin, aim, 1))  # its words name nothing hidden
                except RiskError as error:
                    raise Refusal("illegal", f"no blitz: {error}") from None
            left = strength(game, origin)
            if left <= until:
                raise Refusal(
                    "bad-request",
                    f"{game.board.name_of(origin)} has {left} armies: attacking until {until} "
                    "are left would not roll at all",
                )
            self._check_state(live, state_id)
            start, copy = live.state_id, game.copy()
        # Outside the lock: the bots that defend think on the copy; the store is checked again below.
        try:
            run = run_blitz(copy, BlitzPlan(seat, origin, aim, until), start, self._defence(live))
        except RiskError as error:
            raise Refusal("illegal", f"the blitz stopped on a move the rules refuse: {error}") from None
        with live.lock, self.transaction(live):
            self._check_state(live, start)
            seq = self._take_move(live, run.steps, run.game, run.lines)
            live.blitz = run.waiting
        return seq, run

    def stop_blitz(self, game_id: str, seat: int) -> bool:
        """Call off this seat's blitz that waits for a defender: the current roll is the last. The
        seat's pages are sent their view again either way (it shows whether a blitz waits)."""
        live = self.live(game_id)
        with live.lock:
            stopped = live.blitz is not None and live.blitz.seat == seat
            if stopped:
                live.blitz = None
                live.publish()
        self.announce(game_id, "changed", seats=(seat,))  # only this seat's view changed
        return stopped

    def undo(self, game_id: str, seat: int, state_id: int | None, to: int | None = None) -> int:
        """Take back this seat's last move that revealed nothing new (or every such move from the one
        stored as ``to``). Stored as an ``#undo S`` entry; answers the new state id."""
        live = self.live(game_id)
        with live.lock, self.transaction(live) as pending:
            self._check_turn(live, seat)
            points = live.undo_points
            if not points or points[-1].seat != seat:
                raise Refusal(
                    "nothing-to-undo",
                    "nothing to take back: only placements and moves that revealed nothing new (no die "
                    "rolled, no card drawn or shown) since your last such step can be taken back",
                )
            first = points[-1].seq if to is None else to
            index = next((i for i, p in enumerate(points) if p.seq == first), None)
            if index is None:
                raise Refusal(
                    "bad-request",
                    f"move {to} cannot be taken back; the moves that can are "
                    + ", ".join(str(p.seq) for p in points),
                )
            self._check_state(live, state_id)
            stored = ActionRecord(seq=live.state_id + 1, seat=seat, text=undo_text(first), at=self.clock())
            pending.actions.append(stored)
            self._go_back(live, seat, points[index], len(points) - index, stored)
            del points[index:]
            for plugged in self.hooks:
                plugged.after_change(
                    self.table, live, stored.at, fresh=False
                )  # the same turn: its clock runs on
            return stored.seq

    @staticmethod
    def _go_back(live: LiveGame, seat: int, point: Checkpoint, undone: int, stored: ActionRecord) -> None:
        """The game back at ``point``, its log with the undo's line instead of the lines taken back."""
        removed = live.log.with_readers(point.log_length)
        live.game = point.game.copy()
        del live.log[point.log_length :]
        name, seats = live.game.players[seat], len(live.game.players)
        live.log.extend(undo_lines(name, seat, undone, removed, seats))
        live.log_cuts.append((stored.seq, point.log_length))
        del live.starters[point.turns :]
        live.blitz = None
        progress = asdict(game_progress(live))
        live.record = replace(live.record, state_id=stored.seq, updated=stored.at, **progress)
