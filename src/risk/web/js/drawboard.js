// The board page's map: the game's board loaded once (board.js draws it), then each state drawn on it:
// owners and armies, what can be clicked now, the attack planned or waiting for its defence.

import { api } from "./api.js";
import { Board } from "./board.js";
import { $, slugify, toast } from "./ui.js";
import { useMissionCards } from "./words.js";
import { fogNow, myTurn, territoryOf } from "./gamestate.js";
import { MUST } from "./viewframe.js";
import { gameId, store } from "./page.js";

let loading = null; // the board's request, asked once
let fitted = false; // the page's own view was chosen once the panels had their size
let lookedFor = null; // the step the map last looked for (stepKey)

/** The game's own board (shipped, uploaded or generated), drawn once; `handlers`: Board's onTerritory, onHover. */
export function loadBoard(handlers) {
  loading = loading || drawTheBoard(handlers);
  return loading;
}

async function drawTheBoard(handlers) {
  let data;
  try {
    data = await api.gameBoard(gameId);
  } catch (error) {
    toast(`The board could not be loaded: ${error.message}`, "error", 0);
    return;
  }
  useMissionCards(data.mission_cards); // this board's own Mission RISK cards
  const board = new Board($("#board"), data, handlers);
  // Names on the map unless turned off: the board shows them as the zoom makes room.
  board.setNames(localStorage.getItem("risk.names") !== "off");
  $("#toggle-names").setAttribute("aria-pressed", String(board.names));
  store.boardLoaded(board, data);
}

/** The page's own view of the map (board.js fitPage), once the panels around it have their size:
 * framing what the step needs, or, while others play, your own territories. */
export function fitOnce() {
  if (fitted) return;
  fitted = true;
  const board = store.state.board;
  board.fitPage();
  if (!board.keep) board.look(home(store.state), { now: true });
}

export function drawBoard(colours) {
  const s = store.state;
  const v = s.view;
  const L = s.legal;
  const sel = s.selection;
  let sources = new Set();
  let targets = new Set();
  let arrow = null;
  if (myTurn(s)) {
    if (L.claim.size) sources = new Set(L.claim);
    else if (L.capital.size) sources = new Set(L.capital);
    else if (L.place.size) sources = new Set(L.place.keys());
    else if (sel && (sel.kind === "attack" || sel.kind === "fortify")) {
      targets = new Set(L[sel.kind].get(sel.from).keys());
      sources = new Set(L[sel.kind].keys());
      if (sel.to) arrow = { from: sel.from, to: sel.to, kind: sel.kind };
    } else if (L.attack.size) sources = new Set(L.attack.keys());
    else if (L.fortify.size) sources = new Set(L.fortify.keys());
  }
  const capitals = new Map();
  (v.capitals || []).forEach((name, seat) => {
    if (name) capitals.set(slugify(name), seat);
  });
  let battle = null;
  let selected = sel ? sel.from : null;
  if (v.phase === "defend" && v.attack) {
    // The attack waiting for its defence: both ends outlined, an arrow between them.
    arrow = { from: slugify(v.attack.from), to: slugify(v.attack.to), kind: "attack" };
    selected = arrow.from;
    targets = new Set([arrow.to]);
  } else if (v.last_battle && !arrow) battle = { from: slugify(v.last_battle.from), to: slugify(v.last_battle.to) };
  lookFor(s, sources, targets, arrow);
  $("#show-mine").hidden = s.seat === null || s.seat === undefined;
  s.board.update({
    territories: v.territories,
    colours,
    players: v.players,
    mine: s.seat,
    selected,
    sources,
    targets,
    capitals,
    arrow,
    battle,
    fog: fogNow(s),
    turn: v.turn,
  });
}

/**
 * What the player's step needs on screen, each with a weight (viewframe.js): the map pans to it when
 * the step begins (your turn's placing, attacking, a territory chosen, a battle to defend), never while
 * others play, and never zooms by itself.
 */
function lookFor(s, sources, targets, arrow) {
  const v = s.view;
  const sel = s.selection;
  if (!myTurn(s)) return;
  // The setup's claims and placements are one step each, however many turns they take: the map does
  // not move under a finger between two claims.
  const setup = v.phase === "claim" || v.phase === "setup-place";
  const key = `${setup ? "setup" : v.turn}|${v.phase}|${sel ? `${sel.kind}:${sel.from}>${sel.to || ""}` : ""}`;
  if (key === lookedFor) return;
  lookedFor = key;
  store.state.board.look(wanted(s, sources, targets, arrow));
}

/** [{slug, weight}]: what the step in `s` (the player's own) needs on screen. */
export function wanted(s, sources, targets, arrow) {
  const v = s.view;
  const board = s.board;
  const out = [];
  if (arrow) out.push({ slug: arrow.from, weight: MUST }, { slug: arrow.to, weight: MUST });
  else if (v.phase === "occupy" && v.occupy) out.push({ slug: slugify(v.occupy.from), weight: MUST }, { slug: slugify(v.occupy.to), weight: MUST });
  else if (s.selection && s.selection.from) {
    out.push({ slug: s.selection.from, weight: MUST });
    for (const slug of targets) out.push({ slug, weight: 1 });
  } else {
    // Placing: your borders count most (where armies go); attacking: where from, and what.
    const owner = (slug) => (territoryOf(s, slug) || {}).owner;
    const facing = (slug) => (board.bySlug.get(slug) || { neighbors: [] }).neighbors.some((n) => owner(n) !== s.seat);
    const placing = s.legal.place.size > 0 || s.legal.claim.size > 0;
    for (const slug of sources) out.push({ slug, weight: placing ? (facing(slug) ? 3 : 1) : 2 });
    if (s.legal.attack.size && !placing) {
      const aims = new Set([...s.legal.attack.values()].flatMap((to) => [...to.keys()]));
      for (const slug of aims) out.push({ slug, weight: 1 });
    }
  }
  return out;
}

/** Your own territories (where the page first looks while others play). */
function home(s) {
  if (s.seat === null || s.seat === undefined) return [];
  return s.view.territories.filter((row) => row.owner === s.seat).map((row) => ({ slug: slugify(row.name), weight: 1 }));
}
