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
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from risk.bots import DEFAULT_BOT, bot_choices, is_bot_name, make_bot
from risk.rules.game import Game, Phase
from risk.server.storage import ActionRecord, ChatRecord, GameRecord, SeatRecord, StaleWrite, StorageError
from risk.simulate import bot_seed
from risk.view import View

if TYPE_CHECKING:
    from risk.server.master import GameMaster, LiveGame

log = logging.getLogger("risk.server")

MIN_TURN_TIME = 5.0
MAX_TURN_TIME = 7 * 24 * 3600.0  # a week: games played a move a day
DEFAULT_MISSED_TURNS = 2
MAX_MISSED_TURNS = 20
MAX_DEFAULT_STEPS = 1000  # a finished turn is a few actions; this only guards against a loop


@dataclass(frozen=True)
class Timing:
    """A game's clock settings (stored in its settings)."""

    turn_time: float = 0.0  # seconds per turn; 0: no turn clock
    defend_timeout: float = 0.0  # seconds for a defender's dice; 0: the turn time (if any)
    missed_turns: int = (
        DEFAULT_MISSED_TURNS  # turns in a row run out before the stand-in takes over; 0: never
    )
    stand_in: str = DEFAULT_BOT  # the host's choice of bot for away players

    @classmethod
    def of(cls, settings: dict[str, Any]) -> Timing:
        return cls(
            turn_time=float(settings.get("turn_time", 0) or 0),
            defend_timeout=float(settings.get("defend_timeout", 0) or 0),
            missed_turns=int(settings.get("missed_turns", DEFAULT_MISSED_TURNS)),
            stand_in=str(settings.get("stand_in", DEFAULT_BOT)),
        )

    @property
    def defence_limit(self) -> float:
        return self.defend_timeout or self.turn_time

    def public(self) -> dict[str, Any]:
        return {
            "turn_time": self.turn_time,
            "defend_timeout": self.defend_timeout,
            "missed_turns": self.missed_turns,
            "stand_in": self.stand_in,
        }


def timing_settings(turn_time: float, missed_turns: int, stand_in: str) -> dict[str, Any]:
    """The clock settings of a new game, checked; a Refusal says what is wrong."""
    from risk.server.master import Refusal

    if turn_time != 0 and not MIN_TURN_TIME <= turn_time <= MAX_TURN_TIME:
        raise Refusal(
            "bad-request",
            f"turn_time is 0 (no turn clock) or seconds from {MIN_TURN_TIME:g} to {MAX_TURN_TIME:g} (a week)",
        )
    if isinstance(missed_turns, bool) or not 0 <= missed_turns <= MAX_MISSED_TURNS:
        raise Refusal(
            "bad-request",
            f"missed_turns is how many turns in a row may run out before a bot takes the seat: "
            f"0 (never) to {MAX_MISSED_TURNS}",
        )
    bot = stand_in.strip().lower()
    if not is_bot_name(bot):
        raise Refusal("bad-request", f"no stand-in bot or level {stand_in!r}; {bot_choices()}")
    return {"turn_time": float(turn_time), "missed_turns": int(missed_turns), "stand_in": bot}


@dataclass
class TurnClock:
    """One game's clock in memory."""

    key: tuple[int, int] | None = None  # (engine turn, player) of the stretch under way
    started: int = 0  # the state id where it began (stored as the deadline's state)
    started_at: float = 0.0
    turn_deadline: float | None = None  # the player's deadline (stopped during a defence)
    defence_since: float | None = None  # when the defence under way was asked for
    stored: tuple[float | None, int | None] = (None, None)  # what the store holds
    marks: list[tuple[float, int]] = field(default_factory=list)  # while loading: (action time, log length)
    timing: Timing | None = None


def timing(live: LiveGame) -> Timing:
    """The game's clock settings (read once: a game's settings do not change them)."""
    clock = live.clock
    if clock.timing is None:
        clock.timing = Timing.of(live.record.settings)
    return clock.timing


def timed(live: LiveGame, seat: int) -> bool:
    """Whether the clock runs for ``seat``: a human playing the seat themselves."""
    seats = live.record.seats
    return 0 <= seat < len(seats) and _plays_own_seat(seats[seat])


def _plays_own_seat(seat: SeatRecord) -> bool:
    return seat.kind == "human" and seat.stand_in is None


def server_plays(seat: SeatRecord) -> bool:
    """Whether a bot of the server's plays the seat: a bot, an external bot, or a stand-in for a human."""
    return seat.kind in ("bot", "external") or (seat.kind == "human" and seat.stand_in is not None)


def wake_time(record: GameRecord) -> float | None:
    """When a game that is not in memory next needs the server without anyone asking for it, from its
    stored row alone (a starting server reads only the rows, risk.server.wakeups): 0 (at once) when a
    bot of the server's is to act, or when the row does not say who is; the deadline of the clock
    running, at the earliest, when a player is; None when only a player's move changes the game."""
    if record.status != "playing":
        return None
    seat = record.to_act
    if seat is None or not 0 <= seat < len(record.seats) or server_plays(record.seats[seat]):
        return 0.0
    if not _plays_own_seat(record.seats[seat]):
        return None
    settings = Timing.of(record.settings)
    if record.defending:
        # The defence was asked for by the attack, the game's last stored action (see ``_follow``).
        limit = settings.defence_limit
        return record.updated + limit if limit > 0 else None
    if settings.turn_time <= 0:
        return None
    # The stored deadline is the turn's, or (a crash between storing an action and its clock) an
    # earlier turn's: earlier, never later, than the clock that runs. None: not known, so at once.
    return record.deadline if record.deadline is not None else 0.0


def defending(game: Game) -> bool:
    return game.phase == Phase.DEFEND and game.to_act != game.current


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
    else:
        live.deadline = clock.turn_deadline if timed(live, game.current) else None


def _store(master: GameMaster, live: LiveGame) -> None:
    clock = live.clock
    over = live.game.is_over or live.waiting
    wanted = (None, None) if over or clock.turn_deadline is None else (clock.turn_deadline, clock.started)
    if wanted == clock.stored:
        return
    try:
        master.storage.set_deadline(live.record.id, *wanted)
        clock.stored = wanted
    except StorageError as error:  # the action itself is stored: a restart rebuilds the clock
        log.warning("game %s: the turn clock was not stored: %s", live.record.id, error)


def arm(master: GameMaster, live: LiveGame, at: float, fresh: bool = False) -> None:
    """After a change (an action, a seat taken back): the clock of the new position, stored.
    ``fresh``: the player to act gets a whole turn's time from now."""
    new = _follow(live, at, live.state_id)
    game = live.game
    turn_time = timing(live).turn_time
    if (new or fresh) and turn_time > 0 and timed(live, game.current) and not live.waiting:
        live.clock.turn_deadline = at + turn_time
    _show(live)
    _store(master, live)


# -- loading: the clock rebuilt from the stored actions and the stored deadline ---------------------
def replayed(live: LiveGame, action: ActionRecord) -> None:
    """Called for each stored action while a game is loaded (after it is applied)."""
    _follow(live, action.at, action.seq)
    live.clock.marks.append((action.at, len(live.log)))


def loaded(master: GameMaster, live: LiveGame, opening: int) -> None:
    """After loading: the stored deadline if it belongs to the stretch under way, else the clock from
    when the stretch began; and the server notes, each placed in the log where it was written
    (``opening``: the log's length before the first action)."""
    _resume(live)
    _store(master, live)
    live.notes = []
    _place_notes(master, live, opening)


def caught_up(master: GameMaster, live: LiveGame, log_before: int) -> None:
    """After another server process changed the game (its new actions replayed here, ``log_before``:
    the log's length before them): the clock as stored, and the new server notes. Nothing is stored
    from here: the process that made the change stores the clock."""
    _resume(live)
    _place_notes(master, live, log_before)


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


def _place_notes(master: GameMaster, live: LiveGame, start: int) -> None:
    """The server notes not yet in ``live.notes``, each placed in the log after the last action
    replayed before it was written (the marks of the actions replayed since ``start``)."""
    marks, live.clock.marks = live.clock.marks, []
    times = [at for at, _ in marks]
    known = live.notes[-1]["seq"] if live.notes else 0
    for note in master.store(lambda: master.storage.chat(live.record.id, after=known)):
        if note.seat is None and note.channel == "all":
            index = bisect.bisect_right(times, note.at)
            log_at = marks[index - 1][1] if index else start
            live.notes.append(_note_dict(note, log_at))


# -- notes ------------------------------------------------------------------------------------------
def _note_dict(note: ChatRecord, log_at: int) -> dict[str, Any]:
    return {"seq": note.seq, "text": note.text, "at": note.at, "log_at": log_at}


def write_note(master: GameMaster, live: LiveGame, text: str) -> None:
    """A server note (a chat message with no seat, in channel "all"): shown to everyone in the log."""
    note = ChatRecord(seq=0, seat=None, channel="all", team=None, name="", text=text, at=master.clock())
    try:
        stored = master.storage.add_chat(live.record.id, note)
    except (
        StorageError
    ) as error:  # what it tells has happened and is in the log: a note is not worth a refusal
        log.warning("game %s: a server note was not stored: %s", live.record.id, error)
        return
    live.notes.append(_note_dict(stored, len(live.log)))


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


def run_out(master: GameMaster, game_id: str, state_id: int, *, force: bool = False) -> int | None:
    """The time of state ``state_id`` is up: play for the seat, count the missed turn, hand the seat to
    the stand-in bot after too many, and say so in a note. Answers the new state id, or None when the
    game moved on or the time is not up (``force``: whatever the clock says)."""
    live = master.live(game_id)
    with live.lock:
        now = master.clock()
        if live.state_id != state_id or live.game.is_over or live.waiting:
            return None
        if not force and (live.deadline is None or now < live.deadline):
            return None
        was_defending = defending(live.game)
        seat, texts = default_play(live)
        try:
            new_id = master.commit_batch(live, seat, texts, now)
        except StaleWrite:
            return None  # another process moved the game on: it is reloaded when next asked for
        name = live.record.seats[seat].name
        if was_defending:
            dice = int(texts[0].split()[-1])
            text = f"The clock ran out for {name}'s defence: the most dice ({dice}) were rolled."
        else:
            text = _missed_turn(master, live, seat, timing(live))
        write_note(master, live, text)
        arm(master, live, now)
        return new_id


def _missed_turn(master: GameMaster, live: LiveGame, seat: int, settings: Timing) -> str:
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
    master.store_seat(live, replace(record, missed=missed, stand_in=stand_in))
    return text
