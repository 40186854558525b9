"""The webhook channel (docs/web.md, "Notifications"): the host of a game gives a URL, and the server
POSTs a small JSON document to it for each event that anyone watching the game may know: whose move
it is, and the end. Made for chat integrations: Discord reads ``content``, Slack ``text``, ntfy
and the rest the whole document. Never a seat's own news (its losses, a reminder of its clock, a
defence wanted): under fog of war those are secrets of the seat.

Delivered by the same outbox as e-mail: queued once per event, retried with backoff, paused after
failures, at least once with ``key`` as the duplicate-suppression key (the ``Idempotency-Key`` header).
"""

from __future__ import annotations

import ipaddress
import json
import urllib.error
import urllib.request
from typing import Any

from risk.server.notify.channels import ChannelError, Message, split_url

WEBHOOK_TIMEOUT_S = 10.0
MAX_WEBHOOK_URL = 2000
USER_AGENT = "risk-notify/1"
# The events a webhook is told: what the game's spectators may know too.
WEBHOOK_KINDS = ("turn", "end")


def check_webhook_url(url: str, own_hosts: set[str]) -> str:
    """The URL cleaned, or ValueError saying what is wrong with it: http(s) only, a host name, no
    user or password, not longer than MAX_WEBHOOK_URL, not this server itself (``own_hosts``: the
    ``host[:port]`` names it was reached by, lower case)."""
    url = url.strip()
    parts = split_url(
        url,
        "the webhook URL",
        limit=MAX_WEBHOOK_URL,
        schemes=("http", "https"),
        start="https:// (or http://)",
    )
    host, port = parts.hostname or "", parts.port
    default = 443 if parts.scheme == "https" else 80
    names = {f"{host}:{port or default}".lower()}
    if port is None:
        names.add(host.lower())
    if names & own_hosts or _unspecified(host):
        raise ValueError("the webhook URL points at this server itself")
    return url


def _unspecified(host: str) -> bool:
    """0.0.0.0 and ::, which reach this machine's every address."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A webhook answered with a redirect failed: the server posts where the host said, nowhere else."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class WebhookChannel:
    name = "webhook"

    def __init__(self) -> None:
        self._opener = urllib.request.build_opener(_NoRedirects)

    def send(self, message: Message) -> None:
        body = json.dumps(payload(message)).encode()
        request = urllib.request.Request(
            message.to,
            data=body,
            method="POST",
            headers={
                "Content-Type": "application/json",
                "User-Agent": USER_AGENT,
                "Idempotency-Key": message.message_id.strip("<>"),
            },
        )
        try:
            with self._opener.open(request, timeout=WEBHOOK_TIMEOUT_S) as answer:
                status = answer.status
        except urllib.error.HTTPError as exc:
            raise ChannelError(f"the webhook answered {exc.code}") from None
        except (urllib.error.URLError, OSError) as exc:  # refused, timed out, TLS failed
            raise ChannelError(f"the webhook could not be reached: {type(exc).__name__}") from None
        if not 200 <= status < 300:
            raise ChannelError(f"the webhook answered {status}")


def payload(message: Message) -> dict[str, Any]:
    """What is posted: the text for chat tools, and each event for programs."""
    return {
        "content": message.text,  # Discord
        "text": message.text,  # Slack, Mattermost, Rocket.Chat
        "game": message.game_id,
        "url": message.link,  # the game's page, to watch it (no seat's token)
        "key": message.message_id.strip("<>"),
        "events": [{"kind": kind, "text": text} for kind, text in message.events],
    }
