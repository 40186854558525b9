"""The channels a message goes out by: the interface (:class:`Channel`) and e-mail over SMTP.

A channel sends one message, blocking (the sender calls it in a worker thread), and raises
:class:`ChannelError` if it could not: the sender retries later (:class:`AddressGone`: never again).
Web Push (``push``) and webhooks (``webhook``) are channels too.
"""

from __future__ import annotations

import re
import smtplib
import socket
import ssl
import time
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Protocol
from urllib.parse import SplitResult, parse_qs, unquote, urlsplit

SMTP_TIMEOUT_S = 20.0
MAX_ADDRESS = 254  # RFC 5321's limit on a path
# One address, no display name: a local part and a domain with a dot; no space, no line break.
ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+")


class ChannelError(Exception):
    """The message did not go (refused, timed out, nobody there): try again later. The text names
    the failure, never the address."""


class AddressGone(ChannelError):
    """The address is no more (a push service's 404 or 410: the browser unsubscribed): the
    subscription is deleted, not retried."""


@dataclass(frozen=True)
class Message:
    to: str  # the channel's address (an e-mail address; a push subscription's JSON; a webhook URL)
    subject: str
    text: str
    message_id: str  # the same for every attempt: receivers suppress duplicates with it
    link: str  # the seat's page, its token in the fragment (a webhook's: the game's page)
    unsubscribe: str  # works without the token ("" for a webhook: its host takes it away)
    game_id: str = ""
    events: tuple[tuple[str, str], ...] = ()  # (kind, text) of each event in it


class Channel(Protocol):
    name: str

    def send(self, message: Message) -> None:
        """Send it or raise ChannelError."""
        ...


def split_url(url: str, what: str, *, limit: int, schemes: tuple[str, ...], start: str) -> SplitResult:
    """The parts of a URL a player or host gave (a webhook, a push endpoint), or ValueError naming
    ``what`` and the fault: longer than ``limit``, a space or control character, a scheme not in
    ``schemes`` (``start``: how it must start, in words), no host, a port that is not a number, a
    user or password. The URL itself is never quoted (it may be a secret)."""
    if len(url) > limit:
        raise ValueError(f"{what} is {len(url)} characters long; the limit is {limit}")
    if any(c.isspace() or ord(c) < 32 for c in url):
        raise ValueError(f"{what} has a space or a control character in it")
    parts = urlsplit(url)
    if parts.scheme not in schemes:
        raise ValueError(f"{what} must start with {start}")
    try:
        parts.port  # noqa: B018 (it raises on a port that is not a number)
    except ValueError:
        raise ValueError(f"{what}'s port is not a number") from None
    if not parts.hostname:
        raise ValueError(f"{what} has no host")
    if parts.username or parts.password:
        raise ValueError(f"{what} must not carry a user name or password")
    return parts


def is_address(text: str) -> bool:
    return len(text) <= MAX_ADDRESS and ADDRESS.fullmatch(text) is not None


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    implicit_tls: bool  # smtps://: TLS from the first byte; smtp://: STARTTLS when the server offers it
    user: str | None
    password: str | None
    sender: str

    @classmethod
    def parse(cls, url: str) -> SmtpSettings:
        """``smtp://[user:pass@]host[:port][?from=ADDRESS]`` or ``smtps://...``; ValueError if not."""
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError(
                "--smtp must be smtp://[user:password@]host[:port] or smtps://... (?from=ADDRESS)"
            )
        try:
            port = parts.port or (465 if parts.scheme == "smtps" else 587)
        except ValueError:
            raise ValueError("--smtp: the port is not a number") from None
        sender = parse_qs(parts.query).get("from", [""])[0]
        if sender and not is_address(sender):
            raise ValueError("--smtp: ?from= is not an e-mail address")
        sender = sender or f"risk@{socket.getfqdn()}"  # the host's name, as cron's mail does
        user = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password else None
        return cls(parts.hostname, port, parts.scheme == "smtps", user, password, sender)


class EmailChannel:
    """E-mail through the host's SMTP server (``risk serve --smtp URL``)."""

    name = "email"

    def __init__(self, settings: SmtpSettings) -> None:
        self.settings = settings
        self._tls: ssl.SSLContext | None = None  # made once: loading the CA store took 21 ms a message

    def _context(self) -> ssl.SSLContext:
        if self._tls is None:
            self._tls = ssl.create_default_context()
        return self._tls

    def send(self, message: Message) -> None:
        mail = EmailMessage()
        mail["From"] = self.settings.sender
        mail["To"] = message.to
        mail["Subject"] = message.subject
        mail["Date"] = formatdate(time.time())
        mail["Message-ID"] = message.message_id
        mail["List-Unsubscribe"] = f"<{message.unsubscribe}>"
        mail["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        mail["Auto-Submitted"] = "auto-generated"
        mail.set_content(
            f"{message.text}\n\nYour seat: {message.link}\n\nNo more e-mail: {message.unsubscribe}\n"
        )
        self._send(mail)

    def send_plain(self, to: str, subject: str, text: str) -> None:
        """A message that is not a game's notification (an account's password reset)."""
        mail = EmailMessage()
        mail["From"] = self.settings.sender
        mail["To"] = to
        mail["Subject"] = subject
        mail["Date"] = formatdate(time.time())
        mail["Message-ID"] = make_msgid(domain=self.settings.sender.rpartition("@")[2] or None)
        mail["Auto-Submitted"] = "auto-generated"
        mail.set_content(text)
        self._send(mail)

    def _send(self, mail: EmailMessage) -> None:
        try:
            self._deliver(mail)
        except smtplib.SMTPRecipientsRefused:
            raise ChannelError("the SMTP server refused the recipient") from None
        except smtplib.SMTPResponseException as exc:
            raise ChannelError(f"the SMTP server refused: {exc.smtp_code}") from None
        except (smtplib.SMTPException, OSError) as exc:  # refused, timed out, TLS failed
            raise ChannelError(f"the SMTP server could not be reached: {type(exc).__name__}") from None

    def _deliver(self, mail: EmailMessage) -> None:
        s = self.settings
        context = self._context()
        smtp: smtplib.SMTP
        if s.implicit_tls:
            smtp = smtplib.SMTP_SSL(s.host, s.port, timeout=SMTP_TIMEOUT_S, context=context)
        else:
            smtp = smtplib.SMTP(s.host, s.port, timeout=SMTP_TIMEOUT_S)
        with smtp:
            smtp.ehlo()
            secure = s.implicit_tls
            if not secure and smtp.has_extn("starttls"):
                smtp.starttls(context=context)
                smtp.ehlo()
                secure = True
            if s.user is not None:
                if not secure:  # never a password in the clear
                    raise ChannelError("the SMTP server offers no TLS: the password is not sent")
                smtp.login(s.user, s.password or "")
            smtp.send_message(mail)
