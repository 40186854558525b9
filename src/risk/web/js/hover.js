// The card over the map (#hover-info) for the territory under the pointer, or tapped: its name,
// continent, owner and armies; under fog of war, what this seat last saw of it.

import { $, clear, el, seatColours, armies as armiesWord } from "./ui.js";
import { turnsAgo } from "./board.js";
import { store } from "./page.js";

// A tapped territory's card closes by itself: a finger sends no pointerout to close it.
export const TOUCH_CARD_MS = 2500;
let hoverTimer = null;

export function showHover(slug, closeAfter = 0) {
  const s = store.state;
  const box = $("#hover-info");
  clearTimeout(hoverTimer);
  if (closeAfter) hoverTimer = setTimeout(() => showHover(null), closeAfter);
  if (!slug || !s.view) {
    box.hidden = true;
    return;
  }
  const i = s.index.get(slug);
  const row = s.view.territories[i];
  const t = s.boardData.board.territories[i];
  const colours = seatColours(s.view);
  clear(box);
  if (row.hidden) {
    box.append(el("span", {}, el("strong", { text: t.name }), el("span", { class: "muted", text: ` · ${t.continent}` }), " · ", ...fogWords(s, row, colours)));
    box.hidden = false;
    return;
  }
  const owner = row.owner >= 0 ? s.view.players[row.owner] : null;
  box.append(
    el(
      "span",
      {},
      el("strong", { text: t.name }),
      el("span", { class: "muted", text: ` · ${t.continent}` }),
      " · ",
      owner ? el("span", { class: "swatch", style: { background: colours[row.owner].fill } }) : null,
      owner ? ` ${owner.name} · ${armiesWord(row.armies)}` : row.owner === -2 ? `tied, no one controls it · ${armiesWord(row.armies)}` : "unclaimed",
    ),
  );
  if (Array.isArray(row.units) && row.units.filter((n) => n > 0).length > 1) {
    box.append(
      el("br"),
      row.units
        .map((n, seat) => (n > 0 ? `${s.view.players[seat].name} ${n}` : null))
        .filter(Boolean)
        .join(" + "),
    );
  }
  box.hidden = false;
}

/** A land out of sight (fog of war): what this seat last saw of it, marked as old, or nothing. */
function fogWords(s, row, colours) {
  const seen = row.seen;
  if (!seen) return [el("span", { class: "fog-word", text: s.seat === null ? "hidden from spectators" : "out of sight, never seen" })];
  const when = turnsAgo(s.view.turn, seen.turn);
  const who = seen.owner >= 0 && s.view.players[seen.owner] ? s.view.players[seen.owner] : null;
  return [
    el("span", { class: "fog-word", text: "out of sight" }),
    el(
      "span",
      { class: "seen-old" },
      ` · last seen ${when}: `,
      who ? el("span", { class: "swatch swatch-old", style: { background: colours[seen.owner].fill } }) : null,
      who ? ` ${seen.owner === s.seat ? "yours" : who.name} · ${armiesWord(seen.armies)}` : "unclaimed",
    ),
  ];
}
