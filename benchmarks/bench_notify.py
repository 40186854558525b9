"""Notifications on a server of many games at one-day clocks, run by hand:

    .venv/bin/python benchmarks/bench_notify.py [--games 1000] [--moves 20000 | --seconds S]
        [--rounds 3] [--step-every 100] [--synchronous FULL|NORMAL] [--no-absent] [--json]

One process, one SQLite file in a temporary folder (``synchronous=FULL`` by default, as ``risk serve``),
one ``GameMaster`` on a simulated clock, N games of two human seats (``auto_setup``) and one quick bot,
``turn_time=DAY``, dealt setup. Moves are played round-robin across the games, one each in turn, the
clock going on a second after each: humans as the quick bot would choose, through ``master.submit``
with the seat's token; the server's own moves (the bot, the humans' standing setup and defence)
through ``bot_turn`` and ``submit_as``. Every game has the same seed in every run, so every run plays
the same moves. The dealt setup (63 server moves a game, played at once by a server's driver) is
played once, untimed, and the file copied for each run; the games are loaded, and the start's sweep
(each subscribed seat told whose move it is) sent, before the clock starts.

Three variants of the same moves, alternated in each round (their order rotated) so that the load of a
shared machine falls on each alike:

- ``subscribed``: every human seat subscribed by e-mail, pace "each" (``every_s=0``: every event is
  sent), to a real SMTP server (aiosmtpd, started here on 127.0.0.1, counting what it receives);
- ``none``: the notifier listening, no subscription (what a server with ``--smtp`` pays for games
  nobody is told of);
- ``absent``: no notifier at all (``--no-absent`` leaves it out).

The notifier is stepped in the moves' own thread every ``--step-every`` moves, until nothing due is
left, rather than run as the server runs it (an asyncio task polling each second in a worker thread).
Why: the server's worker claims at most 20 subscriptions a pass and then sleeps a second, so against
moves played as fast as this loop plays them it would fall behind by design and the figures would
measure the poll interval; stepped in line, its whole cost (queueing, claiming, composing, SMTP,
marking rows sent) lands in the moves' wall time, so "µs per move" is everything notifications add,
and the sender's own rates (rows queued per second of ``flush``, messages per second of sending) are
timed apart. Reported: µs per move and actions/s of each variant (median of the rounds, min-max),
the differences per round (median, min-max: their noise), events heard, rows queued and messages
sent per second, and the outbox's rows by status at the end (every row sent or skipped, but reminders
not yet due).
"""

from __future__ import annotations

import argparse
import email
import email.policy
import json
import os
import platform
import shutil
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from aiosmtpd.controller import Controller
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from risk.bots import make_bot
from risk.server.master import GameMaster, GameSpec, SeatSpec
from risk.server.notify.channels import EmailChannel, SmtpSettings
from risk.server.notify.outbox import Event, Outbox
from risk.server.notify.sender import Notifier
from risk.server.sql import SqlStorage
from risk.server.sql import outbox as outbox_rows
from risk.server.timing import DAY
from risk.view import View

HOST = "127.0.0.1"  # loopback only
START = 1_796_000_400.0  # a Monday, 09:00 UTC
TICK_S = 1.0  # simulated seconds per move: a game moves once per N s, far inside its day
VARIANTS = ("subscribed", "none", "absent")
SETUP_MOVES = 63  # a dealt 3-seat setup: 21 armies each, placed one at a time


# -- the SMTP server -----------------------------------------------------------------------------
@dataclass
class Inbox:
    """What the SMTP server received: messages counted and parsed (as a mail server would read them)."""

    messages: int = 0
    recipients: set[str] = field(default_factory=set)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.recipients.add(str(parsed["To"]))
        self.messages += 1
        return "250 OK"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@contextmanager
def smtp_server() -> Iterator[tuple[Inbox, int]]:
    inbox, port = Inbox(), free_port()
    controller = Controller(inbox, hostname=HOST, port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


# -- one run's server ----------------------------------------------------------------------------
class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


class CountingNotifier(Notifier):
    """The server's notifier, counting the events its listener hands on (most find no subscription
    when ``enqueue`` looks: the bot's moves, the game's own webhook events)."""

    heard_events = 0

    def add(self, events: Sequence[Event]) -> None:
        self.heard_events += len(events)
        super().add(events)


@dataclass
class Template:
    """The games with their dealt setup played (by the server, as its driver plays it at once): one
    file, copied for each run."""

    path: Path
    now: float  # the simulated clock when it was made
    tokens: dict[str, list[str]]  # each game's human seats' tokens, by seat


@dataclass
class Table:
    storage: SqlStorage
    master: GameMaster
    outbox: Outbox
    notifier: CountingNotifier | None
    clock: Clock
    tokens: dict[str, list[str]]


def spec(number: int) -> GameSpec:
    return GameSpec(
        seats=[
            SeatSpec("human", "Ann", auto_setup=True),
            SeatSpec("human", "Bob", auto_setup=True),
            SeatSpec("bot", bot="quick"),
        ],
        options={"setup": "deal"},
        seed=number,
        bot_delay=0,
        turn_time=DAY,
        defend_timeout=0,  # a defence asked of a person: the turn's time
    )


def make_template(folder: Path, games: int, advance: Callable[[int], None]) -> Template:
    """The setup is 63 server moves a game (standing orders): played once here, untimed, so that
    every run times the same moves of the game proper."""
    path = folder / "template.sqlite3"
    storage = SqlStorage(f"sqlite:///{path}", sqlite_synchronous="NORMAL")  # a copy's own runs sync
    clock = Clock()
    master = GameMaster(storage, clock=clock)
    table = Table(storage, master, Outbox(storage.engine), None, clock, {})
    for number in range(games):
        record, created = master.create_game(spec(number))
        table.tokens[record.id] = [seat.token or "" for seat in created if seat.token]
    for game_id in table.tokens:
        played = 0
        while master.live(game_id).game.turn == 0 and play_move(table, game_id):
            played += 1
        advance(played)
    storage.close()  # checkpointed: the one file holds everything
    return Template(path, clock.now, table.tokens)


def build(folder: Path, variant: str, template: Template, port: int, synchronous: str) -> Table:
    path = folder / f"{variant}.sqlite3"
    shutil.copyfile(template.path, path)
    storage = SqlStorage(f"sqlite:///{path}", sqlite_synchronous=synchronous)
    clock = Clock()
    clock.now = template.now
    master = GameMaster(storage, clock=clock)
    outbox = Outbox(storage.engine)
    notifier = None
    if variant != "absent":
        channel = EmailChannel(SmtpSettings.parse(f"smtp://{HOST}:{port}?from=risk@example.org"))
        notifier = CountingNotifier(outbox, storage, [channel], lambda _game: set(), clock=clock)
        notifier.listen_to(master)
    if variant == "subscribed":
        for number, (game_id, tokens) in enumerate(template.tokens.items()):
            for seat, token in enumerate(tokens):
                outbox.subscribe(
                    game_id, seat, "email", address=f"seat{seat}.{number}@example.org", seat_token=token,
                    site="http://risk.test/", every_s=0.0, now=clock.now,
                )  # fmt: skip
    for game_id in template.tokens:
        master.live(game_id)  # loaded (its log replayed) before the clock starts, as a running server has
    return Table(storage, master, outbox, notifier, clock, template.tokens)


def play_move(table: Table, game_id: str) -> bool:
    """One move of the game (the server's, or a person's as the quick bot would choose); False if over."""
    master = table.master
    turn = master.bot_turn(game_id)
    if turn is not None:
        seat, state_id, decide = turn
        master.submit_as(game_id, seat, decide(), state_id)
    else:
        live = master.live(game_id)
        if live.game.is_over:
            return False
        seat = live.game.to_act
        view = View(live.game, seat)
        text = view.action_text(make_bot("quick", live.state_id).choose(view))
        master.submit(game_id, table.tokens[game_id][seat], text, live.state_id)
    table.clock.now += TICK_S
    return True


@dataclass
class Sending:
    """The notifier's own time: queueing (``flush``) and sending (``step`` after it)."""

    flush_s: float = 0.0
    send_s: float = 0.0
    queued: int = 0  # rows it queued for them
    steps: int = 0


def due_left(table: Table) -> bool:
    ready = (outbox_rows.c.status == "queued") & (outbox_rows.c.due <= table.clock.now)
    with table.storage.engine.connect() as conn:
        return conn.execute(sa.select(outbox_rows.c.id).where(ready).limit(1)).first() is not None


def drain(table: Table, sending: Sending) -> None:
    """Queue what was heard, then send until nothing due is left (a pass that only skipped stale
    rows sends nothing, yet more may be due)."""
    notifier = table.notifier
    if notifier is None:
        return
    started = time.perf_counter()
    sending.queued += notifier.flush()
    flushed = time.perf_counter()
    while True:
        sending.steps += 1
        if not notifier.step() and not due_left(table):
            break
    sending.send_s += time.perf_counter() - flushed
    sending.flush_s += flushed - started


def run(
    folder: Path,
    variant: str,
    args: argparse.Namespace,
    template: Template,
    inbox: Inbox,
    port: int,
    moves: int | None,
    advance: Callable[[int], None],
) -> dict[str, Any]:
    """A copy of the template's games, then ``moves`` moves (or ``args.seconds`` of them) timed with
    the notifier stepped in line; the figures of the run."""
    made = time.perf_counter()
    table = build(folder, variant, template, port, args.synchronous)
    # The server's start (the sweep: each subscribed seat told whose move it is) is not a move's cost.
    drain(table, Sending())
    built = time.perf_counter()
    games = list(table.tokens)
    sending = Sending()
    messages_before = inbox.messages
    heard_before = table.notifier.heard_events if table.notifier else 0
    played = 0
    playing = list(games)
    started = time.perf_counter()
    deadline = started + (args.seconds or 0)

    def more() -> bool:
        return played < moves if moves is not None else time.perf_counter() < deadline

    while playing and more():
        still = []
        for game_id in playing:
            if not more():
                break
            if play_move(table, game_id):
                still.append(game_id)
                played += 1
                if played % args.step_every == 0:
                    drain(table, sending)
                    advance(args.step_every)
        playing = still
    drain(table, sending)
    wall = time.perf_counter() - started
    counts = table.outbox.counts()
    later = (outbox_rows.c.status == "queued") & (outbox_rows.c.due > table.clock.now)
    with table.storage.engine.connect() as conn:
        not_due = conn.execute(sa.select(sa.func.count()).where(later)).scalar_one()
    messages = inbox.messages - messages_before
    events = (table.notifier.heard_events if table.notifier else 0) - heard_before
    table.storage.close()
    return {
        "variant": variant,
        "games": len(games),
        "moves": played,
        "build_s": round(built - made, 3),
        "wall_s": round(wall, 3),
        "us_per_move": wall / played * 1e6,
        "actions_per_s": played / wall,
        "notifier_s": round(sending.flush_s + sending.send_s, 3),
        "events": events,  # heard by the listener, each handed to the outbox by a flush
        "events_per_flush_s": events / sending.flush_s if sending.flush_s else 0.0,
        "rows_queued": sending.queued,
        "queued_per_flush_s": sending.queued / sending.flush_s if sending.flush_s else 0.0,
        "messages": messages,
        "sent_per_send_s": messages / sending.send_s if sending.send_s else 0.0,
        "queued_per_s": sending.queued / wall,
        "sent_per_s": messages / wall,
        "steps": sending.steps,
        "outbox": counts,
        "queued_not_due": not_due,  # reminders for a quarter of a day before a deadline
    }


def spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def summarise(runs: list[dict[str, Any]], variants: list[str]) -> dict[str, Any]:
    by: dict[str, list[dict[str, Any]]] = {v: [r for r in runs if r["variant"] == v] for v in variants}
    summary: dict[str, Any] = {
        v: {
            "us_per_move": spread([r["us_per_move"] for r in rows]),
            "actions_per_s": spread([r["actions_per_s"] for r in rows]),
        }
        for v, rows in by.items()
    }
    # Paired by round: the two runs of a round saw the same load, so their difference has less noise.
    for more, less in [("subscribed", "none"), ("subscribed", "absent"), ("none", "absent")]:
        if less in by:
            pairs = zip(by[more], by[less], strict=True)
            summary[f"{more}-{less}_us"] = spread([m["us_per_move"] - n["us_per_move"] for m, n in pairs])
    told = by["subscribed"]
    summary["events_per_flush_s"] = spread([r["events_per_flush_s"] for r in told])
    summary["queued_per_flush_s"] = spread([r["queued_per_flush_s"] for r in told])
    summary["sent_per_send_s"] = spread([r["sent_per_send_s"] for r in told])
    summary["queued_per_s"] = spread([r["queued_per_s"] for r in told])
    summary["sent_per_s"] = spread([r["sent_per_s"] for r in told])
    return summary


def report(result: dict[str, Any]) -> str:
    s = result["summary"]
    told = [r for r in result["runs"] if r["variant"] == "subscribed"][-1]
    lines = [
        f"{result['games']} games (2 people + 1 quick bot, one-day turns), {told['moves']} moves a run, "
        f"{result['rounds']} rounds, SQLite synchronous={result['synchronous']}, step every "
        f"{result['step_every']} moves; Python {result['python']}, {result['cpus']} CPUs, "
        f"load {result['load_before']:.2f} -> {result['load_after']:.2f}",
        f"{'variant':<12} {'us/move':>24} {'actions/s':>24}",
    ]
    for variant in result["variants"]:
        us, rate = s[variant]["us_per_move"], s[variant]["actions_per_s"]
        lines.append(
            f"{variant:<12} {us['median']:>8.0f} ({us['min']:.0f}-{us['max']:.0f})"
            f"{'':>2} {rate['median']:>8.0f} ({rate['min']:.0f}-{rate['max']:.0f})"
        )
    for key in [k for k in s if k.endswith("_us")]:
        d = s[key]
        lines.append(
            f"added: {key.removesuffix('_us')} {d['median']:+.0f} us/move "
            f"(per round {d['min']:+.0f} to {d['max']:+.0f})"
        )
    e, q, m = s["events_per_flush_s"], s["queued_per_flush_s"], s["sent_per_send_s"]
    lines += [
        f"events heard: {told['events']} a run; {e['median']:.0f}/s of queueing time "
        f"({e['min']:.0f}-{e['max']:.0f})",
        f"rows queued: {told['rows_queued']} a run; {s['queued_per_s']['median']:.0f}/s of the run, "
        f"{q['median']:.0f}/s of queueing time ({q['min']:.0f}-{q['max']:.0f})",
        f"messages sent (received by the SMTP server): {told['messages']} a run; "
        f"{s['sent_per_s']['median']:.0f}/s of the run, {m['median']:.0f}/s of sending time "
        f"({m['min']:.0f}-{m['max']:.0f})",
        f"outbox at the end (the start's sweep too): {told['outbox']}, of the queued "
        f"{told['queued_not_due']} not due yet (reminders)",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games on the server (default 1000)")
    bound = parser.add_mutually_exclusive_group()
    bound.add_argument("--moves", type=int, help="moves a run, over all games (default 20000)")
    bound.add_argument(
        "--seconds", type=float, help="the first run plays this long; the others play as many moves"
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the variants (default 3)")
    parser.add_argument("--step-every", type=int, default=100, help="moves between notifier passes")
    parser.add_argument("--synchronous", choices=("FULL", "NORMAL"), default="FULL")
    parser.add_argument("--no-absent", action="store_true", help="leave out the run without a notifier")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.games < 1 or args.rounds < 1 or args.step_every < 1 or (args.moves or 1) < 1:
        print("bench_notify: --games, --rounds, --step-every and --moves must be at least 1", file=sys.stderr)
        return 2
    moves: int | None = args.moves if args.moves or args.seconds else 20000
    variants = [v for v in VARIANTS if not (args.no_absent and v == "absent")]
    load_before = os.getloadavg()[0]
    runs: list[dict[str, Any]] = []
    console = Console(stderr=True)
    progress = Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=console, transient=True, disable=not console.is_terminal,
    )  # fmt: skip
    with smtp_server() as (inbox, port), tempfile.TemporaryDirectory() as tmp, progress:
        made = time.perf_counter()
        setup = progress.add_task("setup of the games", total=args.games * SETUP_MOVES)
        template = make_template(Path(tmp), args.games, lambda n: progress.advance(setup, n))
        setup_s = time.perf_counter() - made
        progress.remove_task(setup)
        total = (moves or 0) * args.rounds * len(variants)
        task = progress.add_task("moves", total=total or None)
        for number in range(args.rounds):
            shift = number % len(variants)
            for variant in variants[shift:] + variants[:shift]:
                folder = Path(tmp) / f"round{number}"
                folder.mkdir(exist_ok=True)
                progress.update(task, description=f"round {number + 1} {variant}")
                figures = run(
                    folder, variant, args, template, inbox, port, moves, lambda n: progress.advance(task, n)
                )
                runs.append(figures)
                shutil.rmtree(folder)  # a copy of 1000 games: not kept for the next
                if moves is None:  # --seconds: the first run's count for every other run
                    moves = figures["moves"]
                    progress.update(task, total=moves * args.rounds * len(variants), completed=moves)
    result = {
        "games": args.games,
        "rounds": args.rounds,
        "step_every": args.step_every,
        "synchronous": args.synchronous,
        "setup_s": round(setup_s, 1),
        "variants": variants,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_before": load_before,
        "load_after": os.getloadavg()[0],
        "addresses_reached": len(inbox.recipients),
        "summary": summarise(runs, variants),
        "runs": runs,
    }
    print(json.dumps(result, indent=1) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
