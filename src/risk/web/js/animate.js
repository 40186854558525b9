// Attacks and conquests drawn on the board as they come: a short arrow from the attacker to the
// target, the dice beside the target, and a ring on a conquered territory. Decoration only: drawn
// over the map in a layer of its own that lets every click through, removed by a timer; nothing
// waits for it, so a player's own input is never delayed. The pace (docs/web.md, "A seat's
// settings") sets how long it stays: "watch" the longest, "fast" a glimpse, "skip" not at all.

import { svg, slugify } from "./ui.js";

const SHOWN_MS = { watch: 1100, fast: 500, skip: 0 };
let layer = null;

function overlay(board) {
  if (!layer || layer.ownerSVGElement !== board.svg) {
    layer = svg("g", { class: "anim-layer", "aria-hidden": "true" });
    board.svg.append(layer);
  } else if (layer !== board.svg.lastChild) board.svg.append(layer); // stays on top
  return layer;
}

/** Show the battle ``battle`` (a view's last_battle) on ``board`` at ``pace``; ``rolls``: how many
 * rolls it stands for (a blitz sends them together). */
export function showBattle(board, battle, pace, rolls = 1) {
  const shown = SHOWN_MS[pace] ?? SHOWN_MS.watch;
  if (!board || !battle || !shown) return null;
  const from = board.positionOf(slugify(battle.from));
  const to = board.positionOf(slugify(battle.to));
  if (!from || !to) return null;
  const u = board.unit;
  const group = svg("g", { class: `anim-battle${battle.conquered ? " anim-conquered" : ""}`, style: { "--anim-ms": `${shown}ms` } });
  // The arrow: most of the way from the attacker to the target; across the map's edge (Alaska and
  // Kamchatka) toward the near edge, as the board draws its links.
  const view = board.view;
  const across = view && Math.abs(to.x - from.x) > view.w * 0.5;
  const end = across ? { x: to.x > from.x ? view.x - 10 : view.x + view.w + 10, y: to.y } : to;
  const dx = end.x - from.x;
  const dy = end.y - from.y;
  const d = Math.hypot(dx, dy) || 1;
  const trim = Math.min(14 * u, d / 4);
  group.append(
    svg("line", {
      class: "anim-arrow",
      x1: from.x + (dx / d) * trim,
      y1: from.y + (dy / d) * trim,
      x2: end.x - (across ? 0 : (dx / d) * trim),
      y2: end.y - (across ? 0 : (dy / d) * trim),
      "stroke-width": 4 * u,
      "marker-end": "url(#arrow-head)",
    }),
  );
  // The dice: the attacker's above the defender's, beside the target.
  const size = 11 * u;
  const gap = 2 * u;
  const x0 = to.x + 10 * u;
  const rows = [
    [battle.attacker_dice || [], "attack", to.y - size - gap / 2],
    [battle.defender_dice || [], "defence", to.y + gap / 2],
  ];
  for (const [dice, side, y] of rows) {
    dice.forEach((value, i) => {
      const x = x0 + i * (size + gap);
      group.append(
        svg("rect", { class: `anim-die anim-die-${side}`, x, y, width: size, height: size, rx: 2 * u }),
        svg("text", { class: "anim-pips", x: x + size / 2, y: y + size * 0.74, "font-size": size * 0.78, "text-anchor": "middle" }, String(value)),
      );
    });
  }
  if (rolls > 1) {
    group.append(svg("text", { class: "anim-rolls", x: x0, y: to.y + size * 2 + gap, "font-size": size * 0.8 }, `×${rolls}`));
  }
  if (battle.conquered) group.append(svg("circle", { class: "anim-ring", cx: to.x, cy: to.y, r: 16 * u, "stroke-width": 3 * u }));
  const host = overlay(board);
  host.replaceChildren(group); // the newest battle only: bots at speed do not pile arrows up
  setTimeout(() => group.remove(), shown);
  return group;
}
