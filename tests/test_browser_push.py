"""Web Push from the game page (docs/web.md, "Notifications"), against a real `risk serve`: "Notify this
device" in "Your seat" asks the browser's permission on the click only, registers /sw.js, subscribes
with the server's VAPID key and gives the subscription to the server; Stop takes it away. Headless
Chromium has no push service: ``PushManager.prototype.subscribe`` is stubbed in the page, answering
a subscription with real keys made by the test (the server checks them).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from live_server import free_port, request, server
from risk.server.notify.outbox import Outbox
from risk.server.sql import SqlStorage
from test_browser import LAPTOP, browser, shot  # noqa: F401 (fixtures)

ENDPOINT = "https://push.example.invalid/send/browser-push-test"

# The browser's push service, stubbed: what subscribe was given, and a subscription with the test's keys.
STUB = """([endpoint, p256dh, auth]) => {
  let current = null;
  window.pushCalls = { subscribe: [], permission: 0 };
  const asked = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...args) => { window.pushCalls.permission += 1; return asked(...args); };
  PushManager.prototype.getSubscription = async () => current;
  PushManager.prototype.subscribe = async (options) => {
    const key = new Uint8Array(options.applicationServerKey);
    const sent = btoa(String.fromCharCode(...key));
    window.pushCalls.subscribe.push({ userVisibleOnly: options.userVisibleOnly, key: sent });
    current = {
      endpoint,
      options: { applicationServerKey: key.buffer },
      toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
      unsubscribe: async () => true,
    };
    return current;
  };
}"""


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    """A server with Web Push on (the default; its key in the session's data folder): its port and
    its database."""
    database = tmp_path_factory.mktemp("push") / "games.sqlite3"
    port = free_port()
    with server(f"sqlite:///{database}", port):
        yield port, database


def test_notify_this_device_subscribes_and_stop_unsubscribes(browser: Any, site: tuple[int, Path]) -> None:  # noqa: F811
    port, database = site
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "human", "name": "Bob"},
        {"kind": "bot", "bot": "quick"},
    ]
    created = request(port, "POST", "/api/games", {"seats": seats, "seed": 11, "bot_delay": 5})
    game_id, ann = created["id"], created["seats"][0]["token"]
    settings = request(port, "GET", f"/api/games/{game_id}/notify", token=ann)
    point = ec.generate_private_key(ec.SECP256R1()).public_key()
    p256dh = b64(
        point.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    auth = b64(b"0123456789abcdef")
    origin = f"http://127.0.0.1:{port}"
    context = browser.new_context(viewport=LAPTOP)
    context.grant_permissions(["notifications"], origin=origin)
    context.add_init_script(f"({STUB})({json.dumps([ENDPOINT, p256dh, auth])})")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{origin}/game/{game_id}#token={ann}")
    page.locator('[data-territory="alaska"]').wait_for(timeout=30_000)
    page.click("#seat-panel > summary")
    page.locator("#push-start").wait_for(timeout=10_000)
    assert page.evaluate("window.pushCalls") == {"subscribe": [], "permission": 0}  # nothing asked on load
    page.locator("#seat-push").scroll_into_view_if_needed()
    shot(page, "push-off-laptop")
    page.click("#push-start")
    page.locator("#push-on", has_text="Notifications on for this device").wait_for(timeout=10_000)
    page.locator("#seat-push").scroll_into_view_if_needed()
    shot(page, "push-on-laptop")
    calls = page.evaluate("window.pushCalls")
    server_key = base64.urlsafe_b64decode(settings["vapid_public_key"] + "==")
    assert calls == {
        "subscribe": [{"userVisibleOnly": True, "key": base64.b64encode(server_key).decode()}],
        "permission": 1,
    }
    worker = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.active.scriptURL)")
    assert worker == f"{origin}/sw.js"
    # The server has the browser's subscription (the endpoint and keys, nothing else), never says it back.
    shown = request(port, "GET", f"/api/games/{game_id}/notify", token=ann)
    assert shown["push"] == {"paused": False, "failures": 0} and "push.example" not in json.dumps(shown)
    storage = SqlStorage(f"sqlite:///{database}")
    try:
        stored = Outbox(storage.engine).subscription(game_id, 0, "push")
        assert stored is not None
        assert json.loads(stored.address) == {"endpoint": ENDPOINT, "keys": {"p256dh": p256dh, "auth": auth}}
        page.click("#push-stop")
        page.locator("#push-start").wait_for(timeout=10_000)
        assert request(port, "GET", f"/api/games/{game_id}/notify", token=ann)["push"] is None
        assert Outbox(storage.engine).subscription(game_id, 0, "push") is None
    finally:
        storage.close()
    assert errors == []
    context.close()
