// "Rematch" in the game-over panel (docs/web.md, "Rematch"): the same seats and rules, new dice.
// The first player to ask creates it; the others take their seat in the same game. Every player's
// link works there (the server keeps each seat's token), so the page goes straight to it.

import { api, seats } from "./api.js";
import { el } from "./ui.js";

/**
 * The rematch controls for the game-over card: {gameId, token, seat, name, rules}. A seat gets the
 * "Rematch" button; a spectator a link to watch the rematch once there is one.
 */
export function rematchBox(ctx) {
  const box = el("div", { class: "rematch-box", id: "rematch-box" });
  const button = ctx.seat !== null && ctx.token
    ? el("button", { type: "button", class: "btn btn-primary", id: "rematch", text: "Rematch" })
    : null;
  const hint = el("p", { class: "muted rematch-hint", id: "rematch-hint", text: button ? "Same seats and rules, new dice." : "" });
  if (button) {
    button.addEventListener("click", () => ask(ctx, button, hint));
    box.append(button);
  }
  box.append(hint);
  refresh(ctx, box, button, hint);
  return box;
}

/** Whether a rematch exists already: the button then says so, and spectators get a watch link. */
async function refresh(ctx, box, button, hint) {
  let summary;
  try {
    summary = await api.game(ctx.gameId);
  } catch {
    return; // the button still works: the server answers the rematch or says why not
  }
  if (!summary.rematch) return;
  if (button) {
    button.textContent = "Join the rematch";
    hint.textContent = "A rematch is ready: same seats and rules, new dice.";
  } else if (summary.spectators !== false) {
    box.append(el("a", { class: "btn", id: "watch-rematch", href: `/game/${encodeURIComponent(summary.rematch)}`, text: "Watch the rematch" }));
  }
}

async function ask(ctx, button, hint) {
  button.disabled = true;
  hint.textContent = "Setting up the rematch…";
  try {
    const answer = await api.rematch(ctx.gameId, ctx.token);
    seats.remember({ game: answer.id, seat: answer.seat, name: ctx.name, token: ctx.token, mine: true, rules: ctx.rules });
    location.href = answer.link;
  } catch (error) {
    hint.textContent = `No rematch: ${error.message}`;
    button.disabled = false;
  }
}
