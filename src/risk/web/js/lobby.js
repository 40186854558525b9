// The lobby (/): create a game, join an open seat, watch, and find the games this browser holds.

import { api, seats, seatLink } from "./api.js";
import { clockFields, fillClockFields, hosts, setClockField } from "./seating.js";
import { momentWords } from "./clock.js";
import { el, clear, $, toast, copyText, seatColours, describeRules, parseRules, ago, GAME_NAMES, fillBotMenu, botDescription } from "./ui.js";
import { initHouseRules } from "./houserules.js";
import { drawings, exportLink, orderYourGames, parseExport, parseSeatLink, statusWords } from "./mine.js";
import { boardField, chosenBoard, initBoards } from "./boardpick.js";
import { OPTION_GROUPS, PRESETS, choiceWords, optionWords } from "./rulewords.js";
import { bindIfSignedIn, initAccount } from "./account.js";
import { initQuickMatch, refreshQuickMatch } from "./quickmatch.js";
import { initOpenFilters, openFacts, openGames, showFilteredOut } from "./opengames.js";

const EDITIONS = {
  1993: "Parker Brothers (1993)",
  2003: "40th anniversary (2003)",
  2008: "Classic (2008)",
};
const EDITION_DESC = {
  1993: "Expert options, card bonus once a turn, fortify to a neighbour.",
  2003: "Roll for the first turn, fortify along a chain, Mission and Team RISK.",
  2008: "3 to 5 players, cards drawn when attacking ends, fortify along a chain.",
};
const GAME_DESC = {
  world: "Conquer the world: the last player standing wins.",
  "secret-mission": "Each player has a secret mission; the first to complete theirs wins.",
  capital: "Choose a secret headquarters; capture the others' and keep yours.",
  "two-player": "Two players and neutral armies; beat your opponent.",
  mission: "Four mission cards each, one of each rank: claim all four to win.",
  team: "Two teams in alternating seats; the first elimination ends the game.",
};
// Options that only matter in some games (the rest apply to every game).
const OPTION_GAMES = {
  "capitals-to-win": ["capital"],
  neutrals: ["two-player"],
  "neutral-mode": ["two-player"],
  "neutral-armies": ["two-player"],
  "setup-batch": ["two-player"],
  "neutral-placement": ["two-player"],
};
// What a game changes in its rulebook's options (src/risk/rules/options.py GAME_SETTINGS), so the
// defaults shown are the ones the game will use.
const GAME_SETTINGS = {
  "secret-mission": { "*": { setup: "deal" }, 2008: { setup: "deal", "first-turn": "roll" } },
  "two-player": {
    "*": { players: "2-2", "starting-armies": "2:40", setup: "deal", neutrals: "1", "neutral-armies": "40", "setup-batch": "2", "neutral-placement": "interleaved" },
    2008: { players: "2-2", "starting-armies": "2:40", setup: "deal", neutrals: "1", "neutral-armies": "40", "setup-batch": "2", "neutral-placement": "after-own" },
    2003: { players: "2-2", "starting-armies": "2:36", setup: "deal", neutrals: "4", "neutral-armies": "24", "setup-batch": "3", "neutral-placement": "interleaved", "first-turn": "roll" },
  },
  mission: { "*": { "card-values": "fixed" } },
  team: { "*": { "card-values": "fixed", players: "4-6" } },
};
// Not in the rule options' list: the player count follows the seats; the territories and the neutrals'
// mode have their own choices at the top of the form.
const HIDDEN_OPTIONS = new Set(["players", "setup", "neutral-mode", "fog"]);
// Fog of war (issue 27) has its own choice near the top: the rule option fog=on, kept when the rulebook,
// the game or a preset changes (it goes with any of them). Spectators of a fogged game see no territory
// until it ends, unless the host lets them see everything: POST /api/games `spectator_view` is
// "fogged" (the server's default) or "open"; `spectators` says whether anyone may watch at all.
const FOG = { option: "fog", on: "on", open: "open" };
// Quick start's "place my starting armies for me" is a standing order of a seat that the server gains
// in another change (issue 23 item 6: the seat's `auto_setup`, POST /api/games). Until /api/meta lists
// "auto_setup" in `seat_options`, the box stays hidden; once it does, the first human seat is sent
// with `auto_setup: true` when the box is ticked.
const AUTO_PLACE = { option: "auto_setup", field: "auto_setup" };
// The quick start (issue 37), a new game's default: the territories dealt and my starting armies
// placed for me (the box above, ticked), as the hard bot would. The rulebook's way (claiming in turn,
// placing by hand) is a click away and marked "(rulebook)". The setup chosen stays chosen when the
// rulebook or the game changes (a preset or house rules bring their own).
const QUICK_START_SETUP = "deal";
const NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"];

const F = {
  meta: null,
  rareOpen: false, // the folded rule options, as the player left them
  seats: [],
  options: {}, // name -> value chosen (only those changed from the default are sent)
  setup: QUICK_START_SETUP, // the territories claimed or dealt, as the player chose
};

// -- start ------------------------------------------------------------------------------------------
async function start() {
  // First, before any wait: a link pasted (or carried in #seats=) as soon as the page shows is taken
  // by this page, not submitted by the browser as a form (which reloaded the page and lost it).
  initSeatLinks();
  initAccount(() => {
    refreshLists();
    refreshQuickMatch();
  }).then(() => initQuickMatch(refreshLists));
  initOpenFilters(refreshLists);
  try {
    F.meta = await api.meta();
  } catch (error) {
    $("#form-error").textContent = `The server cannot be reached: ${error.message}`;
    return;
  }
  const edition = $("#edition");
  for (const name of Object.keys(F.meta.editions)) edition.append(el("option", { value: name, text: EDITIONS[name] || name }));
  edition.value = F.meta.editions["2008"] ? "2008" : Object.keys(F.meta.editions).pop();
  $("#bot-delay").value = String(F.meta.defaults ? F.meta.defaults.bot_delay : 0.6);
  $("#defend-timeout").value = String(F.meta.defaults ? F.meta.defaults.defend_timeout : 30);
  fillClockFields(F.meta);
  const me = seats.name() || "Ann";
  F.seats = [
    { kind: "human", name: me },
    { kind: "bot", bot: defaultBot(), name: "" },
    { kind: "bot", bot: defaultBot(), name: "" },
  ];
  edition.addEventListener("change", () => {
    F.options = withFog({});
    fillGames();
    keepSetup();
    renderAll();
  });
  $("#game").addEventListener("change", () => {
    F.options = withFog({});
    fitSeats();
    keepSetup();
    renderAll();
  });
  for (const radio of document.querySelectorAll('input[name="neutral-mode"]')) radio.addEventListener("change", renderAll);
  for (const radio of document.querySelectorAll('input[name="setup"]')) {
    radio.addEventListener("change", () => {
      F.setup = radio.value;
      setOption("setup", radio.value);
      renderAll();
    });
  }
  $("#auto-place").addEventListener("change", renderSetup);
  $("#auto-place-field").hidden = !(F.meta.seat_options || []).includes(AUTO_PLACE.option);
  $("#fog-field").hidden = !F.meta.options.some((o) => o.name === FOG.option);
  $("#fog").addEventListener("change", () => {
    setOption(FOG.option, $("#fog").checked ? FOG.on : "off");
    renderAll();
  });
  $("#spectators").addEventListener("change", renderFog);
  $("#add-seat").addEventListener("click", () => {
    const [, max] = playerLimits();
    if (F.seats.length >= max) return;
    F.seats.push({ kind: "bot", bot: defaultBot(), name: "" });
    renderSeats();
  });
  $("#new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    create();
  });
  fillGames();
  keepSetup();
  renderAll();
  initBoards(() => {
    fitSeats();
    renderSeats();
  });
  refreshLists();
  setInterval(() => {
    if (!document.hidden) refreshLists();
  }, 5000);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refreshLists();
  });
  handleJoinHash();
  window.addEventListener("hashchange", handleJoinHash);

  initHouseRules({ collect: gameBody, apply: applyRules, create, linkRow });
}

function defaultBot() {
  const level = F.meta.defaults && F.meta.defaults.level;
  if (level && (F.meta.levels || []).some((l) => l.name === level)) return level;
  const bots = F.meta.bots.map((b) => b.name);
  return bots.includes("continental") ? "continental" : bots.includes("quick") ? "quick" : bots[0];
}

function edition() {
  return $("#edition").value;
}

function game() {
  return $("#game").value || "world";
}

function fillGames() {
  const select = $("#game");
  const current = select.value || "world";
  clear(select);
  for (const [name, info] of Object.entries(F.meta.games)) {
    const ok = info.editions.includes(edition());
    select.append(
      el("option", {
        value: name,
        disabled: !ok,
        text: ok ? GAME_NAMES[name] || name : `${GAME_NAMES[name] || name} (${info.editions.join(", ")} only)`,
      }),
    );
  }
  select.value = F.meta.games[current] && F.meta.games[current].editions.includes(edition()) ? current : "world";
  fitSeats();
}

/** The option values the chosen edition and game start from. */
function defaults() {
  const base = { ...F.meta.editions[edition()].options };
  const g = GAME_SETTINGS[game()];
  if (g) Object.assign(base, g[edition()] || g["*"] || {});
  return base;
}

function playerLimits() {
  const text = F.options.players || defaults().players || "3-6";
  let [lo, hi] = text.split("-").map(Number);
  lo = lo || 2;
  hi = hi || 6;
  // A board that declares its players: the edition's most (6, or 5 in 2008) becomes the board's most
  // (up to 10), except on the rulebooks' board; a game of one count (2 players) and a range set with
  // the players option stay (docs/boards.md, Rules.player_range).
  const chosen = chosenBoard();
  const board = chosen.players;
  if (board) {
    if (!F.options.players && lo < hi && !chosen.rulebooks) hi = board[1];
    hi = Math.min(hi, board[1]);
    lo = Math.max(lo, board[0]);
  }
  return [lo, Math.max(lo, hi)];
}

function fitSeats() {
  const [lo, hi] = playerLimits();
  while (F.seats.length > hi) F.seats.pop();
  while (F.seats.length < lo) F.seats.push({ kind: "bot", bot: defaultBot(), name: "" });
  if (game() === "team" && F.seats.length === 5) F.seats.push({ kind: "bot", bot: defaultBot(), name: "" });
}

function renderAll() {
  $("#edition-desc").textContent = EDITION_DESC[edition()] || "";
  $("#game-desc").textContent = GAME_DESC[game()] || "";
  $("#neutral-field").hidden = game() !== "two-player";
  renderSetup();
  renderFog();
  renderPresets();
  renderSeats();
  renderOptions();
}

/** An option's value as the form stands: the one chosen, else the rulebook's. */
function optionValue(name) {
  return F.options[name] !== undefined ? F.options[name] : defaults()[name];
}

/** Choose a value: only values that differ from the rulebook's are kept (and sent). */
function setOption(name, value) {
  if (value === defaults()[name] || value === "") delete F.options[name];
  else F.options[name] = value;
}

/** The setup the player chose, in the options of a new rulebook or game. */
function keepSetup() {
  setOption("setup", F.setup);
}

/** Options for a new rulebook, game or preset: the fog of war chosen stays chosen. */
function withFog(options) {
  const fog = F.options[FOG.option];
  return fog === undefined ? options : { ...options, [FOG.option]: fog };
}

function fogOn() {
  return optionValue(FOG.option) === FOG.on;
}

/** The fog's box as the options stand; who may see through it, once there is fog and spectators. */
function renderFog() {
  const on = fogOn();
  $("#fog").checked = on;
  $("#fog-open-field").hidden = !on;
  const watchers = $("#spectators").checked;
  $("#fog-open").disabled = !watchers;
  $("#fog-desc").textContent = !on
    ? "Everyone sees the whole board, as in the rulebooks."
    : `The rest of the board shows what each player last saw, marked as old; cards traded, hand sizes and eliminations stay public.${watchers ? "" : " (No spectators: see the table settings.)"} The whole board is shown when the game ends.`;
}

/** POST /api/games `spectator_view`: what spectators of a fogged game see ("fogged", the default). */
function spectatorViewField() {
  return $("#spectators").checked && fogOn() && $("#fog-open").checked ? FOG.open : "fogged";
}

function neutralMode() {
  return document.querySelector('input[name="neutral-mode"]:checked').value;
}

// -- presets and the territories ------------------------------------------------------------------------
/** The preset the form matches now (rulebook, game, options and neutrals), if any. */
function matchingPreset() {
  const current = { ...defaults(), ...F.options };
  delete current[FOG.option]; // fog goes with every preset
  return PRESETS.find((p) => {
    if (p.edition !== edition() || p.game !== game()) return false;
    if (game() === "two-player" && (p.neutralMode || "passive") !== neutralMode()) return false;
    const wanted = { ...defaults(), ...(p.options || {}) };
    delete wanted[FOG.option];
    return Object.keys({ ...wanted, ...current }).every((k) => wanted[k] === current[k]);
  });
}

function renderPresets() {
  const box = clear($("#preset-list"));
  const on = matchingPreset();
  for (const preset of PRESETS) {
    if (!F.meta.editions[preset.edition] || !(F.meta.games[preset.game] || { editions: [] }).editions.includes(preset.edition)) continue;
    const b = el(
      "button",
      {
        type: "button",
        class: `preset${preset === on ? " on" : ""}`,
        id: `preset-${preset.id}`,
        "aria-pressed": String(preset === on),
        title: `From the ${preset.from}`,
      },
      el("strong", { text: preset.name }),
      el("span", { class: "preset-desc", text: preset.desc }),
    );
    b.addEventListener("click", () => applyPreset(preset));
    box.append(b);
  }
}

function applyPreset(preset) {
  $("#edition").value = preset.edition;
  fillGames();
  $("#game").value = preset.game;
  F.options = withFog({ ...(preset.options || {}) });
  F.setup = optionValue("setup") || "claim";
  const radio = document.querySelector(`input[name="neutral-mode"][value="${preset.neutralMode || "passive"}"]`);
  if (radio) radio.checked = true;
  const [lo, hi] = playerLimits();
  const count = Math.max(lo, Math.min(hi, preset.seats || F.seats.length));
  while (F.seats.length > count) {
    // Bots leave first, then open seats: the people stay.
    const last = F.seats.map((s) => s.kind).lastIndexOf("bot");
    const open = F.seats.map((s) => s.kind).lastIndexOf("open");
    F.seats.splice(last >= 0 ? last : open >= 0 ? open : F.seats.length - 1, 1);
  }
  while (F.seats.length < count) F.seats.push({ kind: "bot", bot: defaultBot(), name: "" });
  fitSeats();
  renderAll();
}

/** Territories claimed or dealt (the rulebook's way marked; 2-player RISK always deals) and whether my
 * setup is done for me, in words that say what will happen. */
function renderSetup() {
  const field = $("#setup-field");
  $("#setup-choices").hidden = game() === "two-player"; // my armies placed for me stays a choice
  const rulebook = defaults().setup || "claim";
  const value = optionValue("setup") || "claim";
  for (const radio of field.querySelectorAll('input[name="setup"]')) {
    radio.checked = radio.value === value;
    const words = choiceWords("setup", radio.value);
    radio.parentElement.lastChild.textContent = ` ${words}${radio.value === rulebook ? " (rulebook)" : ""}`;
  }
  const forMe = !$("#auto-place-field").hidden && $("#auto-place").checked;
  $("#auto-place-words").textContent =
    value === "deal"
      ? "Place my starting armies for me, as a strong player would: spread over my borders, most toward a continent I can hold"
      : "Claim my territories and place my starting armies for me, as a strong player would";
  const dealt = "Each player gets the territories of the cards dealt to them";
  const claimed = "Players claim the empty territories one at a time in turn";
  if (!forMe) {
    $("#setup-desc").textContent = `${value === "deal" ? dealt : claimed}, then places the rest of their armies.`;
  } else if (value === "deal") {
    $("#setup-desc").textContent = `Quick start. ${dealt}; your starting armies are placed for you, so your first turn comes straight away. Untick the box to place them yourself.`;
  } else {
    $("#setup-desc").textContent = `${claimed}, then places the rest of their armies; yours are claimed and placed for you, each time your turn comes. Untick the box to do it yourself.`;
  }
}

// -- seats ------------------------------------------------------------------------------------------
function seatPreviewColours() {
  const players = F.seats.map((s, i) => ({ neutral: false, team: game() === "team" ? i % 2 : null }));
  return seatColours({ goal: (F.meta.games[game()] || {}).goal, players });
}

function renderSeats() {
  const box = clear($("#seats"));
  const [lo, hi] = playerLimits();
  const colours = seatPreviewColours();
  const firstHuman = F.seats.findIndex((s) => s.kind === "human");
  F.seats.forEach((seat, i) => {
    const kind = el(
      "select",
      { class: "seat-kind", "aria-label": `Seat ${i + 1}: who plays` },
      el("option", { value: "human", text: "Human" }),
      el("option", { value: "open", text: "Open seat" }),
      el("option", { value: "bot", text: "Bot" }),
    );
    kind.value = seat.kind;
    const name = el("input", {
      class: "seat-name",
      type: "text",
      maxlength: 24,
      placeholder: seat.kind === "bot" ? `${cap(seat.bot)} ${i + 1}` : NAMES[i] || `Player ${i + 1}`,
      "aria-label": `Seat ${i + 1}: name`,
    });
    name.value = seat.name || "";
    const bot = el("select", { class: "seat-bot", "aria-label": `Seat ${i + 1}: bot level` });
    fillBotMenu(bot, F.meta);
    bot.value = seat.bot || defaultBot();
    const desc = el("div", { class: "bot-desc", text: botDescription(F.meta, bot.value) });
    const remove = el("button", {
      type: "button",
      class: "btn btn-small btn-ghost seat-remove",
      "aria-label": `Remove seat ${i + 1}`,
      title: "Remove this seat",
      disabled: F.seats.length <= lo,
      text: "✕",
    });
    const row = el(
      "div",
      { class: `seat-row${i === firstHuman ? " you" : ""}`, dataset: { kind: seat.kind, seat: i } },
      el("span", { class: "swatch", style: { background: colours[i].fill }, title: colours[i].name }),
      kind,
      name,
      bot,
      i === firstHuman ? el("span", { class: "seat-you", text: "you" }) : null,
      remove,
      desc,
    );
    kind.addEventListener("change", () => {
      seat.kind = kind.value;
      if (seat.kind === "human" && !seat.name) seat.name = i === 0 ? seats.name() || "Ann" : "";
      if (seat.kind === "bot" && !seat.bot) seat.bot = defaultBot();
      renderSeats();
    });
    name.addEventListener("input", () => {
      seat.name = name.value;
    });
    bot.addEventListener("change", () => {
      seat.bot = bot.value;
      desc.textContent = botDescription(F.meta, bot.value);
      name.placeholder = `${cap(bot.value)} ${i + 1}`;
    });
    remove.addEventListener("click", () => {
      if (F.seats.length <= lo) return;
      F.seats.splice(i, 1);
      renderSeats();
    });
    box.append(row);
  });
  $("#add-seat").disabled = F.seats.length >= hi;
  let limits = lo === hi ? `${lo} players` : `${lo} to ${hi} players`;
  if (game() === "team") limits = "4 or 6 players, two teams in alternating seats";
  if (game() === "two-player") limits = "2 players, and neutral armies";
  const board = chosenBoard().players;
  const wider = F.options.players ? "widen the players option" : "choose the 1993 or 2003 rulebook";
  if (board && board[1] > hi && game() === "world") limits += ` (this board takes up to ${board[1]}: ${wider})`;
  $("#seat-limits").textContent = limits;
}

function cap(s) {
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : "";
}

// -- rule options -------------------------------------------------------------------------------------
function renderOptions() {
  const box = clear($("#options"));
  const base = defaults();
  const groups = new Map();
  let changed = 0;
  for (const option of F.meta.options) {
    if (HIDDEN_OPTIONS.has(option.name)) continue;
    const only = OPTION_GAMES[option.name];
    if (only && !only.includes(game())) continue;
    const words = optionWords(option.name, option.description);
    const isChanged = F.options[option.name] !== undefined && F.options[option.name] !== base[option.name];
    if (isChanged) changed += 1;
    if (!groups.has(words.group)) groups.set(words.group, { rows: [], changed: 0 });
    const group = groups.get(words.group);
    if (isChanged) group.changed += 1;
    group.rows.push(optionRow(option, words, base, isChanged));
  }
  if (game() === "two-player" && neutralMode() !== (base["neutral-mode"] || "passive")) changed += 1;
  if ((optionValue("setup") || "claim") !== (base.setup || "claim")) changed += 1;
  for (const [key, title] of OPTION_GROUPS) {
    const group = groups.get(key);
    if (!group) continue;
    const heading = key === "game" ? `${GAME_NAMES[game()] || game()}` : title;
    if (key === "rare") {
      // Folded unless one of them is changed: most games never touch these.
      const fold = el("details", { class: "more option-fold", id: "rare-options", open: group.changed > 0 || F.rareOpen }, el("summary", { text: heading }), ...group.rows);
      fold.addEventListener("toggle", () => {
        F.rareOpen = fold.open;
      });
      box.append(fold);
    } else box.append(el("div", { class: "option-group", dataset: { group: key } }, el("h3", { class: "option-group-title", text: heading }), ...group.rows));
  }
  $("#changed-count").textContent = changed ? `${changed} changed` : "as the rulebook says";
}

/** One option: the player's label (the engine's name in its tooltip), the input, one line of help. */
function optionRow(option, words, base, isChanged) {
  const value = optionValue(option.name);
  const id = `opt-${option.name}`;
  const engine = `${option.name}=${value === undefined ? "" : value} (the engine's name: ${option.name})`;
  const changed = () => {
    renderAll();
  };
  let input;
  if (option.name === "starting-armies") {
    input = armiesInput(option.name, value, changed);
  } else if (option.choices) {
    input = el("select", { id, dataset: { option: option.name }, title: engine });
    for (const choice of option.choices) {
      const said = choiceWords(option.name, choice);
      input.append(el("option", { value: choice, text: choice === base[option.name] ? `${said} (rulebook)` : said }));
    }
    input.value = value;
  } else {
    const [lo, hi] = option.bounds || [0, 1000];
    input = el("input", { id, type: "number", min: lo, max: hi, step: 1, inputmode: "numeric", dataset: { option: option.name }, title: engine });
    input.value = value === undefined ? "" : value;
  }
  if (input.tagName !== "DIV") {
    input.addEventListener("change", () => {
      setOption(option.name, input.value.trim());
      changed();
    });
  }
  return el(
    "div",
    { class: `option-row${isChanged ? " changed" : ""}`, dataset: { option: option.name } },
    el("label", { class: "opt-name", for: input.tagName === "DIV" ? null : id, id: `${id}-label`, text: words.label, title: engine }),
    input,
    el("div", { class: "opt-desc", text: words.help, title: [option.source, `Engine: ${option.name}`].filter(Boolean).join(" · ") }),
  );
}

/** Starting armies as one box per player count ("3:35,4:30,5:25" in the engine's words). */
function armiesInput(name, value, changed) {
  const pairs = String(value || "").split(",").filter(Boolean).map((p) => p.split(":"));
  const box = el("div", { class: "armies-input", role: "group", "aria-labelledby": `opt-${name}-label`, id: `opt-${name}`, title: `${name}=${value}` });
  const inputs = pairs.map(([count, armies]) => {
    const input = el("input", { type: "number", min: 1, max: 1000, step: 1, inputmode: "numeric", id: `opt-${name}-${count}`, "aria-label": `Starting armies with ${count} players`, dataset: { count } });
    input.value = armies;
    box.append(el("label", { class: "armies-pair" }, el("span", { text: `${count} players` }), input));
    return input;
  });
  for (const input of inputs) {
    input.addEventListener("change", () => {
      if (inputs.some((i) => !(Number(i.value) >= 1))) return; // an empty box: keep what was there
      setOption(name, inputs.map((i) => `${i.dataset.count}:${Number(i.value)}`).join(","));
      changed();
    });
  }
  return box;
}

// -- creating -----------------------------------------------------------------------------------------
/** The body of POST /api/games from the form: {body}, or {error} when the form cannot be sent. */
function gameBody() {
  const [lo, hi] = playerLimits();
  if (F.seats.length < lo || F.seats.length > hi) return { error: `This game is for ${lo === hi ? lo : `${lo} to ${hi}`} players.` };
  const options = { ...F.options };
  if (game() === "two-player") {
    delete options.setup; // 2-player RISK deals, whatever was chosen before
    const mode = neutralMode();
    if (mode !== (defaults()["neutral-mode"] || "passive")) options["neutral-mode"] = mode;
  }
  const autoPlace = !$("#auto-place-field").hidden && $("#auto-place").checked;
  const firstHuman = F.seats.findIndex((s) => s.kind === "human");
  const seatsOut = F.seats.map((s, i) => {
    if (s.kind === "open") return { kind: "open" };
    if (s.kind === "bot") return { kind: "bot", bot: s.bot, name: (s.name || "").trim() };
    // Defence dice: the most, never asked, for every human seat (a player's own page then applies the
    // choice its browser remembers: seatprefs.js).
    const seat = { kind: "human", name: (s.name || "").trim() || NAMES[i] || `Player ${i + 1}`, defence: "most" };
    if (autoPlace && i === firstHuman) seat[AUTO_PLACE.field] = true;
    return seat;
  });
  const body = {
    edition: edition(),
    game: game(),
    options,
    seats: seatsOut,
    public: $("#public").checked,
    rated: $("#rated") ? $("#rated").checked : false,
    seed: $("#seed").value.trim() === "" ? null : Number($("#seed").value),
    bot_delay: Number($("#bot-delay").value || 0),
    defend_timeout: Number($("#defend-timeout").value || 0),
    ...clockFields(),
    spectators: $("#spectators").checked,
    spectator_view: spectatorViewField(),
    board: boardField(),
  };
  return { body };
}

/** What is wrong with a webhook URL before the game is made (the server checks the rest), or "". */
export function webhookProblem(url) {
  if (!url) return "";
  if (!/^https?:\/\/[^\s/]+/i.test(url)) return "The chat webhook must be an address starting with https://";
  return url.length > 2000 ? "The chat webhook is too long (at most 2000 characters)" : "";
}

/** Create the game of the form; answers whether it was created (else #form-error says why). */
async function create() {
  const error = $("#form-error");
  error.textContent = "";
  const { body, error: problem } = gameBody();
  const webhook = $("#webhook-url") ? $("#webhook-url").value.trim() : "";
  const badHook = webhookProblem(webhook);
  if (problem || badHook) {
    error.textContent = problem || badHook;
    return false;
  }
  const button = $("#create-game");
  button.disabled = true;
  button.textContent = "Creating…";
  try {
    const result = await api.create(body);
    if (result.host_token) hosts.remember(result.id, result.host_token);
    const firstHuman = result.seats.find((s) => s.kind === "human");
    if (firstHuman) seats.setName(firstHuman.name);
    for (const s of result.seats) {
      if (!s.token) continue;
      seats.remember({
        game: result.id,
        seat: s.seat,
        name: s.name,
        token: s.token,
        mine: firstHuman && s.seat === firstHuman.seat,
        rules: [body.edition, body.game !== "world" ? `game=${body.game}` : ""].filter(Boolean).join(" "),
      });
    }
    showCreated(result, firstHuman);
    bindIfSignedIn(); // a signed-in player's new seat is their account's (a rated game needs it)
    refreshLists();
    if (webhook && result.host_token) {
      // After the game exists (the webhook is the game's): a refusal leaves the game as it is.
      api
        .setWebhook(result.id, result.host_token, webhook)
        .then(() => toast("The chat webhook is set: it is told whose turn it is and the end.", "ok"))
        .catch((err) => toast(`The game was created, but not its webhook: ${err.message}`, "error"));
    }
    return true;
  } catch (err) {
    error.textContent = err.message;
    return false;
  } finally {
    button.disabled = false;
    button.textContent = "Create the game";
  }
}

function linkRow(label, url, id) {
  const copy = el("button", { type: "button", class: "btn btn-small", text: "Copy", dataset: { copy: url } });
  copy.addEventListener("click", async () => {
    const ok = await copyText(url);
    toast(ok ? `Copied the link for ${label}.` : "Copy failed: select the link and copy it.", ok ? "ok" : "error");
  });
  return el(
    "div",
    { class: "link-row", id },
    el("div", {}, el("strong", { text: label }), el("code", { text: url })),
    copy,
    el("a", { class: "btn btn-small btn-ghost", href: url, target: "_blank", rel: "noopener", text: "Open" }),
  );
}

function showCreated(result, mine) {
  const box = clear($("#created"));
  box.hidden = false;
  box.append(el("h2", { text: "Game created" }));
  if (mine) {
    const play = el("a", { class: "btn btn-primary btn-block", id: "play-now", href: result.seats[mine.seat].link, text: `Play as ${mine.name}` });
    box.append(play);
  }
  const others = result.seats.filter((s) => s.token && (!mine || s.seat !== mine.seat));
  if (others.length) {
    box.append(el("p", { class: "hint", text: "Send each friend their private link (anyone with it plays that seat):" }));
    for (const s of others) box.append(linkRow(s.name, seatLink(result.id, s.token), `link-seat-${s.seat}`));
  }
  if (result.seats.some((s) => s.kind === "open")) {
    box.append(el("p", { class: "hint", text: "Open seats: friends take them with this lobby link (the game starts when all are taken):" }));
    box.append(linkRow("Join link", `${location.origin}/#join=${encodeURIComponent(result.id)}`, "link-join"));
    if (result.host_token && !result.rated) box.append(startWithBots(result));
  }
  box.append(linkRow("Watch", `${location.origin}${result.spectate}`, "link-watch"));
  box.scrollIntoView({ block: "start" });
}

/** The host's "start now": a bot in each seat still open (not in a rated game: people only). */
function startWithBots(result) {
  const button = el("button", { type: "button", class: "btn btn-small", id: "start-with-bots", text: "Start now: bots in the open seats" });
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await api.startWithBots(result.id, result.host_token, defaultBot());
      toast("The game has started: bots took the open seats.", "ok");
      button.remove();
      refreshLists();
    } catch (err) {
      toast(err.message, "error", 8000);
      button.disabled = false;
    }
  });
  return button;
}

// -- lists ------------------------------------------------------------------------------------------------
let refreshing = false;

let refreshAgain = false; // a filter changed while the lists were being fetched: fetch them again

async function refreshLists() {
  if (refreshing) {
    refreshAgain = true;
    return;
  }
  refreshing = true;
  try {
    const [{ games }, open] = await Promise.all([api.games(), openGames()]);
    const openBox = $("#open-games");
    renderList(openBox, open.games, "open", "No open seats right now: create a game with an open seat.");
    showFilteredOut(openBox, open.hidden);
    renderList($("#live-games"), games.filter((g) => g.status === "playing"), "live", "No games being played.");
    renderList($("#over-games"), games.filter((g) => g.status === "over"), "over", "No finished games yet.");
    await renderMine();
  } catch (error) {
    const box = $("#live-games");
    clear(box).append(el("li", { class: "empty", text: `The list cannot be loaded: ${error.message}` }));
  } finally {
    refreshing = false;
    if (refreshAgain) {
      refreshAgain = false;
      refreshLists();
    }
  }
}

function seatLine(g) {
  const line = el("div", { class: "gi-seats" });
  const kind = parseRules(g.rules).game;
  const colours = seatColours({ goal: (F.meta.games[kind] || {}).goal, players: g.seats.map((s, i) => ({ neutral: false, team: kind === "team" ? i % 2 : null })) });
  g.seats.forEach((s, i) => {
    line.append(
      el(
        "span",
        {},
        el("span", { class: "swatch", style: { background: colours[i].fill } }),
        " ",
        s.open ? el("em", { class: "muted", text: "open" }) : s.name,
        s.kind === "bot" ? el("span", { class: "muted", text: ` (${s.bot_label || s.bot})` }) : null,
        g.winner === i ? el("span", { class: "tag tag-ok", text: "won" }) : null,
      ),
    );
  });
  return line;
}

function renderList(box, games, kind, emptyText) {
  clear(box);
  if (!games.length) {
    box.append(el("li", { class: "empty", text: emptyText }));
    return;
  }
  const shown = games.slice(0, 8);
  for (const g of shown) {
    const item = el(
      "li",
      { class: "game-item", dataset: { game: g.id } },
      el("div", { class: "gi-head" }, el("span", { class: "gi-title", text: describeRules(g.rules) }), el("span", { class: "gi-meta", text: `${g.status === "waiting" ? "waiting" : `turn ${g.turn}`} · ${ago(g.updated)}` })),
      seatLine(g),
    );
    if (kind === "open") item.querySelector(".gi-head").after(openFacts(g));
    const clock = clockLine(g);
    if (clock) item.append(el("div", { class: "gi-clock", text: clock }));
    if (g.rated) item.querySelector(".gi-head").append(el("span", { class: "tag tag-rated", text: "Rated", title: "Rated: people only, each signed in to an account" }));
    const actions = el("div", { class: "gi-actions" });
    if (kind === "open") actions.append(...joinControls(g));
    else actions.append(...watchControls(g, kind));
    if (kind === "over" && g.spectators !== false) actions.append(el("a", { class: "btn btn-small summary-link", href: `/game/${encodeURIComponent(g.id)}/summary`, text: "Charts & replay" }));
    item.append(actions);
    box.append(item);
  }
  if (games.length > shown.length) box.append(el("li", { class: "more-games", text: `and ${games.length - shown.length} more` }));
}

/** A game's long clock in words, as its summary tells it: "Ann's move: 1 day 3 hours left · Bob is on
 * vacation until Tue 14:00" (this computer's time), or "" without a clock running. */
function clockLine(g) {
  if (!g.clock || g.status !== "playing") return "";
  const parts = g.clock.turn ? [g.clock.turn.words] : [];
  for (const away of g.clock.vacations || []) parts.push(`${away.name} is on vacation until ${momentWords(away.until)}`);
  return parts.join(" · ");
}

/** Watch a game (with how many watch it now), or say that only its players may open it. */
function watchControls(g, kind) {
  if (g.spectators === false) return [el("span", { class: "tag", text: "players only" })];
  const watch = el("a", { class: "btn btn-small", href: `/game/${encodeURIComponent(g.id)}`, text: kind === "over" ? "See the board" : "Watch" });
  return g.watchers ? [watch, el("span", { class: "gi-meta watchers", text: `${g.watchers} watching` })] : [watch];
}

function joinControls(g) {
  const open = g.seats.filter((s) => s.open);
  const name = el("input", { type: "text", maxlength: 24, placeholder: "Your name", "aria-label": "Your name", class: "join-name" });
  name.value = seats.name();
  const pick = el("select", { "aria-label": "Seat", class: "join-seat" });
  for (const s of open) pick.append(el("option", { value: s.seat, text: `Seat ${s.seat + 1}` }));
  const go = el("button", { type: "button", class: "btn btn-small btn-primary join-button", text: "Join" });
  go.addEventListener("click", async () => {
    const who = name.value.trim();
    if (!who) {
      name.focus();
      toast("Type your name first.", "error");
      return;
    }
    go.disabled = true;
    try {
      const seat = Number(pick.value);
      const result = await api.join(g.id, seat, who);
      seats.setName(who);
      seats.remember({ game: g.id, seat, name: who, token: result.token, mine: true, rules: g.rules });
      await bindIfSignedIn(); // the seat is the account's before the page goes to the game
      location.href = result.link;
    } catch (error) {
      toast(error.message, "error", 8000);
      go.disabled = false;
      refreshLists();
    }
  });
  return open.length > 1 ? [name, pick, go] : [name, go];
}

// An answer that comes back after a later drawing of "Your games" began (two links pasted in a row)
// is dropped, so an older list never overwrites a newer one.
const mineDrawings = drawings();

async function renderMine() {
  const current = mineDrawings.begin();
  const box = $("#my-games");
  const held = seats.all().filter((s) => s.mine && s.token);
  if (!held.length) {
    clear(box).append(el("li", { class: "empty", text: "Games you create or join appear here. A seat link from another device: paste it below." }));
    return;
  }
  let lines;
  try {
    // One request for every seat (private games included); each answer is the seat's at the same place.
    ({ seats: lines } = await api.mine(held.map((s) => ({ game: s.game, token: s.token, seen: Number.isInteger(s.seen) ? s.seen : undefined }))));
  } catch (error) {
    if (current()) clear(box).append(el("li", { class: "empty", text: `Your games cannot be loaded: ${error.message}` }));
    return;
  }
  if (!current()) return;
  const answered = lines.map((line, i) => ({ ...line, held: held[i] }));
  for (const line of answered) {
    if (line.error) continue;
    // A pasted link learns its seat; a first look is where "since you last looked" starts.
    const seen = Number.isInteger(line.held.seen) ? line.held.seen : line.mark;
    seats.update(line.game, line.held.token, { seat: line.seat, name: line.name, rules: line.rules, seen });
  }
  clear(box);
  for (const line of orderYourGames(answered).slice(0, 60)) box.append(mineItem(line));
}

/** One game of "Your games": its status in words, what happened since, and its links. */
function mineItem(line) {
  const s = line.held;
  const item = el("li", { class: `game-item mine${line.yours ? " your-move" : ""}${line.error ? " bad-link" : ""}`, dataset: { game: s.game } });
  const title = line.error ? `${s.name || "A seat"} · game ${s.game}` : `${line.name} · ${describeRules(line.rules)}`;
  const meta = line.error ? "" : `${line.status === "waiting" ? "waiting" : `turn ${line.turn}`} · ${ago(line.updated)}`;
  item.append(
    el("div", { class: "gi-head" }, el("span", { class: "gi-title", text: title }), el("span", { class: "gi-meta", text: meta })),
    el("div", { class: "gi-status", text: statusWords(line) }),
  );
  if (!line.error) item.append(el("div", { class: "gi-seats", text: `Players: ${line.players.join(", ")}` }));
  const news = (line.since || []).filter((words) => words !== "Nothing new.");
  if (news.length) item.append(el("div", { class: "gi-since" }, el("strong", { text: "Since you last looked: " }), news.join(" ")));
  const actions = el("div", { class: "gi-actions" });
  if (!line.error) {
    const play = el("a", { class: "btn btn-small btn-primary", href: seatLink(s.game, s.token), text: line.status === "over" ? "Open" : line.yours ? "Play now" : "Open" });
    play.addEventListener("click", () => seats.update(s.game, s.token, { seen: line.mark }));
    actions.append(play);
  }
  if (line.status === "over") actions.append(el("a", { class: "btn btn-small summary-link", href: `/game/${encodeURIComponent(s.game)}/summary`, text: "Charts & replay" }));
  for (const f of seats.forGame(s.game).filter((x) => !x.mine && x.token)) {
    const b = el("button", { type: "button", class: "btn btn-small", text: `Copy ${f.name}'s link` });
    b.addEventListener("click", async () => {
      const ok = await copyText(seatLink(f.game, f.token));
      toast(ok ? `Copied ${f.name}'s private link.` : "Copy failed.", ok ? "ok" : "error");
    });
    actions.append(b);
  }
  const forget = el("button", { type: "button", class: "btn btn-small btn-ghost", text: "Forget" });
  forget.addEventListener("click", () => {
    if (!line.error && line.status !== "over" && !confirmForget(forget)) return;
    seats.forget(s.game);
    refreshLists();
  });
  actions.append(forget);
  item.append(actions);
  return item;
}

// -- seat links from another device: pasted one by one, or all in one link (#seats=...) ---------------
function initSeatLinks() {
  const form = $("#add-seat-link");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("#seat-link");
    const link = parseSeatLink(input.value);
    if (!link) {
      toast("That is not a seat link: it looks like https://…/game/ID#token=….", "error", 8000);
      return;
    }
    toast(seats.adopt(link.game, link.token) ? "Added to your games." : "This browser holds that seat already.", "ok");
    input.value = "";
    refreshLists();
  });
  $("#copy-seat-links").addEventListener("click", async () => {
    const held = seats.all().filter((s) => s.mine && s.token);
    if (!held.length) {
      toast("This browser holds no seat yet.", "error");
      return;
    }
    const ok = await copyText(exportLink(location.origin, held));
    toast(ok ? `Copied a link with your ${held.length} seats: open it on your other device. It is as private as the seats' links.` : "Copy failed.", ok ? "ok" : "error", 8000);
  });
  importSeatLinks();
  window.addEventListener("hashchange", importSeatLinks);
}

/** /#seats=...: the seats carried from another device join this browser's; the fragment is then dropped. */
function importSeatLinks() {
  if (!location.hash.includes("seats=")) return;
  const carried = parseExport(location.hash);
  const added = carried.filter((link) => seats.adopt(link.game, link.token)).length;
  history.replaceState(null, "", location.pathname + location.search);
  if (!carried.length) toast("That link carries no seat.", "error", 8000);
  else toast(added ? `Added ${added} of your games from the link.` : "This browser holds those seats already.", "ok");
  refreshLists();
}

/** Forgetting an unfinished game loses its private link: ask by a second click, not a dialog. */
function confirmForget(button) {
  if (button.dataset.armed) return true;
  button.dataset.armed = "1";
  button.textContent = "Sure? The link is lost";
  setTimeout(() => {
    delete button.dataset.armed;
    button.textContent = "Forget";
  }, 4000);
  return false;
}

// -- /#join=ID: a link to take an open seat of a (maybe private) game ---------------------------------
async function handleJoinHash() {
  const m = /join=([^&]+)/.exec(location.hash);
  const box = $("#join-box");
  if (!m) {
    box.hidden = true;
    return;
  }
  const id = decodeURIComponent(m[1]);
  clear(box);
  box.hidden = false;
  try {
    const g = await api.game(id);
    box.append(el("h2", { text: "Join a game" }), el("div", { class: "gi-head" }, el("span", { class: "gi-title", text: describeRules(g.rules) })), seatLine(g));
    if (g.status !== "waiting" || !g.seats.some((s) => s.open)) {
      box.append(el("p", { class: "muted", text: "No seat is open in this game any more." }), el("a", { class: "btn btn-small", href: `/game/${encodeURIComponent(id)}`, text: "Watch it" }));
    } else box.append(el("div", { class: "gi-actions" }, ...joinControls(g)));
  } catch (error) {
    box.append(el("p", { class: "form-error", text: error.message }));
  }
}

// -- house rules: the form from saved settings (houserules.js) ----------------------------------------
/** Fill the form with saved house rules: {edition, game, options, seats?, table?}. */
function applyRules(settings) {
  if (F.meta.editions[settings.edition]) $("#edition").value = settings.edition;
  fillGames();
  const g = F.meta.games[settings.game];
  $("#game").value = g && g.editions.includes(edition()) ? settings.game : "world";
  F.options = { ...(settings.options || {}) };
  const mode = F.options["neutral-mode"];
  delete F.options["neutral-mode"]; // the radio buttons hold it
  const radio = document.querySelector(`input[name="neutral-mode"][value="${mode === "active" ? "active" : "passive"}"]`);
  if (radio) radio.checked = true;
  if (settings.seats && settings.seats.length) {
    F.seats = settings.seats.map((s) => ({ kind: s.kind, name: s.kind === "bot" ? "" : s.name || "", bot: s.bot || defaultBot() }));
    // The first human seat is whoever opens the rules here (unless that name is another seat's).
    const me = seats.name();
    const first = F.seats.find((s) => s.kind === "human");
    if (first && me && !F.seats.some((s) => s !== first && s.kind === "human" && s.name.toLowerCase() === me.toLowerCase())) first.name = me;
  }
  fitSeats();
  F.setup = optionValue("setup") || "claim";
  const table = settings.table || {};
  if (table.bot_delay !== undefined) $("#bot-delay").value = String(table.bot_delay);
  if (table.defend_timeout !== undefined) $("#defend-timeout").value = String(table.defend_timeout);
  if (table.spectators !== undefined) {
    $("#spectators").checked = table.spectators !== false;
    $("#fog-open").checked = table.spectators === FOG.open;
  }
  if (table.public !== undefined) $("#public").checked = table.public;
  if (table.turn_time !== undefined) setClockField("turn-time", table.turn_time);
  if (table.missed_turns !== undefined) $("#missed-turns").value = String(table.missed_turns);
  if (table.time_bank !== undefined) setClockField("time-bank", table.time_bank);
  if (table.vacation_days !== undefined) $("#vacation-days").value = String(table.vacation_days);
  if (table.stand_in !== undefined) $("#stand-in").value = table.stand_in;
  renderAll();
}

start();
