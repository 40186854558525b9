// The rule options in a player's words (the lobby's form, the rules line of a game) and the lobby's
// presets. Every label traces to the rulebooks (../shared/rules/SPEC.md); the engine's names stay in
// the tooltips, for whoever reads the docs or types `risk play --option`.

/**
 * Each option: label (a player's name for it), help (one line), group, and words for its choices.
 * Groups: "start" (setting up), "cards", "moves", "game" (only some games), "rare" (folded away).
 */
export const OPTION_WORDS = {
  setup: {
    label: "Territories",
    help: "How the 42 territories are shared out before the first turn.",
    group: "start",
    choices: { claim: "Take turns claiming them", deal: "Deal them out at random (quicker)" },
  },
  "first-turn": {
    label: "Who goes first",
    help: "Who takes the first turn once every army is placed.",
    group: "start",
    choices: { "first-placer": "Whoever placed the first army", roll: "Roll the dice again" },
  },
  "starting-armies": {
    label: "Starting armies",
    help: "The armies each player has to place at the start, by the number of players.",
    group: "rare",
  },
  "card-values": {
    label: "Sets of cards are worth",
    help: "The armies a traded set gives. Fixed: 3 infantry 4, 3 cavalry 6, 3 artillery 8, one of each 10.",
    group: "cards",
    choices: {
      escalating: "Rising: 4, 6, 8, 10, 12, 15, then 5 more each",
      "plus-one": "One more each time: 4, 5, 6, 7…",
      fixed: "By the set: 4, 6 or 8 for three alike, 10 for one of each",
    },
  },
  "territory-card-bonus": {
    label: "Bonus for your own territory on a card",
    help: "A traded card that shows a territory you hold puts 2 extra armies there.",
    group: "cards",
    choices: { none: "No bonus", "once-per-turn": "2 armies, once a turn", "once-per-trade": "2 armies with every set" },
  },
  "card-draw": {
    label: "When you draw your card",
    help: "Conquer at least one territory in a turn to draw a card: at the very end, or before you fortify.",
    group: "cards",
    choices: { "after-fortify": "At the end of your turn", "before-fortify": "When you stop attacking" },
  },
  "card-value-cap": {
    label: "Most armies for one set",
    help: "A house rule: no set gives more than this, whatever the chart says (0: no limit).",
    group: "cards",
    unit: "armies",
  },
  fortify: {
    label: "Fortifying",
    help: "The free move of armies at the end of your turn: to a territory next door, or along a chain of your own.",
    group: "moves",
    choices: {
      adjacent: "One move, to a neighbour",
      chain: "One move, through your territories",
      extended: "Any number of moves",
    },
  },
  "forced-trade-at": {
    label: "Must trade when holding",
    help: "Start your turn with this many cards or more and you must trade a set.",
    group: "rare",
    unit: "cards",
  },
  "elimination-trade-at": {
    label: "Trade at once after a knock-out when holding",
    help: "Take a defeated player's cards and hold this many: trade at once until 4 or fewer are left.",
    group: "rare",
    unit: "cards",
  },
  "army-cap": {
    label: "Most armies on one territory",
    help: "Armies above this are lost (0: no limit). The 1993 experts play with 12.",
    group: "rare",
    unit: "armies",
  },
  "attack-advantage": {
    label: "Attack advantage",
    help: "Hold the card of the territory you attack from or into: re-roll one of your dice per battle.",
    group: "rare",
    choices: { off: "Off", on: "On" },
  },
  commanders: {
    label: "Commanders",
    help: "Once a turn while attacking, turn one of the dice you just rolled into a 6.",
    group: "rare",
    choices: { off: "Off", on: "On" },
  },
  "capitals-to-win": {
    label: "To win",
    help: "Capital RISK: the headquarters you must capture while you keep your own.",
    group: "game",
    choices: { all: "Every other headquarters", short: "Short game: any 2 (4 players) or any 3 (5 or 6)" },
  },
  "neutral-mode": {
    label: "Neutrals",
    help: "2003 2-player RISK: neutrals are roadblocks, or armies you can bribe and ally with.",
    group: "game",
    choices: { passive: "Passive: roadblocks", active: "Active: bribe them, make allies" },
  },
  players: { label: "Players", help: "How many can play.", group: "rare" },
  neutrals: {
    label: "Neutral armies",
    help: "How many neutral colours stand in the way (the 2003 rules have four).",
    group: "game",
  },
  "neutral-armies": {
    label: "Armies of each neutral",
    help: "What each neutral colour starts with.",
    group: "game",
    unit: "armies",
  },
  "setup-batch": {
    label: "Armies placed at a time",
    help: "Your own armies placed on each turn of setting up.",
    group: "game",
    unit: "armies",
  },
  "neutral-placement": {
    label: "Placing the neutral armies",
    help: "When the players place the neutrals' armies while setting up.",
    group: "game",
    choices: { interleaved: "After each of your own turns", "after-own": "Once your own armies are all placed" },
  },
};

// Fog of war has its own box in the lobby (lobby.js, FOG) and goes with any preset.
OPTION_WORDS.fog = {
  label: "Fog of war",
  help: "Each player sees the owner and armies of their own territories and of the ones next to them; the rest as last seen.",
  group: "rare",
  choices: { off: "Off: everyone sees the whole board", on: "On" },
};

export const OPTION_GROUPS = [
  ["start", "Setting up"],
  ["game", "This game"],
  ["cards", "Cards"],
  ["moves", "Moving armies"],
  ["rare", "More rules: rarely changed, and the 1993 experts' variations"],
];

/** An option in words: {label, help, group, choices}; an option the page does not know keeps its engine name. */
export function optionWords(name, description) {
  return OPTION_WORDS[name] || { label: name, help: description || "", group: "rare", choices: {} };
}

/** A value of an option in words: "chain" -> "One move, through your own territories". */
export function choiceWords(name, value) {
  const words = OPTION_WORDS[name];
  if (!words) return String(value);
  if (name === "starting-armies") {
    return String(value)
      .split(",")
      .map((pair) => pair.split(":"))
      .map(([count, armies]) => `${armies} each for ${count}`)
      .join(", ");
  }
  if (words.choices && words.choices[value]) return words.choices[value];
  return words.unit ? `${value} ${words.unit}` : String(value);
}

/** "fortify", "adjacent" -> "Fortifying: one move, to a neighbouring territory" (a game's rules line). */
export function optionInWords(name, value) {
  const words = OPTION_WORDS[name];
  if (!words) return `${name} ${value}`;
  const said = choiceWords(name, value);
  return `${words.label}: ${said.charAt(0).toLowerCase()}${said.slice(1)}`;
}

/**
 * One click sets up a game of the rulebooks: its rulebook, the game, the options it changes and the
 * number of players. "from" names the rulebook (SPEC.md) a player can read it in.
 */
export const PRESETS = [
  {
    id: "classic",
    name: "World domination",
    edition: "2008",
    game: "world",
    from: "2008 rules, Classic RISK",
    desc: "3 to 5 players: the last one standing wins.",
  },
  {
    id: "quick",
    name: "Quick world domination",
    edition: "2008",
    game: "world",
    options: { setup: "deal" },
    from: "2008 rules with territories dealt, as in Secret Mission RISK",
    desc: "Territories dealt: straight to placing armies.",
  },
  {
    id: "secret-mission",
    name: "Secret Mission",
    edition: "2008",
    game: "secret-mission",
    from: "2008 rules, Secret Mission RISK",
    desc: "A secret mission each: first to complete it wins.",
  },
  {
    id: "capital",
    name: "Capital RISK",
    edition: "2008",
    game: "capital",
    from: "2008 rules, Capital RISK",
    desc: "Capture the others' headquarters, keep yours.",
  },
  {
    id: "capital-short",
    name: "Capital RISK, short",
    edition: "2008",
    game: "capital",
    seats: 4,
    options: { "capitals-to-win": "short" },
    from: "2008 rules, Capital RISK: 'you can shorten the game even further'",
    desc: "4 players: capture any 2 headquarters.",
  },
  {
    id: "two-player",
    name: "2 players",
    edition: "2008",
    game: "two-player",
    from: "2008 rules, 2-player RISK",
    desc: "You, one opponent and a neutral army.",
  },
  {
    id: "two-player-allies",
    name: "2 players, four neutrals",
    edition: "2003",
    game: "two-player",
    neutralMode: "active",
    from: "2003 rules, 2-player RISK, active neutrals",
    desc: "Neutrals you can bribe and make allies (2003).",
  },
  {
    id: "mission",
    name: "Mission RISK",
    edition: "2003",
    game: "mission",
    from: "2003 rules, Mission RISK",
    desc: "Four missions each: complete them all (2003).",
  },
  {
    id: "team",
    name: "Team RISK",
    edition: "2003",
    game: "team",
    seats: 4,
    from: "2003 rules, Team RISK",
    desc: "Two against two, one shared hand (2003).",
  },
  {
    id: "experts",
    name: "1993 experts",
    edition: "1993",
    game: "world",
    options: { "card-values": "plus-one", fortify: "extended", "army-cap": "12", "attack-advantage": "on", commanders: "on" },
    from: "1993 rules, 'Rules Variations for RISK Experts'",
    desc: "Every variation the 1993 rules offer to experts.",
  },
];

/** The preset a game's rules are, if any ("1993 experts"): the lobby's lists name it, not its options. */
export function presetOf(edition, game, options) {
  const keys = Object.keys(options || {}).filter((k) => k !== "neutral-mode" && k !== "fog");
  return PRESETS.find((p) => {
    const wanted = p.options || {};
    if (p.edition !== edition || p.game !== game || (p.neutralMode || "passive") !== ((options || {})["neutral-mode"] || "passive")) return false;
    return keys.length === Object.keys(wanted).length && keys.every((k) => String(wanted[k]) === String(options[k]));
  });
}
