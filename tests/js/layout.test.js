// Where territories sit (src/risk/web/js/layout.js): the drawing's points kept, the rest laid out
// inside the view, apart, the same every time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { boardLayout } from "../../src/risk/web/js/layout.js";

/** A ring of `n` territories in `k` continents, each linked to the next. */
function ring(n, k) {
  const slug = (i) => `t${i}`;
  const territories = Array.from({ length: n }, (_, i) => ({
    slug: slug(i),
    continent: `c${i % k}`,
    neighbors: [slug((i + 1) % n), slug((i + n - 1) % n)],
  }));
  const continents = Array.from({ length: k }, (_, i) => ({ name: `c${i}` }));
  return { territories, continents };
}

test("without a drawing every territory is a node inside the view, and the layout is deterministic", () => {
  const { territories, continents } = ring(30, 5);
  const layout = boardLayout(territories, continents, null);
  assert.deepEqual(layout.view, { x: 0, y: 0, w: 1000, h: 620 });
  assert.equal(layout.shapeless.length, 30);
  assert.equal(layout.pos.size, 30);
  for (const { x, y, fixed } of layout.pos.values()) {
    assert.equal(fixed, false);
    assert.ok(x >= 0 && x <= 1000 && y >= 0 && y <= 620, `${x}, ${y} is outside the view`);
  }
  const again = boardLayout(territories, continents, null);
  assert.deepEqual([...again.pos], [...layout.pos]);
});

test("nodes are spread apart: no two on top of each other", () => {
  const { territories, continents } = ring(42, 6);
  const points = [...boardLayout(territories, continents, null).pos.values()];
  let nearest = Infinity;
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) nearest = Math.min(nearest, Math.hypot(points[i].x - points[j].x, points[i].y - points[j].y));
  }
  assert.ok(nearest > 20, `two nodes ${nearest.toFixed(1)} apart`);
});

test("a drawing's view box and label points are kept; a territory it lacks is placed near its neighbours", () => {
  const { territories, continents } = ring(4, 1);
  const drawing = {
    viewBox: [0, 0, 2000, 1200],
    territories: {
      t0: { path: "M0 0", label: [400, 300] },
      t1: { path: "M0 0", label: [800, 300] },
      t2: { path: "M0 0", label: [800, 700] },
    },
  };
  const layout = boardLayout(territories, continents, drawing);
  assert.deepEqual(layout.view, { x: 0, y: 0, w: 2000, h: 1200 });
  assert.deepEqual(layout.pos.get("t0"), { x: 400, y: 300, fixed: true });
  assert.deepEqual(layout.shapeless.map((t) => t.slug), ["t3"]);
  const free = layout.pos.get("t3");
  assert.equal(free.fixed, false);
  // t3 links t2 and t0: it lands between them, not somewhere across the board.
  assert.ok(free.x > 300 && free.x < 900 && free.y > 250 && free.y < 800, `t3 at ${free.x}, ${free.y}`);
});

test("a small board has larger territories: the unit grows, at most three times", () => {
  const small = ring(6, 2);
  const large = ring(42, 6);
  const unit = (b) => boardLayout(b.territories, b.continents, null).unit;
  assert.ok(unit(small) > unit(large));
  assert.ok(unit(ring(2, 1)) <= 3 * unit(large) + 1e-9);
  assert.equal(boardLayout(small.territories, small.continents, null).nodeR, 20 * unit(small));
});
