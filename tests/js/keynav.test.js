// Playing with the keyboard (src/risk/web/js/keynav.js): where an arrow goes on the map, the next
// territory of a list, why Enter on a territory does nothing, the buttons' keys.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { boardLayout } from "../../src/risk/web/js/layout.js";
import { ARROWS, BUTTON_KEYS, KEY_HELP, buttonsFor, keyOf, nextInDirection, nextOf, whyNot } from "../../src/risk/web/js/keynav.js";
import { ATTACKS, pageStore, stateMessage } from "./fixtures.js";

const slugify = (name) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
const maps = new URL("../../src/risk/maps/", import.meta.url);

/** A shipped board laid out as board.js does on the drawing given (none: the layout of a board
 * without one, as pangaea's and crossroads' own drawings are computed by the server): places by
 * slug, neighbours, the width. */
function shippedBoard(name, drawing = null) {
  const file = JSON.parse(readFileSync(new URL(`${name}.json`, maps), "utf8"));
  const linked = new Map(file.territories.map((t) => [t.name, new Set(t.neighbours || [])]));
  for (const { between: [a, b] } of file.links || []) {
    linked.get(a).add(b);
    linked.get(b).add(a);
  }
  const territories = file.territories.map((t) => ({
    slug: slugify(t.name),
    continent: t.continent,
    neighbors: [...linked.get(t.name)].map(slugify),
  }));
  const draw = drawing ? JSON.parse(readFileSync(new URL(`drawings/${drawing}.json`, maps), "utf8")) : null;
  const layout = boardLayout(territories, file.continents || [], draw);
  return {
    places: layout.pos,
    neighbours: new Map(territories.map((t) => [t.slug, t.neighbors])),
    width: layout.view.w,
  };
}

const CLASSIC = shippedBoard("classic", "classic");

test("an arrow goes to the neighbour that way on the classic board", () => {
  const go = (from, key) => nextInDirection(from, key, CLASSIC);
  assert.equal(go("alaska", "ArrowRight"), "northwest-territory");
  assert.equal(go("alaska", "ArrowDown"), "alberta"); // 63 degrees aside, but linked: not Central America
  assert.equal(go("brazil", "ArrowRight"), "north-africa"); // across the sea
  assert.equal(go("argentina", "ArrowUp"), "peru");
  assert.equal(go("egypt", "ArrowLeft"), "north-africa");
  assert.equal(go("western-australia", "ArrowRight"), "eastern-australia");
  // Every move goes to a neighbour when one lies that way.
  for (const [from, links] of CLASSIC.neighbours) {
    for (const key of Object.keys(ARROWS)) {
      const to = go(from, key);
      if (to) assert.notEqual(to, from);
    }
    assert.ok(links.length > 0);
  }
});

test("a link across the map's edge points across it: left from Alaska is Kamchatka", () => {
  assert.equal(nextInDirection("alaska", "ArrowLeft", CLASSIC), "kamchatka");
  assert.equal(nextInDirection("kamchatka", "ArrowRight", CLASSIC), "alaska");
  // Without the width, Kamchatka lies far to the right: left from Alaska is the board's edge.
  assert.equal(nextInDirection("alaska", "ArrowLeft", { ...CLASSIC, width: 0 }), null);
});

test("with no neighbour that way, the nearest territory of the board that way", () => {
  // Madagascar's links go west and north-west (East and South Africa): east of it, the nearest is Indonesia.
  assert.equal(nextInDirection("madagascar", "ArrowRight", CLASSIC), "indonesia");
  const line = {
    places: new Map([["a", { x: 0, y: 0 }], ["b", { x: 10, y: 0 }], ["c", { x: 20, y: 1 }], ["far", { x: 100, y: 0 }]]),
    neighbours: new Map([["a", ["far"]], ["b", []], ["c", []], ["far", ["a"]]]),
    width: 0,
  };
  assert.equal(nextInDirection("a", "ArrowRight", line), "far"); // the neighbour first, however far
  assert.equal(nextInDirection("b", "ArrowRight", line), "c");
  assert.equal(nextInDirection("b", "ArrowUp", line), null); // nothing above: stays
  assert.equal(nextInDirection("a", "Enter", line), null);
  assert.equal(nextInDirection("nowhere", "ArrowRight", line), null);
});

test("straight ahead counts nearer than aside", () => {
  const board = {
    places: new Map([["o", { x: 0, y: 0 }], ["aside", { x: 6, y: 6 }], ["ahead", { x: 10, y: 0 }]]),
    neighbours: new Map([["o", ["aside", "ahead"]]]),
    width: 0,
  };
  // "aside" is nearer (8.5 against 10), but 45 degrees off: "ahead" scores 10, "aside" 8.5 * 1.29.
  assert.equal(nextInDirection("o", "ArrowRight", board), "ahead");
  assert.equal(nextInDirection("o", "ArrowDown", board), "aside");
});

/** Every territory reached from every other with the arrows alone: the moves' graph is strongly connected. */
function reachedFromEach(board) {
  const slugs = [...board.places.keys()];
  const moves = new Map(slugs.map((s) => [s, Object.keys(ARROWS).map((k) => nextInDirection(s, k, board)).filter(Boolean)]));
  const reach = (start, edges) => {
    const seen = new Set([start]);
    const todo = [start];
    while (todo.length) for (const next of edges.get(todo.pop()) || []) if (!seen.has(next)) seen.add(next), todo.push(next);
    return seen;
  };
  const back = new Map(slugs.map((s) => [s, []]));
  for (const [from, tos] of moves) for (const to of tos) back.get(to).push(from);
  const missed = slugs.filter((s) => !reach(slugs[0], moves).has(s) || !reach(slugs[0], back).has(s));
  return { slugs, missed };
}

test("the arrows reach every territory from every other, on each shipped board", () => {
  for (const [name, drawing] of [["classic", "classic"], ["pangaea", null], ["crossroads", null]]) {
    const { slugs, missed } = reachedFromEach(shippedBoard(name, drawing));
    assert.ok(slugs.length >= 20, name);
    assert.deepEqual(missed, [], `${name}: not reached both ways from ${slugs[0]}`);
  }
});

test("the next of a list, round its end, either way", () => {
  assert.equal(nextOf(["a", "b", "c"], "b"), "c");
  assert.equal(nextOf(["a", "b", "c"], "c"), "a");
  assert.equal(nextOf(["a", "b", "c"], "a", -1), "c");
  assert.equal(nextOf(["a", "b", "c"], null), "a");
  assert.equal(nextOf(["a", "b", "c"], "z", -1), "c");
  assert.equal(nextOf([], "a"), null);
});

test("Enter where a click would act is let through; elsewhere the player is told why not", () => {
  const attack = pageStore(stateMessage({ legal: ATTACKS })).state;
  assert.equal(whyNot(attack, "alaska"), null); // a source
  assert.equal(whyNot(attack, "kamchatka"), null); // a target: the strongest source is chosen
  assert.match(whyNot(attack, "peru"), /^Peru: none of your territories next to it can attack it/);
  const chosen = { ...attack, selection: { kind: "attack", from: "alberta", to: null } };
  assert.match(whyNot(chosen, "peru"), /^Peru is not next to Alberta\./);

  const placing = pageStore(stateMessage({ phase: "reinforce", legal: [{ text: "place alaska", min: 1, max: 3 }] })).state;
  assert.equal(whyNot(placing, "alaska"), null);
  assert.match(whyNot(placing, "kamchatka"), /^Kamchatka is not yours: place your armies on your own territories/);

  const fortify = pageStore(stateMessage({ phase: "fortify", legal: [{ text: "fortify alaska alberta", min: 1, max: 5 }, { text: "endturn" }] })).state;
  assert.equal(whyNot(fortify, "alberta"), null);
  assert.match(whyNot(fortify, "peru"), /^Peru is not yours/);

  const occupy = pageStore(stateMessage({ phase: "occupy", legal: [{ text: "move", min: 3, max: 5 }] })).state;
  assert.match(whyNot(occupy, "alaska"), /how many armies move in.*M to move them/);

  const waiting = pageStore(stateMessage({ to_act: 1, current: 1 })).state;
  assert.match(whyNot(waiting, "alaska"), /^Alaska: wait for your turn\./);
  const watching = { ...attack, seat: null };
  assert.match(whyNot(watching, "alaska"), /you are watching/);
});

test("each button's key: a letter of its label or its number, one button shown per key at a time", () => {
  assert.deepEqual(buttonsFor("r"), ["roll"]);
  assert.deepEqual(buttonsFor("R"), ["roll"]);
  assert.deepEqual(buttonsFor("="), ["move-more"]);
  assert.deepEqual(buttonsFor("+"), ["move-more"]);
  assert.deepEqual(buttonsFor("1"), ["place-1", "dice-1", "defend-1"]);
  assert.deepEqual(buttonsFor("x"), []);
  assert.deepEqual(buttonsFor("ArrowLeft"), []);
  assert.equal(keyOf("end-phase"), "e");
  assert.equal(keyOf("nothing"), null);
  // The ids are unique, and each key of the buttons is in the keys' list.
  const ids = BUTTON_KEYS.map(([, id]) => id);
  assert.equal(new Set(ids).size, ids.length);
  const listed = KEY_HELP.map(([keys]) => keys).join(" ");
  for (const [key] of BUTTON_KEYS) assert.ok(listed.includes(key === "-" ? "−" : key), `${key} is not in the keys' list`);
});
