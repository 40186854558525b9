"""What the web app asks of fair play (docs/web.md, "Fair play"), and the chat's filter:

- **Seats**: a seat is refused to an account (or a browser) the host banned from the game, and to an
  account with a block, either way, with an account seated there (the game master asks, through
  ``master.may_sit``, as a seat is taken).
- **Blocks** (an account's): the blocked account's chat lines are not sent to the blocker, in any game.
- **Mutes** (a seat's, in its game): the muted seat's lines are not sent to the seat.
- **Reports**: a player reports a line written to everyone, once, with a reason if they like; the
  host (the game's host token) reads the lines reported, how often and why, never who reported them.
- **Bans** (the host's): in a game still waiting, the seat is opened again and its account and browser
  may not take a seat of the game again (until the host lifts the ban); in a game under way, the seat
  resigns (its armies stay, neutral; a rated game counts it a loss, as resigning) and its chat closes.

A game's mutes and an account's blocks are read once per :data:`KNOWN_S` in a process (the chat asks
for every line sent), and at once after a change made in it.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

from risk.server.accounts.names import NameError_, clean_name, name_key
from risk.server.accounts.service import FieldRefusal, stored
from risk.server.accounts.store import MAX_BLOCKS, AccountStore, TooManyBlocks
from risk.server.chat import one_line
from risk.server.errors import Refusal
from risk.server.fairplay.store import Ban, FairPlayStore, Report
from risk.server.master import GameMaster
from risk.server.seats import check_host
from risk.server.storage import ChatRecord, GameRecord
from risk.view import SPECTATOR

V = TypeVar("V")
MAX_REASON = 300  # characters of a report's reason
REPORT_COUNT, REPORT_WINDOW_S = 5, 600.0  # reports one seat may make within this many seconds
KNOWN_S = 10.0


def _matches(ban: Ban, account: str | None, browser: str | None) -> bool:
    return (ban.account is not None and ban.account == account) or (
        ban.browser is not None and ban.browser == browser
    )


class FairPlay:
    def __init__(
        self,
        master: GameMaster,
        accounts: AccountStore,
        store: FairPlayStore,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.master, self.accounts, self.store = master, accounts, store
        self.clock = clock  # for the caches and the reports' rate (tests may set it)
        self._lock = threading.Lock()
        self._mutes: dict[str, tuple[dict[int, set[int]], float]] = {}
        self._blocks: dict[str, tuple[set[str], float]] = {}
        self._reports: dict[tuple[str, int], deque[float]] = {}

    _stored = staticmethod(stored)

    # -- seats (the master's may_sit) ---------------------------------------------------------------
    def may_sit(self, record: GameRecord, seat: int, account: str | None, browser: str | None) -> None:
        if any(_matches(ban, account, browser) for ban in self._stored(self.store.bans, record.id)):
            raise Refusal("banned", "the host of this game has banned you from it")
        if account is None:
            return
        seated = {s.account for s in record.seats if s.account is not None and s.seat != seat}
        if seated and seated & self._stored(self.accounts.blocked_with, account):
            raise Refusal(
                "blocked", "a player at this table and you have a block between you: choose another game"
            )

    # -- the chat's filter (risk.server.chat.ChatFilter) --------------------------------------------
    def hidden_seats(self, game_id: str, seat: int, account: str | None) -> set[int]:
        """The seats whose lines are not sent to ``seat`` (SPECTATOR: a watcher) read by ``account``
        (None: signed out): those it muted, and those bound to an account it blocked."""
        hidden = set(self._game_mutes(game_id).get(seat, ()))
        blocked = set() if account is None else self._account_blocks(account)
        if blocked:
            record = self.master.live(game_id).published.record
            hidden |= {s.seat for s in record.seats if s.account in blocked}
        return hidden

    def check_writer(self, game_id: str, seat: int) -> None:
        """A seat opened again, or whose player the host banned, writes no more."""
        mine = self.master.live(game_id).record.seats[seat]
        if mine.kind == "open":
            raise Refusal("bad-token", "this seat is open again: this link no longer holds it")
        bans = self._stored(self.store.bans, game_id)
        if any(ban.seat == seat or _matches(ban, mine.account, mine.browser) for ban in bans):
            raise Refusal("banned", "the host removed you from this game: its chat is closed to you")

    # -- mutes ----------------------------------------------------------------------------------------
    def muted(self, game_id: str, seat: int) -> list[int]:
        self._player(game_id, seat)
        return sorted(self._game_mutes(game_id).get(seat, ()))

    def set_mute(self, game_id: str, seat: int, other: int, on: bool) -> list[int]:
        """``seat`` mutes (``on``) or unmutes ``other``'s chat for itself; answers the seats it mutes."""
        record = self._player(game_id, seat)
        if not 0 <= other < len(record.seats):
            raise Refusal("bad-request", f"no seat {other}: the game has seats 0 to {len(record.seats) - 1}")
        if other == seat:
            raise Refusal("bad-request", "that is your own seat")
        if on and record.seats[other].kind != "human":
            raise Refusal("bad-request", f"{record.seats[other].name} is no person: only people write")
        self._stored(self.store.set_mute, game_id, seat, other, on)
        with self._lock:
            self._mutes.pop(game_id, None)
        return self.muted(game_id, seat)

    # -- reports --------------------------------------------------------------------------------------
    def report(self, game_id: str, seat: int, seq: int, reason: Any) -> None:
        """``seat`` reports the chat line ``seq`` to the host (once)."""
        self._player(game_id, seat)
        why = ""
        if reason is not None and not isinstance(reason, str):
            raise FieldRefusal("reason", "a reason is text")
        if reason and reason.strip():
            try:
                why = one_line(reason, MAX_REASON, "the reason")
            except Refusal as refused:
                raise FieldRefusal("reason", refused.message) from None
        line = self._line(game_id, seq)
        if line is None:
            raise Refusal("not-found", f"no chat message {seq} in this game")
        if line.seat is None:
            raise Refusal("bad-request", "a server note is the server's: it is not reported")
        if line.seat == seat:
            raise Refusal("bad-request", "that is your own message")
        if line.channel != "all":
            raise Refusal(
                "bad-request", "only messages to everyone are reported (the host may not read a team's chat)"
            )
        self._count_report(game_id, seat)
        if not self._stored(self.store.add_report, game_id, seq, seat, why, self.master.clock()):
            raise Refusal("already-reported", "you reported this message already: the host has it")

    def _count_report(self, game_id: str, seat: int) -> None:
        with self._lock:
            now = self.clock()
            made = self._reports.setdefault((game_id, seat), deque())
            while made and made[0] <= now - REPORT_WINDOW_S:
                made.popleft()
            if len(made) >= REPORT_COUNT:
                wait = max(1, round((made[0] + REPORT_WINDOW_S - now) / 60))
                raise Refusal(
                    "rate-limited",
                    f"at most {REPORT_COUNT} reports in {REPORT_WINDOW_S / 60:.0f} minutes: "
                    f"try again in {wait} min",
                )
            made.append(now)

    def _line(self, game_id: str, seq: int) -> ChatRecord | None:
        lines = self.master.store(lambda: self.master.storage.chat(game_id, seq - 1))
        return next((line for line in lines if line.seq == seq), None)

    # -- the host ---------------------------------------------------------------------------------------
    def host_view(self, game_id: str, host_token: str | None) -> dict[str, Any]:
        """The lines reported (newest report first: how often, the reasons given; never who reported
        them) and the game's bans."""
        check_host(self.master.live(game_id), host_token)
        by_line: dict[int, list[Report]] = {}
        for report in self._stored(self.store.reports, game_id):
            by_line.setdefault(report.seq, []).append(report)
        lines: list[dict[str, Any]] = []
        if by_line:
            first = min(by_line)
            stored = self.master.store(lambda: self.master.storage.chat(game_id, first - 1))
            for line in stored:
                reports = by_line.get(line.seq)
                if reports:
                    lines.append(
                        {
                            "seq": line.seq,
                            "seat": line.seat,
                            "name": line.name,
                            "text": line.text,
                            "at": line.at,
                            "reports": len(reports),
                            "reasons": [r.reason for r in reports if r.reason],
                            "last": max(r.at for r in reports),
                        }
                    )
        lines.sort(key=lambda line: (-line["last"], -line["seq"]))
        return {"reports": lines, "bans": self.bans(game_id)}

    def bans(self, game_id: str) -> list[dict[str, Any]]:
        return [ban.shown() for ban in self._stored(self.store.bans, game_id)]

    def ban(self, game_id: str, host_token: str | None, seat: int | None, name: str | None) -> str | None:
        """The host bans the account called ``name``, or the player of ``seat``; answers the server
        note for the game's chat (None: nobody seated was removed)."""
        live = self.master.live(game_id)
        check_host(live, host_token)
        if (seat is None) == (name is None):
            raise Refusal("bad-request", 'give either "seat" (a seat of the game) or "name" (an account)')
        if live.game.is_over:
            raise Refusal("game-over", "the game is over: nobody is banned from it now")
        account = shown = None
        if name is not None:
            account, shown = self._named(name)
            seat = next((s.seat for s in live.record.seats if s.account == account), None)
        with live.lock:
            browser = None
            if seat is not None:
                seats = live.record.seats
                if not 0 <= seat < len(seats):
                    raise Refusal("bad-request", f"no seat {seat}: the game has seats 0 to {len(seats) - 1}")
                target = seats[seat]
                if target.kind != "human":
                    raise Refusal("bad-request", f"seat {seat} ({target.name}) is not a person's seat")
                account, browser, shown = account or target.account, target.browser, shown or target.name
            assert shown is not None
            for ban in self._stored(self.store.bans, game_id):
                if _matches(ban, account, browser) or (seat is not None and ban.seat == seat):
                    raise Refusal("bad-request", f"{shown} is banned from this game already")
            waiting = live.waiting
            kept_seat = None if waiting else seat
            ban = self._stored(
                self.store.add_ban, game_id, account, browser, kept_seat, shown, self.master.clock()
            )
            try:
                return self._remove(game_id, seat, shown, waiting)
            except Refusal:
                self._stored(self.store.remove_ban, game_id, ban.id)  # nothing changed after all
                raise

    def _remove(self, game_id: str, seat: int | None, shown: str, waiting: bool) -> str | None:
        if seat is None:
            return None
        live = self.master.live(game_id)
        if waiting:
            self.master.reopen_seat(game_id, seat)
            return f"The host removed {shown} from the game: the seat is open again."
        if live.game.alive[seat] and seat not in live.resigned:
            self.master.submit_as(game_id, seat, f"resign {seat}", None)  # a loss, as resigning is
        return f"The host removed {shown} from the game."

    def unban(self, game_id: str, host_token: str | None, ban_id: int) -> list[dict[str, Any]]:
        live = self.master.live(game_id)
        check_host(live, host_token)
        if not live.waiting or live.game.is_over:
            raise Refusal(
                "bad-request", "a ban is lifted only while the game waits for players: under way, it stands"
            )
        if not self._stored(self.store.remove_ban, game_id, ban_id):
            raise Refusal("not-found", f"no ban {ban_id} in this game")
        return self.bans(game_id)

    # -- blocks (an account's) -------------------------------------------------------------------------
    def blocked(self, account_id: str) -> list[dict[str, Any]]:
        return [
            {"name": name, "since": at} for name, at in self._stored(self.accounts.blocked_list, account_id)
        ]

    def block(
        self, account_id: str, name: str | None, game_id: str | None, seat: int | None
    ) -> list[dict[str, Any]]:
        """``account_id`` blocks the account called ``name``, or the one seat ``seat`` of ``game_id``
        is bound to (a game where ``account_id`` holds a seat too)."""
        if name is not None:
            target = self._named(name)[0]
        elif game_id is not None and seat is not None:
            target = self._seat_account(account_id, game_id, seat)
        else:
            raise Refusal("bad-request", 'give "name" (an account), or "game" and "seat"')
        if target == account_id:
            raise FieldRefusal("name", "that is you: you cannot block yourself")
        try:
            self._stored(self.accounts.block, account_id, target, self.master.clock())
        except TooManyBlocks:
            raise FieldRefusal("name", f"you have blocked {MAX_BLOCKS} players: unblock some first") from None
        with self._lock:
            self._blocks.pop(account_id, None)
        return self.blocked(account_id)

    def unblock(self, account_id: str, name: str) -> list[dict[str, Any]]:
        target = self._named(name)[0]
        if not self._stored(self.accounts.unblock, account_id, target):
            raise Refusal("not-found", "you have not blocked a player of that name")
        with self._lock:
            self._blocks.pop(account_id, None)
        return self.blocked(account_id)

    def _named(self, name: str) -> tuple[str, str]:
        """The id and the name of the account called ``name`` (look-alikes too), or a refusal."""
        try:
            key = name_key(clean_name(name))
        except NameError_:
            raise FieldRefusal("name", "no account has that name") from None
        found = self._stored(self.accounts.by_key, key)
        if found is None:
            raise FieldRefusal("name", "no account has that name")
        return found.id, found.name

    def _seat_account(self, account_id: str, game_id: str, seat: int) -> str:
        seats = self.master.live(game_id).record.seats
        if not any(s.account == account_id for s in seats):
            raise Refusal(
                "bad-request", "a player is blocked by seat in a game where you hold a seat: else by name"
            )
        if not 0 <= seat < len(seats):
            raise Refusal("bad-request", f"no seat {seat}: the game has seats 0 to {len(seats) - 1}")
        target = seats[seat].account
        if target is None:
            raise Refusal(
                "bad-request", f"{seats[seat].name} plays as a guest (no account): mute them in the game"
            )
        return target

    # -- the caches ---------------------------------------------------------------------------------
    def _game_mutes(self, game_id: str) -> dict[int, set[int]]:
        return self._known(self._mutes, game_id, self.store.mutes)

    def _account_blocks(self, account_id: str) -> set[str]:
        return self._known(self._blocks, account_id, self.accounts.blocks_of)

    def _known(self, cache: dict[str, tuple[V, float]], key: str, read: Callable[[str], V]) -> V:
        """``read(key)``, as read within the last :data:`KNOWN_S` in this process."""
        now = self.clock()
        with self._lock:
            known = cache.get(key)
        if known is not None and known[1] > now:
            return known[0]
        value = self._stored(read, key)
        with self._lock:
            if len(cache) > 10_000:
                cache.clear()
            cache[key] = (value, now + KNOWN_S)
        return value

    def _player(self, game_id: str, seat: int) -> GameRecord:
        if seat == SPECTATOR:
            raise Refusal("bad-token", "this is for the game's players: open your seat's private link")
        return self.master.live(game_id).record
