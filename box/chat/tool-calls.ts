// Implements: Tool call lifecycle for custom tools and POST /api/chat/tool_result: each call
// waits for its result (await_result) up to its timeout; late, repeated, foreign or
// fire-and-forget results are ignored with a reason.
import { randomBytes } from "node:crypto";

export type FailReason = "timeout" | "host_error" | "invalid_args" | "not_enabled" | "no_host" | "session_closed" | "cancelled";
export type CallOutcome = { ok: true; result: unknown } | { ok: false; reason: FailReason; error?: string };
export type Disposition = { ok: true; disposition: "accepted" } | { ok: false; disposition: "ignored"; reason: string };

interface Pending {
  owner: string;
  mode: "await_result" | "fire_and_forget";
  resolve?: (o: CallOutcome) => void;
  timer?: ReturnType<typeof setTimeout>;
}

const REMEMBER_MS = 10 * 60_000;

export class ToolCalls {
  private readonly pending = new Map<string, Pending>();
  /** Ended calls, kept a while so a late or repeated result is told why it was ignored. */
  private readonly ended = new Map<string, { owner: string; why: string; at: number }>();

  newCallId(): string {
    return "call_" + randomBytes(12).toString("base64url");
  }

  /** Registers a call; for await_result resolves with the outcome (result, timeout, cancel...). */
  open(callId: string, owner: string, mode: Pending["mode"], timeoutSeconds: number): Promise<CallOutcome> {
    if (mode === "fire_and_forget") {
      this.end(callId, owner, "the call was fire-and-forget; no result is expected");
      return Promise.resolve({ ok: true, result: null });
    }
    return new Promise((resolve) => {
      const p: Pending = { owner, mode, resolve };
      p.timer = setTimeout(
        () => this.settle(callId, { ok: false, reason: "timeout" }, "the result came after the call timed out"),
        timeoutSeconds * 1000,
      );
      this.pending.set(callId, p);
    });
  }

  /** Ends a waiting call without a result (interrupt, socket closed). */
  fail(callId: string, reason: FailReason): void {
    this.settle(
      callId,
      { ok: false, reason },
      reason === "cancelled" ? "the call was cancelled" : "the session that owned the call has closed",
    );
  }

  /** Fails every waiting call of an owner (its socket closed). */
  failOwner(owner: string, reason: FailReason): void {
    for (const [id, p] of [...this.pending]) if (p.owner === owner) this.fail(id, reason);
  }

  /** A client's `tool_result`; `owner` is the credential subject (or socket) that sent it. */
  deliver(owner: string, callId: unknown, ok: unknown, result: unknown, error: unknown): Disposition {
    if (typeof callId !== "string" || !callId) return { ok: false, disposition: "ignored", reason: "call_id is missing" };
    const p = this.pending.get(callId);
    if (!p || p.owner !== owner) {
      const e = this.ended.get(callId);
      // Another credential's call looks exactly like an unknown one.
      if (e && e.owner === owner) return { ok: false, disposition: "ignored", reason: e.why };
      return { ok: false, disposition: "ignored", reason: "unknown call_id" };
    }
    const outcome: CallOutcome =
      ok === true
        ? { ok: true, result }
        : { ok: false, reason: "host_error", error: typeof error === "string" ? error.slice(0, 200) : "The tool failed." };
    this.settle(callId, outcome, "a result for this call was already received");
    return { ok: true, disposition: "accepted" };
  }

  private settle(callId: string, outcome: CallOutcome, whyLater: string): void {
    const p = this.pending.get(callId);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(callId);
    this.end(callId, p.owner, whyLater);
    p.resolve?.(outcome);
  }

  private end(callId: string, owner: string, why: string): void {
    const now = Date.now();
    this.ended.set(callId, { owner, why, at: now });
    if (this.ended.size > 5000) for (const [k, v] of this.ended) if (now - v.at > REMEMBER_MS) this.ended.delete(k);
  }
}

/** Results reach the model as application data: JSON capped at 8 KB (marked when truncated). */
export function resultForModel(outcome: CallOutcome): { content: string; isError: boolean } {
  if (!outcome.ok) {
    const why = outcome.error ? outcome.error.slice(0, 200) : outcome.reason;
    return { content: JSON.stringify({ application_data: { error: why } }), isError: true };
  }
  let json = JSON.stringify(outcome.result ?? null) ?? "null";
  const CAP = 8 * 1024;
  if (Buffer.byteLength(json) > CAP) {
    json = Buffer.from(json)
      .subarray(0, CAP)
      .toString("utf8")
      .replace(/\uFFFD+$/, "");
    return { content: JSON.stringify({ application_data_truncated: json, note: "truncated at 8 KB" }), isError: false };
  }
  return { content: JSON.stringify({ application_data: JSON.parse(json) }), isError: false };
}
