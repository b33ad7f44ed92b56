// What every inspector field shares: a label around its control, an error
// line beside it, and when its value is sent (after a pause in typing, on a
// change, on Enter).

import { el } from "./dom.js";
import { EditRefused, notice, submit } from "./edits.js";

const TYPING_DELAY_MS = 600;

/** A labelled field: the label wraps the control; the error line sits beside it. */
export function field(label, control, extra = []) {
  const wrap = el("div", "inspector-field");
  const text = el("span", "inspector-label", label);
  const holder = el("label", "inspector-control");
  holder.append(text, control);
  const error = el("span", "inspector-error");
  error.setAttribute("aria-live", "polite");
  error.hidden = true;
  const errorId = `inspector-error-${Math.random().toString(36).slice(2, 9)}`;
  error.id = errorId;
  control.setAttribute("aria-describedby", errorId);
  wrap.append(holder, ...extra, error);
  const say = (message, code = "") => {
    error.textContent = message || "";
    error.dataset.code = code;
    error.hidden = !message;
    control.setAttribute("aria-invalid", String(Boolean(message)));
  };
  return { wrap, say };
}

/** Send the ops of one field (or a function building them): `false` when refused (said beside it). */
export async function commitField(ops, say) {
  try {
    await submit(ops);
    say("");
    return true;
  } catch (error) {
    // Not about the value (the page changed under it): the notice line says so, the field may be gone.
    if (error instanceof EditRefused) {
      say("");
      notice(error.message, "bad");
      return false;
    }
    say(error.message || "Not saved.", typeof error.code === "string" ? error.code : "");
    return false;
  }
}

/** Wire typing (a pause), change and Enter to `send`, keeping a typed value while a refresh lands. */
export function onEdit(control, send) {
  let timer = 0;
  const flush = () => {
    clearTimeout(timer);
    timer = 0;
    send();
  };
  control.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(flush, TYPING_DELAY_MS);
  });
  control.addEventListener("change", flush);
  control.addEventListener("keydown", (event) => {
    // Enter sends (in a text area Ctrl/Cmd+Enter: there Enter is a new line).
    if (event.key === "Enter" && (control.tagName !== "TEXTAREA" || event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      flush();
    }
  });
  return () => timer !== 0 || control.ownerDocument.activeElement === control;
}
