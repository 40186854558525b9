"""Who is asking: seat and host tokens (stored only as their hashes), and the bearer header that
carries one."""

from __future__ import annotations

import hashlib
import secrets

from risk.server.errors import Refusal


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header (None without one); any other scheme,
    or no token, is refused."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refusal("bad-token", "the Authorization header must be 'Bearer TOKEN'")
    return token.strip()
