// E-mail for this seat (docs/web.md, "Notifications"): the player gives an address and how often they
// may be written to; the server writes when it is their move, their defence is wanted, they lost
// territories in another's turn, or the game ended, and never while this page is open. The address is
// never shown back (not even to its own seat): the block says only that e-mail is on, and how often.
//
// Drawn once into #seat-email (outside the part of "Your seat" redrawn with every message: typing an
// address must not lose the focus when a bot moves), shown while the seat's game runs.

import { api } from "./api.js";
import { $, clear, el, toast } from "./ui.js";

export const PACES = [
  ["15", "at most every 15 minutes"],
  ["60", "at most once an hour"],
  ["digest", "once a day at most (a digest)"],
];

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
    (answer) => {
      state = answer;
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
    stop.addEventListener("click", () => send(ctx, () => api.stopEmail(ctx.gameId, ctx.token), "No more e-mail: your address is deleted.", { ...state, email: null }));
    const change = el("button", { type: "button", class: "btn btn-small", id: "email-change" }, "Change");
    change.addEventListener("click", () => {
      state = { ...state, email: null };
      draw(ctx);
      $("#email-address").focus();
    });
    host.append(el("p", { class: "muted", id: "email-on", text: `E-mail is on for this seat, ${paceWords(email)}.` }));
    if (email.paused) {
      host.append(el("p", { class: "warn-text", id: "email-paused", text: "E-mail is paused: the last messages could not be delivered. Give your address again to start it again." }));
    }
    host.append(el("div", { class: "row wrap" }, change, stop));
    return;
  }
  const address = el("input", { type: "email", id: "email-address", autocomplete: "email", required: "", maxlength: "254", placeholder: "you@example.org", "aria-label": "Your e-mail address" });
  const pace = el("select", { id: "email-pace", "aria-label": "How often" });
  for (const [value, text] of PACES) pace.append(el("option", { value, text }));
  const form = el(
    "form",
    { class: "email-form", id: "email-form" },
    address,
    pace,
    el("button", { type: "submit", class: "btn btn-small btn-primary", id: "email-save" }, "E-mail me"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = { address: address.value.trim(), ...paceBody(pace.value) };
    send(ctx, () => api.notifyEmail(ctx.gameId, ctx.token, body), "E-mail is on: you will be written to when this game needs you.");
  });
  host.append(
    el("p", { class: "muted email-why", text: "When it is your move, your defence is wanted, you lost territories or the game ended, and this page is closed. Your address is never shown to anyone and is deleted when the game ends." }),
    form,
  );
}

async function send(ctx, call, done, after) {
  try {
    const answer = await call();
    state = after || answer;
    draw(ctx);
    toast(done, "ok");
  } catch (error) {
    toast(error.message, "error");
  }
}
