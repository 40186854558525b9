// The lobby's quick match (docs/web.md, "Quick match"): signed in, a player chooses a game, a player
// count and a pace, and waits; the server puts them in a rated game with players near their rating.
//
// While an entry waits, the page asks after it every few seconds. When it is placed, the seat's link
// (with its token, bound to the account) is kept in "Your games"; a live game opens at once, a game
// over days is announced (its moves come by e-mail when the account has an address).

import { api, seats } from "./api.js";
import { currentAccount, openAccount } from "./account.js";
import { el, clear, $, toast, GAME_NAMES } from "./ui.js";

const POLL_MS = 2000;
const PACE_WORDS = {
  live: ["Live", "3 minutes a turn, at one sitting"],
  days: ["Over days", "a day a turn; e-mail when it is your move"],
};
const state = { offered: null, entries: [], seenWaiting: new Set(), timer: null, onPlaced: () => {}, choice: { game: "world", players: 3, pace: "live" } };

/** Draw the panel and keep it current; ``onPlaced`` runs when a game was found (the lists redraw). */
export async function initQuickMatch(onPlaced) {
  state.onPlaced = onPlaced;
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refreshQuickMatch();
  });
  await refreshQuickMatch();
}

/** Read what may be queued for and the account's entries again, and redraw (after a sign-in too). */
export async function refreshQuickMatch() {
  const box = $("#quick-box");
  if (!box) return;
  try {
    state.offered = await api.quickQueues();
    state.entries = currentAccount() ? (await api.quickEntries()).entries : [];
  } catch (err) {
    clear(box).append(el("p", { class: "form-error", text: `Quick match cannot be reached now: ${err.message}` }));
    return;
  }
  takePlaced();
  render();
  schedule();
}

function schedule() {
  clearTimeout(state.timer);
  // "matched": claimed for a game the server is making this moment; "placed" follows.
  if (state.entries.some((e) => e.status === "waiting" || e.status === "matched")) {
    state.timer = setTimeout(() => {
      if (document.hidden) schedule();
      else refreshQuickMatch();
    }, POLL_MS);
  }
}

/** A placed entry's seat kept in this browser's "Your games"; one seen waiting on this page opens (a
 * live game) or is announced (a game over days). */
function takePlaced() {
  const me = currentAccount();
  for (const entry of state.entries) {
    if (entry.status === "waiting") {
      state.seenWaiting.add(entry.id);
      continue;
    }
    if (entry.status !== "placed" || !entry.token) continue;
    const held = seats.forGame(entry.game_id).some((s) => s.token === entry.token);
    if (!held) seats.remember({ game: entry.game_id, seat: entry.seat, name: me ? me.account.name : "", token: entry.token, mine: true });
    if (!state.seenWaiting.delete(entry.id)) continue;
    state.onPlaced();
    if (entry.pace === "live") {
      toast("A game is found: it opens now.", "ok");
      location.assign(entry.link);
    } else {
      toast(`A game over days is found: it is in Your games.${me && me.account.email ? " Its moves come to your e-mail." : ""}`, "ok", 10000);
    }
  }
}

function render() {
  const box = $("#quick-box");
  clear(box);
  box.append(el("h2", { id: "quick-title", text: "Quick match" }));
  if (!currentAccount()) {
    const signIn = el("button", { type: "button", class: "btn btn-primary", id: "quick-sign-in", text: "Sign in to play" });
    signIn.addEventListener("click", openAccount);
    box.append(el("p", { class: "muted", text: "A rated game against people near your level, found in moments: sign in or make an account, choose a game, and wait." }), signIn);
    return;
  }
  const waiting = state.entries.filter((e) => e.status === "waiting");
  const placed = state.entries.filter((e) => e.status === "placed");
  if (waiting.length) box.append(el("ul", { class: "game-list quick-entries", id: "quick-waiting" }, ...waiting.map(waitingItem)));
  box.append(queueForm());
  if (placed.length) box.append(el("ul", { class: "game-list quick-entries", id: "quick-placed" }, ...placed.map(placedItem)));
}

function gameName(game) {
  return GAME_NAMES[game] || game;
}

function queueWords(entry) {
  return `${gameName(entry.game)}, ${entry.players} players, ${PACE_WORDS[entry.pace] ? PACE_WORDS[entry.pace][0].toLowerCase() : entry.pace}`;
}

function waited(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return s < 3600 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` : `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

function waitingItem(entry) {
  const leave = el("button", { type: "button", class: "btn btn-small", text: "Leave", "aria-label": `Leave the queue: ${queueWords(entry)}` });
  leave.addEventListener("click", async () => {
    leave.disabled = true;
    try {
      const me = currentAccount();
      state.entries = (await api.quickLeave(me.csrf, entry.id)).entries;
      state.seenWaiting.delete(entry.id);
      render();
    } catch (err) {
      toast(err.message, "error");
      refreshQuickMatch();
    }
  });
  const range = entry.range === null ? "any rating now" : `ratings within ${entry.range} of yours`;
  const others = Math.max(0, (entry.waiting || 1) - 1);
  return el(
    "li",
    { class: "game-item quick-entry", dataset: { entry: String(entry.id) } },
    el("div", { class: "gi-head" }, el("span", { class: "gi-title", text: `Looking for a game: ${queueWords(entry)}` }), el("span", { class: "gi-meta", text: `waiting ${waited(Date.now() / 1000 - entry.queued)}` })),
    el("div", { class: "gi-clock", text: `${range} · ${others ? `${others} other${others === 1 ? "" : "s"} waiting here` : "no one else waiting here yet"}` }),
    el("div", { class: "gi-actions" }, el("span", { class: "spinner", "aria-hidden": "true" }), leave),
  );
}

function placedItem(entry) {
  return el(
    "li",
    { class: "game-item quick-entry", dataset: { entry: String(entry.id) } },
    el("div", { class: "gi-head" }, el("span", { class: "gi-title", text: `Found: ${queueWords(entry)}` }), el("span", { class: "tag tag-rated", text: "Rated" })),
    el("div", { class: "gi-actions" }, entry.link ? el("a", { class: "btn btn-small btn-primary", href: entry.link, text: "Play" }) : el("span", { class: "muted", text: "in Your games" })),
  );
}

function queueForm() {
  const offered = state.offered.games;
  const choice = state.choice;
  if (!offered.some((g) => g.game === choice.game)) choice.game = offered[0].game;
  const counts = offered.find((g) => g.game === choice.game).players;
  if (!counts.includes(choice.players)) choice.players = counts[0];
  const gameSelect = el("select", { id: "quick-game", name: "game", "aria-describedby": "quick-game-error" }, ...offered.map((g) => el("option", { value: g.game, text: gameName(g.game), selected: g.game === choice.game })));
  const playersSelect = el("select", { id: "quick-players", name: "players", "aria-describedby": "quick-players-error" }, ...counts.map((n) => el("option", { value: String(n), text: String(n), selected: n === choice.players })));
  gameSelect.addEventListener("change", () => {
    choice.game = gameSelect.value;
    render();
  });
  playersSelect.addEventListener("change", () => {
    choice.players = Number(playersSelect.value);
    render();
  });
  const paces = el(
    "div",
    { class: "row wrap quick-paces", role: "radiogroup", "aria-label": "Pace" },
    ...state.offered.paces.map((p) => {
      const radio = el("input", { type: "radio", name: "pace", value: p.pace, id: `quick-pace-${p.pace}`, checked: p.pace === choice.pace });
      radio.addEventListener("change", () => {
        choice.pace = p.pace;
        render();
      });
      const [name, words] = PACE_WORDS[p.pace] || [p.pace, ""];
      return el("label", { class: "check quick-pace", for: radio.id }, radio, " ", el("strong", { text: name }), el("span", { class: "muted", text: ` ${words}` }));
    }),
  );
  const here = state.offered.waiting.find((q) => q.game === choice.game && q.players === choice.players && q.pace === choice.pace);
  const mine = state.entries.some((e) => e.status === "waiting" && e.game === choice.game && e.players === choice.players && e.pace === choice.pace);
  const others = (here ? here.waiting : 0) - (mine ? 1 : 0);
  const count = mine ? "you wait for this game (above)" : others ? `${others} waiting for this now` : "no one waiting for this now";
  const error = el("p", { class: "form-error", id: "quick-error", "aria-live": "polite" });
  const submit = el("button", { type: "submit", class: "btn btn-primary", id: "quick-find", text: "Find a game", disabled: mine });
  const form = el(
    "form",
    { id: "quick-form", class: "quick-form", novalidate: true },
    el("div", { class: "row wrap" }, fieldOf("Game", gameSelect, "quick-game-error"), fieldOf("Players", playersSelect, "quick-players-error")),
    paces,
    el("span", { class: "field-error", id: "quick-pace-error", "aria-live": "polite" }),
    el("div", { class: "row wrap" }, submit, el("span", { class: "muted", id: "quick-count", text: count })),
    error,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    for (const node of form.querySelectorAll(".field-error, .form-error")) node.textContent = "";
    submit.disabled = true;
    try {
      const me = currentAccount();
      const answer = await api.quickJoin(me.csrf, { game: choice.game, players: choice.players, pace: choice.pace });
      state.seenWaiting.add(answer.entry.id); // asked for on this page: its game opens here, even if found at once
      await refreshQuickMatch();
    } catch (err) {
      const at = err.field ? form.querySelector(`#quick-${err.field}-error`) : null;
      (at || error).textContent = err.message.charAt(0).toUpperCase() + err.message.slice(1);
      submit.disabled = false;
    }
  });
  return form;
}

function fieldOf(label, input, errorId) {
  return el("label", { class: "field", for: input.id }, el("span", { text: label }), input, el("span", { class: "field-error", id: errorId, "aria-live": "polite" }));
}
