// The turn clock (docs/web.md, "The turn clock"): a countdown near the turn info, for everyone.
//
// The server sends the seconds left with each state (`clock.remaining`, by its own clock); the page
// counts down from the moment the message arrived, so a wrong clock on this computer does not matter.

import { $, clear, el } from "./ui.js";

let ends = null; // performance.now() at which the clock shown runs out
let ticker = null;
let shownKey = "";

/** Show the clock of a state message (or hide it: no clock runs). */
export function updateClock(msg, players, mySeat) {
  const box = $("#clock");
  if (!box) return;
  const c = msg && !msg.outcome && msg.status === "playing" ? msg.clock : null;
  if (!c) {
    ends = null;
    box.hidden = true;
    clearInterval(ticker);
    ticker = null;
    return;
  }
  // A new message for the same clock keeps counting from its own figure: the latest is the truest.
  // Under fog of war another player's time left is not shown (remaining: null): only whose turn it is.
  ends = c.remaining === null || c.remaining === undefined ? null : performance.now() + c.remaining * 1000;
  const who = players[c.seat] ? players[c.seat].name : "?";
  const key = `${c.seat}|${c.for}|${who}`;
  if (key !== shownKey || box.hidden) {
    shownKey = key;
    clear(box).append(
      el("span", { class: "clock-icon", "aria-hidden": "true" }),
      el("span", { class: "clock-who", text: c.seat === mySeat ? (c.for === "defence" ? "Your defence" : "You") : c.for === "defence" ? `${who}'s defence` : who }),
      el("span", { id: "clock-time", class: "clock-time" }),
    );
  }
  box.dataset.seat = String(c.seat);
  box.dataset.for = c.for;
  box.classList.toggle("mine", c.seat === mySeat);
  box.title = `${c.for === "defence" ? "Defence" : "Turn"} time: ${formatSeconds(c.limit)} · then the server plays for ${who}`;
  box.hidden = false;
  if (ends === null) {
    $("#clock-time").textContent = "";
    box.classList.remove("low", "out");
  }
  tick();
  if (!ticker) ticker = setInterval(tick, 250);
}

/** Whole seconds left on the clock shown, or null. */
export function secondsLeft() {
  return ends === null ? null : Math.max(0, Math.ceil((ends - performance.now()) / 1000));
}

function tick() {
  const box = $("#clock");
  const time = $("#clock-time");
  if (!box || !time || ends === null) return;
  const left = secondsLeft();
  time.textContent = formatSeconds(left);
  box.classList.toggle("low", left <= 10);
  box.classList.toggle("out", left === 0);
}

export function formatSeconds(total) {
  const s = Math.max(0, Math.round(total));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  if (h >= 24) return `${Math.floor(h / 24)} d ${h % 24} h`;
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}
