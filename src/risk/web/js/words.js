// Words for the game: phases, legal actions as button labels, Mission RISK cards.

// Mission RISK cards (src/risk/rules/missions.py); an unknown key is shown from its own words.
export const RANKED = {
  "general-asia": ["start", "Control Asia."],
  "general-north-america-australia": ["reinforced", "Control North America and Australia."],
  "general-five-islands": ["end", "Control 5 islands."],
  "general-24-territories": ["end", "Control 24 territories."],
  "general-three-continents": ["start", "Control three whole continents."],
  "general-europe-africa": ["reinforced", "Control Europe and Africa."],
  "general-18-strongholds": ["end", "Control 18 territories with at least 2 armies in each."],
  "major-north-america": ["start", "Control North America."],
  "major-europe": ["reinforced", "Control Europe."],
  "major-four-islands": ["end", "Control 4 islands."],
  "major-20-territories": ["start", "Control 20 territories."],
  "major-africa-south-america": ["reinforced", "Control Africa and South America."],
  "major-five-conquests": ["end", "Conquer 5 territories this turn."],
  "colonel-africa": ["start", "Control Africa."],
  "colonel-three-islands": ["reinforced", "Control 3 islands."],
  "colonel-17-territories": ["end", "Control 17 territories."],
  "colonel-two-continents": ["start", "Control two whole continents."],
  "colonel-stack-15": ["end", "Have 15 or more armies in one territory."],
  "colonel-four-conquests": ["end", "Conquer 4 territories this turn."],
  "colonel-12-strongholds": ["reinforced", "Control 12 territories with at least 2 armies in each."],
  "captain-australia": ["start", "Control Australia."],
  "captain-south-america": ["reinforced", "Control South America."],
  "captain-two-islands": ["end", "Control 2 islands."],
  "captain-14-territories": ["start", "Control 14 territories."],
  "captain-stack-10": ["reinforced", "Have 10 or more armies in one territory."],
  "captain-two-conquests": ["end", "Conquer 2 territories this turn."],
  "captain-8-strongholds": ["end", "Control 8 territories with at least 2 armies in each."],
};

export const TIMING = {
  start: "at the start of your turn",
  reinforced: "after reinforcing",
  end: "at the end of your turn",
};

export function missionCard(key) {
  const known = RANKED[key];
  const rank = String(key).split("-")[0];
  const words = String(key).split("-").slice(1).join(" ");
  return {
    key,
    rank: rank.charAt(0).toUpperCase() + rank.slice(1),
    text: known ? known[1] : words.charAt(0).toUpperCase() + words.slice(1) + ".",
    timing: known ? TIMING[known[0]] : "",
  };
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
      return `Bribe ${neutral(w[1])} with the ${w[2].startsWith("wild") ? "wild" : t(w[2])} card`;
    case "reinforce":
      return `Reinforce ally ${neutral(w[1])}`;
    case "capital":
      return `Headquarters in ${t(w[1])}`;
    case "claim":
      return `Claim ${t(w[1])}`;
    case "trade":
      return `Trade ${w.slice(1).map((c) => (c.startsWith("wild") ? "wild" : t(c))).join(", ")}`;
    default:
      return text;
  }
}
