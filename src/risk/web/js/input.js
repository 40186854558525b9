// What the player does on the board page: clicks and taps on the map, the notation box, the map's
// tools, the phone's sheet, the keys (Escape, Ctrl+Z; the others are keys.js's) and a token changed in
// the address bar.

import { seatLink } from "./api.js";
import { $, copyText, slugify, toast } from "./ui.js";
import { isUndoKey } from "./fastplay.js";
import { placeCount } from "./seatprefs.js";
import { forceOf, myTurn, territoryOf } from "./gamestate.js";
import { CLICK } from "./prompt.js";
import { renderPrompt, showMessage } from "./status.js";
import { renderSheetToggle } from "./panels.js";
import { showHover, TOUCH_CARD_MS } from "./hover.js";
import { send, sendUndo, stopBlitz } from "./moves.js";
import { onKey, wireKeys } from "./keys.js";
import { whyNot } from "./keynav.js";
import { gameId, store, tokenFromHash } from "./page.js";

/** A click or tap on the map (Board's onTerritory): `slug` null for the sea; `how.touch` for a finger. */
export function onTerritory(slug, event, how = {}) {
  const s = store.state;
  if (!s.msg) return;
  if (!slug) {
    if (how.touch) showHover(null);
    if (s.selection) store.cancelSelection();
    return;
  }
  showHover(slug, how.touch ? TOUCH_CARD_MS : 0);
  const own = territoryOf(s, slug) && territoryOf(s, slug).owner === s.seat;
  if (placeCount({ msg: s.msg, gameId, token: s.token }, slug, s.setupCount, own)) return;
  // Enter on a territory the move does not allow (the arrows reach every one): why not, and nothing
  // else (a click there lets go of the territory chosen).
  const refused = how.keyboard ? whyNot(s, slug) : null;
  if (refused) {
    showMessage(refused, "info");
    return;
  }
  if (!myTurn(s)) return;
  const L = s.legal;
  if (L.claim.has(slug)) {
    send(`claim ${slug}`);
    return;
  }
  if (L.capital.size) {
    if (L.capital.has(slug)) store.select({ kind: "capital", from: slug });
    return;
  }
  if (L.place.has(slug)) {
    const range = L.place.get(slug);
    let n = s.placeAmount === "all" || (event && event.shiftKey) ? range.max : Number(s.placeAmount) || 1;
    n = Math.max(range.min, Math.min(range.max, n));
    send(`place ${slug} ${n}`);
    return;
  }
  for (const kind of ["attack", "fortify"]) {
    if (L[kind].size) {
      store.select(chooseRoute(s, kind, slug));
      return;
    }
  }
}

/** The selection after a click on `slug` while attacking or fortifying. */
function chooseRoute(s, kind, slug) {
  const map = s.legal[kind];
  const sel = s.selection && s.selection.kind === kind ? s.selection : null;
  const verb = kind === "attack" ? "attack" : "move armies to";
  if (sel && sel.from === slug) {
    // A second click on the chosen territory keeps it (players click again to be sure); Cancel,
    // Esc or a click on the sea lets go of it.
    showMessage(`${s.names.get(slug)} stays chosen: ${CLICK} where to ${verb}, or Cancel to let go.`, "info");
    return s.selection;
  }
  if (sel && map.get(sel.from).has(slug)) return { ...sel, to: slug };
  if (map.has(slug)) {
    // Another source: it keeps the target chosen when it can reach it too.
    const to = sel && sel.to && map.get(slug).has(sel.to) ? sel.to : null;
    return { kind, from: slug, to };
  }
  const sources = [...map.entries()].filter(([, targets]) => targets.has(slug)).map(([source]) => source);
  if (sources.length === 1) return { kind, from: sources[0], to: slug };
  if (sources.length > 1) {
    // Several of yours reach it: the strongest is chosen, and the player is told how to change it.
    const strength = (source) => forceOf(s, territoryOf(s, source));
    const from = sources.reduce((a, b) => (strength(b) > strength(a) ? b : a));
    showMessage(`From ${s.names.get(from)}, your strongest next to ${s.names.get(slug)}: ${CLICK} ${sources.filter((source) => source !== from).map((source) => s.names.get(source)).join(" or ")} to ${kind} from there.`, "info");
    return { kind, from, to: slug };
  }
  return null;
}

/** The pointer over a territory (Board's onHover). */
export function onHover(slug) {
  store.hover(slug);
  showHover(slug);
}

/** The page's own controls, wired once. */
export function wireInput() {
  $("#action-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("#action-input");
    const text = input.value.trim();
    if (!text) return;
    if (send(text)) input.value = "";
  });
  $("#sheet-toggle").addEventListener("click", () => {
    const open = !$("#sheet").classList.contains("open");
    $("#sheet").classList.toggle("open", open);
    $("#sheet-toggle").setAttribute("aria-expanded", String(open));
    renderSheetToggle();
  });
  const board = () => store.state.board;
  $("#zoom-in").addEventListener("click", () => board() && board().zoomBy(1.5));
  $("#zoom-out").addEventListener("click", () => board() && board().zoomBy(1 / 1.5));
  $("#zoom-fit").addEventListener("click", () => board() && board().fit());
  $("#show-mine").addEventListener("click", () => {
    const s = store.state;
    if (!board() || s.seat === null || !s.view) return;
    board().showMine(s.view.territories.filter((row) => row.owner === s.seat).map((row) => slugify(row.name)));
  });
  $("#toggle-names").addEventListener("click", () => {
    if (!board()) return;
    board().setNames(!board().names);
    localStorage.setItem("risk.names", board().names ? "on" : "off");
    $("#toggle-names").setAttribute("aria-pressed", String(board().names));
  });
  $("#copy-link").addEventListener("click", async () => {
    const ok = await copyText(seatLink(gameId, null));
    toast(ok ? "Spectator link copied." : "Copy failed: copy the address bar without the #token part.", ok ? "ok" : "error");
  });
  wireKeys();
  document.addEventListener("keydown", (event) => {
    const s = store.state;
    if (onKey(event)) return;
    if (event.key === "Escape") {
      if (s.msg && s.msg.blitz && !myTurn(s)) stopBlitz();
      else if (s.selection) store.cancelSelection();
    } else if (isUndoKey(event) && s.seat !== null) {
      event.preventDefault();
      sendUndo();
    }
  });
  // Another seat's link pasted into the address bar: the store's reaction connects with it.
  window.addEventListener("hashchange", () => store.setToken(tokenFromHash()));
  // The defence countdown.
  setInterval(() => {
    const s = store.state;
    if (s.msg && s.msg.clock && s.msg.clock.for === "defence" && !s.msg.outcome) renderPrompt();
  }, 1000);
}
