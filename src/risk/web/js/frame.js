// At most one redraw of the page a frame. State messages may come far faster than a screen shows
// them (bots at full speed send a hundred a second), and a redraw of the whole page costs
// milliseconds (a phone's main thread several times more): drawing each one made the page fall behind
// the game and kept a core busy. The store still takes every message as it comes (its log misses
// none); the page draws the latest state in the next frame. A page in a hidden tab gets no frames: a
// timer draws it then (the title says whose move it is), at the browser's pace for hidden timers.

/**
 * @param {() => void} draw what to run, once, for any number of requests since the last run
 * @param {{ frame?: (run: () => void) => any, cancelFrame?: (id: any) => void,
 *           timer?: (run: () => void, ms: number) => any, cancelTimer?: (id: any) => void,
 *           fallbackMs?: number }} [clock] the browser's by default (tests pass their own)
 * @returns {{ request: () => void, flush: () => void, readonly pending: boolean }}
 */
export function frameScheduler(draw, clock = {}) {
  const frame = clock.frame || ((run) => requestAnimationFrame(run));
  const cancelFrame = clock.cancelFrame || ((id) => cancelAnimationFrame(id));
  const timer = clock.timer || ((run, ms) => setTimeout(run, ms));
  const cancelTimer = clock.cancelTimer || ((id) => clearTimeout(id));
  const fallbackMs = clock.fallbackMs ?? 100;
  let waiting = false;
  let frameId = null;
  let timerId = null;

  function run() {
    if (!waiting) return; // already run by the other of the two
    waiting = false;
    cancelFrame(frameId);
    cancelTimer(timerId);
    draw();
  }

  return {
    /** Draw in the next frame (or after fallbackMs when no frame comes first); once for many requests. */
    request() {
      if (waiting) return;
      waiting = true;
      frameId = frame(run);
      timerId = timer(run, fallbackMs);
    },
    /** Draw now what was requested (nothing when nothing was). */
    flush() {
      run();
    },
    get pending() {
      return waiting;
    },
  };
}
