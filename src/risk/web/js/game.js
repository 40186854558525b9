// The board page: /game/{id}#token=... (a seat) or /game/{id} (a spectator).
//
// Everything the player may do comes from the `legal` list of the latest state message. Every
// action goes over the websocket with the state id it was chosen at; one at a time is in flight,
// and the screen says so. State is applied at once: nothing here waits on an animation.
//
// The page's state is one store (page.js, gamestate.js): the modules read it and change it through
// its named updates; this module connects, hands the server's messages to the store, and redraws
// what each update changes (render.js): a state message in the next frame, once for all the messages
// that came meanwhile (frame.js).

import { GameSocket, seats } from "./api.js";
import { Chat } from "./chat.js";
import { lineTools, useChat } from "./fairplay.js";
import { applyRemembered } from "./seatprefs.js";
import { showBattle } from "./animate.js";
import { fitOnce, loadBoard } from "./drawboard.js";
import { onHover, onTerritory, wireInput } from "./input.js";
import { onAck, onError } from "./moves.js";
import { setPhase, showConnection, showPending } from "./status.js";
import { REDRAW, render } from "./render.js";
import { frameScheduler } from "./frame.js";
import { gameId, store } from "./page.js";

const stateDrawing = frameScheduler(showState);
let battlesToShow = 0; // the rolls of the last battle that came since the page last drew a state

function start() {
  wireInput();
  store.subscribe((update) => {
    if (update === "setToken") connect(); // another seat's token (or none): a new connection
    else if (update === "receiveState") stateDrawing.request();
    else if (REDRAW[update]) REDRAW[update]();
  });
  const chat = new Chat({
    send: (text, channel) => !!store.state.socket && store.state.socket.sendChat(text, channel),
    onNote: () => store.state.msg && store.state.msg.outcome && render(), // e.g. a rematch was asked for
    tools: lineTools, // mute, report, block (fairplay.js)
  });
  useChat(chat);
  store.chatOpened(chat);
  if (!gameId) {
    setPhase("No game here.", "Go back to the lobby to create or join a game.");
    return;
  }
  connect();
}

function connect() {
  const { socket: old, token, chat } = store.state;
  if (old) old.close();
  const socket = new GameSocket(gameId, token, {
    onState,
    onAck,
    onError,
    onStatus: (status, detail) => showConnection(status, detail, connect),
    onPending: showPending,
    onChat: (msg) => chat.receive(msg),
    onChatError: (msg) => chat.refused(msg),
  });
  store.connected(socket); // the seat is played on this page again (see showConnection)
  chat.reset();
  socket.connect();
}

async function onState(msg, fresh) {
  if (!store.state.board) await loadBoard({ onTerritory, onHover });
  const previous = store.state.msg;
  // A page that just opened shows the board as it is; later, the last battle (the view's last_battle)
  // is drawn with the state, with the rolls of the message that brought it (a blitz sends several).
  const battles = msg.log.filter((line) => line.kind === "battle").length;
  if (fresh || !previous) battlesToShow = 0;
  else if (battles) battlesToShow = battles;
  store.receiveState(msg, fresh); // drawn in the next frame (showState)
  // The first state after the board loads or the connection opens is drawn at once: the board is never
  // on screen without its armies, nor the state before a reconnection.
  if (fresh || !previous) stateDrawing.flush();
}

/** The latest state on the page: every part redrawn, its battles drawn on the board at the seat's pace
 * (animate.js, never waited for). */
function showState() {
  const { msg, board } = store.state;
  render();
  fitOnce();
  if (battlesToShow && msg.view.last_battle) showBattle(board, msg.view.last_battle, (msg.prefs && msg.prefs.pace) || "watch", battlesToShow);
  battlesToShow = 0;
  const token = rememberSeat(msg);
  if (token) applyRemembered({ msg, gameId, token });
  // The state shown, for tests and tools that drive the page (data-state-id on <body>).
  document.body.dataset.stateId = String(msg.state_id);
}

/** This browser holds the seat of the state's token: the lobby's "your games" lists it. Returns the token. */
function rememberSeat(msg) {
  const token = store.state.token;
  const seat = msg.seat === null || msg.seat === undefined ? null : msg.seat;
  if (seat !== null && token) {
    const seatInfo = (msg.seats || [])[seat];
    // seen: the log mark this page has shown, for the lobby's "since you last looked" (POST /api/mine).
    const seen = (msg.log_start || 0) + (msg.log || []).length;
    seats.remember({ game: gameId, seat, name: seatInfo ? seatInfo.name : "", token, mine: true, rules: msg.view.rules, seen });
  }
  return token;
}

start();
