// Text contrast as WCAG 2.2 measures it, pure (no DOM; `node --test`:
// tests/unit/web/js/contrast.test.mjs, and equal to a Python reference in
// tests/unit/web/test_contrast_js.py). A colour is read as the page's styles
// write it (the renderer emits `color`/`background` verbatim): hex, rgb()/rgba(),
// a CSS named colour or `transparent`. Anything else (a var(), a gradient, an
// image, a shorthand with more than a colour) cannot be measured: "unknown".

// The CSS named colours, as name:rrggbb.
const NAMED = new Map(
  (
    "aliceblue:f0f8ff antiquewhite:faebd7 aqua:00ffff aquamarine:7fffd4 azure:f0ffff beige:f5f5dc " +
    "bisque:ffe4c4 black:000000 blanchedalmond:ffebcd blue:0000ff blueviolet:8a2be2 brown:a52a2a " +
    "burlywood:deb887 cadetblue:5f9ea0 chartreuse:7fff00 chocolate:d2691e coral:ff7f50 " +
    "cornflowerblue:6495ed cornsilk:fff8dc crimson:dc143c cyan:00ffff darkblue:00008b darkcyan:008b8b " +
    "darkgoldenrod:b8860b darkgray:a9a9a9 darkgreen:006400 darkgrey:a9a9a9 darkkhaki:bdb76b " +
    "darkmagenta:8b008b darkolivegreen:556b2f darkorange:ff8c00 darkorchid:9932cc darkred:8b0000 " +
    "darksalmon:e9967a darkseagreen:8fbc8f darkslateblue:483d8b darkslategray:2f4f4f " +
    "darkslategrey:2f4f4f darkturquoise:00ced1 darkviolet:9400d3 deeppink:ff1493 deepskyblue:00bfff " +
    "dimgray:696969 dimgrey:696969 dodgerblue:1e90ff firebrick:b22222 floralwhite:fffaf0 " +
    "forestgreen:228b22 fuchsia:ff00ff gainsboro:dcdcdc ghostwhite:f8f8ff gold:ffd700 " +
    "goldenrod:daa520 gray:808080 green:008000 greenyellow:adff2f grey:808080 honeydew:f0fff0 " +
    "hotpink:ff69b4 indianred:cd5c5c indigo:4b0082 ivory:fffff0 khaki:f0e68c lavender:e6e6fa " +
    "lavenderblush:fff0f5 lawngreen:7cfc00 lemonchiffon:fffacd lightblue:add8e6 lightcoral:f08080 " +
    "lightcyan:e0ffff lightgoldenrodyellow:fafad2 lightgray:d3d3d3 lightgreen:90ee90 lightgrey:d3d3d3 " +
    "lightpink:ffb6c1 lightsalmon:ffa07a lightseagreen:20b2aa lightskyblue:87cefa " +
    "lightslategray:778899 lightslategrey:778899 lightsteelblue:b0c4de lightyellow:ffffe0 lime:00ff00 " +
    "limegreen:32cd32 linen:faf0e6 magenta:ff00ff maroon:800000 mediumaquamarine:66cdaa " +
    "mediumblue:0000cd mediumorchid:ba55d3 mediumpurple:9370db mediumseagreen:3cb371 " +
    "mediumslateblue:7b68ee mediumspringgreen:00fa9a mediumturquoise:48d1cc mediumvioletred:c71585 " +
    "midnightblue:191970 mintcream:f5fffa mistyrose:ffe4e1 moccasin:ffe4b5 navajowhite:ffdead " +
    "navy:000080 oldlace:fdf5e6 olive:808000 olivedrab:6b8e23 orange:ffa500 orangered:ff4500 " +
    "orchid:da70d6 palegoldenrod:eee8aa palegreen:98fb98 paleturquoise:afeeee palevioletred:db7093 " +
    "papayawhip:ffefd5 peachpuff:ffdab9 peru:cd853f pink:ffc0cb plum:dda0dd powderblue:b0e0e6 " +
    "purple:800080 rebeccapurple:663399 red:ff0000 rosybrown:bc8f8f royalblue:4169e1 " +
    "saddlebrown:8b4513 salmon:fa8072 sandybrown:f4a460 seagreen:2e8b57 seashell:fff5ee " +
    "sienna:a0522d silver:c0c0c0 skyblue:87ceeb slateblue:6a5acd slategray:708090 slategrey:708090 " +
    "snow:fffafa springgreen:00ff7f steelblue:4682b4 tan:d2b48c teal:008080 thistle:d8bfd8 " +
    "tomato:ff6347 turquoise:40e0d0 violet:ee82ee wheat:f5deb3 white:ffffff whitesmoke:f5f5f5 " +
    "yellow:ffff00 yellowgreen:9acd32"
  )
    .split(" ")
    .map((pair) => pair.split(":")),
);

/** The text's usual minimum contrast, and the one for large text (WCAG 2.2 AA, 1.4.3). */
export const NORMAL_MINIMUM = 4.5;
export const LARGE_MINIMUM = 3;
/** Large text: at least 24 px, or at least 18.66 px (14 pt) when bold. */
export const LARGE_PX = 24;
export const LARGE_BOLD_PX = 18.66;
/** What a page shows under everything (the standalone page's body sets no background). */
export const PAGE_BACKGROUND = Object.freeze({ r: 255, g: 255, b: 255, a: 1 });

const HEX = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const NUMBER = "[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:e[+-]?\\d+)?";
const PART = `(${NUMBER})(%?)`;
const COMMAS = new RegExp(`^rgba?\\(\\s*${PART}\\s*,\\s*${PART}\\s*,\\s*${PART}\\s*(?:,\\s*${PART}\\s*)?\\)$`, "i");
const SPACES = new RegExp(`^rgba?\\(\\s*${PART}\\s+${PART}\\s+${PART}\\s*(?:/\\s*${PART}\\s*)?\\)$`, "i");

const clamp = (value, high) => Math.min(high, Math.max(0, value));

function fromHex(digits) {
  const full = digits.length <= 4 ? [...digits].map((c) => c + c).join("") : digits;
  const byte = (i) => parseInt(full.slice(i, i + 2), 16);
  return { r: byte(0), g: byte(2), b: byte(4), a: full.length === 8 ? byte(6) / 255 : 1 };
}

function fromRgb(match) {
  const parts = [1, 3, 5].map((i) => (match[i + 1] ? clamp((Number(match[i]) * 255) / 100, 255) : clamp(Number(match[i]), 255)));
  // CSS wants the three channels all numbers or all percentages.
  if (new Set([match[2], match[4], match[6]]).size !== 1) return null;
  let a = 1;
  if (match[7] !== undefined) a = clamp(match[8] ? Number(match[7]) / 100 : Number(match[7]), 1);
  if (![...parts, a].every(Number.isFinite)) return null;
  return { r: parts[0], g: parts[1], b: parts[2], a };
}

/** `{r, g, b, a}` (channels 0–255, alpha 0–1) of a colour as a style writes it, else null. */
export function parseColour(text) {
  if (typeof text !== "string") return null;
  const value = text.trim().toLowerCase();
  if (HEX.test(value)) return fromHex(value.slice(1));
  if (value === "transparent") return { r: 0, g: 0, b: 0, a: 0 };
  if (NAMED.has(value)) return fromHex(NAMED.get(value));
  const match = COMMAS.exec(value) || SPACES.exec(value);
  return match ? fromRgb(match) : null;
}

/** `top` drawn over `bottom` (an opaque colour): the colour the eye sees. */
export function composite(top, bottom) {
  const mix = (key) => top[key] * top.a + bottom[key] * (1 - top.a);
  return { r: mix("r"), g: mix("g"), b: mix("b"), a: 1 };
}

const linear = (channel) => {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** WCAG 2.2 relative luminance of an opaque colour. */
export function luminance({ r, g, b }) {
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG 2.2 contrast ratio of two opaque colours, from 1 to 21. */
export function contrastRatio(one, two) {
  const [light, dark] = [luminance(one), luminance(two)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The background a text sits on: `layers` are the background values from the
 * text's own outwards (undefined where a node sets none). Translucent ones are
 * drawn over what lies under them, down to the page's white; null when one
 * on the way down cannot be read.
 */
export function effectiveBackground(layers) {
  const seen = [];
  for (const layer of layers) {
    if (layer === undefined || layer === null || layer === "") continue;
    const colour = parseColour(layer);
    if (!colour) return null;
    seen.push(colour);
    if (colour.a >= 1) break;
  }
  return seen.reduceRight((under, colour) => composite(colour, under), PAGE_BACKGROUND);
}

/** Whether text of this size and weight counts as large. */
export function isLarge({ fontSizePx, bold } = {}) {
  const size = Number.isFinite(fontSizePx) ? fontSizePx : 16;
  return size >= LARGE_PX || (Boolean(bold) && size >= LARGE_BOLD_PX);
}

const isColour = (value) =>
  Boolean(value) && typeof value === "object" && ["r", "g", "b", "a"].every((key) => Number.isFinite(value[key]));
const colourOf = (value) => (typeof value === "string" ? parseColour(value) : isColour(value) ? value : null);

/**
 * `{verdict, ratio, minimum}` of text colour `fg` on background `bg` (strings
 * as the styles write them, or parsed colours): "ok", "low" (under the
 * minimum), "very_low" (under 3:1) or "unknown" (ratio null).
 */
export function measure(fg, bg, text = {}) {
  const minimum = isLarge(text) ? LARGE_MINIMUM : NORMAL_MINIMUM;
  const back = colourOf(bg);
  const front = colourOf(fg);
  if (!front || !back) return { verdict: "unknown", ratio: null, minimum };
  const ratio = contrastRatio(composite(front, composite(back, PAGE_BACKGROUND)), composite(back, PAGE_BACKGROUND));
  const verdict = ratio < LARGE_MINIMUM ? "very_low" : ratio < minimum ? "low" : "ok";
  return { verdict, ratio, minimum };
}

/** "ok" | "low" | "very_low" | "unknown" for text colour `fg` on `bg`. */
export function verdict(fg, bg, text = {}) {
  return measure(fg, bg, text).verdict;
}

/**
 * A ratio in words, to one decimal ("1.9:1"); where rounding would carry a
 * failing ratio up to a bound (4.47 → "4.5:1") it is cut to two ("4.47:1").
 */
export function ratioText(ratio) {
  const rounded = Math.round(ratio * 10) / 10;
  const crosses = [LARGE_MINIMUM, NORMAL_MINIMUM].some((bound) => ratio < bound && rounded >= bound);
  return crosses ? `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1` : `${rounded.toFixed(1)}:1`;
}

/** The inspector's warning for a measured contrast ("" when fine or unknown). */
export function contrastWarning(measured) {
  if (!measured || measured.ratio === null || measured.verdict === "ok" || measured.verdict === "unknown") return "";
  const aim = `aim for ${measured.minimum}:1`;
  const said = measured.verdict === "very_low" ? "hard to read" : "low";
  return `Contrast ${ratioText(measured.ratio)} — ${said}; ${aim}`;
}

// What a node's text looks like in the page, from the document alone.
const BREAKPOINT_ORDER = ["base", "md", "lg"];
const HEADING_PX = { 1: 32, 2: 24, 3: 18.72, 4: 16, 5: 13.28, 6: 10.72 };
const BASE_PX = 16;
// The base stylesheet's callout boxes (page/render.py BASE_CSS): the text sits on these.
const CALLOUT_BACKGROUND = { info: "#eff6ff", success: "#f0fdf4", warning: "#fffbeb", danger: "#fef2f2" };
const MAX_DEPTH = 200;

const own = (value) => (value && typeof value === "object" ? value : {});

/** The value `key` has on `node` at `bp`: its own there, else the nearest smaller breakpoint's. */
export function styleValue(node, bp, key) {
  const style = own(own(node).style);
  const upTo = BREAKPOINT_ORDER.indexOf(bp);
  for (const at of BREAKPOINT_ORDER.slice(0, upTo < 0 ? 1 : upTo + 1).reverse()) {
    const entry = own(style[at]);
    if (Object.hasOwn(entry, key)) return entry[key];
  }
  return undefined;
}

function ancestry(doc, id) {
  const nodes = own(own(doc).nodes);
  const chain = [];
  let at = Object.hasOwn(nodes, id) ? nodes[id] : null;
  while (at && typeof at === "object" && chain.length < MAX_DEPTH && !chain.includes(at)) {
    chain.push(at);
    const parent = at.parent;
    at = typeof parent === "string" && Object.hasOwn(nodes, parent) ? nodes[parent] : null;
  }
  return chain;
}

function sizePx(value) {
  if (!value || typeof value !== "object" || typeof value.value !== "number") return undefined;
  if (value.unit === "px") return value.value;
  if (value.unit === "rem") return value.value * BASE_PX;
  return undefined;
}

/**
 * The contrast of node `id`'s text at breakpoint `bp` in `doc`, as `measure`
 * answers it: its colour (its own or inherited, black by default) on the
 * nearest backgrounds under it (the page's white at the bottom). `chosen`
 * holds a `color` or `background` being typed for the node itself.
 */
export function nodeContrast(doc, id, bp, chosen = {}) {
  const chain = ancestry(doc, id);
  if (!chain.length) return { verdict: "unknown", ratio: null, minimum: NORMAL_MINIMUM };
  const pick = (node, key) => (node === chain[0] && chosen[key] !== undefined ? chosen[key] : styleValue(node, bp, key));
  const colour = chain.map((node) => pick(node, "color")).find((value) => value !== undefined) ?? "#000000";
  const layers = [];
  for (const node of chain) {
    // A callout's text sits inside its box, over the node's own background.
    if (node === chain[0] && node.type === "callout") {
      const variant = own(node.props).variant;
      layers.push(CALLOUT_BACKGROUND[variant] || CALLOUT_BACKGROUND.info);
    }
    layers.push(pick(node, "background"));
  }
  const first = chain[0];
  const level = Math.min(6, Math.max(1, Math.trunc(Number(own(first.props).level) || 2)));
  const heading = first.type === "heading";
  const size = chain.map((node) => sizePx(styleValue(node, bp, "fontSize"))).find((px) => px !== undefined);
  const weight = styleValue(first, bp, "fontWeight");
  const text = {
    fontSizePx: size ?? (heading ? HEADING_PX[level] : BASE_PX),
    bold: typeof weight === "number" ? weight >= 700 : heading,
  };
  return measure(colour, effectiveBackground(layers), text);
}
