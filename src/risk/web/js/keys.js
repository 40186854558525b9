// The board page's keys (docs/web.md, "Keys"): the arrows move the focus between territories on the
// map, n and y to the next territory the move allows and the next of yours, letters and digits press
// the action panel's buttons, ? lists them all. What each key means is keynav.js's; this is the page.

import { $, el } from "./ui.js";
import { ARROWS, BUTTON_KEYS, KEY_HELP, buttonsFor, nextInDirection, nextOf } from "./keynav.js";
import { store } from "./page.js";

let geometry = null; // where the board's territories are and what links them, made once a board

function geometryOf(board) {
  if (!geometry || geometry.board !== board) {
    const neighbours = new Map(board.territories.map((t) => [t.slug, t.neighbors]));
    geometry = { board, places: board.pos, neighbours, width: board.view.w };
  }
  return geometry;
}

/** A field being typed in (the chat, the notation box, "Stop at"): its letters are not keys. */
function typing(target) {
  if (!target || !target.closest) return false;
  if (target.closest("textarea, select, [contenteditable='true'], [contenteditable='']")) return true;
  const input = target.closest("input");
  return !!input && !["range", "checkbox", "radio", "button", "submit", "reset"].includes(input.type);
}

/** The territory with the keyboard's focus, or null. */
function focusedTerritory() {
  const e = document.activeElement;
  return e && e.closest && e.closest(".board-svg") && e.dataset ? e.dataset.territory || null : null;
}

/** The territories in the board's order that `keep` keeps. */
function inBoardOrder(board, keep) {
  return board.territories.map((t) => t.slug).filter(keep);
}

function yours(s) {
  const rows = s.view.territories;
  return inBoardOrder(s.board, (slug) => {
    const row = rows[s.index.get(slug)];
    return !!row && !row.hidden && s.seat !== null && row.owner === s.seat;
  });
}

/** The territories the move allows, the targets first once a territory is chosen to act from. */
function allowed(board) {
  const eligible = board.eligible || new Set();
  const targets = board.targets || new Set();
  return [...inBoardOrder(board, (slug) => targets.has(slug)), ...inBoardOrder(board, (slug) => eligible.has(slug) && !targets.has(slug))];
}

/** Where the arrows start from when no territory has the focus: the chosen one, else the first the
 * move allows, else the first of yours, else the board's first. */
function startingPoint(s) {
  const board = s.board;
  if (s.selection && s.selection.from) return s.selection.from;
  return allowed(board)[0] || yours(s)[0] || board.territories[0].slug;
}

/** The page's keys, from input.js's keydown on the document: true when the key was taken. */
export function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return false;
  if (helpShown()) {
    if (event.key !== "Escape" && event.key !== "?") return false;
    event.preventDefault();
    showHelp(false);
    return true;
  }
  if (typing(event.target) || event.key === "Escape") return false; // Escape: input.js's
  if (event.key === "?") {
    event.preventDefault();
    showHelp(true);
    return true;
  }
  const s = store.state;
  if (!s.board || !s.msg) return false;
  const focused = focusedTerritory();
  if (ARROWS[event.key]) {
    // On the map, or on the page with nothing focused: a button or a list keeps its own arrows.
    const onPage = event.target === document.body || event.target === document.documentElement;
    if (!focused && !onPage && !(event.target.closest && event.target.closest(".map-area"))) return false;
    event.preventDefault();
    const to = focused ? nextInDirection(focused, event.key, geometryOf(s.board)) : startingPoint(s);
    if (to) s.board.focusTerritory(to);
    return true;
  }
  const letter = event.key.toLowerCase();
  if (letter === "n" || letter === "y") {
    const to = nextOf(letter === "n" ? allowed(s.board) : yours(s), focused, event.shiftKey ? -1 : 1);
    if (!to) return false;
    event.preventDefault();
    s.board.focusTerritory(to);
    return true;
  }
  // A key held down presses its button once: "e" held would end the attack, then the turn.
  if (event.repeat) return false;
  const controls = $("#controls");
  for (const id of buttonsFor(event.key)) {
    const button = document.getElementById(id);
    if (button && controls.contains(button) && !button.disabled) {
      event.preventDefault();
      button.click();
      return true;
    }
  }
  return false;
}

/** Each of the action panel's buttons that has a key says it: in its title and aria-keyshortcuts. */
export function markKeys(box) {
  for (const [key, id] of [...BUTTON_KEYS, ["Escape", "cancel-selection"]]) {
    const button = box.querySelector(`#${id}`);
    if (!button || button.dataset.key) continue;
    button.dataset.key = key;
    // "+" joins keys in aria-keyshortcuts ("Control+Z"): that one is said in the title alone.
    if (key !== "+") button.setAttribute("aria-keyshortcuts", key);
    const said = key === "Escape" ? "Esc" : key === "-" ? "−" : key.toUpperCase();
    const title = (button.getAttribute("title") || button.getAttribute("aria-label") || button.textContent).replace(/ \(Esc\)$/, "");
    button.setAttribute("title", title.trim() === key ? `Key ${said}` : `${title} (${said})`);
  }
}

// -- the keys' list (?) ----------------------------------------------------------------------------
let returnFocus = null; // what had the focus before the list opened

function helpShown() {
  const box = document.getElementById("keys-help");
  return !!box && !box.hidden;
}

/** The list of keys, over the page, or hidden (the focus back where it was). */
export function showHelp(show) {
  let box = document.getElementById("keys-help");
  if (!box) {
    if (!show) return;
    box = helpBox();
    document.body.append(box);
  }
  if (show) {
    returnFocus = document.activeElement;
    box.hidden = false;
    $("#keys-close").focus();
    return;
  }
  box.hidden = true;
  if (returnFocus && returnFocus.isConnected && returnFocus.focus) returnFocus.focus({ preventScroll: true });
  returnFocus = null;
}

function helpBox() {
  const close = el("button", { type: "button", class: "btn", id: "keys-close" }, "Close");
  close.addEventListener("click", () => showHelp(false));
  // The list has one control: Tab stays on it while the list is open (a modal dialog).
  close.addEventListener("keydown", (event) => {
    if (event.key === "Tab") event.preventDefault();
  });
  const list = el("dl", { class: "keys-list" });
  for (const [keys, what] of KEY_HELP) list.append(el("dt", {}, el("kbd", { text: keys })), el("dd", { text: what }));
  const card = el(
    "div",
    { class: "overlay-card keys-card", role: "dialog", "aria-modal": "true", "aria-labelledby": "keys-title" },
    el("h2", { id: "keys-title", text: "Keys" }),
    list,
    el("div", { class: "row center" }, close),
  );
  const box = el("div", { id: "keys-help", class: "overlay keys-overlay", hidden: true }, card);
  box.addEventListener("click", (event) => {
    if (event.target === box) showHelp(false); // a click beside the list
  });
  return box;
}

/** The map's "?" button (game.html), wired once. */
export function wireKeys() {
  const button = document.getElementById("keys-button");
  if (button) button.addEventListener("click", () => showHelp(true));
}
