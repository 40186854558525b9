// The board page: /game/{id}#token=... (a seat) or /game/{id} (a spectator).
//
// Everything the player may do comes from the `legal` list of the latest state message. Every
// action goes over the websocket with the state id it was chosen at; one at a time is in flight,
// and the screen says so. State is applied at once: nothing here waits on an animation.

import { api, GameSocket, seats, seatLink } from "./api.js";
import { Board, turnsAgo } from "./board.js";
import {
  el, clear, $, slugify, seatColours, toast, armies as armiesWord, dice as diceWord, plural,
  dieFace, cardGlyph, describeRules, parseRules, NEUTRAL, copyText,
} from "./ui.js";
import { actionLabel, missionCard, PHASE_LABELS, useMissionCards } from "./words.js";
import {
  blitzLabel, blitzMessage, blitzResult, isUndoKey, keepAttacker, undoControl, undoWords, waitingBlitz,
} from "./fastplay.js";
import { secondsLeft, updateClock } from "./clock.js";
import { notifyTurn } from "./notify.js";
import { placeNotes } from "./notes.js";
import { decoratePlayers, movedBanner, renderSeatPanel } from "./seating.js";
import { Chat } from "./chat.js";
import { rematchBox } from "./rematch.js";
import { applyRemembered, placeCount, renderPrefs, setupControls } from "./seatprefs.js";
import { showBattle } from "./animate.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
// Log lines shown, and held by a page open for long (the server sends a long game's newest 400).
const LOG_KEEP = 400;
const LOG_HELD = 1000;

const S = {
  token: tokenFromHash(),
  msg: null,
  view: null,
  seat: null,
  legal: null,
  log: [],
  logBase: 0, // the place in the whole log of S.log[0]: the server sends a long game's newest lines
  board: null,
  boardName: null,
  names: new Map(), // slug -> territory name
  index: new Map(), // slug -> territory index
  selection: null, // {kind: "attack"|"fortify"|"capital", from, to}
  placeAmount: "1",
  selectedCards: [],
  lastAttack: null, // {from, to}: the last attack sent, whose source stays selected (fastplay.js)
  stopAt: 3,
  hover: null,
  odds: new Map(),
  socket: null,
  lastTurnSeen: null,
  gameOverShown: false,
  sliderMemory: new Map(),
  setupCount: 1, // setup armies a click queues on one of your territories (seatprefs.js)
};

function tokenFromHash() {
  const m = /(?:^|[#&])token=([^&]+)/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

// -- start ----------------------------------------------------------------------------------------
async function start() {
  wireStatic();
  S.chat = new Chat({
    send: (text, channel) => !!S.socket && S.socket.sendChat(text, channel),
    onNote: () => S.msg && S.msg.outcome && render(), // e.g. a rematch was asked for
  });
  if (!gameId) {
    setPhase("No game here.", "Go back to the lobby to create or join a game.");
    return;
  }
  connect();
}

function connect() {
  if (S.socket) S.socket.close();
  S.elsewhere = false; // the seat is played on this page again (see showConnection)
  S.socket = new GameSocket(gameId, S.token, {
    onState,
    onAck,
    onError,
    onStatus: showConnection,
    onPending: showPending,
    onChat: (msg) => S.chat.receive(msg),
    onChatError: (msg) => S.chat.refused(msg),
  });
  S.chat.reset();
  S.socket.connect();
}

async function ensureBoard(name) {
  if (S.board && S.boardName === name) return;
  S.boardName = name;
  let data;
  try {
    data = await api.gameBoard(gameId); // the game's own board: shipped, uploaded or generated
  } catch (error) {
    toast(`The board could not be loaded: ${error.message}`, "error", 0);
    return;
  }
  for (const [i, t] of data.board.territories.entries()) {
    const slug = t.slug || slugify(t.name);
    S.names.set(slug, t.name);
    S.index.set(slug, i);
  }
  S.boardData = data;
  useMissionCards(data.mission_cards); // this board's own Mission RISK cards
  S.board = new Board($("#board"), data, { onTerritory, onHover });
  // Names on the map unless turned off: the board shows them as the zoom makes room.
  const pref = localStorage.getItem("risk.names");
  S.board.setNames(pref !== "off");
  $("#toggle-names").setAttribute("aria-pressed", String(S.board.names));
}

// -- messages ---------------------------------------------------------------------------------------
let boardLoading = null;

async function onState(msg, fresh) {
  if (!S.board) {
    boardLoading = boardLoading || ensureBoard(msg.view.board);
    await boardLoading;
  }
  // The log: its newest lines after hello, the new entries after an action, from a place an undo cut
  // it back to, or its newest lines again when this page fell far behind. Places count from the
  // start of the whole log; a message's lines always run from its log_start to the log's end. Under
  // fog a seat's places count its own lines; when the game ends the whole log comes (log_reset).
  const end = S.logBase + S.log.length;
  if (fresh || msg.log_reset || msg.log_start < S.logBase || msg.log_start > end) {
    S.log = msg.log.slice();
    S.logBase = msg.log_start;
    S.logReset = true;
  } else if (msg.log_start === end) S.log.push(...msg.log);
  else {
    S.log = S.log.slice(0, msg.log_start - S.logBase).concat(msg.log);
    S.logReset = true;
  }
  if (S.log.length > LOG_HELD) {
    // A page open for hours: keep the lines it may still show.
    const drop = S.log.length - LOG_KEEP;
    S.log = S.log.slice(drop);
    S.logBase += drop;
  }
  const previous = S.msg;
  S.msg = msg;
  S.view = msg.view;
  S.seat = msg.seat === null || msg.seat === undefined ? null : msg.seat;
  S.legal = parseLegal(msg.legal || []);
  if (S.seat !== null && S.token) {
    const seatInfo = (msg.seats || [])[S.seat];
    seats.remember({ game: gameId, seat: S.seat, name: seatInfo ? seatInfo.name : "", token: S.token, mine: true, rules: msg.view.rules });
  }
  // Forget choices the new state no longer allows.
  if (previous && previous.state_id !== msg.state_id) {
    pruneSelection();
    keepAttacker(S);
    S.selectedCards = S.selectedCards.filter((c) => (S.view.hand || []).some((h) => h.card === c));
  }
  render();
  if (!S.fitted) {
    // The board as large as the screen allows, once the panels around it have their size.
    S.fitted = true;
    S.board.fitScreen();
  }
  // A battle that came with this state, drawn on the board at the seat's pace (animate.js): never
  // waited for. A page that just opened shows the board as it is.
  const battles = fresh || !previous ? 0 : msg.log.filter((line) => line.kind === "battle").length;
  if (battles && msg.view.last_battle) showBattle(S.board, msg.view.last_battle, (msg.prefs && msg.prefs.pace) || "watch", battles);
  if (S.token) applyRemembered({ msg, gameId, token: S.token });
  // The state shown, for tests and tools that drive the page (data-state-id on <body>).
  document.body.dataset.stateId = String(msg.state_id);
}

function onError(msg, pending) {
  const text = errorText(msg);
  if (msg.code === "bad-token" && !S.socket.helloDone) {
    toast(`${msg.message}. Showing the game as a spectator.`, "error", 9000);
    S.token = null;
    history.replaceState(null, "", location.pathname);
    setTimeout(connect, 50);
    return;
  }
  if (msg.code === "no-spectators") {
    setPhase("This game does not allow spectators.", "Only its players can open it, with their private links.");
    showMessage(msg.message, "error");
    return;
  }
  if (msg.code === "not-found") {
    setPhase("This game does not exist.", msg.message);
    showMessage(msg.message, "error");
    return;
  }
  if (pending && pending.resent && ["stale", "illegal", "not-your-turn", "game-over"].includes(msg.code)) {
    // Our move was sent again after a reconnection and refused: most likely it had been taken
    // before the connection dropped (or the game moved on). The board is up to date either way.
    const taken = S.msg && S.msg.state_id > pending.stateId;
    showMessage(
      taken
        ? `Reconnected. Your move “${pending.action}” had already reached the server: the board is up to date.`
        : `Reconnected, but “${pending.action}” was refused: ${msg.message}`,
      taken ? "info" : "error",
    );
  } else {
    showMessage(text, "error");
  }
}

function errorText(msg) {
  switch (msg.code) {
    case "stale":
      return "The game moved on: look at the board and try again.";
    case "not-your-turn":
      return `Not your turn: ${msg.message}`;
    case "game-over":
      return "The game is over.";
    case "waiting":
      return "The game starts when every open seat is taken.";
    case "unavailable":
      // The store failed: the server's words say so and to try again ("the move could not be stored:
      // try again in a moment"); if it was stored after all, the board shows it once the store answers.
      return `${msg.message.charAt(0).toUpperCase()}${msg.message.slice(1)}.`;
    default:
      return msg.message || msg.code;
  }
}

// -- legal actions ---------------------------------------------------------------------------------
function parseLegal(legal) {
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
    texts: [],
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

// Rounds as players count them (the server's "round"; 0 is the setup), not the engine's player-turns.
function roundText(msg) {
  return msg && msg.round ? `Round ${msg.round}` : "Setup";
}

function myTurn() {
  return S.seat !== null && !S.elsewhere && S.msg && S.legal && S.legal.count > 0;
}

function pruneSelection() {
  const sel = S.selection;
  if (!sel) return;
  const map = sel.kind === "attack" ? S.legal.attack : sel.kind === "fortify" ? S.legal.fortify : null;
  if (sel.kind === "capital") {
    if (!S.legal.capital.has(sel.from)) S.selection = null;
    return;
  }
  if (!map || !map.has(sel.from)) {
    S.selection = null;
    return;
  }
  if (sel.to && !map.get(sel.from).has(sel.to)) sel.to = null;
}

// -- sending ----------------------------------------------------------------------------------------
function send(action) {
  if (action.startsWith("attack ")) {
    const [, from, to] = action.split(" ");
    S.lastAttack = { from, to };
  }
  return sendMessage({ type: "action", action }, action);
}

function sendMessage(message, label) {
  if (!S.msg) return false;
  if (S.seat === null) {
    showMessage("You are watching: open your seat's private link to play.", "warn");
    return false;
  }
  if (S.socket.busy) {
    showMessage("Wait: your last move has not been answered yet.", "warn");
    return false;
  }
  if (S.socket.status !== "open") {
    showMessage("Not connected: the move was not sent. It can be made again once the connection is back.", "error");
    return false;
  }
  const ok = S.socket.sendMessage(message, S.msg.state_id, label);
  if (ok) showMessage("");
  return ok;
}

function onAck(msg) {
  const blitz = msg.blitz ? blitzResult(msg) : null;
  if (blitz) showMessage(blitz, "info");
}

// -- fast play: blitz and "until N left" settled by the server, undo ---------------------------------
function sendBlitz(from, to, until) {
  S.lastAttack = { from, to };
  return sendMessage(blitzMessage(from, to, until), blitzLabel(S.names, from, to, until));
}

function stopBlitz() {
  if (sendMessage({ type: "blitz-stop" }, "Stop the blitz")) showMessage("The blitz stops after this roll.", "info");
}

function sendUndo() {
  const undo = S.msg && S.msg.undo;
  if (!undo) {
    showMessage("Nothing to take back: only placements and moves that revealed nothing new can be.", "info");
    return;
  }
  sendMessage({ type: "undo" }, `Undo: ${undoWords(undo.last, S.names, S.view)}`);
}

function cancelSelection() {
  S.selection = null;
  S.lastAttack = null;
  render();
}

// A finger taps, a mouse clicks: the prompts say which (a phone's coarse pointer).
const TAPS = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
const CLICK = TAPS ? "tap" : "click";
const Click = TAPS ? "Tap" : "Click";

// -- board interaction ---------------------------------------------------------------------------
function onTerritory(slug, event, how = {}) {
  if (!S.msg) return;
  if (!slug) {
    if (how.touch) showHover(null);
    if (S.selection) cancelSelection();
    return;
  }
  showHover(slug, how.touch ? TOUCH_CARD_MS : 0);
  const own = territory(slug) && territory(slug).owner === S.seat;
  if (placeCount({ msg: S.msg, gameId, token: S.token }, slug, S.setupCount, own)) return;
  if (!myTurn()) return;
  const L = S.legal;
  if (L.claim.has(slug)) {
    send(`claim ${slug}`);
    return;
  }
  if (L.capital.size) {
    if (L.capital.has(slug)) {
      S.selection = { kind: "capital", from: slug };
      render();
    }
    return;
  }
  if (L.place.has(slug)) {
    const range = L.place.get(slug);
    let n = S.placeAmount === "all" || (event && event.shiftKey) ? range.max : Number(S.placeAmount) || 1;
    n = Math.max(range.min, Math.min(range.max, n));
    send(`place ${slug} ${n}`);
    return;
  }
  for (const kind of ["attack", "fortify"]) {
    const map = L[kind];
    if (!map.size) continue;
    const sel = S.selection && S.selection.kind === kind ? S.selection : null;
    const verb = kind === "attack" ? "attack" : "move armies to";
    if (sel && sel.from === slug) {
      // A second click on the chosen territory keeps it (players click again to be sure); Cancel,
      // Esc or a click on the sea lets go of it.
      showMessage(`${S.names.get(slug)} stays chosen: ${CLICK} where to ${verb}, or Cancel to let go.`, "info");
    } else if (sel && map.get(sel.from).has(slug)) {
      sel.to = slug;
    } else if (map.has(slug)) {
      // Another source: it keeps the target chosen when it can reach it too.
      const to = sel && sel.to && map.get(slug).has(sel.to) ? sel.to : null;
      S.selection = { kind, from: slug, to };
    } else {
      const sources = [...map.entries()].filter(([, targets]) => targets.has(slug)).map(([s]) => s);
      if (sources.length === 1) S.selection = { kind, from: sources[0], to: slug };
      else if (sources.length > 1) {
        // Several of yours reach it: the strongest is chosen, and the player is told how to change it.
        const from = sources.reduce((a, b) => (forceOf(territory(b)) > forceOf(territory(a)) ? b : a));
        S.selection = { kind, from, to: slug };
        showMessage(`From ${S.names.get(from)}, your strongest next to ${S.names.get(slug)}: ${CLICK} ${sources.filter((s) => s !== from).map((s) => S.names.get(s)).join(" or ")} to ${kind} from there.`, "info");
      } else S.selection = null;
    }
    render();
    return;
  }
}

function onHover(slug) {
  S.hover = slug;
  showHover(slug);
}

// A tapped territory's card closes by itself: a finger sends no pointerout to close it.
const TOUCH_CARD_MS = 2500;
let hoverTimer = null;

function showHover(slug, closeAfter = 0) {
  const box = $("#hover-info");
  clearTimeout(hoverTimer);
  if (closeAfter) hoverTimer = setTimeout(() => showHover(null), closeAfter);
  if (!slug || !S.view) {
    box.hidden = true;
    return;
  }
  const i = S.index.get(slug);
  const row = S.view.territories[i];
  const t = S.boardData.board.territories[i];
  const colours = seatColours(S.view);
  clear(box);
  if (row.hidden) {
    box.append(el("span", {}, el("strong", { text: t.name }), el("span", { class: "muted", text: ` · ${t.continent}` }), " · ", ...fogWords(row, colours)));
    box.hidden = false;
    return;
  }
  const owner = row.owner >= 0 ? S.view.players[row.owner] : null;
  box.append(
    el(
      "span",
      {},
      el("strong", { text: t.name }),
      el("span", { class: "muted", text: ` · ${t.continent}` }),
      " · ",
      owner ? el("span", { class: "swatch", style: { background: colours[row.owner].fill } }) : null,
      owner ? ` ${owner.name} · ${armiesWord(row.armies)}` : row.owner === -2 ? `tied, no one controls it · ${armiesWord(row.armies)}` : "unclaimed",
    ),
  );
  if (Array.isArray(row.units) && row.units.filter((n) => n > 0).length > 1) {
    box.append(
      el("br"),
      row.units
        .map((n, seat) => (n > 0 ? `${S.view.players[seat].name} ${n}` : null))
        .filter(Boolean)
        .join(" + "),
    );
  }
  box.hidden = false;
}

/** A land out of sight (fog of war): what this seat last saw of it, marked as old, or nothing. */
function fogWords(row, colours) {
  const seen = row.seen;
  if (!seen) return [el("span", { class: "fog-word", text: S.seat === null ? "hidden from spectators" : "out of sight, never seen" })];
  const when = turnsAgo(S.view.turn, seen.turn);
  const who = seen.owner >= 0 && S.view.players[seen.owner] ? S.view.players[seen.owner] : null;
  return [
    el("span", { class: "fog-word", text: "out of sight" }),
    el(
      "span",
      { class: "seen-old" },
      ` · last seen ${when}: `,
      who ? el("span", { class: "swatch swatch-old", style: { background: colours[seen.owner].fill } }) : null,
      who ? ` ${seen.owner === S.seat ? "yours" : who.name} · ${armiesWord(seen.armies)}` : "unclaimed",
    ),
  ];
}

// -- rendering --------------------------------------------------------------------------------------
function territory(slug) {
  const i = S.index.get(slug);
  return i === undefined ? null : S.view.territories[i];
}

function forceOf(row) {
  if (!row) return 0;
  if (Array.isArray(row.units) && S.seat !== null) return row.units[S.seat] || 0;
  return row.armies || 0; // none known out of sight (fog of war)
}

/** A territory's armies as this seat knows them now: "?" out of sight (fog of war). */
function armiesKnown(row) {
  return row && !row.hidden ? armiesWord(row.armies) : "? armies";
}

/** Fog of war hiding part of the board from this page now (the view's `fog`, false once the game is
 * over): "player" or "spectator" (the board's legend), else null. */
function fogNow() {
  if (!S.view.fog || S.msg.outcome) return null;
  return S.seat === null ? "spectator" : "player";
}

/** The game is played under fog of war (its rules), whether or not this page sees through it. */
function fogGame() {
  return parseRules(S.view.rules).options.fog === "on";
}

function render() {
  if (!S.msg || !S.board) return;
  const v = S.view;
  const colours = seatColours(v);
  renderBoard(colours);
  renderPlayers(colours);
  renderPrompt();
  renderControls();
  renderHand();
  renderGoal(colours);
  renderSheetToggle();
  renderLog(colours);
  renderDice(colours);
  renderDatalist();
  renderTitle();
  renderGameOver(colours);
  S.chat.update(S.seat, v);
  if (S.hover) showHover(S.hover);
  renderSeats();
}

// The turn clock, seats changing hands and server notes (clock.js, seating.js, notes.js).
function renderSeats() {
  const ctx = { msg: S.msg, seat: S.seat, token: S.token, gameId, rerender: render };
  updateClock(S.msg, S.view.players, S.seat);
  decoratePlayers(ctx);
  renderSeatPanel(ctx);
  renderPrefs(ctx);
  placeNotes(S.msg.notes, $("#log"));
  S.chat.takeNotes(S.msg.notes);
}

function renderBoard(colours) {
  const v = S.view;
  const L = S.legal;
  const sel = S.selection;
  let sources = new Set();
  let targets = new Set();
  let arrow = null;
  if (myTurn()) {
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
  }
  else if (v.last_battle && !arrow) battle = { from: slugify(v.last_battle.from), to: slugify(v.last_battle.to) };
  keepInView(arrow ? [arrow.from, arrow.to] : selected ? [selected] : v.phase === "occupy" && v.occupy ? [slugify(v.occupy.from), slugify(v.occupy.to)] : []);
  S.board.update({
    territories: v.territories,
    colours,
    players: v.players,
    mine: S.seat,
    selected,
    sources,
    targets,
    capitals,
    arrow,
    battle,
    fog: fogNow(),
    turn: v.turn,
  });
}

/** The territories being acted on stay on screen, however the panels around the map grow. */
function keepInView(slugs) {
  const key = slugs.join(" ");
  if (key === S.keptInView) return;
  S.keptInView = key;
  S.board.focus(slugs);
}

function seatKind(seatInfo, player) {
  if (player && player.neutral) return "neutral armies";
  if (!seatInfo) return "";
  if (seatInfo.kind === "bot") return `bot · ${seatInfo.bot_label || seatInfo.bot || ""}`;
  if (seatInfo.kind === "open") return "open seat";
  if (seatInfo.kind === "external") return "bot program";
  return "human";
}

function renderPlayers(colours) {
  const v = S.view;
  const box = clear($("#players"));
  const totals = v.players.map(() => 0);
  for (const row of v.territories) {
    if (Array.isArray(row.units)) row.units.forEach((n, seat) => (totals[seat] += n));
    else if (row.owner >= 0) totals[row.owner] += row.armies;
  }
  const table = el("div", { class: "players" });
  v.players.forEach((p, i) => {
    const seatInfo = (S.msg.seats || [])[i];
    // Fog of war: another player's count is not in the view (absent, not 0), nor their armies.
    const unknown = p.territories === undefined || p.territories === null;
    const acting = v.to_act === i && !S.msg.outcome;
    const current = v.current === i && !S.msg.outcome;
    const row = el(
      "div",
      {
        class: `player-row${acting ? " acting" : ""}${current ? " current" : ""}${p.alive ? "" : " out"}${S.seat === i ? " me" : ""}`,
        dataset: { seat: i },
      },
      el("span", { class: "player-swatch", style: { background: colours[i].swatch } }),
      el(
        "span",
        { class: "player-name" },
        el("span", { class: "pname", text: p.name }),
        S.seat === i ? el("span", { class: "tag tag-you", text: "you" }) : null,
        seatInfo && typeof seatInfo.connected === "boolean" && seatInfo.kind === "human"
          ? el("span", { class: `conn-dot ${seatInfo.connected ? "on" : "off"}`, title: seatInfo.connected ? "connected" : "not connected" })
          : null,
        el(
          "span",
          { class: "pkind" },
          seatKind(seatInfo, p),
          p.team !== null && p.team !== undefined ? ` · team ${p.team + 1}` : "",
          !p.alive
            ? el("span", { class: "player-state out", text: " · out" })
            : acting
              ? el("span", { class: "player-state", text: v.phase === "defend" ? " · defending" : seatInfo && seatInfo.kind === "bot" ? " · thinking…" : " · to play" })
              : null,
        ),
      ),
      el(
        "span",
        { class: "player-stats" },
        el("span", { class: `stat${unknown ? " stat-unknown" : ""}`, title: unknown ? "territories: hidden by the fog of war" : "territories", text: unknown ? "?" : String(p.territories) }),
        el("span", { class: `stat${unknown ? " stat-unknown" : ""}`, title: unknown ? "armies: hidden by the fog of war" : "armies", text: unknown ? "?" : String(totals[i]) }),
        el("span", { class: "stat", title: "cards", text: String(p.cards) }),
      ),
    );
    table.append(row);
  });
  box.append(
    el("div", { class: "players-head" }, el("span"), el("span", { text: "Player" }), el("span", { class: "player-stats" }, el("span", { text: "Lands" }), el("span", { text: "Armies" }), el("span", { text: "Cards" }))),
    table,
  );
  const info = [roundText(S.msg), describeRules(v.rules)];
  if (v.deck_size !== undefined) info.push(`${plural(v.deck_size, "card")} in the deck`);
  box.append(el("p", { class: "rules-line", text: info.join(" · ") }));
  if (fogGame()) box.append(el("p", { class: `fog-note${fogNow() ? "" : " lifted"}`, id: "fog-note", text: fogNote() }));
}

function fogNote() {
  if (S.msg.outcome) return "The fog has lifted: the whole board is shown.";
  if (!fogNow()) return "Fog of war: the players see only their own surroundings; spectators of this game see everything.";
  if (S.seat === null) return "Fog of war: spectators see no territory until the game ends.";
  return "Fog of war: you see your territories and the ones next to them. Dimmed lands are out of sight: their colour and count are what you last saw.";
}

function setPhase(headline, detail) {
  $("#phase").textContent = headline;
  $("#phase-detail").textContent = detail || "";
}

function renderPrompt() {
  const v = S.view;
  const msg = S.msg;
  const me = S.seat;
  const name = (i) => (v.players[i] ? v.players[i].name : "?");
  const actor = name(v.to_act);
  const mine = myTurn();
  const L = S.legal;
  $("#turn-info").textContent = msg.outcome ? "Game over" : `${roundText(msg)} · ${PHASE_LABELS[v.phase] || v.phase} · ${name(v.current)}`;
  if (S.elsewhere && !msg.outcome) return setPhase("Your seat is played on another tab or device", `${Click} “Play here” above to play on this page.`);
  if (msg.status === "waiting") {
    const open = (msg.seats || []).filter((s) => s.kind === "open").length;
    return setPhase(`Waiting for ${plural(open, "player")} to join`, "The game starts when every open seat is taken: friends can take them from the lobby.");
  }
  if (msg.outcome) {
    const w = msg.outcome.winner;
    return setPhase(w === null || w === undefined ? "The game is over." : `${name(w)} wins!`, msg.outcome.reason || "");
  }
  const deadline = msg.clock && msg.clock.for === "defence" && secondsLeft() !== null ? ` (${secondsLeft()} s left)` : "";
  switch (v.phase) {
    case "claim":
      return mine ? setPhase("Claim a territory", `${Click} an empty territory to claim it.`) : setPhase(`${actor} is claiming a territory`);
    case "setup-place": {
      if (!mine) return setPhase(`${actor} is placing an army`, "");
      const left = v.setup_armies ? v.setup_armies[me] : 0;
      const ownSpots = [...L.place.keys()].some((s) => territory(s).owner === me);
      return ownSpots
        ? setPhase(`Place an army (${left} left)`, `${Click} one of your territories.`)
        : setPhase("Place a neutral army", `${Click} a neutral territory to place one of its armies.`);
    }
    case "reinforce":
    case "elimination-trade": {
      if (!mine) return setPhase(`${actor} is reinforcing`, "");
      const mustTrade = L.trade.length && !L.place.size;
      if (mustTrade) return setPhase(v.phase === "elimination-trade" ? "Trade your cards" : "Trade a set of cards", `You hold ${plural((v.hand || []).length, "card")}: trade a set before placing.`);
      if (v.pending > 0) return setPhase(`Place ${armiesWord(v.pending)}`, L.trade.length ? `${Click} your territories, or trade a set of cards first.` : `${Click} your territories to place them.`);
      return setPhase("Reinforce", "");
    }
    case "attack":
      if (!mine) return setPhase(`${actor} is attacking`, "");
      return setPhase("Attack or end the attack", S.selection && S.selection.to ? "" : S.selection ? `Now ${CLICK} the territory to attack.` : `${Click} one of your territories to attack from.`);
    case "defend": {
      const a = v.attack;
      const what = a ? `${name(v.current)} attacks ${a.to} from ${a.from} with ${diceWord(a.dice)}` : "";
      const left = msg.clock ? secondsLeft() : null;
      if (mine) return setPhase(`Choose your defence dice: ${what}`, left !== null ? `${left} s left, then the most dice are rolled for you.` : "");
      if (msg.standing && v.to_act === me) return setPhase(`Defending: ${what}`, "Your dice are rolled by your defence setting, below.");
      return setPhase(`${actor} chooses defence dice`, what + deadline);
    }
    case "occupy": {
      const o = v.occupy;
      if (!mine) return setPhase(`${actor} moves into ${o ? o.to : "the conquered territory"}`);
      return setPhase(`${o ? o.to : "Territory"} conquered: move in`, o ? `From ${o.from}: ${o.min} to ${o.max} armies.` : "");
    }
    case "fortify":
      if (!mine) return setPhase(`${actor} is fortifying`);
      return setPhase(
        "Fortify, or end your turn",
        S.selection && S.selection.to ? "" : S.selection ? `Now ${CLICK} where to move the armies.` : `${Click} a territory to move armies from.`,
      );
    case "choose-capital":
      if (!mine) return setPhase(`${actor} is choosing a headquarters`, "Headquarters are revealed once all have chosen.");
      return setPhase("Choose your headquarters", `${Click} one of your territories. The others will not see it until all have chosen.`);
    case "turn-end":
      if (!mine) return setPhase(`${actor} is ending the turn`);
      return setPhase("End of turn", "Claim an end-of-turn mission, or end the turn.");
    case "adjust-dice":
      if (!mine) return setPhase(`${actor} looks at the dice`);
      return setPhase("Change the dice?", "Re-roll a die or call on your commander, or accept the dice.");
    case "other-turn": // fog of war: whose turn it is, never its step
      return setPhase(`${actor}'s turn`, "Under the fog you see only what happens within your sight.");
    case "ally-place":
      if (!mine) return setPhase(`${actor} reinforces an ally`);
      return setPhase(v.pending > 0 ? `Place ${armiesWord(v.pending)} for your ally` : "Place your ally's armies", `${Click} a territory of your ally.`);
    default:
      return setPhase(mine ? "Your move" : `${actor} to play`, PHASE_LABELS[v.phase] || v.phase);
  }
}

function button(label, attrs = {}, onClick) {
  const b = el("button", { type: "button", class: "btn", ...attrs, text: label });
  if (onClick) b.addEventListener("click", onClick);
  return b;
}

function renderControls() {
  const box = clear($("#controls"));
  const v = S.view;
  const L = S.legal;
  if (S.msg.outcome) {
    // The game-over panel's link, kept here for whoever closed the panel to look at the board.
    box.append(el("a", { class: "btn", href: `/game/${encodeURIComponent(gameId)}/summary`, id: "to-summary", text: "Charts, luck & replay" }));
  }
  if (S.seat === null) {
    box.append(el("p", { class: "muted", text: "You are watching this game." }));
    const stored = seats.forGame(gameId).find((s) => s.token);
    if (stored) box.append(button(`Play as ${stored.name || `seat ${stored.seat + 1}`}`, { class: "btn btn-primary", id: "take-seat" }, () => useSeat(stored)));
    return;
  }
  const quick = setupControls({ msg: S.msg, gameId, token: S.token }, S.setupCount, (n) => { S.setupCount = n; }, S.names);
  if (S.msg.outcome || !myTurn()) {
    if (quick) box.append(quick);
    if (!S.msg.outcome && v.phase === "defend" && v.attack) box.append(battleCard());
    const waiting = S.msg.outcome ? null : waitingBlitz(S, stopBlitz);
    if (waiting) box.append(waiting);
    return;
  }
  const used = new Set();
  // Trading (reinforce, elimination trade).
  if (L.trade.length) box.append(tradeControls());
  // Placing.
  if (L.place.size) {
    const max = Math.max(...[...L.place.values()].map((r) => r.max));
    if (max > 1) {
      const group = el("div", { class: "segmented", role: "radiogroup", "aria-label": TAPS ? "Armies per tap" : "Armies per click" });
      for (const [value, label] of [["1", "1"], ["5", "5"], ["all", `All ${max}`]]) {
        if (value === "5" && max <= 5) continue;
        const b = button(label, { id: `place-${value}`, role: "radio", "aria-checked": String(S.placeAmount === value), class: `seg${S.placeAmount === value ? " on" : ""}` }, () => {
          S.placeAmount = value;
          renderControls();
        });
        group.append(b);
      }
      box.append(el("div", { class: "row" }, el("span", { class: "label", text: TAPS ? "Per tap:" : "Per click:" }), group));
      box.append(el("p", { class: "hint hint-mouse", text: "Shift-click places all." }));
    }
  }
  // Headquarters.
  if (L.capital.size && S.selection && S.selection.kind === "capital") {
    const slug = S.selection.from;
    box.append(button(`Make ${S.names.get(slug)} your headquarters`, { class: "btn btn-primary", id: "confirm-capital" }, () => send(`capital ${slug}`)));
  }
  // Attacks.
  if (L.attack.size && S.selection && S.selection.kind === "attack" && S.selection.to) box.append(attackControls());
  // Fortify.
  if (L.fortify.size && S.selection && S.selection.kind === "fortify" && S.selection.to) {
    const range = L.fortify.get(S.selection.from).get(S.selection.to);
    box.append(
      moveControls(range, `fortify ${S.selection.from} ${S.selection.to}`, (n) => `Move ${armiesWord(n)} from ${S.names.get(S.selection.from)} to ${S.names.get(S.selection.to)}`),
      button("Cancel", { class: "btn btn-ghost", id: "cancel-selection" }, () => {
        S.selection = null;
        render();
      }),
    );
  }
  // Defence.
  if (L.defend) {
    if (v.attack) box.append(battleCard());
    const row = el("div", { class: "row dice-choice" });
    for (let n = L.defend.max; n >= L.defend.min; n--) {
      row.append(button(`Defend with ${diceWord(n)}`, { class: `btn ${n === L.defend.max ? "btn-primary" : ""}`, id: `defend-${n}` }, () => send(`defend ${n}`)));
    }
    box.append(row);
  }
  // Moving in.
  if (L.move) {
    const o = v.occupy || {};
    box.append(moveControls(L.move, "move", (n) => `Move ${armiesWord(n)} into ${o.to || "the territory"}`));
  }
  // End of phase, and every other action, as buttons in words.
  const rest = el("div", { class: "row wrap" });
  for (const entry of L.other) {
    const text = entry.text;
    if (used.has(text)) continue;
    used.add(text);
    const label = actionLabel(text, S.names, v.players, v.last_battle);
    if (entry.min !== undefined) {
      for (let n = entry.min; n <= entry.max; n++) {
        const full = `${text} ${n}`;
        rest.append(button(actionLabel(full, S.names, v.players, v.last_battle), { class: "btn", dataset: { action: full } }, () => send(full)));
      }
      continue;
    }
    const isEnd = text === "endattack" || text === "endturn";
    const attrs = isEnd ? { id: "end-phase", class: "btn btn-end" } : { class: "btn", dataset: { action: text } };
    if (text === "calloff") attrs.id = "calloff";
    if (text === "accept") attrs.id = "accept";
    rest.append(button(label, { ...attrs, dataset: { action: text } }, () => send(text)));
  }
  // A source chosen, no target yet: say so, and make it easy to let go of.
  if (S.selection && !S.selection.to && S.selection.kind !== "capital") {
    const verb = S.selection.kind === "attack" ? "Attacking from" : "Moving from";
    box.append(
      el(
        "div",
        { class: "row selection-row" },
        el("span", { class: "selection-what" }, `${verb} `, el("strong", { text: S.names.get(S.selection.from) })),
        button("Cancel", { class: "btn btn-ghost btn-small", id: "cancel-selection", title: "Choose another territory (Esc)" }, cancelSelection),
      ),
    );
  }
  if (rest.childNodes.length) box.append(rest);
  const undo = undoControl(S, sendUndo);
  if (undo) box.append(undo);
  if (quick) box.append(quick);
}

function battleCard() {
  const v = S.view;
  const a = v.attack;
  const from = territory(slugify(a.from));
  const to = territory(slugify(a.to));
  return el(
    "div",
    { class: "battle-card" },
    el("span", { class: "bc-side" }, el("strong", { text: a.from }), ` ${armiesKnown(from)}`),
    el("span", { class: "bc-vs", text: `⟶ ${diceWord(a.dice)} ⟶` }),
    el("span", { class: "bc-side" }, el("strong", { text: a.to }), ` ${armiesKnown(to)}`),
  );
}

function moveControls(range, head, label) {
  const key = `${S.msg.state_id}|${head}`;
  let value = S.sliderMemory.get(key);
  if (value === undefined || value < range.min || value > range.max) value = range.max;
  const wrap = el("div", { class: "move-controls" });
  const slider = el("input", {
    type: "range",
    id: "move-slider",
    min: range.min,
    max: range.max,
    step: 1,
    "aria-label": "Armies to move",
  });
  slider.value = String(value);
  if (range.min === range.max) slider.disabled = true;
  const out = el("output", { id: "move-count", for: "move-slider", text: String(value) });
  const confirm = button(label(value), { class: "btn btn-primary", id: "move-confirm" }, () => send(`${head} ${slider.value}`));
  const set = (n) => {
    const m = Math.max(range.min, Math.min(range.max, n));
    slider.value = String(m);
    out.textContent = String(m);
    confirm.textContent = label(m);
    S.sliderMemory.set(key, m);
  };
  slider.addEventListener("input", () => set(Number(slider.value)));
  const minus = button("−", { class: "btn btn-small", id: "move-less", "aria-label": "One fewer" }, () => set(Number(slider.value) - 1));
  const plus = button("+", { class: "btn btn-small", id: "move-more", "aria-label": "One more" }, () => set(Number(slider.value) + 1));
  wrap.append(
    el("div", { class: "row slider-row" }, el("span", { class: "range-end", text: String(range.min) }), minus, slider, plus, el("span", { class: "range-end", text: String(range.max) }), out),
    confirm,
  );
  return wrap;
}

function attackControls() {
  const sel = S.selection;
  const range = S.legal.attack.get(sel.from).get(sel.to);
  const from = territory(sel.from);
  const to = territory(sel.to);
  const wrap = el("div", { class: "attack-controls" });
  wrap.append(
    el(
      "div",
      { class: "battle-card" },
      el("span", { class: "bc-side" }, el("strong", { text: S.names.get(sel.from) }), ` ${forceOf(from)}`),
      el("span", { class: "bc-vs", text: "⟶" }),
      el("span", { class: "bc-side" }, el("strong", { text: S.names.get(sel.to) }), ` ${to.hidden ? "?" : to.armies}`),
    ),
  );
  // A new attack starts with the most dice; the choice is kept while the same attack goes on.
  const planned = `${sel.from}>${sel.to}`;
  if (S.attackDiceFor !== planned || S.attackDice === undefined || S.attackDice > range.max || S.attackDice < range.min) {
    S.attackDice = range.max;
    S.attackDiceFor = planned;
  }
  const diceRow = el("div", { class: "segmented", role: "radiogroup", "aria-label": "Dice" });
  for (let n = range.min; n <= range.max; n++) {
    diceRow.append(
      button(String(n), { class: `seg${S.attackDice === n ? " on" : ""}`, id: `dice-${n}`, role: "radio", "aria-checked": String(S.attackDice === n), title: diceWord(n) }, () => {
        S.attackDice = n;
        renderControls();
      }),
    );
  }
  wrap.append(
    el("div", { class: "row" }, el("span", { class: "label", text: "Dice:" }), diceRow),
    el(
      "div",
      { class: "row wrap" },
      button(`Roll ${diceWord(S.attackDice)}`, { class: "btn btn-primary", id: "roll" }, () => send(`attack ${sel.from} ${sel.to} ${S.attackDice}`)),
      button("Blitz", { class: "btn btn-attack", id: "blitz", title: "Attack until it falls or you cannot go on: the server rolls every battle at once" }, () => sendBlitz(sel.from, sel.to, 1)),
      button("Cancel", { class: "btn btn-ghost btn-small push-right", id: "cancel-selection", title: "Choose another attack (Esc)" }, cancelSelection),
    ),
  );
  const stop = el("input", { type: "number", id: "stop-at", min: 1, max: Math.max(1, forceOf(from)), "aria-label": "Stop when this many armies are left" });
  const maxStop = Math.max(1, forceOf(from) - 1);
  stop.value = String(Math.min(Math.max(1, S.stopAt), maxStop));
  const untilBtn = button(`Attack until ${stop.value} left`, { class: "btn", id: "attack-until" }, () => {
    S.stopAt = Math.max(1, Number(stop.value) || 1);
    sendBlitz(sel.from, sel.to, S.stopAt);
  });
  stop.addEventListener("input", () => {
    S.stopAt = Math.max(1, Number(stop.value) || 1);
    untilBtn.textContent = `Attack until ${S.stopAt} left`;
    showOdds(forceOf(from), to.armies || 0, S.stopAt);
  });
  wrap.append(el("div", { class: "row" }, el("label", { for: "stop-at", class: "label", text: "Stop at" }), stop, untilBtn));
  wrap.append(el("div", { id: "odds", class: "odds", "aria-live": "polite" }));
  queueMicrotask(() => showOdds(forceOf(from), to.armies || 0, Number(stop.value)));
  return wrap;
}

async function showOdds(strength, defenders, floor) {
  const box = document.getElementById("odds");
  if (!box) return;
  const attackers = strength - 1;
  if (attackers < 1 || defenders < 1) {
    box.textContent = "";
    return;
  }
  const stops = [...new Set([0, Math.max(0, Math.min(attackers, floor - 1))])];
  try {
    const results = await Promise.all(
      stops.map(async (stop) => {
        const key = `${attackers}/${defenders}/${stop}`;
        if (!S.odds.has(key)) S.odds.set(key, api.odds(Math.min(attackers, 1000), Math.min(defenders, 1000), stop));
        return S.odds.get(key);
      }),
    );
    if (!document.body.contains(box)) return;
    clear(box);
    const pct = (x) => (x >= 0.9995 ? ">99.9%" : x <= 0.0005 ? "<0.1%" : `${(x * 100).toFixed(x > 0.995 || x < 0.005 ? 1 : 0)}%`);
    const [blitz, until] = results;
    box.append(
      el("span", { class: "odds-label", text: "Chance to conquer: " }),
      el("strong", { class: oddsClass(blitz.win), text: pct(blitz.win) }),
      el("span", { class: "muted", text: ` blitz (you lose ~${blitz.expected_attacker_losses.toFixed(1)}, they ~${blitz.expected_defender_losses.toFixed(1)})` }),
    );
    if (until) box.append(el("br"), el("span", { class: "odds-label", text: `Stopping at ${floor} left: ` }), el("strong", { class: oddsClass(until.win), text: pct(until.win) }));
  } catch (error) {
    box.textContent = "";
    S.odds.clear();
  }
}

function oddsClass(p) {
  return p >= 0.7 ? "good" : p >= 0.4 ? "fair" : "poor";
}

// -- cards ------------------------------------------------------------------------------------------
/** The armies a set of the hand gives now, as the engine counts it (the view's set_values). */
function setValue(cards) {
  const v = S.view;
  const known = (v.set_values || []).find((s) => sameSet(s.cards, cards));
  return known ? known.value : v.next_set_value || 0;
}

function rulesOf(text) {
  const parts = String(text || "").split(/\s+/);
  const options = {};
  for (const p of parts.slice(1)) {
    const [k, val] = p.split("=");
    if (k !== "game") options[k] = val;
  }
  return { edition: parts[0], options };
}

function bonusPossible() {
  const { edition, options } = rulesOf(S.view.rules);
  const rule = options["territory-card-bonus"] || (edition === "2003" ? "none" : edition ? "on" : "none");
  return rule !== "none";
}

/** The cards of a set in the order to send: a card of a territory you hold first (the +2 goes there). */
function orderSet(cards) {
  const held = (c) => {
    const t = territory(c);
    return t && t.owner === S.seat;
  };
  const first = cards.find(held);
  return first ? [first, ...cards.filter((c) => c !== first)] : cards.slice();
}

/** The set to trade: the most armies, then a +2 on a territory held, then the fewest wilds spent. */
function bestSet(sets = S.legal.trade) {
  let best = null;
  for (const set of sets) {
    const value = setValue(set);
    const bonus = bonusPossible() && set.some((c) => territory(c) && territory(c).owner === S.seat) ? 2 : 0;
    const wilds = set.filter((c) => c.startsWith("wild")).length;
    const score = value * 10 + bonus * 5 - wilds * 3;
    if (!best || score > best.score) best = { set: orderSet(set), value, bonus, score };
  }
  return best;
}

function sameSet(a, b) {
  return a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" ");
}

function tradeControls() {
  const wrap = el("div", { class: "trade-controls" });
  const best = bestSet();
  if (best) {
    const words = best.set.map((c) => (c.startsWith("wild") ? "Wild" : S.names.get(c) || c)).join(" + ");
    wrap.append(
      el(
        "p",
        { class: "suggest" },
        "Best set: ",
        el("strong", { text: words }),
        ` = ${armiesWord(best.value)}`,
        best.bonus ? ` (+2 on ${S.names.get(best.set[0])})` : "",
      ),
      button(`Trade best set (+${best.value})`, { class: "btn btn-primary", id: "trade-best" }, () => send(`trade ${best.set.join(" ")}`)),
    );
  }
  const chosen = S.selectedCards;
  if (chosen.length === 3) {
    const legal = S.legal.trade.find((set) => sameSet(set, chosen));
    if (legal) {
      const ordered = orderSet(chosen);
      wrap.append(button(`Trade selected (+${setValue(chosen)})`, { class: "btn", id: "trade" }, () => send(`trade ${ordered.join(" ")}`)));
    } else wrap.append(el("p", { class: "warn-text", text: "These three cards are not a set." }));
  } else if (S.legal.trade.length > 1) {
    wrap.append(el("p", { class: "hint", text: "Or pick three cards in your hand." }));
  }
  return wrap;
}

function renderHand() {
  const v = S.view;
  const box = clear($("#hand"));
  const bestLine = clear($("#hand-best"));
  bestLine.hidden = true;
  const info = $("#hand-info");
  const hand = v.hand;
  const panel = $("#hand-panel");
  if (!hand) {
    panel.classList.add("spectating");
    info.textContent = "";
    box.append(el("p", { class: "muted", text: "Players' cards are secret." }));
    return;
  }
  panel.classList.remove("spectating");
  const next = v.next_set_value;
  info.textContent = next ? `next set: ${next}` : "fixed values";
  if (!hand.length) {
    box.append(el("p", { class: "muted", text: "No cards yet: conquer a territory in a turn to draw one." }));
    return;
  }
  const canTrade = myTurn() && S.legal.trade.length > 0;
  const tradable = new Set(S.legal.trade.flat());
  // The sets in the hand (the view's set_values, at any time of the game) and the best of them.
  const sets = (v.set_values || []).map((s) => s.cards);
  const inSet = new Set(sets.flat());
  const best = bestSet(canTrade ? S.legal.trade : sets);
  const inBest = new Set(best ? best.set : []);
  for (const card of hand) {
    const name = card.card.startsWith("wild") ? "Wild" : S.names.get(card.card) || card.card;
    const t = territory(card.card);
    const held = t && S.seat !== null && t.owner === S.seat;
    const chosen = S.selectedCards.includes(card.card);
    const node = el(
      canTrade ? "button" : "div",
      {
        class: `card card-${card.symbol}${chosen ? " chosen" : ""}${held ? " held" : ""}${canTrade && tradable.has(card.card) ? " tradable" : ""}${inSet.has(card.card) ? " in-set" : ""}${inBest.has(card.card) ? " in-best" : ""}`,
        dataset: { card: card.card },
        type: canTrade ? "button" : undefined,
        "aria-pressed": canTrade ? String(chosen) : undefined,
        title: held ? `${name}: you hold this territory` : name,
      },
      cardGlyph(card.symbol),
      el("span", { class: "card-name", text: name }),
      el("span", { class: "card-symbol", text: card.symbol }),
    );
    if (canTrade) {
      node.addEventListener("click", () => {
        const i = S.selectedCards.indexOf(card.card);
        if (i >= 0) S.selectedCards.splice(i, 1);
        else {
          S.selectedCards.push(card.card);
          if (S.selectedCards.length > 3) S.selectedCards.shift();
        }
        renderHand();
        renderControls();
      });
    }
    box.append(node);
  }
  if (best) {
    const words = best.set.map((c) => (c.startsWith("wild") ? "Wild" : S.names.get(c) || c)).join(" + ");
    bestLine.append(
      "Best set: ",
      el("strong", { text: `${words} = ${armiesWord(best.value)}` }),
      best.bonus ? ` (+2 on ${S.names.get(best.set[0])})` : "",
      canTrade ? "" : ": trade it when you reinforce.",
    );
    bestLine.hidden = false;
  }
}

/** The phone's sheet handle says what unfolds: the players, your cards and goal, the log. */
function renderSheetToggle() {
  const open = $("#sheet").classList.contains("open");
  const v = S.view;
  const cards = v && v.hand ? ` · ${plural(v.hand.length, "card")}` : "";
  const goal = $("#goal-panel").hidden ? "" : ` · ${$("#goal-title").textContent.toLowerCase()}`;
  $("#sheet-toggle-text").textContent = open ? "Fold away" : `Players${cards}${goal} · log${S.seat !== null ? " · settings" : ""}`;
}

// -- goals: missions and headquarters -------------------------------------------------------------
function renderGoal(colours) {
  const v = S.view;
  const panel = $("#goal-panel");
  const box = clear($("#goal"));
  let title = "";
  const goal = v.goal ? v.goal.kind : "world"; // how the game is won, never which game it is
  if (goal === "secret-mission" && v.missions) {
    title = "Secret mission";
    const mine = S.seat !== null ? v.missions[S.seat] : null;
    if (mine) box.append(el("p", { class: "mission-text", text: mine.text }));
    const others = v.missions.map((m, i) => (m && i !== S.seat ? [i, m] : null)).filter(Boolean);
    for (const [i, m] of others) box.append(el("p", { class: "mission-other" }, el("span", { class: "swatch", style: { background: colours[i].fill } }), ` ${v.players[i].name}: ${m.text}`));
    if (!mine && !others.length) box.append(el("p", { class: "muted", text: "Each player has a secret mission." }));
  } else if (goal === "headquarters") {
    title = "Headquarters";
    const list = el("ul", { class: "hq-list" });
    (v.capitals || []).forEach((c, i) => {
      if (v.players[i] && v.players[i].neutral) return;
      const t = c ? territory(slugify(c)) : null;
      const lost = t && !t.hidden && t.owner !== i; // out of sight: not known
      list.append(
        el(
          "li",
          {},
          el("span", { class: "swatch", style: { background: colours[i].fill } }),
          ` ${v.players[i].name}: `,
          c ? el("strong", { text: c }) : el("span", { class: "muted", text: "not revealed" }),
          lost ? el("span", { class: "tag tag-warn", text: `held by ${v.players[t.owner] ? v.players[t.owner].name : "no one"}` }) : null,
        ),
      );
    });
    box.append(list);
  } else if (goal === "mission-cards" && v.mission_cards) {
    title = "Missions";
    v.mission_cards.forEach((m, i) => {
      const own = i === S.seat;
      const head = el("p", { class: "mission-head" }, el("span", { class: "swatch", style: { background: colours[i].fill } }), ` ${v.players[i].name}: ${m.claimed.length} of 4 claimed`);
      box.append(head);
      const list = el("ul", { class: "mission-list" });
      for (const key of m.claimed) {
        const c = missionCard(key);
        list.append(el("li", { class: "claimed" }, el("strong", { text: `${c.rank}: ` }), c.text, el("span", { class: "tag tag-ok", text: "claimed" })));
      }
      if (m.unclaimed && (own || m.claimed.length >= 3)) {
        for (const key of m.unclaimed) {
          const c = missionCard(key);
          list.append(el("li", {}, el("strong", { text: `${c.rank}: ` }), c.text, c.timing ? el("span", { class: "muted", text: ` (${c.timing})` }) : null));
        }
      }
      box.append(list);
    });
  }
  panel.hidden = !title;
  $("#goal-title").textContent = title;
}

// -- the log and the dice ----------------------------------------------------------------------------
let renderedLog = 0; // the place in the whole log up to which lines are in the list

function renderLog(colours) {
  const box = $("#log");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 48;
  const end = S.logBase + S.log.length;
  let from = renderedLog;
  let restarted = false;
  if (S.logReset || renderedLog > end || renderedLog < S.logBase) {
    clear(box);
    from = S.logBase;
    restarted = true;
  }
  S.logReset = false;
  if (end - from > LOG_KEEP) {
    clear(box);
    from = end - LOG_KEEP;
    restarted = true;
  }
  for (let i = from; i < end; i++) {
    const entry = S.log[i - S.logBase];
    const seat = entry.seat;
    const colour = seat >= 0 && colours[seat] ? colours[seat].fill : null;
    const item = el(
      "li",
      { class: `log-entry log-${entry.kind || "info"}`, dataset: { kind: entry.kind || "", index: i } },
      colour ? el("span", { class: "log-dot", style: { background: colour } }) : el("span", { class: "log-dot none" }),
      el("span", { class: "log-text", text: entry.text }),
    );
    if (entry.kind === "battle" && entry.data && entry.data.attack) {
      const dice = el("span", { class: "log-dice", "aria-hidden": "true" });
      entry.data.attack.forEach((d) => dice.append(dieFace(d, "attack", 15)));
      dice.append(el("span", { class: "vs", text: "vs" }));
      (entry.data.defence || []).forEach((d) => dice.append(dieFace(d, "defence", 15)));
      item.append(dice);
    }
    box.append(item);
  }
  while (box.childElementCount > LOG_KEEP) box.firstElementChild.remove();
  renderedLog = end;
  if (atBottom || restarted) box.scrollTop = box.scrollHeight;
}

function renderDice(colours) {
  const v = S.view;
  const tray = $("#dice");
  const b = v.last_battle;
  if (!b) {
    tray.hidden = true;
    return;
  }
  clear(tray);
  // The attacker still holds the territory it attacked from.
  const fromRow = territory(slugify(b.from));
  const attacker = fromRow && !fromRow.hidden ? fromRow.owner : v.current;
  const pairs = Math.min(b.attacker_dice.length, b.defender_dice.length);
  const col = (dice, side) => {
    const c = el("div", { class: `dice-col dice-${side}` });
    dice.forEach((d, i) => {
      const face = dieFace(d, side, 30);
      if (i < pairs) {
        const won = side === "attack" ? d > b.defender_dice[i] : d >= b.attacker_dice[i];
        face.classList.add(won ? "won" : "lost");
      } else face.classList.add("idle");
      c.append(face);
    });
    return c;
  };
  tray.append(
    el(
      "div",
      { class: "dice-head" },
      el("span", { class: "swatch", style: { background: (colours[attacker] || NEUTRAL).fill } }),
      ` ${b.from} → ${b.to}`,
    ),
    el("div", { class: "dice-body" }, col(b.attacker_dice, "attack"), col(b.defender_dice, "defence")),
    el(
      "div",
      { class: "dice-foot" },
      b.conquered ? el("strong", { class: "good", text: "Conquered!" }) : `−${b.attacker_losses} / −${b.defender_losses}`,
    ),
  );
  tray.hidden = false;
}

function renderDatalist() {
  const list = clear($("#legal-list"));
  const texts = S.legal.texts.slice(0, 500);
  for (const t of texts) list.append(el("option", { value: t }));
  const input = $("#action-input");
  $("#action-form").hidden = !!S.msg.outcome; // nothing is left to play
  input.disabled = S.seat === null;
  input.placeholder = S.seat === null ? "Watching: actions are for players" : myTurn() ? `e.g. ${texts[0] || "endturn"}` : "Wait for your turn";
}

function renderTitle() {
  const v = S.view;
  const mine = myTurn();
  let title = "RISK";
  if (S.msg.outcome) title = "Game over · RISK";
  else if (mine) title = v.phase === "defend" ? "Defend! · RISK" : "Your turn · RISK";
  else if (v.players[v.to_act]) title = `${v.players[v.to_act].name} to play · RISK`;
  document.title = title;
  notifyTurn({ mine, defending: v.phase === "defend", gameId, title, detail: $("#phase").textContent });
  document.body.classList.toggle("my-turn", mine);
  if (mine && S.lastTurnSeen !== S.msg.state_id && document.hidden) flashTitle(title);
  S.lastTurnSeen = mine ? S.msg.state_id : null;
}

let flashTimer = null;
function flashTitle(title) {
  clearInterval(flashTimer);
  let on = true;
  flashTimer = setInterval(() => {
    if (!document.hidden) {
      clearInterval(flashTimer);
      renderTitle();
      return;
    }
    document.title = on ? "● " + title : title;
    on = !on;
  }, 1000);
}

function renderGameOver(colours) {
  const box = $("#gameover");
  const o = S.msg.outcome;
  if (!o) {
    box.hidden = true;
    S.gameOverShown = false;
    return;
  }
  if (S.gameOverShown === "dismissed") return;
  S.gameOverShown = true;
  const v = S.view;
  const card = clear($("#gameover-card"));
  const winners = o.winners && o.winners.length ? o.winners : o.winner !== null && o.winner !== undefined ? [o.winner] : [];
  const iWon = S.seat !== null && winners.includes(S.seat);
  card.append(
    el("h2", { text: iWon ? "Victory!" : "Game over" }),
    el(
      "p",
      { class: "winner-line" },
      winners.map((w) => el("span", { class: "winner" }, el("span", { class: "swatch big", style: { background: colours[w].fill } }), ` ${v.players[w].name}`)),
      winners.length ? (winners.length > 1 ? " win" : " wins") : "No winner",
    ),
    el("p", { class: "muted", text: o.reason || "" }),
    el("p", { class: "muted", text: `After ${plural(v.turn || 0, "turn")}.` }),
  );
  // Only under fog (append(null) would write the word "null").
  if (fogGame()) card.append(el("p", { class: "fog-lifted", id: "fog-lifted", text: "The fog has lifted: the whole board is shown." }));
  const me = S.seat !== null && v.players[S.seat] ? v.players[S.seat].name : "";
  card.append(rematchBox({ gameId, token: S.token, seat: S.seat, name: me, rules: v.rules }));
  const actions = el("div", { class: "row wrap center" });
  if (S.seat !== null && S.token) actions.append(button("Download the record", { class: "btn", id: "download-record" }, downloadRecord));
  actions.append(el("a", { class: "btn", href: `/game/${encodeURIComponent(gameId)}/summary`, id: "view-summary", text: "Charts, luck & replay" }));
  actions.append(el("a", { class: "btn", href: "/", id: "to-lobby", text: "Back to the lobby" }));
  actions.append(
    button("Look at the board", { class: "btn btn-ghost", id: "close-gameover" }, () => {
      S.gameOverShown = "dismissed";
      box.hidden = true;
    }),
  );
  card.append(actions);
  box.hidden = false;
}

async function downloadRecord() {
  try {
    const text = await api.record(gameId, S.token);
    const blob = new Blob([text], { type: "text/plain" });
    const url = URL.createObjectURL(blob);
    const a = el("a", { href: url, download: `risk-${gameId}.risk` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 5000);
  } catch (error) {
    toast(`The record could not be downloaded: ${error.message}`, "error");
  }
}

// -- connection and pending action --------------------------------------------------------------------
function showConnection(status, detail) {
  const box = $("#conn");
  box.dataset.status = status;
  const text = {
    connecting: "Connecting…",
    open: S.seat === null && S.msg ? "Live · watching" : "Live",
    reconnecting: detail ? `Reconnecting in ${detail} s…` : "Reconnecting…",
    closed: "Disconnected",
  }[status];
  $("#conn-text").textContent = text;
  const banner = $("#banner");
  if (status === "reconnecting") {
    banner.hidden = false;
    clear(banner).append(
      el("span", { text: "Connection lost. Reconnecting… The board may be out of date." }),
      button("Retry now", { class: "btn btn-small", id: "reconnect" }, () => S.socket.reconnectNow()),
    );
  } else if (status === "closed" && detail === 4409) {
    movedBanner(banner, () => connect()); // this seat was opened elsewhere: play here again on a click
    S.elsewhere = true; // no prompt to act here ("Claim a territory") while the seat is played there
    S.selection = null;
    render();
  } else if (status === "closed") {
    banner.hidden = false;
    clear(banner).append(el("span", { text: "Disconnected from the game." }), button("Reconnect", { class: "btn btn-small", id: "reconnect" }, () => connect()));
  } else banner.hidden = true;
}

function showPending(p) {
  const box = $("#pending");
  document.body.classList.toggle("sending", !!p);
  if (!p) {
    box.hidden = true;
    return;
  }
  clear(box);
  if (p.lost) {
    box.append(
      el("span", { text: `Not sent yet: “${p.action}”. It will be sent again when the connection is back (it is refused if the game moved on).` }),
      button("Cancel it", { class: "btn btn-small", id: "drop-pending" }, () => S.socket.dropPending()),
    );
    box.className = "pending warn";
  } else {
    box.append(el("span", { class: "spinner", "aria-hidden": "true" }), el("span", { text: p.slow ? ` Still waiting for the server: “${p.action}”` : ` Sending “${p.action}”…` }));
    box.className = "pending";
  }
  box.hidden = false;
}

let messageTimer = null;
function showMessage(text, kind = "info") {
  const box = $("#message");
  clearTimeout(messageTimer);
  box.textContent = text || "";
  box.className = `message ${text ? `message-${kind}` : ""}`;
  if (text && kind !== "error") messageTimer = setTimeout(() => showMessage(""), 7000);
}

// -- seats held in this browser ---------------------------------------------------------------------
function useSeat(stored) {
  S.token = stored.token;
  history.replaceState(null, "", `${location.pathname}#token=${encodeURIComponent(stored.token)}`);
  connect();
}

// -- static wiring ------------------------------------------------------------------------------------
function wireStatic() {
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
  $("#zoom-in").addEventListener("click", () => S.board && S.board.zoomBy(1.5));
  $("#zoom-out").addEventListener("click", () => S.board && S.board.zoomBy(1 / 1.5));
  $("#zoom-fit").addEventListener("click", () => S.board && S.board.fit());
  $("#toggle-names").addEventListener("click", () => {
    if (!S.board) return;
    S.board.setNames(!S.board.names);
    localStorage.setItem("risk.names", S.board.names ? "on" : "off");
    $("#toggle-names").setAttribute("aria-pressed", String(S.board.names));
  });
  $("#copy-link").addEventListener("click", async () => {
    const ok = await copyText(seatLink(gameId, null));
    toast(ok ? "Spectator link copied." : "Copy failed: copy the address bar without the #token part.", ok ? "ok" : "error");
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      if (S.msg && S.msg.blitz && !myTurn()) stopBlitz();
      else if (S.selection) cancelSelection();
    } else if (isUndoKey(event) && S.seat !== null) {
      event.preventDefault();
      sendUndo();
    }
  });
  window.addEventListener("hashchange", () => {
    const token = tokenFromHash();
    if (token !== S.token) {
      S.token = token;
      connect();
    }
  });
  // The defence countdown.
  setInterval(() => {
    if (S.msg && S.msg.clock && S.msg.clock.for === "defence" && !S.msg.outcome) renderPrompt();
  }, 1000);
}

start();


