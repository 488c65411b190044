// Implements: the answers the page gives when the model calls a custom tool: each row's answer
// (JSON text, checked as it is typed) registered with the page's tool handlers, and the texts
// remembered in this browser by tool name so a reload offers them again.
import { fieldError } from "./persona-field-errors.ts";
import { toolNameProblem } from "./persona-rules.ts";
import type { ToolRow } from "./persona-tool-row.ts";
import type { PageTools } from "./tools.ts";

const ANSWERS_KEY = "studio.toolAnswers";

/** The answer texts remembered in this browser, by tool name. */
export function storedAnswers(): Record<string, string> {
  try {
    const v = JSON.parse(localStorage.getItem(ANSWERS_KEY) ?? "{}");
    return typeof v === "object" && v !== null ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** Registers (or drops) each tool's answer with the page's handlers, and remembers the texts. */
export function syncAnswers(rows: ToolRow[], tools: PageTools): void {
  const answers = new Map<string, unknown>();
  const keep = storedAnswers();
  for (const r of rows) {
    const name = r.name.value.trim();
    let value: unknown;
    let problem = "";
    try {
      value = JSON.parse(r.answer.value);
    } catch (err) {
      problem = `The answer is not valid JSON (${(err as Error).message}); until it is, a call to this tool is answered “not done”.`;
    }
    fieldError(r.answer, r.answerError, problem);
    if (!name || toolNameProblem(name)) continue;
    keep[name] = r.answer.value;
    if (!problem) answers.set(name, value);
  }
  try {
    localStorage.setItem(ANSWERS_KEY, JSON.stringify(keep));
  } catch {}
  tools.setAnswers(answers);
}
