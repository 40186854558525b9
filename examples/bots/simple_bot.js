#!/usr/bin/env node
// A small bot for the risk line protocol (docs/protocol.md), in JavaScript for Node: no npm packages.
//
// Its rule: trade a set when it may; put new armies on its biggest stack that borders an enemy;
// attack when the attacking stack outnumbers the defenders by two or more; roll and defend with
// the most dice; move everything into conquered territories; fortify from a territory with no
// enemy neighbour to one with the most; take the first legal line for anything else.
//
// Run it in a tournament:  risk tournament --bots ./examples/bots/simple_bot.js,quick,quick
// Its `info` lines and anything it writes to stderr land in tournament-out/log/.

"use strict";

const readline = require("readline");

let board = null; // the `board` message: territories (slug, name, neighbours...), continents
let index = new Map(); // slug -> territory index (the view's territories are in board order)
let view = null; // the latest `view` message
let legal = []; // the `legal` lines since that view, each split into words

function send(line) {
  process.stdout.write(line + "\n"); // Node writes to a pipe at once: nothing to flush
}

// A legal line's last word may be a range "N..M": any whole number from N to M.
function top(word) {
  return word.split("..").pop();
}

function withTop(words) {
  return [...words.slice(0, -1), top(words[words.length - 1])].join(" ");
}

function owner(slug) {
  return view.territories[index.get(slug)].owner;
}

function armies(slug) {
  return view.territories[index.get(slug)].armies;
}

function enemyNeighbours(slug) {
  const neighbours = board.territories[index.get(slug)].neighbours;
  return neighbours.filter((n) => owner(n) !== view.player).length;
}

// The legal lines whose first word is `verb`.
function lines(verb) {
  return legal.filter((words) => words[0] === verb);
}

function choose() {
  const trades = lines("trade");
  if (trades.length) return trades[0].join(" ");
  const places = lines("place");
  if (places.length) {
    // The biggest stack that borders an enemy (the first place line when none does).
    let best = places[0];
    for (const words of places) {
      const slug = words[1];
      if (enemyNeighbours(slug) > 0 && (enemyNeighbours(best[1]) === 0 || armies(slug) > armies(best[1]))) {
        best = words;
      }
    }
    return withTop(best);
  }
  for (const verb of ["claim", "defend", "move"]) {
    const found = lines(verb);
    if (found.length) return withTop(found[0]);
  }
  const attacks = lines("attack");
  if (attacks.length) {
    for (const words of attacks) {
      if (armies(words[1]) >= armies(words[2]) + 2) return withTop(words);
    }
    return "endattack";
  }
  const fortifies = lines("fortify");
  if (fortifies.length) {
    let best = null;
    for (const words of fortifies) {
      const [, from, to] = words;
      if (enemyNeighbours(from) === 0 && enemyNeighbours(to) > 0) {
        if (best === null || enemyNeighbours(to) > enemyNeighbours(best[2])) best = words;
      }
    }
    if (best !== null) return withTop(best);
  }
  for (const verb of ["endattack", "endturn"]) {
    if (lines(verb).length) return verb;
  }
  return withTop(legal[0]); // anything else (a capital, a mission...): the first legal choice
}

const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (raw) => {
  const line = raw.trim();
  const space = line.indexOf(" ");
  const command = space < 0 ? line : line.slice(0, space);
  const rest = space < 0 ? "" : line.slice(space + 1);
  switch (command) {
    case "risk-protocol":
      send("ready simple-js");
      break;
    case "board":
      board = JSON.parse(rest);
      index = new Map(board.territories.map((t, i) => [t.slug, i]));
      send(`info board ${board.name}: ${board.territories.length} territories`);
      break;
    case "view":
      view = JSON.parse(rest);
      legal = [];
      break;
    case "legal":
      legal.push(rest.split(" "));
      break;
    case "go":
      send("action " + choose());
      break;
    case "gameover":
      send(`info game over, winner: ${rest}`);
      break;
    case "quit":
      process.exit(0);
      break;
    default:
      break; // seat, seed, and any line a later version adds: nothing to do
  }
});
input.on("close", () => process.exit(0));
