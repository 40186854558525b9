// Small helpers shared by the pages: DOM building (never innerHTML with anyone's text), colours,
// toasts, words.

import { api } from "./api.js";
import { PALETTE } from "./palette.js";
import { optionInWords, presetOf } from "./rulewords.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/** el("div", {class: "x", dataset: {a: 1}, onclick: fn}, child, "text", ...) */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

export function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  if (!attrs) return;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key === "dataset") for (const [k, v] of Object.entries(value)) node.dataset[k] = v;
    else if (key === "text") node.textContent = value;
    else if (key === "style") for (const [k, v] of Object.entries(value)) node.style.setProperty(k, v);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

export function slugify(name) {
  return String(name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

// -- colours ----------------------------------------------------------------------------------------
// One colour per seat, in seat order, from palette.js (the one place they are set). A game whose goals
// name seats by colour (the view's goal.names_colours: Secret Mission RISK's "destroy" missions, seat
// 1 red, 2 blue, 3 green, 4 yellow, 5 black, 6 gray) uses exactly those. Each colour has `fill`,
// `swatch` (a CSS background: a neutral's pattern too) and a player's `mark` (marks.js: seat 1's,
// 2's... or a teammate's); a teammate's also `team`, a neutral's `pattern`.
const byName = new Map(PALETTE.seats.map((c) => [c.name, c]));
const colour = (c) => ({ ...(typeof c === "string" ? byName.get(c) : c) });
const BASE = PALETTE.seats.map(colour);
const NAMED = PALETTE.named.map(colour);
const TEAM = PALETTE.teams.map((team) => team.seats.map((c, k) => ({ ...colour(c), team: team.name, mark: team.marks[k] })));
// CSS for the neutrals' patterns (the board draws the same as SVG patterns): light lines or dots.
const LIGHT = "rgba(255, 255, 255, 0.55)";
const PATTERN_CSS = {
  stripes: `repeating-linear-gradient(135deg, ${LIGHT} 0 2px, transparent 2px 6px)`,
  dots: `radial-gradient(${LIGHT} 1.3px, transparent 1.8px) 0 0 / 5px 5px`,
  cross: `repeating-linear-gradient(45deg, ${LIGHT} 0 1.5px, transparent 1.5px 6px), repeating-linear-gradient(135deg, ${LIGHT} 0 1.5px, transparent 1.5px 6px)`,
  bars: `repeating-linear-gradient(0deg, ${LIGHT} 0 2px, transparent 2px 6px)`,
};
const NEUTRALS = PALETTE.neutrals.map(colour);
export const NEUTRAL = NEUTRALS[0];
export const UNOWNED = colour(PALETTE.unclaimed);
export const TIED = colour(PALETTE.tied);
for (const c of [...BASE, ...NAMED, ...TEAM.flat(), ...NEUTRALS, UNOWNED, TIED]) {
  c.swatch = c.pattern ? `${PATTERN_CSS[c.pattern]}, ${c.fill}` : c.fill;
}

/** Seat colours for a view, or anything with its `players` (each with `neutral`, and `team` in a game
 * of teams) and `goal` (how the game is won: the view's, or the lobby's list of games). */
export function seatColours(view) {
  const players = view.players || [];
  const named = Boolean(view.goal && view.goal.names_colours);
  let neutrals = 0;
  return players.map((p, i) => {
    if (p.neutral) return NEUTRALS[neutrals++ % NEUTRALS.length];
    if (p.team !== null && p.team !== undefined) return TEAM[p.team % 2][Math.floor(i / 2) % 3];
    const mark = PALETTE.marks[i % PALETTE.marks.length];
    return { ...(named && NAMED[i] ? NAMED[i] : BASE[i % BASE.length]), mark };
  });
}

// -- toasts -----------------------------------------------------------------------------------------
export function toast(message, kind = "info", ms = 5000) {
  let box = document.getElementById("toasts");
  if (!box) {
    box = el("div", { id: "toasts", class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  const item = el("div", { class: `toast toast-${kind}` }, el("span", { text: message }));
  const close = el("button", { class: "toast-close", type: "button", "aria-label": "Dismiss", text: "×" });
  close.addEventListener("click", () => item.remove());
  item.append(close);
  box.append(item);
  while (box.children.length > 4) box.firstChild.remove();
  if (ms > 0) setTimeout(() => item.remove(), ms);
  return item;
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API (plain http on another host): select a temporary field instead.
    const area = el("textarea", { class: "offscreen", readonly: true });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

/** A seat's record of the game, saved as a file (risk-ID.risk); a toast says why not. */
export async function downloadRecord(gameId, token) {
  try {
    const text = await api.record(gameId, token);
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = el("a", { href: url, download: `risk-${gameId}.risk` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 5000);
  } catch (error) {
    toast(`The record could not be downloaded: ${error.message}`, "error");
  }
}

// -- words ------------------------------------------------------------------------------------------
export function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many || `${one}s`}`;
}

export const armies = (n) => plural(n, "army", "armies");
export const dice = (n) => plural(n, "die", "dice");

export function titleCase(text) {
  return String(text).replace(/\b\w/g, (c) => c.toUpperCase());
}

export function ago(seconds) {
  const s = Math.max(0, Date.now() / 1000 - seconds);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

export const GAME_NAMES = {
  world: "World Domination",
  "secret-mission": "Secret Mission",
  capital: "Capital RISK",
  "two-player": "2-Player RISK",
  mission: "Mission RISK",
  team: "Team RISK",
};

/** "2008 game=capital fortify=adjacent" -> {edition, game, options} */
export function parseRules(text) {
  const parts = String(text || "").split(/\s+/).filter(Boolean);
  const out = { edition: parts[0] || "", game: "world", options: {} };
  for (const part of parts.slice(1)) {
    const [k, v] = part.split("=");
    if (k === "game") out.game = v;
    else out.options[k] = v;
  }
  return out;
}

export function describeRules(text) {
  const r = parseRules(text);
  const { fog, ...options } = r.options;
  const fogged = fog === "on" ? ["Fog of war"] : [];
  const preset = presetOf(r.edition, r.game, options);
  if (preset && Object.keys(options).length) return [`${preset.name} · ${r.edition}`, ...fogged].join(" · ");
  const extra = Object.entries(options).map(([k, v]) => optionInWords(k, v));
  return [`${GAME_NAMES[r.game] || r.game} · ${r.edition}`, ...extra, ...fogged].join(" · ");
}

/** A die face as SVG (value 1-6), in the attacker's red or the defender's ivory. */
export function dieFace(value, side, size = 30) {
  const pips = {
    1: [[2, 2]],
    2: [[1, 1], [3, 3]],
    3: [[1, 1], [2, 2], [3, 3]],
    4: [[1, 1], [3, 1], [1, 3], [3, 3]],
    5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
    6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
  }[value] || [];
  const g = svg(
    "svg",
    { class: `die die-${side}`, viewBox: "0 0 40 40", width: size, height: size, role: "img", "aria-label": `${value}` },
    svg("rect", { x: 1.5, y: 1.5, width: 37, height: 37, rx: 8, class: "die-body" }),
    pips.map(([x, y]) => svg("circle", { cx: x * 10, cy: y * 10, r: 3.8, class: "die-pip" })),
  );
  return g;
}

/** The symbol of a card as a small SVG glyph. */
export function cardGlyph(symbol) {
  const s = svg("svg", { class: `glyph glyph-${symbol}`, viewBox: "0 0 32 32", "aria-hidden": "true" });
  if (symbol === "infantry") {
    s.append(
      svg("circle", { cx: 16, cy: 7, r: 4.5 }),
      svg("path", { d: "M9 14h14l-2 9h-3l-1 7h-2l-1-7h-3z" }),
    );
  } else if (symbol === "cavalry") {
    s.append(
      svg("path", {
        d: "M6 26l3-9c1-3 4-5 7-5h4l2-4 2 1-1 4 4 3-1 2-4-1-2 3 1 6h-2.5l-1.5-5h-5l-2 5H11l1-5-3 5z",
      }),
    );
  } else if (symbol === "artillery") {
    s.append(
      svg("rect", { x: 4, y: 12, width: 20, height: 5, rx: 2, transform: "rotate(-18 14 14)" }),
      svg("circle", { cx: 12, cy: 22, r: 5.5 }),
      svg("rect", { x: 14, y: 20, width: 14, height: 3, rx: 1.5 }),
    );
  } else {
    s.append(
      svg("path", { d: "M16 3l3.6 8.2 8.9.8-6.7 5.9 2 8.7L16 22l-7.8 4.6 2-8.7-6.7-5.9 8.9-.8z" }),
    );
  }
  return s;
}

// -- bots and levels (GET /api/meta: "levels", easiest first, then "bots", weakest first) -------------
/** Fill a <select> with the levels ("Hard (warlord)") and then every bot by name. */
export function fillBotMenu(select, meta) {
  clear(select);
  const levels = meta.levels || [];
  if (levels.length) {
    const group = el("optgroup", { label: "Levels" });
    for (const level of levels) {
      // "Hard (warlord)"; a level that is its own bot ("expert") needs no bracket.
      const text = level.bot === level.name ? titleCase(level.name) : `${titleCase(level.name)} (${level.bot})`;
      group.append(el("option", { value: level.name, text, title: level.description }));
    }
    select.append(group);
  }
  const bots = el("optgroup", { label: levels.length ? "Bots by name" : "Bots" });
  for (const bot of meta.bots || []) bots.append(el("option", { value: bot.name, text: titleCase(bot.name), title: bot.description }));
  select.append(bots);
}

/** What a level or bot plays like, in one line: a level's description names its bot. */
export function botDescription(meta, name) {
  const level = (meta.levels || []).find((l) => l.name === name);
  if (level) return `${titleCase(level.name)}: ${level.description} (the ${level.bot} bot).`;
  const bot = (meta.bots || []).find((b) => b.name === name);
  return bot ? `${titleCase(bot.name)}: ${bot.description}.` : "";
}
