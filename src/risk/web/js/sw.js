// The service worker of Web Push (docs/web.md, "Notifications"), served at /sw.js so that its scope
// is the whole site. A push from the server (its payload {title, body, url}, encrypted for this
// browser) is shown as a notification, one per game (a newer replaces the older); a click on it
// brings that game's open tab to the front, or opens the seat's page. A classic script, not a module:
// not every browser runs module service workers.
"use strict";

const ICON = "/static/img/favicon-turn.svg";

/** "/game/ID" of a link, or "" if it is no game's page. */
function gamePath(url) {
  try {
    const match = /^\/game\/[^/]+$/.exec(new URL(url, self.location.origin).pathname);
    return match ? match[0] : "";
  } catch {
    return "";
  }
}

/** The page to open: the game's, on this site (a link is never followed elsewhere), with its fragment
 * (the seat's token); the lobby for anything else. */
function pageOf(url) {
  const path = gamePath(url);
  if (!path) return new URL("/", self.location.origin).href;
  return new URL(path + new URL(url, self.location.origin).hash, self.location.origin).href;
}

/** The title and the options of the notification of a push's payload (JSON text). */
function notificationOf(text) {
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    data = null;
  }
  if (!data || typeof data !== "object") data = {};
  const url = typeof data.url === "string" ? data.url : "/";
  const path = gamePath(url);
  return {
    title: typeof data.title === "string" && data.title ? data.title : "RISK",
    options: {
      body: typeof data.body === "string" ? data.body : "",
      icon: ICON,
      tag: path ? `risk${path}` : "risk",
      renotify: true,
      data: { url: pageOf(url) },
    },
  };
}

async function focusOrOpen(url) {
  const path = gamePath(url);
  const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = path && tabs.find((tab) => new URL(tab.url).pathname === path);
  if (open) return open.focus();
  return self.clients.openWindow(url);
}

self.addEventListener("push", (event) => {
  const { title, options } = notificationOf(event.data ? event.data.text() : "");
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(focusOrOpen(url));
});
