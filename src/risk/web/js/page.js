// The board page's one store (store.js, gamestate.js) and the game it shows: every module of the page
// reads `store.state` and changes it through the store's named updates only.

import { createStore } from "./store.js";
import { initialState, updates } from "./gamestate.js";

export const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");

/** The seat's token in the URL fragment (#token=...), or null: a spectator. */
export function tokenFromHash() {
  const m = /(?:^|[#&])token=([^&]+)/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

export const store = createStore(initialState(tokenFromHash()), updates);
