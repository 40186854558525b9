// What to do now, in words (src/risk/web/js/prompt.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { promptFor, turnInfo } from "../../src/risk/web/js/prompt.js";
import { ATTACKS, pageStore, stateMessage } from "./fixtures.js";

const CLICK = { click: "click", Click: "Click" };
const TAP = { click: "tap", Click: "Tap" };

test("the top bar: round, phase and whose turn", () => {
  assert.equal(turnInfo(pageStore().state), "Round 2 · Attack · Ann");
  const over = stateMessage();
  over.outcome = { winner: 1, reason: "Bob holds every territory." };
  assert.equal(turnInfo(pageStore(over).state), "Game over");
});

test("attacking: choose a source, then a target, in the words of the pointer", () => {
  const store = pageStore(stateMessage({ legal: ATTACKS }));
  assert.deepEqual(promptFor(store.state, null, CLICK), ["Attack or end the attack", "Click one of your territories to attack from."]);
  assert.deepEqual(promptFor(store.state, null, TAP), ["Attack or end the attack", "Tap one of your territories to attack from."]);
  store.select({ kind: "attack", from: "alaska", to: null });
  assert.deepEqual(promptFor(store.state, null, TAP), ["Attack or end the attack", "Now tap the territory to attack."]);
  store.select({ kind: "attack", from: "alaska", to: "kamchatka" });
  assert.deepEqual(promptFor(store.state, null, CLICK), ["Attack or end the attack", ""]);
});

test("another player's step, named", () => {
  const msg = stateMessage({ phase: "fortify" });
  msg.view.current = 1;
  msg.view.to_act = 1;
  assert.deepEqual(promptFor(pageStore(msg).state, null, CLICK), ["Bob is fortifying", ""]);
});

test("reinforcing: trade first when the cards must go, else place what is pending", () => {
  const mustTrade = stateMessage({ phase: "reinforce", legal: [{ text: "trade alaska peru wild-1" }], hand: [1, 2, 3, 4, 5].map((n) => ({ card: `c${n}` })) });
  assert.deepEqual(promptFor(pageStore(mustTrade).state, null, CLICK), ["Trade a set of cards", "You hold 5 cards: trade a set before placing."]);
  const place = stateMessage({ phase: "reinforce", pending: 3, legal: [{ text: "place alaska", min: 1, max: 3 }] });
  assert.deepEqual(promptFor(pageStore(place).state, null, CLICK), ["Place 3 armies", "Click your territories to place them."]);
});

test("defending against the clock, and watching a defence", () => {
  const defend = stateMessage({ phase: "defend", legal: [{ text: "defend", min: 1, max: 2 }], attack: { from: "Kamchatka", to: "Alaska", dice: 3 } });
  defend.view.current = 1;
  defend.clock = { seat: 0, for: "defence", remaining: 20, limit: 30 };
  assert.deepEqual(promptFor(pageStore(defend).state, 12, CLICK), [
    "Choose your defence dice: Bob attacks Alaska from Kamchatka with 3 dice",
    "12 s left, then the most dice are rolled for you.",
  ]);
  const watching = { ...defend, seat: null, legal: [] };
  assert.deepEqual(promptFor(pageStore(watching).state, 12, CLICK), ["Ann chooses defence dice", "Bob attacks Alaska from Kamchatka with 3 dice (12 s left)"]);
});

test("waiting for players, the end, and a seat played elsewhere", () => {
  const waiting = stateMessage();
  waiting.status = "waiting";
  waiting.seats = [{ kind: "human" }, { kind: "open" }, { kind: "open" }];
  assert.equal(promptFor(pageStore(waiting).state, null, CLICK)[0], "Waiting for 2 players to join");
  const over = stateMessage();
  over.outcome = { winner: 1, reason: "Bob holds every territory." };
  assert.deepEqual(promptFor(pageStore(over).state, null, CLICK), ["Bob wins!", "Bob holds every territory."]);
  const store = pageStore(stateMessage({ legal: ATTACKS }));
  store.playedElsewhere();
  assert.deepEqual(promptFor(store.state, null, CLICK), ["Your seat is played on another tab or device", "Click “Play here” above to play on this page."]);
});
