// Web Push for this seat (docs/web.md, "Notifications"): "Notify this device" subscribes this browser
// with its push service and gives the subscription to the server, which then tells the seat's news
// (its move, its defence, its losses, the end) while the page is closed; the service worker (/sw.js)
// shows it. The browser's permission is asked on the click only, never when the page opens.
//
// One browser subscription serves every game on this site: Stop deletes it from this seat on the
// server and leaves the browser's own subscription to the other games. The server keeps one browser
// per seat: turning it on in another browser moves the seat's notifications there.

import { api } from "./api.js";
import { seatBlock } from "./email.js";
import { $, clear, el, toast } from "./ui.js";

let state = null; // the server's answer: {push_available, push: null | {paused, failures}, vapid_public_key}

/** Whether this browser can take Web Push at all (a service worker and the Push API). */
export function pushSupported(scope = globalThis) {
  return Boolean(scope.navigator && "serviceWorker" in scope.navigator && "PushManager" in scope);
}

/** What the block shows: "none" (hidden), "off" (the button), "blocked" (permission denied), "on", "paused". */
export function pushMode(settings, supported, permission) {
  if (!settings || !settings.push_available || !settings.vapid_public_key || !supported) return "none";
  if (settings.push) return settings.push.paused ? "paused" : "on";
  return permission === "denied" ? "blocked" : "off";
}

/** The server's key (base64url, as GET .../notify gives it) as the bytes PushManager.subscribe takes. */
export function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** Whether a subscription's key (an ArrayBuffer, or null) is the server's: made with another key (a
 * new server key), the browser's subscription would be refused by its push service. */
export function sameKey(buffer, bytes) {
  if (!buffer) return false;
  const held = new Uint8Array(buffer);
  return held.length === bytes.length && held.every((b, i) => b === bytes[i]);
}

/** Called with every state shown (the server asked once, with the e-mail block: email.js). */
export function renderPush(ctx) {
  seatBlock(
    ctx,
    "#seat-push",
    () => mode() !== "none",
    (answer) => {
      state = answer;
      draw(ctx);
      if (answer.push && answer.push.paused) toast("Notifications to your device are paused: the last ones could not be delivered. See Your seat.", "error");
    },
  );
}

function mode() {
  const permission = typeof Notification === "function" ? Notification.permission : "default";
  return pushMode(state, pushSupported(), permission);
}

function draw(ctx) {
  const host = $("#seat-push");
  if (!host) return;
  const shown = mode();
  host.hidden = shown === "none";
  clear(host);
  if (shown === "none") return;
  host.append(el("h3", { class: "email-title", text: "Notify this device" }));
  if (shown === "on") {
    const stop = el("button", { type: "button", class: "btn btn-small btn-ghost", id: "push-stop" }, "Stop");
    stop.addEventListener("click", () => stopPush(ctx));
    host.append(el("div", { class: "row wrap" }, el("p", { class: "muted", id: "push-on", text: "Notifications on for this device." }), stop));
    return;
  }
  if (shown === "blocked") {
    host.append(el("p", { class: "muted", id: "push-blocked", text: "Notifications are blocked for this site in this browser: allow them in its site settings to be notified here." }));
    return;
  }
  if (shown === "paused") {
    host.append(el("p", { class: "warn-text", id: "push-paused", text: "Notifications to this device are paused: the last ones could not be delivered. Turn them on again." }));
  } else {
    host.append(el("p", { class: "muted email-why", text: "A notification on this device when it is your move, your defence is wanted, you lost territories or the game ended, and this page is closed. One device per seat." }));
  }
  const button = el("button", { type: "button", class: "btn btn-small btn-primary", id: "push-start" }, "Notify this device");
  button.addEventListener("click", () => startPush(ctx, button));
  host.append(button);
}

async function startPush(ctx, button) {
  button.disabled = true;
  try {
    // Asked first, while the click still counts as the player's own gesture.
    const permission = await Notification.requestPermission();
    if (permission !== "granted") {
      toast("Notifications are not allowed for this site: allow them in the browser's site settings.", "error");
      draw(ctx);
      return;
    }
    await navigator.serviceWorker.register("/sw.js");
    const registration = await navigator.serviceWorker.ready; // subscribing needs an active worker
    const key = keyBytes(state.vapid_public_key);
    let subscription = await registration.pushManager.getSubscription();
    if (subscription && !sameKey(subscription.options && subscription.options.applicationServerKey, key)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    if (!subscription) subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    const answer = await api.notifyPush(ctx.gameId, ctx.token, { subscription: subscription.toJSON() });
    state = { ...state, push: answer.push };
    draw(ctx);
    toast("Notifications are on for this device.", "ok");
  } catch (error) {
    button.disabled = false;
    toast(error.message || "This browser could not subscribe to notifications.", "error");
  }
}

async function stopPush(ctx) {
  try {
    await api.stopPush(ctx.gameId, ctx.token);
    state = { ...state, push: null };
    draw(ctx);
    toast("No more notifications to this device for this seat.", "ok");
  } catch (error) {
    toast(error.message, "error");
  }
}
