// The action panel's controls (#controls) for the step at hand: placing, trading, the attack planned
// (dice, roll, blitz, until N left, odds), moving armies, defending, every other action as a button;
// and the notation box's completion (#legal-list).

import { seats } from "./api.js";
import { $, clear, el, slugify, armies as armiesWord, dice as diceWord } from "./ui.js";
import { actionLabel } from "./words.js";
import { undoControl, waitingBlitz } from "./fastplay.js";
import { setupControls } from "./seatprefs.js";
import { attackDice, forceOf, myTurn, territoryOf } from "./gamestate.js";
import { bestSet, orderSet, sameSet, setValue, setWords } from "./cardsets.js";
import { showOdds } from "./odds.js";
import { TAPS } from "./prompt.js";
import { button } from "./status.js";
import { send, sendBlitz, sendUndo, stopBlitz } from "./moves.js";
import { markKeys } from "./keys.js";
import { gameId, store } from "./page.js";

const cancelSelection = () => store.cancelSelection();

export function renderControls() {
  drawControls();
  markKeys($("#controls")); // each button's key in its title (keys.js)
}

function drawControls() {
  const s = store.state;
  const box = clear($("#controls"));
  const v = s.view;
  const L = s.legal;
  const sel = s.selection;
  if (s.msg.outcome) {
    // The game-over panel's link, kept here for whoever closed the panel to look at the board.
    box.append(el("a", { class: "btn", href: `/game/${encodeURIComponent(gameId)}/summary`, id: "to-summary", text: "Charts, luck & replay" }));
  }
  if (s.seat === null) {
    box.append(el("p", { class: "muted", text: "You are watching this game." }));
    const stored = seats.forGame(gameId).find((seat) => seat.token);
    if (stored) box.append(button(`Play as ${stored.name || `seat ${stored.seat + 1}`}`, { class: "btn btn-primary", id: "take-seat" }, () => useSeat(stored)));
    return;
  }
  const quick = setupControls({ msg: s.msg, gameId, token: s.token }, s.setupCount, (n) => store.setSetupCount(n), s.names);
  if (s.msg.outcome || !myTurn(s)) {
    if (quick) box.append(quick);
    if (!s.msg.outcome && v.phase === "defend" && v.attack) box.append(battleCard(s));
    const waiting = s.msg.outcome ? null : waitingBlitz(s, stopBlitz);
    if (waiting) box.append(waiting);
    return;
  }
  if (L.trade.length) box.append(tradeControls(s)); // reinforce, elimination trade
  if (L.place.size) placeControls(s, box);
  if (L.capital.size && sel && sel.kind === "capital") {
    const slug = sel.from;
    box.append(button(`Make ${s.names.get(slug)} your headquarters`, { class: "btn btn-primary", id: "confirm-capital" }, () => send(`capital ${slug}`)));
  }
  if (L.attack.size && sel && sel.kind === "attack" && sel.to) box.append(attackControls(s));
  if (L.fortify.size && sel && sel.kind === "fortify" && sel.to) {
    const range = L.fortify.get(sel.from).get(sel.to);
    box.append(
      moveControls(s, range, `fortify ${sel.from} ${sel.to}`, (n) => `Move ${armiesWord(n)} from ${s.names.get(sel.from)} to ${s.names.get(sel.to)}`),
      button("Cancel", { class: "btn btn-ghost", id: "cancel-selection" }, () => store.select(null)),
    );
  }
  if (L.defend) {
    if (v.attack) box.append(battleCard(s));
    const row = el("div", { class: "row dice-choice" });
    for (let n = L.defend.max; n >= L.defend.min; n--) {
      row.append(button(`Defend with ${diceWord(n)}`, { class: `btn ${n === L.defend.max ? "btn-primary" : ""}`, id: `defend-${n}` }, () => send(`defend ${n}`)));
    }
    box.append(row);
  }
  if (L.move) {
    const o = v.occupy || {};
    box.append(moveControls(s, L.move, "move", (n) => `Move ${armiesWord(n)} into ${o.to || "the territory"}`));
  }
  const rest = otherActions(s);
  // A source chosen, no target yet: say so, and make it easy to let go of.
  if (sel && !sel.to && sel.kind !== "capital") {
    const verb = sel.kind === "attack" ? "Attacking from" : "Moving from";
    box.append(
      el(
        "div",
        { class: "row selection-row" },
        el("span", { class: "selection-what" }, `${verb} `, el("strong", { text: s.names.get(sel.from) })),
        button("Cancel", { class: "btn btn-ghost btn-small", id: "cancel-selection", title: "Choose another territory (Esc)" }, cancelSelection),
      ),
    );
    // What it can reach beyond the map's view (across the map's edge, or too far to frame with it):
    // a button each, no swipe needed.
    const away = [...L[sel.kind].get(sel.from).keys()].filter((slug) => s.board && !s.board.onScreen(slug, 12));
    if (away.length) {
      const pick = (slug) => button(s.names.get(slug), { class: "btn btn-small", dataset: { target: slug } }, () => store.select({ ...sel, to: slug }));
      box.append(el("div", { class: "row wrap off-view", id: "off-view" }, el("span", { class: "label", text: "Off the map:" }), ...away.map(pick)));
    }
  }
  if (rest.childNodes.length) box.append(rest);
  const undo = undoControl(s, sendUndo);
  if (undo) box.append(undo);
  if (quick) box.append(quick);
}

/** Armies per click when placing: 1, 5 or all. */
function placeControls(s, box) {
  const max = Math.max(...[...s.legal.place.values()].map((r) => r.max));
  if (max <= 1) return;
  const group = el("div", { class: "segmented", role: "radiogroup", "aria-label": TAPS ? "Armies per tap" : "Armies per click" });
  for (const [value, label] of [["1", "1"], ["5", "5"], ["all", `All ${max}`]]) {
    if (value === "5" && max <= 5) continue;
    const on = s.placeAmount === value;
    group.append(button(label, { id: `place-${value}`, role: "radio", "aria-checked": String(on), class: `seg${on ? " on" : ""}` }, () => store.setPlaceAmount(value)));
  }
  box.append(el("div", { class: "row" }, el("span", { class: "label", text: TAPS ? "Per tap:" : "Per click:" }), group));
  box.append(el("p", { class: "hint hint-mouse", text: "Shift-click places all." }));
}

/** End of phase, and every other action, as buttons in words. */
function otherActions(s) {
  const v = s.view;
  const rest = el("div", { class: "row wrap" });
  const used = new Set();
  for (const entry of s.legal.other) {
    const text = entry.text;
    if (used.has(text)) continue;
    used.add(text);
    const label = actionLabel(text, s.names, v.players, v.last_battle);
    if (entry.min !== undefined) {
      for (let n = entry.min; n <= entry.max; n++) {
        const full = `${text} ${n}`;
        rest.append(button(actionLabel(full, s.names, v.players, v.last_battle), { class: "btn", dataset: { action: full } }, () => send(full)));
      }
      continue;
    }
    const isEnd = text === "endattack" || text === "endturn";
    const attrs = isEnd ? { id: "end-phase", class: "btn btn-end" } : { class: "btn", dataset: { action: text } };
    if (text === "calloff") attrs.id = "calloff";
    if (text === "accept") attrs.id = "accept";
    rest.append(button(label, { ...attrs, dataset: { action: text } }, () => send(text)));
  }
  return rest;
}

/** A territory's armies as this seat knows them now: "?" out of sight (fog of war). */
function armiesKnown(row) {
  return row && !row.hidden ? armiesWord(row.armies) : "? armies";
}

/** The attack waiting for its defence, as both sides see it. */
function battleCard(s) {
  const a = s.view.attack;
  const from = territoryOf(s, slugify(a.from));
  const to = territoryOf(s, slugify(a.to));
  return el(
    "div",
    { class: "battle-card" },
    el("span", { class: "bc-side" }, el("strong", { text: a.from }), ` ${armiesKnown(from)}`),
    el("span", { class: "bc-vs", text: `⟶ ${diceWord(a.dice)} ⟶` }),
    el("span", { class: "bc-side" }, el("strong", { text: a.to }), ` ${armiesKnown(to)}`),
  );
}

/** The slider of armies to move (occupy, fortify): the count chosen is kept while the state lasts. */
function moveControls(s, range, head, label) {
  const key = `${s.msg.state_id}|${head}`;
  let value = s.sliderMemory.get(key);
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
    store.rememberSlider(key, m);
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

/** The attack planned: both sides, the dice, roll, blitz, "until N left" and the odds. */
function attackControls(s) {
  const sel = s.selection;
  const range = s.legal.attack.get(sel.from).get(sel.to);
  const from = territoryOf(s, sel.from);
  const to = territoryOf(s, sel.to);
  const wrap = el("div", { class: "attack-controls" });
  wrap.append(
    el(
      "div",
      { class: "battle-card" },
      el("span", { class: "bc-side" }, el("strong", { text: s.names.get(sel.from) }), ` ${forceOf(s, from)}`),
      el("span", { class: "bc-vs", text: "⟶" }),
      el("span", { class: "bc-side" }, el("strong", { text: s.names.get(sel.to) }), ` ${to.hidden ? "?" : to.armies}`),
    ),
  );
  // A new attack starts with the most dice; the choice is kept while the same attack goes on.
  const dice = attackDice(s, sel.from, sel.to, range);
  const diceRow = el("div", { class: "segmented", role: "radiogroup", "aria-label": "Dice" });
  for (let n = range.min; n <= range.max; n++) {
    diceRow.append(
      button(String(n), { class: `seg${dice === n ? " on" : ""}`, id: `dice-${n}`, role: "radio", "aria-checked": String(dice === n), title: diceWord(n) }, () =>
        store.setAttackDice(`${sel.from}>${sel.to}`, n),
      ),
    );
  }
  wrap.append(
    el("div", { class: "row" }, el("span", { class: "label", text: "Dice:" }), diceRow),
    el(
      "div",
      { class: "row wrap" },
      button(`Roll ${diceWord(dice)}`, { class: "btn btn-primary", id: "roll" }, () => send(`attack ${sel.from} ${sel.to} ${dice}`)),
      button("Blitz", { class: "btn btn-attack", id: "blitz", title: "Attack until it falls or you cannot go on: the server rolls every battle at once" }, () => sendBlitz(sel.from, sel.to, 1)),
      button("Cancel", { class: "btn btn-ghost btn-small push-right", id: "cancel-selection", title: "Choose another attack (Esc)" }, cancelSelection),
    ),
  );
  const strength = forceOf(s, from);
  const stop = el("input", { type: "number", id: "stop-at", min: 1, max: Math.max(1, strength), "aria-label": "Stop when this many armies are left" });
  stop.value = String(Math.min(Math.max(1, s.stopAt), Math.max(1, strength - 1)));
  const untilBtn = button(`Attack until ${stop.value} left`, { class: "btn", id: "attack-until" }, () => {
    store.setStopAt(stop.value);
    sendBlitz(sel.from, sel.to, store.state.stopAt);
  });
  stop.addEventListener("input", () => {
    store.setStopAt(stop.value);
    untilBtn.textContent = `Attack until ${store.state.stopAt} left`;
    showOdds(strength, to.armies || 0, store.state.stopAt);
  });
  wrap.append(el("div", { class: "row" }, el("label", { for: "stop-at", class: "label", text: "Stop at" }), stop, untilBtn));
  wrap.append(el("div", { id: "odds", class: "odds", "aria-live": "polite" }));
  queueMicrotask(() => showOdds(strength, to.armies || 0, Number(stop.value)));
  return wrap;
}

/** Trade the best set, or the three cards picked in the hand. */
function tradeControls(s) {
  const wrap = el("div", { class: "trade-controls" });
  const best = bestSet(s);
  if (best) {
    wrap.append(
      el(
        "p",
        { class: "suggest" },
        "Best set: ",
        el("strong", { text: setWords(s, best.set) }),
        ` = ${armiesWord(best.value)}`,
        best.bonus ? ` (+2 on ${s.names.get(best.set[0])})` : "",
      ),
      button(`Trade best set (+${best.value})`, { class: "btn btn-primary", id: "trade-best" }, () => send(`trade ${best.set.join(" ")}`)),
    );
  }
  const chosen = s.selectedCards;
  if (chosen.length === 3) {
    const legal = s.legal.trade.find((set) => sameSet(set, chosen));
    if (legal) {
      const ordered = orderSet(s, chosen);
      wrap.append(button(`Trade selected (+${setValue(s, chosen)})`, { class: "btn", id: "trade" }, () => send(`trade ${ordered.join(" ")}`)));
    } else wrap.append(el("p", { class: "warn-text", text: "These three cards are not a set." }));
  } else if (s.legal.trade.length > 1) {
    wrap.append(el("p", { class: "hint", text: "Or pick three cards in your hand." }));
  }
  return wrap;
}

/** The notation box: completion from the legal actions, and what it says when there is none. */
export function renderDatalist() {
  const s = store.state;
  const list = clear($("#legal-list"));
  const texts = s.legal.texts.slice(0, 500);
  for (const t of texts) list.append(el("option", { value: t }));
  const input = $("#action-input");
  $("#action-form").hidden = !!s.msg.outcome; // nothing is left to play
  input.disabled = s.seat === null;
  input.placeholder = s.seat === null ? "Watching: actions are for players" : myTurn(s) ? `e.g. ${texts[0] || "endturn"}` : "Wait for your turn";
}

/** A watcher's page takes a seat this browser holds (the store's reaction connects again). */
function useSeat(stored) {
  history.replaceState(null, "", `${location.pathname}#token=${encodeURIComponent(stored.token)}`);
  store.setToken(stored.token);
}
