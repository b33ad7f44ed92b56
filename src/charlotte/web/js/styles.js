// The inspector's style fields: colour, background, font, size, spacing,
// radius and alignment of the selected node at one breakpoint (the device
// toggle's), each showing the value it inherits from a smaller breakpoint.

import { contrastWarning, nodeContrast } from "./contrast.js";
import { el } from "./dom.js";
import { BREAKPOINTS, BREAKPOINT_NAME, breakpoint, draftDoc, nodeOf } from "./editor.js";
import { commitField, field, onEdit } from "./fields.js";

const UNITS = ["px", "rem", "%", "vw", "vh"];
const FONTS = [
  "system-ui, sans-serif",
  "Georgia, serif",
  "'Helvetica Neue', Arial, sans-serif",
  "'Times New Roman', serif",
  "ui-monospace, monospace",
];
const MAX_NUMBER = 100000;
const STYLES = [
  ["color", "Text colour", "colour"],
  ["background", "Background", "colour"],
  ["fontFamily", "Font family", "font"],
  ["fontSize", "Font size", "length"],
  ["padding", "Padding", "length"],
  ["gap", "Gap", "length"],
  ["radius", "Corner radius", "length"],
  ["textAlign", "Text alignment", "align"],
];

function styleAt(node, bp, key) {
  const style = node && node.style && typeof node.style === "object" ? node.style : {};
  const at = style[bp] && typeof style[bp] === "object" ? style[bp] : {};
  return at[key];
}

/** The value a key has at `bp` by itself, else the one it inherits (and from which breakpoint). */
export function resolved(node, bp, key) {
  const own = styleAt(node, bp, key);
  if (own !== undefined) return { own, inherited: undefined, from: null };
  for (const smaller of BREAKPOINTS.slice(0, BREAKPOINTS.indexOf(bp)).reverse()) {
    const value = styleAt(node, smaller, key);
    if (value !== undefined) return { own: undefined, inherited: value, from: smaller };
  }
  return { own: undefined, inherited: undefined, from: null };
}

const lengthText = (value) =>
  value && typeof value === "object" && typeof value.value === "number" ? `${value.value}${value.unit}` : String(value ?? "");

const HEX = /^#([0-9a-f]{6}|[0-9a-f]{3})$/i;
function hexOf(text) {
  if (typeof text !== "string" || !HEX.test(text)) return null;
  return text.length === 4 ? `#${[...text.slice(1)].map((c) => c + c).join("")}` : text.toLowerCase();
}

function textControl(kind) {
  const input = el("input", "inspector-input");
  input.type = "text";
  input.maxLength = 200;
  input.spellcheck = false;
  if (kind === "font") input.setAttribute("list", "editor-fonts");
  return input;
}

function lengthControls() {
  const number = el("input", "inspector-input inspector-number");
  number.type = "number";
  number.step = "any";
  number.min = String(-MAX_NUMBER);
  number.max = String(MAX_NUMBER);
  const unit = el("select", "inspector-input inspector-unit");
  for (const name of UNITS) unit.append(new Option(name, name));
  return { number, unit };
}

function readLength(number, unit) {
  if (number.value.trim() === "") return { value: undefined };
  const value = Number(number.value);
  if (!Number.isFinite(value) || Math.abs(value) > MAX_NUMBER) return { error: `A number up to ${MAX_NUMBER}.` };
  return { value: { value: Math.round(value * 10000) / 10000, unit: unit.value } };
}

// The contrast of the node's text on its background, said as a colour is typed or picked
// (js/contrast.js; the same WCAG 2.2 measure as the publish check): nothing when fine or unknown.
function contrastLine(node, bp) {
  const line = el("p", "inspector-contrast");
  line.id = `inspector-contrast-${Math.random().toString(36).slice(2, 9)}`;
  line.setAttribute("role", "status");
  line.hidden = true;
  const typed = {};
  const update = (key, value) => {
    if (key) typed[key] = value;
    const measured = nodeContrast(draftDoc(), node.id, bp, typed);
    const words = contrastWarning(measured);
    line.textContent = words;
    line.hidden = !words;
    line.dataset.verdict = measured.verdict;
  };
  // A refresh shows the draft: what was typed is in it now (or was not sent).
  const refresh = () => {
    for (const key of Object.keys(typed)) delete typed[key];
    update();
  };
  return { line, update, refresh };
}

function styleField(node, key, label, kind, bp, contrast = null) {
  let control;
  let extra = [];
  let read;
  let show;
  const hint = el("span", "inspector-hint");
  if (kind === "length") {
    const { number, unit } = lengthControls();
    unit.setAttribute("aria-label", `${label} unit`);
    control = number;
    extra = [unit];
    read = () => readLength(number, unit);
    show = (own, inherited) => {
      number.value = own && typeof own.value === "number" ? String(own.value) : "";
      number.placeholder = inherited ? String(inherited.value ?? "") : "";
      const shownUnit = (own || inherited || {}).unit;
      if (UNITS.includes(shownUnit)) unit.value = shownUnit;
    };
  } else if (kind === "align") {
    control = el("select", "inspector-input");
    control.append(new Option("Not set", ""), ...["left", "center", "right", "justify"].map((v) => new Option(v, v)));
    read = () => ({ value: control.value || undefined });
    show = (own) => (control.value = typeof own === "string" ? own : "");
  } else {
    control = textControl(kind);
    read = () => ({ value: control.value.trim() || undefined });
    show = (own, inherited) => {
      control.value = typeof own === "string" ? own : "";
      control.placeholder = typeof inherited === "string" ? inherited : "";
    };
    if (kind === "colour") {
      const picker = el("input", "inspector-swatch");
      picker.type = "color";
      picker.setAttribute("aria-label", `${label} picker`);
      picker.addEventListener("input", () => {
        control.value = picker.value;
        control.dispatchEvent(new Event("input"));
      });
      picker.addEventListener("change", () => control.dispatchEvent(new Event("change")));
      extra = [picker];
      const showText = show;
      show = (own, inherited) => {
        showText(own, inherited);
        const hex = hexOf(own) || hexOf(inherited);
        picker.value = hex || "#000000";
        picker.dataset.unset = String(!hex); // no colour of its own to show
      };
    }
  }
  control.dataset.style = key;
  const { wrap, say } = field(label, control, [...extra, hint]);
  if (contrast && (key === "color" || key === "background")) {
    control.setAttribute("aria-describedby", `${control.getAttribute("aria-describedby")} ${contrast.line.id}`);
    control.addEventListener("input", () => contrast.update(key, control.value.trim() || undefined));
  }
  wrap.dataset.style = key;
  const display = () => {
    const { own, inherited, from } = resolved(nodeOf(node.id), bp, key);
    show(own, inherited);
    const inherits = own === undefined && inherited !== undefined;
    wrap.dataset.inherited = String(inherits);
    hint.textContent = inherits ? `Inherited from ${BREAKPOINT_NAME[from]}: ${lengthText(inherited)}` : "";
    hint.hidden = !inherits;
  };
  const send = () => {
    const value = read();
    if (value.error) return say(value.error, "bounds");
    // No style value can be removed (no nulls in a patch): an empty field changes nothing.
    if (value.value === undefined) return say("");
    const same = () => JSON.stringify(value.value) === JSON.stringify(resolved(nodeOf(node.id), bp, key).own);
    commitField(() => (same() ? [] : [{ t: "set_style", id: node.id, breakpoint: bp, patch: { [key]: value.value } }]), say);
  };
  const busyMain = onEdit(control, send);
  const busyExtra = extra.filter((c) => c.tagName === "SELECT").map((c) => onEdit(c, send));
  display();
  return { wrap, refresh: () => busyMain() || busyExtra.some((busy) => busy()) || display() };
}

/** The style fieldset of `node` at the current breakpoint, and its fields' refreshers. */
export function styleFields(node) {
  const bp = breakpoint();
  const group = el("fieldset", "inspector-group");
  const legend = el("legend", "inspector-legend", "Style · ");
  const which = el("span", "inspector-breakpoint", BREAKPOINT_NAME[bp]);
  which.dataset.breakpoint = bp;
  legend.append(which);
  group.append(legend);
  const list = el("datalist");
  list.id = "editor-fonts";
  for (const font of FONTS) list.append(new Option(font, font));
  group.append(list);
  const contrast = contrastLine(node, bp);
  const fields = STYLES.map(([key, label, kind]) => styleField(node, key, label, kind, bp, contrast));
  for (const built of fields) {
    group.append(built.wrap);
    if (built.wrap.dataset.style === "background") group.append(contrast.line);
  }
  contrast.refresh();
  const refreshContrast = () => {
    // Not while a colour is being typed: the line says what is typed.
    const active = group.ownerDocument.activeElement;
    if (!(active && group.contains(active) && active.matches("[data-style], .inspector-swatch"))) contrast.refresh();
  };
  return { group, fields: [...fields, { refresh: refreshContrast }] };
}
