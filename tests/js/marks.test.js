// The seats' marks (marks.js, palette.js's marks, ui.js's seatColours): every seat its own, drawn.
import { test } from "node:test";
import assert from "node:assert/strict";
import { markName, markPath } from "../../src/risk/web/js/marks.js";
import { PALETTE } from "../../src/risk/web/js/palette.js";
import { seatColours } from "../../src/risk/web/js/ui.js";

const players = (n, extra = () => ({})) => Array.from({ length: n }, (_, i) => ({ neutral: false, team: null, ...extra(i) }));

test("ten seats, ten different marks, each drawn and named", () => {
  const marks = seatColours({ players: players(10) }).map((c) => c.mark);
  assert.deepEqual(marks, PALETTE.marks);
  assert.equal(new Set(marks).size, 10);
  for (const mark of marks) {
    assert.match(markPath(mark, 0, 0, 4), /^M[-\d.]+ [-\d.]+[aL]/, mark);
    assert.ok(markName(mark).length > 2, mark);
  }
});

test("Secret Mission's named colours keep the seats' marks", () => {
  const colours = seatColours({ players: players(6), goal: { names_colours: true } });
  assert.deepEqual(colours.map((c) => c.name), ["red", "blue", "green", "yellow", "black", "gray"]);
  assert.deepEqual(colours.map((c) => c.mark), PALETTE.marks.slice(0, 6));
});

test("teammates share their team's shape, each drawn their own way", () => {
  const colours = seatColours({ players: players(6, (i) => ({ team: i % 2 })) });
  assert.deepEqual(colours.map((c) => c.mark), ["triangle", "square", "triangle-open", "square-open", "triangle-dot", "square-dot"]);
  assert.deepEqual(colours.map((c) => markName(c.mark)), ["triangle", "square", "open triangle", "open square", "triangle with a dot", "square with a dot"]);
  // An open mark is its outline and a hole (two closed parts), with a dot three.
  assert.equal(markPath("square-open", 0, 0, 4).split("Z").length - 1, 2);
  assert.equal(markPath("square-dot", 0, 0, 4).split("Z").length - 1, 3);
});

test("neutral armies wear a pattern, not a mark; an unknown mark draws nothing", () => {
  const colours = seatColours({ players: [{ neutral: false }, { neutral: false }, { neutral: true }] });
  assert.equal(colours[2].mark, undefined);
  assert.ok(colours[2].pattern);
  assert.equal(markPath("moon", 0, 0, 4), "");
  assert.equal(markPath(undefined, 0, 0, 4), "");
});

test("a mark stays inside its box (the badge's corner)", () => {
  for (const mark of [...PALETTE.marks, ...PALETTE.teams.flatMap((t) => t.marks)]) {
    const numbers = markPath(mark, 0, 0, 1).match(/-?\d+\.\d+/g).map(Number);
    // Arcs' numbers are radii and sweeps (the circle's are 1 and 2: its box is 1 all the same).
    const reach = mark.startsWith("circle") || mark.startsWith("ring") ? 1 : Math.max(...numbers.map(Math.abs));
    assert.ok(reach <= 1.15, `${mark}: ${reach}`);
  }
});
