// Implements: the persona panel's field errors: a problem said under the field it concerns (and the
// field marked invalid), cleared before each save, and the first one brought into view. The answer
// check of each tool is not about saving, so clearing leaves it alone.
import { inPageWords, type RefusalTarget, type ToolField } from "./persona-rules.ts";
import type { ToolRow } from "./persona-tool-row.ts";

/** The id of the error line under each persona field the box can refuse. */
export const FIELD_ERROR_IDS: Record<Extract<RefusalTarget, { kind: "field" }>["field"], string> = {
  system_prompt: "persona-prompt-error",
  model: "persona-model-error",
  live_model: "persona-live-model-error",
  reasoning: "persona-reasoning-error",
  emotion_responsive: "persona-emotion-error",
  system_tools: "persona-system-tools-error",
};

/** Says `message` in `el` (empty: clears it) and marks `control` invalid while there is one. */
export function fieldError(control: HTMLElement | null, el: HTMLElement, message: string): void {
  el.textContent = inPageWords(message);
  el.hidden = !message;
  if (control) {
    if (message) control.setAttribute("aria-invalid", "true");
    else control.removeAttribute("aria-invalid");
  }
}

/** A problem with one field of a tool row (`row`: the row as a whole). */
export function toolError(r: ToolRow | undefined, field: ToolField, message: string): void {
  if (!r) return;
  const control: Record<ToolField, HTMLElement | null> = {
    name: r.name,
    description: r.description,
    parameters: r.parameters,
    mode: r.mode,
    timeout: r.timeout,
    row: null,
  };
  fieldError(control[field], r.errors[field], message);
}

export function clearErrors(form: HTMLFormElement): void {
  for (const el of form.querySelectorAll<HTMLElement>(".field-error")) {
    if (el.closest(".answer")) continue; // the answer's own check is not about saving
    el.textContent = "";
    el.hidden = true;
  }
  for (const el of form.querySelectorAll("[aria-invalid]")) if (!el.closest(".answer")) el.removeAttribute("aria-invalid");
}

/** Opens the panel and focuses the first marked field (or shows the first error said). */
export function focusFirstError(details: HTMLDetailsElement, form: HTMLFormElement): void {
  details.open = true;
  const outside = (sel: string) => [...form.querySelectorAll<HTMLElement>(sel)].find((el) => !el.closest(".answer"));
  const first = outside("[aria-invalid=true]") ?? outside(".field-error:not([hidden])");
  if (!first) return;
  if (first.matches("input, select, textarea")) first.focus();
  else first.scrollIntoView({ block: "center" });
}
