// The board page's redraws (frame.js): once a frame for any number of state messages, and drawn
// by a timer where no frame comes (a hidden tab).
import { test } from "node:test";
import assert from "node:assert/strict";
import { frameScheduler } from "../../src/risk/web/js/frame.js";

/** A clock the test runs by hand: frames and timers wait until fired. */
function handClock() {
  const frames = new Map();
  const timers = new Map();
  let next = 1;
  return {
    frames,
    timers,
    clock: {
      frame: (run) => (frames.set(next, run), next++),
      cancelFrame: (id) => frames.delete(id),
      timer: (run, ms) => (timers.set(next, { run, ms }), next++),
      cancelTimer: (id) => timers.delete(id),
    },
    nextFrame() {
      const runs = [...frames.values()];
      frames.clear();
      for (const run of runs) run();
    },
    timersFire() {
      const runs = [...timers.values()];
      timers.clear();
      for (const { run } of runs) run();
    },
  };
}

test("many requests before a frame draw once, in that frame", () => {
  const hand = handClock();
  let draws = 0;
  const drawing = frameScheduler(() => draws++, hand.clock);
  for (let i = 0; i < 50; i++) drawing.request();
  assert.equal(draws, 0);
  assert.equal(drawing.pending, true);
  assert.equal(hand.frames.size, 1);
  hand.nextFrame();
  assert.equal(draws, 1);
  assert.equal(drawing.pending, false);
  assert.equal(hand.timers.size, 0, "the frame came: the timer is cancelled");
  hand.timersFire();
  assert.equal(draws, 1);
});

test("a request after a draw draws again in the next frame", () => {
  const hand = handClock();
  let draws = 0;
  const drawing = frameScheduler(() => draws++, hand.clock);
  drawing.request();
  hand.nextFrame();
  drawing.request();
  hand.nextFrame();
  assert.equal(draws, 2);
});

test("no frame (a hidden tab): the timer draws, once, after 100 ms by default", () => {
  const hand = handClock();
  let draws = 0;
  const drawing = frameScheduler(() => draws++, hand.clock);
  drawing.request();
  drawing.request();
  assert.deepEqual([...hand.timers.values()].map((t) => t.ms), [100]);
  hand.timersFire();
  assert.equal(draws, 1);
  assert.equal(hand.frames.size, 0, "the timer came: the frame is cancelled");
  hand.nextFrame();
  assert.equal(draws, 1);
});

test("a request made while drawing is drawn in the frame after", () => {
  const hand = handClock();
  let draws = 0;
  const drawing = frameScheduler(() => {
    draws++;
    if (draws === 1) drawing.request(); // e.g. a message handled inside the redraw
  }, hand.clock);
  drawing.request();
  hand.nextFrame();
  assert.equal(draws, 1);
  assert.equal(drawing.pending, true);
  hand.nextFrame();
  assert.equal(draws, 2);
});

test("flush draws at once what was requested, and nothing when nothing was", () => {
  const hand = handClock();
  let draws = 0;
  const drawing = frameScheduler(() => draws++, hand.clock);
  drawing.flush();
  assert.equal(draws, 0);
  drawing.request();
  drawing.flush();
  assert.equal(draws, 1);
  assert.equal(hand.frames.size + hand.timers.size, 0, "nothing left to come");
  hand.nextFrame();
  hand.timersFire();
  assert.equal(draws, 1);
});
