// Drawing the board page from the store's state: every part in turn (each module reads the state, none
// assigns into it), and what each named update changes (REDRAW: game.js redraws after each update).

import { $, seatColours } from "./ui.js";
import { updateClock } from "./clock.js";
import { placeNotes } from "./notes.js";
import { decoratePlayers, renderSeatPanel } from "./seating.js";
import { renderFairPlay } from "./fairplay.js";
import { renderPaceBar, renderPrefs } from "./seatprefs.js";
import { renderEmail } from "./email.js";
import { renderPush } from "./push.js";
import { drawBoard } from "./drawboard.js";
import { renderGoal, renderHand, renderPlayers, renderSheetToggle } from "./panels.js";
import { renderControls, renderDatalist } from "./controls.js";
import { logAtBottom, renderDice, renderLog, settleLog } from "./gamelog.js";
import { renderGameOver } from "./gameover.js";
import { renderPrompt, renderTitle } from "./status.js";
import { showHover } from "./hover.js";
import { gameId, store } from "./page.js";

export function render() {
  const s = store.state;
  if (!s.msg || !s.board) return;
  const logPinned = logAtBottom(); // before any change: reading it after one lays the page out again
  const colours = seatColours(s.view);
  drawBoard(colours);
  renderPlayers(colours);
  renderPrompt();
  renderControls();
  renderHand();
  renderGoal(colours);
  renderSheetToggle();
  renderLog(colours, logPinned);
  renderDice(colours);
  renderDatalist();
  renderTitle();
  renderGameOver(colours);
  s.chat.update(s.seat, s.view);
  if (s.hover) showHover(s.hover);
  renderSeats();
  settleLog();
}

// The turn clock, seats changing hands and server notes (clock.js, seating.js, notes.js).
function renderSeats() {
  const s = store.state;
  const ctx = { msg: s.msg, seat: s.seat, token: s.token, gameId, rerender: render };
  updateClock(s.msg, s.view.players, s.seat);
  decoratePlayers(ctx);
  renderSeatPanel(ctx);
  renderPrefs(ctx);
  renderPaceBar(ctx);
  renderEmail(ctx);
  renderPush(ctx);
  renderFairPlay(ctx);
  placeNotes(s.msg.notes, $("#log"));
  s.chat.takeNotes(s.msg.notes);
}

/** What to redraw after each named update (gamestate.js); an update not named here redraws nothing
 * (its control changed its own words, or nothing shown depends on it). A state message (receiveState)
 * is drawn by game.js, once a frame. */
export const REDRAW = {
  playedElsewhere: render,
  select: render,
  cancelSelection: render,
  setPlaceAmount: renderControls,
  setAttackDice: renderControls,
  toggleCard: () => {
    renderHand();
    renderControls();
  },
};
