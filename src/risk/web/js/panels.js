// The board page's panels: the players (#players), the hand of cards (#hand), the goal (#goal: a
// secret mission, headquarters, Mission RISK cards) and the phone's sheet handle.

import { $, clear, el, slugify, cardGlyph, describeRules, plural, armies as armiesWord } from "./ui.js";
import { missionCard } from "./words.js";
import { markIcon, markName } from "./marks.js";
import { fogGame, fogNow, myTurn, roundText, territoryOf } from "./gamestate.js";
import { bestSet, setWords } from "./cardsets.js";
import { store } from "./page.js";

function seatKind(seatInfo, player) {
  if (player && player.neutral) return "neutral armies";
  if (!seatInfo) return "";
  if (seatInfo.kind === "bot") return `bot · ${seatInfo.bot_label || seatInfo.bot || ""}`;
  if (seatInfo.kind === "open") return "open seat";
  if (seatInfo.kind === "external") return "bot program";
  return "human";
}

export function renderPlayers(colours) {
  const s = store.state;
  const v = s.view;
  const box = clear($("#players"));
  const totals = v.players.map(() => 0);
  for (const row of v.territories) {
    if (Array.isArray(row.units)) row.units.forEach((n, seat) => (totals[seat] += n));
    else if (row.owner >= 0) totals[row.owner] += row.armies;
  }
  const table = el("div", { class: "players" });
  v.players.forEach((p, i) => {
    const seatInfo = (s.msg.seats || [])[i];
    // Fog of war: another player's count is not in the view (absent, not 0), nor their armies.
    const unknown = p.territories === undefined || p.territories === null;
    const acting = v.to_act === i && !s.msg.outcome;
    const current = v.current === i && !s.msg.outcome;
    const row = el(
      "div",
      {
        class: `player-row${acting ? " acting" : ""}${current ? " current" : ""}${p.alive ? "" : " out"}${s.seat === i ? " me" : ""}`,
        dataset: { seat: i },
      },
      el(
        "span",
        { class: "player-swatch", style: { background: colours[i].swatch }, title: colours[i].mark ? `mark: ${markName(colours[i].mark)}` : null },
        markIcon(colours[i].mark),
      ),
      el(
        "span",
        { class: "player-name" },
        el("span", { class: "pname", text: p.name }),
        s.seat === i ? el("span", { class: "tag tag-you", text: "you" }) : null,
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
  const info = [roundText(s.msg), describeRules(v.rules)];
  if (v.deck_size !== undefined) info.push(`${plural(v.deck_size, "card")} in the deck`);
  box.append(el("p", { class: "rules-line", text: info.join(" · ") }));
  if (fogGame(s)) box.append(el("p", { class: `fog-note${fogNow(s) ? "" : " lifted"}`, id: "fog-note", text: fogNote(s) }));
}

function fogNote(s) {
  if (s.msg.outcome) return "The fog has lifted: the whole board is shown.";
  if (!fogNow(s)) return "Fog of war: the players see only their own surroundings; spectators of this game see everything.";
  if (s.seat === null) return "Fog of war: spectators see no territory until the game ends.";
  return "Fog of war: you see your territories and the ones next to them. Dimmed lands are out of sight: their colour and count are what you last saw.";
}

// -- cards --------------------------------------------------------------------------------------------
export function renderHand() {
  const s = store.state;
  const v = s.view;
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
  const canTrade = myTurn(s) && s.legal.trade.length > 0;
  const tradable = new Set(s.legal.trade.flat());
  // The sets in the hand (the view's set_values, at any time of the game) and the best of them.
  const sets = (v.set_values || []).map((set) => set.cards);
  const inSet = new Set(sets.flat());
  const best = bestSet(s, canTrade ? s.legal.trade : sets);
  const inBest = new Set(best ? best.set : []);
  for (const card of hand) {
    const name = setWords(s, [card.card]);
    const t = territoryOf(s, card.card);
    const held = t && s.seat !== null && t.owner === s.seat;
    const chosen = s.selectedCards.includes(card.card);
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
      // Long words get a smaller font (app.css, --chars): names break between words only.
      el("span", { class: "card-name", text: name, style: { "--chars": String(Math.max(...name.split(/\s+/).map((w) => w.length))) } }),
      el("span", { class: "card-symbol", text: card.symbol }),
    );
    if (canTrade) node.addEventListener("click", () => store.toggleCard(card.card));
    box.append(node);
  }
  if (best) {
    bestLine.append(
      "Best set: ",
      el("strong", { text: `${setWords(s, best.set)} = ${armiesWord(best.value)}` }),
      best.bonus ? ` (+2 on ${s.names.get(best.set[0])})` : "",
      canTrade ? "" : ": trade it when you reinforce.",
    );
    bestLine.hidden = false;
  }
}

/** The phone's sheet handle says what unfolds: the players, your cards and goal, the log. */
export function renderSheetToggle() {
  const s = store.state;
  const open = $("#sheet").classList.contains("open");
  const v = s.view;
  const cards = v && v.hand ? ` · ${plural(v.hand.length, "card")}` : "";
  const goal = $("#goal-panel").hidden ? "" : ` · ${$("#goal-title").textContent.toLowerCase()}`;
  $("#sheet-toggle-text").textContent = open ? "Fold away" : `Players${cards}${goal} · log${s.seat !== null ? " · settings" : ""}`;
}

// -- goals: missions and headquarters -------------------------------------------------------------
export function renderGoal(colours) {
  const s = store.state;
  const v = s.view;
  const panel = $("#goal-panel");
  const box = clear($("#goal"));
  let title = "";
  const goal = v.goal ? v.goal.kind : "world"; // how the game is won, never which game it is
  if (goal === "secret-mission" && v.missions) {
    title = "Secret mission";
    const mine = s.seat !== null ? v.missions[s.seat] : null;
    if (mine) box.append(el("p", { class: "mission-text", text: mine.text }));
    const others = v.missions.map((m, i) => (m && i !== s.seat ? [i, m] : null)).filter(Boolean);
    for (const [i, m] of others) box.append(el("p", { class: "mission-other" }, el("span", { class: "swatch", style: { background: colours[i].fill } }), ` ${v.players[i].name}: ${m.text}`));
    if (!mine && !others.length) box.append(el("p", { class: "muted", text: "Each player has a secret mission." }));
  } else if (goal === "headquarters") {
    title = "Headquarters";
    const list = el("ul", { class: "hq-list" });
    (v.capitals || []).forEach((c, i) => {
      if (v.players[i] && v.players[i].neutral) return;
      const t = c ? territoryOf(s, slugify(c)) : null;
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
      const own = i === s.seat;
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
