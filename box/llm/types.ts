// Implements: "What the service does" (a turn sends a message to a language model),
// "Settings record" (model/live_model, max_tokens, sampling, effort, reasoning) and
// "Model catalogue row" (capability flags come from a probe).
import type { ModelDecl as CatalogueModelDecl, ModelProbe as CatalogueModelProbe } from "../../shared/wire/catalogue.ts";

/** Reasoning level from the settings record; null means automatic (the model's default). */
export type ReasoningLevel = "off" | "low" | "medium" | "high";
export const REASONING_LEVELS: readonly ReasoningLevel[] = ["off", "low", "medium", "high"];

export type EffortLevel = "low" | "medium" | "high" | "xhigh" | "max";
export const EFFORT_LEVELS: readonly EffortLevel[] = ["low", "medium", "high", "xhigh", "max"];

/** How a model takes a reasoning level (catalogue row `reasoning`). */
export type ReasoningKind = "adaptive" | "always" | "budget" | "none";

export type ModelTier = "quality" | "fast";

/** What a provider declares about one model (box/catalogue's type: id, label, provider, tiers, released?). */
export type ModelDecl = CatalogueModelDecl;

/** box/catalogue's probe flags, plus two provider-private details used to shape requests. */
export type ModelProbe = CatalogueModelProbe & {
  /** Effort values the model accepted when probed (used to clamp `effort`). */
  efforts?: EffortLevel[];
  /** OpenAI-compatible only: which field carries the reply length ceiling. */
  max_tokens_field?: "max_tokens" | "max_completion_tokens";
};

/** What an unmeasured model reports: no sampling, no effort, no reasoning fields sent. */
export const UNMEASURED_PROBE: ModelProbe = Object.freeze({
  supports_sampling: false,
  supports_effort: false,
  effort_max: false,
  reasoning: "none",
  default_reasoning: "off",
}) as ModelProbe;

export interface ToolCallRecord {
  id: string;
  name: string;
  args: unknown;
  /** Opaque provider data from the tool_call event (e.g. signed thinking blocks); echo it back unchanged. */
  replay?: unknown;
}

/** A picture going with the person's words (their camera or screen, docs/api-notes.md "Perception"); never stored. */
export interface ImagePart {
  mediaType: "image/jpeg";
  data: Uint8Array;
}

export type ChatMessage =
  | { role: "user"; content: string; image?: ImagePart }
  | { role: "assistant"; content: string; toolCalls?: ToolCallRecord[] }
  /** A tool result: sent in the provider's tool-result slot, i.e. as application data, never as the person. */
  | { role: "tool_result"; callId: string; name: string; content: string; isError?: boolean };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON schema of type object. */
  parameters: Record<string, unknown>;
}

/** `required` = must call some tool; `{name}` = must call that tool (forced tool choice). */
export type ToolChoice = "auto" | "none" | "required" | { name: string };

export interface ChatRequest {
  model: string;
  system: string;
  messages: ChatMessage[];
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
  maxTokens: number;
  /** Sent only where the model's probe says `supports_sampling`. */
  temperature?: number | null;
  topP?: number | null;
  /** Sent only where `supports_effort` and `reasoning` is unset; `max` needs `effort_max`. */
  effort?: EffortLevel | null;
  /** null/undefined = automatic (the model's `default_reasoning`). */
  reasoning?: ReasoningLevel | null;
  signal?: AbortSignal;
}

export type StopReason = "end" | "tool_use" | "max_tokens" | "other";

export type ChatEvent =
  | { type: "text"; text: string }
  | {
      type: "tool_call";
      id: string;
      name: string;
      /** Parsed JSON arguments; the raw string when they did not parse (then argsInvalid is true). */
      args: unknown;
      argsInvalid?: boolean;
      /** Opaque provider data to put back on the assistant message's toolCalls entry. */
      replay?: unknown;
    }
  | { type: "usage"; inputTokens: number; outputTokens: number }
  | { type: "stop"; reason: StopReason };

export interface LlmProvider {
  readonly id: string;
  models(): Promise<ModelDecl[]>;
  /** Runs (or reads from the volume cache) the capability probe for one model. */
  probe(modelId: string): Promise<ModelProbe>;
  /** Streams one reply. Throws UpstreamError on failure; throws the signal's reason when aborted. */
  stream(req: ChatRequest): AsyncIterable<ChatEvent>;
  /** Opens a connection to the provider ahead of the first turn (never rejects). */
  warm?(): Promise<void>;
}

/** A model named in configuration: annotates (label, tiers) or, without a list endpoint, declares. */
export interface ConfiguredModel {
  id: string;
  label?: string;
  tiers?: ModelTier[];
}
