// "Your games" (docs/web.md, "Your games"): the words and the order of the lobby's list of the seats
// this browser holds, and seat links carried to another device (pasted one by one, or all in one link
// whose fragment, never sent to the server, holds them).
//
// Nothing here touches the page: the lobby builds on it, node tests check it (tests/js/mine.test.js).

const EXPORT_KEY = "seats=";

/** Drawings of a list from answers that may come back in any order: `begin()` numbers a new drawing
 * and returns `current()`, true until a later drawing begins. The lobby draws only from an answer whose
 * drawing is current (two seat links pasted in a row: the older answer, come back last, is dropped). */
export function drawings() {
  let last = 0;
  return {
    begin() {
      const mine = ++last;
      return () => mine === last;
    },
  };
}

/** A seat link as pasted ("https://host/game/ID#token=T", "/game/ID#token=T") -> {game, token}, or null. */
export function parseSeatLink(text) {
  const m = /\/game\/([A-Za-z0-9_-]{1,64})\/?#(?:.*&)?token=([A-Za-z0-9_-]{8,128})/.exec(String(text).trim());
  return m ? { game: m[1], token: m[2] } : null;
}

function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** One link that carries every seat of ``held`` ({game, token}): the lobby's, the seats in its fragment. */
export function exportLink(origin, held) {
  const pairs = held.filter((s) => s.game && s.token).map((s) => [s.game, s.token]);
  return `${origin}/#${EXPORT_KEY}${toBase64Url(JSON.stringify(pairs))}`;
}

/** The seats an export link carries ({game, token} each), from its fragment; [] if it carries none. */
export function parseExport(hash) {
  const at = String(hash).indexOf(EXPORT_KEY);
  if (at < 0) return [];
  try {
    const pairs = JSON.parse(fromBase64Url(String(hash).slice(at + EXPORT_KEY.length).split("&")[0]));
    if (!Array.isArray(pairs)) return [];
    return pairs
      .filter((p) => Array.isArray(p) && p.length === 2)
      .map(([game, token]) => parseSeatLink(`/game/${game}#token=${token}`))
      .filter(Boolean);
  } catch {
    return [];
  }
}

const UNITS = [
  [86400, "day", "days"],
  [3600, "hour", "hours"],
  [60, "minute", "minutes"],
];

/** Seconds as people say them, the two largest units: "1 day 3 hours", "5 minutes", "less than a minute". */
export function timeLeftWords(seconds) {
  let rest = Math.max(0, Math.floor(seconds));
  if (rest < 60) return "less than a minute";
  const parts = [];
  for (const [size, one, many] of UNITS) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count && parts.length < 2) parts.push(`${count} ${count === 1 ? one : many}`);
    else if (parts.length) break; // "1 day 3 hours", never "1 day 0 hours 5 minutes"
  }
  return parts.join(" ");
}

/** 0: your move or your defence; 1: a game waiting for others; 2: finished; 3: a link that did not work. */
export function rank(line) {
  if (line.error) return 3;
  if (line.status === "over") return 2;
  return line.yours ? 0 : 1;
}

/** Your move first, then the games waiting for others, then the finished ones, then the bad links;
 * in each, the game that moved last first. */
export function orderYourGames(lines) {
  return lines.slice().sort((a, b) => rank(a) - rank(b) || (b.updated || 0) - (a.updated || 0));
}

/** The line's status in words: "Your move: 1 day 3 hours left", "Bob's move", "You won"... */
export function statusWords(line) {
  if (line.error) {
    if (line.error.code === "not-found") return "This game is no longer on this server.";
    if (line.error.code === "account-seat") return "Sign in to play this game: its seat belongs to an account.";
    return `This link does not work: ${line.error.message}`;
  }
  if (line.status === "over") {
    if (line.winner === line.seat) return "Over: you won";
    return line.winner === null || line.winner === undefined ? "Over" : `Over: ${line.players[line.winner]} won`;
  }
  if (line.status === "waiting") return "Waiting for players to join";
  const left = line.left === null || line.left === undefined ? "" : `: ${timeLeftWords(line.left)} left`;
  if (line.yours) return `${line.defending ? "Defend now" : "Your move"}${left}`;
  const who = line.to_act === null || line.to_act === undefined ? "Another player" : line.players[line.to_act];
  return `${who}'s move${left}`;
}
