// The turn clock (docs/web.md, "The turn clock"): a countdown near the turn info, for everyone.
//
// The server sends the seconds left with each state (`clock.remaining`, by its own clock); the page
// counts down from the moment the message arrived, so a wrong clock on this computer does not matter.

import { $, clear, el } from "./ui.js";

let ends = null; // performance.now() at which the clock shown runs out
let bankFrom = null; // performance.now() from which the time bank is in use (null: no bank)
let ticker = null;
let shownKey = "";
// As the phone's top bar in app.css (none under node's tests of the words).
const narrow = typeof window !== "undefined" && window.matchMedia ? window.matchMedia("(max-width: 520px)") : { matches: false };

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
  bankFrom = ends !== null && c.bank !== undefined ? ends - c.bank * 1000 : null;
  const who = players[c.seat] ? players[c.seat].name : "?";
  const mine = c.seat === mySeat;
  const key = `${c.seat}|${c.for}|${who}`;
  if (key !== shownKey || box.hidden) {
    shownKey = key;
    clear(box).append(
      el("span", { class: "clock-icon", "aria-hidden": "true" }),
      el("span", { class: "clock-who", text: mine ? (c.for === "defence" ? "Your defence" : "Your move") : c.for === "defence" ? `${who}'s defence` : `${who}'s move` }),
      el("span", { id: "clock-time", class: "clock-time" }),
      el("span", { id: "clock-away", class: "clock-away" }),
    );
  }
  $("#clock-away").textContent = awayWords(msg.seat_clocks, players, mySeat);
  box.dataset.seat = String(c.seat);
  box.dataset.for = c.for;
  box.classList.toggle("mine", mine);
  const bank = c.bank !== undefined ? " · then the time bank" : "";
  box.title = `${c.for === "defence" ? "Defence" : "Turn"} time: ${formatSeconds(c.limit)}${bank} · then the server plays for ${who}`;
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
  const inBank = bankFrom !== null && performance.now() >= bankFrom;
  // Long clocks in words ("1 day 3 hours left"), a short one counting down ("0:42"); a phone's top
  // bar has room for the short form only ("1 d 3 h").
  const words = left >= 3600 && !narrow.matches;
  time.textContent = (words ? `${durationWords(left)} left` : formatSeconds(left)) + (inBank ? (narrow.matches ? " bank" : " (time bank)") : "");
  box.classList.toggle("in-bank", inBank);
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

const UNITS = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];

/** A time left in words, to the two largest units in a row, rounded down: "1 day 3 hours" (as the
 * server's risk.server.timing.duration_words says it). */
export function durationWords(seconds) {
  let left = Math.max(0, Math.floor(seconds));
  const parts = [];
  for (const [name, size] of UNITS) {
    const count = Math.floor(left / size);
    if (count && parts.length < 2) {
      parts.push(`${count} ${name}${count === 1 ? "" : "s"}`);
      left -= count * size;
    } else if (parts.length) break;
  }
  return parts.join(" ") || "no time";
}

/** A moment to come in this computer's time: "Tue 14:00" within the week, "Tue 15 Dec 14:00" beyond. */
export function momentWords(epochSeconds, nowMs = Date.now()) {
  const at = new Date(epochSeconds * 1000);
  const day = at.toLocaleDateString("en-GB", { weekday: "short" });
  const date = epochSeconds * 1000 - nowMs >= 6 * 86400 * 1000 ? ` ${at.getDate()} ${at.toLocaleDateString("en-GB", { month: "short" })}` : "";
  const time = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
  return `${day}${date} ${time}`;
}

/** "Ann is on vacation until Tue 14:00" for each seat away now ("You are ..." for this page's). */
export function awayWords(seatClocks, players, mySeat, nowMs = Date.now()) {
  return (seatClocks || [])
    .map((sc, seat) => (sc && sc.away_until && sc.away_until * 1000 > nowMs ? `${seat === mySeat ? "You are" : `${players[seat] ? players[seat].name : "?"} is`} on vacation until ${momentWords(sc.away_until, nowMs)}` : ""))
    .filter(Boolean)
    .join(" · ");
}
