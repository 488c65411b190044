// The persona panel (Box: settings; Settings record; Model catalogue row; Custom tool definition;
// System tools): system prompt, the two models from the catalogue in words, reasoning, emotion
// responsiveness, system tools and the custom tools editor, each tool with the answer this page
// gives when the model calls it. Save sends only what changed (`tools` whole); a refusal is shown
// by the field it concerns and nothing else changes.
import {
  AvatarApiError,
  type AvatarClient,
  type CatalogueRow,
  type CustomTool,
  type SettingsEnvelope,
  type SettingsRecord,
} from "../../../../shared/client/index.ts";
import { byId, h, say } from "../dom.ts";
import { explain } from "../words.ts";
import type { EventLog } from "./panels.ts";
import { setModelWords } from "./model-words.ts";
import {
  checkDrafts,
  inPageWords,
  modelFacts,
  modelOptionText,
  PERSONA_LIMITS,
  promptProblem,
  reasoningValue,
  reasoningWords,
  refusalTarget,
  settingsPatch,
  SYSTEM_TOOLS,
  systemToolsOf,
  toolNameProblem,
  type PersonaValues,
  type ToolDraft,
  type ToolField,
} from "./persona-rules.ts";
import { buildToolRow, DEFAULT_ANSWER, type ToolRow } from "./persona-tool-row.ts";
import type { PageTools } from "./tools.ts";

const ANSWERS_KEY = "studio.toolAnswers";
const OPEN_KEY = "studio.personaOpen";

function storedAnswers(): Record<string, string> {
  try {
    const v = JSON.parse(localStorage.getItem(ANSWERS_KEY) ?? "{}");
    return typeof v === "object" && v !== null ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export class PersonaPanel {
  private envelope: SettingsEnvelope | null = null;
  private loaded: SettingsRecord | null = null;
  private rows: ToolRow[] = [];
  private nextKey = 0;
  private saving = false;
  private readonly details = byId<HTMLDetailsElement>("persona-panel");
  private readonly form = byId<HTMLFormElement>("persona-form");
  private readonly status = byId("persona-status");
  private readonly prompt = byId<HTMLTextAreaElement>("persona-prompt");
  private readonly counter = byId("persona-prompt-count");
  private readonly model = byId<HTMLSelectElement>("persona-model");
  private readonly liveModel = byId<HTMLSelectElement>("persona-live-model");
  private readonly reasoning = byId<HTMLSelectElement>("persona-reasoning");
  private readonly emotion = byId<HTMLInputElement>("persona-emotion");
  private readonly toolList = byId("persona-tools");
  private readonly addBtn = byId<HTMLButtonElement>("add-tool");
  private readonly saveBtn = byId<HTMLButtonElement>("save-persona");
  private readonly result = byId("persona-result");

  constructor(
    private readonly client: AvatarClient,
    private readonly tools: PageTools,
    private readonly log: EventLog,
    private readonly problem: (err: unknown) => void,
  ) {
    this.details.open = localStorage.getItem(OPEN_KEY) === "1";
    this.details.addEventListener("toggle", () => localStorage.setItem(OPEN_KEY, this.details.open ? "1" : "0"));
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.save();
    });
    this.form.addEventListener("input", () => this.edited());
    this.form.addEventListener("change", () => this.edited());
    this.prompt.addEventListener("input", () => this.count());
    this.model.addEventListener("change", () => this.facts());
    this.liveModel.addEventListener("change", () => this.facts());
    this.addBtn.addEventListener("click", () => {
      const row = this.addRow(null);
      this.limitRows();
      row.name.focus();
      this.edited();
    });
    this.enable(false);
  }

  /** Reads the record and the catalogue (on start, and when the box answers again). */
  async load(): Promise<void> {
    try {
      const env = await this.client.getSettings();
      // The box came back while the person was editing: their edits stay, Save sends them.
      if (this.loaded && this.dirty()) {
        say(this.status, "");
        return;
      }
      this.envelope = env;
      this.loaded = env.settings;
      this.render(env);
      this.enable(true);
      say(this.result, "");
      if (env.persisted) say(this.status, "");
      else say(this.status, "This box cannot store settings: what you save lasts until it restarts.", "error");
    } catch (err) {
      const p = explain(err);
      if (p.kind === "signed_out") this.problem(err);
      if (!this.loaded) this.enable(false);
      say(
        this.status,
        p.kind === "box_stopped" ? "The persona appears here when the box answers." : `The persona could not be read: ${p.text}`,
        "error",
      );
    }
  }

  private enable(on: boolean): void {
    for (const el of [
      this.prompt,
      this.model,
      this.liveModel,
      this.reasoning,
      this.emotion,
      this.saveBtn,
      ...this.form.querySelectorAll<HTMLInputElement>("#persona-system-tools input"),
    ])
      el.disabled = !on;
    this.addBtn.disabled = !on || this.rows.length >= PERSONA_LIMITS.toolsMax;
  }

  // ---- rendering ------------------------------------------------------------------------------

  private render(env: SettingsEnvelope): void {
    const s = env.settings;
    this.prompt.value = s.system_prompt;
    this.count();
    this.fillModels(this.model, env.models, s.model);
    this.fillModels(this.liveModel, env.models, s.live_model);
    this.reasoning.replaceChildren(
      h("option", { value: "" }, "Automatic"),
      ...["off", "low", "medium", "high"].map((l) => h("option", { value: l }, l[0].toUpperCase() + l.slice(1))),
    );
    this.reasoning.value = reasoningValue(s.reasoning);
    this.emotion.checked = s.emotion_responsive;
    const on = systemToolsOf(s);
    for (const name of SYSTEM_TOOLS) byId<HTMLInputElement>(`system-tool-${name}`).checked = on.includes(name);
    this.toolList.replaceChildren();
    this.rows = [];
    for (const t of s.tools) this.addRow(t);
    this.limitRows();
    this.facts();
    this.clearErrors();
    this.syncAnswers();
  }

  private fillModels(select: HTMLSelectElement, models: CatalogueRow[], current: string): void {
    const opts: HTMLOptionElement[] = [];
    if (current === "") opts.push(h("option", { value: "" }, models.length ? "None chosen" : "None: this box has no models"));
    else if (!models.some((m) => m.id === current))
      opts.push(h("option", { value: current }, `${current} (not in this box's catalogue now)`));
    for (const m of models) opts.push(h("option", { value: m.id, disabled: !m.selectable && m.id !== current }, modelOptionText(m)));
    select.replaceChildren(...opts);
    select.value = current;
  }

  private facts(): void {
    const models = this.envelope?.models ?? [];
    const row = (id: string) => models.find((m) => m.id === id);
    byId("persona-model-facts").textContent =
      `For a one-shot turn, with no call on. ${modelFacts(row(this.model.value), this.model.value)}`;
    byId("persona-live-model-facts").textContent =
      `For every turn during a call (Chat and the microphone). ${modelFacts(row(this.liveModel.value), this.liveModel.value)}`;
    const live = row(this.liveModel.value);
    byId("persona-reasoning-hint").textContent = live
      ? `Applies to the live model, which ${reasoningWords(live.reasoning)}; automatic uses its default (${live.default_reasoning}). The quality model takes it only if it takes a level the same way.`
      : "Applies to the live model; automatic uses the model's own default.";
    // An empty catalogue: what to run so the box has models, said once under both selects.
    const none = byId("persona-models-none");
    none.hidden = models.length > 0;
    if (models.length) none.replaceChildren();
    else if (!none.hasChildNodes())
      none.append("This box has no models in its catalogue, so there is nothing to pick yet. ", ...setModelWords());
    const hidden = models.filter((m) => !m.selectable);
    byId("persona-models-note").textContent = hidden.length
      ? `${hidden.length} model${hidden.length === 1 ? " is" : "s are"} listed but cannot be chosen: this deployment sends data only to models that run in Australia unless it is set to allow others.`
      : "";
  }

  private count(): void {
    const n = [...this.prompt.value].length;
    const max = PERSONA_LIMITS.systemPromptChars;
    this.counter.textContent = `${n.toLocaleString("en")} of ${max.toLocaleString("en")} characters`;
    this.counter.classList.toggle("over", n > max);
  }

  private limitRows(): void {
    const full = this.rows.length >= PERSONA_LIMITS.toolsMax;
    this.addBtn.disabled = full || !this.loaded;
    byId("persona-tools-empty").hidden = this.rows.length > 0;
    byId("add-tool-hint").textContent = full
      ? `A persona has at most ${PERSONA_LIMITS.toolsMax} custom tools; remove one to add another.`
      : "";
    this.rows.forEach((r, i) => (r.legend.textContent = `Tool ${i + 1}${r.name.value.trim() ? `: ${r.name.value.trim()}` : ""}`));
  }

  private addRow(t: CustomTool | null): ToolRow {
    const row = buildToolRow(this.nextKey++, t, (t && storedAnswers()[t.name]) || DEFAULT_ANSWER);
    const { li, name, answer, remove } = row;
    name.addEventListener("input", () => {
      this.limitRows();
      this.syncAnswers();
    });
    answer.addEventListener("input", () => this.syncAnswers());
    remove.addEventListener("click", () => {
      const at = this.rows.indexOf(row);
      this.rows.splice(at, 1);
      li.remove();
      this.limitRows();
      this.syncAnswers();
      this.edited();
      (this.rows[Math.min(at, this.rows.length - 1)]?.name ?? this.addBtn).focus();
    });
    this.rows.push(row);
    this.toolList.append(li);
    return row;
  }

  // ---- the page's answers ------------------------------------------------------------------------

  /** Registers (or drops) each tool's answer with the page's handlers, and remembers the texts. */
  private syncAnswers(): void {
    const answers = new Map<string, unknown>();
    const keep = storedAnswers();
    for (const r of this.rows) {
      const name = r.name.value.trim();
      let value: unknown;
      let problem = "";
      try {
        value = JSON.parse(r.answer.value);
      } catch (err) {
        problem = `The answer is not valid JSON (${(err as Error).message}); until it is, a call to this tool is answered “not done”.`;
      }
      this.fieldError(r.answer, r.answerError, problem);
      if (!name || toolNameProblem(name)) continue;
      keep[name] = r.answer.value;
      if (!problem) answers.set(name, value);
    }
    try {
      localStorage.setItem(ANSWERS_KEY, JSON.stringify(keep));
    } catch {}
    this.tools.setAnswers(answers);
  }

  // ---- saving ------------------------------------------------------------------------------------

  private drafts(): ToolDraft[] {
    return this.rows.map((r) => ({
      name: r.name.value,
      description: r.description.value,
      parameters: r.parameters.value,
      mode: r.mode.value,
      timeout: r.timeout.value,
      enabled: r.enabled.checked,
    }));
  }

  private values(tools: PersonaValues["tools"]): PersonaValues {
    return {
      system_prompt: this.prompt.value,
      model: this.model.value,
      live_model: this.liveModel.value,
      reasoning: this.reasoning.value,
      emotion_responsive: this.emotion.checked,
      system_tools: SYSTEM_TOOLS.filter((n) => byId<HTMLInputElement>(`system-tool-${n}`).checked),
      tools,
    };
  }

  /** Whether the form differs from the record as read (a tool that does not check out counts). */
  private dirty(): boolean {
    if (!this.loaded) return false;
    const { tools } = checkDrafts(this.drafts());
    return !tools || Object.keys(settingsPatch(this.loaded, this.values(tools))).length > 0;
  }

  private edited(): void {
    if (!this.loaded || this.saving) return;
    say(this.result, this.dirty() ? "Unsaved changes: press Save the persona to keep them." : "");
  }

  private async save(): Promise<void> {
    if (!this.loaded || this.saving) return;
    this.clearErrors();
    const checked = checkDrafts(this.drafts());
    const promptWrong = promptProblem(this.prompt.value);
    if (promptWrong) this.fieldError(this.prompt, byId("persona-prompt-error"), promptWrong);
    for (const p of checked.problems) {
      if (p.index < 0) this.fieldError(null, byId("persona-tools-error"), p.message);
      else this.toolError(p.index, p.field, p.message);
    }
    if (promptWrong || !checked.tools) {
      say(this.result, "Nothing was sent: fix the marked fields first.", "error");
      this.focusFirstError();
      return;
    }
    const patch = settingsPatch(this.loaded, this.values(checked.tools));
    const fields = Object.keys(patch);
    if (fields.length === 0) {
      say(this.result, "Nothing to save: nothing changed.");
      return;
    }
    this.saving = true;
    this.saveBtn.disabled = true;
    say(this.result, "Saving…");
    try {
      const answer = await this.client.saveSettings(patch);
      this.loaded = answer.settings;
      if (this.envelope) this.envelope.settings = answer.settings;
      say(
        this.result,
        answer.saved ? "Saved." : "Saved for this session only: this box cannot store settings, so they are lost when it restarts.",
        "ok",
      );
      this.log.add(`Persona saved (${fields.join(", ")})${answer.saved ? "" : " for this session only"}.`);
    } catch (err) {
      this.refused(err);
    } finally {
      this.saving = false;
      this.saveBtn.disabled = false;
    }
  }

  /** A refusal: the box's own message by the field it concerns, where that can be told. */
  private refused(err: unknown): void {
    if (err instanceof AvatarApiError && err.status === 400) {
      const target = refusalTarget(err.message);
      if (target?.kind === "tool" && this.rows[target.index]) this.toolError(target.index, target.field, err.message);
      else if (target?.kind === "tools") this.fieldError(null, byId("persona-tools-error"), err.message);
      else if (target?.kind === "field") {
        const control: Record<string, HTMLElement | null> = {
          system_prompt: this.prompt,
          model: this.model,
          live_model: this.liveModel,
          reasoning: this.reasoning,
          emotion_responsive: this.emotion,
          system_tools: null,
        };
        const errorId = {
          system_prompt: "persona-prompt-error",
          model: "persona-model-error",
          live_model: "persona-live-model-error",
          reasoning: "persona-reasoning-error",
          emotion_responsive: "persona-emotion-error",
          system_tools: "persona-system-tools-error",
        }[target.field];
        this.fieldError(control[target.field], byId(errorId), err.message);
      }
      const shown = target !== null && !(target.kind === "tool" && !this.rows[target.index]);
      say(
        this.result,
        shown ? "Nothing was saved: the box refused it (see the marked field)." : `Nothing was saved: ${inPageWords(err.message)}`,
        "error",
      );
      this.log.add(`Persona not saved: ${err.message}`, "error");
      if (shown) this.focusFirstError();
      return;
    }
    const p = explain(err);
    if (p.kind === "signed_out") this.problem(err);
    say(this.result, `Nothing was saved: ${p.text}`, "error");
  }

  // ---- field errors ------------------------------------------------------------------------------

  private toolError(index: number, field: ToolField, message: string): void {
    const r = this.rows[index];
    if (!r) return;
    const control: Record<ToolField, HTMLElement | null> = {
      name: r.name,
      description: r.description,
      parameters: r.parameters,
      mode: r.mode,
      timeout: r.timeout,
      row: null,
    };
    this.fieldError(control[field], r.errors[field], message);
  }

  private fieldError(control: HTMLElement | null, el: HTMLElement, message: string): void {
    el.textContent = inPageWords(message);
    el.hidden = !message;
    if (control) {
      if (message) control.setAttribute("aria-invalid", "true");
      else control.removeAttribute("aria-invalid");
    }
  }

  private clearErrors(): void {
    for (const el of this.form.querySelectorAll<HTMLElement>(".field-error")) {
      if (el.closest(".answer")) continue; // the answer's own check is not about saving
      el.textContent = "";
      el.hidden = true;
    }
    for (const el of this.form.querySelectorAll("[aria-invalid]")) if (!el.closest(".answer")) el.removeAttribute("aria-invalid");
  }

  private focusFirstError(): void {
    this.details.open = true;
    const outside = (sel: string) => [...this.form.querySelectorAll<HTMLElement>(sel)].find((el) => !el.closest(".answer"));
    const first = outside("[aria-invalid=true]") ?? outside(".field-error:not([hidden])");
    if (!first) return;
    if (first.matches("input, select, textarea")) first.focus();
    else first.scrollIntoView({ block: "center" });
  }
}
