"""The turn clock: per game, off or N seconds per turn, a shorter limit for a defender's dice, and what
the server plays when the time is up (docs/web.md, "The turn clock").

A *stretch* is the time one seat keeps the turn: a player's whole turn (reinforce, attack, fortify),
or one setup step. Its clock starts when it begins and is stored (``Storage.set_deadline``, with the
state id where the stretch began), so a restarted server goes on with the same deadline. While a
defender chooses its dice the attacker's clock stops (the defender has its own, shorter one, which
is rebuilt after a restart from the stored time of the attack) and goes on afterwards.

When a seat's time runs out the server plays for it, in one stored batch (all or nothing): a
defender rolls the most dice; a player's turn is finished the careful way (the host's stand-in bot
makes the choices that must be made: placing armies, trading a forced set, claiming, moving in; the
attack and the fortification are ended). The seat's missed turns are counted; after ``missed_turns``
in a row the stand-in bot plays the seat until its player takes it back. A server note says so.
Only human seats without a stand-in are timed: bots never wait.
"""

from __future__ import annotations

import bisect
import logging
from dataclasses import replace
from typing import Any

from risk.bots import make_bot
from risk.play.simulate import bot_seed
from risk.rules.game import Game, Phase
from risk.server.errors import Refusal
from risk.server.hooks import Table, TableHooks
from risk.server.live import LiveGame
from risk.server.seatprefs import attack_key, with_answer
from risk.server.storage import ActionRecord, ChatRecord
from risk.server.timing import SeatClock, Timing, defending, plays_own_seat
from risk.view import View

log = logging.getLogger("risk.server")

MAX_DEFAULT_STEPS = 1000  # a finished turn is a few actions; this only guards against a loop


def timing(live: LiveGame) -> Timing:
    """The game's clock settings (read once: a game's settings do not change them)."""
    clock = live.clock
    if clock.timing is None:
        clock.timing = Timing.of(live.record.settings)
    return clock.timing


def timed(live: LiveGame, seat: int) -> bool:
    """Whether the clock runs for ``seat``: a human playing the seat themselves."""
    seats = live.record.seats
    return 0 <= seat < len(seats) and plays_own_seat(seats[seat])


def seat_clock(live: LiveGame, seat: int) -> SeatClock:
    """The seat's own clock as stored: its time bank and vacation left, its vacation."""
    return SeatClock.of(live.record.seats[seat], timing(live))


def _follow(live: LiveGame, at: float, state_id: int) -> bool:
    """Follow the game to its new position: a new stretch starts (True), a defence starts or ends."""
    game, clock = live.game, live.clock
    key = (game.turn, game.current)
    new = key != clock.key
    if new:
        clock.key, clock.started, clock.started_at = key, state_id, at
        clock.turn_deadline = clock.defence_since = None
    if defending(game):
        if clock.defence_since is None:
            clock.defence_since = at
    elif clock.defence_since is not None:
        if clock.turn_deadline is not None:
            clock.turn_deadline += at - clock.defence_since  # the attacker's clock stopped meanwhile
        clock.defence_since = None
    return new


def _show(live: LiveGame) -> None:
    """The deadline that is running now (``live.deadline``), if any."""
    game, clock = live.game, live.clock
    limit = timing(live).defence_limit
    if game.is_over or live.waiting:
        live.deadline = None
    elif defending(game):
        running = limit > 0 and timed(live, game.to_act) and clock.defence_since is not None
        live.deadline = clock.defence_since + limit if running else None  # type: ignore[operator]
    elif clock.turn_deadline is not None and timed(live, game.current):
        # The player's time bank is used up before the server plays for them.
        live.deadline = clock.turn_deadline + seat_clock(live, game.current).bank
    else:
        live.deadline = None


def _store_deadline(table: Table, live: LiveGame) -> None:
    """The deadline running now, stored with the change under way (the move that set it)."""
    clock = live.clock
    over = live.game.is_over or live.waiting
    wanted = (None, None) if over or clock.turn_deadline is None else (clock.turn_deadline, clock.started)
    if wanted == clock.stored:
        return
    with table.transaction(live) as pending:
        pending.change.deadline = wanted
        clock.stored = wanted
        # The row in memory as stored: the game's summary reads it (risk.server.timing.summary_clock).
        live.record = replace(live.record, deadline=wanted[0], deadline_state=wanted[1])


def arm(table: Table, live: LiveGame, at: float, fresh: bool = False) -> None:
    """After a change (an action, a seat taken back): the clock of the new position, stored.
    ``fresh``: the player to act gets a whole turn's time from now (from the end of their vacation)."""
    ended, overran = live.clock.key, live.clock.turn_deadline
    new = _follow(live, at, live.state_id)
    game = live.game
    turn_time = timing(live).turn_time
    if new and ended is not None and overran is not None and at > overran:
        _charge_bank(table, live, ended[1], at - overran)
    if (new or fresh) and turn_time > 0 and timed(live, game.current) and not live.waiting:
        own = seat_clock(live, game.current)
        live.clock.turn_deadline = (own.away_until if own.away(at) else at) + turn_time  # type: ignore[operator]
    _show(live)
    _store_deadline(table, live)


def _charge_bank(table: Table, live: LiveGame, seat: int, overrun: float) -> None:
    """The stretch of ``seat`` ended ``overrun`` seconds past its turn's deadline: out of its bank."""
    if not 0 <= seat < len(live.record.seats) or live.record.seats[seat].kind != "human":
        return
    own = seat_clock(live, seat)
    if own.bank <= 0:
        return
    left = replace(own, bank=round(max(0.0, own.bank - overrun), 3))
    table.store_seat(live, replace(live.record.seats[seat], clock=left.stored()))


def move_turn_deadline(live: LiveGame, seat: int, by: float) -> None:
    """The seat's own turn clock moves by ``by`` seconds (a vacation taken or cut short)."""
    clock = live.clock
    if clock.turn_deadline is not None and clock.key is not None and clock.key[1] == seat:
        clock.turn_deadline += by


# -- the clock plugged into the master (risk.server.hooks) -------------------------------------------
class ClockHooks(TableHooks):
    """The turn clock as the master runs it: rebuilt as a game loads (from the stored actions and the
    stored deadline), armed after every change, shown in every state message."""

    def replayed(self, live: LiveGame, action: ActionRecord) -> None:
        _follow(live, action.at, action.seq)
        live.clock.marks.append((action.at, len(live.log)))

    def loaded(self, table: Table, live: LiveGame, opening: int) -> None:
        """The stored deadline if it belongs to the stretch under way, else the clock from when the
        stretch began; and the server notes, each placed in the log where it was written."""
        _resume(live)
        try:
            _store_deadline(table, live)
        except Refusal as refusal:  # the game's actions are stored: a restart rebuilds the clock
            log.warning("game %s: the turn clock was not stored: %s", live.record.id, refusal.message)
        live.notes = []
        _place_notes(table, live, opening)

    def caught_up(self, table: Table, live: LiveGame, log_before: int) -> None:
        """The clock as stored, and the new server notes. Nothing is stored from here: the process
        that made the change stores the clock."""
        _resume(live)
        _place_notes(table, live, log_before)

    def after_action(self, table: Table, live: LiveGame, action: ActionRecord) -> None:
        arm(table, live, action.at)

    def after_change(self, table: Table, live: LiveGame, at: float, *, fresh: bool) -> None:
        arm(table, live, at, fresh=fresh)

    def message(self, table: Table, live: LiveGame, view: View) -> dict[str, Any]:
        entry = clock_entry(table, live) if view.phase != Phase.OTHER_TURN else turn_clock_unseen(live)
        now = table.clock()
        return {
            "clock": entry,
            "timer": timing(live).public(),
            "seat_clocks": [seat_clock(live, s.seat).public(now) for s in live.record.seats],
            "notes": list(live.notes),
        }


def turn_clock_unseen(live: LiveGame) -> dict[str, Any] | None:
    """The clock as a seat sees it under fog of war during another player's turn: whose turn it is,
    never the time left. A defence has a clock of its own and stops the turn's, so the clock running,
    or the time left on the turn's, would tell of a battle the seat did not see."""
    game = live.game
    turn_time = timing(live).turn_time
    if turn_time <= 0 or not timed(live, game.current) or live.waiting:
        return None
    return {"seat": game.current, "for": "turn", "remaining": None, "limit": turn_time}


def clock_entry(table: Table, live: LiveGame) -> dict[str, Any] | None:
    """The clock running now: whose, for what, seconds left (by the server's clock), the limit."""
    if live.deadline is None:
        return None
    game = live.game
    settings = timing(live)
    defence = defending(game)
    now = table.clock()
    entry: dict[str, Any] = {
        "seat": game.to_act,
        "for": "defence" if defence else "turn",
        "remaining": round(max(0.0, live.deadline - now), 1),
        "limit": settings.defence_limit if defence else settings.turn_time,
    }
    if not defence and live.clock.turn_deadline is not None and settings.time_bank > 0:
        # The time bank left now (``remaining`` counts it): in use once the turn's own time is up.
        entry["bank"] = round(max(0.0, live.deadline - max(now, live.clock.turn_deadline)), 1)
        entry["in_bank"] = now >= live.clock.turn_deadline
    return entry


def _resume(live: LiveGame) -> None:
    record, clock = live.record, live.clock
    if clock.key is None:
        _follow(live, record.created, 0)
    clock.stored = (record.deadline, record.deadline_state)
    turn_time = timing(live).turn_time
    if record.deadline is not None and record.deadline_state == clock.started:
        clock.turn_deadline = record.deadline
    elif turn_time > 0 and timed(live, live.game.current) and not live.waiting:
        clock.turn_deadline = clock.started_at + turn_time
    _show(live)


def _place_notes(table: Table, live: LiveGame, start: int) -> None:
    """The server notes not yet in ``live.notes``, each placed in the log after the last action
    replayed before it was written (the marks of the actions replayed since ``start``)."""
    marks, live.clock.marks = live.clock.marks, []
    times = [at for at, _ in marks]
    known = live.notes[-1]["seq"] if live.notes else 0
    for note in table.store(lambda: table.storage.chat(live.record.id, after=known)):
        if note.seat is None and note.channel == "all":
            index = bisect.bisect_right(times, note.at)
            log_at = marks[index - 1][1] if index else start
            live.add_note(note, log_at)


# -- notes ------------------------------------------------------------------------------------------
def write_note(table: Table, live: LiveGame, text: str) -> None:
    """A server note (a chat message with no seat, in channel "all"): shown to everyone in the log,
    after its last line now; stored with the change under way (what the note tells of)."""
    note = ChatRecord(seq=0, seat=None, channel="all", team=None, name="", text=text, at=table.clock())
    with table.transaction(live) as pending:
        pending.change.notes.append(note)
        pending.note_places.append(len(live.log))


# -- when the time is up ------------------------------------------------------------------------------
def decision_seed(game: Game, seat: int, state_id: int) -> int:
    """The seed of a bot's decision: from the game's seed, the seat and the state alone (as the
    server's bots), so a restarted server decides the same way."""
    return (bot_seed(game.seed, seat) * 1_000_003 + state_id) % 2**63


def careful_choice(game: Game, seat: int, state_id: int, bot: str) -> str:
    """What the server plays for a seat whose time is up: end what may be ended (the attack, the turn,
    a dice change), claim a completed mission, roll the most dice in defence; choices that must be
    made (placing armies, a forced trade, a claim, moving in) are the stand-in bot's."""
    view = View(game, seat)
    legal = [g["text"] if "max" not in g else f"{g['text']} {g['max']}" for g in view.legal_groups()]
    for text in legal:
        if text.startswith("mission "):
            return text  # a completed mission card can only help
    phase = game.phase
    if phase == Phase.DEFEND:
        return next(text for text in legal if text.startswith("defend "))
    ending = {Phase.ATTACK: "endattack", Phase.FORTIFY: "endturn", Phase.TURN_END: "endturn"}
    if phase in ending and ending[phase] in legal:
        return ending[phase]
    if phase == Phase.ADJUST_DICE:
        return "accept"
    return view.action_text(make_bot(bot, decision_seed(game, seat, state_id)).choose(view))


def default_play(live: LiveGame) -> tuple[int, list[str]]:
    """The seat whose time is up and what the server plays for it, up to the end of its stretch."""
    game = live.game.copy()
    seat, key = game.to_act, (game.turn, game.current)
    bot = timing(live).stand_in
    texts: list[str] = []
    if defending(game):
        texts.append(careful_choice(game, seat, live.state_id, bot))
        return seat, texts
    while not game.is_over and game.to_act == seat and (game.turn, game.current) == key:
        if len(texts) >= MAX_DEFAULT_STEPS:
            raise RuntimeError(f"the default play for seat {seat} does not end")
        text = careful_choice(game, seat, live.state_id + len(texts), bot)
        game.apply(text)
        texts.append(text)
    return seat, texts


def default_defence(table: Table, game_id: str, state_id: int) -> int | None:
    """When a human defender's time is up: defend with the most dice allowed. None if moved on."""
    live = table.live(game_id)
    with live.lock:
        if live.state_id != state_id or live.game.phase != Phase.DEFEND:
            return None
        return run_out(table, game_id, state_id, force=True)


def run_out(table: Table, game_id: str, state_id: int, *, force: bool = False) -> int | None:
    """The time of state ``state_id`` is up: play for the seat, count the missed turn, hand the seat to
    the stand-in bot after too many, and say so in a note, all in one commit. Answers the new state
    id, or None when the game moved on or the time is not up (``force``: whatever the clock says)."""
    live = table.live(game_id)
    try:
        with live.lock, table.transaction(live):
            return _play_for(table, live, state_id, force)
    except Refusal as refusal:
        if refusal.code == "stale":
            return None  # another process moved the game on: it is reloaded when next asked for
        raise


def _play_for(table: Table, live: LiveGame, state_id: int, force: bool) -> int | None:
    """run_out's change, inside its transaction."""
    now = table.clock()
    if live.state_id != state_id or live.game.is_over or live.waiting:
        return None
    if not force and (live.deadline is None or now < live.deadline):
        return None
    was_defending = defending(live.game)
    key = attack_key(live.game)
    seat, texts = default_play(live)
    new_id = table.commit_batch(live, seat, texts, now)
    name = live.record.seats[seat].name
    if was_defending:
        dice = int(texts[0].split()[-1])
        record = live.record.seats[seat]
        kept = None if key is None else with_answer(record, key, dice)
        if kept is not None:  # the answer stands for the rest of this attack, as the seat's own would
            table.store_seat(live, replace(record, prefs=kept))
        text = f"The clock ran out for {name}'s defence: the most dice ({dice}) were rolled."
    else:
        text = _missed_turn(table, live, seat, timing(live))
    # Under fog of war a note to everyone about a defence would tell of a battle some did not see:
    # its players see the roll in their own log.
    if not (was_defending and live.game.rules.fog == "on"):
        write_note(table, live, text)
    arm(table, live, now)
    return new_id


def _missed_turn(table: Table, live: LiveGame, seat: int, settings: Timing) -> str:
    """Count a missed turn, hand the seat over after too many in a row; the note's words."""
    record = live.record.seats[seat]
    missed = record.missed + 1
    name, bot = record.name, settings.stand_in
    what = "the server finished the turn" if live.clock.key and live.clock.key[0] > 0 else "a bot chose"
    text = f"The clock ran out for {name}: {what} for {name}."
    stand_in = None
    if settings.missed_turns and missed >= settings.missed_turns:
        stand_in = bot
        text += (
            f" {name} missed {missed} {'turn' if missed == 1 else 'turns'} in a row: the {bot} bot plays "
            f"for {name} until {name} takes the seat back."
        )
    elif settings.missed_turns:
        text += f" Missed turns in a row: {missed} of {settings.missed_turns}, then the {bot} bot plays."
    table.store_seat(live, replace(record, missed=missed, stand_in=stand_in))
    return text
