// Sets of cards: what a set gives, which set of the hand is best, and the order to trade it in. Pure
// (the board page's state in, tests/js/cardsets.test.js).

import { territoryOf } from "./gamestate.js";

/** The armies a set of the hand gives now, as the engine counts it (the view's set_values). */
export function setValue(s, cards) {
  const v = s.view;
  const known = (v.set_values || []).find((set) => sameSet(set.cards, cards));
  return known ? known.value : v.next_set_value || 0;
}

export function sameSet(a, b) {
  return a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" ");
}

/** The rules line ("2008 game=world territory-card-bonus=none") as its rulebook and options. */
function rulesOf(text) {
  const parts = String(text || "").split(/\s+/);
  const options = {};
  for (const p of parts.slice(1)) {
    const [k, val] = p.split("=");
    if (k !== "game") options[k] = val;
  }
  return { edition: parts[0], options };
}

/** A traded card of a territory you hold can put 2 armies there (unless the rules say none). */
function bonusPossible(s) {
  const { edition, options } = rulesOf(s.view.rules);
  const rule = options["territory-card-bonus"] || (edition === "2003" ? "none" : edition ? "on" : "none");
  return rule !== "none";
}

function heldBySeat(s, card) {
  const t = territoryOf(s, card);
  return !!t && t.owner === s.seat;
}

/** The cards of a set in the order to send: a card of a territory you hold first (the +2 goes there). */
export function orderSet(s, cards) {
  const first = cards.find((c) => heldBySeat(s, c));
  return first ? [first, ...cards.filter((c) => c !== first)] : cards.slice();
}

/** The set to trade: the most armies, then a +2 on a territory held, then the fewest wilds spent. */
export function bestSet(s, sets = s.legal.trade) {
  let best = null;
  for (const set of sets) {
    const value = setValue(s, set);
    const bonus = bonusPossible(s) && set.some((c) => heldBySeat(s, c)) ? 2 : 0;
    const wilds = set.filter((c) => c.startsWith("wild")).length;
    const score = value * 10 + bonus * 5 - wilds * 3;
    if (!best || score > best.score) best = { set: orderSet(s, set), value, bonus, score };
  }
  return best;
}

/** A set in words: "Alaska + Wild + Peru". */
export function setWords(s, cards) {
  return cards.map((c) => (c.startsWith("wild") ? "Wild" : s.names.get(c) || c)).join(" + ");
}
