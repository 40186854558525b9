// The board page's state and its named updates (src/risk/web/js/gamestate.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  LOG_HELD, LOG_KEEP, attackDice, forceOf, mergeLog, myTurn, parseLegal, prunedSelection, roundText, territoryOf,
} from "../../src/risk/web/js/gamestate.js";
import { ATTACKS, pageStore, stateMessage } from "./fixtures.js";

const lines = (from, to) => Array.from({ length: to - from }, (_, i) => ({ text: `line ${from + i}` }));

test("the legal list by kind: clicks, ranges, the rest as buttons, and the notation box's completions", () => {
  const L = parseLegal([
    { text: "place alaska", min: 1, max: 5 },
    ...ATTACKS,
    { text: "fortify alaska alberta", min: 1, max: 5 },
    { text: "trade alaska peru wild-1" },
    { text: "defend", min: 1, max: 2 },
    { text: "move", min: 3, max: 3 },
    { text: "claim peru" },
    { text: "capital alberta" },
  ]);
  assert.deepEqual(L.place.get("alaska"), { min: 1, max: 5 });
  assert.deepEqual([...L.attack.keys()], ["alaska", "alberta"]);
  assert.deepEqual(L.attack.get("alberta").get("kamchatka"), { min: 1, max: 2 });
  assert.deepEqual(L.fortify.get("alaska").get("alberta"), { min: 1, max: 5 });
  assert.deepEqual(L.trade, [["alaska", "peru", "wild-1"]]);
  assert.deepEqual(L.defend, { min: 1, max: 2 });
  assert.deepEqual(L.move, { min: 3, max: 3 });
  assert.ok(L.claim.has("peru") && L.capital.has("alberta"));
  assert.deepEqual(L.other.map((e) => e.text), ["endattack"]);
  assert.equal(L.count, 10);
  assert.deepEqual(L.texts.slice(0, 3), ["place alaska 5", "place alaska 1", "attack alaska kamchatka 3"]);
  assert.ok(L.texts.includes("move 3") && !L.texts.includes("move 3 3"));
});

test("the log: appended, cut back by an undo, replaced when the page fell behind", () => {
  const start = { log: [], logBase: 0, logVersion: 0 };
  const hello = mergeLog(start, { log: lines(10, 20), log_start: 10 }, true);
  assert.equal(hello.logBase, 10);
  assert.equal(hello.logVersion, 1);
  const more = mergeLog(hello, { log: lines(20, 22), log_start: 20 }, false);
  assert.equal(more.log.length, 12);
  assert.equal(more.logVersion, 1, "appended: the list is added to, not redrawn");
  const undone = mergeLog(more, { log: [{ text: "again" }], log_start: 18 }, false);
  assert.deepEqual(undone.log.slice(-2).map((l) => l.text), ["line 17", "again"]);
  assert.equal(undone.logVersion, 2);
  const behind = mergeLog(undone, { log: lines(50, 60), log_start: 50 }, false);
  assert.equal(behind.logBase, 50);
  assert.equal(behind.log.length, 10);
});

test("a page open for hours holds the newest lines only", () => {
  let log = { log: [], logBase: 0, logVersion: 0 };
  log = mergeLog(log, { log: lines(0, LOG_HELD), log_start: 0 }, true);
  assert.equal(log.log.length, LOG_HELD);
  log = mergeLog(log, { log: lines(LOG_HELD, LOG_HELD + 1), log_start: LOG_HELD }, false);
  assert.equal(log.log.length, LOG_KEEP);
  assert.equal(log.logBase, LOG_HELD + 1 - LOG_KEEP);
  assert.equal(log.log[0].text, `line ${log.logBase}`);
});

test("a state message: the seat, the legal actions and the board's names", () => {
  const store = pageStore(stateMessage({ legal: ATTACKS }));
  const s = store.state;
  assert.equal(s.seat, 0);
  assert.equal(s.view.phase, "attack");
  assert.equal(s.names.get("kamchatka"), "Kamchatka");
  assert.equal(territoryOf(s, "alberta").armies, 3);
  assert.equal(territoryOf(s, "atlantis"), null);
  assert.ok(myTurn(s));
  assert.equal(roundText(s.msg), "Round 2");
  assert.equal(roundText({ round: 0 }), "Setup");
});

test("not this page's turn: a spectator, no legal actions, or the seat played elsewhere", () => {
  assert.equal(myTurn(pageStore(stateMessage({ legal: [] })).state), false);
  const spectator = pageStore({ ...stateMessage({ legal: ATTACKS }), seat: null });
  assert.equal(spectator.state.seat, null);
  assert.equal(myTurn(spectator.state), false);
  const store = pageStore(stateMessage({ legal: ATTACKS }));
  store.select({ kind: "attack", from: "alaska", to: null });
  store.playedElsewhere();
  assert.equal(myTurn(store.state), false);
  assert.equal(store.state.selection, null);
});

test("a new state forgets the choices it no longer allows", () => {
  const store = pageStore(stateMessage({ legal: ATTACKS, hand: [{ card: "peru" }, { card: "alaska" }] }));
  store.select({ kind: "attack", from: "alberta", to: "kamchatka" });
  store.toggleCard("peru");
  store.toggleCard("alaska");
  store.receiveState(stateMessage({ stateId: 2, legal: [ATTACKS[0], ATTACKS[2]], hand: [{ card: "alaska" }] }), false);
  assert.equal(store.state.selection, null, "Alberta can no longer attack");
  assert.deepEqual(store.state.selectedCards, ["alaska"]);
  store.select({ kind: "attack", from: "alaska", to: "kamchatka" });
  store.receiveState(stateMessage({ stateId: 3, legal: [{ text: "attack alaska peru", min: 1, max: 3 }] }), false);
  assert.deepEqual(store.state.selection, { kind: "attack", from: "alaska", to: null }, "the source stays, the target goes");
});

test("after an attack its source stays selected while it can attack again (fast play)", () => {
  const store = pageStore(stateMessage({ legal: ATTACKS }));
  store.attackSent("alaska", "kamchatka");
  store.receiveState(stateMessage({ stateId: 2, legal: ATTACKS }), false);
  assert.deepEqual(store.state.selection, { kind: "attack", from: "alaska", to: "kamchatka" });
  store.cancelSelection();
  assert.equal(store.state.lastAttack, null);
  store.attackSent("alaska", "kamchatka");
  store.receiveState(stateMessage({ stateId: 3, phase: "fortify", legal: [{ text: "endturn" }] }), false);
  assert.equal(store.state.lastAttack, null, "the attacks are over");
});

test("the selection pruned: capitals, attacks, fortifications", () => {
  const L = parseLegal([{ text: "capital alaska" }, { text: "fortify alaska alberta", min: 1, max: 5 }]);
  assert.deepEqual(prunedSelection({ kind: "capital", from: "alaska" }, L), { kind: "capital", from: "alaska" });
  assert.equal(prunedSelection({ kind: "capital", from: "peru" }, L), null);
  assert.equal(prunedSelection({ kind: "attack", from: "alaska", to: "peru" }, L), null);
  const kept = { kind: "fortify", from: "alaska", to: "alberta" };
  assert.equal(prunedSelection(kept, L), kept);
  assert.equal(prunedSelection(null, L), null);
});

test("cards picked: three at most, a second click puts one back", () => {
  const store = pageStore();
  for (const card of ["a", "b", "c", "d"]) store.toggleCard(card);
  assert.deepEqual(store.state.selectedCards, ["b", "c", "d"]);
  store.toggleCard("c");
  assert.deepEqual(store.state.selectedCards, ["b", "d"]);
});

test("the attack's dice: the most, unless chosen for this same attack and still allowed", () => {
  const store = pageStore(stateMessage({ legal: ATTACKS }));
  const range = { min: 1, max: 3 };
  assert.equal(attackDice(store.state, "alaska", "kamchatka", range), 3);
  store.setAttackDice("alaska>kamchatka", 2);
  assert.equal(attackDice(store.state, "alaska", "kamchatka", range), 2);
  assert.equal(attackDice(store.state, "alberta", "kamchatka", { min: 1, max: 2 }), 2, "another attack");
  assert.equal(attackDice(store.state, "alaska", "kamchatka", { min: 1, max: 1 }), 1, "fewer armies now");
});

test("the armies a seat fights with: its own units in a shared land, none known out of sight", () => {
  const s = pageStore().state;
  assert.equal(forceOf(s, { owner: 0, armies: 6 }), 6);
  assert.equal(forceOf(s, { owner: -2, armies: 7, units: [4, 3] }), 4);
  assert.equal(forceOf(s, { hidden: true }), 0);
  assert.equal(forceOf(s, null), 0);
});

test("small updates: stop at, the game-over panel, the slider's memory, a token", () => {
  const store = pageStore();
  store.setStopAt("0");
  assert.equal(store.state.stopAt, 1);
  store.setStopAt("4");
  assert.equal(store.state.stopAt, 4);
  store.dismissGameOver();
  assert.equal(store.state.gameOverDismissed, true);
  store.receiveState(stateMessage({ stateId: 9 }), false);
  assert.equal(store.state.gameOverDismissed, false, "a game going on again (a rematch's page) shows the next end");
  const memory = store.state.sliderMemory;
  store.rememberSlider("9|move", 4);
  assert.equal(store.state.sliderMemory.get("9|move"), 4);
  assert.equal(memory.size, 0, "the old state's map is untouched");
  assert.equal(store.setToken("token-0"), false, "the same token: nothing to do");
  assert.equal(store.setToken(null), true);
});
