// The board as SVG: drawn from GET /api/boards/{name} ({board, drawing}).
//
// With a drawing, territories are its outlines; a territory the drawing lacks (or every territory,
// when there is no drawing) is a round node at a computed position, with lines for its links, so
// any board can be played. Each clickable territory element carries data-territory="slug"; each
// army badge data-armies="slug".

import { svg, clear, slugify, UNOWNED, TIED } from "./ui.js";
import { PALETTE } from "./palette.js";
import { boardLayout } from "./layout.js";
import { BADGE_FONT, MAX_ZOOM, MUST, badgeBoost, bestWindow, clampCentre, fitScale, lookAt, pageScale } from "./viewframe.js";
import { markPath } from "./marks.js";

// Continent tints, in the board's order (the classic board's printed colours first).
// Twelve: a generated board has up to 24 continents (risk.server.boards.TINTS, the lobby's previews).
const CONTINENT_TINTS = [
  "#f0c24b", "#e7774f", "#6fa8f5", "#b98a5e", "#63c27a", "#c583f5", "#4fd1c5", "#f28cb1",
  "#a3c75a", "#e0a36f", "#8f9cf0", "#d9d36a",
];

// A finger's reach (CSS px) when it taps near small territories, and how much nearer one must be to
// be taken without asking.
const TAP_RADIUS = 22;
const TAP_CLEAR = 8;
const GLIDE_MS = 260; // a pan the page makes by itself
// Names: screen px per font unit from which the names that fit their territory show, then all.
const NAMES_SOME = 0.45;
const NAMES_ALL = 0.7;

export class Board {
  constructor(host, data, { onTerritory, onHover } = {}) {
    this.host = host;
    this.board = data.board;
    this.drawing = data.drawing && data.drawing.territories ? data.drawing : null;
    this.onTerritory = onTerritory || (() => {});
    this.onHover = onHover || (() => {});
    // The board is a board file (docs/boards.md): a territory's neighbours are its own list and the links.
    const linked = new Map(this.board.territories.map((t) => [t.name, new Set(t.neighbours || [])]));
    for (const link of this.board.links || []) {
      const [a, b] = link.between;
      if (linked.has(a) && linked.has(b)) {
        linked.get(a).add(b);
        linked.get(b).add(a);
      }
    }
    this.territories = this.board.territories.map((t, index) => ({
      index,
      name: t.name,
      slug: t.slug || slugify(t.name),
      continent: t.continent,
      neighbors: [...linked.get(t.name)].map((n) => slugify(n)),
      island: !!t.island,
    }));
    this.bySlug = new Map(this.territories.map((t) => [t.slug, t]));
    this.continents = (this.board.continents || []).map((c, i) => ({
      name: c.name,
      bonus: c.bonus,
      tint: CONTINENT_TINTS[i % CONTINENT_TINTS.length],
    }));
    this.continentOf = new Map(this.continents.map((c) => [c.name, c]));
    this.names = true;
    this.dragged = false;
    Object.assign(this, boardLayout(this.territories, this.continents, this.drawing)); // view, unit, pos, nodeR, shapeless
    this._build();
    this._interact();
  }

  // -- building --------------------------------------------------------------------------------
  _build() {
    const u = this.unit;
    const { x, y, w, h } = this.view;
    const root = svg("svg", {
      class: "board-svg",
      viewBox: `${x} ${y} ${w} ${h}`,
      preserveAspectRatio: "xMidYMid meet",
      role: "group",
      "aria-label": `The ${this.board.name} board`,
    });
    this.svg = root;
    const defs = svg("defs");
    defs.append(
      svg(
        "pattern",
        { id: "hatch", width: 8 * u, height: 8 * u, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        svg("rect", { width: 8 * u, height: 8 * u, fill: TIED.fill }),
        svg("rect", { width: 3.2 * u, height: 8 * u, fill: "#5d636b" }),
      ),
      // Fog of war: a haze with drifting streaks over the lands out of sight (update(), row.hidden).
      svg(
        "pattern",
        { id: "fog-texture", width: 18 * u, height: 12 * u, patternUnits: "userSpaceOnUse" },
        svg("rect", { width: 18 * u, height: 12 * u, class: "fog-haze" }),
        svg("path", { d: `M0 ${3 * u}q${4.5 * u} ${-2.2 * u} ${9 * u} 0t${9 * u} 0M${-9 * u} ${9 * u}q${4.5 * u} ${-2.2 * u} ${9 * u} 0t${9 * u} 0t${9 * u} 0`, class: "fog-streak", "stroke-width": 1.3 * u }),
      ),
      svg(
        "marker",
        { id: "arrow-head", viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" },
        svg("path", { d: "M0 0L10 5L0 10z", class: "arrow-head" }),
      ),
    );
    root.append(defs);
    const layer = (name) => {
      const g = svg("g", { class: `layer layer-${name}` });
      root.append(g);
      return g;
    };
    const hulls = layer("hulls");
    const links = layer("links");
    const coast = layer("coast");
    const land = layer("land");
    const rims = layer("rims");
    const fog = layer("fog");
    // A computed drawing's links run badge to badge over the land (risk.maps.cells), so above it.
    const overland = layer("overland");
    const computed = !!(this.drawing && (this.drawing.kind === "cells" || this.drawing.kind === "layout"));
    const linkLayer = computed ? overland : links;
    const highlights = layer("highlights");
    const arrows = layer("arrows");
    const marks = layer("marks");
    const contLabels = layer("continent-labels");
    const names = layer("names");
    const badges = layer("badges");
    this.layers = { hulls, links, coast, land, rims, fog, highlights, arrows, marks, names, badges, contLabels };

    // Sea lines of the drawing, dashed; links of shapeless territories as lines.
    const drawnSea = new Set();
    if (this.drawing && Array.isArray(this.drawing.sea_lines)) {
      for (const line of this.drawing.sea_lines) {
        if (!line || !line.path) continue;
        const [a, b] = (line.between || []).map(String);
        drawnSea.add(`${a}|${b}`);
        drawnSea.add(`${b}|${a}`);
        // A sea link across a land (line.over_land) goes above the land, which would hide it.
        (line.over_land ? overland : linkLayer).append(svg("path", { d: line.path, class: `sea-line${line.wrap ? " wrap" : ""}`, "stroke-width": 2 * u }));
      }
    }
    // A computed drawing (risk.maps.cells): border links between shapes that do not touch, and walls
    // where cells touch without a link (touching then always means linked).
    if (this.drawing) {
      for (const line of this.drawing.link_lines || []) {
        const [a, b] = (line.between || []).map(String);
        drawnSea.add(`${a}|${b}`);
        drawnSea.add(`${b}|${a}`);
        linkLayer.append(svg("path", { d: line.path, class: "link-line", "stroke-width": 2 * u }));
      }
      for (const wall of this.drawing.walls || []) {
        overland.append(svg("path", { d: wall.path, class: "wall", "stroke-width": 3.5 * u }));
      }
    }
    const shapeless = new Set(this.shapeless.map((t) => t.slug));
    for (const t of this.territories) {
      for (const s of t.neighbors) {
        if (s <= t.slug || !this.bySlug.has(s)) continue;
        if (!shapeless.has(t.slug) && !shapeless.has(s)) continue; // outlines touch: no line needed
        if (drawnSea.has(`${t.slug}|${s}`)) continue;
        const a = this.pos.get(t.slug);
        const b = this.pos.get(s);
        const other = this.bySlug.get(s);
        const cross = t.continent !== other.continent || t.island || other.island;
        links.append(
          svg("line", {
            x1: a.x, y1: a.y, x2: b.x, y2: b.y,
            class: cross ? "link-line sea-line" : "link-line",
            "stroke-width": 2.4 * u,
          }),
        );
      }
    }

    // Continent hulls behind shapeless nodes.
    for (const c of this.continents) {
      const pts = this.shapeless.filter((t) => t.continent === c.name).map((t) => this.pos.get(t.slug));
      if (!pts.length) continue;
      const hull = convexHull(pts);
      const d = hull.length === 1
        ? `M${hull[0].x - 0.1} ${hull[0].y}L${hull[0].x + 0.1} ${hull[0].y}`
        : `M${hull.map((p) => `${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join("L")}Z`;
      hulls.append(
        svg("path", {
          d,
          class: "continent-hull",
          fill: c.tint,
          stroke: c.tint,
          "stroke-width": (this.nodeR + 18 * u) * 2,
        }),
      );
    }

    // Territories.
    this.els = new Map();
    const drawn = this.drawing ? this.drawing.territories : {};
    for (const t of this.territories) {
      const c = this.continentOf.get(t.continent);
      const tint = c ? c.tint : "#888";
      const d = drawn[t.slug];
      const p = this.pos.get(t.slug);
      let shape;
      let rim = null;
      if (d && d.path) {
        coast.append(svg("path", { d: d.path, class: "coast", "stroke-width": 5 * u }));
        shape = svg("path", { d: d.path, id: `t-${t.slug}`, class: "territory", "stroke-width": 0.9 * u });
        const clipId = `clip-${t.slug}`;
        defs.append(svg("clipPath", { id: clipId }, svg("path", { d: d.path })));
        rim = svg("path", {
          d: d.path,
          class: "rim",
          stroke: tint,
          "stroke-width": 5 * u,
          "clip-path": `url(#${clipId})`,
        });
        rims.append(rim);
      } else {
        shape = svg("circle", {
          id: `t-${t.slug}`,
          cx: p.x,
          cy: p.y,
          r: this.nodeR,
          class: "territory node",
          stroke: tint,
          "stroke-width": 3.5 * u,
        });
      }
      shape.dataset.territory = t.slug;
      shape.setAttribute("aria-label", t.name);
      shape.append(svg("title", { text: t.name }));
      land.append(shape);
      // The fog over it when it is out of sight (shown by update()); clicks go through to the land.
      const veil = d && d.path
        ? svg("path", { d: d.path, class: "fog-veil", fill: "url(#fog-texture)" })
        : svg("circle", { cx: p.x, cy: p.y, r: this.nodeR, class: "fog-veil", fill: "url(#fog-texture)" });
      veil.dataset.veil = t.slug;
      fog.append(veil);

      const hl =
        d && d.path
          ? this._outline(d.path)
          : svg("circle", { cx: p.x, cy: p.y, r: this.nodeR + 2.5 * u, class: "hl", "stroke-width": 3.2 * u });
      highlights.append(hl);

      const label = this._name(t, p, d);
      names.append(label);

      const badge = svg("g", { class: "badge", transform: `translate(${p.x.toFixed(1)} ${p.y.toFixed(1)})` });
      badge.dataset.armies = t.slug;
      const discR = 11 * u;
      const rimWidth = 2.6 * u;
      const disc = svg("circle", { r: discR, class: "badge-disc", fill: PALETTE.badge.disc, "stroke-width": rimWidth });
      // The flash where the count changed: a gold disc inside the rim fading out over the badge's own (an
      // opacity animation, which the compositor runs alone; a fill animation repainted the board each frame).
      const flash = svg("circle", { r: discR - rimWidth / 2, class: "badge-flash" });
      const count = svg("text", { class: "badge-text", fill: PALETTE.badge.text, "font-size": BADGE_FONT * u, dy: "0.36em", text: "" });
      // The owner's mark (marks.js), in the badge's corner: beside the count, clear of it and of the
      // names (risk.maps.labels keeps them off the badge's square).
      const mark = svg("path", { class: "seat-mark", "stroke-width": 1.6 * u });
      badge.append(disc, flash, count, mark);
      badges.append(badge);

      this.els.set(t.slug, { shape, rim, veil, hl, label, badge, disc, count, mark, tint });
    }

    // Continent names and bonuses.
    const contDrawing = (this.drawing && this.drawing.continents) || {};
    for (const c of this.continents) {
      let at = contDrawing[c.name] && contDrawing[c.name].label;
      if (!at) {
        const members = this.territories.filter((t) => t.continent === c.name).map((t) => this.pos.get(t.slug));
        if (!members.length) continue;
        const cx = members.reduce((s, p) => s + p.x, 0) / members.length;
        const top = Math.min(...members.map((p) => p.y));
        at = [cx, top - this.nodeR - 24 * u];
      }
      contLabels.append(
        svg(
          "text",
          { x: at[0], y: at[1], class: "continent-label", fill: c.tint, "font-size": 13 * u, "stroke-width": 3.4 * u },
          svg("tspan", { text: c.name.toUpperCase() }),
          svg("tspan", { class: "bonus", dx: 5 * u, text: `+${c.bonus}` }),
        ),
      );
    }

    this.legend = svg("g", { class: "board-legend", transform: `translate(${x + 6 * u} ${y + 6 * u})` });
    root.append(this.legend);

    clear(this.host).append(root);
    // The page may size the map to the board's shape (small screens).
    const area = this.host.closest(".map-area") || this.host;
    area.style.setProperty("--board-aspect", String((w / h).toFixed(3)));
    this._whole();
  }

  /** A territory's highlight (selected, a target, a source): its outline. A land in several parts
   * gets the full width around its large parts only and a thin line around its islands: the full
   * width, around the small and ragged islands of Northwest Territory, covered them whole (white
   * blobs where the islands were). */
  _outline(path) {
    const u = this.unit;
    const parts = path.split(/(?=M)/).filter((part) => part.trim());
    if (parts.length < 2) return svg("path", { d: path, class: "hl", "stroke-width": 3.2 * u });
    const shapes = parts.map(polygonShape);
    const largest = Math.max(...shapes.map((shape) => shape.area));
    // An island's line: thin, and at most a quarter of its narrower side.
    const width = ({ area, side }) => (area >= largest / 2 ? 3.2 * u : Math.min(1.1 * u, side / 4));
    return svg("g", { class: "hl" }, parts.map((part, i) => svg("path", { d: part, "stroke-width": width(shapes[i]) })));
  }

  /** A territory's name: where the server's placement pass put it (risk.maps.labels: clear of
   * every other name and every badge, maybe on two lines, smaller, or with a leader line to its
   * badge), else under its node. */
  _name(t, p, d) {
    const u = this.unit;
    const placed = this.drawing && this.drawing.names && d && d.path ? this.drawing.names[t.slug] : null;
    if (!placed || !Array.isArray(placed.lines)) {
      const shapelessNode = !(d && d.path);
      return svg("text", {
        x: p.x,
        y: shapelessNode ? p.y + this.nodeR + 12 * u : p.y + 21 * u,
        class: "t-name",
        dataset: { name: t.slug },
        "font-size": (shapelessNode ? 11 : 10) * u,
        "stroke-width": 2.6 * u,
        text: t.name,
      });
    }
    const label = svg("text", {
      x: placed.x, y: placed.y, class: "t-name", "font-size": placed.size, "stroke-width": 2.6 * u, dataset: { name: t.slug },
    });
    placed.lines.forEach((line, i) => {
      label.append(svg("tspan", { x: placed.x, dy: i ? placed.line_height : 0, text: line }));
    });
    if (!Array.isArray(placed.leader)) return label;
    const [x1, y1, x2, y2] = placed.leader;
    return svg("g", { class: "t-name-group" }, svg("line", { x1, y1, x2, y2, class: "t-leader", "stroke-width": 1.2 * u }), label);
  }

  // -- interaction: click, tap, hover, zoom and pan ----------------------------------------------
  //
  // The view is a centre (cx, cy, board units) and a scale k (screen px per board unit); the SVG's
  // viewBox is derived from them and the element's size, so resizing the element (a phone's bottom
  // sheet growing) never zooms the board, it only shows more or less of it around the same centre.
  _interact() {
    const root = this.svg;
    const pointers = new Map();
    let start = null;
    let pinch = null;
    let lastPointer = "mouse";

    const territoryAt = (target) => {
      const node = target && target.closest ? target.closest("[data-territory]") : null;
      return node ? node.dataset.territory : null;
    };

    root.addEventListener("click", (event) => {
      this.closeChoices();
      if (this.dragged) {
        this.dragged = false;
        return;
      }
      const touch = lastPointer === "touch" || lastPointer === "pen";
      const direct = territoryAt(event.target);
      if (!touch) {
        this.onTerritory(direct, event, { touch: false });
        return;
      }
      // A finger covers several small territories: take the nearest one the move allows.
      const near = this.nearestEligible(event.clientX, event.clientY, direct);
      if (near.choices) this._offerChoices(near.choices, event);
      else this.onTerritory(near.slug, event, { touch: true });
    });
    // The keyboard: the territories the current step allows are in the tab order (update() sets
    // tabindex), the arrows reach every one (keys.js); Enter or Space on one does what a click does
    // (input.js says why not where it would do nothing), and focus shows its card and a ring.
    root.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const slug = territoryAt(event.target);
      if (!slug) return;
      event.preventDefault();
      this.onTerritory(slug, event, { touch: false, keyboard: true });
    });
    // Only a keyboard's focus shows the card: a tap or a click focuses the territory too, and a card
    // opened by that would stay (a finger sends no pointerout).
    root.addEventListener("focusin", (event) => {
      const slug = territoryAt(event.target);
      if (slug && event.target.matches(":focus-visible")) {
        this.onHover(slug);
        this._focusRing(slug);
      }
    });
    root.addEventListener("focusout", (event) => {
      this._focusRing(null);
      if (territoryAt(event.target) && event.target.matches(":focus-visible")) this.onHover(null);
    });
    // Hover cards follow a mouse; a finger sends no pointerout, so touch never opens one here.
    root.addEventListener("pointerover", (event) => {
      if (event.pointerType === "touch") return;
      const slug = territoryAt(event.target);
      if (slug) this.onHover(slug);
    });
    root.addEventListener("pointerout", (event) => {
      if (event.pointerType === "touch") return;
      const slug = territoryAt(event.target);
      if (slug && !territoryAt(event.relatedTarget)) this.onHover(null);
    });

    root.addEventListener(
      "wheel",
      (event) => {
        if (!event.ctrlKey && !event.metaKey && this.zoomLevel() <= 1.001 && event.deltaY > 0) return;
        event.preventDefault();
        const factor = Math.exp(-event.deltaY * (event.deltaMode === 1 ? 0.05 : 0.0018));
        this.zoomAt(this._svgPoint(event), factor);
      },
      { passive: false },
    );

    root.addEventListener("pointerdown", (event) => {
      lastPointer = event.pointerType || "mouse";
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (pointers.size === 1) {
        start = { x: event.clientX, y: event.clientY, cx: this.cx, cy: this.cy, moved: false };
        this.dragged = false;
      } else if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const mid = { clientX: (a.x + b.x) / 2, clientY: (a.y + b.y) / 2 };
        pinch = { d: Math.hypot(a.x - b.x, a.y - b.y), k: this.k, cx: this.cx, cy: this.cy, mid: this._svgPoint(mid) };
        this.dragged = true;
      }
    });
    root.addEventListener("pointermove", (event) => {
      if (!pointers.has(event.pointerId)) return;
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (pointers.size === 2 && pinch) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        this.k = pinch.k;
        this.cx = pinch.cx;
        this.cy = pinch.cy;
        this.zoomAt(pinch.mid, d / Math.max(1, pinch.d));
        this.dragged = true;
        return;
      }
      if (!start || pinch) return;
      const dx = event.clientX - start.x;
      const dy = event.clientY - start.y;
      if (!start.moved && Math.hypot(dx, dy) < 8) return;
      if (this.zoomLevel() <= 1.001) return; // nothing to pan at full view
      if (!start.moved) {
        start.moved = true;
        this.closeChoices();
        try {
          root.setPointerCapture(event.pointerId);
        } catch {
          /* ignore */
        }
      }
      this.dragged = true;
      this.cx = start.cx - dx / this.k;
      this.cy = start.cy - dy / this.k;
      this.keep = null; // the player looks elsewhere now
      this._applyViewBox();
    });
    const up = (event) => {
      pointers.delete(event.pointerId);
      if (pointers.size < 2 && pinch) {
        pinch = null;
        start = null; // the finger left on the glass does not pan from where the pinch began
      }
      if (pointers.size === 0) start = null;
    };
    root.addEventListener("pointerup", up);
    root.addEventListener("pointercancel", up);
    this._resizeObserver = new ResizeObserver(() => {
      // A phone turned on its side (or back) gets the page's view for its new shape, unless the
      // player chose a zoom; a map area that only grew or shrank keeps its zoom.
      if (this._tall !== undefined && !this.zoomedByPlayer && window.innerHeight > window.innerWidth !== this._tall) {
        this.fitPage();
        return;
      }
      this._applyViewBox();
      if (this.keep) this.look(this.keep, { now: true });
    });
    this._resizeObserver.observe(this.host);
  }

  /**
   * The eligible territory a tap at (x, y) means: the one under the finger, else the nearest within
   * TAP_RADIUS px; {choices: [slug...]} when several are about as near. Eligible: what the current
   * step allows (set by update(): the sources and targets); with nothing eligible, what is under it.
   */
  nearestEligible(x, y, direct = null) {
    const eligible = this.eligible || new Set();
    if (direct && eligible.has(direct)) return { slug: direct };
    const found = [];
    for (const slug of eligible) {
      const d = this._screenDistance(slug, x, y, TAP_RADIUS);
      if (d !== null) found.push({ slug, d });
    }
    found.sort((a, b) => a.d - b.d);
    if (!found.length) return { slug: direct };
    const close = found.filter((f) => f.d - found[0].d < TAP_CLEAR);
    if (close.length === 1) return { slug: close[0].slug };
    return { choices: close.slice(0, 4).map((f) => f.slug) };
  }

  /** Screen px from (x, y) to the territory's shape (0 inside), or null when farther than `radius`. */
  _screenDistance(slug, x, y, radius) {
    const e = this.els.get(slug);
    if (!e || !e.shape.isPointInFill) return null;
    const ctm = e.shape.getScreenCTM();
    if (!ctm) return null;
    const inverse = ctm.inverse();
    const box = e.shape.getBBox();
    const at = new DOMPoint(x, y).matrixTransform(inverse);
    const reach = radius / this.k;
    if (at.x < box.x - reach || at.x > box.x + box.width + reach || at.y < box.y - reach || at.y > box.y + box.height + reach) return null;
    for (let r = 0; r <= radius; r += 3) {
      const steps = r === 0 ? 1 : 16;
      for (let i = 0; i < steps; i++) {
        const a = (2 * Math.PI * i) / steps;
        const p = new DOMPoint(x + r * Math.cos(a), y + r * Math.sin(a)).matrixTransform(inverse);
        if (e.shape.isPointInFill(p)) return r;
      }
    }
    return null;
  }

  /** A small list by the finger: the few territories a tap could have meant. */
  _offerChoices(slugs, event) {
    const box = document.createElement("div");
    box.className = "tap-choices";
    box.setAttribute("role", "menu");
    box.setAttribute("aria-label", "Which territory?");
    const hostRect = this.host.getBoundingClientRect();
    for (const slug of slugs) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "tap-choice";
      b.setAttribute("role", "menuitem");
      b.dataset.choice = slug;
      b.textContent = this.bySlug.get(slug).name;
      b.addEventListener("click", (e) => {
        e.stopPropagation();
        this.closeChoices();
        this.onTerritory(slug, e, { touch: true });
      });
      box.append(b);
    }
    this.host.append(box);
    // Beside the finger, inside the map.
    const w = box.offsetWidth;
    const h = box.offsetHeight;
    let left = event.clientX - hostRect.left + 16;
    if (left + w > hostRect.width - 6) left = event.clientX - hostRect.left - w - 16;
    const top = event.clientY - hostRect.top - h / 2;
    box.style.left = `${Math.max(6, left)}px`;
    box.style.top = `${Math.max(6, Math.min(hostRect.height - h - 6, top))}px`;
    this.choices = box;
  }

  /** The keyboard's focus on a territory (keys.js: the arrows), the map panned to show it. */
  focusTerritory(slug) {
    const e = this.els.get(slug);
    if (!e) return;
    e.shape.focus({ preventScroll: true });
    // Panned into view if it is not (at the zoom the player has): the nearest window that shows it.
    const rect = this.svg.getBoundingClientRect();
    const p = this.pos.get(slug);
    if (!rect.width || !rect.height || !p || !this.k) return;
    const to = lookAt([{ ...p, weight: MUST }], rect.width / this.k, rect.height / this.k, this.view, { x: this.cx, y: this.cy }, 40 / this.k);
    if (to) this._glide(to, false);
  }

  /** The ring round the territory with the keyboard's focus: its outline, dark under light, over the
   * highlights (a CSS outline on an SVG shape is its bounding box, across its neighbours). */
  _focusRing(slug) {
    if (this.ring) this.ring.remove();
    this.ring = null;
    const e = slug ? this.els.get(slug) : null;
    if (!e) return;
    this.ring = svg("g", { class: "focus-ring" });
    for (const part of ["focus-halo", "focus-line"]) {
      // The territory's outline, every part of it (the CSS sets its width in screen px).
      const shape = e.shape;
      const copy =
        shape.tagName === "circle"
          ? svg("circle", { cx: shape.getAttribute("cx"), cy: shape.getAttribute("cy"), r: shape.getAttribute("r"), class: part })
          : svg("path", { d: shape.getAttribute("d"), class: part });
      this.ring.append(copy);
    }
    this.layers.highlights.append(this.ring);
  }

  closeChoices() {
    if (this.choices) this.choices.remove();
    this.choices = null;
  }

  _svgPoint(event) {
    const rect = this.svg.getBoundingClientRect();
    return {
      x: this.cx + (event.clientX - rect.left - rect.width / 2) / this.k,
      y: this.cy + (event.clientY - rect.top - rect.height / 2) / this.k,
    };
  }

  _pxToUnits() {
    return 1 / this.k;
  }

  /** The scale at which the whole board fits the element. */
  _fitScale() {
    const rect = this.svg.getBoundingClientRect();
    if (!rect.width || !rect.height) return this.k || 1;
    return fitScale(rect.width, rect.height, this.view);
  }

  zoomLevel() {
    return this.k / this._fitScale();
  }

  /** The player's zoom (wheel, pinch, buttons): from now on the page leaves the zoom to them. */
  zoomAt(point, factor) {
    this.zoomedByPlayer = true;
    cancelAnimationFrame(this._gliding || 0);
    this._goal = null;
    this.svg.classList.remove("panning");
    const fit = this._fitScale();
    const k = Math.min(fit * MAX_ZOOM, Math.max(fit, this.k * factor));
    // The board point under the cursor (or between the fingers) stays where it is.
    this.cx = point.x - ((point.x - this.cx) * this.k) / k;
    this.cy = point.y - ((point.y - this.cy) * this.k) / k;
    this.k = k;
    this._applyViewBox();
  }

  zoomBy(factor) {
    this.zoomAt({ x: this.cx, y: this.cy }, factor);
  }

  /** The whole board, as the player asked (the ⤢ button). */
  fit() {
    this.zoomedByPlayer = true;
    this.keep = null;
    this._whole();
  }

  _whole() {
    this.k = this._fitScale();
    this.cx = this.view.x + this.view.w / 2;
    this.cy = this.view.y + this.view.h / 2;
    this._applyViewBox();
  }

  /**
   * The page's own view (viewframe.js pageScale): the whole board where its army counts can be read,
   * else as near as they need, filling a tall screen's height; then where the step looks (look).
   */
  fitPage() {
    const rect = this.svg.getBoundingClientRect();
    this._whole();
    if (!rect.width || !rect.height) return;
    this.k = pageScale(rect.width, rect.height, this.view, this.unit);
    this._tall = window.innerHeight > window.innerWidth; // the screen's (the map's own shape changes with the sheet)
    this._applyViewBox();
    if (this.keep) this.look(this.keep, { now: true });
  }

  /**
   * What the step needs on screen, [{slug, weight}] (drawboard.js): the map pans to it at the zoom it
   * has (viewframe.js lookAt), unless the player's view already holds about as much; again when the
   * map is resized. `now`: no glide.
   */
  look(wanted, { now = false } = {}) {
    this.keep = wanted && wanted.length ? wanted : null;
    if (!this.keep) return;
    const rect = this.svg.getBoundingClientRect();
    if (!rect.width || !rect.height || !this.k) return;
    const points = this.keep.map((w) => ({ ...this.pos.get(w.slug), weight: w.weight })).filter((p) => p.x !== undefined);
    const w = rect.width / this.k;
    const h = rect.height / this.k;
    const to = lookAt(points, w, h, this.view, { x: this.cx, y: this.cy }, 30 / this.k);
    if (to) this._glide(to, now);
  }

  /**
   * The player's own territories, asked for (the ◎ button): the map pans to where most of them are,
   * at the zoom it has, and their badges glow for a moment.
   */
  showMine(slugs) {
    const rect = this.svg.getBoundingClientRect();
    if (!rect.width || !rect.height) return;
    const points = slugs.map((slug) => ({ ...this.pos.get(slug), weight: 1 })).filter((p) => p.x !== undefined);
    const w = rect.width / this.k;
    const h = rect.height / this.k;
    this._glide(bestWindow(points, w, h, this.view, { x: this.cx, y: this.cy }, 30 / this.k), false);
    clearTimeout(this._glowing);
    for (const [slug, e] of this.els) e.badge.classList.toggle("glow", slugs.includes(slug));
    this._glowing = setTimeout(() => {
      for (const e of this.els.values()) e.badge.classList.remove("glow");
    }, 2400);
  }

  /** Whether the territory's army badge is on the map's screen (`px` inside its edges), once the
   * map has stopped where it is going. */
  onScreen(slug, px = 0) {
    const p = this.pos.get(slug);
    const rect = this.svg.getBoundingClientRect();
    if (!p || !rect.width || !rect.height || !this.k) return false;
    const at = clampCentre((this._goal || { x: this.cx }).x, (this._goal || { y: this.cy }).y, rect.width / this.k, rect.height / this.k, this.view);
    return Math.abs(p.x - at.x) < rect.width / 2 / this.k - px / this.k && Math.abs(p.y - at.y) < rect.height / 2 / this.k - px / this.k;
  }

  /** Pan to a centre: a short glide a player can follow (none when motion is reduced, or `now`). */
  _glide(to, now) {
    cancelAnimationFrame(this._gliding || 0);
    this._goal = null;
    const reduced = typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
    const from = { x: this.cx, y: this.cy };
    if (now || reduced || !this.vb) {
      this.cx = to.x;
      this.cy = to.y;
      this.svg.classList.remove("panning");
      this._applyViewBox();
      return;
    }
    const started = performance.now();
    this._goal = to;
    this.svg.classList.add("panning"); // tests and tools wait for the map to stand still
    const step = (time) => {
      const t = Math.min(1, (time - started) / GLIDE_MS);
      const ease = 1 - (1 - t) ** 3;
      this.cx = from.x + (to.x - from.x) * ease;
      this.cy = from.y + (to.y - from.y) * ease;
      this._applyViewBox();
      if (t < 1) this._gliding = requestAnimationFrame(step);
      else {
        this._goal = null;
        this.svg.classList.remove("panning");
      }
    };
    this._gliding = requestAnimationFrame(step);
  }

  _applyViewBox() {
    const v = this.view;
    const rect = this.svg.getBoundingClientRect();
    if (!rect.width || !rect.height) {
      this.svg.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
      return;
    }
    const fit = this._fitScale();
    if (!this.k) this.k = fit;
    this.k = Math.min(fit * MAX_ZOOM, Math.max(fit, this.k));
    const w = rect.width / this.k;
    const h = rect.height / this.k;
    // Keep the view over the board; a side larger than the board is centred on it.
    const centre = clampCentre(this.cx ?? v.x + v.w / 2, this.cy ?? v.y + v.h / 2, w, h, v);
    this.cx = centre.x;
    this.cy = centre.y;
    this.vb = { x: this.cx - w / 2, y: this.cy - h / 2, w, h };
    const vb = this.vb;
    this.svg.setAttribute("viewBox", `${vb.x.toFixed(2)} ${vb.y.toFixed(2)} ${vb.w.toFixed(2)} ${vb.h.toFixed(2)}`);
    this.svg.classList.toggle("zoomed", this.zoomLevel() > 1.001);
    this._growBadges();
    this._showNames();
  }

  /** Zoomed out, the army badges grow a little (viewframe.js badgeBoost) so their counts stay readable. */
  _growBadges() {
    const boost = Math.round(badgeBoost(this.k, this.unit) * 100) / 100;
    if (boost === this._boost) return;
    this._boost = boost;
    for (const [slug, e] of this.els) {
      const p = this.pos.get(slug);
      e.badge.setAttribute("transform", `translate(${p.x.toFixed(1)} ${p.y.toFixed(1)})${boost > 1 ? ` scale(${boost})` : ""}`);
    }
  }

  setNames(visible) {
    this.names = visible;
    this._showNames();
  }

  /**
   * Names as the zoom makes room: none while they would be too small to read, then those that fit
   * inside their territory, then all of them.
   */
  _showNames() {
    const layer = this.layers && this.layers.names;
    if (!layer) return;
    const size = this.k * this.unit; // screen px of one font unit
    const all = size >= NAMES_ALL;
    layer.classList.toggle("hidden", !this.names || size < NAMES_SOME);
    layer.classList.toggle("names-roomy", !all);
    if (all || !this.names || size < NAMES_SOME) return;
    if (!this._roomy) {
      this._roomy = new Set();
      for (const [slug, e] of this.els) {
        let box = null;
        try {
          box = e.shape.getBBox();
        } catch {
          /* not rendered */
        }
        // The name may be a group (the text and its leader line) and set on two lines.
        const text = e.label.matches("text") ? e.label : e.label.querySelector("text");
        const lines = [...text.querySelectorAll("tspan")].map((line) => line.textContent);
        const longest = Math.max(...(lines.length ? lines : [this.bySlug.get(slug).name]).map((line) => line.length));
        const fontUnits = Number(text.getAttribute("font-size")) || 10 * this.unit;
        if (box && box.width && longest * fontUnits * 0.56 <= box.width) this._roomy.add(slug);
      }
    }
    for (const [slug, e] of this.els) {
      const roomy = this._roomy.has(slug);
      e.label.classList.toggle("roomy", roomy);
      const text = e.label.matches("text") ? null : e.label.querySelector("text");
      if (text) text.classList.toggle("roomy", roomy);
    }
  }

  // -- state -------------------------------------------------------------------------------------
  /**
   * s: {territories: view.territories, colours: [{fill, pattern?, team?, mark?}], players: view.players,
   *     selected, sources: Set, targets: Set, mine: seat|null, capitals: Map slug->seat,
   *     arrow: {from, to, kind}|null, battle: {from, to}|null, focusSeat, fog: "player"|"spectator"|null,
   *     turn: view.turn}
   * Under fog of war a row out of sight is {name, hidden: true, seen?: {owner, armies, turn}}: it is
   * drawn under the fog, in its last-seen owner's colour faded and with its last-seen count marked
   * as old, or as plain fog when never seen; its shape has no data-owner (data-fog instead).
   */
  update(s) {
    const colours = s.colours || [];
    const interactive = s.sources && s.sources.size > 0;
    this.svg.classList.toggle("picking", interactive || (s.targets && s.targets.size > 0));
    // What a tap may mean now (nearestEligible): the territories the current step allows.
    this.eligible = new Set([...(s.sources || []), ...(s.targets || [])]);
    this.targets = new Set(s.targets || []);
    this.closeChoices();
    s.territories.forEach((row, i) => {
      const t = this.territories[i];
      if (!t) return;
      const e = this.els.get(t.slug);
      const hidden = !!row.hidden;
      const seen = hidden && row.seen ? row.seen : null;
      // Out of sight: only what this seat last saw (nothing if never).
      const owner = hidden ? (seen ? seen.owner : undefined) : row.owner;
      const armies = hidden ? (seen ? seen.armies : 0) : row.armies;
      let fill;
      if (hidden) fill = seen && owner >= 0 && colours[owner] ? fogged(colours[owner].fill) : seen ? fogged(UNOWNED.fill) : FOG_FILL;
      else if (owner === -2) fill = "url(#hatch)";
      else if (owner < 0 || owner === null || owner === undefined) fill = UNOWNED.fill;
      else fill = this._paint(colours[owner] || UNOWNED);
      e.shape.setAttribute("fill", fill);
      if (hidden) {
        delete e.shape.dataset.owner;
        e.shape.dataset.fog = seen ? "seen" : "unseen";
        if (seen) e.shape.dataset.seenOwner = String(owner);
        else delete e.shape.dataset.seenOwner;
      } else {
        e.shape.dataset.owner = String(owner); // seat; -1 unclaimed; -2 tied (Team RISK)
        delete e.shape.dataset.fog;
        delete e.shape.dataset.seenOwner;
      }
      e.shape.classList.toggle("fogged", hidden);
      e.veil.classList.toggle("on", hidden);
      e.badge.classList.toggle("old", hidden);
      e.disc.setAttribute("stroke", owner >= 0 && colours[owner] ? shade(colours[owner].fill, PALETTE.badge.rim_shade) : "#6b6252");
      const text = armies ? String(armies) : "";
      if (e.count.textContent !== text || e.owner !== owner) {
        // A short flash where something changed; the state is already drawn, nothing waits on it.
        if (e.count.textContent !== "" || e.owner !== undefined) {
          e.badge.classList.remove("changed");
          requestAnimationFrame(() => e.badge.classList.add("changed"));
        }
        e.count.textContent = text;
        e.owner = owner;
      }
      e.badge.classList.toggle("empty", !armies);
      const mine = !hidden && s.mine !== null && s.mine !== undefined && owner === s.mine;
      e.badge.classList.toggle("mine", mine);
      const units = Array.isArray(row.units) ? row.units.filter((n) => n > 0).length : 0;
      e.badge.classList.toggle("shared", units > 1);
      const sel = s.selected === t.slug;
      const target = !!(s.targets && s.targets.has(t.slug));
      const source = !!(s.sources && s.sources.has(t.slug));
      e.shape.classList.toggle("selected", sel);
      e.shape.classList.toggle("target", target);
      e.shape.classList.toggle("source", source && !sel);
      e.shape.classList.toggle("inert", !!(s.targets && s.targets.size) && !source && !target && !sel);
      e.shape.classList.toggle("mine", mine);
      // Reachable with Tab when the step allows it, and named as a screen reader should say it; the
      // others with the arrows (keys.js), to read their names and armies.
      if (sel || target || source) {
        e.shape.setAttribute("tabindex", "0");
        e.shape.setAttribute("role", "button");
      } else {
        e.shape.setAttribute("tabindex", "-1");
        e.shape.removeAttribute("role");
      }
      const whose = owner >= 0 && s.players && s.players[owner] ? (owner === s.mine ? "yours" : s.players[owner].name) : null;
      const count = armies ? `${armies} ${armies === 1 ? "army" : "armies"}` : null;
      const said = !hidden
        ? [t.name, whose, count]
        : seen
          ? [t.name, `out of sight, last seen ${turnsAgo(s.turn, seen.turn)}`, whose, count]
          : [t.name, "out of sight, never seen"];
      e.shape.setAttribute("aria-label", [...said, sel ? "selected" : null].filter(Boolean).join(", "));
      e.hl.setAttribute("class", `hl${sel ? " hl-selected" : target ? " hl-target" : source ? " hl-source" : ""}`);
      e.badge.classList.toggle("battle", !!(s.battle && (s.battle.from === t.slug || s.battle.to === t.slug)));
      const mark = owner >= 0 && colours[owner] ? colours[owner].mark : null;
      if (e.mark.dataset.mark !== (mark || "")) {
        e.mark.dataset.mark = mark || "";
        e.mark.setAttribute("d", mark ? markPath(mark, 9 * this.unit, 9 * this.unit, 4 * this.unit) : "");
      }
    });
    this._legend(s.players || [], colours, s.fog);
    // Headquarters.
    const marks = clear(this.layers.marks);
    if (s.capitals) {
      for (const [slug, seat] of s.capitals) {
        const p = this.pos.get(slug);
        if (!p) continue;
        const u = this.unit;
        const c = colours[seat] || UNOWNED;
        marks.append(
          svg(
            "g",
            { class: "hq", transform: `translate(${(p.x + 13 * u).toFixed(1)} ${(p.y - 12 * u).toFixed(1)}) scale(${u})` },
            svg("title", { text: "Headquarters" }),
            svg("circle", { r: 9.5, class: "hq-disc" }),
            svg("path", { d: "M0-7.2l2.1 4.5 4.9.6-3.6 3.4 1 4.8L0 3.6-4.4 6.1l1-4.8-3.6-3.4 4.9-.6z", fill: c.fill, class: "hq-star" }),
          ),
        );
      }
    }
    // Arrows: the attack being planned, or the last battle.
    const arrows = clear(this.layers.arrows);
    for (const a of [s.battle && { ...s.battle, kind: "battle" }, s.arrow].filter(Boolean)) {
      const p = this.pos.get(a.from);
      const q = this.pos.get(a.to);
      if (!p || !q) continue;
      const d = arrowPath(p, q, this.unit, this.view);
      if (a.kind !== "battle") arrows.append(svg("path", { d, class: "arrow arrow-under", "stroke-width": 6 * this.unit }));
      arrows.append(svg("path", { d, class: `arrow arrow-${a.kind}`, "stroke-width": 3 * this.unit, "marker-end": a.kind === "battle" ? null : "url(#arrow-head)" }));
    }
  }

  /** A seat's fill: its colour, or for a neutral its colour under its own pattern. */
  _paint(c) {
    if (!c.pattern) return c.fill;
    const id = `paint-${c.pattern}-${c.fill.slice(1)}`;
    if (!this.svg.getElementById(id)) {
      const u = this.unit;
      const size = (c.pattern === "dots" ? 5 : 6) * u;
      const light = { fill: "rgba(255, 255, 255, 0.55)" };
      const turn = { stripes: "rotate(-45)", cross: "rotate(45)" }[c.pattern];
      const marks = {
        stripes: [svg("rect", { width: 2 * u, height: size, ...light })],
        dots: [svg("circle", { cx: size / 2, cy: size / 2, r: 1.2 * u, ...light })],
        cross: [svg("rect", { width: 1.5 * u, height: size, ...light }), svg("rect", { width: size, height: 1.5 * u, ...light })],
        bars: [svg("rect", { width: size, height: 2 * u, ...light })],
      }[c.pattern] || [];
      this.svg.querySelector("defs").append(
        svg("pattern", { id, width: size, height: size, patternUnits: "userSpaceOnUse", patternTransform: turn },
          svg("rect", { width: size, height: size, fill: c.fill }), ...marks),
      );
    }
    return `url(#${id})`;
  }

  /** The legend of what colours cannot say alone: the teams' marks, the neutrals' patterns. */
  _legend(players, colours, fog) {
    const rows = [];
    // Fog of war: what the dimmed lands are.
    if (fog) rows.push({ fog: true, text: fog === "spectator" ? "Fog: hidden from spectators until the end" : "Fog: out of sight, as you last saw it" });
    const teams = new Map();
    players.forEach((p, seat) => {
      const c = colours[seat];
      if (c && c.team) teams.set(c.team, [...(teams.get(c.team) || []), { name: p.name, c }]);
    });
    for (const [team, members] of teams) rows.push({ mark: members[0].c.mark, text: `${team}: ${members.map((m) => m.name).join(", ")}` });
    players.forEach((p, seat) => {
      const c = colours[seat];
      if (c && c.pattern) rows.push({ paint: c, text: p.name });
    });
    const key = JSON.stringify(rows.map((r) => [r.mark, r.paint && r.paint.pattern, r.fog, r.text]));
    if (this.legend.dataset.key === key) return;
    this.legend.dataset.key = key;
    clear(this.legend);
    if (!rows.length) return;
    const u = this.unit;
    const line = 16 * u;
    const texts = rows.map((r, i) => {
      const y = 5 * u + i * line;
      const swatch = (fill) => svg("rect", { x: 5 * u, y: y + 2 * u, width: 12 * u, height: line - 4 * u, rx: 2 * u, fill, stroke: "rgba(255,255,255,0.6)", "stroke-width": 0.8 * u });
      const icon = r.mark
        ? svg("path", { d: markPath(r.mark, 11 * u, y + line / 2, 4.2 * u), class: "seat-mark legend-mark", "stroke-width": 1 * u })
        : r.fog
          ? svg("g", {}, swatch(FOG_FILL), svg("rect", { x: 5 * u, y: y + 2 * u, width: 12 * u, height: line - 4 * u, rx: 2 * u, fill: "url(#fog-texture)" }))
          : swatch(this._paint(r.paint));
      const text = svg("text", { x: 22 * u, y: y + line / 2, dy: "0.35em", "font-size": 12 * u, class: "legend-text", text: r.text });
      return [icon, text];
    });
    const back = svg("rect", { class: "legend-back", rx: 4 * u, width: 1, height: rows.length * line + 10 * u });
    this.legend.append(back, ...texts.flat());
    const width = Math.max(...texts.map(([, text]) => text.getComputedTextLength()));
    back.setAttribute("width", String(width + 28 * u));
  }

  positionOf(slug) {
    return this.pos.get(slug);
  }
}

function arrowPath(p, q, u, view) {
  let qx = q.x;
  // Links across the map's edge (Alaska-Kamchatka): draw toward the near edge instead.
  if (Math.abs(q.x - p.x) > view.w * 0.5) qx = q.x > p.x ? view.x - 10 : view.x + view.w + 10;
  const dx = qx - p.x;
  const dy = q.y - p.y;
  const d = Math.hypot(dx, dy) || 1;
  const trim = 12 * u;
  const sx = p.x + (dx / d) * trim;
  const sy = p.y + (dy / d) * trim;
  const ex = qx - (dx / d) * trim;
  const ey = q.y - (dy / d) * trim;
  const mx = (sx + ex) / 2 - (dy / d) * d * 0.18;
  const my = (sy + ey) / 2 + (dx / d) * d * 0.18;
  return `M${sx.toFixed(1)} ${sy.toFixed(1)}Q${mx.toFixed(1)} ${my.toFixed(1)} ${ex.toFixed(1)} ${ey.toFixed(1)}`;
}

/** One closed part of a drawing's path ("M x y L x y x y ... Z": absolute points): its area and the
 * narrower side of its box. */
function polygonShape(part) {
  const n = (part.match(/-?\d+(?:\.\d+)?/g) || []).map(Number);
  const xs = n.filter((_, i) => i % 2 === 0);
  const ys = n.filter((_, i) => i % 2 === 1);
  let twice = 0;
  for (let i = 0; i < ys.length; i++) {
    const j = (i + 1) % ys.length;
    twice += xs[i] * ys[j] - xs[j] * ys[i];
  }
  const side = Math.min(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
  return { area: Math.abs(twice) / 2, side };
}

function convexHull(points) {
  const pts = points.map((p) => ({ x: p.x, y: p.y })).sort((a, b) => a.x - b.x || a.y - b.y);
  if (pts.length < 3) return pts;
  const cross = (o, a, b) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper = [];
  for (const p of pts.slice().reverse()) {
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** When a land out of sight was last seen, from the turn now: "this turn", "3 turns ago". */
export function turnsAgo(now, then) {
  const ago = Math.max(0, (now || 0) - then);
  return ago === 0 ? "this turn" : ago === 1 ? "1 turn ago" : `${ago} turns ago`;
}

// A land out of sight: never seen is plain fog; seen, its last owner's colour faded toward the fog.
const FOG_FILL = "#59616b";

function fogged(hex) {
  const mix = (a, b, k) => Math.round(a + (b - a) * k);
  const rgb = (h) => { const n = parseInt(h.slice(1), 16); return [(n >> 16) & 255, (n >> 8) & 255, n & 255]; };
  const [a, b] = [rgb(hex), rgb(FOG_FILL)];
  return `#${a.map((v, i) => mix(v, b[i], 0.5).toString(16).padStart(2, "0")).join("")}`;
}

/** Darken (negative) or lighten (positive) a #rrggbb colour. */
export function shade(hex, amount) {
  const n = parseInt(hex.slice(1), 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) =>
    Math.round(amount < 0 ? v * (1 + amount) : v + (255 - v) * amount),
  );
  return `#${c.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}
