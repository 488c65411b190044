// The per-test script DSL shared by the provider fakes: what the fake "model" does on one request.

export type ScriptStep =
  /** One streamed text delta. */
  | { text: string }
  /** One tool call; `rawArgs` sends that text instead of JSON-encoded `args` (to test bad JSON). */
  | { toolCall: { name: string; args?: unknown; id?: string; rawArgs?: string } }
  /** A reasoning block (Anthropic/Bedrock thinking; OpenAI-compatible `reasoning_content`). */
  | { thinking: string }
  /** Pause before the next step (slow first token, stalls). */
  | { delayMs: number }
  /** The provider's in-stream error event; the stream ends after it. */
  | { errorMidStream: { status?: number; type?: string; message?: string } }
  /** Refuse the whole request with this HTTP status (must be the first step). */
  | { httpError: number; message?: string; type?: string }
  /** Drop the connection without finishing the stream. */
  | { disconnect: true }
  /** Override the stop reason reported at the end. */
  | { stop: "end" | "tool_use" | "max_tokens" | "other" }
  /** Override the usage reported at the end. */
  | { usage: { inputTokens: number; outputTokens: number } };

/** An empty script is an empty generation: the stream starts and stops with no content. */
export type Script = ScriptStep[];

export interface FakeModel {
  id: string;
  label?: string;
  /** Return a message to refuse the request with 400 (e.g. "temperature" for a model without sampling). */
  refuse?: (body: any) => string | undefined;
}

export interface FakeOptions {
  /** Delay before each streamed frame; 0 (default) writes frames back to back with no timers (benchmarks). */
  latencyMs?: number;
  /** Split each frame into two socket writes, so clients must join frames across reads. */
  fragment?: boolean;
  /** Models this server knows; an unknown model is answered 404. Empty: every model is accepted. */
  models?: FakeModel[];
  /** Played when no script is queued (probes, benchmarks). Default: one short text. */
  defaultScript?: Script;
  /** Required credential; a request without it gets the provider's 401. */
  apiKey?: string;
  /** false: the model list route answers 404 (a server without one). */
  listModels?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  /** Resolves when the connection behind this request has closed. */
  closed: Promise<void>;
}

export function scriptUsage(script: Script, fallbackInput: number): { inputTokens: number; outputTokens: number } {
  for (const s of script) if ("usage" in s) return s.usage;
  const output = script.filter((s) => "text" in s || "toolCall" in s).length;
  return { inputTokens: fallbackInput, outputTokens: output };
}

export function toolArgsText(call: { args?: unknown; rawArgs?: string }): string {
  return call.rawArgs ?? JSON.stringify(call.args ?? {});
}

/** Two halves, so clients have to assemble tool arguments across deltas. */
export function halves(s: string): string[] {
  const mid = Math.ceil(s.length / 2);
  return s.length < 2 ? [s] : [s.slice(0, mid), s.slice(mid)];
}
