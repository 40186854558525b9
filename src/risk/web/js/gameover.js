// The game-over panel (#gameover): who won, the record to download, the summary, a rematch.

import { $, clear, el, downloadRecord } from "./ui.js";
import { turnsPlayed } from "./words.js";
import { rematchBox } from "./rematch.js";
import { fogGame } from "./gamestate.js";
import { button } from "./status.js";
import { gameId, store } from "./page.js";

export function renderGameOver(colours) {
  const s = store.state;
  const box = $("#gameover");
  const o = s.msg.outcome;
  if (!o) {
    box.hidden = true;
    return;
  }
  if (s.gameOverDismissed) return;
  const v = s.view;
  const card = clear($("#gameover-card"));
  const winners = o.winners && o.winners.length ? o.winners : o.winner !== null && o.winner !== undefined ? [o.winner] : [];
  const iWon = s.seat !== null && winners.includes(s.seat);
  card.append(
    el("h2", { text: iWon ? "Victory!" : "Game over" }),
    el(
      "p",
      { class: "winner-line" },
      winners.map((w) => el("span", { class: "winner" }, el("span", { class: "swatch big", style: { background: colours[w].fill } }), ` ${v.players[w].name}`)),
      winners.length ? (winners.length > 1 ? " win" : " wins") : "No winner",
    ),
    el("p", { class: "muted", text: o.reason || "" }),
    el("p", { class: "muted", id: "gameover-turns", text: turnsPlayed(v.turn || 0) }),
  );
  // Only under fog (append(null) would write the word "null").
  if (fogGame(s)) card.append(el("p", { class: "fog-lifted", id: "fog-lifted", text: "The fog has lifted: the whole board is shown." }));
  const me = s.seat !== null && v.players[s.seat] ? v.players[s.seat].name : "";
  card.append(rematchBox({ gameId, token: s.token, seat: s.seat, name: me, rules: v.rules }));
  const actions = el("div", { class: "row wrap center" });
  if (s.seat !== null && s.token) actions.append(button("Download the record", { class: "btn", id: "download-record" }, () => downloadRecord(gameId, store.state.token)));
  actions.append(el("a", { class: "btn", href: `/game/${encodeURIComponent(gameId)}/summary`, id: "view-summary", text: "Charts, luck & replay" }));
  actions.append(el("a", { class: "btn", href: "/", id: "to-lobby", text: "Back to the lobby" }));
  actions.append(
    button("Look at the board", { class: "btn btn-ghost", id: "close-gameover" }, () => {
      store.dismissGameOver();
      box.hidden = true;
    }),
  );
  card.append(actions);
  box.hidden = false;
}
