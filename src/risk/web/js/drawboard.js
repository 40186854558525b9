// The board page's map: the game's board loaded once (board.js draws it), then each state drawn on it:
// owners and armies, what can be clicked now, the attack planned or waiting for its defence.

import { api } from "./api.js";
import { Board } from "./board.js";
import { $, slugify, toast } from "./ui.js";
import { useMissionCards } from "./words.js";
import { fogNow, myTurn } from "./gamestate.js";
import { gameId, store } from "./page.js";

let loading = null; // the board's request, asked once
let fitted = false; // the board was fitted to the screen once the panels had their size
let keptInView = null; // the territories last brought into view

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

/** The board as large as the screen allows, once the panels around it have their size. */
export function fitOnce() {
  if (fitted) return;
  fitted = true;
  store.state.board.fitScreen();
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
  keepInView(arrow ? [arrow.from, arrow.to] : selected ? [selected] : v.phase === "occupy" && v.occupy ? [slugify(v.occupy.from), slugify(v.occupy.to)] : []);
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

/** The territories being acted on stay on screen, however the panels around the map grow. */
function keepInView(slugs) {
  const key = slugs.join(" ");
  if (key === keptInView) return;
  keptInView = key;
  store.state.board.focus(slugs);
}
