"""Where games live: one interface, an in-memory store for tests, and SQL stores (``risk.server.sql``).

A game is stored as its creation settings (rules, players, seed) and the list of its accepted actions,
in order. The engine is deterministic from its seed, so replaying the actions rebuilds the exact game,
dice and future cards included: nothing else needs saving. ``append_action`` is the commit point: an
action is acknowledged only after it returns, and it refuses a sequence number already taken, so two
writers can never both extend a game from the same state.
"""

from __future__ import annotations

import itertools
import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any


class StorageError(Exception):
    """The store could not be reached or failed: the caller may try again."""


class StaleWrite(StorageError):
    """Another writer already stored an action with this sequence number."""


@dataclass(frozen=True)
class SeatRecord:
    seat: int
    name: str
    kind: str  # "human", "open", "bot" or "external"
    bot: str | None = None  # the bot's name, or the external command
    token_hash: str | None = None  # sha256 hex of the seat's token; None for bots and untaken seats
    stand_in: str | None = None  # the bot playing for this human while they are away (they keep the token)
    missed: int = 0  # turns in a row the turn clock ran out on this seat
    # A human seat's own settings (risk.server.seatprefs): defence, pace, setup orders; {}: the defaults.
    prefs: dict[str, Any] = field(default_factory=dict)
    # The seat's own clock (risk.server.timing.SeatClock): its time bank and vacation left, its vacation
    # under way; {}: the game's allowances untouched.
    clock: dict[str, Any] = field(default_factory=dict)
    # The account the seat is bound to (risk.server.accounts.seats): then its token alone no longer
    # acts for it or sees what it sees; the account's session is needed too. None: the token suffices.
    account: str | None = None
    # The SHA-256 of the browser id cookie of whoever took the seat (risk.server.fairplay): one browser,
    # one seat of a rated game; a ban bars that browser too. None: not known (made by the host's request).
    browser: str | None = None


# The kind of game a rules text without a "game=" word plays (Rules.describe leaves out the default).
UNNAMED_GAME = "world"


@dataclass(frozen=True)
class GameFilter:
    """Which games a list keeps, beside its status (GET /api/games's filters, docs/web.md "Open
    games"); None: any. The stores apply it before their cap, so a match beyond the newest games a list
    answers is still found."""

    edition: str | None = None  # the rulebook: the first word of ``GameRecord.rules``
    game: str | None = None  # world (no ``game=`` in the rules), two-player, secret-mission, ...
    board: str | None = None  # a shipped board's name; OTHER_BOARD: any board given as JSON
    seats: int | None = None  # how many seats (players) the game has
    rated: bool | None = None
    # The turn clock, ``settings["turn_time"]`` (0: none): from ``turn_time_from`` seconds, below
    # ``turn_time_below`` seconds.
    turn_time_from: float | None = None
    turn_time_below: float | None = None

    def matches(self, game: GameRecord) -> bool:
        """The filter in Python, as the SQL stores say it in their query (risk.server.sql)."""
        words = game.rules.split()
        kind = next((w.removeprefix("game=") for w in words[1:] if w.startswith("game=")), UNNAMED_GAME)
        turn_time = float(game.settings.get("turn_time") or 0)
        board = OTHER_BOARD if game.board_sha256 is not None else game.board
        return (
            (self.edition is None or words[:1] == [self.edition])
            and (self.game is None or kind == self.game)
            and (self.board is None or board == self.board)
            and (self.seats is None or len(game.seats) == self.seats)
            and (self.rated is None or bool(game.settings.get("rated", False)) == self.rated)
            and (self.turn_time_from is None or turn_time >= self.turn_time_from)
            and (self.turn_time_below is None or turn_time < self.turn_time_below)
        )


# GameFilter.board for the boards given as JSON (uploaded or generated), whatever their names.
OTHER_BOARD = "other"


@dataclass(frozen=True)
class GameRecord:
    id: str
    rules: str  # Rules.describe()
    board: str
    seed: int
    seats: tuple[SeatRecord, ...]
    settings: dict[str, Any] = field(default_factory=dict)  # public, bot_delay, defend_timeout, ...
    created: float = 0.0
    # Kept up to date with every action, for listing games without replaying them:
    state_id: int = 0
    status: str = "playing"  # "waiting" (open seats), "playing" or "over"
    winner: int | None = None
    turn: int = 0
    updated: float = 0.0
    deadline: float | None = None  # when the turn clock of state ``deadline_state`` runs out (epoch s)
    deadline_state: int | None = None
    host_hash: str | None = None  # sha256 hex of the host's token (whoever created the game)
    # Who is to act, kept with every action, so a starting server knows without replaying the game
    # which games a bot of its own or a clock needs soon (risk.server.wakeups); None: not known
    # (stored by an older release, or the game is over).
    to_act: int | None = None
    defending: bool = False  # the seat to act is choosing its defence dice (its own, shorter clock)
    # A board that is not shipped (given as JSON when the game was made): its digest and canonical
    # JSON (risk.maps.Board), kept with the game so it replays after a restart. None: the shipped board
    # ``board`` names. Lists of games (``list_games``) leave the JSON out (None), not the digest.
    board_sha256: str | None = None
    board_json: str | None = None


@dataclass(frozen=True)
class ActionRecord:
    seq: int  # 1, 2, 3, ...: the state id after this action
    seat: int
    text: str
    at: float


@dataclass(frozen=True)
class ChatRecord:
    seq: int  # 1, 2, 3, ... per game; 0 before the store numbers it
    seat: int | None  # the writer's seat (None: the server itself)
    channel: str  # "all", or "team" (seen only by the seats of ``team``)
    team: int | None
    name: str
    text: str
    at: float


@dataclass(frozen=True)
class RulesetRecord:
    """House rules saved under a name: what the lobby needs to create the same game again."""

    id: str
    name: str
    settings: dict[str, Any]  # edition, game, options, board, seats...
    created: float


@dataclass(frozen=True)
class Progress:
    """What ``append_action`` updates on the game row together with the action."""

    status: str
    winner: int | None
    turn: int
    to_act: int | None = None  # None: over, or not known
    defending: bool = False


@dataclass
class Change:
    """What one commit stores besides a game's actions: a move's consequences (the seats it changed,
    the turn clock it set, the server notes it wrote), or a change that is no move (a seat taken, a seat
    handed to a bot). Stored in the same transaction as the actions: all of it or none."""

    seats: dict[int, SeatRecord] = field(default_factory=dict)  # by seat: the last change of each
    status: str | None = None  # the game's new status (a seat taken: "playing"); None: unchanged
    deadline: tuple[float | None, int | None] | None = None  # (deadline, its state id); None: unchanged
    notes: list[ChatRecord] = field(default_factory=list)  # server notes, numbered by the store

    def __bool__(self) -> bool:
        return bool(self.seats or self.notes) or self.status is not None or self.deadline is not None


def check_consecutive(actions: Sequence[ActionRecord]) -> None:
    """A batch of actions must be non-empty and numbered one after another (a caller's bug otherwise)."""
    if not actions:
        raise ValueError("no actions to append")
    for before, after in itertools.pairwise(actions):
        if after.seq != before.seq + 1:
            raise ValueError(f"actions {before.seq} and {after.seq} are not consecutive")


class Storage(ABC):
    """The games and their actions. Every method is one transaction; errors raise StorageError."""

    @abstractmethod
    def create_game(self, game: GameRecord) -> None:
        """Store a new game (its seats included). Raises StorageError if the id is taken."""

    @abstractmethod
    def get_game(self, game_id: str) -> GameRecord | None:
        """The game row and its seats, or None."""

    @abstractmethod
    def actions(self, game_id: str, after: int = 0) -> list[ActionRecord]:
        """The game's actions with ``seq > after``, in order."""

    def append_action(self, game_id: str, action: ActionRecord, progress: Progress) -> None:
        """Commit one action (its seq must be the game's state_id + 1) and the game's new progress.
        Raises StaleWrite if that seq is taken (another writer got there first)."""
        self.append_actions(game_id, [action], progress)

    def append_actions(self, game_id: str, actions: Sequence[ActionRecord], progress: Progress) -> None:
        """Commit several actions at once, all or none (seqs state_id + 1, + 2, ...), e.g. a whole
        invasion. Raises StaleWrite if the first seq is taken."""
        check_consecutive(actions)
        self.commit(game_id, actions, progress, Change())

    @abstractmethod
    def commit(
        self, game_id: str, actions: Sequence[ActionRecord], progress: Progress | None, change: Change
    ) -> list[ChatRecord]:
        """One transaction: ``actions`` (none, or numbered from the game's state_id + 1, with the game's
        new ``progress``) and ``change``, all or none. Answers the notes as stored (numbered). Raises
        StaleWrite if the first action's seq is taken."""

    @abstractmethod
    def update_seat(self, game_id: str, seat: SeatRecord, status: str | None = None) -> None:
        """Replace one seat (an open seat taken, a seat handed to a bot); optionally the game's status."""

    @abstractmethod
    def set_deadline(self, game_id: str, deadline: float | None, state_id: int | None) -> None:
        """Start (or with None, stop) the turn clock of state ``state_id``."""

    @abstractmethod
    def update_settings(self, game_id: str, settings: dict[str, Any]) -> None:
        """Replace the game's settings (e.g. a rematch's id)."""

    @abstractmethod
    def add_chat(self, game_id: str, message: ChatRecord) -> ChatRecord:
        """Store a chat message; returns it with its seq."""

    @abstractmethod
    def chat(self, game_id: str, after: int = 0) -> list[ChatRecord]:
        """The game's chat messages with ``seq > after``, in order."""

    @abstractmethod
    def save_ruleset(self, ruleset: RulesetRecord) -> None:
        """Store house rules. Raises StorageError if the id is taken."""

    @abstractmethod
    def get_ruleset(self, ruleset_id: str) -> RulesetRecord | None:
        """Saved house rules, or None."""

    @abstractmethod
    def list_games(
        self,
        status: str | None = None,
        public_only: bool = True,
        limit: int = 100,
        where: GameFilter | None = None,
    ) -> list[GameRecord]:
        """Games, most recently updated first: the first ``limit`` of those ``where`` keeps."""

    @abstractmethod
    def account_seats(self, account: str) -> list[tuple[str, int]]:
        """The (game id, seat) of every seat bound to ``account``, newest game first."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release connections."""


class MemoryStorage(Storage):
    """Everything in dictionaries: for tests and for ``risk serve --db memory``."""

    def __init__(self) -> None:
        self._games: dict[str, GameRecord] = {}
        self._actions: dict[str, list[ActionRecord]] = {}
        self._chat: dict[str, list[ChatRecord]] = {}
        self._rulesets: dict[str, RulesetRecord] = {}
        self._lock = threading.Lock()

    def create_game(self, game: GameRecord) -> None:
        with self._lock:
            if game.id in self._games:
                raise StorageError(f"a game with id {game.id!r} exists")
            self._games[game.id] = game
            self._actions[game.id] = []

    def get_game(self, game_id: str) -> GameRecord | None:
        return self._games.get(game_id)

    def actions(self, game_id: str, after: int = 0) -> list[ActionRecord]:
        return [a for a in self._actions.get(game_id, []) if a.seq > after]

    def commit(
        self, game_id: str, actions: Sequence[ActionRecord], progress: Progress | None, change: Change
    ) -> list[ChatRecord]:
        if actions:
            check_consecutive(actions)
        with self._lock:
            game = self._game(game_id)
            if actions and actions[0].seq != game.state_id + 1:
                raise StaleWrite(f"game {game_id} is at state {game.state_id}, not {actions[0].seq - 1}")
            if actions and progress is not None:
                game = replace(
                    game,
                    state_id=actions[-1].seq,
                    status=progress.status,
                    winner=progress.winner,
                    turn=progress.turn,
                    updated=actions[-1].at,
                    to_act=progress.to_act,
                    defending=progress.defending,
                )
            seats = tuple(change.seats.get(s.seat, s) for s in game.seats)
            game = replace(game, seats=seats, status=change.status or game.status)
            if change.deadline is not None:
                game = replace(game, deadline=change.deadline[0], deadline_state=change.deadline[1])
            kept = self._chat.setdefault(game_id, [])
            notes = [replace(note, seq=len(kept) + 1 + i) for i, note in enumerate(change.notes)]
            self._actions[game_id].extend(actions)
            kept.extend(notes)
            self._games[game_id] = game
            return notes

    def _game(self, game_id: str) -> GameRecord:
        game = self._games.get(game_id)
        if game is None:
            raise StorageError(f"no game {game_id!r}")
        return game

    def set_deadline(self, game_id: str, deadline: float | None, state_id: int | None) -> None:
        with self._lock:
            game = self._game(game_id)
            self._games[game_id] = replace(game, deadline=deadline, deadline_state=state_id)

    def update_settings(self, game_id: str, settings: dict[str, Any]) -> None:
        with self._lock:
            self._games[game_id] = replace(self._game(game_id), settings=dict(settings))

    def add_chat(self, game_id: str, message: ChatRecord) -> ChatRecord:
        with self._lock:
            self._game(game_id)
            stored = replace(message, seq=len(self._chat.setdefault(game_id, [])) + 1)
            self._chat[game_id].append(stored)
            return stored

    def chat(self, game_id: str, after: int = 0) -> list[ChatRecord]:
        return [m for m in self._chat.get(game_id, []) if m.seq > after]

    def save_ruleset(self, ruleset: RulesetRecord) -> None:
        with self._lock:
            if ruleset.id in self._rulesets:
                raise StorageError(f"house rules with id {ruleset.id!r} exist")
            self._rulesets[ruleset.id] = ruleset

    def get_ruleset(self, ruleset_id: str) -> RulesetRecord | None:
        return self._rulesets.get(ruleset_id)

    def update_seat(self, game_id: str, seat: SeatRecord, status: str | None = None) -> None:
        with self._lock:
            game = self._game(game_id)
            seats = tuple(seat if s.seat == seat.seat else s for s in game.seats)
            self._games[game_id] = replace(game, seats=seats, status=status or game.status)

    def account_seats(self, account: str) -> list[tuple[str, int]]:
        with self._lock:
            games = sorted(self._games.values(), key=lambda g: g.created, reverse=True)
            return [(g.id, s.seat) for g in games for s in g.seats if s.account == account]

    def list_games(
        self,
        status: str | None = None,
        public_only: bool = True,
        limit: int = 100,
        where: GameFilter | None = None,
    ) -> list[GameRecord]:
        games = [
            g
            for g in self._games.values()
            if (status is None or g.status == status)
            and (not public_only or g.settings.get("public", True))
            and (where is None or where.matches(g))
        ]
        games.sort(key=lambda g: g.updated, reverse=True)
        return [replace(g, board_json=None) for g in games[:limit]]  # as the SQL stores list them
