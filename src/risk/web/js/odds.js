// The chances of the attack planned (#odds): GET /api/odds for a blitz and for "until N left", asked
// once for each count of armies and kept.

import { api } from "./api.js";
import { clear, el } from "./ui.js";

const asked = new Map(); // "attackers/defenders/stop" -> the server's answer (a promise)

/** A chance as players read it: "73%", "99.6%", ">99.9%". */
export function percent(x) {
  return x >= 0.9995 ? ">99.9%" : x <= 0.0005 ? "<0.1%" : `${(x * 100).toFixed(x > 0.995 || x < 0.005 ? 1 : 0)}%`;
}

/** good, fair or poor: the colour of a chance. */
export function oddsClass(p) {
  return p >= 0.7 ? "good" : p >= 0.4 ? "fair" : "poor";
}

/** The odds of `strength` armies (the source's; one stays behind) against `defenders`, stopping at `floor` left. */
export async function showOdds(strength, defenders, floor) {
  const box = document.getElementById("odds");
  if (!box) return;
  const attackers = strength - 1;
  if (attackers < 1 || defenders < 1) {
    box.textContent = "";
    return;
  }
  const stops = [...new Set([0, Math.max(0, Math.min(attackers, floor - 1))])];
  try {
    const results = await Promise.all(
      stops.map(async (stop) => {
        const key = `${attackers}/${defenders}/${stop}`;
        if (!asked.has(key)) asked.set(key, api.odds(Math.min(attackers, 1000), Math.min(defenders, 1000), stop));
        return asked.get(key);
      }),
    );
    if (!document.body.contains(box)) return;
    clear(box);
    const [blitz, until] = results;
    box.append(
      el("span", { class: "odds-label", text: "Chance to conquer: " }),
      el("strong", { class: oddsClass(blitz.win), text: percent(blitz.win) }),
      el("span", { class: "muted", text: ` blitz (you lose ~${blitz.expected_attacker_losses.toFixed(1)}, they ~${blitz.expected_defender_losses.toFixed(1)})` }),
    );
    if (until) box.append(el("br"), el("span", { class: "odds-label", text: `Stopping at ${floor} left: ` }), el("strong", { class: oddsClass(until.win), text: percent(until.win) }));
  } catch {
    box.textContent = "";
    asked.clear();
  }
}
