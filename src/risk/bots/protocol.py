"""The bot protocol: a bot in another process, in any language, plays over stdin/stdout lines.

In the spirit of UCI (see ``docs/protocol.md``). The engine writes, the bot answers:

    risk-protocol 1                   engine: hello; the bot answers "ready [its name]"
    seat 2                            engine: the bot's player number (0-based, as everywhere)
    seed 12345                        engine: a seed, for bots that want to replay exactly
    board {...}                       engine: the board as one line of JSON (slugs, names, neighbours)
    view {...}                        engine: the player's view as one line of JSON
    legal attack kamchatka alaska 1..3
    legal endattack                   engine: the legal actions, one line each (N..M: any count)
    go 1000                           engine: decide within 1000 ms
    action attack kamchatka alaska 3  bot: its action, in the action notation
    gameover 1                        engine: the winner's number, or "none"
    quit                              engine: the bot exits

Any other line from the bot (``info ...`` for example) and its standard error go to the bot's log
file when it has one (a tournament's ``log/`` folder, capped at ``BOT_LOG_CAP`` bytes), else nowhere.
A bot that crashes, does not answer within its time budget, or answers with an action that does
not parse or is not legal is stopped with a log line, and the random bot plays its seat for the rest
of the game: a broken bot never breaks a game or a tournament.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

from risk.bots.base import Bot
from risk.bots.random_bot import RandomBot
from risk.errors import RiskError
from risk.maps import SYMBOLS, Board
from risk.rules.actions import Action
from risk.view import View

PROTOCOL_VERSION = 1
HELLO = f"risk-protocol {PROTOCOL_VERSION}"
DEFAULT_TIME_BUDGET = 2.0
DEFAULT_STARTUP_TIMEOUT = 10.0
BOT_LOG_CAP = 1_000_000  # bytes of one bot's log file (one game): a chatty bot cannot fill the disk
LOG_LINE_LIMIT = 10_000  # characters read as one line of a bot's standard error: longer lines are cut
ENGINE_WORDS = ("ready", "action")  # the bot's lines the engine reads; every other line is logged
MAX_NAME = 40  # characters of a bot's name (from its greeting, or its program's file name)


def name_word(text: str) -> str:
    """A bot's name as one word for records and tables: letters, digits, ``_`` ``:`` and ``.`` kept,
    every run of other characters one ``-``, no ``-`` or ``.`` at either end, at most 40 characters
    (``My Bot 2.0!`` -> ``My-Bot-2.0``); "" when nothing is left."""
    word = "".join(ch if ch.isalnum() or ch in "_:." else "-" for ch in text)
    word = "-".join(part for part in word.split("-") if part)
    return word.strip("-.")[:MAX_NAME].strip("-.")


def is_external(spec: str) -> bool:
    """A ``--bots`` entry that names a program rather than a built-in bot."""
    return "/" in spec or spec.startswith(".") or os.sep in spec


def external_command(spec: str) -> list[str]:
    """The command line for an external bot: a path (and arguments); ``.py`` files that are not
    executable run with this Python, ``.js`` files with ``node``."""
    parts = shlex.split(spec)
    if not parts:
        raise ValueError("an external bot needs a program path")
    program = Path(parts[0])
    if not program.exists():
        raise ValueError(f"no bot program at {parts[0]}")
    # Refused here, with the reason, rather than at each game's start (where the random bot takes the seat).
    if program.is_dir():
        raise ValueError(f"{parts[0]}: is a folder, not a bot program")
    if program.stat().st_size == 0:
        raise ValueError(f"{parts[0]}: is empty, not a bot program")
    interpreter = {".py": sys.executable, ".js": "node"}.get(program.suffix)
    if interpreter is not None and not os.access(program, os.X_OK):
        if not os.access(program, os.R_OK):
            raise ValueError(f"{parts[0]}: cannot read it (permission denied)")
        return [interpreter, str(program), *parts[1:]]
    if not os.access(program, os.X_OK):
        raise ValueError(f"{parts[0]}: not executable (chmod +x it, or give a .py or .js file)")
    return parts


def legal_lines(actions: Iterable[Action], view: View) -> list[str]:
    """The ``legal`` lines: one per action, actions that differ only in their final count merged
    into one line with a range ``N..M`` (placements, dice, moves)."""
    prefixes: dict[str, list[int]] = {}
    for action in actions:
        text = view.action_text(action)
        head, _, last = text.rpartition(" ")
        if head and last.isdigit():
            prefixes.setdefault(head, []).append(int(last))
        else:
            prefixes.setdefault(text, [])
    lines = []
    for head, counts in prefixes.items():
        if not counts:
            lines.append(f"legal {head}")
            continue
        counts.sort()
        start = previous = counts[0]
        for count in [*counts[1:], None]:
            if count is not None and count == previous + 1:
                previous = count
                continue
            span = str(start) if start == previous else f"{start}..{previous}"
            lines.append(f"legal {head} {span}")
            if count is not None:
                start = previous = count
    return lines


def board_message(board: Board) -> dict[str, Any]:
    """The ``board`` message (docs/protocol.md, "The board"): the board in the names actions use.
    Each territory has its slug beside its display name (the view's); its neighbours (border and sea)
    and a continent's territories are slugs; the number of wild cards is given. Territories stay in
    board order, the order of the view's."""
    return {
        "name": board.name,
        "territories": [
            {
                "name": t.name,
                "continent": board.continents[t.continent].name,
                "card": SYMBOLS[t.card_symbol],
                "island": t.index in board.islands,
                "slug": board.slug_of(t.index),
                "neighbours": [board.slug_of(n) for n in board.neighbours[t.index]],
            }
            for t in board.territories
        ],
        "continents": [
            {"name": c.name, "bonus": c.bonus, "territories": [board.slug_of(i) for i in c.territories]}
            for c in board.continents
        ],
        "wild_cards": len(board.wild_cards),
    }


class BotLog:
    """A bot's debugging output for one game in a file: its ``info`` (and other unread) lines as
    written, its standard error as ``stderr ...`` lines, and why the engine stopped it, if it did.

    The file is made (emptied) when the bot starts and stops growing at ``cap`` bytes (a last line
    says so); a file that cannot be written is given up silently: debugging output never stops a game."""

    def __init__(self, path: Path, cap: int = BOT_LOG_CAP) -> None:
        self.path = path
        self.cap = cap
        self._file: IO[bytes] | None = None
        self._written = 0
        self._done = False  # closed, full, or not writable: later lines are dropped
        self._lock = threading.Lock()  # two threads write: the bot's output and its error

    def open(self) -> None:
        """Make the file, empty: a stale file of an earlier tournament in the same folder goes."""
        with self._lock:
            self._opened()

    def write(self, line: str) -> None:
        data = (line + "\n").encode("utf-8", "replace")
        with self._lock:
            if self._done:
                return
            if self._written + len(data) > self.cap:
                data = f"risk: this log reached its cap of {self.cap} bytes; the rest is dropped\n".encode()
                self._done = True
            file = self._opened()
            try:
                if file is not None:
                    file.write(data)
                    self._written += len(data)
            except OSError:
                self._done = True  # an unwritable log is given up: the game goes on

    def _opened(self) -> IO[bytes] | None:
        if self._file is None and not self._done:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._file = self.path.open("wb", buffering=0)  # unbuffered: whole lines, at once
            except OSError:
                self._done = True
        return self._file

    def close(self) -> None:
        with self._lock:
            self._done = True
            if self._file is not None:
                self._file.close()
                self._file = None


class BotFailure(Exception):
    """The external bot crashed, timed out or broke the protocol; the message says how."""


class ExternalBot(Bot):
    """A bot in another process, played through the line protocol.

    The process starts at the first decision and is killed by :meth:`close`. After any failure the
    seat is played by the random bot (seeded from this bot's seed) and a line is logged. With
    ``log_file``, the bot's ``info`` lines and standard error are kept there (:class:`BotLog`);
    without, they are dropped.
    """

    name = "external"
    description = "a program speaking the risk line protocol over stdin/stdout"

    def __init__(
        self,
        command: str | list[str],
        seed: int = 0,
        *,
        time_budget: float = DEFAULT_TIME_BUDGET,
        startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
        label: str | None = None,
        log: Callable[[str], None] | None = None,
        log_file: Path | None = None,
    ) -> None:
        super().__init__(seed)
        self.command = external_command(command) if isinstance(command, str) else list(command)
        self.label = label or (command if isinstance(command, str) else " ".join(command))
        self.time_budget = time_budget
        self.startup_timeout = startup_timeout
        self.log_lines: list[str] = []
        self._log_callback = log
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._fallback: Bot | None = None
        self._view: View | None = None
        self._bot_log = None if log_file is None else BotLog(log_file)
        self._readers: list[threading.Thread] = []  # of the bot's output and error streams
        self.bot_name = ""  # the name the bot gave in its greeting (``ready NAME``), as one word
        self.decisions = 0
        self._seated = False  # told its seat, seed and board
        self._greeting_failure: str | None = None  # why :meth:`greet` failed, reported at the first decision

    @property
    def failed(self) -> bool:
        return self._fallback is not None

    # -- the Bot interface ---------------------------------------------------------------------
    def choose(self, view: View) -> Action:
        self._view = view
        if self._fallback is not None:
            return self._fallback.choose(view)
        self.decisions += 1
        try:
            if self._greeting_failure is not None:
                raise BotFailure(self._greeting_failure)
            if not self._seated:
                self._start(view)
            return self._decide(view)
        except BotFailure as failure:
            self._fail(view, str(failure))
            assert self._fallback is not None
            return self._fallback.choose(view)

    def close(self) -> None:
        """Tell the bot the result, ask it to quit, make sure the process is gone, close its log."""
        process = self._process
        self._process = None
        if process is not None:
            self._stop(process)
        self._close_log()

    def _stop(self, process: subprocess.Popen[str]) -> None:
        if process.poll() is None:
            winner = None if self._view is None else self._view.winner
            try:
                assert process.stdin is not None
                process.stdin.write(f"gameover {'none' if winner is None else winner}\nquit\n")
                process.stdin.flush()
                process.stdin.close()
            except (OSError, ValueError):
                pass  # the bot has already closed its end: it is killed below if it lingers
            try:
                process.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                process.kill()
        if process.poll() is None:
            process.kill()
        process.wait()

    def _close_log(self) -> None:
        self._join_readers()
        if self._bot_log is not None:
            self._bot_log.close()

    def _join_readers(self) -> None:
        """Wait for the stopped bot's last lines to reach its log."""
        for reader in self._readers:
            # Each stream ends with the process, unless a child of the bot still holds it open.
            reader.join(timeout=1.0)
        self._readers = []

    def __del__(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.kill()

    def greet(self) -> str:
        """Start the program and exchange the greeting now, before the game is made (a tournament
        names the player after it): the name the bot gives (``ready NAME``, as :func:`name_word`
        makes it one word), or "" if it gives none. A bot that fails to start or to answer is
        reported at its first decision, as any failure (the random bot plays its seat)."""
        if self._process is None and self._greeting_failure is None:
            try:
                self._launch()
            except BotFailure as failure:
                self._greeting_failure = str(failure)
        return self.bot_name

    # -- the conversation ------------------------------------------------------------------------
    def _start(self, view: View) -> None:
        if self._process is None:
            self._launch()
        board = json.dumps(board_message(view.board), separators=(",", ":"))
        self._send(f"seat {view.player}", f"seed {self.seed}", f"board {board}")
        self._seated = True

    def _launch(self) -> None:
        """Start the program and wait for its ``ready``."""
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL if self._bot_log is None else subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",  # a stray byte is a bad line, not a dead reader thread
                bufsize=1,
            )
        except OSError as error:
            raise BotFailure(f"could not start {' '.join(self.command)}: {error.strerror}") from None
        self._readers = [threading.Thread(target=self._read, args=(self._process,), daemon=True)]
        if self._bot_log is not None:
            self._bot_log.open()
            self._readers.append(
                threading.Thread(target=self._read_errors, args=(self._process, self._bot_log), daemon=True)
            )
        for reader in self._readers:
            reader.start()
        self._send(HELLO)
        reply = self._expect("ready", self.startup_timeout, "the greeting")
        self.bot_name = name_word(reply.partition(" ")[2])

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for raw in process.stdout:
            line = raw.rstrip("\r\n")
            if self._bot_log is not None and line.strip().partition(" ")[0] not in ENGINE_WORDS:
                self._bot_log.write(line)
            self._lines.put(line)
        self._lines.put(None)  # end of output: the bot exited

    @staticmethod
    def _read_errors(process: subprocess.Popen[str], bot_log: BotLog) -> None:
        """Copy the bot's standard error into its log, and keep draining it once the log is full:
        a bot blocked on a full pipe would look like a bot that does not answer."""
        stream = process.stderr
        assert stream is not None
        for line in iter(lambda: stream.readline(LOG_LINE_LIMIT), ""):
            bot_log.write("stderr " + line.rstrip("\r\n"))

    def _send(self, *lines: str) -> None:
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write("".join(line + "\n" for line in lines))
            process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise BotFailure(self._exit_reason()) from None

    def _expect(self, keyword: str, timeout: float, waiting_for: str) -> str:
        """The next line starting with ``keyword`` (other lines are ignored), within ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BotFailure(f"no answer to {waiting_for} within {timeout:g} s")
            try:
                line = self._lines.get(timeout=remaining)
            except queue.Empty:
                raise BotFailure(f"no answer to {waiting_for} within {timeout:g} s") from None
            if line is None:
                raise BotFailure(self._exit_reason())
            word = line.strip().partition(" ")
            if word[0] == keyword:
                return line.strip()

    def _exit_reason(self) -> str:
        process = self._process
        if process is None:
            return "the bot is not running"
        try:
            code = process.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            return "the bot closed its output"
        return f"the bot exited (code {code})"

    def _decide(self, view: View) -> Action:
        actions = view.legal_actions()
        view_json = json.dumps(view.to_dict(), separators=(",", ":"))
        self._send(f"view {view_json}", *legal_lines(actions, view), f"go {round(self.time_budget * 1000)}")
        what = f"decision {self.decisions} ({view.phase.name.lower()})"
        reply = self._expect("action", self.time_budget, what)
        text = reply.partition(" ")[2].strip()
        try:
            action = view.parse(text)
        except RiskError as error:
            raise BotFailure(f"sent {text!r}, which is not an action: {error}") from None
        if not view.is_legal(action):
            try:
                view.check(action)
                why = "not legal now"
            except RiskError as error:
                why = str(error)
            raise BotFailure(f"sent an illegal action {text!r}: {why}")
        return action

    def _fail(self, view: View, reason: str) -> None:
        message = (
            f"bot {self.label} (seat {view.player}, turn {view.turn}): {reason}; "
            "the random bot plays this seat for the rest of the game"
        )
        self.log_lines.append(message)
        if self._log_callback is not None:
            self._log_callback(message)
        self._fallback = RandomBot(self.seed)
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
        if self._process is not None:
            self._process.wait()
        self._process = None
        self._join_readers()  # a crash's last words (a traceback, say) come before the reason
        if self._bot_log is not None:
            self._bot_log.write(f"risk: {message}")


__all__ = [
    "BOT_LOG_CAP",
    "HELLO",
    "PROTOCOL_VERSION",
    "BotFailure",
    "BotLog",
    "ExternalBot",
    "board_message",
    "external_command",
    "is_external",
    "legal_lines",
    "name_word",
]
