// The leaderboards (/players) and a player's profile (/players/NAME): docs/web.md, "Ratings".
//
// Read-only pages over GET /api/ratings and GET /api/players/{name}; the rating history is drawn as
// an SVG line (the conservative rating after each rated game), nothing from outside the page.

import { api } from "./api.js";
import { el, svg, clear, $, GAME_NAMES } from "./ui.js";

const FAMILIES = ["world", "two-player", "secret-mission", "capital", "mission", "team"];

const familyWords = (family) => GAME_NAMES[family] || family;
const paceWords = (pace) => (pace === "days" ? "days" : "live");
const number = (x) => (Math.round(x * 10) / 10).toFixed(1);

function start() {
  const match = /^\/players\/(.+)$/.exec(location.pathname);
  if (match) showProfile(decodeURIComponent(match[1]));
  else showBoard();
}

// -- the leaderboard ----------------------------------------------------------------------------------
function showBoard() {
  $("#board-box").hidden = false;
  const family = $("#board-family");
  for (const f of FAMILIES) family.append(el("option", { value: f, text: familyWords(f) }));
  const params = new URLSearchParams(location.search);
  family.value = FAMILIES.includes(params.get("family")) ? params.get("family") : "world";
  $("#board-pace").value = params.get("pace") === "days" ? "days" : "live";
  const reload = () => {
    history.replaceState(null, "", `/players?family=${family.value}&pace=${$("#board-pace").value}`);
    loadBoard(family.value, $("#board-pace").value);
  };
  family.addEventListener("change", reload);
  $("#board-pace").addEventListener("change", reload);
  loadBoard(family.value, $("#board-pace").value);
}

async function loadBoard(family, pace) {
  const list = clear($("#board-list"));
  try {
    const answer = await api.ratings(family, pace);
    if (!answer.players.length) {
      list.append(el("p", { class: "empty", text: `No rated ${familyWords(family)} game at the ${paceWords(pace)} pace yet.` }));
      return;
    }
    const rows = answer.players.map((p, i) =>
      el(
        "tr",
        {},
        el("td", { class: "rank", text: String(i + 1) }),
        el("td", {}, el("a", { href: `/players/${encodeURIComponent(p.name)}`, text: p.name })),
        el("td", { class: "num", text: number(p.rating) }),
        el("td", { class: "num muted", text: `${number(p.mu)} ± ${number(p.sigma)}` }),
        el("td", { class: "num", text: String(p.games) }),
      ),
    );
    list.append(
      el(
        "table",
        { class: "leaderboard" },
        el("thead", {}, el("tr", {}, ...["#", "Player", "Rating", "mu ± sigma", "Games"].map((h, i) => el("th", { scope: "col", class: i >= 2 ? "num" : null, text: h })))),
        el("tbody", {}, ...rows),
      ),
    );
  } catch (err) {
    $("#players-error").textContent = err.message;
  }
}

// -- a player's profile -------------------------------------------------------------------------------
async function showProfile(name) {
  $("#profile-box").hidden = false;
  try {
    const profile = await api.player(name);
    document.title = `${profile.name} · RISK`;
    $("#profile-name").textContent = profile.name;
    $("#players-title").textContent = profile.name;
    const ratings = $("#profile-ratings");
    if (!profile.ratings.length) ratings.append(el("p", { class: "empty", text: "No rated game yet." }));
    for (const r of profile.ratings) {
      ratings.append(
        el(
          "p",
          { class: "rating-line" },
          el("a", { href: `/players?family=${r.family}&pace=${r.pace}`, text: `${familyWords(r.family)}, ${paceWords(r.pace)}` }),
          ": ",
          el("strong", { text: number(r.rating) }),
          el("span", { class: "muted", text: ` (${number(r.mu)} ± ${number(r.sigma)}, ${r.games} ${r.games === 1 ? "game" : "games"})` }),
        ),
      );
    }
    drawChart($("#profile-chart"), profile.history);
    const games = $("#profile-games");
    const places = new Map(profile.history.map((h) => [h.game, h]));
    if (!profile.games.length) games.append(el("li", { class: "empty", text: "No game yet." }));
    for (const g of profile.games) {
      const rated = places.get(g.game);
      const result = g.status !== "over" ? "being played" : rated ? `place ${rated.place} of ${rated.players}` : g.winner === g.seat ? "won" : "over";
      games.append(
        el(
          "li",
          { class: "game-item" },
          el("div", { class: "gi-head" }, el("span", { class: "gi-title", text: g.players.join(", ") }), el("span", { class: "muted", text: `turn ${g.turn}` })),
          el("div", { class: "gi-status", text: `${rated ? "Rated: " : ""}${result}` }),
          el("a", { class: "btn btn-small", href: g.status === "over" ? `/game/${encodeURIComponent(g.game)}/summary` : `/game/${encodeURIComponent(g.game)}`, text: g.status === "over" ? "Summary" : "Watch" }),
        ),
      );
    }
  } catch (err) {
    $("#players-error").textContent = err.status === 404 ? "No player has that name." : err.message;
  }
}

/** The conservative rating after each rated game, one line per family and pace, each from a new
 * player's 0. Drawn at the box's own width: one unit a pixel, so the labels read on a phone too. */
function drawChart(box, history) {
  clear(box);
  if (!history.length) {
    box.append(el("p", { class: "empty", text: "The chart starts with the first rated game." }));
    return;
  }
  const width = Math.max(280, Math.round(box.clientWidth || 600));
  const height = 200;
  const pad = 36;
  const values = history.map((h) => h.rating);
  const low = Math.min(0, ...values);
  const high = Math.max(1, ...values);
  // Game i is at step i + 1: step 0 is the start, where every line begins at 0.
  const x = (i) => pad + ((i + 1) * (width - 2 * pad)) / history.length;
  const y = (v) => height - pad - ((v - low) * (height - 2 * pad)) / (high - low);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-svg", role: "img", "aria-label": "The conservative rating after each rated game" });
  chart.append(svg("line", { x1: pad, y1: y(0), x2: width - pad, y2: y(0), class: "chart-zero" }));
  chart.append(svg("text", { x: 4, y: y(high) + 4, class: "chart-label", text: number(high) }), svg("text", { x: 4, y: y(low) + 4, class: "chart-label", text: number(low) }));
  const lines = new Map();
  history.forEach((h, i) => {
    const key = `${h.family} ${h.pace}`;
    if (!lines.has(key)) lines.set(key, [[x(-1), y(0), null]]);
    lines.get(key).push([x(i), y(h.rating), h]);
  });
  for (const points of lines.values()) {
    chart.append(svg("polyline", { points: points.map(([px, py]) => `${px},${py}`).join(" "), class: "chart-line" }));
    for (const [px, py, h] of points) {
      if (!h) continue; // the start
      chart.append(svg("circle", { cx: px, cy: py, r: 4, class: "chart-dot" }, svg("title", { text: `${familyWords(h.family)}, ${paceWords(h.pace)}: ${number(h.rating)} after place ${h.place} of ${h.players}` })));
    }
  }
  box.append(chart);
}

start();
