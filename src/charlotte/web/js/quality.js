// The quality gate's findings of the draft where a person edits what they are
// about: the selected node's in the inspector, under its name; the page-wide
// ones (no title, no description, no language…) in the Page settings sheet.
// Read from `GET publish-preview` (its preview's `findings`, the checks
// publishing would run) when a block shows, and again once the draft has
// settled after a change that may change them (below); each finding in js/findings.js's words, as the publish
// dialog lists it.

import { api, sessionPath } from "./api.js";
import { el, state } from "./dom.js";
import { store } from "./draft.js";
import { findingWords, isPageWide, readFindings } from "./findings.js";
import { findingItem } from "./publish.js";

// The draft settles for this long before its findings are read again.
const SETTLE_MS = 400;
const TITLE = "Before it goes live";

let timer = 0;
let request = 0;
// The findings read, and of which session's which revision.
let read = { session: null, revision: null, findings: [] };
// Where findings show: by place ("node", "page"): {box, list, keep(finding), showing()}.
const blocks = new Map();

// The ops after which a shown block reads its findings again: a node's look,
// the page's settings, a node put back. A text typed into a node without
// findings reads nothing, so a hand edit stays one request (the 1,000-node
// guard in tests/e2e/test_builder_store.py); a block that shows findings reads
// after any change of its own, so a fix clears them.
const NODE_OPS = new Set(["set_style", "restore_node"]);
const PAGE_OPS = new Set(["set_meta", "restore_meta"]);

store.subscribe((change) => {
  if (change.copy !== "draft") return;
  if (change.ops === null || [...blocks.values()].some((block) => block.showing() && block.wants(change))) schedule();
});

const hasOp = (change, kinds) => change.ops.some((op) => op && kinds.has(op.t));

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(load, SETTLE_MS);
}

const showing = () => [...blocks.values()].some((block) => block.showing());

async function load() {
  const session = state.sessionId;
  const draft = store.get("draft");
  // Nothing to show them in: no request (a block asks again when it shows).
  if (session === null || draft === null || !showing()) return;
  if (read.session === session && read.revision === draft.revision) return;
  const mine = ++request;
  let answer;
  try {
    answer = await api("GET", sessionPath(session, "/publish-preview"));
  } catch {
    return; // said nowhere: the publish dialog reads them again and says what went wrong
  }
  if (mine !== request || state.sessionId !== session) return;
  const preview = answer && answer.preview && typeof answer.preview === "object" ? answer.preview : {};
  const revision = Number.isInteger(preview.revision) ? preview.revision : null;
  read = { session, revision, findings: readFindings(preview.findings) };
  for (const block of blocks.values()) draw(block);
}

function draw(block) {
  const draft = store.get("draft");
  const docs = draft ? [draft.doc] : [];
  const kept = read.session === state.sessionId ? read.findings.filter(block.keep) : [];
  block.list.replaceChildren(...kept.map((finding) => findingItem(findingWords(finding, docs))));
  block.box.hidden = kept.length === 0;
}

function block(place, keep, showingFn, wantsFn) {
  const box = el("section", "inspector-findings");
  box.dataset.place = place;
  box.setAttribute("aria-label", TITLE);
  box.hidden = true;
  box.append(el("h3", "inspector-findings-title", TITLE));
  const list = el("ul", "inspector-findings-list");
  box.append(list);
  const made = { box, list, keep, showing: () => showingFn(box), wants: (change) => !box.hidden || wantsFn(change) };
  blocks.set(place, made);
  draw(made);
  schedule();
  return { box, refresh: () => draw(made) };
}

/** The block of a node's findings for the inspector (hidden when it has none); read anew as the draft moves. */
export function nodeFindings(nodeId) {
  return block("node", (finding) => finding.node === nodeId, (box) => box.isConnected,
    (change) => change.nodeIds.includes(nodeId) && hasOp(change, NODE_OPS));
}

/** The block of the page-wide findings for the Page settings sheet `sheet` (read while it is open). */
export function pageFindings(sheet) {
  return block("page", isPageWide, () => sheet.open, (change) => hasOp(change, PAGE_OPS));
}

/** Read the findings again if the draft moved since (a block just came into view). */
export const refreshFindings = () => schedule();
