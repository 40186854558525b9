// Faster play on the board page (docs/web.md "Faster play"): a blitz settled by the server in one
// message, the last attacker kept selected so the next target is one click, and undo of the moves
// that revealed nothing new. The page's state (gamestate.js) is passed in, read only; nothing here sends.

import { el, armies as armiesWord, plural } from "./ui.js";

// While the turn is in these phases, the last attack's source stays the one to attack from.
const ATTACKING = ["attack", "occupy", "defend", "adjust-dice", "elimination-trade"];

/** The websocket message of a blitz: attack until conquered, or until `until` armies are left. */
export function blitzMessage(from, to, until) {
  return { type: "blitz", from, to, until: Math.max(1, Math.floor(Number(until) || 1)) };
}

/** The blitz in words, for the "Sending…" line. */
export function blitzLabel(names, from, to, until) {
  const route = `${names.get(from) || from} → ${names.get(to) || to}`;
  return until <= 1 ? `Blitz ${route}` : `Attack ${route} until ${until} left`;
}

/** What a blitz did, from its ack: how many rolls it took and why it stopped. Null while it waits
 * for a defender (the waiting panel says so). */
export function blitzResult(ack) {
  const b = ack.blitz;
  if (b.stopped === "defender") return null;
  return b.rolls ? `Blitz, ${plural(b.rolls, "roll")}: ${b.message}` : b.message;
}

/**
 * After an attack, select its source again while it can still attack, with the same target if that
 * can still be attacked; if the source cannot, the territory the armies moved into. Forgotten when
 * the turn leaves its attacks, or when the player cancels the selection. Returns the state's fields
 * that change (gamestate.js), or null.
 */
export function keepAttacker(s) {
  const last = s.lastAttack;
  if (!last || !s.view || !s.legal) return null;
  if (s.view.current !== s.seat || !ATTACKING.includes(s.view.phase)) return { lastAttack: null };
  if (s.selection || !s.legal.attack.size) return null;
  for (const from of [last.from, last.to]) {
    const targets = s.legal.attack.get(from);
    if (targets) return { selection: { kind: "attack", from, to: targets.has(last.to) ? last.to : null } };
  }
  return null;
}

/** A move that can be taken back, in words: "2 armies placed in Alaska". */
export function undoWords(text, names, view) {
  const w = String(text || "").split(" ");
  const t = (slug) => names.get(slug) || slug;
  if (w[0] === "place") return `${armiesWord(Number(w[2] || 1))} placed in ${t(w[1])}`;
  if (w[0] === "move") {
    const battle = view && view.last_battle; // the conquest the armies moved into
    return `${armiesWord(Number(w[1]))} moved into ${battle ? battle.to : "the conquered territory"}`;
  }
  if (w[0] === "fortify") return `${armiesWord(Number(w[3]))} moved from ${t(w[1])} to ${t(w[2])}`;
  return text;
}

/** The undo button (#undo) when the state says a move can be taken back; null otherwise. */
export function undoControl(s, onUndo) {
  const undo = s.msg && s.msg.undo;
  if (!undo) return null;
  const words = undoWords(undo.last, s.names, s.view);
  const more = undo.actions > 1 ? ` · ${undo.actions - 1} more before it` : "";
  const b = el("button", {
    type: "button",
    class: "btn btn-small btn-undo",
    id: "undo",
    title: `Take back: ${words} (Ctrl+Z)`,
    "aria-keyshortcuts": "Control+Z",
    text: "↶ Undo",
  });
  b.addEventListener("click", onUndo);
  return el("div", { class: "row undo-row" }, b, el("span", { class: "undo-what", text: `${words}${more}` }));
}

/** Ctrl+Z (⌘Z) outside a text field: undo. */
export function isUndoKey(event) {
  if (!(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey) return false;
  if (String(event.key).toLowerCase() !== "z") return false;
  const target = event.target;
  const typing = target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
  return !typing;
}

/** A blitz of ours waiting for a human defender's dice: what is going on, and Stop (#stop-auto). */
export function waitingBlitz(s, onStop) {
  const b = s.msg && s.msg.blitz;
  if (!b) return null;
  const v = s.view;
  const defender = v.players[v.to_act] ? v.players[v.to_act].name : "the defender";
  const until = b.until > 1 ? ` (until ${b.until} left)` : "";
  const stop = el("button", { type: "button", class: "btn btn-danger btn-small", id: "stop-auto", text: "Stop after this roll" });
  stop.addEventListener("click", onStop);
  return el(
    "div",
    { class: "blitz-wait" },
    el(
      "div",
      { class: "auto-row" },
      el("span", { class: "spinner", "aria-hidden": "true" }),
      el("span", { text: `Blitz ${s.names.get(b.from) || b.from} → ${s.names.get(b.to) || b.to}${until}` }),
    ),
    el("p", { class: "hint", text: `${defender} chooses the defence dice; your blitz goes on after.` }),
    stop,
  );
}
