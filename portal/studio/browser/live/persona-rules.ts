// The persona panel's rules, without the DOM: what the page can check before it sends
// (Custom tool definition, the tool Limits rows, the system prompt's length) in the box's own
// words, which fields changed (`POST /api/settings` takes any subset; `tools` is written whole),
// and which field a refusal concerns. The box stays the judge: these only spare a round trip.
import type { CatalogueRow, CustomToolInput, SettingsPatch, SettingsRecord } from "../../../../shared/client/index.ts";
import {
  BUILT_IN_TOOLS,
  RESERVED_TOOL_NAMES,
  SETTINGS_LIMITS,
  SYSTEM_TOOLS,
  TOOL_MODES,
  TOOL_NAME_PATTERN as TOOL_NAME_RULE,
} from "../../../../shared/wire/settings-vocabulary.ts";

/** The box's own limits: the page checks against the very constants its validator reads. */
export const PERSONA_LIMITS = SETTINGS_LIMITS;
export { SYSTEM_TOOLS, BUILT_IN_TOOLS, RESERVED_TOOL_NAMES, TOOL_MODES };
const TOOL_NAME_PATTERN = new RegExp(TOOL_NAME_RULE);

/** One tool as the editor holds it: text, as typed. */
export interface ToolDraft {
  name: string;
  description: string;
  /** JSON text; empty means "no parameters". */
  parameters: string;
  mode: string;
  /** Empty means the default (8 s). */
  timeout: string;
  enabled: boolean;
}

export type ToolField = "name" | "description" | "parameters" | "mode" | "timeout" | "row";
export interface ToolProblem {
  /** The tool's place in the list; -1 for the list as a whole. */
  index: number;
  field: ToolField;
  message: string;
}

/** Characters as the box counts them: code points. */
export function charCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function utf8Bytes(s: string): number {
  return new TextEncoder().encode(s).length;
}

const LONE_SURROGATE = /\p{Cs}/u;
const TEXT_CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** The box's textProblem for multi-line text. */
function textProblem(s: string, max: number): string | null {
  if (LONE_SURROGATE.test(s)) return "contains a broken Unicode character (a lone surrogate)";
  if (TEXT_CONTROLS.test(s)) return "contains a control character";
  if (charCount(s) > max) return `is longer than ${max} characters`;
  return null;
}

export function promptProblem(text: string): string | null {
  const p = textProblem(text, PERSONA_LIMITS.systemPromptChars);
  return p ? `system_prompt ${p}.` : null;
}

export function toolNameProblem(name: string): string | null {
  const L = PERSONA_LIMITS;
  if (name.length < L.toolNameMin || name.length > L.toolNameMax) return `must be ${L.toolNameMin} to ${L.toolNameMax} characters long`;
  if (!TOOL_NAME_PATTERN.test(name)) return "must start with a lowercase letter and use only lowercase letters, digits and underscores";
  return null;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** One draft: the tool to send, or its problems (in the order the box checks them). */
export function checkDraft(d: ToolDraft, i: number): { tool: CustomToolInput | null; problems: ToolProblem[] } {
  const L = PERSONA_LIMITS;
  const problems: ToolProblem[] = [];
  const add = (field: ToolField, message: string) => problems.push({ index: i, field, message });
  const name = d.name.trim();
  let where = `tools[${i}]`;
  const nameProblem = toolNameProblem(name);
  if (nameProblem) add("name", `${where}: the tool name ${nameProblem}.`);
  else {
    where = `tools[${i}] (${name})`;
    if (RESERVED_TOOL_NAMES.includes(name)) add("name", `${where}: the name ${name} is reserved for a built-in or system tool.`);
  }
  if (d.description.trim() === "") add("description", `${where}: a description is required.`);
  else {
    const p = textProblem(d.description, L.toolDescriptionChars);
    if (p) add("description", `${where}: the description ${p}.`);
  }
  if (!(TOOL_MODES as readonly string[]).includes(d.mode))
    add("mode", `${where}: mode is required and must be await_result or fire_and_forget.`);
  let timeout: number | undefined;
  if (d.timeout.trim() !== "") {
    const t = Number(d.timeout);
    if (!Number.isInteger(t) || t < L.timeoutMin || t > L.timeoutMax)
      add("timeout", `${where}: timeout_seconds must be a whole number from ${L.timeoutMin} to ${L.timeoutMax}.`);
    else timeout = t;
  }
  let parameters: Record<string, unknown> | undefined;
  if (d.parameters.trim() !== "") {
    let value: unknown;
    try {
      value = JSON.parse(d.parameters);
    } catch (err) {
      add("parameters", `${where}: parameters are not valid JSON (${(err as Error).message}).`);
      value = undefined;
    }
    if (value !== undefined) {
      if (!isPlainObject(value) || value.type !== "object") add("parameters", `${where}: parameters must be a JSON schema of type object.`);
      else {
        const bytes = utf8Bytes(JSON.stringify(value));
        if (bytes > L.toolParametersBytes)
          add("parameters", `${where}: parameters are ${bytes} bytes of JSON; at most ${L.toolParametersBytes} are allowed.`);
        else parameters = value;
      }
    }
  }
  if (problems.length) return { tool: null, problems };
  const tool: CustomToolInput = { name, description: d.description, mode: d.mode as CustomToolInput["mode"], enabled: d.enabled };
  if (parameters) tool.parameters = parameters as CustomToolInput["parameters"];
  if (timeout !== undefined) tool.timeout_seconds = timeout;
  return { tool, problems };
}

/** The whole list: the tools to send (null when anything is wrong) and every problem found. */
export function checkDrafts(drafts: ToolDraft[]): { tools: CustomToolInput[] | null; problems: ToolProblem[] } {
  const problems: ToolProblem[] = [];
  if (drafts.length > PERSONA_LIMITS.toolsMax) {
    problems.push({
      index: -1,
      field: "row",
      message: `tools holds ${drafts.length} definitions; at most ${PERSONA_LIMITS.toolsMax} are allowed.`,
    });
  }
  const tools: CustomToolInput[] = [];
  drafts.forEach((d, i) => {
    const r = checkDraft(d, i);
    problems.push(...r.problems);
    if (r.tool) tools.push(r.tool);
  });
  const seen = new Set<string>();
  drafts.forEach((d, i) => {
    const name = d.name.trim();
    if (toolNameProblem(name)) return;
    if (seen.has(name))
      problems.push({
        index: i,
        field: "name",
        message: `tools[${i}] (${name}): the name ${name} is used twice; tool names must be unique.`,
      });
    seen.add(name);
  });
  return { tools: problems.length ? null : tools, problems };
}

/** JSON with keys sorted, so two equal values always read the same. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  if (isPlainObject(v)) {
    return `{${Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(v[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v ?? null);
}

/** A tool with the box's defaults filled in, for comparing. */
function withDefaults(t: CustomToolInput): unknown {
  return {
    name: t.name,
    description: t.description,
    parameters: t.parameters ?? { type: "object", properties: {} },
    mode: t.mode,
    timeout_seconds: t.timeout_seconds ?? PERSONA_LIMITS.timeoutDefault,
    enabled: t.enabled ?? true,
  };
}

/** What the panel edits. `reasoning` "" means automatic. */
export interface PersonaValues {
  system_prompt: string;
  model: string;
  live_model: string;
  reasoning: string;
  emotion_responsive: boolean;
  system_tools: string[];
  tools: CustomToolInput[];
}

const REASONING_LEVELS = ["off", "low", "medium", "high"];
/** The record's `reasoning` as the panel shows it: a level, else automatic (""). */
export const reasoningValue = (r: unknown): string => (typeof r === "string" && REASONING_LEVELS.includes(r) ? r : "");
/** `system_tools` omitted means all four on. */
export const systemToolsOf = (s: Pick<SettingsRecord, "system_tools">): string[] =>
  SYSTEM_TOOLS.filter((n) => (s.system_tools ?? SYSTEM_TOOLS).includes(n));

/** Only the fields that differ from the record as read; `tools` whole when any tool changed. */
export function settingsPatch(loaded: SettingsRecord, v: PersonaValues): SettingsPatch {
  const patch: SettingsPatch = {};
  if (v.system_prompt !== loaded.system_prompt) patch.system_prompt = v.system_prompt;
  if (v.model !== loaded.model) patch.model = v.model;
  if (v.live_model !== loaded.live_model) patch.live_model = v.live_model;
  if (v.reasoning !== reasoningValue(loaded.reasoning)) patch.reasoning = (v.reasoning || null) as SettingsPatch["reasoning"];
  if (v.emotion_responsive !== loaded.emotion_responsive) patch.emotion_responsive = v.emotion_responsive;
  const on = SYSTEM_TOOLS.filter((n) => v.system_tools.includes(n));
  if (on.join() !== systemToolsOf(loaded).join()) patch.system_tools = on;
  if (stableJson(v.tools.map(withDefaults)) !== stableJson(loaded.tools.map(withDefaults))) patch.tools = v.tools;
  return patch;
}

export type RefusalTarget =
  | { kind: "tool"; index: number; field: ToolField }
  | { kind: "tools" }
  | { kind: "field"; field: "system_prompt" | "model" | "live_model" | "reasoning" | "emotion_responsive" | "system_tools" };

/** Which field a `setting_refused` / `invalid_body` message concerns, read from how the box starts it. */
/**
 * A message as this page says it: the box (and the page's own checks, in the box's words) count
 * tools from 0 as `tools[i]`; the page shows them as "Tool 1", "Tool 2"….
 */
export function inPageWords(message: string): string {
  return message.replace(/\btools\[(\d+)\]/g, (_, i: string) => `Tool ${Number(i) + 1}`);
}

export function refusalTarget(message: string): RefusalTarget | null {
  const tool = /^tools\[(\d+)\](?: \([^)]*\))?(.*)$/s.exec(message);
  if (tool) {
    const rest = tool[2];
    const field: ToolField = /^: (the tool name|the name )/.test(rest)
      ? "name"
      : /^: (a description|the description)/.test(rest)
        ? "description"
        : /^: parameters/.test(rest)
          ? "parameters"
          : /^: timeout_seconds/.test(rest)
            ? "timeout"
            : /^: mode/.test(rest)
              ? "mode"
              : "row";
    return { kind: "tool", index: Number(tool[1]), field };
  }
  if (/^tools\b/.test(message)) return { kind: "tools" };
  const field = /^(system_prompt|live_model|model|provider|reasoning|emotion_responsive|system_tools)\b/.exec(message)?.[1];
  if (!field) return null;
  return {
    kind: "field",
    field: field === "provider" ? "model" : (field as Exclude<RefusalTarget, { kind: "tool" } | { kind: "tools" }>["field"]),
  };
}

// ---- the catalogue in words ------------------------------------------------------------------

const RESIDENCY: Record<string, string> = {
  au: "runs in Australia",
  apac: "runs in the Asia-Pacific region, outside Australia",
  global: "may run anywhere in the world",
};
const REASONING_KIND: Record<string, string> = {
  adaptive: "takes a reasoning level",
  always: "always reasons (off runs the least it allows)",
  budget: "takes a level as a thinking budget",
  none: "does not reason (the level is ignored)",
};

export const residencyWords = (r: string) => RESIDENCY[r] ?? `residency ${r}`;
export const reasoningWords = (kind: string) => REASONING_KIND[kind] ?? `reasoning: ${kind}`;

const WHERE: Record<string, string> = { au: "Australia", apac: "Asia-Pacific", global: "worldwide" };

/** One `<option>`'s text, short enough for a phone: the name, where it runs, and why it cannot be chosen. */
export function modelOptionText(m: CatalogueRow): string {
  const base = `${m.label} (${WHERE[m.residency] ?? m.residency})`;
  return m.selectable ? base : `${base}, not selectable: data would leave Australia`;
}

/** The sentences under a model picker about the chosen row. */
export function modelFacts(m: CatalogueRow | undefined, id: string): string {
  if (!id) return "No model is chosen.";
  if (!m) return `“${id}” is not in this box's catalogue now; choose another model.`;
  const tiers = m.tiers.length ? `Suggested for ${m.tiers.map((t) => (t === "quality" ? "quality" : "speed")).join(" and ")}.` : "";
  const selectable = m.selectable ? "" : " This deployment will not send data to it without an explicit opt-in, so it cannot be chosen.";
  return `${m.id}: ${residencyWords(m.residency)} (${m.residency}); ${reasoningWords(m.reasoning)}, default level ${m.default_reasoning}. ${tiers}${selectable}`.trim();
}
