// Web Push on the page (src/risk/web/js/push.js) and its service worker (src/risk/web/js/sw.js, run
// here in a context of its own with the worker's globals faked: what it shows, what a click opens).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import vm from "node:vm";

import { keyBytes, pushMode, pushSupported, sameKey } from "../../src/risk/web/js/push.js";

test("the block shows the button, on, paused, blocked, or nothing", () => {
  const settings = { push_available: true, push: null, vapid_public_key: "BAAA" };
  assert.equal(pushMode(settings, true, "default"), "off");
  assert.equal(pushMode(settings, true, "granted"), "off");
  assert.equal(pushMode(settings, true, "denied"), "blocked");
  assert.equal(pushMode({ ...settings, push: { paused: false, failures: 0 } }, true, "granted"), "on");
  assert.equal(pushMode({ ...settings, push: { paused: true, failures: 5 } }, true, "granted"), "paused");
  assert.equal(pushMode(settings, false, "default"), "none"); // no service worker or Push API
  assert.equal(pushMode({ ...settings, push_available: false }, true, "default"), "none");
  assert.equal(pushMode({ ...settings, vapid_public_key: null }, true, "default"), "none");
  assert.equal(pushMode(null, true, "default"), "none");
});

test("a browser takes Web Push with a service worker and the Push API only", () => {
  assert.equal(pushSupported({ navigator: { serviceWorker: {} }, PushManager: function PushManager() {} }), true);
  assert.equal(pushSupported({ navigator: {}, PushManager: function PushManager() {} }), false);
  assert.equal(pushSupported({ navigator: { serviceWorker: {} } }), false);
  assert.equal(pushSupported({}), false);
});

test("the server's key becomes the bytes subscribe takes, and a subscription's key is compared", () => {
  // 65 bytes of an uncompressed point, base64url without padding, as the server sends it.
  const raw = Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : (i * 37) % 256));
  const text = Buffer.from(raw).toString("base64url");
  assert.deepEqual(keyBytes(text), raw);
  assert.deepEqual(keyBytes("-_8"), Uint8Array.from([251, 255])); // "+/8" in plain base64
  assert.equal(sameKey(raw.buffer, keyBytes(text)), true);
  assert.equal(sameKey(new Uint8Array(65).buffer, raw), false);
  assert.equal(sameKey(null, raw), false);
});

/** sw.js run with the worker's globals faked: its listeners, what it showed, focused and opened. */
function worker(tabs = []) {
  const listeners = {};
  const done = { shown: [], focused: [], opened: [] };
  const self = {
    location: new URL("https://risk.example.org/sw.js"),
    addEventListener: (name, handler) => (listeners[name] = handler),
    registration: { showNotification: async (title, options) => done.shown.push({ title, options }) },
    clients: {
      matchAll: async () => tabs.map((url) => ({ url, focus: async () => done.focused.push(url) })),
      openWindow: async (url) => done.opened.push(url),
    },
  };
  const code = readFileSync(new URL("../../src/risk/web/js/sw.js", import.meta.url), "utf8");
  vm.runInNewContext(code, { self, URL, JSON });
  const fire = async (name, event) => {
    const waits = [];
    listeners[name]({ ...event, waitUntil: (promise) => waits.push(promise) });
    await Promise.all(waits);
  };
  return { done, fire };
}

test("a push is shown, one notification per game, its click opening the seat's page", async () => {
  const { done, fire } = worker();
  const link = "https://risk.example.org/game/Ab3dE5fG#token=t0k3n";
  const payload = { title: "RISK game Ab3dE5fG: it is your move", body: "Game Ab3dE5fG: it is your move (turn 4).", url: link };
  await fire("push", { data: { text: () => JSON.stringify(payload) } });
  assert.equal(done.shown.length, 1);
  const { title, options } = done.shown[0];
  assert.equal(title, payload.title);
  assert.equal(options.body, payload.body);
  assert.equal(options.tag, "risk/game/Ab3dE5fG");
  assert.equal(options.data.url, link);
  let closed = false;
  await fire("notificationclick", { notification: { data: options.data, close: () => (closed = true) } });
  assert.equal(closed, true);
  assert.deepEqual(done.opened, [link]);
});

test("a click brings the game's open tab to the front; a link elsewhere opens this site's page", async () => {
  const tabs = ["https://risk.example.org/", "https://risk.example.org/game/Ab3dE5fG#token=t0k3n"];
  const { done, fire } = worker(tabs);
  const data = { url: "https://risk.example.org/game/Ab3dE5fG#token=t0k3n" };
  await fire("notificationclick", { notification: { data, close: () => {} } });
  assert.deepEqual(done.focused, [tabs[1]]);
  assert.deepEqual(done.opened, []);
  // A payload's link to another site, or to no game: this site's own game page, or the lobby.
  const other = worker();
  await other.fire("push", { data: { text: () => JSON.stringify({ title: "x", body: "y", url: "https://evil.example/game/Zz#token=a" }) } });
  assert.equal(other.done.shown[0].options.data.url, "https://risk.example.org/game/Zz#token=a");
  await other.fire("push", { data: { text: () => "not json" } });
  assert.deepEqual(
    { title: other.done.shown[1].title, url: other.done.shown[1].options.data.url, tag: other.done.shown[1].options.tag },
    { title: "RISK", url: "https://risk.example.org/", tag: "risk" },
  );
  await other.fire("push", {});
  assert.equal(other.done.shown[2].title, "RISK");
});
