// The e-mail block's words and the bodies it sends (src/risk/web/js/email.js).
import { test } from "node:test";
import assert from "node:assert/strict";

import { PACES, paceBody, paceWords } from "../../src/risk/web/js/email.js";

test("each pace in the menu makes a body the server takes, and is said back as the server keeps it", () => {
  assert.deepEqual(paceBody("15"), { pace: "each", every_minutes: 15 });
  assert.deepEqual(paceBody("60"), { pace: "each", every_minutes: 60 });
  assert.deepEqual(paceBody("digest"), { pace: "digest" });
  assert.deepEqual(PACES.map(([value]) => value), ["15", "60", "digest"]);
  assert.equal(paceWords({ pace: "each", every_minutes: 15 }), "at most every 15 minutes");
  assert.equal(paceWords({ pace: "each", every_minutes: 1 }), "at most every 1 minute");
  assert.equal(paceWords({ pace: "each", every_minutes: 60 }), "at most once an hour");
  assert.equal(paceWords({ pace: "digest", every_minutes: 1440 }), "once a day at most");
  assert.equal(paceWords(null), "");
});

test("all my games: the other seats held once each, never this one nor a spectator's link", async () => {
  const { otherSeats } = await import("../../src/risk/web/js/email.js");
  const held = [
    { game: "g1", seat: 0, token: "a" },
    { game: "g2", seat: 1, token: "b" },
    { game: "g2", seat: 1, token: "b" },
    { game: "g3", seat: null, token: "" },
    { game: "g4", seat: 0, token: "d", mine: false },
    { game: "g1", seat: 2, token: "c" },
  ];
  assert.deepEqual(otherSeats(held, "g1", "a").map((s) => `${s.game}:${s.token}`), ["g2:b", "g1:c"]);
});

test("all my games: the kept choice is read back as the server takes it", async () => {
  const { allSeatsEmail, paceOf } = await import("../../src/risk/web/js/email.js");
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v), removeItem: (k) => store.delete(k) };
  assert.equal(allSeatsEmail(storage), null);
  store.set("risk.email.all", "not json");
  assert.equal(allSeatsEmail(storage), null);
  store.set("risk.email.all", JSON.stringify({ address: "ann@example.org", pace: "each", every_minutes: 60, not: ["g1:0"] }));
  const kept = allSeatsEmail(storage);
  assert.deepEqual(paceOf(kept), { address: "ann@example.org", pace: "each", every_minutes: 60 });
  assert.deepEqual(paceOf({ address: "ann@example.org", pace: "digest", not: [] }), { address: "ann@example.org", pace: "digest" });
});
