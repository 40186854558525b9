// The store (src/risk/web/js/store.js): state read, never assigned; changed by named updates only.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createStore } from "../../src/risk/web/js/store.js";

const counter = () =>
  createStore(
    { count: 0, name: "a" },
    {
      add: (s, n) => ({ count: s.count + n }),
      rename: (s, name) => (name === s.name ? null : { name }),
    },
  );

test("a named update makes the next state from the fields it returns", () => {
  const store = counter();
  const first = store.state;
  assert.equal(store.add(2), true);
  assert.deepEqual(store.state, { count: 2, name: "a" });
  assert.notEqual(store.state, first, "a new state, the old one untouched");
  assert.deepEqual(first, { count: 0, name: "a" });
});

test("the state cannot be assigned into, nor the store's updates replaced", () => {
  const store = counter();
  assert.throws(() => {
    store.state.count = 5;
  }, TypeError);
  assert.throws(() => {
    store.add = () => null;
  }, TypeError);
  assert.equal(store.state.count, 0);
});

test("subscribers hear each change with the update's name; an update returning null changes nothing", () => {
  const store = counter();
  const heard = [];
  const stop = store.subscribe((name, state) => heard.push([name, state.count, state.name]));
  store.add(1);
  assert.equal(store.rename("a"), false);
  store.rename("b");
  stop();
  store.add(1);
  assert.deepEqual(heard, [
    ["add", 1, "a"],
    ["rename", 1, "b"],
  ]);
  assert.equal(store.state.count, 2);
});

test("an update may not hide the store's own state or subscribe", () => {
  assert.throws(() => createStore({}, { state: () => null }), /would hide/);
  assert.throws(() => createStore({}, { subscribe: () => null }), /would hide/);
});
