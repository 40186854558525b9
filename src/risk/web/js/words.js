// Words for the game: phases, legal actions as button labels, Mission RISK cards.

// Mission RISK cards are made from the board (src/risk/rules/missions.py): the board's answer lists them
// (GET /api/games/{id}/board, "mission_cards"), the view names a card by its key only.
const CARDS = new Map(); // key -> { rank, timing, text }

export const TIMING = {
  start: "at the start of your turn",
  reinforced: "after reinforcing",
  end: "at the end of your turn",
};

/** The Mission RISK cards of the board being played (its answer's mission_cards). */
export function useMissionCards(cards) {
  CARDS.clear();
  for (const card of cards || []) CARDS.set(card.key, card);
}

/** A Mission RISK card by key, in words; a key the board does not list is shown from its own words. */
export function missionCard(key) {
  const known = CARDS.get(key);
  const rank = String(key).split("-")[0];
  const words = String(key).split("-").slice(1).join(" ");
  return {
    key,
    rank: rank.charAt(0).toUpperCase() + rank.slice(1),
    text: known ? known.text : words.charAt(0).toUpperCase() + words.slice(1) + ".",
    timing: known ? TIMING[known.timing] : "",
  };
}

/** How long a finished game went: "After 12 turns.", or for a game that ended in its setup (everyone
 * else resigned while claiming), no turn at all. */
export function turnsPlayed(turns) {
  if (turns > 0) return `After ${turns} ${turns === 1 ? "turn" : "turns"}.`;
  return "It ended during the setup, before the first turn.";
}

export const PHASE_LABELS = {
  claim: "Claiming",
  "setup-place": "Deployment",
  reinforce: "Reinforce",
  attack: "Attack",
  defend: "Defence",
  occupy: "Move in",
  "elimination-trade": "Cards taken",
  fortify: "Fortify",
  "game-over": "Game over",
  "choose-capital": "Headquarters",
  "turn-end": "End of turn",
  "adjust-dice": "Dice",
  "ally-place": "Ally",
  "other-turn": "Under the fog", // another player's turn, its steps out of sight (fog of war)
};

/** A legal action as a button label, in words. names: slug -> territory name. */
export function actionLabel(text, names, players, battle) {
  const w = text.split(" ");
  const t = (slug) => names.get(slug) || slug;
  const neutral = (word) => {
    const m = /^neutral-(\d+)$/.exec(word || "");
    if (!m) return word;
    // Neutrals are numbered from 1, after the players' seats; with one neutral it is just "Neutral".
    const named = (players || []).filter((p) => p.neutral);
    return named.length === 1 ? named[0].name : (named[Number(m[1]) - 1] || { name: `Neutral ${m[1]}` }).name;
  };
  switch (w[0]) {
    case "endattack":
      return "End attack";
    case "endturn":
      return "End turn";
    case "calloff":
      return "Call off the invasion";
    case "accept":
      return "Accept the dice";
    case "reroll": {
      const mine = w[1] === "attacker";
      const rolled = battle ? (mine ? battle.attacker_dice : battle.defender_dice)[Number(w[2]) - 1] : undefined;
      const shown = rolled ? ` (a ${rolled})` : "";
      return mine ? `Re-roll your die ${w[2]}${shown}` : `Re-roll the defender's die ${w[2]}${shown}`;
    }
    case "commander": {
      const rolled = battle ? battle.attacker_dice[Number(w[1]) - 1] : undefined;
      return `Commander: turn your die ${w[1]}${rolled ? ` (a ${rolled})` : ""} into a 6`;
    }
    case "mission": {
      const card = missionCard(w[1]);
      return `Claim mission: ${card.text}`;
    }
    case "bribe":
      return `Bribe ${neutral(w[1])} with ${w[2].startsWith("wild") ? "a wild card" : `the ${t(w[2])} card`}`;
    case "reinforce":
      return `Reinforce ally ${neutral(w[1])}`;
    case "capital":
      return `Headquarters in ${t(w[1])}`;
    case "claim":
      return `Claim ${t(w[1])}`;
    case "trade":
      return `Trade ${w.slice(1).map((c) => (c.startsWith("wild") ? "a wild card" : t(c))).join(", ")}`;
    default:
      return text;
  }
}
