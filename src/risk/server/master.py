"""The game master: the one place that accepts or refuses an action. A plain class, no HTTP.

For each submitted action it checks, in this order: the token, that the game is not over (nor waiting
for players), that it is this seat's turn, that the action is legal, and that the state id is the
current one. Then it applies the action, stores it (the commit point), and only then acknowledges.
Every refusal is a :class:`Refusal` with a code and a message that says what was wrong; a refusal
changes nothing. Games are read through :class:`~risk.view.View` only, and the log is public words.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from risk.bots import Bot, bot_choices, bot_label, is_bot_name, make_bot
from risk.bots.protocol import ExternalBot, external_command
from risk.errors import IllegalActionError, NotationError, RecordError, RiskError
from risk.history import summarize
from risk.maps import (
    MAX_MAP_BYTES,
    Board,
    MapError,
    available_maps,
    board_from_json,
    canonical_json,
    load_map,
    problems_summary,
    shipped_board,
)
from risk.maps.validate import board_problems
from risk.play.simulate import bot_seed
from risk.record import write_record
from risk.rounds import count_rounds
from risk.rules.actions import Attack
from risk.rules.determinise import in_the_open
from risk.rules.game import PHASE_NAMES, Game, Phase, unshown_in_name
from risk.rules.options import GAMES, PRESETS, Rules
from risk.server.auth import hash_token, new_token
from risk.server.blitz import BlitzPlan, BlitzRun, Defence, most_dice, run_blitz, strength
from risk.server.boards import board_of_game
from risk.server.clock import ClockHooks, careful_choice, timing
from risk.server.errors import Refusal, Unloadable, store_failed
from risk.server.hooks import TableHooks
from risk.server.live import LiveGame
from risk.server.seatprefs import (
    SETUP_PHASES,
    SeatPrefs,
    attack_key,
    creation_prefs,
    game_pace,
    move_delay,
    queued_placement,
    standing_defence,
    with_answer,
)
from risk.server.seats import SeatHooks
from risk.server.steps import apply_narrated as _apply
from risk.server.steps import is_resignation, opening_log, own_resignation
from risk.server.storage import (
    ActionRecord,
    GameRecord,
    Progress,
    SeatRecord,
    StaleWrite,
    Storage,
    StorageError,
)
from risk.server.timing import DEFAULT_MISSED_TURNS, defending, server_plays, timing_settings
from risk.server.undo import (
    Checkpoint,
    Undo,
    effective_entries,
    may_take_back,
    reveals_nothing,
    undo_lines,
    undo_target,
    undo_text,
)
from risk.view import SPECTATOR, View

log = logging.getLogger("risk.server")

SEAT_KINDS = ("human", "open", "bot", "external")
SPECTATOR_VIEWS = ("fogged", "open")
MAX_NAME = 24
DEFAULT_BOT_DELAY = 0.6
DEFAULT_DEFEND_TIMEOUT = 30.0


def new_game_id() -> str:
    return secrets.token_urlsafe(6)


def new_host(spec: GameSpec) -> str:
    """A host token for a game about to be created: kept (hashed) in the spec, answered once."""
    token = new_token()
    spec.host_hash = hash_token(token)
    return token


@dataclass
class SeatSpec:
    kind: str
    name: str = ""
    bot: str | None = None  # bot name, or the command of an external bot
    # A human seat's own settings (risk.server.seatprefs); None: the defaults.
    defence: str | None = None
    pace: str | None = None
    auto_setup: bool = False  # place my starting armies (and claims) for me


@dataclass
class GameSpec:
    edition: str = "2008"
    game: str = "world"
    options: dict[str, str] = field(default_factory=dict)
    seats: list[SeatSpec] = field(default_factory=list)
    public: bool = True
    seed: int | None = None
    bot_delay: float = DEFAULT_BOT_DELAY
    defend_timeout: float = DEFAULT_DEFEND_TIMEOUT
    # A shipped board by name, or a board given as its JSON data (docs/boards.md): validated, at most
    # 1 MiB, and stored with the game.
    board: str | dict[str, Any] = "classic"
    # The turn clock and seats (risk.server.clock, risk.server.seats):
    turn_time: float = 0.0
    missed_turns: int = DEFAULT_MISSED_TURNS
    stand_in: str = "quick"
    host_hash: str | None = None
    spectators: bool = True  # anyone with the watch link may watch (docs/web.md, "Spectators")
    # Fog of war: what spectators see while the game runs: "fogged", no territory (the fog of no one),
    # or "open", the whole board (docs/server.md, "Fog of war").
    spectator_view: str = "fogged"


@dataclass(frozen=True)
class CreatedSeat:
    seat: int
    name: str
    kind: str
    token: str | None


def _clean_name(name: str, what: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise Refusal("bad-request", f"{what} needs a name")
    if len(name) > MAX_NAME:
        raise Refusal("bad-request", f"the name {name[:MAX_NAME]!r}... is longer than {MAX_NAME} characters")
    if re.search(r'[,"\n\\]', name):
        raise Refusal("bad-request", f"the name {name!r} may not contain commas, quotes or backslashes")
    if problem := unshown_in_name(name):
        raise Refusal("bad-request", problem)
    return name


def _trim_log(live: LiveGame) -> None:
    """Let the log drop its oldest lines, but none an undo may still cut back to."""
    live.log.trim(min((point.log_length for point in live.undo_points), default=None))


def _progress(live: LiveGame, game: Game | None = None) -> Progress:
    game = game or live.game
    status = "over" if game.is_over else ("waiting" if live.waiting else "playing")
    return Progress(
        status=status,
        winner=game.winner,
        turn=game.turn,
        to_act=None if game.is_over else game.to_act,
        defending=defending(game),
    )


def spec_board(spec: GameSpec) -> Board:
    """The board of a game being made: a shipped board by name (never a path: the server reads no
    file a request names), or a board given as JSON data, checked by the validator (the same checks
    as ``risk board validate``) and at most :data:`MAX_MAP_BYTES` as canonical JSON."""
    if isinstance(spec.board, str):
        if spec.board not in available_maps():
            raise Refusal(
                "bad-request",
                f"no board {spec.board!r}; boards: {', '.join(available_maps())} "
                "(or a board given as a JSON object, docs/boards.md)",
            )
        return load_map(spec.board)
    if not isinstance(spec.board, dict):
        raise Refusal("bad-request", "the board is a shipped board's name or a board as a JSON object")
    try:
        text = canonical_json(spec.board)
    except (TypeError, ValueError, RecursionError):
        raise Refusal("bad-request", "the board is not JSON data: give it as a JSON object") from None
    if len(text.encode("utf-8")) > MAX_MAP_BYTES:
        raise Refusal(
            "too-large",
            f"the board is larger than {MAX_MAP_BYTES // 1024 // 1024} MiB, the largest board taken",
        )
    problems = board_problems(spec.board)
    if problems:  # the lobby's words for an upload the validator refuses (risk.server.boards)
        summary = problems_summary([str(problem) for problem in problems])
        raise Refusal("bad-request", f"the board is not valid: {summary}")
    try:
        return board_from_json(text, "the board")
    except MapError as error:
        raise Refusal("bad-request", str(error)) from None


def record_board(record: GameRecord) -> Board | str:
    """A stored game's board: the one stored with it, or the shipped board's name (risk.server.boards)."""
    return record.board if record.board_sha256 is None else board_of_game(record)


class GameMaster:
    """Creates games, accepts actions, and answers what each seat may see."""

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Callable[[], float] = time.time,
        allow_external_bots: bool = False,
        hooks: Sequence[TableHooks] | None = None,
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.allow_external_bots = allow_external_bots
        # The modules plugged into the master (risk.server.hooks), called in this order.
        self.hooks: tuple[TableHooks, ...] = (SeatHooks(), ClockHooks()) if hooks is None else tuple(hooks)
        self._live: dict[str, LiveGame] = {}
        # One lock per game being loaded (with how many threads want it): two first requests for a
        # game replay it once, and games load side by side.
        self._loads: dict[str, tuple[threading.Lock, list[int]]] = {}
        self._loads_guard = threading.Lock()

    # -- creating and joining --------------------------------------------------------------------
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
        if not 0 <= spec.bot_delay <= 10:
            raise Refusal("bad-request", "bot_delay is seconds between 0 and 10")
        if not 0 <= spec.defend_timeout <= 3600:
            raise Refusal("bad-request", "defend_timeout is seconds between 0 (never) and 3600")
        if spec.spectator_view not in SPECTATOR_VIEWS:
            raise Refusal(
                "bad-request",
                f"no spectator view {spec.spectator_view!r}; under fog of war spectators see: "
                "fogged (no territory while the game runs) or open (the whole board)",
            )
        seats: list[SeatRecord] = []
        created: list[CreatedSeat] = []
        for index, seat in enumerate(spec.seats):
            kind = seat.kind.strip().lower()
            if kind not in SEAT_KINDS:
                raise Refusal(
                    "bad-request",
                    f"seat {index + 1}: no seat kind {seat.kind!r}; kinds: {', '.join(SEAT_KINDS)}",
                )
            token: str | None = None
            bot = None
            prefs: dict[str, Any] = {}
            if kind != "human" and (seat.defence or seat.pace or seat.auto_setup):
                raise Refusal(
                    "bad-request",
                    f"seat {index + 1}: defence, pace and auto_setup are a human seat's settings",
                )
            if kind == "bot":
                bot = (seat.bot or "").strip().lower()
                if not is_bot_name(bot):
                    raise Refusal(
                        "bad-request", f"seat {index + 1}: no bot or level {seat.bot!r}; {bot_choices()}"
                    )
                name = _clean_name(seat.name or f"{bot.capitalize()} {index + 1}", f"seat {index + 1}")
            elif kind == "external":
                if not self.allow_external_bots:
                    raise Refusal(
                        "bad-request", "external bots need the server started with --allow-external-bots"
                    )
                bot = (seat.bot or "").strip()
                try:
                    external_command(bot)
                except ValueError as error:
                    raise Refusal("bad-request", f"seat {index + 1}: {error}") from None
                name = _clean_name(seat.name or f"Bot {index + 1}", f"seat {index + 1}")
            elif kind == "open":
                name = f"Seat {index + 1}"
            else:
                name = _clean_name(seat.name or f"Player {index + 1}", f"seat {index + 1}")
                token = new_token()
                prefs = creation_prefs(seat.defence, seat.pace, seat.auto_setup)
            seats.append(
                SeatRecord(index, name, kind, bot, None if token is None else hash_token(token), prefs=prefs)
            )
            created.append(CreatedSeat(index, name, kind, token))
        names = [s.name for s in seats]
        if len(set(n.lower() for n in names)) != len(names):
            raise Refusal("bad-request", f"the players need different names: {', '.join(names)}")
        seed = spec.seed if spec.seed is not None else secrets.randbelow(2**63)
        if not 0 <= seed < 2**63:
            raise Refusal("bad-request", "the seed is a whole number from 0 to 2**63 - 1")
        now = self.clock()
        record = GameRecord(
            id=new_game_id(),
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
                **timing_settings(spec.turn_time, spec.missed_turns, spec.stand_in),
                "spectators": spec.spectators,
                "spectator_view": spec.spectator_view,
            },
            created=now,
            updated=now,
            status="waiting" if any(s.kind == "open" for s in seats) else "playing",
            host_hash=spec.host_hash,
        )
        try:
            game = self._new_game(record)  # the engine accepts these rules, names and board
        except RiskError as error:
            raise Refusal("bad-request", str(error)) from None
        record = replace(record, to_act=game.to_act)
        self._store(lambda: self.storage.create_game(record))
        return record, created

    def join(self, game_id: str, seat: int, name: str) -> str:
        """Take an open seat; answers the new seat's token."""
        live = self.live(game_id)
        name = _clean_name(name, "a player joining")
        with live.lock:
            seats = live.record.seats
            if not 0 <= seat < len(seats):
                raise Refusal("bad-request", f"no seat {seat}: the game has seats 0 to {len(seats) - 1}")
            if seats[seat].kind != "open":
                raise Refusal("seat-taken", f"seat {seat} is not open: {seats[seat].name} has it")
            if any(s.name.lower() == name.lower() for s in seats if s.seat != seat and s.kind != "open"):
                raise Refusal("bad-request", f"{name!r} is already playing in this game: choose another name")
            token = new_token()
            taken = SeatRecord(seat, name, "human", None, hash_token(token))
            new_seats = tuple(taken if s.seat == seat else s for s in seats)
            record = replace(live.record, seats=new_seats)
            status = "waiting" if any(s.kind == "open" for s in new_seats) else "playing"
            self._store(lambda: self.storage.update_seat(game_id, taken, status))
            live.record = replace(record, status=status)
            # No action is accepted while seats are open, so the game can take the final names.
            live.game = self._new_game(live.record)
            live.log = opening_log(live.game)
            for plugged in self.hooks:
                plugged.after_change(self, live, self.clock(), fresh=True)  # the clock starts with the game
        return token

    # -- loading ---------------------------------------------------------------------------------
    def _new_game(self, record: GameRecord) -> Game:
        return Game(
            Rules.from_description(record.rules),
            [s.name for s in record.seats],
            seed=record.seed,
            board=record_board(record),
        )

    def live(self, game_id: str) -> LiveGame:
        """The game in memory; one out of memory is read from the store and replayed first (blocking:
        the web app calls this in a worker thread for a game that is not loaded)."""
        live = self._live.get(game_id)
        if live is not None:
            return live
        with self._loading(game_id):
            live = self._live.get(game_id)  # loaded by the thread that had the lock before
            if live is None:
                live = self._load(game_id)
                self._live[game_id] = live
            return live

    @contextlib.contextmanager
    def _loading(self, game_id: str) -> Iterator[None]:
        """Hold the game's load lock; the lock is dropped once no thread wants it."""
        with self._loads_guard:
            lock, users = self._loads.setdefault(game_id, (threading.Lock(), [0]))
            users[0] += 1
        try:
            with lock:
                yield
        finally:
            with self._loads_guard:
                users[0] -= 1
                if not users[0]:
                    del self._loads[game_id]

    def _load(self, game_id: str) -> LiveGame:
        """Read the game and replay its stored actions into a live game: the same dice, cards, log and
        clock as before. One that does not replay is refused (:class:`Unloadable`), never half-loaded."""
        started = time.perf_counter()
        record = self._store(lambda: self.storage.get_game(game_id))
        if record is None:
            raise Refusal("not-found", f"no game {game_id!r}")
        stored_entries = self._store(lambda: self.storage.actions(game_id))
        try:
            live = self._replay(record, stored_entries)
        except RiskError as error:  # stored rules, board or names the engine refuses
            raise Unloadable(game_id, str(error)) from None
        log.info(
            "game %s loaded: %d stored actions replayed in %.0f ms",
            game_id,
            len(stored_entries),
            (time.perf_counter() - started) * 1000,
        )
        return live

    def _replay(self, record: GameRecord, stored_entries: list[ActionRecord]) -> LiveGame:
        game_id = record.id
        game = self._new_game(record)
        # The chance steps of the setup (the first roll, a deal) come before any action.
        opening = opening_log(game)
        live = LiveGame(record=replace(record, state_id=0), game=game, log=opening)
        try:
            entries = effective_entries(stored_entries)  # undone actions are not replayed
        except ValueError as error:
            raise Unloadable(game_id, str(error)) from None
        for entry in entries:
            # A store edited by hand (or by a release that disagreed on the rules) is refused
            # with the action that does not fit, never half-loaded.
            stored = entry.entry if isinstance(entry, Undo) else entry
            if isinstance(entry, Undo):
                problem = self._replay_undo(live, entry)
            else:
                problem = self._replay_action(live, entry)
            if problem is not None:
                raise Unloadable(
                    game_id,
                    f"stored action {stored.seq} does not fit the rules (the server's log says why)",
                    f"stored action {stored.seq} ({stored.text!r}) does not fit: {problem}",
                )
            for plugged in self.hooks:
                plugged.replayed(live, stored)
        live.record = record
        for plugged in self.hooks:
            plugged.loaded(self, live, len(opening))
        _trim_log(live)
        return live

    def loaded(self, game_id: str) -> LiveGame | None:
        """The game if it is in memory (never read from the store)."""
        return self._live.get(game_id)

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

    def catch_up(self, game_id: str) -> str | None:
        """Another server process changed the game in the store (risk.server.feed): bring the game in
        memory up to the store. Answers None if it is not in memory or nothing changed, "moved" if new
        actions were replayed (the log grew), "changed" if only its seats, clock or settings changed,
        and "reloaded" if it was read again from the start (an undo cut its log back)."""
        live = self._live.get(game_id)
        if live is None:
            return None
        with live.lock:
            if self._live.get(game_id) is not live:
                return None
            record = self._store(lambda: self.storage.get_game(game_id))
            if record is None:
                return None
            entries: list[ActionRecord] = []
            if record.state_id > live.state_id:
                entries = self._store(lambda: self.storage.actions(game_id, after=live.state_id))
            if record.state_id < live.state_id or any(undo_target(e.text) is not None for e in entries):
                self.forget(game_id)
                self.live(game_id)
                return "reloaded"
            before, log_before = live.record, len(live.log)
            for stored in entries:
                if self._replay_action(live, stored) is not None:
                    # Only if the store and this memory disagree: the store is the truth.
                    self.forget(game_id)
                    self.live(game_id)
                    return "reloaded"
                for plugged in self.hooks:
                    plugged.replayed(live, stored)
            if entries:
                # The actions were read after the game's row: more may have come in between, and the
                # live game is where the last one read left it.
                last, progress = entries[-1], _progress(live)
                record = replace(record, state_id=last.seq, updated=last.at, **asdict(progress))
            live.record = record
            if entries:
                live.blitz = None  # a blitz waiting here was answered, or overtaken, elsewhere
            for plugged in self.hooks:
                plugged.caught_up(self, live, log_before)
            _trim_log(live)
            if entries:
                return "moved"
            return "changed" if record != before else None

    def forget(self, game_id: str) -> None:
        """Drop a game from memory (it is reloaded from storage when next asked for)."""
        live = self._live.pop(game_id, None)
        if live is not None:
            for bot in live.externals.values():
                bot.close()

    def store(self, operation: Callable[[], Any]) -> Any:
        """Run one operation on the game store, for the modules plugged into the master (chat, clock,
        house rules): a store that cannot be reached is refused, nothing changed."""
        return self._store(operation)

    def _store(self, operation: Callable[[], Any]) -> Any:
        try:
            return operation()
        except StaleWrite:
            raise
        except StorageError as error:
            raise store_failed(error, "the game store could not be reached, nothing was changed") from None

    # -- who is asking ---------------------------------------------------------------------------
    def seat_of(self, game_id: str, token: str | None) -> int:
        """The seat a token holds, or SPECTATOR for no token. A wrong token is refused."""
        live = self.live(game_id)
        if token is None or token == "":
            return SPECTATOR
        digest = hash_token(token)
        found = SPECTATOR
        for seat in live.record.seats:
            # Compare every seat in constant time, so timing says nothing about the hashes.
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                found = seat.seat
        if found == SPECTATOR:
            raise Refusal("bad-token", "this link's token does not hold a seat in this game")
        return found

    # -- acting ----------------------------------------------------------------------------------
    def submit(self, game_id: str, token: str | None, text: str, state_id: int | None) -> int:
        """A player's action. Answers the new state id once the action is stored."""
        seat = self.seat_of(game_id, token)
        if seat == SPECTATOR:
            raise Refusal("bad-token", "spectators cannot act: open your seat's private link to play")
        return self.submit_player(game_id, seat, text, state_id)

    def submit_player(self, game_id: str, seat: int, text: str, state_id: int | None) -> int:
        """A player's own move (its token checked): the plugged-in modules may refuse it (a seat a
        stand-in bot plays), then it is tried as any other."""
        live = self.live(game_id)
        for plugged in self.hooks:
            plugged.check_move(live, seat, text)
        with live.lock:
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
        with live.lock:
            resigning = is_resignation(text)
            game = self._check_turn(live, seat, out_of_turn=resigning)  # a player resigns at any time
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
            except IllegalActionError as error:
                raise Refusal("illegal", str(error)) from None
            except RiskError as error:
                raise Refusal("illegal", str(error)) from None
            self._check_state(live, state_id)
            canonical = game.action_text(action)
            # Apply to a copy: the live game changes only once the action is stored.
            moved, new_lines = game.copy(), []
            _apply(moved, new_lines, canonical)
            steps = [(seat, canonical)]
            # A blitz waiting for this defence goes on at once, stored with it (fast-play).
            run = self._continue_blitz(live, game, moved, seat)
            if run is not None:
                steps += run.steps
                new_lines += run.lines
                moved = run.game
            seq = self._commit(game_id, live, steps, moved, new_lines)
            live.blitz = None if run is None else run.waiting
            return seq

    def _commit(
        self,
        game_id: str,
        live: LiveGame,
        steps: list[tuple[int, str]],
        moved: Game,
        new_lines: list[dict[str, Any]],
    ) -> int:
        """Store ``steps`` (seat, text), already applied to ``moved``, in one transaction; then, and only
        then, make ``moved`` the live game. Answers the new state id. Called with the game's lock held."""
        first, at = live.state_id + 1, self.clock()
        stored = [ActionRecord(seq=first + i, seat=s, text=t, at=at) for i, (s, t) in enumerate(steps)]
        self._append(game_id, stored, _progress(live, moved))
        before, log_length, turns = live.game, len(live.log), len(live.starters)
        self._swap_in(live, moved, new_lines, stored[-1])
        seat = steps[0][0]
        undoable = len(stored) == 1 and reveals_nothing(before, moved, seat)
        self._keep_undo_point(live, first, seat, steps[0][1], before if undoable else None, log_length, turns)
        _trim_log(live)
        for plugged in self.hooks:
            plugged.after_action(self, live, stored[0])  # the player's own move: the clock, a resignation
        return stored[-1].seq

    @staticmethod
    def _swap_in(live: LiveGame, moved: Game, new_lines: list[dict[str, Any]], last: ActionRecord) -> None:
        """After the store took the actions up to ``last``: ``moved`` becomes the live game."""
        live.game = moved
        live.log.extend(new_lines)
        live.note_turns(moved)
        if moved.is_over:
            for external in live.externals.values():
                external.close()  # tells the program the result and ends it
        live.record = replace(live.record, state_id=last.seq, updated=last.at, **asdict(_progress(live)))

    def _append(self, game_id: str, stored: list[ActionRecord], progress: Progress) -> None:
        """The commit point: store the entries in one transaction, or refuse with nothing changed."""
        try:
            if len(stored) == 1:
                self.storage.append_action(game_id, stored[0], progress)
            else:
                self.storage.append_actions(game_id, stored, progress)
        except StaleWrite:
            # Another process moved this game on: reload it from the store.
            self.forget(game_id)
            raise Refusal("stale", "the game moved on: look at the board again and retry") from None
        except StorageError as error:
            # The commit may have gone through with only its answer lost (the connection dropped
            # during COMMIT): the store, not this memory, says what the game is, so the game is read
            # from it again when next asked for, and the board then shows the move if it was stored.
            self.forget(game_id)
            raise store_failed(error, "the move could not be stored") from None

    # -- bots ------------------------------------------------------------------------------------
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
                bot = timing(live).stand_in
                return lambda: careful_choice(game, seat_index, state_id, bot)
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

    # -- what a seat sees ------------------------------------------------------------------------
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
        seat's own lines under fog of war (None: a page with no log yet)."""
        live = self.live(game_id)
        with live.lock:
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
                "status": _progress(live).status,
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
        return record.settings.get("spectator_view", "fogged") == "open"

    def _messages(self, live: LiveGame, view: View, fogged_for: int | None) -> dict[str, Any]:
        """The plugged-in modules' parts of the state message of ``view``'s seat; ``fogged_for``: the
        seat shown only its own log lines (fog of war), whose server notes are placed among them."""
        parts: dict[str, Any] = {}
        for plugged in self.hooks:
            parts |= plugged.message(self, live, view)
        if fogged_for is not None and parts.get("notes"):
            at = live.log.position_for
            parts["notes"] = [note | {"log_at": at(fogged_for, note["log_at"])} for note in parts["notes"]]
        return parts

    def summary(self, game_id: str) -> dict[str, Any]:
        """A game's public summary, from memory if it is there, else from the store: a look at a
        game nobody plays (a finished one) must not load it back into memory for good."""
        return game_summary(self.record_of(game_id))

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

    def list_games(self, status: str | None = None) -> list[dict[str, Any]]:
        records = self._store(lambda: self.storage.list_games(status=status, public_only=True))
        return [game_summary(r) for r in records]

    def unfinished_games(self) -> list[GameRecord]:
        """Every game still being played, public or not: their stored rows only, nothing replayed (a
        starting server reads which of them a bot or a clock needs soon, risk.server.wakeups)."""
        return self._store(  # type: ignore[no-any-return]
            lambda: self.storage.list_games(status="playing", public_only=False, limit=1_000_000)
        )

    def _result_text(self, live: LiveGame) -> str:
        outcome = live.game.outcome()
        if outcome is None or outcome.winner is None:
            return "no winner"
        return f"{live.game.players[outcome.winner]} won ({outcome.reason})"

    # -- fast play: the checks every move shares, blitz, undo (docs/web.md "Faster play") ---------------
    def _check_turn(self, live: LiveGame, seat: int, out_of_turn: bool = False) -> Game:
        """The game, if ``seat`` may act in it now (``out_of_turn``: a move allowed at any time, a
        resignation); else the refusal that says why."""
        game = live.game
        if game.is_over:
            raise Refusal("game-over", f"the game is over: {self._result_text(live)}")
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
        with live.lock:
            self._check_state(live, start)
            seq = self._commit(game_id, live, run.steps, copy, run.lines)
            live.blitz = run.waiting
        return seq, run

    def stop_blitz(self, game_id: str, seat: int) -> bool:
        """Call off this seat's blitz that waits for a defender: the current roll is the last."""
        live = self.live(game_id)
        with live.lock:
            if live.blitz is None or live.blitz.seat != seat:
                return False
            live.blitz = None
            return True

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

    def undo(self, game_id: str, seat: int, state_id: int | None, to: int | None = None) -> int:
        """Take back this seat's last move that revealed nothing new (or every such move from the one
        stored as ``to``). Stored as an ``#undo S`` entry; answers the new state id."""
        live = self.live(game_id)
        with live.lock:
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
            point = points[index]
            stored = ActionRecord(seq=live.state_id + 1, seat=seat, text=undo_text(first), at=self.clock())
            self._append(game_id, [stored], _progress(live, point.game))
            removed = live.log.with_readers(point.log_length)
            live.game = point.game.copy()
            del live.log[point.log_length :]
            name, seats = live.game.players[seat], len(live.game.players)
            live.log.extend(undo_lines(name, seat, len(points) - index, removed, seats))
            live.log_cuts.append((stored.seq, point.log_length))
            del live.starters[point.turns :]
            del points[index:]
            live.blitz = None
            live.record = replace(live.record, state_id=stored.seq, turn=live.game.turn, updated=stored.at)
            for plugged in self.hooks:
                plugged.after_change(self, live, stored.at, fresh=False)  # the same turn: its clock runs on
            return stored.seq

    def undo_state(self, live: LiveGame, seat: int) -> dict[str, Any] | None:
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
        # No lock: this runs on the event loop, which must not wait for a commit under way. The list
        # only grows (appends are atomic), and a cut it misses comes with the state it belongs to.
        live = self.live(game_id)
        cuts = [length for state, length in live.log_cuts[:] if state > state_sent]
        if fogged_for is not None:
            cuts = [live.log.position_for(fogged_for, length) for length in cuts]
        return min([log_sent, *cuts])

    def _keep_undo_point(
        self, live: LiveGame, seq: int, seat: int, text: str, before: Game | None, log_length: int, turns: int
    ) -> None:
        """After a step: remember the position before it if it may be taken back; else nothing before
        it may be any more."""
        if before is None:
            live.undo_points.clear()
        else:
            live.undo_points.append(Checkpoint(seq, seat, text, before, log_length, turns))

    def _replay_action(self, live: LiveGame, stored: ActionRecord) -> str | None:
        """Loading: apply a stored action; answers what is wrong with it, if anything."""
        game = live.game
        if stored.seat != game.to_act and not is_resignation(stored.text):
            return f"it is by seat {stored.seat}, but seat {game.to_act} was to act"
        log_length, turns = len(live.log), len(live.starters)
        try:
            before = game.copy() if may_take_back(game, game.parse(stored.text)) else None
            _apply(game, live.log, stored.text)
        except RiskError as error:
            return str(error)
        live.note_turns(game)
        undoable = before is not None and reveals_nothing(before, game, stored.seat)
        self._keep_undo_point(
            live, stored.seq, stored.seat, stored.text, before if undoable else None, log_length, turns
        )
        return None

    def _replay_undo(self, live: LiveGame, undo: Undo) -> str | None:
        """Loading: an undo that counts. The moves it took back are not part of the game; they are
        replayed on a copy only to check that they could be taken back, and for the log line."""
        seat, game, lines = undo.entry.seat, live.game, []
        if not undo.undone:
            return "it takes back nothing"
        for stored in undo.undone:
            if stored.seat != seat or game.to_act != seat:
                return f"it takes back action {stored.seq}, which was not a move of seat {seat}'s own turn"
            before, game = game, game.copy()
            try:
                _apply(game, lines, stored.text)
            except RiskError as error:
                return f"the action {stored.seq} it takes back does not fit: {error}"
            if not reveals_nothing(before, game, seat):
                return f"the action {stored.seq} ({stored.text!r}) revealed something: no taking it back"
        name, seats = live.game.players[seat], len(live.game.players)
        live.log.extend(undo_lines(name, seat, len(undo.undone), lines, seats))
        return None

    # -- seats and the turn clock (risk.server.seats, risk.server.clock) --------------------------
    def commit_batch(self, live: LiveGame, seat: int, texts: list[str], at: float) -> int:
        """Several actions of ``seat`` (legal in turn, in canonical text), applied and stored at once:
        all or none. Answers the new state id. Raises StaleWrite (another process moved the game
        on: it is forgotten, to be reloaded) or a Refusal when the store fails (nothing changed)."""
        with live.lock:
            before, moved, new_lines = live.game, live.game.copy(), []
            for text in texts:
                _apply(moved, new_lines, text)
            steps = [(seat, text) for text in texts]
            # A blitz waiting for this (timed-out) defence goes on at once, stored with it (fast-play).
            run = self._continue_blitz(live, before, moved, seat) if len(texts) == 1 else None
            if run is not None:
                steps += run.steps
                new_lines += run.lines
                moved = run.game
            first = live.state_id + 1
            stored = [ActionRecord(seq=first + i, seat=s, text=t, at=at) for i, (s, t) in enumerate(steps)]
            try:
                self.storage.append_actions(live.record.id, stored, _progress(live, moved))
            except StaleWrite:
                self.forget(live.record.id)
                raise
            except StorageError as error:
                raise Refusal("unavailable", f"the game store failed, nothing was played ({error})") from None
            self._swap_in(live, moved, new_lines, stored[-1])
            live.undo_points.clear()  # the server played for the seat: nothing before it is taken back
            _trim_log(live)
            live.blitz = None if run is None else run.waiting
            return stored[-1].seq

    def store_seat(self, live: LiveGame, seat: SeatRecord) -> None:
        """Store a changed seat (a stand-in, missed turns), then keep it in memory."""
        with live.lock:
            self._store(lambda: self.storage.update_seat(live.record.id, seat))
            seats = tuple(seat if s.seat == seat.seat else s for s in live.record.seats)
            live.record = replace(live.record, seats=seats)

    def add_game(self, record: GameRecord) -> None:
        """Store a game made from another (a rematch): the engine must accept its rules, names and board."""
        try:
            game = self._new_game(record)
        except RiskError as error:
            raise Refusal("bad-request", str(error)) from None
        self._store(lambda: self.storage.create_game(replace(record, to_act=game.to_act)))


def game_summary(record: GameRecord) -> dict[str, Any]:
    """What anyone may know about a game: for lists and the lobby."""
    return {
        "id": record.id,
        "rules": record.rules,
        "board": record.board,
        "board_sha256": record.board_sha256,  # a board given as JSON (None: the shipped board named)
        "status": record.status,
        "turn": record.turn,
        "state_id": record.state_id,
        "winner": record.winner,
        "created": record.created,
        "updated": record.updated,
        "public": bool(record.settings.get("public", True)),
        "spectators": bool(record.settings.get("spectators", True)),
        "spectator_view": record.settings.get("spectator_view", "fogged"),
        "rematch": record.settings.get("rematch"),  # the id of this game's rematch, once asked for
        "rematch_of": record.settings.get("rematch_of"),
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "bot": s.bot if s.kind == "bot" else None,
                "bot_label": bot_label(s.bot or "") if s.kind == "bot" else None,  # "hard · warlord"
                "open": s.kind == "open",
            }
            for s in record.seats
        ],
    }
