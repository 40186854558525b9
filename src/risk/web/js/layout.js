// Where each territory sits on the board (board.js draws it there): the drawing's label points, and for
// territories without a shape (or boards without a drawing) a deterministic force layout, continents
// apart and links short, spread so that names do not overlap. Pure: tests/js/layout.test.js.

// The view of a board without a drawing.
const NODE_W = 1000;
const NODE_H = 620;

/**
 * The layout of a board's territories ({slug, continent, neighbors}) in its continents' order, on its
 * drawing (or none): the view box, the unit of sizes, each territory's position by slug (`fixed` for
 * the drawing's own), the radius of a round node, and the territories drawn as round nodes.
 */
export function boardLayout(territories, continents, drawing) {
  const drawn = drawing ? drawing.territories : {};
  const shaped = (t) => drawn[t.slug] && drawn[t.slug].path;
  const shapeless = territories.filter((t) => !shaped(t));
  let view;
  if (drawing && Array.isArray(drawing.viewBox)) {
    const [x, y, w, h] = drawing.viewBox.map(Number);
    view = { x, y, w, h };
  } else {
    view = { x: 0, y: 0, w: NODE_W, h: NODE_H };
  }
  // As risk.maps.labels.board_unit: a board of fewer than 42 territories has larger ones, and
  // its names and badges grow with them (by sqrt(42 / count), at most 3 times).
  const count = territories.length;
  const sparse = count > 0 && count < 42 ? Math.min(3, Math.sqrt(42 / count)) : 1;
  const unit = Math.max(0.4, Math.min(view.w, view.h * 1.6) / 1000) * sparse;
  const pos = new Map();
  for (const t of territories) {
    const d = drawn[t.slug];
    if (d && Array.isArray(d.label)) pos.set(t.slug, { x: +d.label[0], y: +d.label[1], fixed: true });
  }
  if (pos.size < territories.length) forceLayout(territories, continents, view, pos);
  return { view, unit, pos, nodeR: 20 * unit, shapeless };
}

/** A deterministic force layout for territories without a position: continents apart, links short. */
function forceLayout(territories, continents, view, pos) {
  const ts = territories;
  const n = ts.length;
  const cont = continents.map((c) => c.name);
  const { x: vx, y: vy, w, h } = view;
  const P = ts.map((t) => {
    const p = pos.get(t.slug);
    if (p) return { x: p.x, y: p.y, fixed: true };
    // Continents in two rows, in the board's order (the classic board reads west to east:
    // North and South America, Europe and Africa, Asia and Australia).
    let ci = cont.indexOf(t.continent);
    if (ci < 0) ci = 0;
    const cols = Math.max(1, Math.ceil(cont.length / 2));
    const cx = vx + ((Math.floor(ci / 2) + 0.5) / cols) * w;
    const cy = vy + (cont.length < 2 ? 0.5 : ci % 2 ? 0.72 : 0.3) * h;
    const members = ts.filter((u) => u.continent === t.continent);
    const k = members.indexOf(t);
    const a = (2 * Math.PI * k) / Math.max(1, members.length) + ci;
    return { x: cx + Math.cos(a) * w * 0.06, y: cy + Math.sin(a) * h * 0.08, fixed: false };
  });
  if (pos.size) {
    // Some territories are drawn: put each of the others beside its drawn neighbours, then only
    // keep them from overlapping (no global forces, which would push them off the drawing).
    const idx0 = new Map(ts.map((t, i) => [t.slug, i]));
    for (let round = 0; round < 3; round++) {
      ts.forEach((t, i) => {
        if (P[i].fixed) return;
        const near = t.neighbors.map((s) => idx0.get(s)).filter((j) => j !== undefined && (P[j].fixed || round > 0));
        if (!near.length) return;
        const mx = near.reduce((sum, j) => sum + P[j].x, 0) / near.length;
        const my = near.reduce((sum, j) => sum + P[j].y, 0) / near.length;
        P[i].x = mx + ((i % 5) - 2) * 6;
        P[i].y = my + 28 + ((i % 3) - 1) * 6;
      });
    }
    spread(P, n, vx, vy, w, h, 44, 1);
    ts.forEach((t, i) => {
      if (!pos.has(t.slug)) pos.set(t.slug, { x: P[i].x, y: P[i].y, fixed: false });
    });
    return;
  }
  const idx = new Map(ts.map((t, i) => [t.slug, i]));
  const edges = [];
  ts.forEach((t, i) =>
    t.neighbors.forEach((s) => {
      const j = idx.get(s);
      if (j !== undefined && j > i) edges.push([i, j, t.continent === ts[j].continent]);
    }),
  );
  const area = w * h;
  const k = Math.sqrt(area / n) * 0.78;
  let temp = w / 8;
  for (let step = 0; step < 500; step++) {
    const dx = new Float64Array(n);
    const dy = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        let ex = P[i].x - P[j].x;
        let ey = P[i].y - P[j].y;
        let d2 = ex * ex + ey * ey;
        if (d2 < 1e-4) {
          ex = ((i * 7 + j * 13) % 11) - 5 || 1;
          ey = ((i * 3 + j * 5) % 7) - 3 || 1;
          d2 = ex * ex + ey * ey;
        }
        const d = Math.sqrt(d2);
        const f = (k * k) / d;
        const same = ts[i].continent === ts[j].continent ? 1 : 1.6;
        dx[i] += (ex / d) * f * same;
        dy[i] += (ey / d) * f * same;
        dx[j] -= (ex / d) * f * same;
        dy[j] -= (ey / d) * f * same;
      }
    }
    for (const [i, j, same] of edges) {
      const ex = P[i].x - P[j].x;
      const ey = P[i].y - P[j].y;
      const d = Math.sqrt(ex * ex + ey * ey) || 1;
      const f = ((d * d) / k) * (same ? 1.2 : 0.35);
      dx[i] -= (ex / d) * f;
      dy[i] -= (ey / d) * f;
      dx[j] += (ex / d) * f;
      dy[j] += (ey / d) * f;
    }
    // Pull each territory toward its continent's centre, and everything toward the middle.
    const centres = new Map();
    for (let i = 0; i < n; i++) {
      const c = centres.get(ts[i].continent) || { x: 0, y: 0, n: 0 };
      c.x += P[i].x;
      c.y += P[i].y;
      c.n += 1;
      centres.set(ts[i].continent, c);
    }
    for (let i = 0; i < n; i++) {
      const c = centres.get(ts[i].continent);
      dx[i] += (c.x / c.n - P[i].x) * 0.12;
      dy[i] += (c.y / c.n - P[i].y) * 0.12;
      dx[i] += (vx + w / 2 - P[i].x) * 0.02;
      dy[i] += (vy + h / 2 - P[i].y) * 0.035;
    }
    for (let i = 0; i < n; i++) {
      if (P[i].fixed) continue;
      const d = Math.sqrt(dx[i] * dx[i] + dy[i] * dy[i]) || 1;
      const m = Math.min(d, temp);
      P[i].x += (dx[i] / d) * m;
      P[i].y += (dy[i] / d) * m;
    }
    // No two nodes closer than the room a node and its name need.
    const room = k * 0.95;
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) {
          const ex = P[j].x - P[i].x;
          const ey = P[j].y - P[i].y;
          const d = Math.hypot(ex, ey) || 0.01;
          if (d >= room) continue;
          const push = (room - d) / 2;
          const ux = ex / d;
          const uy = ey / d;
          if (!P[i].fixed) {
            P[i].x -= ux * push * (P[j].fixed ? 2 : 1);
            P[i].y -= uy * push * (P[j].fixed ? 2 : 1);
          }
          if (!P[j].fixed) {
            P[j].x += ux * push * (P[i].fixed ? 2 : 1);
            P[j].y += uy * push * (P[i].fixed ? 2 : 1);
          }
        }
      }
    }
    temp = Math.max(temp * 0.985, 0.5);
  }
  // Fit the free nodes into the view (when nothing was pinned), keeping a margin.
  const free = P.filter((p) => !p.fixed);
  if (free.length === n) {
    const xs = P.map((p) => p.x);
    const ys = P.map((p) => p.y);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const m = 60;
    const sx = (w - 2 * m) / Math.max(1, x1 - x0);
    const sy = (h - 2 * m - 20) / Math.max(1, y1 - y0);
    for (const p of P) {
      p.x = vx + m + (p.x - x0) * sx;
      p.y = vy + m + 10 + (p.y - y0) * sy;
    }
  } else {
    for (const p of P) {
      p.x = Math.min(vx + w - 20, Math.max(vx + 20, p.x));
      p.y = Math.min(vy + h - 20, Math.max(vy + 20, p.y));
    }
  }
  // Then spread out what the fitting squeezed together, inside the view.
  spread(P, n, vx, vy, w, h);
  ts.forEach((t, i) => {
    if (!pos.has(t.slug)) pos.set(t.slug, { x: P[i].x, y: P[i].y, fixed: false });
  });
}

/** Push apart nodes closer than a node and its name need, keeping them inside the view. */
function spread(P, n, vx, vy, w, h, factor = 66, wide = 0.62) {
  // Distances count sideways less (names are wider than tall): side by side needs more room.
  const room = (Math.min(w, h * 1.6) / 1000) * factor;
  for (let step = 0; step < 200; step++) {
    let moved = false;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        if (P[i].fixed && P[j].fixed) continue;
        const ex = P[j].x - P[i].x;
        const ey = P[j].y - P[i].y;
        const d = Math.hypot(ex * wide, ey) || 0.01;
        if (d >= room) continue;
        moved = true;
        const push = (room - d) / 2 + 0.5;
        const [wi, wj] = P[i].fixed ? [0, 2] : P[j].fixed ? [2, 0] : [1, 1];
        P[i].x -= (ex / d) * push * wi;
        P[i].y -= (ey / d) * push * wi * 0.8;
        P[j].x += (ex / d) * push * wj;
        P[j].y += (ey / d) * push * wj * 0.8;
      }
    }
    for (const p of P) {
      if (p.fixed) continue;
      p.x = Math.min(vx + w - 70, Math.max(vx + 70, p.x));
      p.y = Math.min(vy + h - 40, Math.max(vy + 50, p.y));
    }
    if (!moved) break;
  }
}
