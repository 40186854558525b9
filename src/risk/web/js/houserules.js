// House rules in the lobby (docs/web.md, "House rules"): save the form's settings under a name, share
// them as a link and a QR code, and open such a link (/#rules=ID or /?rules=ID) to create the same
// game in one click. Names of rules and players only reach the page through textContent.

import { api } from "./api.js";
import { el, clear, $, describeRules } from "./ui.js";
import { durationWords, formatSeconds } from "./clock.js";

let L = null; // the lobby's hooks: collect(), apply(settings), create(), linkRow(label, url, id)

export function initHouseRules(lobby) {
  L = lobby;
  $("#save-rules").addEventListener("click", save);
  $("#rules-name").addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault(); // not the game form's submit
      save();
    }
  });
  openLink();
  window.addEventListener("hashchange", openLink);
}

function rulesLink(saved) {
  return `${location.origin}${saved.link}`;
}

// -- saving ---------------------------------------------------------------------------------------
async function save() {
  const error = $("#rules-error");
  error.textContent = "";
  const name = $("#rules-name").value.trim();
  if (!name) {
    error.textContent = "Give the house rules a name first.";
    $("#rules-name").focus();
    return;
  }
  const { body, error: problem } = L.collect();
  if (problem) {
    error.textContent = problem;
    return;
  }
  const ruleset = {
    name,
    edition: body.edition,
    game: body.game,
    options: body.options,
    table: {
      bot_delay: body.bot_delay,
      defend_timeout: body.defend_timeout,
      spectators: body.spectators,
      public: body.public,
      turn_time: body.turn_time,
      missed_turns: body.missed_turns,
      stand_in: body.stand_in,
      time_bank: body.time_bank,
      vacation_days: body.vacation_days,
    },
  };
  if ($("#rules-seats").checked) ruleset.seats = body.seats;
  const button = $("#save-rules");
  button.disabled = true;
  try {
    const saved = await api.saveRuleset(ruleset);
    const box = clear($("#rules-saved"));
    box.hidden = false;
    box.append(el("p", { class: "hint", text: `Saved as “${saved.name}”. Anyone who opens this link or scans the code gets these rules, ready to create:` }), shareBlock(saved, "rules-link"));
  } catch (err) {
    error.textContent = err.message;
  } finally {
    button.disabled = false;
  }
}

/** The link (copy, open) and its QR code. */
function shareBlock(saved, id) {
  return el(
    "div",
    { class: "rules-share-body" },
    el("img", { class: "qr", id: `${id}-qr`, src: saved.qr, width: 132, height: 132, alt: `QR code of the link to the house rules “${saved.name}”` }),
    el("div", { class: "rules-share-links" }, L.linkRow(saved.name, rulesLink(saved), id)),
  );
}

// -- opening a link --------------------------------------------------------------------------------
function linkedId() {
  const inHash = /(?:^#|&)rules=([^&]+)/.exec(location.hash);
  if (inHash) return decodeURIComponent(inHash[1]);
  return new URLSearchParams(location.search).get("rules");
}

function seatWords(seat) {
  if (seat.kind === "open") return "open seat";
  if (seat.kind === "bot") return `${seat.bot} bot`;
  if (seat.kind === "external") return `${seat.name} (program)`;
  return seat.name;
}

async function openLink() {
  const id = linkedId();
  const box = $("#rules-box");
  if (!id) {
    box.hidden = true;
    return;
  }
  clear(box);
  box.hidden = false;
  let saved;
  try {
    saved = await api.ruleset(id);
  } catch (error) {
    box.append(el("h2", { text: "House rules" }), el("p", { class: "form-error", text: error.message }));
    return;
  }
  const s = saved.settings;
  const table = s.table || {};
  const details = [];
  if (table.spectators === false) details.push("no spectators");
  if (table.spectator_view === "open") details.push("spectators see through the fog");
  if (table.public === false) details.push("not listed in the lobby");
  if (table.turn_time) details.push(`${table.turn_time >= 3600 ? durationWords(table.turn_time) : formatSeconds(table.turn_time)} per turn`);
  if (table.time_bank) details.push(`a time bank of ${durationWords(table.time_bank)} each`);
  if (table.vacation_days) details.push(`${durationWords(table.vacation_days * 86400)} of vacation each`);
  if (table.defend_timeout !== undefined) details.push(table.defend_timeout ? `${table.defend_timeout} s to defend` : "no defence time limit");
  if (table.turn_time && table.missed_turns) details.push(`the ${table.stand_in || "quick"} bot plays after ${table.missed_turns} missed ${table.missed_turns === 1 ? "turn" : "turns"}`);
  const create = el("button", { type: "button", class: "btn btn-primary", id: "rules-create", text: "Create this game" });
  const edit = el("button", { type: "button", class: "btn", id: "rules-edit", text: "Change first" });
  const error = el("p", { class: "form-error", id: "rules-create-error", role: "alert" });
  box.append(
    el("h2", { text: "House rules" }),
    el("p", { class: "rules-title", id: "rules-title", text: saved.name }),
    el("p", { class: "rules-line", id: "rules-rules", text: describeRules(saved.rules) }),
    s.seats ? el("p", { class: "rules-line", id: "rules-seats-line", text: `Players: ${s.seats.map(seatWords).join(" · ")}` }) : null,
    details.length ? el("p", { class: "rules-line muted", text: details.join(" · ") }) : null,
    el("div", { class: "row wrap" }, create, edit),
    error,
    el("details", { class: "more" }, el("summary", { text: "Share these rules" }), shareBlock(saved, "rules-again")),
  );
  create.addEventListener("click", async () => {
    create.disabled = true;
    create.textContent = "Creating…";
    error.textContent = "";
    L.apply(s);
    const made = await L.create();
    create.disabled = false;
    create.textContent = "Create this game";
    if (!made) error.textContent = $("#form-error").textContent;
  });
  edit.addEventListener("click", () => {
    L.apply(s);
    $("#new-title").scrollIntoView({ block: "start", behavior: "smooth" });
  });
}
