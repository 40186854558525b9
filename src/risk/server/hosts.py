"""Which host names the server answers to: a guard against DNS rebinding.

A web page on an attacker's name can have that name re-resolved to this server's address (127.0.0.1 or
a LAN address); the browser then sends that page's requests here, with the attacker's name in both
``Host`` and ``Origin``, so the Origin check alone lets them through. Such a request always names a
domain the attacker controls, never an IP address: so by default the server answers to IP addresses,
``localhost`` and this machine's own names, and an operator who serves under a domain name lists it
(``risk serve --allowed-hosts games.example.org`` or ``*.example.org``).
"""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def machine_names() -> set[str]:
    """``localhost`` and the names this machine goes by on its network (mDNS ``.local`` included)."""
    names = {"localhost"}
    for name in (socket.gethostname(), socket.getfqdn()):
        name = name.strip().lower().rstrip(".")
        if name:
            names.add(name)
            names.add(name.split(".")[0] + ".local")
    return names


def host_name(header: str) -> str:
    """The name in a ``Host`` header, without its port, lower-case (``[::1]:8000`` -> ``::1``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    if header.count(":") == 1:
        header = header.split(":", 1)[0]
    return header.rstrip(".")


def is_ip_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class AllowedHosts:
    """IP addresses and ``names`` (exact, or ``*.suffix`` for any name under the suffix)."""

    def __init__(self, names: Iterable[str]) -> None:
        self.exact: set[str] = set()
        self.suffixes: list[str] = []
        for name in names:
            name = name.strip().lower().rstrip(".")
            if not name:
                continue
            if name.startswith("*."):
                self.suffixes.append(name[1:])  # ".example.org"
            elif "*" in name:
                raise ValueError(f"{name!r}: a wildcard may only start a name, as in *.example.org")
            else:
                self.exact.add(name)

    @classmethod
    def default(cls, extra: Iterable[str] = ()) -> AllowedHosts:
        return cls([*machine_names(), *extra])

    def allows(self, header: str | None) -> bool:
        if not header:
            return False  # HTTP/1.1 requires Host; an old client without one is no browser page
        name = host_name(header)
        return is_ip_address(name) or name in self.exact or any(name.endswith(s) for s in self.suffixes)

    def described(self) -> str:
        return ", ".join(["IP addresses", *sorted(self.exact), *(f"*{s}" for s in self.suffixes)])


class HostCheckMiddleware:
    """ASGI middleware: requests and websockets for a host name not allowed are refused (400 / 1008)."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], allowed: AllowedHosts) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = next((value.decode("latin-1") for key, value in scope["headers"] if key == b"host"), None)
        if self.allowed.allows(host):
            await self.app(scope, receive, send)
            return
        message = (
            f"this server does not answer to the host name {host!r} (it answers to "
            f"{self.allowed.described()}); its operator can add it with risk serve --allowed-hosts"
        )
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1008, "reason": "host name not allowed"})
            return
        # The app's error shape, with a code of Refusal.STATUS (so the OpenAPI schema lists it).
        body = json.dumps({"error": {"code": "bad-host", "message": message}}).encode("utf-8")
        await send(
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


__all__ = ["AllowedHosts", "HostCheckMiddleware", "host_name", "machine_names"]
