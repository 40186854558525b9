// The server's HTTP and websocket API (docs/web.md), and the seats this browser holds.
//
// Nothing here touches the page: the lobby and the board build on it.

export class ApiError extends Error {
  constructor(code, message, status = 0, field = null) {
    super(message);
    this.code = code;
    this.status = status;
    this.field = field; // a form's refused value: the field's name (accounts)
  }
}

async function request(method, path, { body, token, csrf } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (csrf) headers["X-CSRF-Token"] = csrf; // an account's change (docs/web.md, "Accounts")
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new ApiError("network", "The server cannot be reached: check your connection and try again.");
  }
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await response.json().catch(() => null) : await response.text();
  if (!response.ok) {
    const err = data && data.error;
    if (err && err.message) throw new ApiError(err.code || "error", err.message, response.status, err.field || null);
    throw new ApiError("http", `The server answered ${response.status} ${response.statusText}.`, response.status);
  }
  return data;
}

export const api = {
  meta: () => request("GET", "/api/meta"),
  board: (name) => request("GET", `/api/boards/${encodeURIComponent(name)}`),
  boards: () => request("GET", "/api/boards"),
  gameBoard: (id) => request("GET", `/api/games/${encodeURIComponent(id)}/board`),
  generateBoard: (body) => request("POST", "/api/boards/generate", { body }),
  odds: (attackers, defenders, stop = 0) =>
    request("GET", `/api/odds?attackers=${attackers}&defenders=${defenders}&stop=${stop}`),
  // GET /api/games: a status (waiting, playing, over) and the open games' filters ({edition, board, ...}).
  games: (status, filters = {}) => {
    const query = new URLSearchParams(Object.entries({ status, ...filters }).filter(([, value]) => value !== undefined && value !== ""));
    return request("GET", `/api/games${String(query) ? `?${query}` : ""}`);
  },
  game: (id) => request("GET", `/api/games/${encodeURIComponent(id)}`),
  create: (body) => request("POST", "/api/games", { body }),
  startWithBots: (id, hostToken, bot) => request("POST", `/api/games/${encodeURIComponent(id)}/start`, { token: hostToken, body: { bot } }),
  join: (id, seat, name) => request("POST", `/api/games/${encodeURIComponent(id)}/join`, { body: { seat, name } }),
  view: (id, token) => request("GET", `/api/games/${encodeURIComponent(id)}/view`, { token }),
  record: (id, token) => request("GET", `/api/games/${encodeURIComponent(id)}/record`, { token }),
  // Seats (docs/web.md, "Seats"): resign, hand the seat to a bot and back, the host's replacement.
  resign: (id, token) => request("POST", `/api/games/${encodeURIComponent(id)}/resign`, { token }),
  standIn: (id, token, on) => request("POST", `/api/games/${encodeURIComponent(id)}/stand-in`, { token, body: { on } }),
  // A seat's own settings (docs/web.md, "A seat's settings"): defence dice, the bots' pace, setup orders.
  prefs: (id, token, body) => request("POST", `/api/games/${encodeURIComponent(id)}/prefs`, { token, body }),
  // Vacations (docs/web.md, "The turn clock"): {days} to go away, {back: true} to come back early.
  vacation: (id, token, body) => request("POST", `/api/games/${encodeURIComponent(id)}/vacation`, { token, body }),
  // Notifications (docs/web.md, "Notifications"): the seat's e-mail, given, read back (no address), taken away.
  notifySettings: (id, token) => request("GET", `/api/games/${encodeURIComponent(id)}/notify`, { token }),
  notifyEmail: (id, token, body) => request("PUT", `/api/games/${encodeURIComponent(id)}/notify/email`, { token, body }),
  stopEmail: (id, token) => request("DELETE", `/api/games/${encodeURIComponent(id)}/notify/email`, { token }),
  // Web Push: {subscription} is the browser's PushSubscription (toJSON()); one browser per seat.
  notifyPush: (id, token, body) => request("PUT", `/api/games/${encodeURIComponent(id)}/notify/push`, { token, body }),
  stopPush: (id, token) => request("DELETE", `/api/games/${encodeURIComponent(id)}/notify/push`, { token }),
  // The game's webhook (its host's): told whose turn it is and the end; never shown back.
  setWebhook: (id, hostToken, url) => request("PUT", `/api/games/${encodeURIComponent(id)}/notify/webhook`, { token: hostToken, body: { url } }),
  replaceSeat: (id, hostToken, seat, bot) =>
    request("POST", `/api/games/${encodeURIComponent(id)}/replace`, { token: hostToken, body: { seat, bot } }),
  // "Your games": every seat link this browser holds, in one request (docs/web.md, "Your games").
  mine: (held) => request("POST", "/api/mine", { body: { seats: held } }),
  rematch: (id, token) => request("POST", `/api/games/${encodeURIComponent(id)}/rematch`, { token }),
  saveRuleset: (body) => request("POST", "/api/rulesets", { body }),
  // Accounts (docs/web.md, "Accounts"): the session is an HttpOnly cookie; changes carry its CSRF token.
  account: () => request("GET", "/api/account"),
  signUp: (body) => request("POST", "/api/account/signup", { body }),
  signIn: (body) => request("POST", "/api/account/signin", { body }),
  signOut: (csrf) => request("POST", "/api/account/signout", { csrf }),
  newPassword: (csrf, body) => request("POST", "/api/account/password", { csrf, body }),
  deleteAccount: (csrf, password) => request("POST", "/api/account/delete", { csrf, body: { password } }),
  bindSeats: (csrf, held) => request("POST", "/api/account/seats", { csrf, body: { seats: held } }),
  accountSeats: () => request("GET", "/api/account/seats"),
  // Ratings (docs/web.md, "Ratings"): a leaderboard, a player's profile.
  ratings: (family, pace) => request("GET", `/api/ratings?family=${encodeURIComponent(family)}&pace=${encodeURIComponent(pace)}`),
  player: (name) => request("GET", `/api/players/${encodeURIComponent(name)}`),
  // Quick match (docs/web.md, "Quick match"): what may be queued for; your entries; wait; leave.
  quickQueues: () => request("GET", "/api/quickmatch/queues"),
  quickEntries: () => request("GET", "/api/quickmatch"),
  quickJoin: (csrf, body) => request("POST", "/api/quickmatch", { csrf, body }),
  quickLeave: (csrf, entry) => request("DELETE", `/api/quickmatch/${encodeURIComponent(entry)}`, { csrf }),
  askReset: (name) => request("POST", "/api/account/reset", { body: { name } }),
  finishReset: (token, newPassword) => request("POST", "/api/account/reset/finish", { body: { token, new_password: newPassword } }),
  ruleset: (id) => request("GET", `/api/rulesets/${encodeURIComponent(id)}`),
  // Fair play (docs/web.md, "Fair play"): an account's blocks, a seat's mutes, reports, the host's bans.
  chat: (id, token) => request("GET", `/api/games/${encodeURIComponent(id)}/chat`, { token }),
  blocks: () => request("GET", "/api/account/blocks"),
  block: (csrf, body) => request("POST", "/api/account/blocks", { csrf, body }),
  unblock: (csrf, name) => request("DELETE", `/api/account/blocks/${encodeURIComponent(name)}`, { csrf }),
  mutes: (id, token) => request("GET", `/api/games/${encodeURIComponent(id)}/mutes`, { token }),
  mute: (id, token, seat) => request("POST", `/api/games/${encodeURIComponent(id)}/mutes`, { token, body: { seat } }),
  unmute: (id, token, seat) => request("DELETE", `/api/games/${encodeURIComponent(id)}/mutes/${seat}`, { token }),
  report: (id, token, seq, reason) => request("POST", `/api/games/${encodeURIComponent(id)}/chat/${seq}/report`, { token, body: { reason } }),
  hostReports: (id, hostToken) => request("GET", `/api/games/${encodeURIComponent(id)}/reports`, { token: hostToken }),
  ban: (id, hostToken, body) => request("POST", `/api/games/${encodeURIComponent(id)}/bans`, { token: hostToken, body }),
  unban: (id, hostToken, banId) => request("DELETE", `/api/games/${encodeURIComponent(id)}/bans/${banId}`, { token: hostToken }),
};

// -- the seats this browser holds (localStorage) ---------------------------------------------------
const SEATS_KEY = "risk.seats.v1";
const NAME_KEY = "risk.name";

export const seats = {
  all() {
    try {
      const list = JSON.parse(localStorage.getItem(SEATS_KEY) || "[]");
      return Array.isArray(list) ? list.filter((s) => s && typeof s.game === "string") : [];
    } catch {
      return [];
    }
  },
  save(list) {
    try {
      localStorage.setItem(SEATS_KEY, JSON.stringify(list.slice(-200)));
    } catch {
      /* private mode or full: the links still work */
    }
  },
  /** Remember a seat: {game, seat, name, token, mine, created, rules}. */
  remember(entry) {
    const list = this.all().filter((s) => !(s.game === entry.game && s.seat === entry.seat));
    const old = this.all().find((s) => s.game === entry.game && s.seat === entry.seat);
    list.push({ created: Date.now(), ...(old || {}), ...entry });
    this.save(list);
  },
  /** Change the entry holding ``token`` in ``game`` (what the server told of it); one entry a seat. */
  update(game, token, changes) {
    const list = this.all();
    const entry = list.find((s) => s.game === game && s.token === token);
    if (!entry) return;
    Object.assign(entry, changes);
    this.save(list.filter((s) => s === entry || !(s.game === game && (s.token === token || (entry.seat !== null && s.seat === entry.seat)))));
  },
  /** A seat link pasted or carried from another device: held by this browser, its seat told by the server. */
  adopt(game, token) {
    if (this.all().some((s) => s.game === game && s.token === token)) return false;
    this.save([...this.all(), { game, token, seat: null, name: "", mine: true, created: Date.now() }]);
    return true;
  },
  forget(game) {
    this.save(this.all().filter((s) => s.game !== game));
  },
  forGame(game) {
    return this.all().filter((s) => s.game === game);
  },
  name() {
    try {
      return localStorage.getItem(NAME_KEY) || "";
    } catch {
      return "";
    }
  },
  setName(name) {
    try {
      localStorage.setItem(NAME_KEY, name);
    } catch {
      /* ignore */
    }
  },
};

export function seatLink(game, token) {
  return `${location.origin}/game/${encodeURIComponent(game)}${token ? `#token=${encodeURIComponent(token)}` : ""}`;
}

// -- live play over the websocket ------------------------------------------------------------------
//
// One action at a time is in flight. If the connection drops before it is acknowledged, it is kept
// and sent again, with the same state id, right after the reconnection's fresh state: the server
// refuses it as stale if it had been taken (or the game moved on), so resending is always safe.

const PING_EVERY = 25000;
// A connection the server has not answered (no first state) in this long is dropped and tried again:
// a handshake or a hello lost on the way would otherwise leave the page "Connecting…" for good. Each
// try after the first waits once more as long (a slow server gets longer each time, never a loop of
// drops), up to HELLO_WAIT_MOST.
export const HELLO_WAIT = 20000;
const HELLO_WAIT_MOST = 120000;
const ACK_SLOW = 8000;

export class GameSocket {
  /**
   * handlers: onState(msg), onAck(msg, pending), onError(msg, pending), onStatus(status, detail),
   * onPending(pending|null), onMoved(msg) (the seat was opened on another device: no reconnection),
   * onChat(msg), onChatError(msg)
   * status: "connecting" | "open" | "reconnecting" | "closed"
   */
  constructor(gameId, token, handlers) {
    this.gameId = gameId;
    this.token = token || null;
    this.h = handlers;
    this.ws = null;
    this.status = "connecting";
    this.pending = null; // {ref, action (its words), message, stateId, sent: bool, resent: bool}
    this.attempt = 0;
    this.refCounter = 0;
    this.chatSeen = 0; // the newest chat seq received: a reconnection asks only for what follows
    this.stopped = false;
    this.helloDone = false;
    this._ping = null;
    this._retry = null;
    this._slow = null;
    this._helloWait = null;
    this._heard = 0; // when the server was last heard from (Date.now())
    this._pingSent = 0; // when the last ping went out
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && this.status === "reconnecting") this.reconnectNow();
    });
    window.addEventListener("online", () => {
      if (this.status === "reconnecting") this.reconnectNow();
    });
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/api/games/${encodeURIComponent(this.gameId)}/ws`;
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this._retry);
    this.helloDone = false;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this._scheduleRetry();
      return;
    }
    this.ws = ws;
    this._setStatus(this.attempt === 0 ? "connecting" : "reconnecting");
    clearTimeout(this._helloWait);
    this._helloWait = setTimeout(() => {
      if (!this.helloDone) this._drop(ws);
    }, Math.min(HELLO_WAIT_MOST, HELLO_WAIT * (1 + this.attempt)));
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      ws.send(JSON.stringify(this._hello()));
      clearInterval(this._ping);
      this._pingSent = 0;
      this._ping = setInterval(() => {
        // A ping the server has not answered (nothing heard since) in a whole interval: the
        // connection is dead without a close event (a network that went away): try again.
        if (this._pingSent && this._heard < this._pingSent) {
          this._drop(ws);
          return;
        }
        this._pingSent = Date.now();
        this._raw({ type: "ping" });
      }, PING_EVERY);
    });
    ws.addEventListener("message", (event) => this._onMessage(ws, event));
    ws.addEventListener("close", (event) => this._onClose(ws, event));
    ws.addEventListener("error", () => {
      /* a close event follows */
    });
  }

  /** A connection given up on: as if it had dropped (the next try is scheduled), what it says from
   * now on not heard. */
  _drop(ws) {
    if (ws !== this.ws || this.stopped) return;
    this._onClose(ws, { code: 1006 });
    this.ws = null;
    ws.close();
  }

  reconnectNow() {
    this.attempt = Math.max(this.attempt, 1);
    clearTimeout(this._retry);
    if (this.ws && this.ws.readyState <= 1) return;
    this.connect();
  }

  close() {
    this.stopped = true;
    clearInterval(this._ping);
    clearTimeout(this._retry);
    clearTimeout(this._helloWait);
    if (this.ws) this.ws.close();
  }

  _raw(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  _hello() {
    return { type: "hello", token: this.token, chat_after: this.chatSeen };
  }

  /** Send a chat message; answers false when the connection is down. Refusals go to onChatError. */
  sendChat(text, channel) {
    if (!this.helloDone) return false;
    return this._raw({ type: "chat", text, channel, ref: `chat${++this.refCounter}` });
  }

  get busy() {
    return this.pending !== null;
  }

  /**
   * Submit an action with the state id it was chosen at. Answers false (and sends nothing) when
   * another action is still waiting for its answer or the connection is down.
   */
  send(action, stateId) {
    return this.sendMessage({ type: "action", action }, stateId, action);
  }

  /**
   * Submit any move message ({type: "action"|"blitz"|"undo"|"blitz-stop", ...}) the same way: one in
   * flight, sent again after a reconnection. ``label`` names it for the player.
   */
  sendMessage(message, stateId, label) {
    if (this.pending) return false;
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.helloDone) return false;
    const ref = `a${++this.refCounter}`;
    this.pending = { ref, action: label, message, stateId, sent: true, resent: false, lost: false };
    this._raw({ ...message, state_id: stateId, ref });
    this._armSlow();
    this.h.onPending && this.h.onPending(this.pending);
    return true;
  }

  /** Forget an action that could not be sent (the player chose not to retry it). */
  dropPending() {
    this.pending = null;
    clearTimeout(this._slow);
    this.h.onPending && this.h.onPending(null);
  }

  _armSlow() {
    clearTimeout(this._slow);
    this._slow = setTimeout(() => {
      if (this.pending) {
        this.pending.slow = true;
        this.h.onPending && this.h.onPending(this.pending);
      }
    }, ACK_SLOW);
  }

  _onMessage(ws, event) {
    if (ws !== this.ws) return;
    this._heard = Date.now();
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch {
      return;
    }
    if (msg.type === "state") {
      const first = !this.helloDone;
      this.helloDone = true;
      clearTimeout(this._helloWait);
      if (first) {
        this.attempt = 0;
        this._setStatus("open");
      }
      this.h.onState && this.h.onState(msg, first);
      if (first && this.pending && this.pending.lost) {
        // Sent before the connection dropped, never answered: send it again, same state id.
        const p = this.pending;
        p.lost = false;
        p.resent = true;
        this._raw({ ...p.message, state_id: p.stateId, ref: p.ref });
        this._armSlow();
        this.h.onPending && this.h.onPending(p);
      }
    } else if (msg.type === "ack") {
      const pending = this.pending && this.pending.ref === msg.ref ? this.pending : null;
      if (pending) {
        this.pending = null;
        clearTimeout(this._slow);
        this.h.onPending && this.h.onPending(null);
      }
      this.h.onAck && this.h.onAck(msg, pending);
    } else if (msg.type === "chat") {
      for (const m of msg.messages || []) this.chatSeen = Math.max(this.chatSeen, m.seq);
      this.h.onChat && this.h.onChat(msg);
    } else if (msg.type === "error" && typeof msg.ref === "string" && msg.ref.startsWith("chat")) {
      this.h.onChatError && this.h.onChatError(msg);
    } else if (msg.type === "error") {
      const pending = this.pending && msg.ref != null && this.pending.ref === msg.ref ? this.pending : null;
      if (pending) {
        this.pending = null;
        clearTimeout(this._slow);
        this.h.onPending && this.h.onPending(null);
      }
      if (msg.code === "bad-token" && !this.helloDone) {
        this.stopped = true; // a wrong link: retrying cannot help
      }
      if ((msg.code === "not-found" || msg.code === "no-spectators") && !this.helloDone) this.stopped = true;
      this.h.onError && this.h.onError(msg, pending);
    } else if (msg.type === "moved") {
      this.stopped = true; // two pages must not play one seat: this one waits to be asked again
      this.h.onMoved && this.h.onMoved(msg);
    }
  }

  _onClose(ws, event) {
    if (ws !== this.ws) return;
    clearInterval(this._ping);
    clearTimeout(this._slow);
    this.helloDone = false;
    if (this.pending) {
      this.pending.lost = true;
      this.h.onPending && this.h.onPending(this.pending);
    }
    if (event.code === 4403 || event.code === 4404 || event.code === 4409) this.stopped = true;
    if (this.stopped) {
      this._setStatus("closed", event.code);
      return;
    }
    this._scheduleRetry();
  }

  _scheduleRetry() {
    this.attempt += 1;
    const delay = Math.min(10000, 400 * 2 ** Math.min(this.attempt - 1, 5)) * (0.75 + Math.random() / 2);
    this._setStatus("reconnecting", Math.round(delay / 1000));
    clearTimeout(this._retry);
    this._retry = setTimeout(() => this.connect(), delay);
  }

  _setStatus(status, detail) {
    this.status = status;
    this.h.onStatus && this.h.onStatus(status, detail);
  }
}
