"""Signing up, in and out, and what an account's player may do with it (docs/web.md, "Accounts").

- Passwords are hashed with argon2id (argon2-cffi's ``PasswordHasher``, RFC 9106's low-memory profile
  by default: 64 MiB, 3 passes), at most :data:`HASHING_AT_ONCE` at a time, and checked by argon2's own
  constant-time comparison. A sign-in to a name no account has is checked against a dummy hash, so it
  takes as long as a wrong password and answers in the same words: sign-in tells no one which names
  exist (sign-up must say a name is taken: it is rate-limited like sign-in).
- The lockout: after :data:`LOCKOUT_FAILURES` failed sign-ins to one name within
  :data:`LOCKOUT_WINDOW_S`, that name is refused (its right password too) until the window has passed
  since the last of them; counted in the database, for every server process, for names with no
  account as for names with one. Each client address also has a rate: :data:`SIGN_IN_RATE`.
- No password is logged, kept, or put in an error: refusals name the field and the rule.
"""

from __future__ import annotations

import logging
import math
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from risk.server.accounts.current import session_cookie
from risk.server.accounts.names import NameError_, clean_name, name_key
from risk.server.accounts.store import Account, AccountStore, AccountStoreError, NameTaken, Session
from risk.server.auth import hash_token
from risk.server.errors import Refusal
from risk.server.limits import SIGN_IN_RATE, AddressLimiter, Rate
from risk.server.notify.channels import MAX_ADDRESS, ChannelError, EmailChannel, is_address

T = TypeVar("T")
log = logging.getLogger("risk.server")
MIN_PASSWORD, MAX_PASSWORD = 8, 256
LOCKOUT_FAILURES = 5
LOCKOUT_WINDOW_S = 15 * 60.0
HASHING_AT_ONCE = 2  # argon2id hashes computed at once (64 MiB each): the rest wait their turn
KNOWN_S = 10.0  # a session looked up is known this long in a process (see current_account)
MAX_KNOWN = 10_000


class FieldRefusal(Refusal):
    """A form's value refused: ``field`` names the field, so the page shows the message beside it."""

    def __init__(self, field: str, message: str, code: str = "bad-field") -> None:
        super().__init__(code, message)
        self.field = field

    def to_dict(self) -> dict[str, str]:
        return {**super().to_dict(), "field": self.field}


@dataclass(frozen=True)
class SignedIn:
    account: Account
    token: str  # the session cookie's value
    csrf: str


def check_password(password: object, name: str) -> str:
    if not isinstance(password, str):
        raise FieldRefusal("password", "a password is text")
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise FieldRefusal("password", f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    if name_key(password) == name_key(name):
        raise FieldRefusal("password", "a password is not the name")
    return password


def check_email(email: object) -> str | None:
    if email is None or email == "":
        return None
    if not isinstance(email, str) or not is_address(email.strip()):
        raise FieldRefusal(
            "email", f"an e-mail address looks like name@example.org (at most {MAX_ADDRESS} characters)"
        )
    return email.strip()


def stored(operation: Callable[..., T], *args: Any) -> T:
    """``operation(*args)`` on an accounts' store, a database that fails answered "try again"."""
    try:
        return operation(*args)
    except AccountStoreError:
        raise Refusal("unavailable", "the server cannot reach its database now: try again") from None


class Accounts:
    """The accounts of one server process (their store is shared by every process)."""

    class Settings(NamedTuple):
        """What :class:`Accounts` is made with beside its store (in its arguments' order)."""

        hasher: PasswordHasher | None
        clock: Callable[[], float]
        sign_in_rate: Rate | None
        mail: EmailChannel | None

    def __init__(
        self,
        store: AccountStore,
        hasher: PasswordHasher | None = None,
        clock: Callable[[], float] = time.time,
        sign_in_rate: Rate | None = SIGN_IN_RATE,
        mail: EmailChannel | None = None,
    ) -> None:
        self.store = store
        self.mail = mail  # the host's SMTP server (risk serve --smtp): password resets
        self.hasher = hasher or PasswordHasher()
        self.clock = clock
        self._hashing = threading.BoundedSemaphore(HASHING_AT_ONCE)
        self._dummy_hash: str | None = None  # made at the first sign-in: not at every start
        self._limiter = (
            None if sign_in_rate is None else AddressLimiter(sign_in_rate, "sign-ins and sign-ups")
        )
        self._known: dict[str, tuple[str | None, float]] = {}  # session token hash -> account, until

    # Every method below blocks (argon2, the database): the routes call them in a worker thread.
    def sign_up(
        self, name: object, password: object, email: object, address: str, site: str | None = None
    ) -> SignedIn:
        self._limit(address)
        try:
            kept = clean_name(name)
        except NameError_ as refused:
            raise FieldRefusal("name", str(refused)) from None
        check_password(password, kept)
        assert isinstance(password, str)
        address_given = check_email(email)
        key = name_key(kept)
        with self._hashing:
            hashed = self.hasher.hash(password)
        try:
            account = self._stored(self.store.create, kept, key, hashed, address_given, self.clock(), site)
        except NameTaken:
            raise FieldRefusal(
                "name", "that name is taken (or one that looks the same)", "name-taken"
            ) from None
        return self._signed_in(account)

    def sign_in(self, name: object, password: object, address: str, site: str | None = None) -> SignedIn:
        self._limit(address)
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > MAX_PASSWORD:
            raise _sign_in_failed()
        key = name_key(name[: 4 * MAX_PASSWORD])
        now = self.clock()
        failures = self._stored(self.store.failures_since, key, now - LOCKOUT_WINDOW_S)
        if len(failures) >= LOCKOUT_FAILURES:
            wait = failures[-LOCKOUT_FAILURES] + LOCKOUT_WINDOW_S - now
            minutes = max(1, math.ceil(wait / 60))
            plural = "s" if minutes > 1 else ""
            raise Refusal(
                "locked", f"too many failed sign-ins to this name: try again in {minutes} minute{plural}"
            )
        account = self._stored(self.store.by_key, key)
        # No such account: the dummy hash checked all the same, so the answer comes as late.
        if (
            not self._verify(self._dummy() if account is None else account.password, password)
            or account is None
        ):
            self._stored(self.store.add_failure, key, now, now - LOCKOUT_WINDOW_S)
            raise _sign_in_failed()
        if failures:
            self._stored(self.store.clear_failures, key)
        if site is not None and site != account.site:
            self._stored(self.store.set_site, account.id, site)
        if self.hasher.check_needs_rehash(account.password):  # the server's profile changed since
            with self._hashing:
                self._stored(self.store.set_password, account.id, self.hasher.hash(password))
        return self._signed_in(account)

    # -- a forgotten password: a link by e-mail ------------------------------------------------------
    def ask_reset(self, name: object, address: str) -> None:
        """E-mail a reset link to the account called ``name``, if it has an address and the server
        sends e-mail. Says nothing either way, and sends from another thread, so neither the answer
        nor its time tells whether the name has an account or an address. The link points to the
        address the player's browser reached the server at when they last signed in or up, never to
        this request's Host (which anyone may forge, to have the link sent to their own server)."""
        self._limit(address)
        if self.mail is None:
            raise Refusal("no-email", "this server sends no e-mail (its host has not set risk serve --smtp)")
        if not isinstance(name, str) or len(name) > 4 * MAX_PASSWORD:
            return
        account = self._stored(self.store.by_key, name_key(name))
        if account is None or account.email is None or account.site is None:
            return
        site = account.site
        token = self._stored(self.store.new_reset, account.id, self.clock())
        if token is None:  # three links within the hour already
            return
        text = (
            f"Someone (you, we hope) asked for a new password for the RISK account {account.name} "
            f"at {site}.\n\nChoose a new one here, within the hour (the link works once):\n"
            f"{site}/#reset={token}\n\nIf it was not you, do nothing: your password stays as it is.\n"
        )
        threading.Thread(
            target=self._mail_reset, args=(account.email, text), name="risk-reset-mail", daemon=True
        ).start()

    def _mail_reset(self, to: str, text: str) -> None:
        assert self.mail is not None
        try:
            self.mail.send_plain(to, "Your RISK account: a new password", text)
        except ChannelError as error:  # the address is not logged: a player's secret
            log.warning("a password reset e-mail could not be sent: %s", error)

    def finish_reset(self, token: object, new_password: object) -> SignedIn:
        """A new password through a reset link: every other session and link of the account ends,
        and this browser is signed in."""
        bad_link = Refusal(
            "bad-token", "this reset link does not work (used, or over an hour old): ask for another"
        )
        if not isinstance(token, str) or not token or len(token) > 200:
            raise bad_link
        account = self._stored(self.store.reset_of, token, self.clock())
        if account is None:
            raise bad_link
        check_password(new_password, account.name)
        assert isinstance(new_password, str)
        with self._hashing:
            hashed = self.hasher.hash(new_password)
        changed = self._stored(self.store.use_reset, token, hashed, self.clock())
        if changed is None:  # used meanwhile
            raise bad_link
        self._known.clear()
        self._stored(self.store.clear_failures, changed.name_key)
        return self._signed_in(changed)

    def session(self, token: str | None) -> Session | None:
        if not token or len(token) > 200:
            return None
        return self._stored(self.store.session, token, self.clock())

    def sign_out(self, session: Session) -> None:
        self._stored(self.store.end_session, session.token_hash)
        self._known.pop(session.token_hash, None)

    def current_account(self) -> str | None:
        """The account signed in on the request being answered (its session cookie), or None. Known
        sessions are kept :data:`KNOWN_S` seconds in this process: a session ended in another process
        still counts here for at most that long."""
        token = session_cookie.get()
        if not token or len(token) > 200:
            return None
        token_hash, now = hash_token(token), self.clock()
        known = self._known.get(token_hash)
        if known is not None and known[1] > now:
            return known[0]
        session = self._stored(self.store.session, token, now)
        account = None if session is None else session.account.id
        if len(self._known) >= MAX_KNOWN:
            self._known.clear()
        self._known[token_hash] = (account, now + KNOWN_S)
        return account

    def change_password(self, session: Session, password: object, new_password: object) -> None:
        """A new password (the old one given again); every other session of the account ends."""
        if not isinstance(password, str) or not self._verify(session.account.password, password):
            raise FieldRefusal("password", "that is not the account's password")
        check_password(new_password, session.account.name)
        assert isinstance(new_password, str)
        with self._hashing:
            hashed = self.hasher.hash(new_password)
        self._stored(self.store.set_password, session.account.id, hashed)
        self._stored(self.store.end_other_sessions, session.account.id, session.token_hash)
        self._known.clear()

    def export(self, session: Session) -> dict[str, Any]:
        return self._stored(self.store.export, session.account.id)

    def check_own_password(self, session: Session, password: object) -> None:
        """The account's password given again (before deleting it: a session left open is not enough)."""
        if not isinstance(password, str) or not self._verify(session.account.password, password):
            raise FieldRefusal("password", "that is not the account's password")

    def delete(self, session: Session) -> None:
        """The account and its sessions (its seats unbound first: risk.server.accounts.seats)."""
        self._stored(self.store.delete, session.account.id)
        self._known.clear()

    def _dummy(self) -> str:
        """A hash of a random password, for a sign-in to a name with no account (made with this
        server's parameters: checking it costs what checking a real one does)."""
        if self._dummy_hash is None:
            with self._hashing:
                self._dummy_hash = self.hasher.hash(secrets.token_urlsafe(16))
        return self._dummy_hash

    def _verify(self, hashed: str, password: str) -> bool:
        with self._hashing:
            try:
                return self.hasher.verify(hashed, password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False

    def _signed_in(self, account: Account) -> SignedIn:
        token, csrf = self._stored(self.store.new_session, account.id, self.clock())
        return SignedIn(account, token, csrf)

    def _limit(self, address: str) -> None:
        if self._limiter is not None:
            self._limiter.check(address)

    _stored = staticmethod(stored)


def _sign_in_failed() -> Refusal:
    # One message for a wrong name and a wrong password: sign-in tells no one which names exist.
    return Refusal("sign-in-failed", "that name and password do not match an account")
