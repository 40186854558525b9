// Sending moves: one at a time over the websocket (an action, a blitz, a blitz's stop or an undo),
// each with the state id it was chosen at; what the server answers (ack, error) in words.

import { toast } from "./ui.js";
import { blitzLabel, blitzMessage, blitzResult, undoWords } from "./fastplay.js";
import { setPhase, showMessage } from "./status.js";
import { store } from "./page.js";

/** An action in notation ("attack alaska kamchatka 3"); false when it could not be sent. */
export function send(action) {
  if (action.startsWith("attack ")) {
    const [, from, to] = action.split(" ");
    store.attackSent(from, to);
  }
  return sendMessage({ type: "action", action }, action);
}

function sendMessage(message, label) {
  const s = store.state;
  if (!s.msg) return false;
  if (s.seat === null) {
    showMessage("You are watching: open your seat's private link to play.", "warn");
    return false;
  }
  if (s.socket.busy) {
    showMessage("Wait: your last move has not been answered yet.", "warn");
    return false;
  }
  if (s.socket.status !== "open") {
    showMessage("Not connected: the move was not sent. It can be made again once the connection is back.", "error");
    return false;
  }
  const ok = s.socket.sendMessage(message, s.msg.state_id, label);
  if (ok) showMessage("");
  return ok;
}

// -- fast play: blitz and "until N left" settled by the server, undo ---------------------------------
export function sendBlitz(from, to, until) {
  store.attackSent(from, to);
  return sendMessage(blitzMessage(from, to, until), blitzLabel(store.state.names, from, to, until));
}

export function stopBlitz() {
  if (sendMessage({ type: "blitz-stop" }, "Stop the blitz")) showMessage("The blitz stops after this roll.", "info");
}

export function sendUndo() {
  const s = store.state;
  const undo = s.msg && s.msg.undo;
  if (!undo) {
    showMessage("Nothing to take back: only placements and moves that revealed nothing new can be.", "info");
    return;
  }
  sendMessage({ type: "undo" }, `Undo: ${undoWords(undo.last, s.names, s.view)}`);
}

// -- answers -----------------------------------------------------------------------------------------
export function onAck(msg) {
  const blitz = msg.blitz ? blitzResult(msg) : null;
  if (blitz) showMessage(blitz, "info");
}

/** A refusal; `pending`: the move it answers. */
export function onError(msg, pending) {
  const s = store.state;
  if (msg.code === "bad-token" && !s.socket.helloDone) {
    toast(`${msg.message}. Showing the game as a spectator.`, "error", 9000);
    history.replaceState(null, "", location.pathname);
    setTimeout(() => store.setToken(null), 50); // the store's reaction connects again, as a spectator
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
    const taken = s.msg && s.msg.state_id > pending.stateId;
    showMessage(
      taken
        ? `Reconnected. Your move “${pending.action}” had already reached the server: the board is up to date.`
        : `Reconnected, but “${pending.action}” was refused: ${msg.message}`,
      taken ? "info" : "error",
    );
  } else {
    showMessage(errorText(msg), "error");
  }
}

/** A refusal in words. */
export function errorText(msg) {
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
