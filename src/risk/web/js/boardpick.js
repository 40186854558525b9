// The lobby's board choice: the shipped boards with a small picture, a board file uploaded (checked
// by the server: POST /api/boards/check, all its problems listed with their lines), or a board
// generated from a seed (POST /api/boards/generate). The game is created with the board's name, or
// the whole board (the server stores it with the game).

import { api } from "./api.js";
import { el, clear, $ } from "./ui.js";

const P = {
  shipped: [],
  maxBytes: 1024 * 1024,
  chosen: { name: "classic", players: [2, 6], rulebooks: true, data: null }, // data: a board given as JSON
  custom: null, // {summary, data, preview}: the uploaded or generated board
  onChange: () => {},
};

function facts(s) {
  const players = s.players ? `${s.players[0]}–${s.players[1]} players` : "";
  return [`${s.territories} territories`, `${s.continents} continents`, players].filter(Boolean).join(" · ");
}

function card({ key, title, summary, img, on }) {
  const button = el(
    "button",
    { type: "button", class: `board-card${on ? " on" : ""}`, "aria-pressed": String(on), dataset: { board: key } },
    img,
    el("strong", { text: title }),
    el("span", { class: "board-facts", text: facts(summary) }),
  );
  return button;
}

function picture(src, alt) {
  return el("img", { class: "board-thumb", src, alt, width: 120, height: 76 });
}

function render() {
  const list = $("#board-list");
  clear(list);
  for (const b of P.shipped) {
    const button = card({
      key: b.name,
      title: b.name === "classic" ? "Classic world" : b.title || b.name,
      summary: b,
      img: picture(b.preview, `The ${b.name} board`),
      on: !P.chosen.data && P.chosen.name === b.name,
    });
    button.addEventListener("click", () => choose({ name: b.name, players: b.players, rulebooks: b.rulebooks, data: null }));
    list.append(button);
  }
  if (P.custom) {
    const s = P.custom.summary;
    const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(P.custom.preview)}`;
    const button = card({ key: "custom", title: s.title && s.title.length < 40 ? s.title : s.name, summary: s,
      img: picture(src, `The ${s.name} board`), on: !!P.chosen.data });
    button.addEventListener("click", () => choose({ name: s.name, players: s.players, rulebooks: s.rulebooks, data: P.custom.data }));
    list.append(button);
  }
}

function choose(chosen) {
  P.chosen = chosen;
  render();
  P.onChange();
}

function showProblems(checked) {
  const box = $("#board-problems");
  clear(box);
  box.hidden = false;
  const count = `${checked.count} problem${checked.count === 1 ? "" : "s"}`;
  box.append(el("strong", { text: `This board file cannot be played: ${count}.` }));
  // Every problem, as `risk board validate` lists them (one of each kind first); the list scrolls.
  const list = el("ul", { class: "problem-list", tabindex: "0", "aria-label": `The board file's ${count}` });
  for (const p of checked.problems) {
    const where = [p.line ? `line ${p.line}` : "", p.where].filter(Boolean).join(", ");
    list.append(el("li", { text: where ? `${where}: ${p.message}` : p.message }));
  }
  box.append(list);
}

function takeCustom(checked) {
  $("#board-problems").hidden = true;
  P.custom = { summary: checked.summary, data: checked.board, preview: checked.preview };
  choose({ name: checked.summary.name, players: checked.summary.players, rulebooks: checked.summary.rulebooks, data: checked.board });
}

async function upload(file) {
  const status = $("#board-status");
  $("#board-problems").hidden = true;
  if (file.size > P.maxBytes) {
    showProblems({ count: 1, problems: [{ message: `the file is ${Math.ceil(file.size / 1024)} KB: a board file is at most ${P.maxBytes / 1024} KB` }] });
    return;
  }
  status.textContent = "Checking the board…";
  try {
    const checked = await fetch("/api/boards/check", { method: "POST", headers: { "Content-Type": "text/plain" }, body: file })
      .then(async (r) => {
        const data = await r.json().catch(() => null);
        if (!r.ok) return { valid: false, count: 1, problems: [{ message: (data && data.error && data.error.message) || `the server answered ${r.status}` }] };
        return data;
      });
    if (checked.valid) takeCustom(checked);
    else showProblems(checked);
  } catch {
    showProblems({ count: 1, problems: [{ message: "the server cannot be reached: check your connection and try again" }] });
  } finally {
    status.textContent = "";
  }
}

async function generate() {
  const status = $("#board-status");
  const number = (id) => Number($(id).value);
  status.textContent = "Generating…";
  $("#board-problems").hidden = true;
  try {
    const body = { territories: number("#gen-territories"), continents: number("#gen-continents"), seed: number("#gen-seed") };
    const players = number("#gen-players");
    if (players > 6) body.players = [2, players];
    takeCustom(await api.generateBoard(body));
  } catch (error) {
    showProblems({ count: 1, problems: [{ message: error.message }] });
  } finally {
    status.textContent = "";
  }
}

/** Fill the board choice; ``onChange`` is called when another board is chosen. */
export async function initBoards(onChange) {
  P.onChange = onChange;
  try {
    const listed = await api.boards();
    P.shipped = listed.boards;
    P.maxBytes = listed.max_bytes || P.maxBytes;
  } catch {
    P.shipped = [{ name: "classic", territories: 42, continents: 6, players: [2, 6], rulebooks: true, preview: "/api/boards/classic/preview.svg" }];
  }
  const classic = P.shipped.find((b) => b.name === "classic") || P.shipped[0];
  P.chosen = { name: classic.name, players: classic.players, rulebooks: classic.rulebooks, data: null };
  $("#board-file").addEventListener("change", (event) => {
    const file = event.target.files && event.target.files[0];
    if (file) upload(file);
    event.target.value = "";
  });
  $("#gen-board").addEventListener("click", generate);
  render();
}

/** The chosen board: {name, players: [lo, hi] or null, rulebooks: whether it is the rulebooks' board (each
 * edition keeps its own player counts there), data: the board's JSON or null}. */
export function chosenBoard() {
  return P.chosen;
}

/** What POST /api/games takes as ``board``: a shipped board's name, or the board itself. */
export function boardField() {
  return P.chosen.data || P.chosen.name;
}
