"""Seats bound to an account (docs/web.md, "Accounts"): a guest who signs up keeps the seats their
browser holds by binding them; from then on a seat's link (its token) acts and sees for it only with
the account's session beside it (risk.server.master's ``check_bound``), so a link that leaks, or is
kept on a shared computer, is no use to anyone else. Deleting the account unbinds its seats and names
them "deleted player"."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from risk.server.errors import Refusal
from risk.server.fairplay.rules import check_one_browser
from risk.server.master import GameMaster
from risk.server.master.seeing import token_seat

DELETED = "deleted player"
MAX_BOUND = 200  # seats bound in one request (a browser's "Your games" keeps at most as many)


def bind(master: GameMaster, account: str, game_id: str, token: str) -> dict[str, Any]:
    """Bind the seat ``token`` holds in ``game_id`` to ``account``: its line, or a refusal."""
    live = master.live(game_id)
    seat = token_seat(live.record, token)
    if seat is None:
        raise Refusal("bad-token", "this link's token does not hold a seat in this game")
    record = live.record.seats[seat]
    if record.account is not None and record.account != account:
        raise Refusal("bad-token", "this seat belongs to another account")
    if record.kind != "human":
        raise Refusal("bad-request", "only a person's seat is bound to an account")
    if live.record.settings.get("rated") and any(
        s.account == account and s.seat != seat for s in live.record.seats
    ):  # fair play: one person, one seat of a rated game
        raise Refusal("bad-request", "this account holds another seat of this rated game: one seat each")
    browser = record.browser or master.browser()
    check_one_browser(live.record, seat, browser)  # and one browser (docs/web.md, "Fair play")
    if record.account is None or record.browser != browser:
        master.store_seat(live, replace(record, account=account, browser=browser))
    return {"game": game_id, "seat": seat, "name": record.name}


def bind_all(master: GameMaster, account: str, held: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Each held seat (game id, token) bound, or the refusal of that one: one line each, in order."""
    lines = []
    for game_id, token in held:
        try:
            lines.append(bind(master, account, game_id, token))
        except Refusal as refusal:
            lines.append({"game": game_id, "error": refusal.to_dict()})
    return lines


def bound_seats(master: GameMaster, account: str) -> list[dict[str, Any]]:
    """The account's seats, newest game first: the game, the seat, its name, the game's state."""
    lines = []
    for game_id, seat in master.store(lambda: master.storage.account_seats(account)):
        record = master.record_of(game_id)
        lines.append(
            {
                "game": game_id,
                "seat": seat,
                "name": record.seats[seat].name,
                "status": record.status,
                "turn": record.turn,
                "winner": record.winner,
                "players": [s.name for s in record.seats],
                # Whether anyone may see it (a profile lists only these: a private game's id is its
                # watch link).
                "listed": bool(record.settings.get("public", True))
                and bool(record.settings.get("spectators", True)),
            }
        )
    return lines


def release_all(master: GameMaster, account: str) -> None:
    """The account's seats unbound and renamed "deleted player" (before the account is deleted).
    A game under way in a server process keeps showing the old name until it is loaded again."""
    for game_id, seat in master.store(lambda: master.storage.account_seats(account)):
        live = master.live(game_id)
        record = live.record.seats[seat]
        master.store_seat(live, replace(record, account=None, name=DELETED))
