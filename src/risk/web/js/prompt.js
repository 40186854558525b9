// What to do now, in words: the top bar's "Round 3 · Attack · Ann" and the action panel's headline
// and detail (#phase, #phase-detail). Pure: the state in, the words out (tests/js/prompt.test.js).

import { armies as armiesWord, dice as diceWord, plural } from "./ui.js";
import { PHASE_LABELS } from "./words.js";
import { myTurn, roundText, territoryOf } from "./gamestate.js";

// A finger taps, a mouse clicks: the prompts say which (a phone's coarse pointer).
export const TAPS = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
const POINTER = TAPS ? { click: "tap", Click: "Tap" } : { click: "click", Click: "Click" };

/** The top bar's turn line. */
export function turnInfo(s) {
  const v = s.view;
  const name = v.players[v.current] ? v.players[v.current].name : "?";
  return s.msg.outcome ? "Game over" : `${roundText(s.msg)} · ${PHASE_LABELS[v.phase] || v.phase} · ${name}`;
}

/**
 * The prompt for the state: [headline, detail]. `secondsLeft`: the clock's whole seconds left (null:
 * none shown); `pointer`: the words for a click ({click, Click}), a tap's on a phone.
 */
export function promptFor(s, secondsLeft = null, pointer = POINTER) {
  const { click, Click } = pointer;
  const v = s.view;
  const msg = s.msg;
  const me = s.seat;
  const name = (i) => (v.players[i] ? v.players[i].name : "?");
  const actor = name(v.to_act);
  const mine = myTurn(s);
  const L = s.legal;
  if (s.elsewhere && !msg.outcome) return ["Your seat is played on another tab or device", `${Click} “Play here” above to play on this page.`];
  if (msg.status === "waiting") {
    const open = (msg.seats || []).filter((seat) => seat.kind === "open").length;
    return [`Waiting for ${plural(open, "player")} to join`, "The game starts when every open seat is taken: friends can take them from the lobby."];
  }
  if (msg.outcome) {
    const w = msg.outcome.winner;
    return [w === null || w === undefined ? "The game is over." : `${name(w)} wins!`, msg.outcome.reason || ""];
  }
  const deadline = msg.clock && msg.clock.for === "defence" && secondsLeft !== null ? ` (${secondsLeft} s left)` : "";
  switch (v.phase) {
    case "claim":
      return mine ? ["Claim a territory", `${Click} an empty territory to claim it.`] : [`${actor} is claiming a territory`, ""];
    case "setup-place": {
      if (!mine) return [`${actor} is placing an army`, ""];
      const left = v.setup_armies ? v.setup_armies[me] : 0;
      const ownSpots = [...L.place.keys()].some((slug) => territoryOf(s, slug).owner === me);
      return ownSpots
        ? [`Place an army (${left} left)`, `${Click} one of your territories.`]
        : ["Place a neutral army", `${Click} a neutral territory to place one of its armies.`];
    }
    case "reinforce":
    case "elimination-trade": {
      if (!mine) return [`${actor} is reinforcing`, ""];
      const mustTrade = L.trade.length && !L.place.size;
      if (mustTrade) return [v.phase === "elimination-trade" ? "Trade your cards" : "Trade a set of cards", `You hold ${plural((v.hand || []).length, "card")}: trade a set before placing.`];
      if (v.pending > 0) return [`Place ${armiesWord(v.pending)}`, L.trade.length ? `${Click} your territories, or trade a set of cards first.` : `${Click} your territories to place them.`];
      return ["Reinforce", ""];
    }
    case "attack":
      if (!mine) return [`${actor} is attacking`, ""];
      return ["Attack or end the attack", s.selection && s.selection.to ? "" : s.selection ? `Now ${click} the territory to attack.` : `${Click} one of your territories to attack from.`];
    case "defend": {
      const a = v.attack;
      const what = a ? `${name(v.current)} attacks ${a.to} from ${a.from} with ${diceWord(a.dice)}` : "";
      const left = msg.clock ? secondsLeft : null;
      if (mine) return [`Choose your defence dice: ${what}`, left !== null ? `${left} s left, then the most dice are rolled for you.` : ""];
      if (msg.standing && v.to_act === me) return [`Defending: ${what}`, "Your dice are rolled by your defence setting, below."];
      return [`${actor} chooses defence dice`, what + deadline];
    }
    case "occupy": {
      const o = v.occupy;
      if (!mine) return [`${actor} moves into ${o ? o.to : "the conquered territory"}`, ""];
      return [`${o ? o.to : "Territory"} conquered: move in`, o ? `From ${o.from}: ${o.min} to ${o.max} armies.` : ""];
    }
    case "fortify":
      if (!mine) return [`${actor} is fortifying`, ""];
      return ["Fortify, or end your turn", s.selection && s.selection.to ? "" : s.selection ? `Now ${click} where to move the armies.` : `${Click} a territory to move armies from.`];
    case "choose-capital":
      if (!mine) return [`${actor} is choosing a headquarters`, "Headquarters are revealed once all have chosen."];
      return ["Choose your headquarters", `${Click} one of your territories. The others will not see it until all have chosen.`];
    case "turn-end":
      if (!mine) return [`${actor} is ending the turn`, ""];
      return ["End of turn", "Claim an end-of-turn mission, or end the turn."];
    case "adjust-dice":
      if (!mine) return [`${actor} looks at the dice`, ""];
      return ["Change the dice?", "Re-roll a die or call on your commander, or accept the dice."];
    case "other-turn": // fog of war: whose turn it is, never its step
      return [`${actor}'s turn`, "Under the fog you see only what happens within your sight."];
    case "ally-place":
      if (!mine) return [`${actor} reinforces an ally`, ""];
      return [v.pending > 0 ? `Place ${armiesWord(v.pending)} for your ally` : "Place your ally's armies", `${Click} a territory of your ally.`];
    default:
      return [mine ? "Your move" : `${actor} to play`, PHASE_LABELS[v.phase] || v.phase];
  }
}

/** "click" or "tap", as the prompts say it on this device. */
export const CLICK = POINTER.click;
