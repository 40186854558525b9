// After the game: /game/{id}/summary (a finished game) and /replay (an uploaded record).
//
// Both show the answer of the server's summary (src/risk/history.py, docs/web.md): the result, a
// timelapse of the whole game on the board (board.js), charts of armies, territories, cards and
// continents per player over the turns (SVG drawn here), and the luck meter with every battle.

import { api, seats } from "./api.js";
import { Board } from "./board.js";
import { fetchJson, setupUpload } from "./replay.js";
import { $, el, svg, clear, seatColours, describeRules, plural, toast, downloadRecord } from "./ui.js";

const CHARTS = [
  { key: "armies", title: "Armies on the board" },
  { key: "territories", title: "Territories" },
  { key: "cards", title: "Cards in hand" },
  { key: "continents", title: "Continents held" },
];

const S = {
  summary: null,
  colours: [],
  gameId: null,
  timelapse: null,
  charts: [],
  boards: new Map(), // boardKey(summary) -> its data (GET /api/boards/{name}, or what a record carries)
};

// -- numbers in words ---------------------------------------------------------------------------------
const MINUS = "\u2212";

function signed(value, digits = 1) {
  const text = Math.abs(value).toFixed(digits);
  if (Number(text) === 0) return `\u00b1${text}`;
  return `${value > 0 ? "+" : MINUS}${text}`;
}

function fixed(value, digits = 1) {
  return Number(value).toFixed(digits);
}

function thousands(n) {
  return Number(n).toLocaleString("en");
}

function swatch(seat) {
  const c = S.colours[seat];
  return el("span", { class: "swatch", style: { background: c ? c.fill : "#888" } });
}

function seatName(seat) {
  const p = S.summary.players[seat];
  return p ? p.name : `Seat ${seat + 1}`;
}

function who(seat) {
  return el("span", { class: "who" }, swatch(seat), el("span", { text: seatName(seat) }));
}

function territoryName(index) {
  const data = S.boards.get(boardKey(S.summary));
  if (data) return data.board.territories[index].name;
  return S.summary.territories[index];
}

/** Which board a summary is played on: its name, and its digest for a board a record carries (two
 * uploaded records may name two different boards alike). */
function boardKey(summary) {
  return summary.board_data ? `${summary.board} ${summary.board_data.sha256}` : summary.board;
}

/** A summary's board: the one an uploaded record carries (POST /api/replay gives it whole), a game's
 * own board (it may be an uploaded one) when the game is known, else the shipped board it names. */
async function boardData(summary, gameId) {
  const key = boardKey(summary);
  if (!S.boards.has(key)) {
    S.boards.set(key, summary.board_data || (await (gameId ? api.gameBoard(gameId) : api.board(summary.board))));
  }
  return S.boards.get(key);
}

// -- the page -----------------------------------------------------------------------------------------
function status(text, kind = "info") {
  const box = $("#summary-status");
  box.hidden = !text;
  clear(box);
  box.className = `summary-status${kind === "error" ? " message-error" : ""}`;
  if (text) box.append(text);
}

/** "the game is over" -> "The game is over." */
function sentence(text) {
  const s = String(text || "").trim();
  if (!s) return "";
  return `${s[0].toUpperCase()}${s.slice(1)}${/[.!?]$/.test(s) ? "" : "."}`;
}

async function start() {
  const path = location.pathname.replace(/\/+$/, "");
  const match = path.match(/^\/game\/([^/]+)\/summary$/);
  if (match) {
    S.gameId = decodeURIComponent(match[1]);
    await openGame(S.gameId);
    return;
  }
  $("#to-replay").hidden = true;
  document.title = "Watch a record · RISK";
  $("#summary-title").textContent = "Watch a record";
  status("");
  setupUpload(async (summary, file) => {
    await show(summary, { file });
    $("#summary-body").scrollIntoView({ behavior: "smooth", block: "start" });
  });
}

/** The seat this page speaks for: the link's #token=..., else one this browser keeps for the game. */
function heldSeat(id) {
  const inLink = /(?:^|[#&])token=([^&]+)/.exec(location.hash);
  if (inLink) return { game: id, token: decodeURIComponent(inLink[1]) };
  return seats.forGame(id).find((s) => s.token);
}

async function openGame(id) {
  const held = heldSeat(id); // a link opened in a fresh browser offers the record too
  const boardLink = `/game/${encodeURIComponent(id)}${held ? `#token=${encodeURIComponent(held.token)}` : ""}`;
  const toBoard = $("#to-board");
  toBoard.href = boardLink;
  toBoard.hidden = false;
  let summary;
  let game = null;
  try {
    [summary, game] = await Promise.all([fetchJson(`/api/games/${encodeURIComponent(id)}/summary`, held ? { headers: { Authorization: `Bearer ${held.token}` } } : {}), api.game(id).catch(() => null)]);
  } catch (error) {
    const onwards = error.code === "not-over" ? el("a", { href: boardLink, text: "Back to the board" }) : el("a", { href: "/", text: "To the lobby" });
    status(el("span", {}, `${sentence(error.message)} `, onwards), "error");
    return;
  }
  await show(summary, { game, held, boardLink, id });
}

async function show(summary, context) {
  S.summary = summary;
  S.colours = seatColours({ players: summary.players, goal: summary.goal });
  status("Drawing the board…");
  let data = null;
  try {
    data = await boardData(summary, context.id);
  } catch (error) {
    toast(`The board could not be loaded: ${error.message}`, "error", 8000);
  }
  status("");
  $("#summary-body").hidden = false;
  renderResult(summary, context);
  if (S.timelapse) S.timelapse.stop();
  S.timelapse = data ? new Timelapse(summary, data) : null;
  renderCharts(summary);
  renderLuck(summary);
  if (S.timelapse) S.timelapse.show(S.timelapse.count - 1);
}

// -- the result ---------------------------------------------------------------------------------------
function renderResult(summary, { game, held, boardLink, file }) {
  const box = clear($("#result"));
  const winners = summary.winners && summary.winners.length ? summary.winners : summary.winner === null ? [] : [summary.winner];
  const title = file ? file.name : "After the game";
  document.title = `${title} · RISK`;
  $("#summary-title").textContent = file ? `Record: ${file.name}` : "After the game";
  let headline;
  if (winners.length) {
    headline = el("h1", { id: "winner", class: "result-title" }, winners.map((w, i) => [i ? " & " : "", swatch(w), ` ${seatName(w)}`]), winners.length > 1 ? " win" : " wins");
  } else {
    headline = el("h1", { id: "winner", class: "result-title", text: summary.over ? "No winner" : "Not finished" });
  }
  const facts = [
    describeRules(summary.rules),
    ...(summary.turns > 0 ? [plural(summary.rounds, "round"), plural(summary.turns, "turn")] : ["ended during the setup"]),
    `${thousands(summary.actions)} steps`,
  ];
  const kinds = new Map(((game && game.seats) || []).map((s) => [s.seat, s.kind === "bot" ? `bot: ${s.bot}` : s.kind]));
  const players = el(
    "ul",
    { class: "result-players" },
    summary.players.map((p) =>
      el(
        "li",
        { class: `result-player${p.alive ? "" : " out"}`, dataset: { seat: p.seat } },
        swatch(p.seat),
        el("span", { class: "pname", text: p.name }),
        kinds.get(p.seat) && kinds.get(p.seat) !== "human" ? el("span", { class: "muted", text: ` (${kinds.get(p.seat)})` }) : null,
        winners.includes(p.seat) ? el("span", { class: "tag tag-ok", text: "won" }) : !p.alive ? el("span", { class: "tag", text: "out" }) : null,
      ),
    ),
  );
  const actions = el("div", { class: "result-actions" });
  if (file) {
    actions.append(
      el("span", {
        class: `tag ${summary.verified ? "tag-ok" : "tag-warn"}`,
        title: summary.verified ? "Every die and card is the one the record's seed gives" : "The record names no seed, or its outcomes were given by hand",
        text: summary.verified ? "dice checked against the seed" : "dice not checked (no seed)",
      }),
    );
  } else {
    if (held) {
      const button = el("button", { type: "button", id: "download-record", class: "btn btn-small btn-primary", text: "Download the record" });
      button.addEventListener("click", () => downloadRecord(S.gameId, held.token));
      actions.append(button);
    } else {
      actions.append(el("span", { class: "hint", id: "record-note", text: "The record is for the game's players: it opens from a seat's link." }));
    }
    actions.append(el("a", { class: "btn btn-small", href: boardLink, text: "The board" }));
  }
  actions.append(el("a", { class: "btn btn-small btn-ghost", href: "/", text: "Lobby" }));
  box.append(
    el("div", { class: "result-main" }, headline, el("p", { class: "result-reason", text: sentence(summary.reason) }), el("p", { class: "result-facts", text: facts.join(" · ") })),
    players,
    actions,
  );
}

// -- the timelapse ------------------------------------------------------------------------------------
class Timelapse {
  constructor(summary, data) {
    const frames = summary.frames;
    const field = Object.fromEntries(frames.fields.map((name, i) => [name, i]));
    this.field = field;
    this.steps = frames.steps;
    this.phases = frames.phases;
    this.count = this.steps.length;
    const n = frames.initial.owner.length;
    this.n = n;
    // Every frame's whole board, built once from the changes: seeking is then instant.
    this.owner = new Int16Array(this.count * n);
    this.armies = new Int32Array(this.count * n);
    const owner = Int16Array.from(frames.initial.owner);
    const armies = Int32Array.from(frames.initial.armies);
    this.steps.forEach((step, i) => {
      const changes = step[field.changes];
      for (let k = 0; k < changes.length; k += 3) {
        owner[changes[k]] = changes[k + 1];
        armies[changes[k]] = changes[k + 2];
      }
      this.owner.set(owner, i * n);
      this.armies.set(armies, i * n);
    });
    // Turn starts (for the turn buttons): the series' frames.
    this.turnStarts = summary.series.frame.slice();
    this.slugs = data.board.territories.map((t) => t.slug);
    this.frame = -1;
    this.playing = false;
    this.timer = 0;

    const host = $("#tl-board");
    if (S.board && S.boardName === boardKey(summary)) {
      this.board = S.board;
    } else {
      this.board = new Board(host, data, { onHover: (slug) => this.hover(slug) });
      S.board = this.board;
      S.boardName = boardKey(summary);
    }
    this.board.fit();
    this.hoverBox = $("#tl-hover") || el("div", { id: "tl-hover", class: "hover-info", hidden: true });
    $(".tl-stage").append(this.hoverBox);

    const slider = $("#tl-slider");
    slider.max = String(this.count - 1);
    slider.oninput = () => {
      this.pause();
      this.show(Number(slider.value));
    };
    $("#tl-play").onclick = () => (this.playing ? this.pause() : this.play());
    $("#tl-back").onclick = () => this.step(-1);
    $("#tl-next").onclick = () => this.step(1);
    $("#tl-prev-turn").onclick = () => this.jumpTurn(-1);
    $("#tl-next-turn").onclick = () => this.jumpTurn(1);
    $("#tl-speed").onchange = () => {
      if (this.playing) this.play();
    };
    $("#tl-zoom-in").onclick = () => this.board.zoomBy(1.4);
    $("#tl-zoom-out").onclick = () => this.board.zoomBy(1 / 1.4);
    $("#tl-zoom-fit").onclick = () => this.board.fit();
  }

  state(frame) {
    const n = this.n;
    const rows = [];
    for (let t = 0; t < n; t++) rows.push({ owner: this.owner[frame * n + t], armies: this.armies[frame * n + t] });
    return rows;
  }

  show(frame) {
    frame = Math.max(0, Math.min(this.count - 1, frame));
    this.frame = frame;
    const step = this.steps[frame];
    const f = this.field;
    const rows = this.state(frame);
    const arrow = step[f.arrow];
    const pointing = arrow ? { from: this.slugs[arrow[0]], to: this.slugs[arrow[1]] } : null;
    this.board.update({
      territories: rows,
      colours: S.colours,
      mine: null,
      arrow: pointing ? { ...pointing, kind: arrow[2] === "attack" ? "attack" : "fortify" } : null,
      battle: pointing && arrow[2] === "attack" ? pointing : null,
    });
    $("#tl-slider").value = String(frame);
    $("#tl-frame").textContent = `step ${thousands(frame)} of ${thousands(this.count - 1)}`;
    const turn = step[f.turn];
    const phase = (this.phases[step[f.phase]] || "").replace(/-/g, " ");
    const player = step[f.player];
    const turnInfo = $("#tl-turn");
    clear(turnInfo);
    if (turn === 0) turnInfo.append(el("span", { text: "Setup" }));
    else turnInfo.append(el("span", { text: `Round ${step[f.round]} · turn ${turn} · ${phase}` }));
    if (turn > 0 && player >= 0 && phase !== "game over") turnInfo.append(" · ", who(player));
    const log = $("#tl-log");
    clear(log);
    const seat = step[f.seat];
    if (seat >= 0) log.append(swatch(seat), " ");
    log.append(step[f.log] || "");
    log.title = step[f.log] || ""; // the whole line, where it is cut short
    this.renderPlayers(rows);
    for (const chart of S.charts) chart.cursor(frame);
    this.hover(this.hovered);
  }

  renderPlayers(rows) {
    const counts = S.summary.players.map(() => ({ territories: 0, armies: 0 }));
    for (const row of rows) {
      if (row.owner >= 0 && counts[row.owner]) {
        counts[row.owner].territories += 1;
        counts[row.owner].armies += row.armies;
      }
    }
    const box = clear($("#tl-players"));
    S.summary.players.forEach((p, seat) => {
      const c = counts[seat];
      box.append(
        el(
          "span",
          { class: `tl-player${c.territories ? "" : " out"}`, dataset: { seat } },
          swatch(seat),
          el("span", { class: "pname", text: p.name }),
          el("span", { class: "tl-count", title: "territories", text: String(c.territories) }),
          el("span", { class: "tl-unit", text: "terr." }),
          el("span", { class: "tl-count", title: "armies on the board", text: String(c.armies) }),
          el("span", { class: "tl-unit", text: "armies" }),
        ),
      );
    });
  }

  hover(slug) {
    this.hovered = slug;
    const box = this.hoverBox;
    if (!slug || this.frame < 0) {
      box.hidden = true;
      return;
    }
    const index = this.slugs.indexOf(slug);
    const row = this.state(this.frame)[index];
    clear(box).append(el("strong", { text: territoryName(index) }));
    if (row.owner >= 0) box.append(" · ", who(row.owner), ` · ${plural(row.armies, "army", "armies")}`);
    box.hidden = false;
  }

  step(delta) {
    this.pause();
    this.show(this.frame + delta);
  }

  jumpTurn(direction) {
    this.pause();
    const starts = this.turnStarts;
    let target;
    if (direction > 0) target = starts.find((f) => f > this.frame);
    else target = [...starts].reverse().find((f) => f < this.frame);
    this.show(target === undefined ? (direction > 0 ? this.count - 1 : 0) : target);
  }

  play() {
    this.stop();
    if (this.frame >= this.count - 1) this.show(0);
    this.playing = true;
    playButton(true);
    const rate = Number($("#tl-speed").value) || 12;
    let last = performance.now();
    let carry = 0;
    const tick = (now) => {
      if (!this.playing) return;
      carry += ((now - last) / 1000) * rate;
      last = now;
      const advance = Math.floor(carry);
      if (advance > 0) {
        carry -= advance;
        this.show(this.frame + advance);
        if (this.frame >= this.count - 1) {
          this.pause();
          return;
        }
      }
      this.timer = requestAnimationFrame(tick);
    };
    this.timer = requestAnimationFrame(tick);
  }

  pause() {
    this.stop();
    playButton(false);
  }

  stop() {
    this.playing = false;
    if (this.timer) cancelAnimationFrame(this.timer);
    this.timer = 0;
  }
}

const PLAY_ICON = "M7 4.5v15L19.5 12z";
const PAUSE_ICON = "M6.5 5h4v14h-4zM13.5 5h4v14h-4z";

function playButton(playing) {
  const button = $("#tl-play");
  button.setAttribute("aria-pressed", String(playing));
  button.querySelector("path").setAttribute("d", playing ? PAUSE_ICON : PLAY_ICON);
  button.querySelector("span").textContent = playing ? "Pause" : "Play";
}

/** Show the timelapse at a frame and bring the map into view. */
function watch(frame) {
  if (!S.timelapse) return;
  S.timelapse.pause();
  S.timelapse.show(frame);
  const stage = $(".timelapse");
  const top = stage.getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight * 0.5) stage.scrollIntoView({ behavior: "smooth", block: "start" });
}

// -- the charts ---------------------------------------------------------------------------------------
function niceStep(max, ticks = 4) {
  const raw = Math.max(1, max) / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw);
  return Math.max(1, step);
}

function renderCharts(summary) {
  const series = summary.series;
  const legend = clear($("#chart-legend"));
  summary.players.forEach((p, seat) => legend.append(el("span", { class: "legend-item", dataset: { seat } }, swatch(seat), el("span", { text: p.name }))));
  const box = clear($("#charts"));
  S.charts = [];
  if (!series.turn.length) {
    box.append(el("p", { class: "empty", text: "The game ended before its first turn: nothing to chart." }));
    return;
  }
  for (const spec of CHARTS) {
    const chart = new Chart(spec, series, summary.players);
    box.append(chart.node);
    S.charts.push(chart);
  }
  requestAnimationFrame(() => S.charts.forEach((c) => c.draw()));
}

class Chart {
  constructor(spec, series, players) {
    this.spec = spec;
    this.series = series;
    this.values = series[spec.key];
    this.players = players;
    this.node = el("figure", { class: "chart", dataset: { series: spec.key } }, el("figcaption", { text: spec.title }));
    this.plot = el("div", { class: "chart-plot" });
    this.tip = el("div", { class: "chart-tip", hidden: true });
    this.plot.append(this.tip);
    this.node.append(this.plot);
    this.width = 0;
    this.frame = -1;
    new ResizeObserver(() => {
      if (Math.abs(this.plot.clientWidth - this.width) > 1) this.draw();
    }).observe(this.plot);
  }

  draw() {
    const width = this.plot.clientWidth;
    if (!width) return;
    this.width = width;
    const height = Math.round(Math.max(150, Math.min(220, width * 0.42)));
    const pad = { left: 34, right: 10, top: 8, bottom: 24 };
    const count = this.values.length;
    const max = Math.max(1, ...this.values.flat());
    const step = niceStep(max);
    const top = Math.ceil(max / step) * step;
    const x = (i) => pad.left + (count > 1 ? (i / (count - 1)) * (width - pad.left - pad.right) : (width - pad.left - pad.right) / 2);
    const y = (v) => pad.top + (1 - v / top) * (height - pad.top - pad.bottom);
    this.x = x;
    this.height = height;
    this.pad = pad;
    const root = svg("svg", { class: "chart-svg", width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `${this.spec.title} per player over the turns` });
    const grid = svg("g", { class: "chart-grid-lines" });
    for (let v = 0; v <= top + 1e-9; v += step) {
      grid.append(
        svg("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v) }),
        svg("text", { x: pad.left - 5, y: y(v), dy: "0.32em", class: "chart-y", text: String(Math.round(v * 10) / 10) }),
      );
    }
    // Rounds along the bottom: as many labels as fit.
    const rounds = this.series.round;
    const last = rounds[rounds.length - 1] || 1;
    const every = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500].find((k) => last / k <= Math.max(2, Math.floor(width / 70))) || 1000;
    let shown = -1;
    rounds.forEach((r, i) => {
      if (r !== shown && (r === 1 || r % every === 0)) {
        shown = r;
        grid.append(svg("text", { x: x(i), y: height - 6, class: "chart-x", text: r === 1 ? "round 1" : String(r) }));
        grid.append(svg("line", { x1: x(i), x2: x(i), y1: height - pad.bottom, y2: height - pad.bottom + 4, class: "chart-tick" }));
      }
    });
    root.append(grid);
    const lines = svg("g", { class: "chart-lines" });
    this.players.forEach((p, seat) => {
      const points = this.values.map((row, i) => `${x(i).toFixed(1)},${y(row[seat]).toFixed(1)}`);
      const colour = S.colours[seat] ? S.colours[seat].fill : "#888";
      lines.append(svg("polyline", { points: points.join(" "), class: `chart-line${p.neutral ? " neutral" : ""}`, stroke: colour, dataset: { seat } }));
    });
    root.append(lines);
    this.cursorLine = svg("line", { class: "chart-cursor", y1: pad.top, y2: height - pad.bottom, visibility: "hidden" });
    this.hoverLine = svg("line", { class: "chart-hover", y1: pad.top, y2: height - pad.bottom, visibility: "hidden" });
    root.append(this.cursorLine, this.hoverLine);
    root.addEventListener("pointermove", (event) => this.pointAt(event));
    root.addEventListener("pointerleave", () => {
      this.hoverLine.setAttribute("visibility", "hidden");
      this.tip.hidden = true;
    });
    root.addEventListener("click", (event) => {
      const i = this.indexAt(event);
      if (i !== null) watch(this.series.frame[i]);
    });
    const old = this.plot.querySelector("svg");
    if (old) old.replaceWith(root);
    else this.plot.prepend(root);
    this.cursor(this.frame);
  }

  indexAt(event) {
    const count = this.values.length;
    if (!this.x || !count) return null;
    const rect = this.plot.getBoundingClientRect();
    const px = event.clientX - rect.left;
    const span = this.x(count - 1) - this.x(0) || 1;
    return Math.max(0, Math.min(count - 1, Math.round(((px - this.x(0)) / span) * (count - 1))));
  }

  pointAt(event) {
    const i = this.indexAt(event);
    if (i === null) return;
    this.hoverLine.setAttribute("x1", this.x(i));
    this.hoverLine.setAttribute("x2", this.x(i));
    this.hoverLine.setAttribute("visibility", "visible");
    const order = this.players.map((p, seat) => seat).sort((a, b) => this.values[i][b] - this.values[i][a]);
    const end = i === this.values.length - 1 && S.summary.over;
    clear(this.tip).append(
      el("div", { class: "chart-tip-head", text: `${end ? "End · " : ""}Round ${this.series.round[i]} · turn ${this.series.turn[i]}` }),
      ...order.filter((seat) => this.values[i][seat] > 0 || !this.players[seat].neutral).map((seat) => el("div", { class: "chart-tip-row" }, swatch(seat), el("span", { text: this.players[seat].name }), el("strong", { text: String(this.values[i][seat]) }))),
    );
    this.tip.hidden = false;
    const left = this.x(i);
    const wide = this.plot.clientWidth;
    this.tip.style.left = `${Math.min(Math.max(4, left + 10), Math.max(4, wide - this.tip.offsetWidth - 4))}px`;
    if (left + 10 + this.tip.offsetWidth > wide) this.tip.style.left = `${Math.max(4, left - this.tip.offsetWidth - 10)}px`;
  }

  /** The timelapse is at ``frame``: mark the turn it belongs to. */
  cursor(frame) {
    this.frame = frame;
    if (!this.cursorLine) return;
    const frames = this.series.frame;
    let index = -1;
    for (let i = 0; i < frames.length && frames[i] <= frame; i++) index = i;
    if (index < 0) {
      this.cursorLine.setAttribute("visibility", "hidden");
      return;
    }
    this.cursorLine.setAttribute("x1", this.x(index));
    this.cursorLine.setAttribute("x2", this.x(index));
    this.cursorLine.setAttribute("visibility", "visible");
  }
}

// -- the luck meter -----------------------------------------------------------------------------------
function renderLuck(summary) {
  const luck = summary.luck;
  const rows = luck.seats.filter((s) => s.rolls > 0);
  const box = clear($("#luck"));
  const headline = clear($("#luck-headline"));
  if (!rows.length) {
    box.append(el("p", { class: "empty", text: "No dice were rolled." }));
    $("#battles").hidden = true;
    $("#to-battles").hidden = true;
    $("#luck-total").textContent = "";
    return;
  }
  $("#battles").hidden = false;
  $("#to-battles").hidden = false;
  const scale = Math.max(1, ...rows.map((s) => Math.abs(s.luck)));
  const sorted = [...rows].sort((a, b) => b.luck - a.luck);
  const best = sorted[0];
  const worst = sorted[sorted.length - 1];
  headline.append("Luckiest: ", who(best.seat), el("strong", { class: "good", text: ` ${signed(best.luck)}` }));
  if (worst !== best) headline.append(el("span", { class: "sep", text: " · " }), "unluckiest: ", who(worst.seat), el("strong", { class: worst.luck < 0 ? "poor" : "", text: ` ${signed(worst.luck)}` }));
  for (const s of rows) {
    const share = (Math.abs(s.luck) / scale) * 50;
    const bar = el("div", { class: `luck-fill ${s.luck >= 0 ? "plus" : "minus"}`, style: { width: `${share}%`, background: S.colours[s.seat] ? S.colours[s.seat].fill : "#888" } });
    if (s.luck >= 0) bar.style.left = "50%";
    else bar.style.right = "50%";
    const parts = [
      s.attacks ? `attacking ${signed(s.attacking)}` : null,
      s.defences ? `defending ${signed(s.defending)}` : null,
      `lost ${s.lost} (average ${fixed(s.expected_lost)})`,
      `killed ${s.killed} (average ${fixed(s.expected_killed)})`,
    ];
    if (Math.abs(s.edge) >= 0.05) parts.push(`re-rolls and commanders ${signed(s.edge)}`);
    box.append(
      el(
        "div",
        { class: "luck-row", dataset: { seat: s.seat, luck: String(s.luck) } },
        el("div", { class: "luck-who", title: seatName(s.seat) }, who(s.seat)),
        el("div", { class: "luck-track", title: `${signed(s.luck, 2)} armies of luck` }, el("span", { class: "luck-zero" }), bar),
        el("div", { class: `luck-value ${s.luck >= 0.05 ? "good" : s.luck <= -0.05 ? "poor" : ""}`, text: signed(s.luck) }),
        el("div", { class: "luck-detail", text: parts.filter(Boolean).join(" · ") }),
      ),
    );
  }
  const total = luck.total;
  $("#luck-total").textContent =
    `${plural(total.battles, "battle")}, ${plural(total.rolls, "roll")}. Attackers lost ${thousands(total.attackers_lost)} (average ${fixed(total.attackers_expected)}), ` +
    `defenders ${thousands(total.defenders_lost)} (average ${fixed(total.defenders_expected)}): the attackers' luck all together ${signed(total.attackers_luck)}.`;
  setupBattles(summary);
}

function setupBattles(summary) {
  const battles = summary.luck.battles;
  $("#battle-count").textContent = `(${thousands(battles.length)})`;
  $("#battle-count-2").textContent = `(${thousands(battles.length)})`;
  $("#to-battles").onclick = () => {
    $("#battles").open = true;
  };
  const pick = clear($("#battle-player"));
  pick.append(el("option", { value: "", text: "everyone" }));
  summary.players.forEach((p, seat) => {
    if (battles.some((b) => b.attacker === seat || b.defender === seat)) pick.append(el("option", { value: String(seat), text: p.name }));
  });
  const order = $("#battle-order");
  order.value = "time";
  pick.onchange = () => renderBattles(summary);
  order.onchange = () => renderBattles(summary);
  renderBattles(summary);
}

function renderBattles(summary) {
  const seatText = $("#battle-player").value;
  const seat = seatText === "" ? null : Number(seatText);
  const order = $("#battle-order").value;
  // With a player chosen, luck is counted from that player's side (the attacker's otherwise).
  const luckOf = (b) => (seat === null || b.attacker === seat ? b.luck : -b.luck);
  const list = summary.luck.battles.map((b, index) => ({ ...b, index })).filter((b) => seat === null || b.attacker === seat || b.defender === seat);
  if (order === "lucky") list.sort((a, b) => luckOf(b) - luckOf(a));
  else if (order === "unlucky") list.sort((a, b) => luckOf(a) - luckOf(b));
  else if (order === "big") list.sort((a, b) => b.lost[0] + b.lost[1] - (a.lost[0] + a.lost[1]) || a.index - b.index);
  $("#battle-luck-head").textContent = seat === null ? "Luck" : `${seatName(seat)}'s luck`;
  const body = clear($("#battle-table tbody"));
  const shown = list.slice(0, 600);
  for (const b of shown) {
    const watchButton = el("button", { type: "button", class: "btn btn-small btn-ghost watch-battle", title: "Watch it on the map", "aria-label": "Watch it on the map", text: "▶" });
    watchButton.addEventListener("click", () => watch(b.frame));
    const value = luckOf(b);
    body.append(
      el(
        "tr",
        { dataset: { frame: b.frame, attacker: b.attacker, defender: b.defender } },
        el("td", { class: "num battle-round", dataset: { label: "round" }, text: String(b.round) }),
        el("td", { class: "battle-who" }, who(b.attacker), el("span", { class: "arrow-word", text: " → " }), who(b.defender), b.conquered ? el("span", { class: "tag tag-ok", text: "taken" }) : null),
        el("td", { class: "battle-where", text: `${territoryName(b.from)} (${b.armies[0]}) → ${territoryName(b.to)} (${b.armies[1]})` }),
        el("td", { class: "num battle-rolls", dataset: { label: "rolls" }, text: String(b.rolls) }),
        el("td", { class: "num battle-att", dataset: { label: "att. lost" } }, String(b.lost[0]), el("span", { class: "muted", text: ` (${fixed(b.expected[0])})` })),
        el("td", { class: "num battle-def", dataset: { label: "def. lost" } }, String(b.lost[1]), el("span", { class: "muted", text: ` (${fixed(b.expected[1])})` })),
        el("td", { class: `num battle-luck ${value >= 0.05 ? "good" : value <= -0.05 ? "poor" : ""}`, text: signed(value) }),
        el("td", { class: "battle-watch" }, watchButton),
      ),
    );
  }
  if (list.length > shown.length) body.append(el("tr", {}, el("td", { colspan: 8, class: "muted", text: `and ${list.length - shown.length} more: choose a player to see theirs.` })));
}

start().catch((error) => status(`Something went wrong: ${error.message}`, "error"));
