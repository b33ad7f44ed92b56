// The session's live stream (GET sessions/{id}/stream, server-sent events):
// resumes after the last event shown, reconnects with a growing pause, and
// says so in a banner while it is away.

import { endpoint, sessionPath } from "./api.js";
import { $, byId, state } from "./dom.js";

// Every event type of the session log (charlotte.events.EventTypes.ALL). An
// EventSource hands `event:`-named messages only to listeners of that name.
export const EVENT_TYPES = Object.freeze([
  "session.opened",
  "turn.queued",
  "turn.started",
  "run.started",
  "text.delta",
  "tool.called",
  "tool.result",
  "page.changed",
  "run.finished",
  "run.failed",
  "turn.finished",
  "turn.stopped",
  "proposal.opened",
  "proposal.approved",
  "proposal.rejected",
  "proposal.conflicted",
  "page.published",
  "human.edited",
  "usage.observed",
]);

const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 15000;
// A stream that ends and comes straight back (a WSGI host replays and hangs
// up every few seconds) is not worth a banner; one away longer than this is.
const BANNER_GRACE_MS = 2500;

const link = {
  source: null,
  sessionId: null,
  onEvent: null,
  onReconnect: null,
  onLost: null,
  delay: FIRST_DELAY_MS,
  retryTimer: 0,
  bannerTimer: 0,
  lost: false,
};

/**
 * Follow session `id`'s events after `state.lastSeq`: `onEvent(type, event)`
 * for each new one, `onLost()` when the stream drops, `onReconnect()` when it
 * is back after a drop (what was missed meanwhile is replayed first).
 */
export function follow(id, { onEvent, onLost, onReconnect }) {
  unfollow();
  Object.assign(link, { sessionId: id, onEvent, onLost, onReconnect, delay: FIRST_DELAY_MS, lost: false });
  open();
}

export function unfollow() {
  if (link.source) link.source.close();
  clearTimeout(link.retryTimer);
  clearTimeout(link.bannerTimer);
  Object.assign(link, { source: null, sessionId: null, lost: false });
  showBanner(false);
}

/** Try again now instead of at the end of the pause ("Reconnect now"). */
export function reconnectNow() {
  if (link.sessionId === null || link.source) return;
  clearTimeout(link.retryTimer);
  open();
}

function open() {
  const id = link.sessionId;
  if (id === null) return;
  // Resume after the last event shown: the server replays what came since.
  const after = state.lastSeq > 0 ? `?after=${state.lastSeq}` : "";
  const source = new EventSource(endpoint(sessionPath(id, `/stream${after}`)));
  link.source = source;
  for (const type of EVENT_TYPES) source.addEventListener(type, onMessage);
  source.addEventListener("open", () => {
    if (source !== link.source) return;
    link.delay = FIRST_DELAY_MS;
    clearTimeout(link.bannerTimer);
    showBanner(false);
    if (link.lost && link.onReconnect) link.onReconnect();
    link.lost = false;
  });
  source.addEventListener("error", () => {
    if (source !== link.source) return;
    // The browser's own retry has a fixed pause and none at all for a
    // refused stream: close it and come back after a pause that grows.
    source.close();
    link.source = null;
    lose();
    if (link.onLost) link.onLost();
  });
}

// The browser knows before the stream does: an open stream can stay silent
// for a long time after the network went. Offline: the stream is closed and
// lost now (the banner after its grace); online again: it is tried at once.
window.addEventListener("offline", () => {
  if (link.sessionId === null || !link.source) return;
  link.source.close();
  link.source = null;
  lose();
  if (link.onLost) link.onLost();
});
window.addEventListener("online", () => reconnectNow());

function lose() {
  const id = link.sessionId;
  if (!link.lost) {
    link.lost = true;
    clearTimeout(link.bannerTimer);
    link.bannerTimer = setTimeout(() => {
      if (link.lost && link.sessionId === id) showBanner(true);
    }, BANNER_GRACE_MS);
  } else {
    showBanner(true);
  }
  const delay = link.delay;
  link.delay = Math.min(delay * 2, MAX_DELAY_MS);
  clearTimeout(link.retryTimer);
  link.retryTimer = setTimeout(() => {
    if (link.sessionId === id) open();
  }, delay);
}

function showBanner(show) {
  const banner = byId("stream-banner");
  if (!banner) return;
  if (show) {
    const seconds = Math.round(link.delay / 1000);
    $('[data-role="stream-text"]', banner).textContent =
      `Disconnected from the server. Reconnecting (next try within ${seconds} s)…`;
  }
  banner.hidden = !show;
  document.body.classList.toggle("is-disconnected", show);
}

function onMessage(message) {
  let event;
  try {
    event = JSON.parse(message.data);
  } catch {
    return;
  }
  if (!event || typeof event !== "object") return;
  const seq = Number.isInteger(event.seq) ? event.seq : Number.parseInt(message.lastEventId, 10);
  // Replays after a reconnect may repeat what was already shown.
  if (Number.isInteger(seq)) {
    if (seq <= state.lastSeq) return;
    state.lastSeq = seq;
  }
  try {
    link.onEvent(typeof event.type === "string" ? event.type : message.type, event);
  } catch (error) {
    console.error(error);
  }
}
