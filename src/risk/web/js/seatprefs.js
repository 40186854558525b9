// A seat's own settings (docs/web.md, "A seat's settings"): how its defence dice are chosen and how
// fast the bots play while it watches, kept by the server with the seat (so a closed tab defends
// too), and the setup orders: "place the rest for me" and "place N" on a territory.
//
// The browser remembers the player's last choice (localStorage) and gives it to each new game the
// player opens, once; after that the game's own setting is the one shown.

import { api } from "./api.js";
import { durationWords, momentWords } from "./clock.js";
import { $, clear, el, svg, toast } from "./ui.js";

const PREFS_KEY = "risk.seat-prefs.v1";
const GAMES_KEY = "risk.seat-prefs.games.v1"; // games this browser gave its choice to

export const DEFENCES = [
  ["most", "Always the most dice"],
  ["matters", "Ask me when it matters"],
  ["ask", "Ask me once per attack"],
  ["every", "Ask me every roll"],
];
export const PACES = [
  ["watch", "Watch"],
  ["fast", "Fast"],
  ["skip", "Skip to my turn"],
];
// The top bar's buttons for the pace: [value, icon (play triangles, and a bar for "to my turn"), what it does].
const PACE_BUTTONS = [
  ["watch", "M5 3l8 5-8 5z", "Watch the bots play, a move at a time"],
  ["fast", "M1 3l7 5-7 5zM8 3l7 5-7 5z", "Bots play fast: each attack a glimpse"],
  ["skip", "M0 3l6 5-6 5zM6 3l6 5-6 5zM13 3h2.5v10H13z", "Skip to my turn: the bots play at once"],
];

function read(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key) || "null");
    return value === null ? fallback : value;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* private mode or full: the game's own setting stays as it is */
  }
}

/** The player's remembered choice: {defence, pace} (either may be missing). */
export function remembered() {
  const prefs = read(PREFS_KEY, {});
  return prefs && typeof prefs === "object" ? prefs : {};
}

function remember(change) {
  write(PREFS_KEY, { ...remembered(), ...change });
}

let inFlight = Promise.resolve();

// One change at a time, in the order made: two quick choices both reach the server.
function change(ctx, body, quiet = false) {
  inFlight = inFlight.then(async () => {
    try {
      const answer = await api.prefs(ctx.gameId, ctx.token, body);
      if (!quiet) toast(confirmation(body, answer.prefs), "ok");
    } catch (error) {
      toast(error.message, "error");
    }
  });
  return inFlight;
}

function confirmation(body, prefs) {
  if (body.defence) return `Defence: ${label(DEFENCES, prefs.defence).toLowerCase()}.`;
  if (body.pace) return `Bots: ${label(PACES, prefs.pace).toLowerCase()}.`;
  if (body.auto_setup) return "The rest of your setup is placed for you.";
  if (body.place) return `Queued: ${body.place.count} on ${body.place.territory.replace(/-/g, " ")}.`;
  return "Done.";
}

function label(list, value) {
  const found = list.find(([v]) => v === value);
  return found ? found[1] : value;
}

/** A new game this browser had not opened yet: it gets the remembered choice (once). */
export function applyRemembered(ctx) {
  const prefs = ctx.msg.prefs;
  // A finished game's settings can no longer change: nothing is sent (the server would refuse it).
  if (!prefs || !ctx.token || ctx.msg.outcome) return;
  const games = read(GAMES_KEY, []);
  if (Array.isArray(games) && games.includes(ctx.gameId)) return;
  write(GAMES_KEY, [...(Array.isArray(games) ? games : []), ctx.gameId].slice(-200));
  const mine = remembered();
  const body = {};
  // A new player (no choice remembered) gets the most dice: never a prompt they did not ask for.
  const defence = mine.defence || "most";
  if (defence !== prefs.defence) body.defence = defence;
  if (mine.pace && mine.pace !== prefs.pace) body.pace = mine.pace;
  if (Object.keys(body).length) change(ctx, body, true);
}

function select(id, title, list, value, onChange) {
  const box = el("select", { id, class: "pref-select", "aria-label": title, title });
  if (!list.some(([v]) => v === value)) box.append(el("option", { value: "", text: "Ask me every roll", disabled: true }));
  for (const [v, text] of list) box.append(el("option", { value: v, text }));
  box.value = value || "";
  box.addEventListener("change", () => onChange(box.value));
  return box;
}

/** The bots' pace, one tap away in the top bar (a seat's page, while the game goes on). */
export function renderPaceBar(ctx) {
  const host = $("#pace-bar");
  if (!host) return;
  const prefs = ctx.msg.prefs;
  host.hidden = !prefs || !!ctx.msg.outcome;
  if (host.hidden) return;
  // Drawn already for this seat and pace: a redraw would take the focus from a button.
  const drawn = `${ctx.token}|${prefs.pace}`;
  if (host.dataset.drawn === drawn) return;
  host.dataset.drawn = drawn;
  clear(host);
  for (const [value, icon, title] of PACE_BUTTONS) {
    const on = value === prefs.pace;
    const symbol = svg("svg", { viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true" }, svg("path", { d: icon, fill: "currentColor" }));
    const button = el("button", { type: "button", class: `pace-btn${on ? " on" : ""}`, id: `pace-${value}`, title, "aria-label": title, "aria-pressed": String(on) }, symbol);
    button.addEventListener("click", () => {
      if (value === prefs.pace) return;
      remember({ pace: value });
      change(ctx, { pace: value });
    });
    host.append(button);
  }
}

/** The settings row under the controls: ctx = {msg, gameId, token}. */
export function renderPrefs(ctx) {
  const host = $("#seat-prefs");
  if (!host) return;
  const prefs = ctx.msg.prefs;
  const over = !!ctx.msg.outcome;
  host.hidden = !prefs || over;
  if (host.hidden) return;
  const active = document.activeElement;
  if (active && host.contains(active) && (active.tagName === "SELECT" || active.tagName === "INPUT")) return; // not while one is open
  clear(host);
  host.append(
    el(
      "label",
      { class: "pref" },
      el("span", { class: "pref-label", text: "Defence" }),
      select("defence-select", "How your defence dice are chosen", DEFENCES, prefs.defence, (value) => {
        remember({ defence: value });
        change(ctx, { defence: value });
      }),
    ),
    el(
      "label",
      { class: "pref" },
      el("span", { class: "pref-label", text: "Bots" }),
      select("pace-select", "How fast the bots play while you watch", PACES, prefs.pace, (value) => {
        remember({ pace: value });
        change(ctx, { pace: value });
      }),
    ),
  );
  const away = vacationControl(ctx);
  if (away) host.append(away);
}

/** The player's vacation (the host allowed some in this game): "Vacation [2] days [Go]", or while
 * away "On vacation until Tue 14:00 [Come back]". Null when the game has none or none is left. */
export function vacationControl(ctx) {
  const { msg } = ctx;
  const allowed = msg.timer ? msg.timer.vacation_days : 0;
  const own = msg.seat_clocks && msg.seat !== null ? msg.seat_clocks[msg.seat] : null;
  if (!allowed || !own || !ctx.token) return null;
  const box = el("div", { class: "pref vacation", id: "vacation" });
  if (own.away_until) {
    const back = el("button", { type: "button", class: "btn btn-small", id: "vacation-back", title: "The days you do not use are given back" }, "Come back");
    back.addEventListener("click", () => takeVacation(ctx, { back: true }));
    box.append(el("span", { class: "pref-label", id: "vacation-words", text: `On vacation until ${momentWords(own.away_until)}` }), back);
    return box;
  }
  const daysLeft = own.vacation_left / 86400;
  if (daysLeft < 0.01) return null;
  const input = el("input", {
    type: "number", id: "vacation-days-input", class: "pref-number", min: "0.5", step: "0.5",
    max: String(Math.floor(daysLeft * 100) / 100), value: String(Math.min(1, Math.floor(daysLeft * 100) / 100)),
    inputmode: "decimal", "aria-label": "Days of vacation to take",
  });
  const go = el("button", { type: "button", class: "btn btn-small", id: "vacation-go", title: `Pauses your clock: ${durationWords(own.vacation_left)} of vacation left in this game` }, "Go");
  go.addEventListener("click", () => {
    const days = Number(input.value);
    if (!(days > 0)) return toast("Give the days of vacation to take: a number above 0.", "error");
    takeVacation(ctx, { days });
  });
  box.append(el("span", { class: "pref-label", text: "Vacation" }), input, el("span", { class: "pref-label", text: "days" }), go);
  return box;
}

// Done, the server's note in the log says so (and is shown to everyone): only a refusal is toasted.
function takeVacation(ctx, body) {
  inFlight = inFlight.then(async () => {
    try {
      await api.vacation(ctx.gameId, ctx.token, body);
    } catch (error) {
      toast(error.message, "error");
    }
  });
  return inFlight;
}

/** The setup's quick controls (claim or place phases of a claim setup), or null. ``count``: the
 * armies a click on one of your territories queues there (placeCount below); ``onCount`` is told
 * when the player changes it. */
export function setupControls(ctx, count, onCount, names) {
  const { msg } = ctx;
  const prefs = msg.prefs;
  const phase = msg.view.phase;
  if (!prefs || msg.outcome || (phase !== "claim" && phase !== "setup-place")) return null;
  // A stand-in bot plays the seat, or its player resigned: nothing of the setup is theirs to order.
  const mine = msg.seats && msg.seat !== null ? msg.seats[msg.seat] : null;
  if (mine && (mine.stand_in || mine.resigned)) return null;
  const box = el("div", { class: "setup-quick", id: "setup-quick" });
  if (prefs.auto_setup) {
    box.append(el("p", { class: "muted", id: "auto-setup-note", text: "Your setup is placed for you, each time your turn comes." }));
    return box;
  }
  const rest = el("button", { type: "button", class: "btn", id: "place-rest", title: "Your remaining claims and starting armies are placed for you (the stand-in bot chooses)" }, "Place the rest for me");
  rest.addEventListener("click", () => change(ctx, { auto_setup: true }));
  box.append(rest);
  const left = msg.view.setup_armies ? msg.view.setup_armies[msg.seat] || 0 : 0;
  if (phase === "setup-place" && left > 1) {
    const input = el("input", { type: "number", id: "place-n", min: "1", max: String(left), value: String(Math.min(count, left)), inputmode: "numeric", "aria-label": "Armies per click on one of your territories" });
    input.addEventListener("change", () => onCount(Math.max(1, Math.min(left, Math.floor(Number(input.value)) || 1))));
    box.append(
      el("label", { class: "row place-n-row" }, el("span", { class: "label", text: "Place" }), input, el("span", { class: "muted", text: "per click: your next placements, one each turn" })),
    );
  }
  const queued = prefs.queue.reduce((n, q) => n + q.count, 0);
  if (queued) {
    const words = prefs.queue.map((q) => `${q.count} on ${names.get(q.territory) || q.territory}`).join(", ");
    const drop = el("button", { type: "button", class: "btn btn-ghost btn-small", id: "clear-queue" }, "Clear");
    drop.addEventListener("click", () => change(ctx, { clear_queue: true }));
    box.append(el("p", { class: "muted queued", id: "queued" }, `Queued: ${words}. `, drop));
  }
  return box;
}

/** A click on one of your territories in the setup with "Place N" above 1: those placements are
 * queued there (the first at once if it is your turn). True when the click was taken so. */
export function placeCount(ctx, slug, count, own) {
  const { msg } = ctx;
  if (!msg.prefs || msg.view.phase !== "setup-place" || count <= 1 || !own) return false;
  change(ctx, { place: { territory: slug, count } });
  return true;
}
