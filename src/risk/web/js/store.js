// One store for a page's state. The state is read, never assigned (it is frozen): it changes only
// through the named updates the page declares. An update is a pure function of the state and its
// arguments that returns the fields that change, or null when nothing does; the store then makes the
// next state and tells its subscribers which update ran, so that the page redraws what that changes.

/**
 * @template S
 * @param {S} initial the first state
 * @param {Record<string, (state: S, ...args: any[]) => Partial<S> | null>} updates the named updates
 * @returns the store: `state`, `subscribe(listener)` and one method per update (true when it changed something)
 */
export function createStore(initial, updates) {
  let state = Object.freeze({ ...initial });
  const listeners = new Set();
  const store = {
    get state() {
      return state;
    },
    /** `listener(name, state)` after every update that changed something; returns the unsubscribe. */
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  for (const [name, update] of Object.entries(updates)) {
    if (name in store) throw new Error(`the update "${name}" would hide the store's own "${name}"`);
    store[name] = (...args) => {
      const change = update(state, ...args);
      if (!change) return false;
      state = Object.freeze({ ...state, ...change });
      for (const listener of listeners) listener(name, state);
      return true;
    };
  }
  return Object.freeze(store);
}
