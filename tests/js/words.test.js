// The page's small words: actions as labels, fast play, the clock, the odds (words.js, fastplay.js,
// clock.js, odds.js, ui.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { actionLabel, PHASE_LABELS, turnsPlayed } from "../../src/risk/web/js/words.js";
import { blitzLabel, blitzMessage, blitzResult, keepAttacker, undoWords } from "../../src/risk/web/js/fastplay.js";
import { awayWords, durationWords, formatSeconds, momentWords } from "../../src/risk/web/js/clock.js";
import { oddsClass, percent } from "../../src/risk/web/js/odds.js";
import { armies, parseRules, plural, slugify } from "../../src/risk/web/js/ui.js";
import { parseLegal } from "../../src/risk/web/js/gamestate.js";

const NAMES = new Map([
  ["alaska", "Alaska"],
  ["kamchatka", "Kamchatka"],
]);

test("legal actions as button labels", () => {
  assert.equal(actionLabel("endattack", NAMES, [], null), "End attack");
  assert.equal(actionLabel("claim alaska", NAMES, [], null), "Claim Alaska");
  assert.equal(actionLabel("trade alaska wild-1 peru", NAMES, [], null), "Trade Alaska, a wild card, peru");
  const battle = { attacker_dice: [6, 2], defender_dice: [4] };
  assert.equal(actionLabel("reroll attacker 2", NAMES, [], battle), "Re-roll your die 2 (a 2)");
  assert.equal(actionLabel("commander 1", NAMES, [], battle), "Commander: turn your die 1 (a 6) into a 6");
  const players = [{ name: "Ann" }, { name: "Grey", neutral: true }];
  assert.equal(actionLabel("reinforce neutral-1", NAMES, players, null), "Reinforce ally Grey");
  assert.equal(actionLabel("something new", NAMES, [], null), "something new");
  assert.equal(PHASE_LABELS.attack, "Attack");
});

test("fast play: the blitz message, its words and its result", () => {
  assert.deepEqual(blitzMessage("alaska", "kamchatka", "3.7"), { type: "blitz", from: "alaska", to: "kamchatka", until: 3 });
  assert.equal(blitzMessage("a", "b", 0).until, 1);
  assert.equal(blitzLabel(NAMES, "alaska", "kamchatka", 1), "Blitz Alaska → Kamchatka");
  assert.equal(blitzLabel(NAMES, "alaska", "peru", 3), "Attack Alaska → peru until 3 left");
  assert.equal(blitzResult({ blitz: { rolls: 4, message: "Kamchatka is conquered." } }), "Blitz, 4 rolls: Kamchatka is conquered.");
  assert.equal(blitzResult({ blitz: { stopped: "defender", rolls: 1, message: "" } }), null);
  assert.equal(undoWords("place alaska 3", NAMES, null), "3 armies placed in Alaska");
  assert.equal(undoWords("fortify alaska kamchatka 1", NAMES, null), "1 army moved from Alaska to Kamchatka");
  assert.equal(undoWords("move 2", NAMES, { last_battle: { to: "Kamchatka" } }), "2 armies moved into Kamchatka");
});

test("the last attacker kept: a change of the state's fields, never an assignment", () => {
  const legal = parseLegal([{ text: "attack kamchatka alaska", min: 1, max: 3 }]);
  const state = Object.freeze({
    lastAttack: { from: "alaska", to: "kamchatka" },
    view: { current: 0, phase: "attack" },
    seat: 0,
    legal,
    selection: null,
  });
  // Alaska cannot attack any more; Kamchatka, just conquered, can: it is selected.
  assert.deepEqual(keepAttacker(state), { selection: { kind: "attack", from: "kamchatka", to: null } });
  assert.deepEqual(keepAttacker({ ...state, view: { current: 0, phase: "fortify" } }), { lastAttack: null });
  assert.equal(keepAttacker({ ...state, selection: { kind: "attack", from: "kamchatka" } }), null);
});

test("the clock's time in words", () => {
  assert.equal(formatSeconds(0), "0:00");
  assert.equal(formatSeconds(65.4), "1:05");
  assert.equal(formatSeconds(3600 + 62), "1:01:02");
  assert.equal(formatSeconds(-5), "0:00");
  assert.equal(formatSeconds(3 * 86400 + 5 * 3600), "3 d 5 h");
});

test("the odds as players read them", () => {
  assert.equal(percent(0.73), "73%");
  assert.equal(percent(0.9961), "99.6%");
  assert.equal(percent(0.9999), ">99.9%");
  assert.equal(percent(0.0001), "<0.1%");
  assert.deepEqual([0.8, 0.5, 0.1].map(oddsClass), ["good", "fair", "poor"]);
});

test("ui words: plurals, slugs, the rules line", () => {
  assert.equal(plural(1, "card"), "1 card");
  assert.equal(plural(2, "card"), "2 cards");
  assert.equal(armies(1), "1 army");
  assert.equal(slugify("Western United States"), "western-united-states");
  assert.equal(parseRules("2008 game=capital fog=on").options.fog, "on");
});

test("long clocks in words, as the server says them", () => {
  assert.equal(durationWords(0), "no time");
  assert.equal(durationWords(40.9), "40 seconds");
  assert.equal(durationWords(86400 + 3 * 3600 + 59 * 60), "1 day 3 hours");
  assert.equal(durationWords(86400 + 20 * 60), "1 day");
  assert.equal(durationWords(2 * 3600 + 30), "2 hours");
  const now = new Date(2026, 11, 6, 10, 0).getTime(); // Sun 6 Dec 2026 10:00, this computer's time
  const tuesday = new Date(2026, 11, 8, 14, 0).getTime() / 1000;
  assert.equal(momentWords(tuesday, now), "Tue 14:00");
  assert.equal(momentWords(new Date(2026, 11, 15, 9, 5).getTime() / 1000, now), "Tue 15 Dec 09:05");
  const players = [{ name: "Ann" }, { name: "Bob" }];
  const clocks = [{ away_until: tuesday }, { away_until: null }];
  assert.equal(awayWords(clocks, players, 1, now), "Ann is on vacation until Tue 14:00");
  assert.equal(awayWords(clocks, players, 0, now), "You are on vacation until Tue 14:00");
  assert.equal(awayWords(clocks, players, 0, tuesday * 1000 + 1), "");
});

test("a finished game's length: its turns, or none when it ended in the setup", () => {
  assert.equal(turnsPlayed(12), "After 12 turns.");
  assert.equal(turnsPlayed(1), "After 1 turn.");
  assert.equal(turnsPlayed(0), "It ended during the setup, before the first turn.");
});
