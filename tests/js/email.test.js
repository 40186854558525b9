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
