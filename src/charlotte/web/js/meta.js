// The Page settings panel's field logic, pure (no DOM, no network): the
// page's metadata read from a document, each field's bound checked as the
// person types (the same bounds as charlotte.page.seo, which refuses a
// set_meta that breaks one), the count shown beside a bounded field, the one
// set_meta a save sends, and a server refusal put beside its field in words.
// Guards: tests/unit/web/js/meta.test.mjs, tests/unit/web/test_meta_js.py.

import { get, isDict } from "./tree.js";

export const MAX_TITLE = 120;
export const MAX_DESCRIPTION = 300;
export const MAX_LANG = 35;
export const MAX_CANONICAL = 500;
export const MAX_IMAGE_ID = 200;

/** The fields of the panel, in its order; `title` is meta.title, the others entries of meta.seo. */
export const META_FIELDS = Object.freeze(["title", "description", "lang", "canonical", "image"]);
export const SEO_FIELDS = Object.freeze(["description", "lang", "canonical", "image"]);

/** The fields whose length the panel counts as the person types. */
export const COUNTED = Object.freeze({ title: MAX_TITLE, description: MAX_DESCRIPTION });

// charlotte.page.seo's LANG_PATTERN and CANONICAL_PATTERN, written for JavaScript.
const LANG = /^(?:(?:[A-Za-z]{2,8}|[Xx])(?:-[A-Za-z0-9]{1,8})*)?$/;
const SEGMENT = "[^/\\x00-\\x20\\x7f-\\xa0\\\\\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]+";
const CANONICAL = new RegExp(`^(?:/(?:${SEGMENT}(?:/${SEGMENT})*/?)?)?$`, "u");
// What the format refuses in any meta string (integrity's _CTRL), and what else ends a line.
const CONTROL = /[\x00-\x1f\x7f]/;
const LINE_BREAK = /[\x00-\x1f\x7f\x85\u2028\u2029]/;

/** A string's length as Python counts it (code points, not UTF-16 units). */
export function chars(text) {
  let count = 0;
  for (const _ of String(text)) count += 1;
  return count;
}

// charlotte.page.seo's ISO 639-1 languages: a two-letter language must be one of them.
const TWO_LETTER_LANGUAGES = new Set(`
  aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da
  de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz
  ia id ie ig ii ik in io is it iu iw ja ji jv jw ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la
  lb lg li ln lo lt lu lv mg mh mi mk ml mn mo mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj
  om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg sh si sk sl sm sn so sq sr ss st su sv
  sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu
`.split(/\s+/).filter(Boolean));

/** True for a BCP 47 language tag within the bound (`en`, `pt-BR`, `zh-Hant-TW`) naming a language. */
export function isLang(value) {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LANG || !LANG.test(value)) return false;
  const language = value.split("-", 1)[0].toLowerCase();
  return language.length === 3 || TWO_LETTER_LANGUAGES.has(language);
}

/** True for a path on the page's own site (`/menu`, `/en/about?x=1`), never another host. */
export function isSameSitePath(value) {
  return typeof value === "string" && value.length > 0 && chars(value) <= MAX_CANONICAL && CANONICAL.test(value);
}

const text = (value) => (typeof value === "string" ? value : "");

/** The page's metadata from a document: each field a string, "" when not set (never throws). */
export function readMeta(doc) {
  const meta = isDict(get(doc, "meta")) ? doc.meta : {};
  const seo = isDict(get(meta, "seo")) ? meta.seo : {};
  const out = { title: text(get(meta, "title")) };
  for (const key of SEO_FIELDS) out[key] = text(get(seo, key));
  return out;
}

/** What a field holds once read from its control: the text without spaces at either end. */
export function normalize(value) {
  return typeof value === "string" ? value.trim() : "";
}

/** Why `value` cannot be saved in the field `key`, in words; "" when it can. */
export function fieldProblem(key, value) {
  const v = normalize(value);
  switch (key) {
    case "title":
      if (CONTROL.test(v)) return "The title must be one line of text.";
      if (chars(v) > MAX_TITLE) return `The title must be at most ${MAX_TITLE} characters (it has ${chars(v)}).`;
      return "";
    case "description":
      if (LINE_BREAK.test(v)) return "The description must be one line, without line breaks.";
      if (chars(v) > MAX_DESCRIPTION) {
        return `The description must be at most ${MAX_DESCRIPTION} characters (it has ${chars(v)}).`;
      }
      return "";
    case "lang":
      if (v === "" || isLang(v)) return "";
      return "Not a language tag: use a code such as en, en-GB or pt-BR (letters and digits joined by -).";
    case "canonical":
      if (v === "" || isSameSitePath(v)) return "";
      if (!v.startsWith("/") || v.startsWith("//")) {
        return "Use a path on this site that starts with /, such as /about (not a web address, no other site).";
      }
      if (chars(v) > MAX_CANONICAL) return `The path must be at most ${MAX_CANONICAL} characters.`;
      return "Not a path on this site: no //, spaces, backslashes or control characters.";
    case "image":
      if (CONTROL.test(v)) return "An asset id is one line of text.";
      if (chars(v) > MAX_IMAGE_ID) return `An asset id is at most ${MAX_IMAGE_ID} characters.`;
      return "";
    default:
      return "";
  }
}

/** The count shown beside a counted field (`"12/120"`), whether it is over, or null for the others. */
export function counter(key, value) {
  const max = COUNTED[key];
  if (max === undefined) return null;
  const count = chars(normalize(value));
  return { text: `${count}/${max}`, over: count > max, words: `${count} of ${max} characters` };
}

/** The first field (in the panel's order) whose value cannot be saved, with why; null when all can. */
export function firstProblem(values) {
  for (const key of META_FIELDS) {
    const problem = fieldProblem(key, get(values, key));
    if (problem) return { field: key, message: problem };
  }
  return null;
}

/** The fields whose (normalized) value differs from `baseline`, the panel's read of the draft: `{key: value}`. */
export function editedFields(values, baseline) {
  const out = {};
  for (const key of META_FIELDS) {
    const value = normalize(get(values, key));
    if (value !== text(get(baseline, key))) out[key] = value;
  }
  return out;
}

/**
 * The one set_meta that writes `edited` (`{key: value}`) onto `meta`, the draft's
 * meta when the edit is sent: [] when it already holds them. `seo` is replaced
 * whole by a set_meta, so every entry kept (an `og:type` the agent wrote, say)
 * is sent along; an emptied field leaves the map.
 */
export function metaOps(meta, edited) {
  const current = readMeta({ meta });
  const patch = {};
  if (typeof get(edited, "title") === "string" && edited.title !== current.title) patch.title = edited.title;
  const seoKeys = SEO_FIELDS.filter((key) => typeof get(edited, key) === "string" && edited[key] !== current[key]);
  if (seoKeys.length) {
    const seoNow = isDict(get(meta, "seo")) ? meta.seo : {};
    const seo = {};
    for (const [key, value] of Object.entries(seoNow)) {
      if (!seoKeys.includes(key)) Object.defineProperty(seo, key, { value, enumerable: true, writable: true, configurable: true });
    }
    for (const key of seoKeys) if (edited[key] !== "") seo[key] = edited[key];
    patch.seo = seo;
  }
  return Object.keys(patch).length ? [{ t: "set_meta", patch }] : [];
}

// A refusal's field path (`meta.seo.lang`, `meta.title`) → the panel's field.
function fieldOfPath(path) {
  const found = /^meta\.(?:seo\.)?([a-z]+)\b/.exec(typeof path === "string" ? path : "");
  return found && META_FIELDS.includes(found[1]) ? found[1] : null;
}

/**
 * Where and in what words to show the server's refusal of a save of `edited`:
 * `{field, message}` (field null: the panel's note). The body's `field` names
 * it when the server says; else the first edited field the bounds refuse, else
 * the only edited field.
 */
export function refusalOf(error, edited) {
  const code = typeof get(error, "code") === "string" ? error.code : "";
  const body = isDict(get(error, "body")) ? error.body : {};
  const message = typeof get(error, "message") === "string" && error.message ? error.message : "The settings were not saved.";
  const keys = META_FIELDS.filter((key) => typeof get(edited, key) === "string");
  if (code === "authored_asset") {
    return { field: "image", message: "The asset library has no image with this id: pick one of the library's asset ids." };
  }
  if (code !== "invalid_props") return { field: null, message: `Not saved: ${message}` };
  const named = fieldOfPath(get(body, "field"));
  const bounded = keys.find((key) => fieldProblem(key, edited[key]));
  const field = named ?? bounded ?? (keys.length === 1 ? keys[0] : null);
  if (field === null) return { field: null, message: `Not saved: the server refused these settings (${message})` };
  const why = fieldProblem(field, get(edited, field));
  return { field, message: why || `The server refused this value: ${message}` };
}
