// Fair play on the board page (docs/web.md, "Fair play"). Beside each player's chat line and name, a
// "⋯" button: mute their chat (for this seat, kept by the server), report a line to the game's host,
// block the player (an account's block: their lines are hidden in every game, and the two of you are
// never seated together again). The host (the game's host token, kept by the lobby that made it) sees
// the lines reported and bans a player. A refusal is said beside the field or button it answers.

import { api } from "./api.js";
import { nameForm } from "./blocks.js";
import { hosts } from "./seating.js";
import { $, el, toast } from "./ui.js";

const MAX_REASON = 300; // risk.server.fairplay.desk.MAX_REASON
const HOST_EVERY_MS = 20000; // the host's reports, read again at most this often while the panel is open

const fair = {
  key: null, // "game|token": this page's seat; its mutes are loaded once per key
  ctx: null, // the last render's {msg, seat, token, gameId, rerender}
  chat: null, // the Chat (chat.js)
  muted: new Set(), // the seats this seat muted
  account: null, // {name} when signed in (blocks are an account's), else null
  csrf: null,
  open: null, // the menu open: "line:SEQ" or "seat:N"
  confirmBan: null, // the seat whose ban waits for "Yes, ban"
  host: { data: null, at: 0, loading: false, error: "", stage: null },
};

/** The chat whose lines get the buttons (game.js). */
export function useChat(chat) {
  fair.chat = chat;
}

/** After each state: this seat's mutes and the account (once per seat), the players' buttons, the host's panel. */
export function renderFairPlay(ctx) {
  fair.ctx = ctx;
  const key = `${ctx.gameId}|${ctx.token || ""}`;
  if (fair.key !== key) {
    fair.key = key;
    fair.muted = new Set();
    fair.open = null;
    load(ctx);
  }
  decoratePlayers(ctx);
  renderHostPanel(ctx);
}

async function load(ctx) {
  try {
    const who = await api.account();
    fair.account = who.account || null;
    fair.csrf = who.csrf || null;
  } catch {
    fair.account = null; // blocks need the account: the button is not offered
  }
  if (ctx.token && ctx.seat !== null) {
    try {
      fair.muted = new Set((await api.mutes(ctx.gameId, ctx.token)).muted);
    } catch {
      /* the server says why at the next mute; nothing muted is shown */
    }
  }
  redraw();
}

function redraw() {
  if (fair.ctx) decoratePlayers(fair.ctx);
  if (fair.chat) fair.chat.renderAll();
}

const seatInfo = (seat) => (fair.ctx && fair.ctx.msg.seats ? fair.ctx.msg.seats[seat] : null);
const seated = () => Boolean(fair.ctx && fair.ctx.token && fair.ctx.seat !== null);

// -- beside a chat line (chat.js calls this for every line of another player) -------------------------
export function lineTools(entry) {
  if (entry.note || !seated() || entry.seat === fair.ctx.seat) return null;
  const key = `line:${entry.seq}`;
  const wrap = el("span", { class: "fair-tools" });
  wrap.append(moreButton(key, `More for ${entry.name}'s message`));
  if (fair.open === key) wrap.append(menu(entry.seat, entry));
  return wrap;
}

function moreButton(key, label) {
  const open = fair.open === key;
  return el("button", {
    type: "button",
    class: "btn btn-ghost btn-small fair-more",
    text: "⋯",
    title: label,
    "aria-label": label,
    "aria-expanded": String(open),
    onclick: () => {
      fair.open = open ? null : key;
      fair.confirmBan = null;
      redraw();
    },
  });
}

/** The menu for a seat's player (and, from a chat line, that line): mute, report, block, the host's ban. */
function menu(seat, entry = null) {
  const info = seatInfo(seat);
  const name = info ? info.name : entry ? entry.name : `seat ${seat}`;
  const box = el("div", { class: "fair-menu", role: "group", "aria-label": `Fair play: ${name}` });
  const error = el("p", { class: "form-error fair-error", "aria-live": "polite" });
  const row = el("div", { class: "row wrap" });
  if (seated() && seat !== fair.ctx.seat) {
    const muted = fair.muted.has(seat);
    row.append(action(muted ? `Unmute ${name}` : `Mute ${name}`, "fair-mute", error, () => setMute(seat, !muted, name)));
  }
  if (fair.account && seated() && info && info.account) { // by seat: in a game where you hold one
    row.append(action(`Block ${name}`, "fair-block", error, () => block(seat, name)));
  }
  const hostToken = hosts.token(fair.ctx.gameId);
  if (hostToken && info && info.kind === "human" && !info.resigned && !fair.ctx.msg.outcome) {
    row.append(banButton(seat, name, hostToken, error));
  }
  box.append(row);
  if (entry && entry.channel === "all" && seated()) box.append(reportForm(entry));
  box.append(error);
  return box;
}

function action(label, cls, error, run) {
  const button = el("button", { type: "button", class: `btn btn-small ${cls}`, text: label });
  button.addEventListener("click", async () => {
    button.disabled = true;
    error.textContent = "";
    try {
      await run();
    } catch (err) {
      error.textContent = err.message;
      button.disabled = false;
    }
  });
  return button;
}

async function setMute(seat, on, name) {
  const { gameId, token } = fair.ctx;
  const answer = on ? await api.mute(gameId, token, seat) : await api.unmute(gameId, token, seat);
  fair.muted = new Set(answer.muted);
  fair.open = null;
  if (on) {
    fair.chat.hideSeat(seat);
    toast(`${name}'s chat is muted for you, here and when you come back.`, "ok");
  } else {
    fair.chat.receive({ after: 0, messages: (await api.chat(gameId, token)).messages }); // their lines back
    toast(`You read ${name} again.`, "ok");
  }
  redraw();
}

async function block(seat, name) {
  await api.block(fair.csrf, { game: fair.ctx.gameId, seat });
  fair.open = null;
  fair.chat.hideSeat(seat);
  toast(`You blocked ${name}: their chat is hidden in every game, and you will not be seated together. Unblock them in your account (the lobby).`, "ok", 9000);
  redraw();
}

function reportForm(entry) {
  const id = `report-${entry.seq}`;
  const input = el("input", { id: `${id}-reason`, name: "reason", maxlength: String(MAX_REASON), placeholder: "What is wrong with it (optional)", "aria-describedby": `${id}-reason-error` });
  const fieldError = el("span", { class: "field-error", id: `${id}-reason-error`, "aria-live": "polite" });
  const send = el("button", { type: "submit", class: "btn btn-small fair-report", text: "Report to the host" });
  const form = el(
    "form",
    { class: "fair-report-form", id, novalidate: true },
    el("label", { class: "field", for: `${id}-reason` }, el("span", { text: "Report this message" }), input, fieldError),
    send,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    fieldError.textContent = "";
    input.removeAttribute("aria-invalid");
    if (input.value.length > MAX_REASON) {
      fieldError.textContent = `At most ${MAX_REASON} characters.`;
      return;
    }
    send.disabled = true;
    try {
      await api.report(fair.ctx.gameId, fair.ctx.token, entry.seq, input.value.trim() || null);
      fair.open = null;
      toast("Reported to the host. They see the message, never who reported it.", "ok", 8000);
      redraw();
    } catch (err) {
      input.setAttribute("aria-invalid", "true");
      fieldError.textContent = err.message.charAt(0).toUpperCase() + err.message.slice(1);
      send.disabled = false;
    }
  });
  return form;
}

function banButton(seat, name, hostToken, error) {
  if (fair.confirmBan !== seat) {
    return el("button", {
      type: "button",
      class: "btn btn-small btn-ghost fair-ban",
      text: `Ban ${name}…`,
      onclick: () => {
        fair.confirmBan = seat;
        redraw();
      },
    });
  }
  const waiting = fair.ctx.msg.status === "waiting";
  return el(
    "span",
    { class: "fair-confirm" },
    el("span", { class: "warn-text", text: waiting ? `${name}'s seat opens again; they cannot take a seat here.` : `${name} resigns (a loss) and cannot write here.` }),
    action(`Yes, ban ${name}`, "btn-danger fair-ban-yes", error, async () => {
      await api.ban(fair.ctx.gameId, hostToken, { seat });
      fair.open = null;
      fair.confirmBan = null;
      toast(`${name} is banned from this game.`, "ok");
      await loadHost(true);
      redraw();
    }),
  );
}

// -- beside each player's name -------------------------------------------------------------------------
function decoratePlayers(ctx) {
  for (const info of ctx.msg.seats || []) {
    if (info.seat === ctx.seat || info.kind !== "human") continue;
    const row = document.querySelector(`#players .player-row[data-seat="${info.seat}"]`);
    if (!row) continue;
    for (const old of row.parentNode.querySelectorAll(`.fair-row-menu[data-seat="${info.seat}"]`)) old.remove();
    const name = row.querySelector(".player-name");
    for (const old of name.querySelectorAll(".fair-tools")) old.remove();
    const key = `seat:${info.seat}`;
    const tools = el("span", { class: "fair-tools" });
    if (fair.muted.has(info.seat)) tools.append(el("span", { class: "tag tag-muted", text: "muted" }));
    const offers = seated() || hosts.token(ctx.gameId);
    if (offers) tools.append(moreButton(key, `Mute, block or ban ${info.name}`));
    (name.querySelector(".pkind") || name).append(tools); // "human · ..." wraps; the name's line is cut
    if (fair.open === key && offers) {
      const holder = el("div", { class: "fair-row-menu", dataset: { seat: info.seat } }, menu(info.seat));
      row.after(holder);
    }
  }
}

// -- the host's panel: the lines reported, the bans ---------------------------------------------------
function renderHostPanel(ctx) {
  const panel = $("#host-panel");
  if (!panel) return;
  const hostToken = hosts.token(ctx.gameId);
  panel.hidden = !hostToken;
  if (!hostToken) return;
  if (!panel.dataset.wired) {
    panel.dataset.wired = "1";
    panel.addEventListener("toggle", () => panel.open && loadHost(true));
  }
  if (panel.open && Date.now() - fair.host.at > HOST_EVERY_MS) loadHost(false);
  else if (!fair.host.data && !fair.host.loading) loadHost(false);
  // Drawn again when the game's stage changes (or new data comes): not at every state, which would
  // wipe a name being typed.
  const stage = `${ctx.gameId}|${ctx.msg.status}|${Boolean(ctx.msg.outcome)}`;
  if (fair.host.stage !== stage) {
    fair.host.stage = stage;
    drawHost(ctx, hostToken);
  }
}

async function loadHost(force) {
  const ctx = fair.ctx;
  const hostToken = ctx && hosts.token(ctx.gameId);
  if (!hostToken || (fair.host.loading && !force)) return;
  fair.host.loading = true;
  fair.host.at = Date.now();
  try {
    fair.host.data = await api.hostReports(ctx.gameId, hostToken);
    fair.host.error = "";
  } catch (err) {
    fair.host.error = err.message;
  } finally {
    fair.host.loading = false;
  }
  if (fair.ctx) drawHost(fair.ctx, hostToken);
}

function drawHost(ctx, hostToken) {
  const box = $("#host-tools");
  if (!box) return;
  const data = fair.host.data || { reports: [], bans: [] };
  const count = $("#host-count");
  count.hidden = !data.reports.length;
  count.textContent = String(data.reports.length);
  // The ban form stays in the page across a redraw (new reports came, every HOST_EVERY_MS while the
  // panel is open): a name being typed, its caret and focus, or its refusal, stay. (Taken out and put
  // back, the field lost the focus, and the rest of the name typed went nowhere.)
  const banForm = box.querySelector("#ban-form");
  for (const child of [...box.children]) if (child !== banForm) child.remove();
  const parts = [];
  if (fair.host.error) parts.push(el("p", { class: "form-error", text: fair.host.error }));
  parts.push(el("h3", { class: "host-sub", text: "Messages reported" }));
  if (!data.reports.length) parts.push(el("p", { class: "muted", id: "host-no-reports", text: "None: players report a message with the ⋯ beside it." }));
  const list = el("ul", { class: "host-reports", id: "host-reports" });
  for (const line of data.reports) {
    const times = line.reports === 1 ? "reported once" : `reported ${line.reports} times`;
    list.append(
      el(
        "li",
        { class: "host-report", dataset: { seq: line.seq } },
        el("p", {}, el("strong", { text: line.name }), ": ", el("span", { class: "chat-text", text: line.text })),
        el("p", { class: "muted", text: line.reasons.length ? `${times}: ${line.reasons.join(" · ")}` : times }),
      ),
    );
  }
  parts.push(list);
  parts.push(el("h3", { class: "host-sub", text: "Banned" }));
  const waiting = ctx.msg.status === "waiting";
  if (!data.bans.length) parts.push(el("p", { class: "muted", text: "Nobody. Ban a player with the ⋯ beside their name, or by account name below." }));
  const bans = el("ul", { class: "host-bans", id: "host-bans" });
  for (const ban of data.bans) {
    const item = el("li", { class: "host-ban" }, el("span", { text: ban.name }));
    if (waiting) {
      const error = el("span", { class: "field-error" });
      item.append(
        action("Lift the ban", "btn-ghost host-unban", error, async () => {
          fair.host.data = { ...data, bans: (await api.unban(ctx.gameId, hostToken, ban.id)).bans };
          toast(`${ban.name} may take a seat again.`, "ok");
          drawHost(ctx, hostToken);
        }),
        error,
      );
    }
    bans.append(item);
  }
  parts.push(bans);
  box.prepend(...parts); // before the ban form
  if (ctx.msg.outcome) banForm?.remove();
  else if (!banForm) box.append(banByName(hostToken));
  const refresh = el("button", { type: "button", class: "btn btn-small btn-ghost", id: "host-refresh", text: "Refresh", onclick: () => loadHost(true) });
  box.append(refresh);
}

function banByName(hostToken) {
  return nameForm({ id: "ban", label: "Ban an account by name", button: "Ban", empty: "Give the account's name.", cls: "host-ban-form" }, async (name) => {
    const ctx = fair.ctx; // the page's game as it is now (the form outlives redraws)
    const answer = await api.ban(ctx.gameId, hostToken, { name });
    fair.host.data = { ...(fair.host.data || { reports: [] }), bans: answer.bans };
    toast(`${name} is banned from this game.`, "ok");
    drawHost(ctx, hostToken);
  });
}
