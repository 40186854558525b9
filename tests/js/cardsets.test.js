// Sets of cards (src/risk/web/js/cardsets.js): their value, the best of them, the order to trade.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bestSet, orderSet, sameSet, setValue, setWords } from "../../src/risk/web/js/cardsets.js";
import { pageStore, stateMessage } from "./fixtures.js";

const SETS = [
  ["kamchatka", "peru", "wild-1"], // Bob's lands, a wild: 10
  ["peru", "kamchatka", "alaska"], // Alaska is Ann's: 10 and the +2
];

function withSets(rules = "2008 game=world") {
  const msg = stateMessage({
    phase: "reinforce",
    legal: SETS.map((set) => ({ text: `trade ${set.join(" ")}` })),
    set_values: [{ cards: SETS[0], value: 10 }, { cards: SETS[1], value: 10 }],
    next_set_value: 12,
    rules,
  });
  return pageStore(msg).state;
}

test("a set's value as the view counts it, else the next set's", () => {
  const s = withSets();
  assert.equal(setValue(s, ["wild-1", "peru", "kamchatka"]), 10, "in any order");
  assert.equal(setValue(s, ["alaska", "alberta", "peru"]), 12);
  assert.ok(sameSet(["a", "b"], ["b", "a"]) && !sameSet(["a"], ["a", "b"]));
});

test("the best set: as many armies, a +2 on a territory held beats a wild spent", () => {
  const best = bestSet(withSets());
  assert.deepEqual(best.set, ["alaska", "peru", "kamchatka"], "the held territory's card first: the +2 goes there");
  assert.equal(best.value, 10);
  assert.equal(best.bonus, 2);
});

test("rules without the territory bonus: the fewest wilds decide", () => {
  const best = bestSet(withSets("2008 game=world territory-card-bonus=none"));
  assert.equal(best.bonus, 0);
  assert.deepEqual(best.set, ["alaska", "peru", "kamchatka"]);
  assert.equal(bestSet(withSets(), []), null);
});

test("order and words of a set", () => {
  const s = withSets();
  assert.deepEqual(orderSet(s, ["peru", "wild-1", "alberta"]), ["alberta", "peru", "wild-1"]);
  assert.deepEqual(orderSet(s, ["peru", "wild-1"]), ["peru", "wild-1"]);
  assert.equal(setWords(s, ["alaska", "wild-2", "atlantis"]), "Alaska + Wild + atlantis");
});
