// "Your turn" (docs/web.md): the page title (status.js), the favicon, an optional sound and a browser
// notification when the tab is in the background. Sound and notifications are off until the
// player turns them on with a click: the browser's permission is asked only then.

import { el, toast } from "./ui.js";

const SOUND_KEY = "risk.sound";
const NOTIFY_KEY = "risk.notify";
const ICON = "/static/img/favicon.svg";
const TURN_ICON = "/static/img/favicon-turn.svg";

let wasMine = false;
let audio = null;

function stored(key) {
  try {
    return localStorage.getItem(key) === "on";
  } catch {
    return false;
  }
}

function store(key, on) {
  try {
    localStorage.setItem(key, on ? "on" : "off");
  } catch {
    /* private mode: the choice lasts for this page */
  }
}

function notifications() {
  return typeof Notification === "function";
}

/** Called with every state shown: the favicon follows the turn; a turn that starts alerts. */
export function notifyTurn({ mine, defending, gameId, title, detail }) {
  const icon = document.getElementById("favicon");
  if (icon) icon.setAttribute("href", mine ? TURN_ICON : ICON);
  const starts = mine && !wasMine;
  wasMine = mine;
  if (!starts) return;
  let alerts = 0;
  if (stored(SOUND_KEY) && playSound(defending)) alerts += 1;
  if (stored(NOTIFY_KEY) && notifications() && Notification.permission === "granted" && document.hidden) {
    try {
      const note = new Notification(title, { body: detail || "", tag: `risk-${gameId}`, icon: TURN_ICON });
      note.addEventListener("click", () => {
        window.focus();
        note.close();
      });
      alerts += 1;
    } catch {
      /* some browsers only notify from a service worker: the title and favicon still say it */
    }
  }
  // For tests and tools: how many alerts (sounds, notifications) the page has given.
  document.body.dataset.turnAlerts = String(Number(document.body.dataset.turnAlerts || 0) + alerts);
}

/** Two short rising tones, made on the spot (no sound file to load). */
function playSound(defending) {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
    const start = audio.currentTime + 0.02;
    const tones = defending ? [880, 660] : [660, 880];
    tones.forEach((frequency, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = frequency;
      const t = start + i * 0.16;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.25, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.14);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + 0.15);
    });
    return true;
  } catch {
    return false;
  }
}

/** The two toggles: sound and notifications, each off until clicked. */
export function alertToggles() {
  const sound = el("button", { type: "button", class: "btn btn-small toggle", id: "toggle-sound" });
  const notify = el("button", { type: "button", class: "btn btn-small toggle", id: "toggle-notify" });
  const show = () => {
    const soundOn = stored(SOUND_KEY);
    sound.setAttribute("aria-pressed", String(soundOn));
    sound.textContent = soundOn ? "Sound: on" : "Sound: off";
    const notifyOn = stored(NOTIFY_KEY) && notifications() && Notification.permission === "granted";
    notify.setAttribute("aria-pressed", String(notifyOn));
    notify.textContent = notifyOn ? "Notify me: on" : "Notify me: off";
    notify.disabled = !notifications();
    notify.title = notifications()
      ? "A browser notification when your turn comes while this tab is in the background"
      : "This browser has no notifications";
  };
  sound.addEventListener("click", () => {
    const on = !stored(SOUND_KEY);
    store(SOUND_KEY, on);
    if (on) playSound(false); // the click allows the sound, and lets the player hear it
    show();
  });
  notify.addEventListener("click", async () => {
    if (stored(NOTIFY_KEY) && Notification.permission === "granted") {
      store(NOTIFY_KEY, false);
      show();
      return;
    }
    const answer = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
    if (answer === "granted") store(NOTIFY_KEY, true);
    else toast("Notifications are blocked for this site: allow them in the browser's site settings.", "error");
    show();
  });
  show();
  return el("div", { class: "row wrap alert-toggles" }, sound, notify);
}
