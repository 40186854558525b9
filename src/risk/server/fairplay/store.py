"""Mutes, reports and bans in the game database (docs/web.md, "Fair play"); blocks are kept with the
accounts (risk.server.accounts.store). No secret is kept: a report names its line and the reporter's
seat (one report per reporter per line), a ban the account's id and the browser id's SHA-256."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from risk.server.accounts.store import EngineStore
from risk.server.sql import chat_mutes, chat_reports, game_bans


@dataclass(frozen=True)
class Ban:
    id: int
    game_id: str
    account: str | None
    browser: str | None
    seat: int | None  # the seat removed from a game under way (it resigned); None while waiting
    name: str
    at: float

    def shown(self) -> dict[str, object]:
        """What the host is shown (never the account's id nor the browser's hash)."""
        return {"id": self.id, "name": self.name, "at": self.at, "seat": self.seat}


@dataclass(frozen=True)
class Report:
    seq: int
    reporter: int
    reason: str
    at: float


class FairPlayStore(EngineStore):
    # -- mutes: seat -> the seats whose chat it is not sent ------------------------------------------
    def mutes(self, game_id: str) -> dict[int, set[int]]:
        with self._begin() as connection:
            rows = connection.execute(
                sa.select(chat_mutes.c.seat, chat_mutes.c.muted_seat).where(chat_mutes.c.game_id == game_id)
            ).all()
        muted: dict[int, set[int]] = {}
        for seat, other in rows:
            muted.setdefault(int(seat), set()).add(int(other))
        return muted

    def set_mute(self, game_id: str, seat: int, other: int, on: bool) -> None:
        where = (chat_mutes.c.game_id == game_id, chat_mutes.c.seat == seat, chat_mutes.c.muted_seat == other)
        with self._begin(write=True) as connection:
            there = connection.execute(sa.select(chat_mutes.c.seat).where(*where)).first() is not None
            if on and not there:
                connection.execute(chat_mutes.insert().values(game_id=game_id, seat=seat, muted_seat=other))
            elif not on and there:
                connection.execute(chat_mutes.delete().where(*where))

    # -- reports ------------------------------------------------------------------------------------
    def add_report(self, game_id: str, seq: int, reporter: int, reason: str, now: float) -> bool:
        """False: this reporter reported this line already (nothing changed)."""
        try:
            with self._begin(write=True) as connection:
                connection.execute(
                    chat_reports.insert().values(
                        game_id=game_id, chat_seq=seq, reporter_seat=reporter, reason=reason, at=now
                    )
                )
        except IntegrityError:
            return False
        return True

    def reports(self, game_id: str) -> list[Report]:
        with self._begin() as connection:
            rows = connection.execute(
                sa.select(chat_reports)
                .where(chat_reports.c.game_id == game_id)
                .order_by(chat_reports.c.at, chat_reports.c.chat_seq)
            ).all()
        return [Report(int(r.chat_seq), int(r.reporter_seat), str(r.reason), float(r.at)) for r in rows]

    # -- bans ---------------------------------------------------------------------------------------
    def add_ban(
        self, game_id: str, account: str | None, browser: str | None, seat: int | None, name: str, now: float
    ) -> Ban:
        with self._begin(write=True) as connection:
            done = connection.execute(
                game_bans.insert().values(
                    game_id=game_id, account_id=account, browser_hash=browser, seat=seat, name=name, at=now
                )
            )
            key = done.inserted_primary_key
            assert key is not None
            ban_id = int(key[0])
        return Ban(ban_id, game_id, account, browser, seat, name, now)

    def remove_ban(self, game_id: str, ban_id: int) -> bool:
        with self._begin(write=True) as connection:
            done = connection.execute(
                game_bans.delete().where(game_bans.c.game_id == game_id, game_bans.c.id == ban_id)
            )
        return bool(done.rowcount)

    def bans(self, game_id: str) -> list[Ban]:
        with self._begin() as connection:
            rows = connection.execute(
                sa.select(game_bans).where(game_bans.c.game_id == game_id).order_by(game_bans.c.id)
            ).all()
        return [
            Ban(int(r.id), r.game_id, r.account_id, r.browser_hash, r.seat, str(r.name), float(r.at))
            for r in rows
        ]
