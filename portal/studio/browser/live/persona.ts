// Implements: the persona panel (Box: settings; Settings record; Model catalogue row; Custom tool
// definition; System tools): system prompt, the two models from the catalogue in words
// (./persona-models.ts), reasoning, emotion responsiveness, system tools and the custom tools editor
// (./persona-tool-row.ts), each tool with the answer this page gives when the model calls it
// (./persona-answers.ts). Save sends only what changed (`tools` whole); a refusal is shown by the
// field it concerns (./persona-field-errors.ts) and nothing else changes.
import {
  AvatarApiError,
  type AvatarClient,
  type CustomTool,
  type SettingsEnvelope,
  type SettingsRecord,
} from "../../../../shared/client/index.ts";
import { byId, h, say } from "../dom.ts";
import { explain } from "../words.ts";
import type { EventLog } from "./panels.ts";
import { storedAnswers, syncAnswers } from "./persona-answers.ts";
import { clearErrors, FIELD_ERROR_IDS, fieldError, focusFirstError, toolError } from "./persona-field-errors.ts";
import { fillModels, showModelFacts } from "./persona-models.ts";
import {
  checkDrafts,
  inPageWords,
  PERSONA_LIMITS,
  promptProblem,
  reasoningValue,
  refusalTarget,
  settingsPatch,
  SYSTEM_TOOLS,
  systemToolsOf,
  type PersonaValues,
  type ToolDraft,
} from "./persona-rules.ts";
import { buildToolRow, DEFAULT_ANSWER, type ToolRow } from "./persona-tool-row.ts";
import type { PageTools } from "./tools.ts";

const OPEN_KEY = "studio.personaOpen";

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
    fillModels(this.model, env.models, s.model);
    fillModels(this.liveModel, env.models, s.live_model);
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
    clearErrors(this.form);
    this.syncAnswers();
  }

  private facts(): void {
    showModelFacts(this.envelope?.models ?? [], this.model.value, this.liveModel.value);
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

  /** Each tool's answer to the page's handlers (./persona-answers.ts). */
  private syncAnswers(): void {
    syncAnswers(this.rows, this.tools);
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
    clearErrors(this.form);
    const checked = checkDrafts(this.drafts());
    const promptWrong = promptProblem(this.prompt.value);
    if (promptWrong) fieldError(this.prompt, byId("persona-prompt-error"), promptWrong);
    for (const p of checked.problems) {
      if (p.index < 0) fieldError(null, byId("persona-tools-error"), p.message);
      else toolError(this.rows[p.index], p.field, p.message);
    }
    if (promptWrong || !checked.tools) {
      say(this.result, "Nothing was sent: fix the marked fields first.", "error");
      focusFirstError(this.details, this.form);
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
      if (target?.kind === "tool" && this.rows[target.index]) toolError(this.rows[target.index], target.field, err.message);
      else if (target?.kind === "tools") fieldError(null, byId("persona-tools-error"), err.message);
      else if (target?.kind === "field") {
        const control: Record<string, HTMLElement | null> = {
          system_prompt: this.prompt,
          model: this.model,
          live_model: this.liveModel,
          reasoning: this.reasoning,
          emotion_responsive: this.emotion,
          system_tools: null,
        };
        fieldError(control[target.field], byId(FIELD_ERROR_IDS[target.field]), err.message);
      }
      const shown = target !== null && !(target.kind === "tool" && !this.rows[target.index]);
      say(
        this.result,
        shown ? "Nothing was saved: the box refused it (see the marked field)." : `Nothing was saved: ${inPageWords(err.message)}`,
        "error",
      );
      this.log.add(`Persona not saved: ${err.message}`, "error");
      if (shown) focusFirstError(this.details, this.form);
      return;
    }
    const p = explain(err);
    if (p.kind === "signed_out") this.problem(err);
    say(this.result, `Nothing was saved: ${p.text}`, "error");
  }
}
