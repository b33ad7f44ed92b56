// The quality gate's findings in words, pure (no DOM; `node --test`:
// tests/unit/web/js/findings.test.mjs): what the publish dialog lists from
// `publish-preview`'s `findings` (and from a `quality_gate` refusal), errors
// first, each naming its node as the change list names nodes and saying what
// fixes it; the override the person confirms and the request carries.

import { describeInDocs, listOf, nameFrom } from "./words.js";

/** What fixes each finding, by code (docs/checks.md says the same). */
export const FIXES = Object.freeze({
  low_contrast: "Choose a text colour that stands out more from its background (aim for 4.5:1, or 3:1 for large text).",
  contrast_unknown: "Use a plain colour (hex, rgb() or a colour name) for the text and its background so the contrast can be checked.",
  image_no_alt: "Describe the image in its description field, or mark it decorative.",
  no_h1: "Make the page's main heading a level 1 heading.",
  many_h1: "Keep one level 1 heading; make the others level 2.",
  heading_skip: "Use the next heading level down (a 2 under a 1, a 3 under a 2).",
  link_no_name: "Give the link words that say where it goes.",
  button_no_name: "Give the button a label that says what it does.",
  placeholder: "Replace the placeholder: choose the image or write the real text.",
  missing_lang: "Set the page's language in Page settings.",
  missing_title: "Give the page a title in Page settings.",
  missing_description: "Give the page a description in Page settings.",
  broken_anchor: "Point the link at a section that is on the page, or give that section the id.",
});

/** The Publish button of a dialog whose page has error findings. */
export const PUBLISH_ANYWAY = "Publish anyway…";
/** At most this many codes in an override (the server's bound). */
export const MAX_OVERRIDE = 20;

const SEVERITIES = ["error", "warning"];
const CODE = /^[a-z][a-z0-9_]{0,63}$/;

/** The well-formed findings of an answer's `findings` (anything else dropped), errors first. */
export function readFindings(value) {
  const found = listOf(value).filter(
    (f) =>
      f &&
      typeof f === "object" &&
      typeof f.code === "string" &&
      CODE.test(f.code) &&
      SEVERITIES.includes(f.severity) &&
      (f.node === null || f.node === undefined || typeof f.node === "string"),
  );
  // Stable: the server's order within each severity.
  return [...found.filter((f) => f.severity === "error"), ...found.filter((f) => f.severity === "warning")];
}

/** Whether an answer carries findings at all (today's server's do not). */
export const hasFindings = (answer) => Boolean(answer) && Array.isArray(answer.findings);

/** Whether a finding is about the page as a whole: no node, or the page's settings (`#meta`). */
export const isPageWide = (finding) => typeof finding.node !== "string" || finding.node === "" || finding.node.startsWith("#");

/** "Heading “Rosa's Bakery”" for a finding's node (from `docs`), "The page" for none, "The page settings" for `#meta`. */
export function findingPlace(finding, docs) {
  if (finding.node === "#meta") return "The page settings";
  if (isPageWide(finding)) return "The page";
  return nameFrom(finding.node, describeInDocs(finding.node, docs) || { type: "", words: "" });
}

/** `{severity, code, place, message, fix}` of one finding, in words. */
export function findingWords(finding, docs) {
  const message = typeof finding.message === "string" && finding.message.trim() ? finding.message.trim() : "";
  return {
    severity: finding.severity,
    code: finding.code,
    node: typeof finding.node === "string" ? finding.node : null,
    place: findingPlace(finding, docs),
    message,
    fix: FIXES[finding.code] || "",
  };
}

/** The distinct codes of the error findings, in order: what an override names. */
export function errorCodes(findings) {
  return [...new Set(findings.filter((f) => f.severity === "error").map((f) => f.code))].slice(0, MAX_OVERRIDE);
}

/** A code in words: `low_contrast` → "low contrast". */
export const codeWords = (code) => code.replaceAll("_", " ");

/** The dialog's line above the list: how many errors and warnings. */
export function findingsSummary(findings) {
  const errors = findings.filter((f) => f.severity === "error").length;
  const warnings = findings.length - errors;
  const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (errors) return `The check found ${count(errors, "problem")} that should be fixed before publishing${warnings ? ` and ${count(warnings, "warning")}` : ""}.`;
  if (warnings) return `The check found ${count(warnings, "warning")}; the page can still be published.`;
  return "";
}

/** The confirmation asked before publishing over error findings, naming their codes. */
export function overrideQuestion(codes) {
  const named = codes.map(codeWords).join(", ");
  return `Publish with these problems unfixed: ${named}? The page goes live as it is, and the log records that you published over them.`;
}
