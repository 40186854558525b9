// Your seat (docs/web.md, "Seats"): hand it to a bot and take it back, resign; the host hands an
// absent player's seat to a bot; the page whose seat was opened on another device; the turn clock's
// settings. The host's token is kept in this browser (localStorage) by the lobby that created the game.

import { api } from "./api.js";
import { $, clear, el, fillBotMenu, toast } from "./ui.js";
import { alertToggles } from "./notify.js";
import { durationWords, formatSeconds } from "./clock.js";

const HOSTS_KEY = "risk.hosts.v1";

export const hosts = {
  all() {
    try {
      const list = JSON.parse(localStorage.getItem(HOSTS_KEY) || "[]");
      return Array.isArray(list) ? list.filter((h) => h && typeof h.game === "string" && typeof h.token === "string") : [];
    } catch {
      return [];
    }
  },
  remember(game, token) {
    const list = this.all().filter((h) => h.game !== game);
    list.push({ game, token });
    try {
      localStorage.setItem(HOSTS_KEY, JSON.stringify(list.slice(-200)));
    } catch {
      /* private mode or full: the game goes on without host tools */
    }
  },
  token(game) {
    const entry = this.all().find((h) => h.game === game);
    return entry ? entry.token : null;
  },
};

let resignArmed = false;
let toggles = null;

/** The "Your seat" panel: ctx = {msg, seat, token, gameId}. */
export function renderSeatPanel(ctx) {
  const panel = $("#seat-panel");
  if (!panel) return;
  const { msg, seat } = ctx;
  const box = clear($("#seat-tools"));
  const info = timerInfo(msg);
  if (info) box.append(el("p", { id: "timer-info", class: "muted timer-info", text: info }));
  const seated = seat !== null && msg.seats && msg.seats[seat];
  $("#seat-title").textContent = seated ? "Your seat: defence, bots' pace and more" : "Clock";
  if (!seated) {
    panel.hidden = !info;
    return;
  }
  panel.hidden = false;
  const mine = msg.seats[seat];
  // Folded away, unless it has something to say: a bot plays for you, or you resigned.
  const own = msg.seat_clocks ? msg.seat_clocks[seat] : null;
  if (mine.resigned || mine.stand_in || (own && own.away_until)) panel.open = true;
  const playing = msg.status === "playing" && !msg.outcome;
  if (mine.resigned) {
    box.append(el("p", { class: "muted", id: "resigned-note", text: "You resigned: your armies stay on the board as neutral armies. You can watch the game to its end." }));
  } else if (playing && mine.stand_in) {
    box.append(
      el("p", { class: "stand-in-note", id: "stand-in-note" }, el("strong", { text: `The ${mine.stand_in} bot plays for you.` }), " Your link still holds the seat."),
      button("Take my seat back", "stand-in-off", "btn btn-primary", () => standIn(ctx, false)),
    );
  } else if (playing) {
    const row = el("div", { class: "row wrap" });
    row.append(
      button("Let a bot play for me", "stand-in-on", "btn", () => standIn(ctx, true), `The ${(msg.timer && msg.timer.stand_in) || "stand-in"} bot plays your seat until you take it back`),
    );
    if (resignArmed) {
      row.append(
        button("Yes, resign", "resign-confirm", "btn btn-danger", () => resign(ctx)),
        button("Cancel", "resign-cancel", "btn btn-ghost", () => {
          resignArmed = false;
          ctx.rerender();
        }),
      );
    } else {
      row.append(
        button("Resign…", "resign", "btn btn-ghost", () => {
          resignArmed = true;
          ctx.rerender();
        }),
      );
    }
    box.append(row);
    if (resignArmed) box.append(el("p", { class: "warn-text", text: "Resigning is for good: you leave the game, and your armies stay on the board as neutral armies." }));
  }
  toggles = toggles || alertToggles();
  box.append(toggles);
}

function timerInfo(msg) {
  const t = msg && msg.timer;
  if (!t) return "";
  const parts = [];
  // Long clocks in words ("1 day per turn"), short ones as a clock face ("1:30 per turn").
  const long = (seconds) => (seconds >= 3600 ? durationWords(seconds) : formatSeconds(seconds));
  if (t.turn_time > 0) parts.push(`${long(t.turn_time)} per turn`);
  const defence = t.defend_timeout || t.turn_time;
  if (defence > 0) parts.push(`${long(defence)} per defence`);
  if (!parts.length) return "";
  if (t.time_bank > 0) parts.push(`a time bank of ${durationWords(t.time_bank)} each`);
  if (t.vacation_days > 0) parts.push(`${durationWords(t.vacation_days * 86400)} of vacation each`);
  const then = t.turn_time > 0 && t.missed_turns > 0 ? `; after ${t.missed_turns} missed ${t.missed_turns === 1 ? "turn" : "turns"} in a row the ${t.stand_in} bot plays` : "";
  return `Clock: ${parts.join(", ")}${then}.`;
}

function button(label, id, cls, onClick, title) {
  const b = el("button", { type: "button", class: cls, id, text: label, title });
  b.addEventListener("click", onClick);
  return b;
}

async function standIn(ctx, on) {
  try {
    await api.standIn(ctx.gameId, ctx.token, on);
    toast(on ? "A bot plays your seat now. Take it back whenever you like." : "Your seat is yours again.", "ok");
  } catch (error) {
    toast(error.message, "error");
  }
}

async function resign(ctx) {
  resignArmed = false;
  try {
    await api.resign(ctx.gameId, ctx.token);
    toast("You resigned.", "ok");
  } catch (error) {
    toast(error.message, "error");
    ctx.rerender();
  }
}

/** The players panel, as seats change hands: who a bot plays for, who resigned, the host's button. */
export function decoratePlayers(ctx) {
  const { msg, seat, gameId } = ctx;
  const hostToken = hosts.token(gameId);
  const playing = msg.status === "playing" && !msg.outcome;
  for (const info of msg.seats || []) {
    const row = document.querySelector(`#players .player-row[data-seat="${info.seat}"]`);
    if (!row) continue;
    const name = row.querySelector(".player-name");
    const kind = row.querySelector(".pkind");
    let tag = null;
    if (info.resigned) tag = el("span", { class: "tag tag-resigned", text: "resigned" });
    else if (info.stand_in) tag = el("span", { class: "tag tag-standin", title: `The ${info.stand_in} bot plays for ${info.name}`, text: `${info.stand_in} bot` });
    else if (info.missed > 0 && playing) tag = el("span", { class: "tag tag-warn", title: "Turns in a row whose time ran out", text: `missed ${info.missed}` });
    if (tag) (kind || name).append(tag);
    const absent = info.kind === "human" && info.connected === false && !info.stand_in && !info.resigned;
    if (hostToken && playing && absent && info.seat !== seat) {
      const bot = (msg.timer && msg.timer.stand_in) || "quick";
      const b = el("button", { type: "button", class: "btn btn-small host-replace", dataset: { seat: info.seat }, title: `${info.name} is away: the ${bot} bot plays the seat until ${info.name} takes it back`, text: "Give to bot" });
      b.addEventListener("click", async () => {
        b.disabled = true;
        try {
          await api.replaceSeat(gameId, hostToken, info.seat, bot);
          toast(`The ${bot} bot plays for ${info.name} now.`, "ok");
        } catch (error) {
          toast(error.message, "error");
          b.disabled = false;
        }
      });
      (kind || name).append(b);
    }
  }
}

/** The banner of a page whose seat was opened on another device or tab. */
export function movedBanner(banner, playHere) {
  clear(banner).append(
    el("span", { id: "moved-note", text: "This seat is open on another device or tab: the game goes on there." }),
    button("Play here", "play-here", "btn btn-small", playHere),
  );
  banner.hidden = false;
}

// -- the lobby: the clock's table settings, and the host's token of a game just created ------------
export function fillClockFields(meta) {
  const defaults = meta.defaults || {};
  const select = $("#stand-in");
  if (!select) return;
  fillBotMenu(select, meta);
  select.value = defaults.stand_in || "quick";
  setClockField("turn-time", defaults.turn_time || 0);
  $("#missed-turns").value = String(defaults.missed_turns ?? 2);
}

/** Seconds shown as an amount in the largest unit of the field's menu that divides them. */
export function setClockField(id, seconds) {
  const unit = $(`#${id}-unit`);
  if (!seconds) {
    $(`#${id}`).value = "0"; // none: the unit shown stays as it is
    return;
  }
  const units = [...unit.options].map((o) => Number(o.value)).sort((a, b) => b - a);
  const size = units.find((u) => seconds % u === 0 && seconds >= u) || units[units.length - 1];
  unit.value = String(size);
  $(`#${id}`).value = String(seconds / size);
}

/** The field's amount times its unit: seconds, as the API takes them. */
function clockSeconds(id) {
  return Math.round(Number($(`#${id}`).value || 0) * Number($(`#${id}-unit`).value || 1));
}

export function clockFields() {
  return {
    turn_time: clockSeconds("turn-time"),
    missed_turns: Number($("#missed-turns").value || 0),
    stand_in: $("#stand-in").value || "quick",
    time_bank: clockSeconds("time-bank"),
    vacation_days: Number($("#vacation-days").value || 0),
  };
}
