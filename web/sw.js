// floor's service worker (served as /sw.js by floor/server/routes_app.py, which writes the
// release's version and the shell's files into it).
//
// - The app shell (the pages' scripts, styles, English texts, icons) is kept per release: a new
//   release is a new script, installed by the browser at the next page load, which takes
//   over at once and drops the old release's shell.
// - The pages (/player/, /floor/, /table/) are read from the network first; without one, the
//   page last read (one copy per kind: the same file serves every tournament).
// - The last public state, for when the wifi drops: the public snapshot
//   (/api/t/{id}/snapshot answered with `Floor-View: public`), the follow feed's last message
//   (/api/t/{id}/follow/{player}; the page writes the websocket's last one there too) and the
//   board. Never a staff answer: anything else goes to the network alone, and a sign-out
//   (the page's `forget` message) drops every state kept.
// - Web Push: the alert shown in the subscription's language, from the texts of
//   /static/js/lang/push-*.js (read with importScripts: a classic worker, since not every
//   browser runs module service workers); a tap opens the page the alert names.

/* eslint-env serviceworker */
// @ts-nocheck  (a worker's globals, not a page's)

const VERSION = "__FLOOR_VERSION__";
const SHELL = ["__FLOOR_SHELL__"];
const SHELL_CACHE = `floor-shell-${VERSION}`;
const STATE_CACHE = "floor-state";
const PAGES = /^\/(player|floor|table)\//;
const STATE = /^\/api\/t\/[^/]+\/(snapshot|follow\/[^/]+|board)$/;

// Every shipped language's notifications (floor/server/routes_app.py writes the list).
importScripts(...["__FLOOR_PUSH__"]);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL_CACHE);
    // One file missing must not leave the app without the others.
    await Promise.all(SHELL.map((path) => cache.add(path).catch(() => undefined)));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("floor-shell-") && name !== SHELL_CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

function pageKey(url) {
  return `/__page/${url.pathname.split("/")[1]}`;
}

async function networkFirst(request, cacheName, key, keep) {
  const cache = await caches.open(cacheName);
  try {
    const answer = await fetch(request);
    if (answer.ok && keep(answer)) await cache.put(key, answer.clone());
    return answer;
  } catch (err) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw err;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(SHELL_CACHE);
  const kept = await cache.match(request, { ignoreSearch: true });
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok) await cache.put(request, answer.clone());
  return answer;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && PAGES.test(url.pathname)) {
    event.respondWith(networkFirst(request, SHELL_CACHE, pageKey(url), () => true));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(cacheFirst(request));
  } else if (STATE.test(url.pathname)) {
    // Only the public's answer is kept: a staff member's snapshot never reaches the cache.
    event.respondWith(networkFirst(request, STATE_CACHE, url.pathname, (answer) => publicAnswer(url, answer)));
  }
  // Everything else (commands, staff reads, sign-in) goes to the network alone.
});

/** Whether a state answer may be kept: the public's alone. */
function publicAnswer(url, answer) {
  return !url.pathname.endsWith("/snapshot") || answer.headers.get("Floor-View") === "public";
}

/** A page read before this worker controlled it (its first visit): kept now, and the
 * room's public state with it when asked. */
async function keep(page, state) {
  const url = new URL(page, self.location.origin);
  if (PAGES.test(url.pathname)) {
    const answer = await fetch(url.pathname, { credentials: "same-origin" });
    if (answer.ok) await (await caches.open(SHELL_CACHE)).put(pageKey(url), answer);
  }
  if (state) {
    const where = new URL(state, self.location.origin);
    if (!STATE.test(where.pathname)) return;
    const answer = await fetch(where.pathname, { credentials: "same-origin" });
    if (answer.ok && publicAnswer(where, answer)) await (await caches.open(STATE_CACHE)).put(where.pathname, answer);
  }
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "forget") {
    // A sign-out on a shared device: nothing of the day stays.
    event.waitUntil(caches.delete(STATE_CACHE));
  } else if (data.type === "keep" && typeof data.page === "string") {
    event.waitUntil(keep(data.page, typeof data.state === "string" ? data.state : null).catch(() => undefined));
  }
});

/** The text of `key` in `lang` (English when missing), its `{name}` placeholders filled. */
function text(lang, key, params) {
  const all = self.floorPushTexts || {};
  const dict = all[lang] || all.en || {};
  let value = dict[key] ?? all.en?.[key] ?? key;
  if (value && typeof value === "object") {
    const form = new Intl.PluralRules(lang === "pt-br" ? "pt-BR" : lang).select(Number(params.n ?? 0));
    value = value[form] ?? value.other;
  }
  return String(value).replace(/\{(\w+)\}/g, (m, name) => (params[name] != null ? String(params[name]) : m));
}

/** The notification of a push's payload (floor/server/push_notify.py, `Payload`). */
function notification(payload) {
  const lang = payload.lang || "en";
  const a = payload.alert || {};
  const staff = payload.url?.startsWith("/floor/");
  const params = { ...a, name: payload.name ?? "", seat: a.seat ?? "?", n: a.places ?? 0 };
  if (a.prize != null) params.prize = `${Number(a.prize).toLocaleString(lang)}${a.currency ? ` ${a.currency}` : ""}`;
  const kind = staff ? `push.staff.${a.kind}` : `push.${a.kind}${a.kind === "move_called" && a.count ? "_again" : ""}`;
  return {
    title: text(lang, `${kind}.title`, params),
    body: text(lang, `${kind}.body`, params),
  };
}

self.addEventListener("push", (event) => {
  let payload = {};
  try {
    payload = event.data ? event.data.json() : {};
  } catch (err) {
    payload = {};
  }
  const shown = notification(payload);
  const kind = (payload.url || "/player/").split("/")[1] || "player";
  event.waitUntil((async () => {
    await self.registration.showNotification(shown.title, {
      body: shown.body,
      tag: payload.tag,
      renotify: true,
      lang: payload.lang || "en",
      icon: `/static/icons/${kind}-192.png`,
      badge: `/static/icons/${kind}-192.png`,
      data: { url: payload.url || "/" },
      vibrate: [300, 120, 300],
    });
    // An open page shows its own alert: tell it, it need not wait for its socket.
    for (const client of await self.clients.matchAll({ type: "window" })) client.postMessage({ type: "push", payload });
  })());
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = event.notification.data?.url || "/";
  event.waitUntil((async () => {
    for (const client of await self.clients.matchAll({ type: "window" })) {
      if (new URL(client.url).pathname === url && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(url);
  })());
});
