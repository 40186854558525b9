// E-mail for this seat (docs/web.md, "Notifications"): the player gives an address and how often they
// may be written to; the server writes when it is their move, their defence is wanted, they lost
// territories in another's turn, or the game ended, and never while this page is open. The address is
// never shown back (not even to its own seat): the block says only that e-mail is on, and how often.
//
// "All my games in this browser": the address goes to every seat this browser holds (its saved seat
// links) and to each new one when its page first opens here; kept in this browser only (localStorage),
// as the seat links are.
//
// Drawn once into #seat-email (outside the part of "Your seat" redrawn with every message: typing an
// address must not lose the focus when a bot moves), shown while the seat's game runs.

import { api, seats } from "./api.js";
import { $, clear, el, toast } from "./ui.js";

export const PACES = [
  ["15", "at most every 15 minutes"],
  ["60", "at most once an hour"],
  ["digest", "once a day at most (a digest)"],
];

const ALL_KEY = "risk.email.all"; // {address, pace, every_minutes?, not: ["game:seat", ...]}: every seat here but those stopped one by one

/** The address and pace for all this browser's seats, or null. */
export function allSeatsEmail(storage = globalThis.localStorage) {
  try {
    const value = JSON.parse(storage.getItem(ALL_KEY) || "null");
    return value && typeof value.address === "string" && value.address ? value : null;
  } catch {
    return null;
  }
}

function keepAllSeatsEmail(body, storage = globalThis.localStorage) {
  try {
    if (body) storage.setItem(ALL_KEY, JSON.stringify(body));
    else storage.removeItem(ALL_KEY);
  } catch {
    /* private mode: this seat alone */
  }
}

/** The kept choice of "all my games", unless this seat was stopped on its own (then it is left out). */
function allForThisSeat(ctx) {
  const all = allSeatsEmail();
  return all && !(all.not || []).includes(`${ctx.gameId}:${ctx.seat}`) ? all : null;
}

/** The request body of a kept choice (what the server takes: no more). */
export function paceOf(kept) {
  const { address, pace, every_minutes } = kept;
  return pace === "digest" ? { address, pace } : { address, pace, every_minutes };
}

/** The other seats this browser holds a link of (each once), to give the same address. */
export function otherSeats(held, gameId, token) {
  const seen = new Set();
  return held.filter((s) => {
    const key = `${s.game} ${s.token}`;
    if (!s.token || s.mine === false || (s.game === gameId && s.token === token) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Give (``body``) or take away (null) the address of every other seat held; answers how many seats
 * took it, or had one to delete.
 * A finished game or a seat no longer this browser's refuses: left alone. */
async function everySeat(ctx, body) {
  const others = otherSeats(seats.all(), ctx.gameId, ctx.token);
  const done = await Promise.allSettled(
    others.map((s) => (body ? api.notifyEmail(s.game, s.token, body) : api.stopEmail(s.game, s.token))),
  );
  return done.filter((d) => d.status === "fulfilled" && (body || d.value.deleted)).length;
}

let state = null; // the server's answer: {email_available, email: null | {pace, every_minutes, paused, failures}}
const asked = new Set(); // the blocks that asked for the server's answer
let asking = null;

/** A seat's notification block (#seat-email here, #seat-push: push.js), with every state shown:
 * shown while a person's seat plays on and ``shown()`` (the block has something to show); the server
 * asked once for the seat's notifications (GET .../notify, one answer for both blocks), then ``got``
 * called with it. */
export function seatBlock(ctx, id, shown, got) {
  const host = $(id);
  if (!host) return;
  const seated = ctx.seat !== null && ctx.token && ctx.msg.seats && ctx.msg.seats[ctx.seat];
  const running = ctx.msg.status !== "over" && !ctx.msg.outcome;
  host.hidden = !(seated && running && shown());
  if (!seated || !running || asked.has(id)) return;
  asked.add(id);
  if (!asking) asking = api.notifySettings(ctx.gameId, ctx.token);
  asking.then(got).catch(() => {
    /* no block: the game goes on */
  });
}

/** Called with every state shown. */
export function renderEmail(ctx) {
  seatBlock(
    ctx,
    "#seat-email",
    () => state && state.email_available,
    async (answer) => {
      state = answer;
      const all = allForThisSeat(ctx);
      if (answer.email_available && !answer.email && all) {
        // A seat new to this browser's "all my games": it gets the address as its page first opens.
        try {
          state = await api.notifyEmail(ctx.gameId, ctx.token, paceOf(all));
        } catch {
          /* the form stays: the player may give it by hand */
        }
      }
      draw(ctx);
      if (answer.email && answer.email.paused) toast("Your e-mail for this game is paused: the last messages could not be delivered. See Your seat.", "error");
    },
  );
}

/** The pace in words, as the server keeps it. */
export function paceWords(email) {
  if (!email) return "";
  if (email.pace === "digest") return "once a day at most";
  const every = email.every_minutes;
  return every === 60 ? "at most once an hour" : `at most every ${every} minute${every === 1 ? "" : "s"}`;
}

/** The request body for a pace chosen in the menu. */
export function paceBody(choice) {
  return choice === "digest" ? { pace: "digest" } : { pace: "each", every_minutes: Number(choice) };
}

function draw(ctx) {
  const host = $("#seat-email");
  if (!host || !state) return;
  host.hidden = !state.email_available;
  clear(host);
  host.append(el("h3", { class: "email-title", text: "E-mail me" }));
  const email = state.email;
  if (email) {
    const stop = el("button", { type: "button", class: "btn btn-small btn-ghost", id: "email-stop" }, "Stop");
    stop.addEventListener("click", () => {
      const all = allSeatsEmail();
      if (all) keepAllSeatsEmail({ ...all, not: [...(all.not || []), `${ctx.gameId}:${ctx.seat}`].slice(-200) }); // not given again
      send(ctx, () => api.stopEmail(ctx.gameId, ctx.token), "No more e-mail for this game: your address is deleted from it.", { ...state, email: null });
    });
    const change = el("button", { type: "button", class: "btn btn-small", id: "email-change" }, "Change");
    change.addEventListener("click", () => {
      state = { ...state, email: null };
      draw(ctx);
      $("#email-address").focus();
    });
    host.append(el("p", { class: "muted", id: "email-on", text: `E-mail is on for this seat, ${paceWords(email)}.` }));
    const buttons = [change, stop];
    if (allForThisSeat(ctx)) {
      host.append(el("p", { class: "muted", id: "email-all-on", text: "The same for all your games in this browser, and new ones." }));
      const stopAll = el("button", { type: "button", class: "btn btn-small btn-ghost", id: "email-stop-all" }, "Stop for all my games");
      stopAll.addEventListener("click", async () => {
        keepAllSeatsEmail(null);
        const count = await everySeat(ctx, null);
        send(ctx, () => api.stopEmail(ctx.gameId, ctx.token), `No more e-mail from ${count + 1} game${count ? "s" : ""}: your address is deleted.`, { ...state, email: null });
      });
      buttons.push(stopAll);
    }
    if (email.paused) host.append(pausedNote());
    host.append(el("div", { class: "row wrap" }, ...buttons));
    return;
  }
  const address = el("input", { type: "email", id: "email-address", autocomplete: "email", required: "", maxlength: "254", placeholder: "you@example.org", "aria-label": "Your e-mail address" });
  const pace = el("select", { id: "email-pace", "aria-label": "How often" });
  for (const [value, text] of PACES) pace.append(el("option", { value, text }));
  const all = el("input", { type: "checkbox", id: "email-all" });
  const form = el(
    "form",
    { class: "email-form", id: "email-form" },
    address,
    pace,
    el("label", { class: "email-all", for: "email-all" }, all, " For all my games in this browser, and new ones"),
    el("button", { type: "submit", class: "btn btn-small btn-primary", id: "email-save" }, "E-mail me"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { address: address.value.trim(), ...paceBody(pace.value) };
    if (!all.checked) {
      send(ctx, () => api.notifyEmail(ctx.gameId, ctx.token, body), "E-mail is on: you will be written to when this game needs you.");
      return;
    }
    let count = 0;
    const done = await send(ctx, async () => {
      const answer = await api.notifyEmail(ctx.gameId, ctx.token, body); // this seat first: its refusal says what is wrong
      keepAllSeatsEmail(body);
      count = await everySeat(ctx, body);
      return answer;
    });
    if (done) toast(`E-mail is on for ${count + 1} game${count ? "s" : ""} in this browser, and for new ones.`, "ok");
  });
  host.append(
    el("p", { class: "muted email-why", text: "When it is your move, your defence is wanted, you lost territories or the game ended, and this page is closed. Your address is never shown to anyone and is deleted when the game ends." }),
    form,
  );
}

function pausedNote() {
  return el("p", { class: "warn-text", id: "email-paused", text: "E-mail is paused: the last messages could not be delivered. Give your address again to start it again." });
}

/** Call the server, then show its answer (or ``after``); true if it took it. */
async function send(ctx, call, done, after) {
  try {
    const answer = await call();
    state = after || answer;
    draw(ctx);
    if (done) toast(done, "ok");
    return true;
  } catch (error) {
    toast(error.message, "error");
    return false;
  }
}
