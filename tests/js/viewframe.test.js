// The view the page chooses by itself (src/risk/web/js/viewframe.js): its zoom for the screen, and the
// window it pans to for what a step needs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BADGE_BOOST, BADGE_FONT, MIN_COUNT_PX, MUST, badgeBoost, bestWindow, lookAt, pageScale, weightIn } from "../../src/risk/web/js/viewframe.js";

const CLASSIC = { x: 0, y: 0, w: 1200, h: 596 }; // the classic drawing's view box
const CLASSIC_UNIT = Math.min(1200, 596 * 1.6) / 1000; // layout.js's unit for it
const countPx = (k, unit) => BADGE_FONT * unit * k * badgeBoost(k, unit);

test("the page's zoom shows the whole classic board on a laptop, with counts of 11 px", () => {
  const k = pageScale(996, 512, CLASSIC, CLASSIC_UNIT); // the laptop's map area at 1366x768
  assert.equal(k, Math.min(996 / 1200, 512 / 596));
  assert.ok(countPx(k, CLASSIC_UNIT) >= MIN_COUNT_PX - 1e-9);
  assert.ok(badgeBoost(k, CLASSIC_UNIT) > 1 && badgeBoost(k, CLASSIC_UNIT) <= BADGE_BOOST);
});

test("on a phone held upright the board fills the height, and counts are never under 11 px", () => {
  for (const [width, height] of [[390, 549], [360, 500], [320, 420], [430, 700]]) {
    const k = pageScale(width, height, CLASSIC, CLASSIC_UNIT);
    assert.ok(k * CLASSIC.h >= height - 1e-6, `${width}x${height}: the board fills the height`);
    assert.ok(countPx(k, CLASSIC_UNIT) >= MIN_COUNT_PX - 1e-9, `${width}x${height}`);
  }
});

test("on a phone on its side the page zooms in only as far as the counts need", () => {
  const k = pageScale(540, 350, CLASSIC, CLASSIC_UNIT);
  assert.ok(Math.abs(countPx(k, CLASSIC_UNIT) - MIN_COUNT_PX) < 1e-9);
  assert.ok(k > Math.min(540 / 1200, 350 / 596));
});

test("a board too big to read whole is shown as near as its counts need, however wide the screen", () => {
  const big = { x: 0, y: 0, w: 3000, h: 2000 };
  const unit = 0.6;
  const k = pageScale(1366, 700, big, unit);
  assert.ok(Math.abs(countPx(k, unit) - MIN_COUNT_PX) < 1e-9);
});

test("zoomed in, the badges are their own size; zoomed out, they grow by at most BADGE_BOOST", () => {
  assert.equal(badgeBoost(5, 1), 1);
  assert.equal(badgeBoost(0.01, 1), BADGE_BOOST);
});

const pts = (list) => list.map(([x, y, weight = 1]) => ({ x, y, weight }));

test("the window holds the most weight, and of equal windows the nearest one", () => {
  // Three points west, one east: a 300-wide window goes west.
  const points = pts([[100, 100], [150, 120], [200, 90], [1000, 100]]);
  const best = bestWindow(points, 300, 200, CLASSIC, { x: 900, y: 100 }, 10);
  assert.equal(best.weight, 3);
  assert.equal(weightIn(points, best, 300, 200, 10), 3);
  // Already holding all of it: it stays where it is.
  const here = bestWindow(pts([[500, 300]]), 300, 200, CLASSIC, { x: 520, y: 310 }, 10);
  assert.deepEqual([here.x, here.y], [520, 310]);
});

test("the window stays over the board", () => {
  const best = bestWindow(pts([[5, 5]]), 300, 200, CLASSIC, { x: 600, y: 300 }, 10);
  assert.ok(best.x >= 150 && best.y >= 100);
  assert.equal(best.weight, 1);
});

test("the map does not move when the player's view holds about as much as the best one", () => {
  const points = pts([[100, 100], [150, 120], [200, 90], [260, 110]]);
  // Holding all four: no move.
  assert.equal(lookAt(points, 400, 300, CLASSIC, { x: 200, y: 150 }, 10), null);
  // Holding none: it moves to them.
  const to = lookAt(points, 400, 300, CLASSIC, { x: 900, y: 400 }, 10);
  assert.ok(to && to.weight === 4);
  // Holding three of four (75%): stays.
  assert.equal(lookAt(points, 240, 300, CLASSIC, { x: 180, y: 150 }, 10), null);
});

test("what must be seen moves the map even when the rest is in view", () => {
  const points = pts([[100, 100], [150, 120], [200, 90], [900, 400, MUST]]);
  const to = lookAt(points, 400, 300, CLASSIC, { x: 200, y: 150 }, 10);
  assert.ok(to);
  assert.ok(weightIn(points, to, 400, 300, 10) >= MUST);
});

test("nothing asked for: nothing moves", () => {
  assert.equal(lookAt([], 400, 300, CLASSIC, { x: 200, y: 150 }, 10), null);
});
