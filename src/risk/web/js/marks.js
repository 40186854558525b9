// The seats' marks: a small symbol each seat has besides its colour (palette.js's `marks`), on its army
// badges, in the players list and in the map's legend, so that no one needs the colours to tell two
// seats apart. Team RISK's marks keep the team's shape (a triangle, a square) and tell the teammates
// apart by how it is drawn: solid, open, or open with a dot.

import { svg } from "./ui.js";

// Corners of each shape, around (0, 0), within a half-size of 1.15 (so that a mark stays in the
// corner of its badge: risk.maps.labels keeps names clear of the badge's square only).
const SHAPES = {
  triangle: [[0, -1.15], [1.15, 0.85], [-1.15, 0.85]],
  down: [[0, 1.15], [1.15, -0.85], [-1.15, -0.85]],
  square: [[-1, -1], [1, -1], [1, 1], [-1, 1]],
  diamond: [[0, -1.15], [1.15, 0], [0, 1.15], [-1.15, 0]],
  hourglass: [[-1, -1.05], [1, -1.05], [-1, 1.05], [1, 1.05]],
  plus: arms(0),
  cross: arms(45),
  star: Array.from({ length: 10 }, (_, i) => {
    const radius = i % 2 ? 0.5 : 1.15;
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    return [radius * Math.cos(angle), radius * Math.sin(angle) + 0.1];
  }),
};
const HOLE = 0.45; // an open mark's hole, of its outline's size
const RING = 0.66; // a dotted mark's hole: wider, for a dot that shows at a badge's size
const DOT = 0.3; // that dot

/** A plus of arms 0.4 wide, turned by `degrees`. */
function arms(degrees) {
  const t = 0.36;
  const l = degrees ? 1.25 : 1.1; // a cross's arms reach its corners: longer for the same box
  const points = [[-t, -l], [t, -l], [t, -t], [l, -t], [l, t], [t, t], [t, l], [-t, l], [-t, t], [-l, t], [-l, -t], [-t, -t]];
  const a = (degrees * Math.PI) / 180;
  return points.map(([x, y]) => [x * Math.cos(a) - y * Math.sin(a), x * Math.sin(a) + y * Math.cos(a)]);
}

/** The SVG path of `mark` ("star", "triangle-open", "square-dot"...) of half-size r centred on (x, y);
 * its holes are cut with fill-rule evenodd. An unknown mark draws nothing. */
export function markPath(mark, x, y, r) {
  const [shape, style] = String(mark || "").split("-");
  const f = (v) => v.toFixed(2);
  const circle = (k) => `M${f(x - k * r)} ${f(y)}a${f(k * r)} ${f(k * r)} 0 1 0 ${f(2 * k * r)} 0a${f(k * r)} ${f(k * r)} 0 1 0 ${f(-2 * k * r)} 0Z`;
  if (shape === "circle") return circle(1);
  if (shape === "ring") return circle(1) + circle(0.5);
  const points = SHAPES[shape];
  if (!points) return "";
  // An open shape's hole and dot sit at the centre of its corners (a triangle's is below its middle).
  const cx = points.reduce((s, p) => s + p[0], 0) / points.length;
  const cy = points.reduce((s, p) => s + p[1], 0) / points.length;
  const outline = (k) =>
    `M${points.map(([px, py]) => `${f(x + r * (cx + (px - cx) * k))} ${f(y + r * (cy + (py - cy) * k))}`).join("L")}Z`;
  if (style === "open") return outline(1) + outline(HOLE);
  if (style === "dot") return outline(1) + outline(RING) + outline(DOT);
  return outline(1);
}

/** A seat's mark as a small picture for the page's text (the players list), or null without one. */
export function markIcon(mark, size = 12) {
  if (!mark) return null;
  return svg(
    "svg",
    { class: "mark-icon", width: size, height: size, viewBox: "-7 -7 14 14", "aria-hidden": "true", dataset: { mark } },
    svg("path", { d: markPath(mark, 0, 0, 5), "stroke-width": 1.6 }),
  );
}

/** A seat's mark in words, for a screen reader ("triangle-open": "open triangle"). */
export function markName(mark) {
  const [shape, style] = String(mark || "").split("-");
  if (style === "open") return `open ${shape}`;
  if (style === "dot") return `${shape} with a dot`;
  return { down: "down triangle", plus: "plus", cross: "cross" }[shape] || shape;
}
