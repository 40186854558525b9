"""The server's one refusal type: a code for programs, a message for people, an HTTP status.

Every part of the server refuses with a :class:`Refusal` and a refusal changes nothing. The web app
answers it as ``{"error": {"code": CODE, "message": TEXT}}`` (HTTP) or an ``error`` message (the
websocket); docs/web.md lists the codes.
"""

from __future__ import annotations

import logging
from typing import ClassVar

from risk.server.storage import StorageError

log = logging.getLogger("risk.server")


class Refusal(Exception):
    """A refused request. ``code`` is stable (for programs), ``message`` is for people."""

    STATUS: ClassVar[dict[str, int]] = {
        "bad-token": 403,
        "not-found": 404,
        "game-over": 409,
        "not-over": 409,  # what is shown only after the game (its record, its summary)
        "bad-record": 422,  # an uploaded record that does not replay
        "too-large": 413,
        "waiting": 409,
        "not-your-turn": 409,
        "stale": 409,
        "notation": 422,
        "illegal": 422,
        "bad-request": 422,
        "seat-taken": 409,
        "nothing-to-undo": 409,
        "present": 409,
        "stand-in": 409,
        "rate-limited": 429,  # risk.server.limits, and chat too fast
        "not-allowed": 405,  # an HTTP method the path does not take
        "unavailable": 503,
        "no-spectators": 403,  # the game does not allow spectators
        "bad-host": 400,  # a host name the server does not answer to (risk.server.hosts)
        # Accounts (risk.server.accounts)
        "bad-field": 422,  # a form's value refused: the answer's "field" names it
        "name-taken": 409,
        "sign-in-failed": 401,  # the same words for a wrong name and a wrong password
        "locked": 429,  # too many failed sign-ins to one name
        "signed-out": 401,  # no session (or an ended one) where one is needed
        "csrf": 403,  # a change without the session's X-CSRF-Token, or from another site
        "no-email": 409,  # a password reset on a server that sends no e-mail (no risk serve --smtp)
        "account-seat": 403,  # a seat bound to an account, used without that account's session
        # Fair play (risk.server.fairplay)
        "same-browser": 403,  # a second seat of a rated game from one browser, whatever the account
        "blocked": 403,  # a seat at a table where a player and you have a block between you
        "banned": 403,  # the game's host banned this account (or browser) from the game
        "already-reported": 409,  # one report per reporter per chat line
    }

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    @property
    def status(self) -> int:
        return self.STATUS.get(self.code, 400)

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class Unloadable(Refusal):
    """A stored game that does not replay (edited by hand, or by a release that disagreed on the rules):
    refused as unavailable, with the reason, for that game alone. Trying again does not help, so the
    server's own bots and clocks leave it alone (a failed store, a plain Refusal, is tried again)."""

    def __init__(self, game_id: str, problem: str, detail: str | None = None) -> None:
        super().__init__("unavailable", f"game {game_id} cannot be loaded: {problem}")
        # For the server's log only: the engine's words on a stored action may name a secret (a
        # headquarters chosen, a card held), so players are told which action, not why.
        self.detail = f"game {game_id} cannot be loaded: {detail or problem}"


def store_failed(error: StorageError, what: str) -> Refusal:
    """The refusal when the store fails: "try again", for players; the store's own words (its host, the
    driver's error) go to the server's log only."""
    log.warning("the game store failed: %s", error)
    return Refusal("unavailable", f"{what}: try again in a moment")
