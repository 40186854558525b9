// The chat beside the log on the board page (docs/web.md, "Chat"): a tab next to the log, the team
// channel in Team RISK, server notes as system lines. Whatever players write only ever reaches the
// page through textContent (el(..., {text})), never as HTML.

import { el, clear, $, seatColours, toast } from "./ui.js";

const MAX_CHAT = 500; // the server's limit (risk.server.chat.MAX_CHAT)
const KEEP = 300; // lines kept in the page
const COUNT_FROM = 400; // show "n / 500" from this many characters

export class Chat {
  /**
   * send(text, channel) -> bool: hands a message to the connection (false when it is down).
   * onNote(entry): a server note arrived live (not from the history).
   * tools(entry): what stands beside a player's line (fairplay.js: mute, report, block), or null.
   */
  constructor({ send, onNote, tools }) {
    this.send = send;
    this.onNote = onNote || (() => {});
    this.tools = tools || (() => null);
    this.messages = new Map(); // seq -> entry
    this.rendered = 0; // the highest seq in the page
    this.unread = 0;
    this.seat = null;
    this.view = null;
    this.lastSent = null;
    this.errorTimer = null;
    this.notesPrimed = false; // the first state's notes are history; later ones are news
    this.wire();
  }

  wire() {
    $("#tab-log").addEventListener("click", () => this.showTab("log"));
    $("#tab-chat").addEventListener("click", () => this.showTab("chat"));
    const input = $("#chat-input");
    input.maxLength = MAX_CHAT;
    input.addEventListener("input", () => this.showCount());
    $("#chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  /** A new connection (another token): its history replaces everything. */
  reset() {
    this.messages.clear();
    this.rendered = 0;
    this.unread = 0;
    this.notesPrimed = false;
    clear($("#chat-list"));
    this.showUnread();
  }

  /** A seat muted or a player blocked (fairplay.js): their lines leave the page (the server sends no more). */
  hideSeat(seat) {
    for (const [seq, entry] of this.messages) if (entry.seat === seat && !entry.note) this.messages.delete(seq);
    this.someHidden = true;
    this.renderAll();
  }

  /** Who is reading, after each state: names, colours and teams come from the view. */
  update(seat, view) {
    const changed = this.seat !== seat || !this.view || this.view.game !== view.game;
    this.seat = seat;
    this.view = view;
    const watching = seat === null;
    $("#chat-form").hidden = watching;
    $("#chat-readonly").hidden = !watching;
    const channel = $("#chat-channel");
    const teams = Boolean(view.has_teams) && !watching;
    if (changed) {
      clear(channel).append(
        el("option", { value: "team", text: "My team" }),
        el("option", { value: "all", text: "Everyone" }),
      );
      channel.value = teams ? "team" : "all"; // in Team RISK a slip to everyone would tell the other team
    }
    channel.hidden = !teams;
    $("#chat-input").placeholder = teams ? "Message" : "Message everyone";
    if (changed) this.renderAll();
  }

  /** A `chat` message from the server: the history after hello (it has `after`), or new lines. */
  receive(msg) {
    const history = msg.after !== undefined;
    if (history && msg.after === 0) {
      this.messages.clear();
      this.rendered = 0;
      clear($("#chat-list"));
    }
    let outOfOrder = false;
    for (const entry of msg.messages || []) {
      if (this.messages.has(entry.seq)) continue;
      this.messages.set(entry.seq, entry);
      if (entry.seq < this.rendered) outOfOrder = true;
      if (history) continue;
      if (entry.note) {
        toast(entry.text, "info", 9000);
        this.onNote(entry);
      }
      if (entry.seat !== this.seat && !this.chatVisible()) this.unread += 1;
      if (entry.seat === this.seat && this.seat !== null) this.clearError();
    }
    if (outOfOrder) this.renderAll();
    else this.renderNew();
    this.showUnread();
  }

  /**
   * The server notes of a state message (the clock ran out, a seat changed hands, a resignation:
   * docs/web.md, "Server notes"). They are chat messages too (the same seq), but come with the
   * state rather than as `chat` messages, so the chat takes them from there; a note it holds
   * already is skipped. The notes of the first state are history; later ones are news (a toast).
   */
  takeNotes(notes) {
    let added = false;
    let outOfOrder = false;
    for (const note of notes || []) {
      const seq = Number(note.seq);
      if (this.messages.has(seq)) continue;
      this.messages.set(seq, { seq, seat: null, name: "", channel: "all", text: note.text, at: note.at, note: true });
      added = true;
      if (seq < this.rendered) outOfOrder = true;
      if (this.notesPrimed) {
        toast(note.text, "info", 9000);
        if (!this.chatVisible()) this.unread += 1;
      }
    }
    this.notesPrimed = true;
    if (!added) return;
    if (outOfOrder) this.renderAll();
    else this.renderNew();
    this.showUnread();
  }

  /** The server refused a message of ours: say why, and give the text back to edit. */
  refused(msg) {
    const input = $("#chat-input");
    if (this.lastSent && !input.value) input.value = this.lastSent;
    this.showError(msg.code === "rate-limited" ? `Slow down: ${msg.message}` : msg.message);
    this.showCount();
  }

  submit() {
    const input = $("#chat-input");
    const text = input.value.trim();
    if (!text) return;
    if (text.length > MAX_CHAT) {
      this.showError(`The message is ${text.length} characters long; the limit is ${MAX_CHAT}.`);
      return;
    }
    const channel = $("#chat-channel").hidden ? "all" : $("#chat-channel").value;
    if (!this.send(text, channel)) {
      this.showError("Not connected: the message was not sent. Send it again once the connection is back.");
      return;
    }
    this.lastSent = text;
    input.value = "";
    this.showCount();
  }

  // -- drawing ------------------------------------------------------------------------------------
  chatVisible() {
    return !$("#chat-pane").hidden && !document.hidden;
  }

  showTab(name) {
    const chat = name === "chat";
    $("#tab-log").setAttribute("aria-selected", String(!chat));
    $("#tab-chat").setAttribute("aria-selected", String(chat));
    $("#log-pane").hidden = chat;
    $("#chat-pane").hidden = !chat;
    const list = chat ? $("#chat-list") : $("#log");
    list.scrollTop = list.scrollHeight;
    if (chat) {
      this.unread = 0;
      this.showUnread();
      if (!window.matchMedia("(pointer: coarse)").matches) $("#chat-input").focus({ preventScroll: true });
    }
  }

  showUnread() {
    const badge = $("#chat-unread");
    badge.hidden = this.unread === 0;
    badge.textContent = this.unread > 99 ? "99+" : String(this.unread);
    // A phone's folded sheet hides the chat tab: its handle says that messages came.
    const handle = $("#sheet-unread");
    if (handle) {
      handle.hidden = badge.hidden;
      handle.textContent = `${badge.textContent} new`;
    }
  }

  showCount() {
    const n = $("#chat-input").value.length;
    const count = $("#chat-count");
    count.hidden = n < COUNT_FROM;
    count.textContent = `${n} / ${MAX_CHAT}`;
  }

  showError(text) {
    const box = $("#chat-error");
    box.textContent = text;
    clearTimeout(this.errorTimer);
    this.errorTimer = setTimeout(() => this.clearError(), 8000);
  }

  clearError() {
    $("#chat-error").textContent = "";
  }

  renderAll() {
    clear($("#chat-list"));
    this.rendered = 0;
    this.renderNew();
  }

  renderNew() {
    const list = $("#chat-list");
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 48;
    const fresh = [...this.messages.values()].filter((m) => m.seq > this.rendered).sort((a, b) => a.seq - b.seq);
    for (const entry of fresh) {
      list.append(this.line(entry));
      this.rendered = entry.seq;
    }
    while (list.childElementCount > KEEP) list.firstElementChild.remove();
    const empty = $("#chat-empty");
    empty.hidden = this.messages.size > 0;
    if (this.someHidden) empty.textContent = "Nothing to show: the lines of players you muted or blocked are hidden.";
    if (atBottom || fresh.some((m) => m.seat === this.seat)) list.scrollTop = list.scrollHeight;
  }

  line(entry) {
    const when = new Date(entry.at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    if (entry.note) {
      return el(
        "li",
        { class: "chat-line chat-note", dataset: { seq: entry.seq, note: "1" }, title: when },
        el("span", { class: "chat-text", text: entry.text }),
      );
    }
    const colours = this.view ? seatColours(this.view) : [];
    const colour = colours[entry.seat] ? colours[entry.seat].fill : null;
    const mine = entry.seat === this.seat && this.seat !== null;
    return el(
      "li",
      {
        class: `chat-line${mine ? " mine" : ""}${entry.channel === "team" ? " chat-team" : ""}`,
        dataset: { seq: entry.seq, seat: entry.seat, channel: entry.channel },
        title: when,
      },
      colour ? el("span", { class: "log-dot", style: { background: colour } }) : el("span", { class: "log-dot none" }),
      el("span", { class: "chat-body" },
        el("strong", { class: "chat-name", text: entry.name }),
        entry.channel === "team" ? el("span", { class: "tag chat-team-tag", text: "team" }) : null,
        " ",
        el("span", { class: "chat-text", text: entry.text }),
      ),
      mine ? null : this.tools(entry),
    );
  }
}
