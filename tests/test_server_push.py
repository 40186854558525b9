"""Notifications by Web Push (docs/web.md, "Notifications"; risk.server.notify.push), against a push
service of the test's own on 127.0.0.1 (allowed by PushSettings.local_endpoints, a test-only switch):

- a move told: the POST's VAPID signature checked against the server's public key, its aes128gcm
  payload decrypted with the browser's private key the test made, the TTL and Urgency headers;
- a push service's 404 or 410: the subscription deleted, nothing retried; a 500 or a redirect:
  retried with the outbox's backoff; no endpoint nor key in the log;
- bad subscriptions refused with a clear text, nothing stored; the API (another seat's token, a
  new browser replacing the old, Stop), a server without Web Push;
- the VAPID key made once in the data folder and the same after a restart of `risk serve`, or given
  with --vapid-key; /sw.js served from the root.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from fastapi.testclient import TestClient

from live_server import free_port, request, server
from risk.server.app import create_app
from risk.server.logsafe import HideSecrets
from risk.server.master import GameMaster, GameSpec, SeatSpec
from risk.server.notify import push as push_module
from risk.server.notify.channels import ChannelError, Message
from risk.server.notify.outbox import Outbox
from risk.server.notify.push import (
    MAX_ENDPOINT,
    MAX_PAYLOAD,
    PUSH_TTL_S,
    PushChannel,
    PushSettings,
    check_subscription,
    load_vapid_key,
    vapid_key_file,
)
from risk.server.notify.sender import Notifier
from risk.server.sql import SqlStorage
from test_server_notify import Clock, Quiet, Table, local_http, play

CONTACT = "mailto:host@example.org"


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """A browser's side of a subscription: its private key and auth secret (the push service never
    has them), and the subscription it gives the page."""

    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: secrets.token_bytes(16))

    def subscription(self, endpoint: str) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64(point), "auth": b64(self.auth)},
        }

    def read(self, body: bytes) -> dict[str, Any]:
        """The payload decrypted (RFC 8291), as the browser does before the service worker sees it."""
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        return json.loads(plain)


@dataclass
class PushService:
    """A push service on 127.0.0.1: what it was posted, and the status it answers with."""

    posts: list[tuple[str, dict[str, str], bytes]] = field(default_factory=list)  # headers in lower case
    status: int = 201
    delay: float = 0.0  # seconds before it answers
    tried: int = 0
    base: str = ""

    def endpoint(self, name: str = "send/abc123") -> str:
        return f"{self.base}/{name}"


@pytest.fixture
def service() -> Iterator[PushService]:
    found = PushService()

    class Handler(Quiet):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            found.tried += 1
            time.sleep(found.delay)
            if found.status == 201:
                found.posts.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(found.status)
            if found.status in (301, 307):
                self.send_header("Location", found.endpoint("elsewhere"))
            self.send_header("Content-Length", "0")
            self.end_headers()

    with local_http(Handler) as found.base:
        yield found


def settings(*, local: bool = True) -> PushSettings:
    vapid = load_vapid_key(vapid_key_file(None))  # the session's own data folder (conftest)
    return PushSettings(vapid, CONTACT, local_endpoints=local)


def push_table(tmp_path: Path, push: PushSettings, browser: Browser, endpoint: str) -> Table:
    """A game of Ann, Bob and a bot, Ann's seat subscribed by push, the notifier stepped by hand."""
    storage = SqlStorage(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    clock = Clock()
    master = GameMaster(storage, clock=clock)
    spec = GameSpec(seats=[SeatSpec("human", "Ann"), SeatSpec("human", "Bob"), SeatSpec("bot", bot="quick")],
                    seed=3, bot_delay=0, defend_timeout=0)  # fmt: skip
    record, created = master.create_game(spec)
    tokens = [c.token or "" for c in created if c.token]
    outbox = Outbox(storage.engine)
    present: set[int] = set()
    notifier = Notifier(outbox, storage, [PushChannel(push)], lambda _game: present, clock=clock, retry_s=10)
    notifier.listen_to(master)
    address = check_subscription(browser.subscription(endpoint), local=push.local_endpoints)
    outbox.subscribe(
        record.id, 0, "push", address=address, seat_token=tokens[0], site="http://risk.test/",
        every_s=0.0, now=clock.now,
    )  # fmt: skip
    return Table(master, outbox, notifier, clock, record.id, tokens, present)


def verify_vapid(authorization: str, public_key: str, audience: str) -> dict[str, Any]:
    """The claims of a ``vapid t=JWT,k=KEY`` header, its ES256 signature checked with the server's key."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme == "vapid"
    parts = dict(part.split("=", 1) for part in rest.split(","))
    assert parts["k"] == public_key
    head, claims, signature = parts["t"].split(".")
    raw = unb64(signature)
    point = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(public_key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    point.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    found: dict[str, Any] = json.loads(unb64(claims))
    assert found["aud"] == audience and found["sub"] == CONTACT
    assert time.time() < found["exp"] <= time.time() + 86_400
    return found


def test_a_move_told_by_push_signed_and_encrypted_for_the_browser(
    tmp_path: Path, service: PushService, caplog: pytest.LogCaptureFixture
) -> None:
    push, browser = settings(), Browser()
    t = push_table(tmp_path, push, browser, service.endpoint())
    while t.master.live(t.game_id).game.to_act != 0:
        play(t, 1)
    t.notifier.step()
    assert len(service.posts) == 1
    path, headers, body = service.posts[0]
    assert path == "/send/abc123"
    verify_vapid(headers["authorization"], push.public_key, service.base)
    assert headers["content-encoding"] == "aes128gcm" and headers["ttl"] == str(PUSH_TTL_S)
    assert headers["urgency"] == "high"
    assert b"your move" not in body  # encrypted: only the browser reads it
    shown = browser.read(body)
    assert shown["title"] == f"RISK game {t.game_id}: it is your move"
    assert shown["body"].startswith(f"Game {t.game_id}: it is your move")
    assert shown["url"] == f"http://risk.test/game/{t.game_id}#token={t.tokens[0]}"
    assert set(shown) == {"title", "body", "url"}
    # Another browser's keys cannot read it.
    with pytest.raises(Exception):  # noqa: B017 (http_ece raises its own or cryptography's)
        Browser().read(body)
    assert t.outbox.counts() == {"sent": 1}
    assert "abc123" not in caplog.text


def test_losses_go_with_normal_urgency_and_a_long_text_is_cut(tmp_path: Path, service: PushService) -> None:
    push, browser = settings(), Browser()
    subscription = check_subscription(browser.subscription(service.endpoint()), local=True)
    text = "\n".join(f'Game G: during "Bob"\'s turn (turn {n}) you lost Île-de-Façade ☃.' for n in range(200))
    message = Message(
        to=subscription, subject="RISK game G: you were attacked", text=text, message_id="<k@risk.notify>",
        link="http://risk.test/game/G#token=t", unsubscribe="", game_id="G", events=(("attacked", text),),
    )  # fmt: skip
    PushChannel(push).send(message)
    _path, headers, body = service.posts[0]
    assert headers["urgency"] == "normal"
    shown = browser.read(body)
    assert shown["body"].endswith("…") and text.startswith(shown["body"][:-1])
    assert (
        MAX_PAYLOAD - 100
        <= len(json.dumps(shown, ensure_ascii=False).encode())
        <= MAX_PAYLOAD
        < len(body)
        < 4096
    )


@pytest.mark.parametrize("status", [404, 410])
def test_a_gone_subscription_is_deleted_not_retried(
    tmp_path: Path, service: PushService, status: int
) -> None:
    service.status = status
    t = push_table(tmp_path, settings(), Browser(), service.endpoint())
    while t.master.live(t.game_id).game.to_act != 0:
        play(t, 1)
    t.notifier.step()
    assert service.tried == 1
    assert t.outbox.subscription(t.game_id, 0, "push") is None
    assert t.outbox.counts().get("queued", 0) == 0
    t.clock.now += 4000
    play(t, 20)
    assert service.tried == 1  # nobody there: nothing more is tried


def test_a_failing_push_service_is_retried_with_backoff(
    tmp_path: Path, service: PushService, caplog: pytest.LogCaptureFixture
) -> None:
    service.status = 500
    browser = Browser()
    t = push_table(tmp_path, settings(), browser, service.endpoint())
    while t.master.live(t.game_id).game.to_act != 0:
        play(t, 1)
    caplog.set_level(logging.INFO)
    t.notifier.step()
    sub = t.outbox.subscription(t.game_id, 0, "push")
    assert sub is not None and sub.failures == 1 and service.tried == 1
    t.clock.now += 5  # before the first retry (10 s)
    t.notifier.step()
    assert service.tried == 1
    service.status = 307  # a redirect is not followed: a failure too
    t.clock.now += 10
    t.notifier.step()
    sub = t.outbox.subscription(t.game_id, 0, "push")
    assert sub is not None and sub.failures == 2 and service.tried == 2
    service.status = 201
    t.clock.now += 20
    t.notifier.step()
    assert len(service.posts) == 1 and service.posts[0][0] == "/send/abc123"
    assert "your move" in browser.read(service.posts[0][2])["title"]
    assert t.outbox.counts() == {"sent": 1}
    assert "by push failed" in caplog.text
    assert "answered 500" in caplog.text
    for secret in ("abc123", browser.subscription("")["keys"]["p256dh"], t.tokens[0]):
        assert secret not in caplog.text


def test_a_host_name_that_now_resolves_to_a_private_address_is_not_posted_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The endpoint's addresses are checked before each post (a name pointed at 10.0.0.1 since)."""
    push = settings(local=False)
    subscription = check_subscription(Browser().subscription("https://push.example.org/send/x"))

    def resolve(host: str, port: int, *args: Any, **kwargs: Any) -> list[Any]:
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.1", port))]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    message = Message(
        to=subscription, subject="s", text="t", message_id="<m@x>", link="http://x/", unsubscribe=""
    )
    with pytest.raises(ChannelError, match="resolves to a private address"):
        PushChannel(push).send(message)


def test_a_push_service_that_does_not_answer_in_time_is_a_failure(
    tmp_path: Path, service: PushService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(push_module, "PUSH_TIMEOUT_S", 0.3)
    service.delay = 2.0
    subscription = check_subscription(Browser().subscription(service.endpoint()), local=True)
    message = Message(
        to=subscription, subject="s", text="t", message_id="<m@x>", link="http://x/", unsubscribe=""
    )
    with pytest.raises(ChannelError, match=r"could not be reached: (ReadTimeout|Timeout)"):
        PushChannel(settings()).send(message)


def test_urllib3s_request_lines_never_reach_the_log() -> None:
    """Its debug lines quote the path of the URL posted to: a push endpoint's is a seat's secret."""
    said = '"POST /fcm/send/s3cr3t HTTP/1.1" 201 0'
    line = logging.LogRecord("urllib3.connectionpool", logging.DEBUG, "connectionpool.py", 1, said, (), None)
    assert HideSecrets().filter(line) is False
    ours = logging.LogRecord("risk.server.notify.sender", logging.DEBUG, "sender.py", 1, "a line", (), None)
    assert HideSecrets().filter(ours) is True


def make_game(client: TestClient) -> tuple[str, list[str]]:
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "human", "name": "Bob"},
        {"kind": "bot", "bot": "quick"},
    ]
    created = client.post("/api/games", json={"seats": seats, "bot_delay": 5}).json()
    return created["id"], [seat["token"] for seat in created["seats"][:2]]


def test_bad_subscriptions_are_refused_with_clear_texts(tmp_path: Path) -> None:
    app = create_app(SqlStorage(f"sqlite:///{tmp_path / 'g.sqlite3'}"), push=settings(local=False))
    good = Browser().subscription("https://push.example.org/send/s3cr3t")
    keys = good["keys"]
    refused: list[tuple[Any, str]] = [
        ({**good, "endpoint": "http://push.example.org/send/s3cr3t"}, "must start with https://"),
        ({**good, "endpoint": "https://10.1.2.3/send/s3cr3t"}, "not on a public host"),
        ({**good, "endpoint": "https://192.168.1.1:8443/send/s3cr3t"}, "not on a public host"),
        ({**good, "endpoint": "https://127.0.0.1/send/s3cr3t"}, "not on a public host"),
        ({**good, "endpoint": "https://[::1]/send/s3cr3t"}, "not on a public host"),
        ({**good, "endpoint": "https://[::ffff:10.0.0.1]/send/s3cr3t"}, "not on a public host"),
        ({**good, "endpoint": "https://169.254.169.254/latest/s3cr3t"}, "not on a public host"),
        ({**good, "endpoint": "https://localhost/send/s3cr3t"}, "not on a public host"),
        ({**good, "endpoint": "https://printer.local/send/s3cr3t"}, "not on a public host"),
        ({**good, "endpoint": "https://intranet/send/s3cr3t"}, "not on a public host"),
        ({**good, "endpoint": "https://u:s3cr3t@push.example.org/x"}, "user name or password"),
        ({**good, "endpoint": "https://push.example.org/" + "s3cr3t" * 200}, f"the limit is {MAX_ENDPOINT}"),
        ({**good, "endpoint": "https://push.example.org/a b"}, "a space"),
        ({"keys": keys}, "subscription.endpoint is missing"),
        ({"endpoint": good["endpoint"]}, "subscription.keys is missing"),
        ({**good, "keys": {"auth": keys["auth"]}}, "subscription.keys.p256dh is missing"),
        ({**good, "keys": {"p256dh": keys["p256dh"]}}, "subscription.keys.auth is missing"),
        ({**good, "keys": {**keys, "p256dh": b64(b"\x04" + b"\x01" * 64)}}, "not a P-256 public key"),
        ({**good, "keys": {**keys, "p256dh": "x" * 5000}}, "not a P-256 public key"),
        ({**good, "keys": {**keys, "auth": b64(b"short")}}, "not 16 bytes"),
        ({**good, "keys": {**keys, "auth": "!!!!"}}, "not 16 bytes"),
        ("https://push.example.org/", "subscription: Input should be a valid dictionary"),
    ]
    with TestClient(app) as client:
        game_id, (ann, _bob) = make_game(client)
        path, auth = f"/api/games/{game_id}/notify/push", {"Authorization": f"Bearer {ann}"}
        for subscription, words in refused:
            answer = client.put(path, json={"subscription": subscription}, headers=auth)
            assert answer.status_code == 422, (words, answer.text)
            error = answer.json()["error"]
            assert error["code"] == "bad-request" and words in error["message"], (words, error)
            assert "s3cr3t" not in answer.text and "Traceback" not in answer.text
        assert app.state.outbox.subscription(game_id, 0, "push") is None
        # A body past the server's cap: refused before it is read.
        huge = {**good, "endpoint": "https://push.example.org/" + "x" * 200_000}
        assert client.put(path, json={"subscription": huge}, headers=auth).status_code == 413


def test_the_push_api(tmp_path: Path) -> None:
    push = settings(local=False)
    app = create_app(SqlStorage(f"sqlite:///{tmp_path / 'g.sqlite3'}"), push=push)
    first = Browser().subscription("https://push.example.org/send/first")
    second = Browser().subscription("https://push2.example.org/send/second")
    with TestClient(app) as client:
        game_id, (ann, bob) = make_game(client)
        _other_game, (stranger, _) = make_game(client)
        base, path = f"/api/games/{game_id}/notify", f"/api/games/{game_id}/notify/push"
        as_ann, as_bob = {"Authorization": f"Bearer {ann}"}, {"Authorization": f"Bearer {bob}"}
        shown = client.get(base, headers=as_ann).json()
        assert shown == {
            "email_available": False, "email": None, "push_available": True, "push": None,
            "vapid_public_key": push.public_key,
        }  # fmt: skip
        assert len(unb64(push.public_key)) == 65 and unb64(push.public_key)[0] == 4
        # No token, a bad one, another game's seat: refused, nothing stored.
        for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": f"Bearer {stranger}"}):
            answer = client.put(path, json={"subscription": first}, headers=headers)
            assert answer.status_code == 403 and answer.json()["error"]["code"] == "bad-token", answer.text
            assert client.delete(path, headers=headers).status_code == 403
        assert app.state.outbox.subscription(game_id, 0, "push") is None
        answer = client.put(path, json={"subscription": first}, headers=as_ann)
        assert answer.status_code == 200 and answer.json() == {
            "push_available": True,
            "push": {"paused": False, "failures": 0},
        }
        assert "first" not in answer.text and "first" not in client.get(base, headers=as_ann).text
        assert client.get(base, headers=as_ann).json()["push"] == {"paused": False, "failures": 0}
        # Bob's seat is Bob's: he sees none, and his Stop leaves Ann's.
        assert client.get(base, headers=as_bob).json()["push"] is None
        assert client.delete(path, headers=as_bob).json() == {"deleted": False}
        stored = app.state.outbox.subscription(game_id, 0, "push")
        assert json.loads(stored.address) == {"endpoint": first["endpoint"], "keys": first["keys"]}
        # Another browser for the same seat replaces the first (one browser per seat).
        assert client.put(path, json={"subscription": second}, headers=as_ann).status_code == 200
        stored = app.state.outbox.subscription(game_id, 0, "push")
        assert json.loads(stored.address)["endpoint"] == second["endpoint"]
        assert client.delete(path, headers=as_ann).json() == {"deleted": True}
        assert client.get(base, headers=as_ann).json()["push"] is None
        # The service worker, from the root, never kept from a cache.
        worker = client.get("/sw.js")
        assert worker.status_code == 200 and "javascript" in worker.headers["content-type"]
        assert worker.headers["cache-control"] == "no-cache"
        assert 'addEventListener("push"' in worker.text and "notificationclick" in worker.text
    # A server without Web Push: said, and a subscription refused.
    app = create_app(SqlStorage(f"sqlite:///{tmp_path / 'g.sqlite3'}"))
    with TestClient(app) as client:
        shown = client.get(base, headers=as_ann).json()
        assert shown["push_available"] is False and shown["vapid_public_key"] is None
        answer = client.put(path, json={"subscription": first}, headers=as_ann)
        assert answer.status_code == 503 and answer.json()["error"]["code"] == "unavailable"


def test_the_vapid_key_is_made_once_in_the_data_folder_and_kept_across_restarts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))  # for this process and the servers it starts
    db, port = f"sqlite:///{tmp_path / 'games.sqlite3'}", free_port()
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "human", "name": "Bob"},
        {"kind": "bot", "bot": "quick"},
    ]
    keys = []
    for _restart in range(2):
        with server(db, port):
            created = request(port, "POST", "/api/games", {"seats": seats, "bot_delay": 5})
            shown = request(
                port, "GET", f"/api/games/{created['id']}/notify", token=created["seats"][0]["token"]
            )
            assert shown["push_available"] is True
            keys.append(shown["vapid_public_key"])
    key_file = data / "risk" / "vapid-private.pem"
    assert keys[0] == keys[1] == PushSettings(load_vapid_key(key_file), CONTACT).public_key
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert vapid_key_file(None) == key_file  # found again, not made again
    # --vapid-key: that key; one that is not a key: said, no traceback; --no-push: none.
    own = tmp_path / "own.pem"
    own.write_bytes(ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ))  # fmt: skip
    with server(db, port, "--vapid-key", str(own), "--push-contact", CONTACT):
        shown = request(port, "GET", f"/api/games/{created['id']}/notify", token=created["seats"][0]["token"])
        assert shown["vapid_public_key"] == PushSettings(load_vapid_key(own), CONTACT).public_key
    with server(db, port, "--no-push"):
        shown = request(port, "GET", f"/api/games/{created['id']}/notify", token=created["seats"][0]["token"])
        assert shown["push_available"] is False
    for options, words in (
        (["--vapid-key", str(tmp_path / "games.sqlite3")], "is not a PEM private key"),
        (["--vapid-key", str(tmp_path / "absent.pem")], "cannot read the VAPID key"),
        (["--push-contact", "host@example.org"], "--push-contact must be mailto:ADDRESS"),
    ):
        result = subprocess.run(
            [sys.executable, "-m", "risk", "serve", "--db", db, "--port", str(port), *options],
            capture_output=True, text=True, timeout=60, env=os.environ,
        )  # fmt: skip
        assert result.returncode == 2, result.stderr
        assert words in result.stderr and "Traceback" not in result.stderr
