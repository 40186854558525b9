// The lobby's open seats (opengames.js): the filters in the address and in GET /api/games's query, and
// an open game's line in words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { anyFilter, boardWords, filtersFromQuery, openFactWords, queryWithFilters, seatsTakenWords, serverQuery, shortBoardTitle, turnClockWords } from "../../src/risk/web/js/opengames.js";

test("the address's filters: known words only, in values that can be", () => {
  assert.deepEqual(filtersFromQuery("?edition=2008&board=pangaea&players=4&clock=days&rated=1&game=team"), {
    game: "team",
    edition: "2008",
    board: "pangaea",
    players: "4",
    clock: "days",
    rated: true,
  });
  assert.deepEqual(filtersFromQuery("?edition=1999&players=1&clock=weeks&rated=0&game=chess&board=../x&rules=abc"), {});
  assert.deepEqual(filtersFromQuery("?players=11"), {});
  assert.deepEqual(filtersFromQuery(""), {});
});

test("the filters in the address keep its other words; none leave no query", () => {
  assert.equal(queryWithFilters("?rules=abc", { clock: "live", rated: true }), "?rules=abc&clock=live&rated=1");
  assert.equal(queryWithFilters("?clock=live&players=3", { players: "5" }), "?players=5");
  assert.equal(queryWithFilters("?clock=live", {}), "");
});

test("GET /api/games's parameters: the clock is its pace, rated is true", () => {
  assert.deepEqual(serverQuery({ game: "world", edition: "2003", board: "other", players: "3", clock: "days", rated: true }), {
    game: "world",
    edition: "2003",
    board: "other",
    players: "3",
    pace: "days",
    rated: "true",
  });
  assert.deepEqual(serverQuery({}), {});
  assert.equal(anyFilter({}), false);
  assert.equal(anyFilter({ rated: true }), true);
});

test("an open game in words: rulebook, board, seats taken, clock, rated", () => {
  assert.equal(turnClockWords(0), "No clock");
  assert.equal(turnClockWords(180), "3 minutes a turn");
  assert.equal(turnClockWords(86400), "1 day a turn");
  assert.equal(turnClockWords(5400), "1 hour 30 minutes a turn");
  assert.equal(seatsTakenWords([{ open: false }, { open: true }, { open: false }, { open: true }]), "2 of 4 seats taken");
  assert.equal(shortBoardTitle({ name: "classic", title: "The classic world map (42 territories, 6 continents)" }), "Classic world");
  assert.equal(shortBoardTitle({ name: "crossroads", title: "The Crossroads: four lands that meet" }), "The Crossroads");
  assert.equal(shortBoardTitle({ name: "pangaea", title: "Pangaea: one great land" }), "Pangaea");
  assert.equal(boardWords({ board: "pangaea", board_sha256: null }, { pangaea: "Pangaea" }), "Pangaea");
  assert.equal(boardWords({ board: "atlas", board_sha256: null }), "Atlas"); // the titles not loaded yet
  assert.equal(boardWords({ board: "my-isles", board_sha256: "ab".repeat(32) }), "my-isles (uploaded or generated)");
  const game = { rules: "1993 game=secret-mission fog=on", board: "pangaea", board_sha256: null, seats: [{ open: false }, { open: true }], timer: { turn_time: 3600 }, rated: false };
  assert.deepEqual(openFactWords(game, { pangaea: "Pangaea" }), [
    ["Rulebook", "1993"],
    ["Board", "Pangaea"],
    ["Players", "1 of 2 seats taken"],
    ["Clock", "1 hour a turn"],
    ["Rated", "No"],
  ]);
  assert.equal(openFactWords({ ...game, rated: true, timer: { turn_time: 0 } })[4][1], "Yes (people signed in, no bots)");
});
