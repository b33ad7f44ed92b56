// The session's one page store (js/store.js): the draft read with GET /draft
// when the stream's events do not carry it there; the working copy is fed by
// the change set's reads (js/review.js). Every view reads the page from here.

import { api, sessionPath } from "./api.js";
import { state } from "./dom.js";
import { PageStore } from "./store.js";

export const store = new PageStore({
  read: async (copy) => {
    const id = state.sessionId;
    if (copy !== "draft" || id === null) return null;
    const answer = await api("GET", sessionPath(id, "/draft"));
    return state.sessionId === id ? answer : null;
  },
});
