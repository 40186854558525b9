// The view the page chooses for the map by itself (board.js): how far it zooms, and where it looks.
//
// - The zoom (pageScale) is chosen once, for the screen: the whole board where its army counts can be
//   read there (a laptop), else as close as the counts need (MIN_COUNT_PX, font size), filling a tall screen's
//   height (a phone held upright) rather than leaving sea above and below. The page never changes it
//   afterwards: only the player does (pinch, wheel, the + − ⤢ buttons).
// - Where it looks (bestWindow): each step of the player's turn names what it needs on screen
//   (drawboard.js: your territories while placing, where you can attack from and what, a chosen
//   territory and its targets), each with a weight; the map pans, at the same zoom, to the window that
//   holds the most of it, and of equal windows to the one nearest where the player already looks. It
//   does not move when the player's own view holds about as much (SETTLED).
// Pure functions of numbers: tests/js/viewframe.test.js.

export const MIN_COUNT_PX = 11; // an army count's height on screen, CSS px, at the page's own zoom
export const BADGE_FONT = 11.5; // an army count's font size in the board's units (times its unit)
export const MAX_ZOOM = 8; // the most, relative to the whole board
const MAX_SCREEN_ZOOM = 4; // the most that filling a tall screen zooms by itself
// A window holding at least this share of the best one's weight (and everything that must be seen) is
// good enough: the map stays where the player put it.
export const SETTLED = 0.75;
export const MUST = 100; // the weight of what must be on screen (the territory chosen, a battle's two ends)

// Zoomed out, the army badges grow by up to this much (badgeBoost), so that their counts stay
// readable further out: the whole classic board on a laptop, more of it on a phone.
export const BADGE_BOOST = 1.25;

/** Screen px per board unit at which army counts are MIN_COUNT_PX tall (the badges grown their most). */
export function readableScale(unit) {
  return MIN_COUNT_PX / (BADGE_FONT * unit * BADGE_BOOST);
}

/** How much the army badges grow at zoom k (1 to BADGE_BOOST): counts MIN_COUNT_PX tall where they can be. */
export function badgeBoost(k, unit) {
  return Math.min(BADGE_BOOST, Math.max(1, MIN_COUNT_PX / (BADGE_FONT * unit * k)));
}

/** Screen px per board unit at which the whole board (`view`: {x, y, w, h}) fits a width x height area. */
export function fitScale(width, height, view) {
  return Math.min(width / view.w, height / view.h);
}

/** The zoom the page chooses for a width x height map area: screen px per board unit. */
export function pageScale(width, height, view, unit) {
  const fit = fitScale(width, height, view);
  // A tall screen: the board fills its height (the width pans); a wide one shows it whole, its edges
  // too (a continent's name may sit at the very edge).
  const k = height > width ? Math.min(Math.max(width / view.w, height / view.h), fit * MAX_SCREEN_ZOOM) : fit;
  return Math.min(fit * MAX_ZOOM, Math.max(k, readableScale(unit)));
}

/** The centre of a w x h window kept over the board (`bounds`); a side larger than the board is centred on it. */
export function clampCentre(x, y, w, h, bounds) {
  const clamp = (c, size, lo, span) => (size >= span ? lo + span / 2 : Math.min(Math.max(c, lo + size / 2), lo + span - size / 2));
  return { x: clamp(x, w, bounds.x, bounds.w), y: clamp(y, h, bounds.y, bounds.h) };
}

/**
 * The weight of `points` ([{x, y, weight}]) inside the w x h window centred on `centre`, at least
 * `margin` inside its edges (none at an edge that is the board's own, `bounds`).
 */
export function weightIn(points, centre, w, h, margin, bounds = null) {
  const edge = (lo, hi, boundLo, boundHi) => [
    bounds && lo <= boundLo + 1e-6 ? -Infinity : lo + margin,
    bounds && hi >= boundHi - 1e-6 ? Infinity : hi - margin,
  ];
  const [left, right] = edge(centre.x - w / 2, centre.x + w / 2, bounds && bounds.x, bounds && bounds.x + bounds.w);
  const [top, bottom] = edge(centre.y - h / 2, centre.y + h / 2, bounds && bounds.y, bounds && bounds.y + bounds.h);
  let sum = 0;
  for (const p of points) if (p.x >= left && p.x <= right && p.y >= top && p.y <= bottom) sum += p.weight;
  return sum;
}

/**
 * The centre of the w x h window over `bounds` that holds the most weight of `points`, each at least
 * `margin` inside its edges; of equal ones, the nearest to `current`. {x, y, weight}.
 */
export function bestWindow(points, w, h, bounds, current, margin) {
  const start = clampCentre(current.x, current.y, w, h, bounds);
  let best = { ...start, weight: weightIn(points, start, w, h, margin, bounds), distance: 0 };
  if (!points.length) return best;
  // The best window has a point on its left or right edge and one on its top or bottom edge (slid
  // until one touches), so those are the candidates; with many points, only windows centred on one.
  const many = points.length > 60;
  const xs = new Set([start.x]);
  const ys = new Set([start.y]);
  for (const p of points) {
    if (many) {
      xs.add(p.x);
      ys.add(p.y);
    } else {
      xs.add(p.x - margin + w / 2).add(p.x + margin - w / 2);
      ys.add(p.y - margin + h / 2).add(p.y + margin - h / 2);
    }
  }
  for (const x of xs) {
    for (const y of ys) {
      const centre = clampCentre(x, y, w, h, bounds);
      const weight = weightIn(points, centre, w, h, margin, bounds);
      const distance = Math.hypot(centre.x - start.x, centre.y - start.y);
      if (weight > best.weight + 1e-9 || (Math.abs(weight - best.weight) <= 1e-9 && distance < best.distance)) {
        best = { ...centre, weight, distance };
      }
    }
  }
  return { x: best.x, y: best.y, weight: best.weight };
}

/**
 * Where the map should go for `points`, or null where it should stay: the window at `current` holds
 * every point that must be seen and about as much of the rest as the best window does.
 */
export function lookAt(points, w, h, bounds, current, margin) {
  if (!points.length) return null;
  const here = clampCentre(current.x, current.y, w, h, bounds);
  const best = bestWindow(points, w, h, bounds, here, margin);
  const held = (where, list) => weightIn(list, where, w, h, margin, bounds);
  const must = points.filter((p) => p.weight >= MUST);
  if (held(here, must) < held(best, must)) return best;
  if (held(here, points) >= best.weight * SETTLED) return null;
  return best;
}
