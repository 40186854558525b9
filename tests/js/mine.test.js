// "Your games" (mine.js): the order, the words, and seat links carried to another device.
import { test } from "node:test";
import assert from "node:assert/strict";
import { drawings, exportLink, orderYourGames, parseExport, parseSeatLink, statusWords, timeLeftWords } from "../../src/risk/web/js/mine.js";

const PLAYERS = ["Ann", "Bob", "Cy"];
const line = (extra) => ({ game: "g", seat: 0, players: PLAYERS, status: "playing", yours: false, to_act: 1, left: null, updated: 0, ...extra });

test("time left in people's words, the two largest units", () => {
  assert.equal(timeLeftWords(30), "less than a minute");
  assert.equal(timeLeftWords(60), "1 minute");
  assert.equal(timeLeftWords(5 * 3600 + 20 * 60 + 5), "5 hours 20 minutes");
  assert.equal(timeLeftWords(86400 + 3 * 3600 + 59), "1 day 3 hours");
  assert.equal(timeLeftWords(2 * 86400 + 5 * 60), "2 days"); // no "0 hours 5 minutes"
});

test("your move first, then games waiting for others, then finished ones, then bad links", () => {
  const lines = [
    line({ game: "over", status: "over", winner: 1, updated: 9 }),
    line({ game: "bad", error: { code: "bad-token", message: "no seat" } }),
    line({ game: "theirs", updated: 5 }),
    line({ game: "mine", yours: true, to_act: 0, updated: 1 }),
    line({ game: "theirs-newer", updated: 7 }),
  ];
  assert.deepEqual(orderYourGames(lines).map((l) => l.game), ["mine", "theirs-newer", "theirs", "over", "bad"]);
});

test("each line's status in words", () => {
  assert.equal(statusWords(line({ yours: true, to_act: 0, left: 97200 })), "Your move: 1 day 3 hours left");
  assert.equal(statusWords({ error: { code: "account-seat", message: "x" } }), "Sign in to play this game: its seat belongs to an account.");
  assert.equal(statusWords(line({ yours: true, to_act: 0, defending: true, left: 50 })), "Defend now: less than a minute left");
  assert.equal(statusWords(line({ left: 7200 })), "Bob's move: 2 hours left");
  assert.equal(statusWords(line({})), "Bob's move");
  assert.equal(statusWords(line({ status: "over", winner: 0 })), "Over: you won");
  assert.equal(statusWords(line({ status: "over", winner: 2 })), "Over: Cy won");
  assert.equal(statusWords(line({ status: "waiting", to_act: null })), "Waiting for players to join");
  assert.equal(statusWords({ error: { code: "not-found", message: "no game" } }), "This game is no longer on this server.");
  assert.match(statusWords({ error: { code: "bad-token", message: "wrong token" } }), /does not work: wrong token/);
});

test("a pasted seat link, and one link that carries them all in its fragment", () => {
  assert.deepEqual(parseSeatLink(" https://risk.example/game/abc123#token=T0k-en_12345 "), { game: "abc123", token: "T0k-en_12345" });
  assert.deepEqual(parseSeatLink("/game/abc123#token=T0k-en_12345"), { game: "abc123", token: "T0k-en_12345" });
  assert.equal(parseSeatLink("https://risk.example/game/abc123"), null); // a spectator's link holds no seat
  assert.equal(parseSeatLink("https://risk.example/game/abc123?token=T0k-en_12345"), null); // never in a query
  const held = [{ game: "a1", token: "tokentoken1" }, { game: "b2", token: "tokentoken2" }];
  const link = exportLink("https://risk.example", held);
  const [before, fragment] = link.split("#");
  assert.equal(before, "https://risk.example/"); // the tokens are only in the fragment
  assert.deepEqual(parseExport(`#${fragment}`), held);
  assert.deepEqual(parseExport("#seats=not-base64!"), []);
  assert.deepEqual(parseExport("#join=x"), []);
});

test("an answer that comes back after a later drawing began is dropped", async () => {
  const lists = drawings();
  const shown = [];
  const answers = [];
  // A drawing as the lobby's: begin, wait for the server's answer, draw it only if still current.
  const draw = async () => {
    const current = lists.begin();
    const list = await new Promise((resolve) => answers.push(resolve));
    if (current()) shown.push(list);
  };
  const older = draw();
  const newer = draw();
  answers[1]("the newer list");
  await newer;
  answers[0]("the older list");
  await older;
  assert.deepEqual(shown, ["the newer list"]);
  // In order, each answer is drawn.
  const third = draw();
  answers[2]("the third list");
  await third;
  assert.deepEqual(shown, ["the newer list", "the third list"]);
});
