// The board page's status lines: the prompt (#phase), notes and errors (#message), the move in flight
// (#pending), the connection (#conn, #banner) and the tab's title when this seat is to act.

import { $, clear, el } from "./ui.js";
import { movedBanner } from "./seating.js";
import { notifyTurn } from "./notify.js";
import { secondsLeft } from "./clock.js";
import { myTurn } from "./gamestate.js";
import { promptFor, turnInfo } from "./prompt.js";
import { gameId, store } from "./page.js";

export function setPhase(headline, detail) {
  $("#phase").textContent = headline;
  $("#phase-detail").textContent = detail || "";
}

export function renderPrompt() {
  const s = store.state;
  // "Round 3 · Attack · Ann": the round is left out on a phone's narrow top bar (app.css .turn-round).
  const info = turnInfo(s);
  const cut = info.indexOf(" · ");
  if (cut > 0) clear($("#turn-info")).append(el("span", { class: "turn-round", text: info.slice(0, cut + 3) }), info.slice(cut + 3));
  else $("#turn-info").textContent = info;
  setPhase(...promptFor(s, secondsLeft()));
}

let messageTimer = null;
/** A note (gone after 7 s) or an error (kept until the next) under the controls; "" clears it. */
export function showMessage(text, kind = "info") {
  const box = $("#message");
  clearTimeout(messageTimer);
  box.textContent = text || "";
  box.className = `message ${text ? `message-${kind}` : ""}`;
  if (text && kind !== "error") messageTimer = setTimeout(() => showMessage(""), 7000);
}

/** A small button of the page's style. */
export function button(label, attrs = {}, onClick) {
  const b = el("button", { type: "button", class: "btn", ...attrs, text: label });
  if (onClick) b.addEventListener("click", onClick);
  return b;
}

/** The move in flight (GameSocket's onPending): sending, slow, or kept for after a reconnection. */
export function showPending(p) {
  const box = $("#pending");
  document.body.classList.toggle("sending", !!p);
  if (!p) {
    box.hidden = true;
    return;
  }
  clear(box);
  if (p.lost) {
    box.append(
      el("span", { text: `Not sent yet: “${p.action}”. It will be sent again when the connection is back (it is refused if the game moved on).` }),
      button("Cancel it", { class: "btn btn-small", id: "drop-pending" }, () => store.state.socket.dropPending()),
    );
    box.className = "pending warn";
  } else {
    box.append(el("span", { class: "spinner", "aria-hidden": "true" }), el("span", { text: p.slow ? ` Still waiting for the server: “${p.action}”` : ` Sending “${p.action}”…` }));
    box.className = "pending";
  }
  box.hidden = false;
}

/** The connection (GameSocket's onStatus); `reconnect` opens a new one. */
export function showConnection(status, detail, reconnect) {
  const s = store.state;
  const box = $("#conn");
  box.dataset.status = status;
  const text = {
    connecting: "Connecting…",
    open: s.seat === null && s.msg ? "Live · watching" : "Live",
    reconnecting: detail ? `Reconnecting in ${detail} s…` : "Reconnecting…",
    closed: "Disconnected",
  }[status];
  $("#conn-text").textContent = text;
  const banner = $("#banner");
  if (status === "reconnecting") {
    banner.hidden = false;
    clear(banner).append(
      el("span", { text: "Connection lost. Reconnecting… The board may be out of date." }),
      button("Retry now", { class: "btn btn-small", id: "reconnect" }, () => store.state.socket.reconnectNow()),
    );
  } else if (status === "closed" && detail === 4409) {
    movedBanner(banner, reconnect); // this seat was opened elsewhere: play here again on a click
    store.playedElsewhere(); // no prompt to act here ("Claim a territory") while the seat is played there
  } else if (status === "closed") {
    banner.hidden = false;
    clear(banner).append(el("span", { text: "Disconnected from the game." }), button("Reconnect", { class: "btn btn-small", id: "reconnect" }, reconnect));
  } else banner.hidden = true;
}

// -- the tab's title -----------------------------------------------------------------------------
let lastTurnSeen = null; // the state id of the turn the title last flashed for
let flashTimer = null;

export function renderTitle() {
  const s = store.state;
  const v = s.view;
  const mine = myTurn(s);
  let title = "RISK";
  if (s.msg.outcome) title = "Game over · RISK";
  else if (mine) title = v.phase === "defend" ? "Defend! · RISK" : "Your turn · RISK";
  else if (v.players[v.to_act]) title = `${v.players[v.to_act].name} to play · RISK`;
  document.title = title;
  notifyTurn({ mine, defending: v.phase === "defend", gameId, title, detail: $("#phase").textContent });
  document.body.classList.toggle("my-turn", mine);
  if (mine && lastTurnSeen !== s.msg.state_id && document.hidden) flashTitle(title);
  lastTurnSeen = mine ? s.msg.state_id : null;
}

function flashTitle(title) {
  clearInterval(flashTimer);
  let on = true;
  flashTimer = setInterval(() => {
    if (!document.hidden) {
      clearInterval(flashTimer);
      renderTitle();
      return;
    }
    document.title = on ? "● " + title : title;
    on = !on;
  }, 1000);
}
