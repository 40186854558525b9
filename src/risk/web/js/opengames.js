// The lobby's "Open seats" (docs/web.md, "Open games"): the public games waiting for players, each
// with its game, rulebook, board, seats taken, turn clock and whether it is rated, and the filters over
// them: game, rulebook, board, players, clock, rated only. The filters go to the server (GET
// /api/games applies them before its cap of 100 games, so an old open game is still found) and stay
// in the page's address (/?edition=2008&clock=days), so a reload or a link keeps them.

import { api } from "./api.js";
import { durationWords } from "./clock.js";
import { el, clear, $, GAME_NAMES, parseRules } from "./ui.js";

const RULEBOOKS = ["1993", "2003", "2008"];
const MOST_PLAYERS = 10; // the largest boards' most (docs/boards.md)
const PACES = { live: "Live: no clock or under an hour a turn", days: "Days: an hour or more a turn" };
// GameFilter.board (risk.server.storage) for every board given as JSON: uploaded or generated.
const OTHER_BOARD = "other";
// Each filter: its word in the page's address, its field, and its GET /api/games parameter.
const FILTERS = [
  { key: "game", id: "open-family", param: "game" },
  { key: "edition", id: "open-edition", param: "edition" },
  { key: "board", id: "open-board", param: "board" },
  { key: "players", id: "open-players", param: "players" },
  { key: "clock", id: "open-clock", param: "pace" },
  { key: "rated", id: "open-rated", param: "rated" },
];

const O = {
  filters: {},
  boards: {}, // a shipped board's name -> its short title
  ready: null, // resolves once the board filter has its choices
  onChange: () => {},
};

// -- pure: the filters, the address and the server's query ------------------------------------------
/** The filters an address carries (`location.search`): only words it knows, in values that can be. */
export function filtersFromQuery(search) {
  const params = new URLSearchParams(search);
  const out = {};
  const word = (key, ok) => {
    const value = params.get(key);
    if (value && ok(value)) out[key] = value;
  };
  word("game", (v) => v in GAME_NAMES);
  word("edition", (v) => RULEBOOKS.includes(v));
  word("board", (v) => /^[a-z0-9][a-z0-9_-]{0,63}$/.test(v));
  word("players", (v) => /^\d+$/.test(v) && Number(v) >= 2 && Number(v) <= MOST_PLAYERS);
  word("clock", (v) => v in PACES);
  if (["1", "true"].includes(params.get("rated"))) out.rated = true;
  return out;
}

/** The address's query with these filters in it (its other words kept): "" when there are none. */
export function queryWithFilters(search, filters) {
  const params = new URLSearchParams(search);
  for (const { key } of FILTERS) {
    if (filters[key]) params.set(key, filters[key] === true ? "1" : filters[key]);
    else params.delete(key);
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** GET /api/games's parameters for these filters. */
export function serverQuery(filters) {
  const query = {};
  for (const { key, param } of FILTERS) if (filters[key]) query[param] = filters[key] === true ? "true" : filters[key];
  return query;
}

export function anyFilter(filters) {
  return FILTERS.some(({ key }) => filters[key]);
}

// -- pure: an open game in words ------------------------------------------------------------------------
/** A game's turn clock: "3 minutes a turn", "1 day a turn", "No clock". */
export function turnClockWords(turnTime) {
  return turnTime > 0 ? `${durationWords(turnTime)} a turn` : "No clock";
}

/** "2 of 4 seats taken". */
export function seatsTakenWords(seats) {
  return `${seats.filter((s) => !s.open).length} of ${seats.length} seats taken`;
}

/** The board: a shipped board's short title, or a board given as JSON by its name. */
export function boardWords(game, titles = {}) {
  if (game.board_sha256) return `${game.board} (uploaded or generated)`;
  return titles[game.board] || game.board.charAt(0).toUpperCase() + game.board.slice(1);
}

/** A shipped board's title, short enough for a list: "Classic world", "The Crossroads", "Pangaea". */
export function shortBoardTitle(board) {
  if (board.name === "classic") return "Classic world";
  return (board.title || board.name).split(/[:(]/)[0].trim() || board.name;
}

/** What an open game's line says beside its title: rulebook, board, seats, clock, rated or not. */
export function openFactWords(game, titles = {}) {
  const { edition } = parseRules(game.rules);
  return [
    ["Rulebook", edition],
    ["Board", boardWords(game, titles)],
    ["Players", seatsTakenWords(game.seats)],
    ["Clock", turnClockWords((game.timer && game.timer.turn_time) || 0)],
    ["Rated", game.rated ? "Yes (people signed in, no bots)" : "No"],
  ];
}

// -- the page -----------------------------------------------------------------------------------------
/** Fill the filters, take the address's, and call `onChange` whenever one changes. */
export function initOpenFilters(onChange) {
  O.onChange = onChange;
  O.filters = filtersFromQuery(location.search);
  const family = $("#open-family");
  for (const [value, text] of Object.entries(GAME_NAMES)) family.append(el("option", { value, text }));
  for (const edition of RULEBOOKS) $("#open-edition").append(el("option", { value: edition, text: `${edition} rulebook` }));
  for (let n = 2; n <= MOST_PLAYERS; n++) $("#open-players").append(el("option", { value: String(n), text: `${n} players` }));
  for (const [value, text] of Object.entries(PACES)) $("#open-clock").append(el("option", { value, text }));
  O.ready = fillBoards();
  showFilters();
  for (const { key, id } of FILTERS) {
    const field = $(`#${id}`);
    field.addEventListener("change", () => {
      const value = field.type === "checkbox" ? field.checked : field.value;
      if (value) O.filters[key] = value;
      else delete O.filters[key];
      changed();
    });
  }
  $("#open-clear").addEventListener("click", clearFilters);
}

async function fillBoards() {
  const select = $("#open-board");
  try {
    for (const board of (await api.boards()).boards) O.boards[board.name] = shortBoardTitle(board);
  } catch {
    // No shipped board to choose: the filter offers the boards of one's own only.
  }
  for (const [value, text] of Object.entries(O.boards)) select.append(el("option", { value, text }));
  select.append(el("option", { value: OTHER_BOARD, text: "Uploaded or generated" }));
  if (O.filters.board && !(O.filters.board in O.boards) && O.filters.board !== OTHER_BOARD) delete O.filters.board;
  showFilters();
}

function showFilters() {
  for (const { key, id } of FILTERS) {
    const field = $(`#${id}`);
    if (field.type === "checkbox") field.checked = !!O.filters[key];
    else field.value = O.filters[key] || "";
  }
  $("#open-clear").hidden = !anyFilter(O.filters);
}

function changed() {
  history.replaceState(null, "", location.pathname + queryWithFilters(location.search, O.filters) + location.hash);
  showFilters();
  O.onChange();
}

function clearFilters() {
  O.filters = {};
  changed();
  $("#open-family").focus();
}

/** The open games the filters keep: {games, hidden}, hidden: whether open games exist that they hide. */
export async function openGames() {
  await O.ready;
  const filters = { ...O.filters };
  const open = (list) => list.filter((g) => g.status === "waiting" && g.seats.some((s) => s.open));
  const games = open((await api.games("waiting", serverQuery(filters))).games);
  if (games.length || !anyFilter(filters)) return { games, hidden: false };
  return { games, hidden: open((await api.games("waiting")).games).length > 0 };
}

/** An open game's facts, one short line each: what a player wants to know before taking a seat. */
export function openFacts(game) {
  const list = el("ul", { class: "gi-facts" });
  for (const [name, words] of openFactWords(game, O.boards)) {
    list.append(el("li", { class: `fact-${name.toLowerCase()}` }, el("span", { class: "fact-name", text: `${name}: ` }), words));
  }
  return list;
}

/** After the list is drawn: when the filters hide every open game (`hidden`), say so, with a way back
 * to all of them (which stands in for the filters' own "Clear filters" meanwhile). */
export function showFilteredOut(box, hidden) {
  $("#open-clear").hidden = hidden || !anyFilter(O.filters);
  if (!hidden) return;
  const button = el("button", { type: "button", class: "btn btn-small", id: "open-clear-all", text: "Clear the filters" });
  button.addEventListener("click", clearFilters);
  clear(box).append(el("li", { class: "empty filtered-out" }, "No open seats match these filters. ", button));
}
