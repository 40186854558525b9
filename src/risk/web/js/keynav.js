// Playing with the keyboard, the part that needs no page (keys.js wires it to the page): which
// territory an arrow key goes to, the next territory of a list, why Enter on a territory does nothing
// now, and the keys of the action panel's buttons. Pure: tests/js/keynav.test.js.

import { myTurn, territoryOf } from "./gamestate.js";

/** Each arrow's direction on the drawing (y grows downward). */
export const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

// An arrow's cone: up to 50 degrees either side of its direction, so that the four cones cover every
// direction (a neighbour near a diagonal is reached by either of the two arrows beside it); a
// neighbour up to 75 degrees aside is still taken before a territory that is not one (down from Alaska
// is Alberta, not Central America).
const CONE = Math.cos((50 * Math.PI) / 180);
const WIDE_CONE = Math.cos((75 * Math.PI) / 180);

/**
 * The territory an arrow key goes to from `from`: the nearest of its neighbours whose direction on
 * the drawing is within the arrow's cone, straight ahead counting as nearer than aside (else within
 * its wide cone); if none, the nearest territory of the board in that cone (so an island with one
 * link, or a territory no link leads to in that direction, is still reached); null at the board's edge.
 *
 * board: {places: Map slug -> {x, y}, neighbours: Map slug -> [slug], width}; `width`, the drawing's,
 * makes a link that crosses the map's left or right edge (Alaska-Kamchatka, drawn apart by more than
 * half the width) point across the edge, as its sea line does.
 */
export function nextInDirection(from, key, { places, neighbours, width = 0 }) {
  const direction = ARROWS[key];
  const here = places.get(from);
  if (!direction || !here) return null;
  const nearest = (slugs, acrossTheEdge, cone = CONE) => {
    let best = null;
    let bestScore = Infinity;
    for (const slug of slugs) {
      const there = places.get(slug);
      if (slug === from || !there) continue;
      let dx = there.x - here.x;
      const dy = there.y - here.y;
      if (acrossTheEdge && width && Math.abs(dx) > width / 2) dx -= Math.sign(dx) * width;
      const distance = Math.hypot(dx, dy);
      if (!distance) continue;
      const along = (dx * direction[0] + dy * direction[1]) / distance; // the cosine of the angle
      if (along < cone) continue;
      const score = distance * (2 - along);
      if (score < bestScore) {
        best = slug;
        bestScore = score;
      }
    }
    return best;
  };
  const linked = neighbours.get(from) || [];
  return nearest(linked, true) || nearest(linked, true, WIDE_CONE) || nearest(places.keys(), false);
}

/** The slug after `current` in `list` (`step` -1: before it), round the end; the first (the last)
 * when `current` is not in it; null for an empty list. */
export function nextOf(list, current, step = 1) {
  if (!list.length) return null;
  const at = list.indexOf(current);
  if (at < 0) return step > 0 ? list[0] : list[list.length - 1];
  return list[(at + step + list.length) % list.length];
}

/** The territories a click may act on now (input.js's onTerritory): null when it would act on
 * `slug`, else why not, in words for the player who pressed Enter on it. */
export function whyNot(s, slug) {
  const name = s.names.get(slug) || slug;
  if (s.seat === null) return `${name}: you are watching this game; only its players move.`;
  if (s.msg.outcome) return "The game is over.";
  if (!myTurn(s)) return `${name}: wait for your turn.`;
  const L = s.legal;
  const row = territoryOf(s, slug);
  const yours = !!row && !row.hidden && row.owner === s.seat;
  if (L.claim.size) return L.claim.has(slug) ? null : `${name} is taken: claim one of the empty territories.`;
  if (L.capital.size) return L.capital.has(slug) ? null : `${name} cannot be your headquarters: choose one of your territories.`;
  if (L.place.size) return L.place.has(slug) ? null : `${name} is not yours: place your armies on your own territories.`;
  for (const kind of ["attack", "fortify"]) {
    const routes = L[kind];
    if (!routes.size) continue;
    const sel = s.selection && s.selection.kind === kind ? s.selection : null;
    if (routes.has(slug) || [...routes.values()].some((targets) => targets.has(slug))) return null;
    if (sel && routes.get(sel.from).has(slug)) return null;
    const from = sel ? s.names.get(sel.from) : null;
    if (kind === "attack") {
      if (yours) return `${name} is yours and cannot attack: it needs 2 armies or more and an enemy next to it.`;
      return from ? `${name} is not next to ${from}.` : `${name}: none of your territories next to it can attack it.`;
    }
    if (!yours) return `${name} is not yours: armies move between your own territories.`;
    return from ? `${name} cannot be reached from ${from}.` : `${name}: no armies can move to it or from it now.`;
  }
  if (L.move) return "First choose how many armies move in (+ or −), then M to move them.";
  if (L.defend) return "Choose your defence dice first (1, 2 or 3).";
  if (L.trade.length) return "Trade a set of cards first (T trades the best set).";
  return "Nothing on the map to choose now: the buttons under the prompt say what you can do.";
}

/**
 * The keys of the action panel's buttons, by the button's id: a letter is the first of the button's
 * label ("Roll 3 dice", "Blitz", "Move 5 armies", "End turn"), a digit its number (dice, armies per
 * click). Only one of the buttons a key names shows at a time.
 */
export const BUTTON_KEYS = [
  ["r", "roll"],
  ["b", "blitz"],
  ["u", "attack-until"],
  ["m", "move-confirm"],
  ["+", "move-more"],
  ["-", "move-less"],
  ["e", "end-phase"],
  ["t", "trade-best"],
  ["h", "confirm-capital"],
  ["a", "place-all"],
  ["1", "place-1"],
  ["5", "place-5"],
  ["1", "dice-1"],
  ["2", "dice-2"],
  ["3", "dice-3"],
  ["1", "defend-1"],
  ["2", "defend-2"],
  ["3", "defend-3"],
];

/** The ids of the buttons a key presses, in BUTTON_KEYS's order ("=" is "+" without Shift). */
export function buttonsFor(key) {
  const k = key === "=" ? "+" : key === "−" ? "-" : key.length === 1 ? key.toLowerCase() : key;
  return BUTTON_KEYS.filter(([bound]) => bound === k).map(([, id]) => id);
}

/** The key of a button, by its id, or null. */
export function keyOf(id) {
  const found = BUTTON_KEYS.find(([, bound]) => bound === id);
  return found ? found[0] : null;
}

/** The keys help (?): [keys, what they do]. */
export const KEY_HELP = [
  ["← ↑ → ↓", "Move to the neighbouring territory that way (the card shows its owner and armies)"],
  ["Enter or Space", "Do what a click on the territory does (Shift+Enter places all your armies there)"],
  ["n, Shift+N", "Next, previous territory the move allows"],
  ["y, Shift+Y", "Next, previous of your territories"],
  ["Tab", "The territories the move allows, then the buttons"],
  ["r", "Roll the dice of the attack chosen"],
  ["b", "Blitz: attack until it falls or you cannot go on"],
  ["u", "Attack until the number of armies left in “Stop at”"],
  ["1 2 3", "Dice to attack or to defend with"],
  ["1 5 a", "Armies per click when placing: 1, 5 or all"],
  ["+ −", "One more, one fewer army to move"],
  ["m", "Move the armies chosen (after a conquest, or to fortify)"],
  ["t", "Trade your best set of cards"],
  ["h", "Make the chosen territory your headquarters"],
  ["e", "End the attack, end the turn"],
  ["Esc", "Let go of the chosen territory; stop a blitz you watch; close this list"],
  ["Ctrl+Z", "Take back your last move, when the game allows it"],
  ["?", "Show or hide this list"],
];
