// Implements: Tool frames, "Client-library behaviour that the wire implies": handlers per tool
// name; no handler answers `ok: false` at once; a failure sends "The tool failed." unless the
// handler threw ToolError (its message, at most 200 characters); a result over 256 KB of JSON is
// not sent and answers `ok: false`; the last 128 call ids per socket are remembered and repeats
// ignored; a socket closing mid-call raises `session_closed` locally.
import { TOOL_ERROR_MAX_CHARS, ToolError } from "./errors.ts";
import type { ToolCallFailedFrame, ToolCallFrame, ToolMode, ToolResultFrame } from "./wire.ts";

export const TOOL_RESULT_MAX_BYTES = 256 * 1024;
export const REMEMBERED_CALL_IDS = 128;
export const GENERIC_TOOL_FAILURE = "The tool failed.";

export interface ToolCallContext {
  callId: string;
  name: string;
  mode: ToolMode;
  timeoutSeconds: number;
  /** Aborted when the call can no longer be answered (socket closed, timed out, cancelled). */
  signal: AbortSignal;
}
export type ToolHandler<A extends Record<string, unknown> = Record<string, unknown>> = (args: A, call: ToolCallContext) => unknown;

export class ToolRegistry {
  private readonly handlers = new Map<string, ToolHandler>();

  /** Registers the handler of one tool name (register before connecting); answers its unregister. */
  register<A extends Record<string, unknown> = Record<string, unknown>>(name: string, handler: ToolHandler<A>): () => void {
    const h = handler as ToolHandler;
    this.handlers.set(name, h);
    return () => void (this.handlers.get(name) === h && this.handlers.delete(name));
  }

  get(name: string): ToolHandler | undefined {
    return this.handlers.get(name);
  }

  names(): string[] {
    return [...this.handlers.keys()];
  }
}

/** What a dispatcher reports beside the frames it sends. */
export interface ToolDispatchEvents {
  /** The socket closed mid-call (`local: true`), raised as the wire's own failure frame. */
  failed(frame: ToolCallFailedFrame): void;
  /** Why a call was answered `ok: false` (the real error stays here; the model gets the sentence). */
  handlerError(info: { call_id: string; name: string; error: unknown; sent: string }): void;
}

/** UTF-8 bytes of a string, without encoding it (counts as TextEncoder would). */
export function utf8Bytes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) (n += 4), i++;
    else n += 3;
  }
  return n;
}

/** One per socket (or per typed-turn stream): runs handlers and answers with `tool_result`. */
export class ToolDispatcher {
  private readonly seen = new Set<string>();
  private readonly order: string[] = [];
  private readonly pending = new Map<string, { name: string; abort: AbortController }>();
  private closed = false;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly send: (frame: ToolResultFrame) => unknown,
    private readonly events: ToolDispatchEvents,
  ) {}

  /** A `tool_call` frame arrived. */
  onCall(frame: ToolCallFrame): void {
    if (this.closed || typeof frame.call_id !== "string" || !this.remember(frame.call_id)) return;
    const { call_id, name } = frame;
    const handler = this.registry.get(name);
    const answers = frame.mode !== "fire_and_forget"; // the box ignores results of fire-and-forget calls
    if (!handler) {
      const sent = `No handler is registered for the tool "${String(name).slice(0, 64)}".`;
      this.events.handlerError({ call_id, name, error: new Error(sent), sent });
      if (answers) this.reply({ type: "tool_result", call_id, ok: false, error: sent });
      return;
    }
    const abort = new AbortController();
    this.pending.set(call_id, { name, abort });
    const ctx: ToolCallContext = { callId: call_id, name, mode: frame.mode, timeoutSeconds: frame.timeout_seconds, signal: abort.signal };
    void (async () => handler(frame.args ?? {}, ctx))().then(
      (result) => this.finish(call_id, answers, () => this.success(call_id, name, result)),
      (error) => this.finish(call_id, answers, () => this.failure(call_id, name, error)),
    );
  }

  /** The box ended a call (completed, failed, timed out, cancelled): its handler is told to stop. */
  onEnded(callId: string): void {
    const p = this.pending.get(callId);
    if (!p) return;
    this.pending.delete(callId);
    p.abort.abort();
  }

  /** The socket (or stream) closed: every call still running fails `session_closed` locally. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const [call_id, p] of [...this.pending]) {
      this.pending.delete(call_id);
      p.abort.abort();
      this.events.failed({ type: "tool_call_failed", call_id, name: p.name, reason: "session_closed", local: true });
    }
  }

  private remember(callId: string): boolean {
    if (this.seen.has(callId)) return false;
    this.seen.add(callId);
    this.order.push(callId);
    if (this.order.length > REMEMBERED_CALL_IDS) this.seen.delete(this.order.shift()!);
    return true;
  }

  private finish(callId: string, answers: boolean, make: () => ToolResultFrame): void {
    // Ended meanwhile (closed, timed out, cancelled): a late result would be ignored anyway.
    if (!this.pending.delete(callId)) return;
    const frame = make();
    if (answers) this.reply(frame);
  }

  private success(call_id: string, name: string, result: unknown): ToolResultFrame {
    let json: string | undefined;
    try {
      json = JSON.stringify(result ?? null);
    } catch (error) {
      return this.failure(call_id, name, error);
    }
    if (utf8Bytes(json ?? "null") > TOOL_RESULT_MAX_BYTES) {
      const sent = "The tool's result was too large to send.";
      this.events.handlerError({
        call_id,
        name,
        error: new Error(`The result is over ${TOOL_RESULT_MAX_BYTES} bytes of JSON; it was not sent.`),
        sent,
      });
      return { type: "tool_result", call_id, ok: false, error: sent };
    }
    return { type: "tool_result", call_id, ok: true, result: json === undefined ? null : result };
  }

  private failure(call_id: string, name: string, error: unknown): ToolResultFrame {
    // By name too: an application may bundle its own copy of this module.
    const isToolError = error instanceof ToolError || (error as Error)?.name === "ToolError";
    const message = isToolError ? String((error as Error).message ?? "").slice(0, TOOL_ERROR_MAX_CHARS) : "";
    const sent = message || GENERIC_TOOL_FAILURE;
    this.events.handlerError({ call_id, name, error, sent });
    return { type: "tool_result", call_id, ok: false, error: sent };
  }

  private reply(frame: ToolResultFrame): void {
    try {
      void Promise.resolve(this.send(frame)).catch(() => undefined);
    } catch {}
  }
}
