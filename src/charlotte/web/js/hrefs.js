// Which links a page may carry: charlotte.page.hrefs.is_safe_href, for the
// client's renderer (render.js drops an unsafe href as the server's does).
// An href is parsed as a browser parses it (the WHATWG `URL`), and anything a
// browser might read differently from a plain look (whitespace, controls,
// backslashes, `//host`, a scheme hidden behind entity or percent encoding)
// is refused outright. Pure: no DOM.
//
// Decoding follows Python's `html.unescape` and `urllib.parse.unquote`. The
// entity table holds every entity that can matter to the verdict (those whose
// text holds ASCII, a control or a format character) and every legacy one
// (matched without ";" as a prefix); any other entity decodes to text that can
// neither form a scheme nor hide a control, so leaving it encoded gives the
// same verdict. Where the engine cannot give Python's answer the verdict here
// is stricter, never looser: character classes come from the engine's Unicode
// tables, which may be newer than Python's (a format character newer than
// those is refused here), and an http(s) host written with a right-to-left
// letter is refused (Python's parser applies the IDNA bidi rule to it).
// Guard: tests/unit/web/test_render_js.py (against the Python check).

/** Longest href accepted, in code points (`hrefs.MAX_HREF_LENGTH`). */
export const MAX_HREF_LENGTH = 2048;
const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:", "tel:"]);
const DUMMY_BASE = "https://charlotte.invalid/base/";
const DUMMY_HOST = "charlotte.invalid";
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const DECODE_ROUNDS = 4;
const FORBIDDEN = /[\x00-\x20\x7f\\\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}]/u;
const LONE_SURROGATE = /\p{Cs}/u;
const HIDING = /[\p{Cc}\p{Cf}\ufffd]/u;
const CHARREF = /&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)/gu;
const CP1252 = "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f"
  + "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";
// Letters of the right-to-left scripts: a host label holding one must pass the
// IDNA bidi rule, which the Python parser checks and some engines do not.
const RTL = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}\p{Script=Yezidi}\p{Script=Mende_Kikakui}]/u;
const UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });

const ENTITIES = Object.assign(Object.create(null), {
  AElig: "\u00c6", AMP: "&", "AMP;": "&", Aacute: "\u00c1", Acirc: "\u00c2", Agrave: "\u00c0",
  "ApplyFunction;": "\u2061", Aring: "\u00c5", Atilde: "\u00c3", Auml: "\u00c4", COPY: "\u00a9",
  Ccedil: "\u00c7", "DiacriticalGrave;": "`", ETH: "\u00d0", Eacute: "\u00c9", Ecirc: "\u00ca",
  Egrave: "\u00c8", Euml: "\u00cb", GT: ">", "GT;": ">", "Hat;": "^", Iacute: "\u00cd", Icirc: "\u00ce",
  Igrave: "\u00cc", "InvisibleComma;": "\u2063", "InvisibleTimes;": "\u2062", Iuml: "\u00cf", LT: "<",
  "LT;": "<", "NegativeMediumSpace;": "\u200b", "NegativeThickSpace;": "\u200b",
  "NegativeThinSpace;": "\u200b", "NegativeVeryThinSpace;": "\u200b", "NewLine;": "\u000a",
  "NoBreak;": "\u2060", Ntilde: "\u00d1", Oacute: "\u00d3", Ocirc: "\u00d4", Ograve: "\u00d2",
  Oslash: "\u00d8", Otilde: "\u00d5", Ouml: "\u00d6", QUOT: "\"", "QUOT;": "\"", REG: "\u00ae",
  THORN: "\u00de", "Tab;": "\u0009", Uacute: "\u00da", Ucirc: "\u00db", Ugrave: "\u00d9", "UnderBar;": "_",
  Uuml: "\u00dc", "VerticalLine;": "|", Yacute: "\u00dd", "ZeroWidthSpace;": "\u200b", aacute: "\u00e1",
  acirc: "\u00e2", acute: "\u00b4", aelig: "\u00e6", "af;": "\u2061", agrave: "\u00e0", amp: "&", "amp;": "&",
  "apos;": "'", aring: "\u00e5", "ast;": "*", atilde: "\u00e3", auml: "\u00e4", "bne;": "=\u20e5",
  brvbar: "\u00a6", "bsol;": "\\", ccedil: "\u00e7", cedil: "\u00b8", cent: "\u00a2", "colon;": ":",
  "comma;": ",", "commat;": "@", copy: "\u00a9", curren: "\u00a4", deg: "\u00b0", divide: "\u00f7",
  "dollar;": "$", eacute: "\u00e9", ecirc: "\u00ea", egrave: "\u00e8", "equals;": "=", eth: "\u00f0",
  euml: "\u00eb", "excl;": "!", "fjlig;": "fj", frac12: "\u00bd", frac14: "\u00bc", frac34: "\u00be",
  "grave;": "`", gt: ">", "gt;": ">", iacute: "\u00ed", "ic;": "\u2063", icirc: "\u00ee", iexcl: "\u00a1",
  igrave: "\u00ec", iquest: "\u00bf", "it;": "\u2062", iuml: "\u00ef", laquo: "\u00ab", "lbrace;": "{",
  "lbrack;": "[", "lcub;": "{", "lowbar;": "_", "lpar;": "(", "lrm;": "\u200e", "lsqb;": "[", lt: "<",
  "lt;": "<", macr: "\u00af", micro: "\u00b5", "midast;": "*", middot: "\u00b7", nbsp: "\u00a0", not: "\u00ac",
  ntilde: "\u00f1", "num;": "#", "nvgt;": ">\u20d2", "nvlt;": "<\u20d2", oacute: "\u00f3", ocirc: "\u00f4",
  ograve: "\u00f2", ordf: "\u00aa", ordm: "\u00ba", oslash: "\u00f8", otilde: "\u00f5", ouml: "\u00f6",
  para: "\u00b6", "percnt;": "%", "period;": ".", "plus;": "+", plusmn: "\u00b1", pound: "\u00a3",
  "quest;": "?", quot: "\"", "quot;": "\"", raquo: "\u00bb", "rbrace;": "}", "rbrack;": "]", "rcub;": "}",
  reg: "\u00ae", "rlm;": "\u200f", "rpar;": ")", "rsqb;": "]", sect: "\u00a7", "semi;": ";", shy: "\u00ad",
  "shy;": "\u00ad", "sol;": "/", sup1: "\u00b9", sup2: "\u00b2", sup3: "\u00b3", szlig: "\u00df",
  thorn: "\u00fe", times: "\u00d7", uacute: "\u00fa", ucirc: "\u00fb", ugrave: "\u00f9", uml: "\u00a8",
  uuml: "\u00fc", "verbar;": "|", "vert;": "|", yacute: "\u00fd", yen: "\u00a5", yuml: "\u00ff",
  "zwj;": "\u200d", "zwnj;": "\u200c",});

// A numeric reference the way `html.unescape` reads it (its invalid and C1 rules included).
function numeric(num) {
  if (num === 0) return "\ufffd";
  if (num === 0x0d) return "\r";
  if (num >= 0x80 && num <= 0x9f) return CP1252[num - 0x80];
  if ((num >= 0xd800 && num <= 0xdfff) || num > 0x10ffff) return "\ufffd";
  const invalid = (num >= 0x01 && num <= 0x08) || num === 0x0b || (num >= 0x0e && num <= 0x1f)
    || num === 0x7f || (num >= 0xfdd0 && num <= 0xfdef) || (num & 0xfffe) === 0xfffe;
  return invalid ? "" : String.fromCodePoint(num);
}

function charref(match, name) {
  if (name[0] === "#") {
    const hex = name[1] === "x" || name[1] === "X";
    const digits = name.slice(hex ? 2 : 1).replace(/;$/, "");
    return numeric(hex ? parseInt(digits, 16) : Number(digits));
  }
  if (ENTITIES[name] !== undefined) return ENTITIES[name];
  const points = Array.from(name);
  for (let x = points.length - 1; x > 1; x -= 1) {
    const prefix = points.slice(0, x).join("");
    if (ENTITIES[prefix] !== undefined) return ENTITIES[prefix] + points.slice(x).join("");
  }
  return match;
}

/** `html.unescape(text)` as far as an href's verdict depends on it. */
export function unescapeHtml(text) {
  return text.includes("&") ? text.replace(CHARREF, charref) : text;
}

// `urllib.parse.unquote_to_bytes` on one ASCII run, decoded as UTF-8 with replacement.
function unquoteAscii(run) {
  const bytes = [];
  for (let i = 0; i < run.length; i += 1) {
    const pair = run.slice(i + 1, i + 3);
    if (run[i] === "%" && /^[0-9A-Fa-f]{2}$/.test(pair)) {
      bytes.push(parseInt(pair, 16));
      i += 2;
    } else {
      bytes.push(run.charCodeAt(i));
    }
  }
  return UTF8.decode(new Uint8Array(bytes));
}

/** `urllib.parse.unquote(text)`: each ASCII run percent-decoded as UTF-8, others kept. */
export function unquote(text) {
  if (!text.includes("%")) return text;
  return text.replace(/[\x00-\x7f]+/g, unquoteAscii);
}

function ownScheme(text) {
  // A browser strips leading C0 controls and spaces and drops every tab and newline.
  const cleaned = text.replace(/^[\x00-\x20]+/, "").replace(/[\t\n\r]/g, "");
  const match = SCHEME.exec(cleaned);
  return match ? match[0].toLowerCase() : null;
}

function hidesAScheme(href) {
  const plain = ownScheme(href);
  let current = href;
  for (let round = 0; round < DECODE_ROUNDS; round += 1) {
    const decoded = unquote(unescapeHtml(current));
    if (decoded === current) return false;
    current = decoded;
    // An encoded control or NUL has no place in a link and only hides what follows.
    if (HIDING.test(current)) return true;
    const revealed = ownScheme(current);
    if (revealed !== null && revealed !== plain) return true;
  }
  return false;
}

function parse(href) {
  try {
    return new URL(href, DUMMY_BASE);
  } catch {
    return null;
  }
}

/** True when `href` may be emitted as a link: relative, `#`, `?`, http(s), mailto, tel. */
export function isSafeHref(href) {
  if (typeof href !== "string" || !href || Array.from(href).length > MAX_HREF_LENGTH) return false;
  // A lone surrogate cannot be encoded to parse: the Python side refuses it.
  if (FORBIDDEN.test(href) || LONE_SURROGATE.test(href) || href.startsWith("//")) return false;
  if (hidesAScheme(href)) return false;
  const url = parse(href);
  if (url === null || !SAFE_PROTOCOLS.has(url.protocol)) return false;
  const scheme = ownScheme(href);
  // Relative: it must stay on the page's own host (no //host tricks).
  if (scheme === null) return url.host === DUMMY_HOST && url.protocol === "https:";
  if (scheme !== url.protocol) return false;
  if (scheme === "http:" || scheme === "https:") {
    // "https://trusted.example@evil.example/" shows one host and opens another.
    if (url.username || url.password) return false;
    // A host written in a right-to-left script is refused here (the rule the
    // Python side applies to it is not available to a script): stricter, never looser.
    return !RTL.test(href.slice(href.indexOf("//") + 2).split(/[/?#]/)[0]);
  }
  return true;
}
