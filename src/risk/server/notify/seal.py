"""Seat tokens sealed where notifications keep them (``notify_subscriptions.seat_token``).

A message's link carries its seat's token, so the notifier must keep the token; the seats table keeps
only a hash of it, and a copy of the database must not hand out the seats all the same. The token is
encrypted (Fernet: AES-128-CBC and HMAC-SHA256) with a key derived from the server's own key file, the
VAPID key in the data folder (risk.server.notify.push), which every process of a site already shares.
A server with no key file (its games in memory, the tests) seals with a key of its own, lost with it.
"""

from __future__ import annotations

import base64
import logging
import os
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

log = logging.getLogger(__name__)

PREFIX = "sealed:"


class Seal:
    def __init__(self, secret: bytes) -> None:
        key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"risk: notify seat tokens").derive(
            secret
        )
        self._fernet = Fernet(base64.urlsafe_b64encode(key))

    @classmethod
    def random(cls) -> Seal:
        """A key of this process alone (a server whose games are in memory, a test)."""
        return cls(os.urandom(32))

    @classmethod
    def of_file(cls, path: Path) -> Seal:
        """The key derived from a secret file's bytes (the server's VAPID key); ValueError if unreadable."""
        try:
            return cls(path.read_bytes())
        except OSError as exc:
            raise ValueError(f"cannot read the key {path}: {exc.strerror or type(exc).__name__}") from None

    def close(self, token: str) -> str:
        return PREFIX + self._fernet.encrypt(token.encode()).decode()

    def open(self, stored: str) -> str:
        """The token, or "" if it cannot be opened (another key: the message's link then opens the game
        without its seat). A value without the prefix was stored before tokens were sealed."""
        if not stored.startswith(PREFIX):
            return stored
        try:
            return self._fernet.decrypt(stored.removeprefix(PREFIX).encode()).decode()
        except InvalidToken:
            log.warning("a seat's link could not be opened (the server's key changed): sent without it")
            return ""
