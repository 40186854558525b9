"""Quick match (docs/web.md, "Quick match"): a signed-in player waits in a queue (a game type, a player
count and a pace) and is put in a rated game with players near their rating as soon as enough wait
(risk.server.quickmatch.queue says how near, and how that widens).

Every server process matches, about once a second and at once when someone joins: the queue is in the
database (risk.server.quickmatch.store), a claim takes all of a group's entries or none, and the game is
made from the claimed entries alone, under an id chosen before the claim. A process that stops between
the claim and the game leaves entries "matched" with no game: any process makes that game after
:data:`UNPLACED_AFTER_S`. So no entry is matched twice and none is lost across a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from risk.errors import RiskError
from risk.rules.options import GAMES, Rules
from risk.server.accounts.seats import DELETED
from risk.server.accounts.service import FieldRefusal
from risk.server.auth import new_token
from risk.server.errors import Refusal
from risk.server.master import GameMaster, GameSpec, SeatSpec
from risk.server.master.specs import new_game_id, spec_board
from risk.server.notify.seal import Seal
from risk.server.polling import Polling
from risk.server.quickmatch.queue import PACES, edition_of, form_groups, rating_range
from risk.server.quickmatch.store import (
    PLACED,
    WAITING,
    Conflict,
    Entry,
    Queue,
    QuickMatchStore,
    QuickMatchStoreError,
)
from risk.server.storage import StorageError

log = logging.getLogger(__name__)

POLL_S = 1.0  # each process looks at the queues this often (and at once after a join)
UNPLACED_AFTER_S = 30.0  # a claim with no game after this long: its game is made by whoever sees it
MOST_QUEUES = 3  # queues one account may wait in at once
MOST_LIVE = 1  # ...of them at a live pace (one game at a sitting)


class QuickMatch:
    def __init__(
        self,
        store: QuickMatchStore,
        master: GameMaster,
        seal: Seal,
        clock: Callable[[], float],
        *,
        on_placed: Callable[[str, list[Entry]], None] | None = None,
    ) -> None:
        self.store = store
        self.master = master
        self.seal = seal
        self.clock = clock
        self.on_placed = on_placed  # told each game made, with its entries (the days pace's e-mail)
        self._loop = Polling("quick match", self.step, POLL_S, (QuickMatchStoreError, StorageError), log)

    # -- what a player asks -----------------------------------------------------------------------
    def queue_of(self, game: str, players: int, pace: str) -> Queue:
        """The queue asked for, checked: a Refusal names the field that is wrong."""
        if game not in GAMES:
            raise FieldRefusal("game", f"no game {game!r}; games: {', '.join(GAMES)}")
        if pace not in PACES:
            raise FieldRefusal("pace", f"no pace {pace!r}; paces: {', '.join(PACES)}")
        try:
            rules = self.rules(game)
            rules.check_player_count(players, spec_board(GameSpec()))
        except RiskError as error:
            raise FieldRefusal("players", str(error)) from None
        return Queue(game, players, pace)

    def offered(self) -> dict[str, Any]:
        """What a player may queue for: each game (its edition, its player counts), each pace (its turn
        clock), and how many wait in each queue now."""
        board = spec_board(GameSpec())
        games = []
        for game in GAMES:
            rules = self.rules(game)
            counts = []
            for players in range(2, 11):
                try:
                    rules.check_player_count(players, board)
                except RiskError:
                    continue
                counts.append(players)
            games.append({"game": game, "edition": edition_of(game), "players": counts})
        paces = [
            {
                "pace": p.name,
                "turn_time": p.turn_time,
                "time_bank": p.time_bank,
                "vacation_days": p.vacation_days,
            }
            for p in PACES.values()
        ]
        waiting = [
            {"game": q.game, "players": q.players, "pace": q.pace, "waiting": n}
            for q, n in sorted(self._stored(self.store.waiting_counts).items())
        ]
        return {"games": games, "paces": paces, "waiting": waiting}

    @staticmethod
    def rules(game: str) -> Rules:
        return Rules.preset(edition_of(game)).for_game(game)

    def join(self, account: str, queue: Queue) -> dict[str, Any]:
        """The account waits in ``queue`` (or is told the entry it has there already)."""
        try:
            entry, new = self._stored(
                self.store.join, account, queue, self.clock(), most=MOST_QUEUES, most_live=MOST_LIVE
            )
        except Conflict as conflict:
            raise Refusal("bad-request", str(conflict)) from None
        if new:
            self._loop.wake()
        return self.shown(entry, self._stored(self.store.waiting_counts))

    def leave(self, account: str, entry: int) -> None:
        if not self._stored(self.store.leave, account, entry, self.clock()):
            raise Refusal("not-found", "no such entry of yours is waiting: it was matched, or left")

    def entries(self, account: str) -> list[dict[str, Any]]:
        """The account's entries: those waiting, and the games it was matched to within a day."""
        found = self._stored(self.store.entries_of, account, self.clock())
        counts = self._stored(self.store.waiting_counts) if any(e.status == WAITING for e in found) else {}
        return [self.shown(e, counts) for e in found]

    def shown(self, entry: Entry, counts: dict[Queue, int]) -> dict[str, Any]:
        """An entry as its own player sees it: the game's link (with the seat's token) once placed;
        ``counts``: how many wait in each queue (read once per answer)."""
        now = self.clock()
        shown: dict[str, Any] = {
            "id": entry.id,
            "game": entry.queue.game,
            "players": entry.queue.players,
            "pace": entry.queue.pace,
            "queued": entry.queued,
            "status": entry.status,
        }
        if entry.status == WAITING:
            width = rating_range(PACES[entry.queue.pace], now - entry.queued)
            shown["range"] = None if width == float("inf") else width
            shown["waiting"] = counts.get(entry.queue, 0)
        if entry.status == PLACED and entry.game_id is not None and entry.token is not None:
            token = self.seal.open(entry.token)
            shown["game_id"] = entry.game_id
            shown["seat"] = entry.seat
            if token:
                shown["token"] = token
                shown["link"] = f"/game/{entry.game_id}#token={token}"
        return shown

    # -- matching ---------------------------------------------------------------------------------
    def step(self) -> list[str]:
        """Form what groups the queues make now and make their games (and any game a stopped process
        claimed players for and did not make): the ids of the games made."""
        stale = self.store.unplaced(self.clock() - UNPLACED_AFTER_S)
        made = [game_id for game_id in stale if self._make(game_id)]
        for queue in self.store.queues():
            family = self.rules(queue.game).game
            waiting = self.store.waiting(queue, family)
            if len(waiting) < queue.players:
                continue
            blocked = self.store.blocks_among([w.account for w in waiting])
            groups = form_groups(
                waiting,
                queue.players,
                PACES[queue.pace],
                self.clock(),
                blocked,
            )
            for group in groups:
                game_id = new_game_id()
                seats = [(member.entry, self.seal.close(new_token())) for member in group]
                if self.store.claim(game_id, seats, self.clock()) and self._make(game_id):
                    made.append(game_id)
        return made

    def _make(self, game_id: str) -> bool:
        """Make the game its claimed entries describe (unless it exists), then mark them placed."""
        entries = self.store.claimed(game_id)
        if not entries:
            return False
        queue = entries[0].queue
        if len(entries) != queue.players:  # an account deleted between the claim and the game
            self.store.release(game_id, self.clock())
            return False
        if self.master.storage.get_game(game_id) is None:
            try:
                self.master.create_game(self._spec(game_id, entries))
            except Refusal as refusal:  # not for a checked queue: said, and its players wait again
                log.error("quick match could not make game %s: %s", game_id, refusal)
                self.store.release(game_id, self.clock())
                return False
            except StorageError:
                if self.master.storage.get_game(game_id) is None:  # not another process's making it
                    raise
        self.store.placed(game_id, self.clock())
        if self.on_placed is not None:
            self.on_placed(game_id, entries)
        return True

    def _spec(self, game_id: str, entries: list[Entry]) -> GameSpec:
        """The rated game of a group: each seat named after and bound to its account, with the token
        sealed in its entry."""
        queue = entries[0].queue
        pace = PACES[queue.pace]
        names = self.store.names([e.account for e in entries])
        seats = [
            SeatSpec(
                "human",
                name=names.get(e.account, DELETED),
                account=e.account if e.account in names else None,
                token=self.seal.open(e.token or "") or None,
            )
            for e in entries
        ]
        return GameSpec(
            edition=edition_of(queue.game),
            game=queue.game,
            seats=seats,
            turn_time=pace.turn_time,
            time_bank=pace.time_bank,
            vacation_days=pace.vacation_days,
            rated=True,
            game_id=game_id,
        )

    # -- the loop of each process -------------------------------------------------------------------
    def start(self) -> None:
        self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()

    @staticmethod
    def _stored(operation: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return operation(*args, **kwargs)
        except QuickMatchStoreError:
            raise Refusal("unavailable", "the server cannot reach its database now: try again") from None
