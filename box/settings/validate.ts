// Implements: Box: settings (`POST /api/settings` body rules), Settings record, Errors
// (`invalid_body`, `setting_refused`), service-spec.md. Pure: returns the whole record after the
// write or throws ApiError; nothing is applied from a refused body.
import type { CatalogueRow } from "../../shared/wire/catalogue.ts";
import {
  EFFORT_LEVELS,
  REASONING_LEVELS,
  SETTABLE_FIELDS,
  SETTINGS_LIMITS as L,
  VOICE_SLOT_FIELDS,
  type EffortLevel,
  type ReasoningLevel,
  type SettingsRecord,
} from "../../shared/wire/settings.ts";
import { checkSystemTools, checkToolPhrases } from "./validate-phrases.ts";
import { checkTools } from "./validate-tools.ts";
import {
  exceedsDepth,
  invalidBody,
  isPlainObject,
  quote,
  readBoolean,
  readInteger,
  readNullableNumber,
  readNullableString,
  readString,
  refused,
} from "./validate-values.ts";

export { exceedsDepth } from "./validate-values.ts";

export interface SettingsContext {
  /** The served `models` list (buildCatalogue's output). */
  catalogue: readonly CatalogueRow[];
  /** Ids of the voice engines `tts_provider` may name. */
  ttsProviders: readonly string[];
}

const SETTABLE: ReadonlySet<string> = new Set(SETTABLE_FIELDS);

/** `reasoning`: a level, else automatic (null). A non-level value is not refused (spec). */
export function normaliseReasoning(v: unknown): ReasoningLevel | null {
  return typeof v === "string" && (REASONING_LEVELS as readonly string[]).includes(v) ? (v as ReasoningLevel) : null;
}

type Reader = (field: string, v: unknown) => unknown;

const READERS: Record<string, Reader> = {
  provider: (f, v) => readString(f, v, { max: L.providerChars }),
  model: (f, v) => readString(f, v, { max: L.modelIdChars }),
  live_model: (f, v) => readString(f, v, { max: L.modelIdChars }),
  system_prompt: (f, v) => readString(f, v, { max: L.systemPromptChars, multiline: true }),
  max_tokens: (f, v) => readInteger(f, v, L.maxTokensMin, L.maxTokensMax),
  top_p: (f, v) => readNullableNumber(f, v, 0, L.topPMax),
  temperature: (f, v) => readNullableNumber(f, v, 0, L.temperatureMax),
  effort: (f, v) => readString(f, v, { max: 32 }),
  reasoning: (_f, v) => normaliseReasoning(v),
  tts_provider: (f, v) => readString(f, v, { max: L.providerChars }),
  avatar: (f, v) => readString(f, v, { max: L.avatarChars }),
  emotion_responsive: readBoolean,
  // An empty voice slot and a null one both mean "no voice chosen"; stored as null.
  ...Object.fromEntries(VOICE_SLOT_FIELDS.map((f): [string, Reader] => [f, (n, v) => readNullableString(n, v, L.voiceIdChars) || null])),
};

interface ModelUse {
  field: "model" | "live_model";
  id: string;
  row: CatalogueRow | undefined;
}

function checkModelChoice(field: string, id: string, catalogue: readonly CatalogueRow[]): CatalogueRow {
  const row = catalogue.find((r) => r.id === id);
  if (!row) {
    throw refused(`${field} refused: the model ${quote(id)} does not exist on this box; choose an id from models.`);
  }
  if (!row.selectable) {
    throw refused(
      `${field} refused: the model ${quote(id)} is not selectable; this deployment will not send data to it (residency ${row.residency}) without an explicit opt-in.`,
    );
  }
  return row;
}

/** Every model a capability setting applies to; refused when no model is chosen at all. */
function modelsFor(field: string, uses: ModelUse[]): ModelUse[] {
  if (uses.length === 0) throw refused(`${field} cannot be set while no model or live_model is chosen.`);
  return uses;
}

function checkSampling(field: "top_p" | "temperature", uses: ModelUse[]): void {
  for (const u of modelsFor(field, uses)) {
    if (!u.row?.supports_sampling) {
      throw refused(`${field} cannot be set: the ${u.field} ${quote(u.id)} does not accept sampling settings; send ${field}: null.`);
    }
  }
}

function checkEffort(effort: string, uses: ModelUse[]): EffortLevel {
  if (!(EFFORT_LEVELS as readonly string[]).includes(effort)) {
    throw refused(`effort refused: ${quote(effort)} is not one of ${EFFORT_LEVELS.join(", ")}.`);
  }
  for (const u of modelsFor("effort", uses)) {
    if (!u.row?.supports_effort) throw refused(`effort refused: the ${u.field} ${quote(u.id)} does not accept an effort level.`);
    if (effort === "max" && !u.row.effort_max) throw refused(`effort refused: the ${u.field} ${quote(u.id)} does not accept max effort.`);
  }
  return effort as EffortLevel;
}

/**
 * Applies a `POST /api/settings` body to `current` and returns the whole new record.
 * Order: the body's shape and every scalar type/range (`invalid_body`), then `tools`,
 * `tool_phrases`, `system_tools` and the deployment/capability rules (`setting_refused`).
 * A value equal to the current one is never refused on catalogue or capability grounds, so a
 * record read with GET can always be written back unchanged.
 */
export function applySettingsPatch(current: SettingsRecord, body: unknown, ctx: SettingsContext): SettingsRecord {
  if (!isPlainObject(body)) throw invalidBody("The settings body must be a JSON object.");
  if (exceedsDepth(body, L.maxDepth)) throw invalidBody(`The settings body nests deeper than ${L.maxDepth} levels.`);
  const sent = Object.keys(body).filter((k) => body[k] !== undefined);
  const unknown = sent.find((k) => !SETTABLE.has(k));
  if (unknown !== undefined) throw invalidBody(`${quote(unknown)} is not a settings field.`);

  const patch: Record<string, unknown> = {};
  for (const f of sent) {
    const read = READERS[f];
    if (read) patch[f] = read(f, body[f]);
  }
  if (sent.includes("tools")) patch.tools = checkTools(body.tools);
  if (sent.includes("tool_phrases")) patch.tool_phrases = checkToolPhrases(body.tool_phrases);
  if (sent.includes("system_tools")) patch.system_tools = checkSystemTools(body.system_tools);

  const changed = (f: keyof SettingsRecord) => f in patch && patch[f] !== current[f];
  const next = { ...structuredClone(current), ...patch } as SettingsRecord;

  const rows: Partial<Record<"model" | "live_model", CatalogueRow>> = {};
  for (const f of ["model", "live_model"] as const) {
    if (changed(f)) rows[f] = checkModelChoice(f, next[f], ctx.catalogue);
  }
  const uses: ModelUse[] = (["model", "live_model"] as const)
    .filter((f) => next[f] !== "")
    .map((f) => ({ field: f, id: next[f], row: rows[f] ?? ctx.catalogue.find((r) => r.id === next[f]) }));
  const modelRow = uses.find((u) => u.field === "model")?.row;

  // `provider` follows the quality model; a changed value must agree with it.
  if (changed("provider")) {
    if (modelRow && next.provider !== modelRow.provider) {
      throw refused(
        `provider refused: ${quote(next.provider)} does not serve the model ${quote(modelRow.id)}, whose provider is ${modelRow.provider}.`,
      );
    }
    if (!modelRow && next.provider !== "" && !ctx.catalogue.some((r) => r.provider === next.provider)) {
      throw refused(`provider refused: ${quote(next.provider)} offers no model on this box.`);
    }
  }
  if (modelRow) next.provider = modelRow.provider;

  if (changed("tts_provider") && !ctx.ttsProviders.includes(next.tts_provider)) {
    throw refused(
      `tts_provider refused: ${quote(next.tts_provider)} is not a voice engine on this box; choose one of ${ctx.ttsProviders.join(", ") || "(none)"}.`,
    );
  }
  if (changed("effort")) next.effort = checkEffort(patch.effort as string, uses);

  const modelsChanged = changed("model") || changed("live_model");
  for (const f of ["top_p", "temperature"] as const) {
    if (next[f] !== null && (changed(f) || modelsChanged)) checkSampling(f, uses);
  }
  return next;
}
