// The log (#log: newest last, one `li` per entry, numbered by its place in the whole log) and the
// last battle's dice (#dice) on the board page.

import { $, clear, el, slugify, dieFace, NEUTRAL } from "./ui.js";
import { LOG_KEEP, territoryOf } from "./gamestate.js";
import { store } from "./page.js";

let renderedLog = 0; // the place in the whole log up to which lines are in the list
let renderedVersion = 0; // the state's logVersion the list was drawn from
let scrollDown = false; // the list is to be scrolled to its newest line (settleLog)
let trayPlacedFor = ""; // the battle and window size the dice tray was placed for (placeTray)
// Where the dice tray may sit on a wide screen (app.css, .dice-tray[data-spot]): the map's bottom
// left, middle or right; and the screens that have those places (a phone's tray sits under the map).
const TRAY_SPOTS = ["left", "middle", "right"];
const TRAY_PLACES = "(min-width: 861px) and (min-height: 561px)";

/** Whether the log shows its newest lines: read before the page's first change of a redraw, where
 * the layout is still the one drawn (read after a change, it makes the browser lay the page out again). */
export function logAtBottom() {
  const box = $("#log");
  return box.scrollHeight - box.scrollTop - box.clientHeight < 48;
}

/** The log's new lines; `atBottom`: logAtBottom() before the redraw. The scroll waits for settleLog(). */
export function renderLog(colours, atBottom) {
  const s = store.state;
  const box = $("#log");
  const end = s.logBase + s.log.length;
  let from = renderedLog;
  let restarted = false;
  if (s.logVersion !== renderedVersion || renderedLog > end || renderedLog < s.logBase) {
    clear(box);
    from = s.logBase;
    restarted = true;
  }
  renderedVersion = s.logVersion;
  if (end - from > LOG_KEEP) {
    clear(box);
    from = end - LOG_KEEP;
    restarted = true;
  }
  for (let i = from; i < end; i++) box.append(logLine(s.log[i - s.logBase], i, colours));
  while (box.childElementCount > LOG_KEEP) box.firstElementChild.remove();
  renderedLog = end;
  scrollDown = scrollDown || atBottom || restarted;
}

/** The log scrolled to its newest line when renderLog() said so: last in a redraw, so that the page is
 * laid out once for it, after every change. */
export function settleLog() {
  if (!scrollDown) return;
  scrollDown = false;
  const box = $("#log");
  box.scrollTop = box.scrollHeight;
}

function logLine(entry, place, colours) {
  const seat = entry.seat;
  const colour = seat >= 0 && colours[seat] ? colours[seat].fill : null;
  const item = el(
    "li",
    { class: `log-entry log-${entry.kind || "info"}`, dataset: { kind: entry.kind || "", index: place } },
    colour ? el("span", { class: "log-dot", style: { background: colour } }) : el("span", { class: "log-dot none" }),
    el("span", { class: "log-text", text: entry.text }),
  );
  if (entry.kind === "battle" && entry.data && entry.data.attack) {
    const dice = el("span", { class: "log-dice", "aria-hidden": "true" });
    entry.data.attack.forEach((d) => dice.append(dieFace(d, "attack", 15)));
    dice.append(el("span", { class: "vs", text: "vs" }));
    (entry.data.defence || []).forEach((d) => dice.append(dieFace(d, "defence", 15)));
    item.append(dice);
  }
  return item;
}

export function renderDice(colours) {
  const s = store.state;
  const v = s.view;
  const tray = $("#dice");
  const b = v.last_battle;
  if (!b) {
    tray.hidden = true;
    return;
  }
  clear(tray);
  // The attacker still holds the territory it attacked from.
  const fromRow = territoryOf(s, slugify(b.from));
  const attacker = fromRow && !fromRow.hidden ? fromRow.owner : v.current;
  const pairs = Math.min(b.attacker_dice.length, b.defender_dice.length);
  const col = (dice, side) => {
    const c = el("div", { class: `dice-col dice-${side}` });
    dice.forEach((d, i) => {
      const face = dieFace(d, side, 30);
      if (i < pairs) {
        const won = side === "attack" ? d > b.defender_dice[i] : d >= b.attacker_dice[i];
        face.classList.add(won ? "won" : "lost");
      } else face.classList.add("idle");
      c.append(face);
    });
    return c;
  };
  tray.append(
    el(
      "div",
      { class: "dice-head" },
      el("span", { class: "swatch", style: { background: (colours[attacker] || NEUTRAL).fill } }),
      ` ${b.from} → ${b.to}`,
    ),
    el("div", { class: "dice-body" }, col(b.attacker_dice, "attack"), col(b.defender_dice, "defence")),
    el(
      "div",
      { class: "dice-foot" },
      b.conquered ? el("strong", { class: "good", text: "Conquered!" }) : `−${b.attacker_losses} / −${b.defender_losses}`,
    ),
  );
  tray.hidden = false;
  const placedFor = `${b.from}|${b.to}|${b.attacker_dice}|${b.defender_dice}|${innerWidth}x${innerHeight}`;
  if (placedFor !== trayPlacedFor) {
    trayPlacedFor = placedFor;
    // After the redraw, in the frame's own layout: where the board is drawn now.
    requestAnimationFrame(() => placeTray(tray));
  }
}

/** The dice tray where it covers the least of the board: the first of the map's bottom left, middle
 * and right with no territory under it, else the one with the least (points sampled over the tray;
 * the tray lets clicks through, so the element at a point is what it covers). */
function placeTray(tray) {
  if (tray.hidden || !matchMedia(TRAY_PLACES).matches) return;
  let best = null;
  for (const spot of TRAY_SPOTS) {
    tray.dataset.spot = spot;
    const r = tray.getBoundingClientRect();
    let covered = 0;
    for (let i = 0; i <= 8; i++) {
      for (let j = 0; j <= 4; j++) {
        const under = document.elementFromPoint(r.left + (r.width * i) / 8, r.top + (r.height * j) / 4);
        if (under && under.closest(".territory, .board-legend, .map-tools")) covered++;
      }
    }
    if (!best || covered < best.covered) best = { spot, covered };
    if (!covered) break;
  }
  tray.dataset.spot = best.spot;
}
