// One custom tool in the persona panel's editor (Custom tool definition): name, description,
// parameters as JSON text, mode, timeout, enabled, and the answer this page gives when the model
// calls it; every field labelled, each with a place for the problem found with it.
import type { CustomTool } from "../../../../shared/client/index.ts";
import { h } from "../dom.ts";
import type { ToolField } from "./persona-rules.ts";

export const DEFAULT_ANSWER = '{"ok": true}';
const FIELDS: ToolField[] = ["name", "description", "parameters", "mode", "timeout", "row"];

export interface ToolRow {
  key: number;
  li: HTMLLIElement;
  legend: HTMLElement;
  name: HTMLInputElement;
  description: HTMLTextAreaElement;
  parameters: HTMLTextAreaElement;
  mode: HTMLSelectElement;
  timeout: HTMLInputElement;
  enabled: HTMLInputElement;
  answer: HTMLTextAreaElement;
  answerError: HTMLElement;
  errors: Record<ToolField, HTMLElement>;
  remove: HTMLButtonElement;
}

/** The row of one tool (`t` null: a new, empty one); ids are unique by `key`. */
export function buildToolRow(key: number, t: CustomTool | null, answerText: string): ToolRow {
  const id = (f: string) => `tool-${key}-${f}`;
  const err = (f: string) => h("p", { id: id(`${f}-error`), class: "field-error", hidden: true });
  const errors = Object.fromEntries(FIELDS.map((f) => [f, err(f)])) as unknown as Record<ToolField, HTMLElement>;
  const name = h("input", {
    id: id("name"),
    type: "text",
    autocomplete: "off",
    spellcheck: "false",
    maxlength: 64,
    "aria-describedby": `${id("name-hint")} ${id("name-error")}`,
  });
  const description = h("textarea", { id: id("description"), rows: 2, "aria-describedby": id("description-error") });
  const parameters = h("textarea", {
    id: id("parameters"),
    rows: 7,
    class: "mono",
    spellcheck: "false",
    "aria-describedby": `${id("parameters-hint")} ${id("parameters-error")}`,
  });
  const mode = h(
    "select",
    { id: id("mode"), "aria-describedby": `${id("mode-hint")} ${id("mode-error")}` },
    h("option", { value: "await_result" }, "Wait for the answer"),
    h("option", { value: "fire_and_forget" }, "Send and go on"),
  );
  const timeout = h("input", {
    id: id("timeout"),
    type: "number",
    min: 1,
    max: 10,
    step: 1,
    inputmode: "numeric",
    placeholder: "8",
    "aria-describedby": `${id("mode-hint")} ${id("timeout-error")}`,
  });
  const enabled = h("input", { id: id("enabled"), type: "checkbox" });
  const answer = h("textarea", {
    id: id("answer"),
    rows: 3,
    class: "mono",
    spellcheck: "false",
    "aria-describedby": `${id("answer-hint")} ${id("answer-error")}`,
  });
  const answerError = h("p", { id: id("answer-error"), class: "field-error", hidden: true });
  const legend = h("legend", { id: id("legend") }, "Tool");
  const remove = h("button", { type: "button", class: "quiet danger-outline", "aria-describedby": id("legend") }, "Remove this tool");
  const li = h(
    "li",
    { class: "tool-row", "data-key": key },
    h(
      "fieldset",
      {},
      legend,
      h(
        "div",
        { class: "field" },
        h("label", { for: id("name") }, "Name"),
        name,
        h("p", { id: id("name-hint"), class: "hint" }, "2 to 64 lowercase letters, digits and underscores, starting with a letter."),
        errors.name,
      ),
      h("div", { class: "field" }, h("label", { for: id("description") }, "Description"), description, errors.description),
      h(
        "div",
        { class: "field" },
        h("label", { for: id("parameters") }, "Parameters"),
        parameters,
        h(
          "p",
          { id: id("parameters-hint"), class: "hint" },
          'A JSON schema of type object, e.g. {"type":"object","properties":{"order_id":{"type":"string"}}}. Empty: no parameters.',
        ),
        errors.parameters,
      ),
      h(
        "div",
        { class: "tool-options" },
        h("div", { class: "field" }, h("label", { for: id("mode") }, "Mode"), mode, errors.mode),
        h("div", { class: "field" }, h("label", { for: id("timeout") }, "Timeout (seconds)"), timeout, errors.timeout),
      ),
      h(
        "p",
        { id: id("mode-hint"), class: "hint mode-hint" },
        "Waiting (await_result) holds the reply until this page answers or the timeout passes (8 s when empty); sending (fire_and_forget) goes on at once.",
      ),
      h(
        "div",
        { class: "check" },
        enabled,
        h("label", { for: id("enabled") }, "Offered to the model (off keeps it here, hidden from the persona)"),
      ),
      h(
        "div",
        { class: "field answer" },
        h("label", { for: id("answer") }, "Answer this page gives (JSON)"),
        answer,
        h(
          "p",
          { id: id("answer-hint"), class: "hint" },
          "Sent as the result when the model calls this tool during a call on this page. A handler registered from the console wins over it.",
        ),
        answerError,
      ),
      errors.row,
      h("div", { class: "actions" }, remove),
    ),
  );
  const row: ToolRow = { key, li, legend, name, description, parameters, mode, timeout, enabled, answer, answerError, errors, remove };
  name.value = t?.name ?? "";
  description.value = t?.description ?? "";
  parameters.value = t ? JSON.stringify(t.parameters, null, 2) : "";
  mode.value = t?.mode ?? "await_result";
  timeout.value = t ? String(t.timeout_seconds) : "";
  enabled.checked = t?.enabled ?? true;
  answer.value = answerText;
  return row;
}
