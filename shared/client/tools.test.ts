// The client-library tool rules, on the dispatcher alone (the real box is in the .int tests).
import { describe, expect, it } from "vitest";
import { ToolError } from "./errors.ts";
import { GENERIC_TOOL_FAILURE, REMEMBERED_CALL_IDS, TOOL_RESULT_MAX_BYTES, ToolDispatcher, ToolRegistry, utf8Bytes } from "./tools.ts";
import type { ToolCallFailedFrame, ToolCallFrame, ToolResultFrame } from "./wire.ts";

function harness() {
  const registry = new ToolRegistry();
  const sent: ToolResultFrame[] = [];
  const failed: ToolCallFailedFrame[] = [];
  const errors: { call_id: string; error: unknown; sent: string }[] = [];
  const d = new ToolDispatcher(registry, (f) => sent.push(f), { failed: (f) => failed.push(f), handlerError: (e) => errors.push(e) });
  const call = (call_id: string, name = "t", extra: Partial<ToolCallFrame> = {}) =>
    d.onCall({ type: "tool_call", call_id, name, args: {}, mode: "await_result", timeout_seconds: 5, ...extra });
  const settle = () => new Promise((r) => setTimeout(r, 5));
  return { registry, d, sent, failed, errors, call, settle };
}

describe("ToolDispatcher", () => {
  it("answers with the handler's result; unregistering makes the name unhandled", async () => {
    const h = harness();
    const off = h.registry.register("t", (args, call) => ({ echo: args, id: call.callId }));
    h.call("c1", "t", { args: { a: 1 } });
    await h.settle();
    expect(h.sent).toEqual([{ type: "tool_result", call_id: "c1", ok: true, result: { echo: { a: 1 }, id: "c1" } }]);
    off();
    h.call("c2");
    expect(h.sent[1]).toMatchObject({ call_id: "c2", ok: false });
  });

  it("no handler: ok:false at once (synchronously); fire-and-forget calls are never answered", () => {
    const h = harness();
    h.call("c1", "missing");
    expect(h.sent).toEqual([{ type: "tool_result", call_id: "c1", ok: false, error: expect.stringContaining("missing") }]);
    h.call("c2", "missing", { mode: "fire_and_forget" });
    expect(h.sent).toHaveLength(1);
  });

  it("a failure sends the generic sentence; ToolError sends its message cut to 200 characters", async () => {
    const h = harness();
    h.registry.register("boom", () => {
      throw new Error("secret internals");
    });
    h.registry.register("told", () => Promise.reject(new ToolError("x".repeat(250))));
    h.call("c1", "boom");
    h.call("c2", "told");
    await h.settle();
    expect(h.sent).toEqual([
      { type: "tool_result", call_id: "c1", ok: false, error: GENERIC_TOOL_FAILURE },
      { type: "tool_result", call_id: "c2", ok: false, error: "x".repeat(200) },
    ]);
    expect((h.errors[0].error as Error).message).toBe("secret internals");
  });

  it("a result over 256 KB of JSON, counted in UTF-8 bytes, is not sent: ok:false", async () => {
    const h = harness();
    // 140 000 characters, but 280 000 bytes in UTF-8: over the limit by bytes, not by length.
    const wide = "é".repeat(140_000);
    expect(wide.length).toBeLessThan(TOOL_RESULT_MAX_BYTES);
    h.registry.register("wide", () => ({ text: wide }));
    h.registry.register("fits", () => "a".repeat(TOOL_RESULT_MAX_BYTES - 2)); // its JSON is exactly 256 KB
    h.call("c1", "wide");
    h.call("c2", "fits");
    await h.settle();
    expect(h.sent[0]).toEqual({ type: "tool_result", call_id: "c1", ok: false, error: expect.any(String) });
    expect(h.sent[1]).toMatchObject({ call_id: "c2", ok: true });
    expect(utf8Bytes("é€😀")).toBe(new TextEncoder().encode("é€😀").length);
  });

  it("remembers the last 128 call ids: a repeat is ignored, one older than that runs again", async () => {
    const h = harness();
    let runs = 0;
    h.registry.register("t", () => ++runs);
    h.call("first");
    h.call("first");
    for (let i = 0; i < REMEMBERED_CALL_IDS; i++) h.call(`id${i}`);
    h.call("id127");
    await h.settle();
    expect(runs).toBe(1 + REMEMBERED_CALL_IDS);
    h.call("first"); // forgotten by now
    await h.settle();
    expect(runs).toBe(2 + REMEMBERED_CALL_IDS);
  });

  it("closing mid-call raises session_closed locally, aborts the handler and sends nothing later", async () => {
    const h = harness();
    let signal: AbortSignal | null = null;
    let finish: (v: unknown) => void = () => {};
    h.registry.register("slow", (_a, call) => ((signal = call.signal), new Promise((r) => (finish = r))));
    h.call("c1", "slow");
    await h.settle();
    h.d.close();
    expect(h.failed).toEqual([{ type: "tool_call_failed", call_id: "c1", name: "slow", reason: "session_closed", local: true }]);
    expect(signal!.aborted).toBe(true);
    finish("late");
    await h.settle();
    expect(h.sent).toEqual([]);
  });

  it("a call the box ended (timeout, cancelled) aborts its handler and drops the late result", async () => {
    const h = harness();
    let signal: AbortSignal | null = null;
    h.registry.register("slow", (_a, call) => ((signal = call.signal), new Promise((r) => setTimeout(r, 20))));
    h.call("c1", "slow");
    await h.settle();
    h.d.onEnded("c1");
    expect(signal!.aborted).toBe(true);
    await new Promise((r) => setTimeout(r, 30));
    expect(h.sent).toEqual([]);
  });
});
