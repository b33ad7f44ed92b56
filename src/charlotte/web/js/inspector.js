// The inspector: the selected node's name and type, a field for every prop
// of its type (within the type's bounds), and its style at the breakpoint the
// device toggle shows (js/styles.js); the quality gate's findings of it
// (js/quality.js). Typing is sent after a pause, a change or Enter at once;
// a refusal is said beside its field.

import { $, el } from "./dom.js";
import { model, nodeName, nodeOf, subscribe, typeOf } from "./editor.js";
import { commitField, field, onEdit } from "./fields.js";
import { nodeFindings } from "./quality.js";
import { styleFields } from "./styles.js";

const LONG_TEXT = 300; // longer limits get a text area
const CHOICES = 11; // a whole number with at most this span between its bounds is a select
let fields = []; // what is shown: [{refresh()}]
let shownId = null;

export function wireInspector() {
  subscribe((reason) => {
    if (reason === "draft" && model.selected === shownId) refresh();
    else if (reason !== "draft" || model.selected !== shownId) render();
  });
}

function root() {
  return $('[data-role="inspector"]');
}

function propControl(name, spec) {
  if (Array.isArray(spec.enum)) {
    const select = el("select", "inspector-input");
    if (!spec.required) select.append(new Option(spec.default ? `Default (${spec.default})` : "Not set", ""));
    for (const value of spec.enum) select.append(new Option(value, value));
    return select;
  }
  if (spec.type === "integer" && Number.isInteger(spec.minimum) && Number.isInteger(spec.maximum) &&
      spec.maximum - spec.minimum <= CHOICES) {
    // A few whole numbers (a heading's level 1–6): chosen, not typed.
    const select = el("select", "inspector-input");
    if (!spec.required) select.append(new Option(Number.isInteger(spec.default) ? `Default (${spec.default})` : "Not set", ""));
    for (let value = spec.minimum; value <= spec.maximum; value += 1) select.append(new Option(String(value), String(value)));
    return select;
  }
  if (spec.type === "integer") {
    const input = el("input", "inspector-input");
    input.type = "number";
    input.step = "1";
    if (Number.isInteger(spec.minimum)) input.min = String(spec.minimum);
    if (Number.isInteger(spec.maximum)) input.max = String(spec.maximum);
    return input;
  }
  const long = Number.isInteger(spec.maxLength) && spec.maxLength > LONG_TEXT && name !== "href";
  const input = el(long ? "textarea" : "input", "inspector-input");
  if (long) input.rows = 3;
  else input.type = "text";
  if (Number.isInteger(spec.maxLength)) input.maxLength = spec.maxLength;
  if (name === "href") {
    input.inputMode = "url";
    input.spellcheck = false;
    input.placeholder = "/page, #section, a web address, mailto:, tel:";
  }
  return input;
}

function propValue(spec, control) {
  const text = control.value;
  if (spec.type !== "integer") return { value: text };
  if (text.trim() === "") return { value: undefined };
  const number = Number(text);
  const low = Number.isInteger(spec.minimum) ? spec.minimum : -Infinity;
  const high = Number.isInteger(spec.maximum) ? spec.maximum : Infinity;
  if (!Number.isInteger(number) || number < low || number > high) return { error: `A whole number from ${low} to ${high}.` };
  return { value: number };
}

function propField(node, name, spec) {
  const control = propControl(name, spec);
  control.dataset.prop = name;
  const label = `${name[0].toUpperCase()}${name.slice(1)}${spec.required ? "" : " (optional)"}`;
  const { wrap, say } = field(label, control);
  wrap.dataset.prop = name;
  const current = () => nodeOf(node.id)?.props?.[name];
  const show = () => {
    const value = current();
    control.value = value === undefined || value === null ? "" : String(value);
  };
  const busy = onEdit(control, () => {
    const read = propValue(spec, control);
    if (read.error) return say(read.error, "bounds");
    if (read.value === undefined || (read.value === "" && Array.isArray(spec.enum))) {
      return say(spec.required ? "This cannot be empty." : "");
    }
    if (spec.required && String(read.value).trim() === "") return say("This cannot be empty.", "required");
    // Compared with the draft when its turn comes (an undo before it may still be landing).
    const ops = () => (read.value === current() ? [] : [{ t: "set_node_props", id: node.id, patch: { [name]: read.value } }]);
    commitField(ops, say);
  });
  show();
  return { wrap, refresh: () => busy() || show() };
}

function render() {
  const box = root();
  shownId = model.selected;
  const node = nodeOf(shownId);
  fields = [];
  box.replaceChildren();
  $('[data-role="inspector-empty"]').hidden = node !== null;
  if (!node) return;
  const head = el("div", "inspector-head");
  const name = el("span", "inspector-name", nodeName(node));
  const type = el("span", "inspector-type", node.type);
  head.append(name, type);
  fields.push({ refresh: () => (name.textContent = nodeName(nodeOf(node.id))) });
  box.append(head);
  // What the quality gate says of this node, under its name (hidden when nothing).
  const quality = nodeFindings(node.id);
  box.append(quality.box);
  fields.push(quality);
  const described = typeOf(node);
  const props = described && described.props && typeof described.props === "object" ? described.props : {};
  if (Object.keys(props).length) {
    const group = el("fieldset", "inspector-group");
    group.append(el("legend", "inspector-legend", "Content"));
    for (const [prop, spec] of Object.entries(props)) {
      const built = propField(node, prop, spec);
      group.append(built.wrap);
      fields.push(built);
    }
    box.append(group);
  }
  const style = styleFields(node);
  box.append(style.group);
  fields.push(...style.fields);
}

function refresh() {
  if (!nodeOf(shownId)) return render();
  for (const shown of fields) shown.refresh();
}
