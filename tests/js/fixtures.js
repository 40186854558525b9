// A small board page state for the unit tests: four territories, two players, seat 0 to play.
import { createStore } from "../../src/risk/web/js/store.js";
import { initialState, updates } from "../../src/risk/web/js/gamestate.js";

export const BOARD = {
  board: {
    territories: [
      { name: "Alaska", continent: "North America" },
      { name: "Kamchatka", continent: "Asia" },
      { name: "Alberta", continent: "North America" },
      { name: "Peru", continent: "South America" },
    ],
  },
};

/** A state message: seat 0 (Ann) holds Alaska and Alberta, seat 1 (Bob) Kamchatka and Peru. */
export function stateMessage({ stateId = 1, phase = "attack", legal = [], log = [], logStart = 0, hand = [], ...rest } = {}) {
  return {
    type: "state",
    state_id: stateId,
    seat: 0,
    status: "playing",
    round: 2,
    legal,
    log,
    log_start: logStart,
    seats: [{ kind: "human", name: "Ann" }, { kind: "bot", name: "Bob" }],
    view: {
      rules: "2008 game=world",
      phase,
      current: 0,
      to_act: 0,
      turn: 5,
      players: [{ name: "Ann", alive: true }, { name: "Bob", alive: true }],
      territories: [
        { owner: 0, armies: 6 },
        { owner: 1, armies: 2 },
        { owner: 0, armies: 3 },
        { owner: 1, armies: 1 },
      ],
      hand,
      ...rest,
    },
  };
}

/** A store holding the board, and the state message given (the first after hello). */
export function pageStore(msg = stateMessage()) {
  const store = createStore(initialState("token-0"), updates);
  store.boardLoaded({ fake: "board" }, BOARD);
  store.receiveState(msg, true);
  return store;
}

export const ATTACKS = [
  { text: "attack alaska kamchatka", min: 1, max: 3 },
  { text: "attack alberta kamchatka", min: 1, max: 2 },
  { text: "endattack" },
];
