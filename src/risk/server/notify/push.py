"""The Web Push channel (docs/web.md, "Notifications"): a seat's browser subscribes with its push
service (the browser's ``PushSubscription``: an endpoint URL and two keys), the page gives that to the
server, and the server POSTs each message to the endpoint, encrypted for that browser alone (RFC 8291,
``aes128gcm``) and signed with the server's VAPID key (RFC 8292), which the browser was given when it
subscribed. The push service wakes the browser's service worker (``/sw.js``), which shows it.

The endpoint is a URL the player chose: the server posts only to ``https://`` on a public host,
checked when it is given and again (its addresses) before each post, and follows no redirect (an
SSRF guard). A push service answering 404 or 410 says the subscription is gone: it is deleted, not
retried. The endpoint and the keys are a secret of the seat's: never logged, never said back.
"""

from __future__ import annotations

import base64
import contextlib
import importlib.util
import ipaddress
import json
import os
import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import platformdirs

from risk.server.notify.channels import AddressGone, ChannelError, Message, is_address, split_url

# pywebpush and what it brings (cryptography, py_vapid, requests) are imported where they are used: a
# server without them runs without Web Push, and the API's checks of a request import nothing.
if TYPE_CHECKING:
    from py_vapid import Vapid

PUSH_TTL_S = 86_400  # a message the push service cannot hand over in a day is stale anyway
PUSH_TIMEOUT_S = 10.0
MAX_ENDPOINT = 1024  # the push services' own are 100 to 500 characters
MAX_PAYLOAD = 3000  # bytes of JSON: encrypted (and padded), it must stay under the services' 4 KB
URGENT = ("move", "defend")  # the rest may wait for the device to wake by itself
VAPID_FILE = "vapid-private.pem"
CONTACT_URL = re.compile(r"https://[\w-]+\.[\w.-]+")  # a site, as py_vapid takes it: no port, no path
# Names that are never a public host (RFC 6761, RFC 8375, and what home routers hand out).
LOCAL_SUFFIXES = (".localhost", ".local", ".internal", ".lan", ".home", ".home.arpa", ".localdomain")


@dataclass(frozen=True)
class PushSettings:
    """The server's VAPID key and contact. ``local_endpoints``: tests only, an endpoint may be
    ``http://`` on this machine (the test's own push service); never set by ``risk serve``."""

    vapid: Vapid
    contact: str  # mailto:ADDRESS or https://...: whom a push service writes to about this server
    local_endpoints: bool = False

    @property
    def public_key(self) -> str:
        return application_server_key(self.vapid)


def available() -> bool:
    """Whether Web Push can be sent from here (pywebpush installed: a dependency, so normally yes)."""
    return importlib.util.find_spec("pywebpush") is not None


# -- the VAPID key -----------------------------------------------------------------------------------
def default_vapid_path() -> Path:
    """Where the key is kept when ``--vapid-key`` is not given: the user's data folder (where the
    default game database is), e.g. ~/.local/share/risk/vapid-private.pem."""
    return Path(platformdirs.user_data_dir("risk")) / VAPID_FILE


def load_vapid_key(path: Path) -> Vapid:
    """The P-256 private key in a PEM file, or ValueError saying what is wrong (never the key)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from py_vapid import Vapid

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read the VAPID key {path}: {exc.strerror or type(exc).__name__}") from None
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise ValueError(f"{path} is not a PEM private key without a password") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, ec.SECP256R1):
        raise ValueError(f"{path} is not a P-256 (prime256v1) key, which VAPID needs")
    return Vapid(private_key=key)


def vapid_key_file(path: Path | None = None) -> Path:
    """``path`` (``--vapid-key``), or the data folder's key file, made there on first use. Made once:
    a new key would end every subscription the browsers hold."""
    from py_vapid import Vapid

    if path is not None:
        return path
    path = default_vapid_path()
    if path.exists():
        return path
    vapid = Vapid()
    vapid.generate_keys()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Readable by its owner alone; O_EXCL: another process that made one first wins.
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path
    except OSError as exc:
        raise ValueError(f"cannot make the VAPID key {path}: {exc.strerror or type(exc).__name__}") from None
    with os.fdopen(descriptor, "wb") as file:
        file.write(vapid.private_pem())
    return path


def application_server_key(vapid: Vapid) -> str:
    """The public key as browsers take it (``applicationServerKey``): the point, base64url."""
    from cryptography.hazmat.primitives import serialization

    raw = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64(raw)


def check_contact(contact: str) -> str:
    """``mailto:ADDRESS`` or ``https://HOST`` (what py_vapid signs and push services accept), or
    ValueError."""
    if contact.startswith("mailto:") and is_address(contact.removeprefix("mailto:")):
        return contact
    if CONTACT_URL.fullmatch(contact):
        return contact
    raise ValueError("--push-contact must be mailto:ADDRESS or https://HOST (no path)")


# -- the subscription --------------------------------------------------------------------------------
def check_subscription(data: Any, *, local: bool = False) -> str:
    """The browser's ``PushSubscription`` (``toJSON()``) as stored: JSON of the endpoint and the two
    keys only. ValueError saying what is wrong (never quoting the endpoint or a key)."""
    from cryptography.hazmat.primitives.asymmetric import ec

    if not isinstance(data, Mapping):
        raise ValueError("subscription must be the browser's PushSubscription (endpoint and keys)")
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint:
        raise ValueError("subscription.endpoint is missing")
    check_endpoint(endpoint, local=local)
    keys = data.get("keys")
    if not isinstance(keys, Mapping):
        raise ValueError("subscription.keys is missing (p256dh and auth)")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not isinstance(p256dh, str) or not p256dh:
        raise ValueError("subscription.keys.p256dh is missing")
    if not isinstance(auth, str) or not auth:
        raise ValueError("subscription.keys.auth is missing")
    point = _unb64(p256dh, 100)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point or b"?")
    except ValueError:
        raise ValueError("subscription.keys.p256dh is not a P-256 public key (65 bytes, base64url)") from None
    secret = _unb64(auth, 32)
    if secret is None or len(secret) != 16:
        raise ValueError("subscription.keys.auth is not 16 bytes in base64url")
    return json.dumps({"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}, separators=(",", ":"))


def check_endpoint(url: str, *, local: bool = False) -> str:
    """An ``https://`` URL on a public host name or address, or ValueError."""
    schemes = ("https", "http") if local else ("https",)
    parts = split_url(url, "subscription.endpoint", limit=MAX_ENDPOINT, schemes=schemes, start="https://")
    host = parts.hostname or ""
    if not local and not _public_name(host):
        raise ValueError("subscription.endpoint is not on a public host (a private or local address)")
    return url


def _public_name(host: str) -> bool:
    """A public address, or a name that could be one (a dot in it, no local suffix); what a name
    resolves to is checked before each post."""
    with contextlib.suppress(ValueError):  # not an address: a name
        return _public_address(host.strip("[]"))
    name = host.lower().rstrip(".")
    return "." in name and name != "localhost" and not name.endswith(LOCAL_SUFFIXES)


def _public_address(text: str) -> bool:
    """ValueError if ``text`` is no IP address."""
    address = ipaddress.ip_address(text)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def _resolves_to_public(host: str, port: int) -> bool:
    """Every address the host has now is public (a name may have been pointed at 10.0.0.1 since)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError:
        raise ChannelError("the push service's host name does not resolve") from None
    return bool(found) and all(_public_address(str(entry[4][0]).split("%")[0]) for entry in found)


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str, limit: int) -> bytes | None:
    """base64url (padded or not) decoded, or None if it is not that or longer than ``limit``."""
    if len(text) > limit:
        return None
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError:
        return None


# -- sending -----------------------------------------------------------------------------------------
def payload(message: Message) -> bytes:
    """What the service worker shows (JSON): the title, the events, the seat's page to open; the
    events' text cut to fit (a digest of a long game's losses)."""
    shown = {"title": message.subject, "body": message.text, "url": message.link}
    data = _json(shown)
    if len(data) <= MAX_PAYLOAD:
        return data
    room = MAX_PAYLOAD - len(_json({**shown, "body": "…"}))
    body = message.text.encode()[: max(room, 0)].decode(errors="ignore")  # no half a character
    while True:  # what JSON escapes (a line break, a quote) takes a byte more: a few characters less
        data = _json({**shown, "body": body + "…"})
        if len(data) <= MAX_PAYLOAD or not body:
            return data
        body = body[: len(body) - (len(data) - MAX_PAYLOAD)]


def _json(shown: dict[str, str]) -> bytes:
    return json.dumps(shown, ensure_ascii=False).encode()


class PushChannel:
    name = "push"

    def __init__(self, settings: PushSettings) -> None:
        import requests

        self.settings = settings
        self._session = requests.Session()
        self._session.max_redirects = 0  # a push service answers; it never sends the post elsewhere

    def send(self, message: Message) -> None:
        import requests
        from pywebpush import WebPushException, webpush

        try:
            subscription = json.loads(message.to)
            endpoint = check_endpoint(subscription["endpoint"], local=self.settings.local_endpoints)
        except (ValueError, KeyError, TypeError):
            raise AddressGone("the stored push subscription is not one") from None
        parts = urlsplit(endpoint)
        if not self.settings.local_endpoints and not _resolves_to_public(
            parts.hostname or "", parts.port or 443
        ):
            raise ChannelError("the push service's host resolves to a private address")
        urgent = any(kind in URGENT for kind, _text in message.events)
        try:
            webpush(
                subscription,
                payload(message),
                vapid_private_key=self.settings.vapid,
                vapid_claims={"sub": self.settings.contact},  # a new dict: webpush adds aud and exp to it
                ttl=PUSH_TTL_S,
                timeout=PUSH_TIMEOUT_S,
                headers={"Urgency": "high" if urgent else "normal"},
                requests_session=self._session,
            )
        except WebPushException as exc:  # its text quotes the service's answer: not passed on
            status = exc.status_code
            if status is None:
                raise ChannelError("the push message could not be made") from None
            if status in (404, 410):
                raise AddressGone(f"the push service says the subscription is gone ({status})") from None
            raise ChannelError(f"the push service answered {status}") from None
        except requests.RequestException as exc:  # refused, timed out, TLS failed, a redirect
            raise ChannelError(f"the push service could not be reached: {type(exc).__name__}") from None
