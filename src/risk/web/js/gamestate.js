// The board page's state (one store, store.js): what it holds, the named updates that change it, and
// the questions the page's modules ask of it. Pure: no DOM here, so Node's test runner checks it
// (tests/js/gamestate.test.js).

import { parseRules, slugify } from "./ui.js";
import { keepAttacker } from "./fastplay.js";

// Log lines shown, and held by a page open for long (the server sends a long game's newest 400).
export const LOG_KEEP = 400;
export const LOG_HELD = 1000;

/** The state of a page that has heard nothing from the server yet. */
export function initialState(token) {
  return {
    token, // the seat's private token (#token=...), null for a spectator
    socket: null, // the GameSocket (api.js)
    chat: null, // the chat tab (chat.js)
    msg: null, // the latest state message, as the server sent it
    view: null, // msg.view
    seat: null, // this page's seat, null for a spectator
    legal: null, // msg.legal, parsed (parseLegal)
    log: [],
    logBase: 0, // the place in the whole log of log[0]: the server sends a long game's newest lines
    logVersion: 0, // counts the times the log was replaced rather than added to (the list is redrawn)
    board: null, // the Board drawn (board.js)
    boardData: null, // GET /api/games/{id}/board
    names: new Map(), // slug -> territory name
    index: new Map(), // slug -> territory index
    elsewhere: false, // the seat was opened on another page, which plays it now
    selection: null, // {kind: "attack"|"fortify"|"capital", from, to}
    placeAmount: "1", // armies per click when placing: "1", "5" or "all"
    selectedCards: [],
    lastAttack: null, // {from, to}: the last attack sent, whose source stays selected (fastplay.js)
    attackDice: null, // {attack: "from>to", dice}: the dice chosen for the attack planned
    stopAt: 3, // "attack until N left"
    hover: null, // the territory under the pointer
    sliderMemory: new Map(), // "stateId|action" -> the armies chosen on the move slider
    setupCount: 1, // setup armies a click queues on one of your territories (seatprefs.js)
    gameOverDismissed: false, // "Look at the board" closed the game-over panel
  };
}

// -- the named updates ---------------------------------------------------------------------------
export const updates = {
  connected: (s, socket) => ({ socket, elsewhere: false }),
  chatOpened: (s, chat) => ({ chat }),
  setToken: (s, token) => (token === s.token ? null : { token }),
  boardLoaded: (s, board, data) => {
    const names = new Map();
    const index = new Map();
    for (const [i, t] of data.board.territories.entries()) {
      const slug = t.slug || slugify(t.name);
      names.set(slug, t.name);
      index.set(slug, i);
    }
    return { board, boardData: data, names, index };
  },
  /** A state message: the log merged, the legal actions parsed, choices the new state no longer allows
   * forgotten (and the last attacker kept selected, fastplay.js). `fresh`: the first after a hello. */
  receiveState: (s, msg, fresh) => {
    const next = { ...s, ...mergeLog(s, msg, fresh) };
    next.msg = msg;
    next.view = msg.view;
    next.seat = msg.seat === null || msg.seat === undefined ? null : msg.seat;
    next.legal = parseLegal(msg.legal || []);
    if (!msg.outcome) next.gameOverDismissed = false;
    if (s.msg && s.msg.state_id !== msg.state_id) {
      next.selection = prunedSelection(next.selection, next.legal);
      Object.assign(next, keepAttacker(next));
      next.selectedCards = next.selectedCards.filter((c) => (next.view.hand || []).some((h) => h.card === c));
    }
    return next;
  },
  /** The seat was opened on another page: nothing to act on here until "Play here". */
  playedElsewhere: () => ({ elsewhere: true, selection: null }),
  select: (s, selection) => ({ selection }),
  cancelSelection: () => ({ selection: null, lastAttack: null }),
  attackSent: (s, from, to) => ({ lastAttack: { from, to } }),
  setPlaceAmount: (s, placeAmount) => ({ placeAmount }),
  /** A card of the hand picked or put back; three at most (the oldest pick goes). */
  toggleCard: (s, card) => {
    const chosen = s.selectedCards.filter((c) => c !== card);
    if (chosen.length === s.selectedCards.length) chosen.push(card);
    return { selectedCards: chosen.slice(-3) };
  },
  setAttackDice: (s, attack, dice) => ({ attackDice: { attack, dice } }),
  setStopAt: (s, stopAt) => ({ stopAt: Math.max(1, Number(stopAt) || 1) }),
  hover: (s, hover) => ({ hover }),
  rememberSlider: (s, key, armies) => ({ sliderMemory: new Map(s.sliderMemory).set(key, armies) }),
  setSetupCount: (s, setupCount) => ({ setupCount }),
  dismissGameOver: () => ({ gameOverDismissed: true }),
};

/**
 * The log after a state message: its newest lines after hello, the new entries after an action, from
 * a place an undo cut it back to, or its newest lines again when this page fell far behind. Places
 * count from the start of the whole log; a message's lines always run from its log_start to the log's
 * end. Under fog a seat's places count its own lines; when the game ends the whole log comes
 * (log_reset). A page open for hours keeps the lines it may still show.
 */
export function mergeLog({ log, logBase, logVersion }, msg, fresh) {
  const end = logBase + log.length;
  if (fresh || msg.log_reset || msg.log_start < logBase || msg.log_start > end) {
    log = msg.log.slice();
    logBase = msg.log_start;
    logVersion += 1;
  } else if (msg.log_start === end) log = log.concat(msg.log);
  else {
    log = log.slice(0, msg.log_start - logBase).concat(msg.log);
    logVersion += 1;
  }
  if (log.length > LOG_HELD) {
    const drop = log.length - LOG_KEEP;
    log = log.slice(drop);
    logBase += drop;
  }
  return { log, logBase, logVersion };
}

/** The `legal` list by kind: territories to click, ranges for the controls, the rest as buttons. */
export function parseLegal(legal) {
  const L = {
    claim: new Set(),
    capital: new Set(),
    place: new Map(),
    attack: new Map(),
    fortify: new Map(),
    trade: [],
    defend: null,
    move: null,
    other: [],
    texts: [], // for the notation box's completion: a ranged entry gives "TEXT max" and "TEXT min"
    count: legal.length,
  };
  for (const entry of legal) {
    const text = entry.text;
    const w = text.split(" ");
    const range = entry.min !== undefined ? { min: entry.min, max: entry.max } : null;
    if (range) {
      L.texts.push(`${text} ${range.max}`);
      if (range.min !== range.max) L.texts.push(`${text} ${range.min}`);
    } else L.texts.push(text);
    if (w[0] === "claim" && w.length === 2) L.claim.add(w[1]);
    else if (w[0] === "capital" && w.length === 2) L.capital.add(w[1]);
    else if (w[0] === "place" && w.length === 2 && range) L.place.set(w[1], range);
    else if ((w[0] === "attack" || w[0] === "fortify") && w.length === 3 && range) {
      const m = L[w[0]];
      if (!m.has(w[1])) m.set(w[1], new Map());
      m.get(w[1]).set(w[2], range);
    } else if (w[0] === "trade") L.trade.push(w.slice(1));
    else if (w[0] === "defend" && range) L.defend = range;
    else if (w[0] === "move" && range) L.move = range;
    else L.other.push(entry);
  }
  return L;
}

/** The selection as far as the new legal actions still allow it (null: none of it). */
export function prunedSelection(sel, legal) {
  if (!sel) return null;
  if (sel.kind === "capital") return legal.capital.has(sel.from) ? sel : null;
  const map = sel.kind === "attack" ? legal.attack : sel.kind === "fortify" ? legal.fortify : null;
  if (!map || !map.has(sel.from)) return null;
  return sel.to && !map.get(sel.from).has(sel.to) ? { ...sel, to: null } : sel;
}

// -- questions asked of the state ------------------------------------------------------------------
/** This page's seat is to act now. */
export function myTurn(s) {
  return s.seat !== null && !s.elsewhere && !!s.msg && !!s.legal && s.legal.count > 0;
}

/** A territory's row of the view, by slug (null when the board has no such territory). */
export function territoryOf(s, slug) {
  const i = s.index.get(slug);
  return i === undefined ? null : s.view.territories[i];
}

/** The armies this seat can fight with on a territory (its own units in Team RISK's shared lands). */
export function forceOf(s, row) {
  if (!row) return 0;
  if (Array.isArray(row.units) && s.seat !== null) return row.units[s.seat] || 0;
  return row.armies || 0; // none known out of sight (fog of war)
}

/** Fog of war hiding part of the board from this page now (the view's `fog`, false once the game is
 * over): "player" or "spectator" (the board's legend), else null. */
export function fogNow(s) {
  if (!s.view.fog || s.msg.outcome) return null;
  return s.seat === null ? "spectator" : "player";
}

/** The game is played under fog of war (its rules), whether or not this page sees through it. */
export function fogGame(s) {
  return parseRules(s.view.rules).options.fog === "on";
}

/** The dice for the attack from `from` to `to` within `range`: the player's choice while the same
 * attack goes on and the dice allow it, else the most. */
export function attackDice(s, from, to, range) {
  const chosen = s.attackDice;
  if (chosen && chosen.attack === `${from}>${to}` && chosen.dice >= range.min && chosen.dice <= range.max) return chosen.dice;
  return range.max;
}

/** Rounds as players count them (the server's "round"; 0 is the setup), not the engine's player-turns. */
export function roundText(msg) {
  return msg && msg.round ? `Round ${msg.round}` : "Setup";
}
