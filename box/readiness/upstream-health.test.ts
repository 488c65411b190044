// Readiness is live: one upstream's state moves with checks and with the calls made to it.
import { afterEach, describe, expect, it, vi } from "vitest";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import { isOutage, UpstreamHealth } from "./upstream-health.ts";

/** A probe the test answers by hand. */
function controllableProbe() {
  const pending: { resolve: () => void; reject: (err: Error) => void }[] = [];
  const probe = vi.fn(() => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })));
  return {
    probe,
    pass: () => pending.shift()!.resolve(),
    fail: (msg: string) => pending.shift()!.reject(new UpstreamError(msg, 502, true)),
  };
}
const down = () => new UpstreamError("openai answered 500: boom", 500, true);

afterEach(() => vi.useRealTimers());

describe("UpstreamHealth", () => {
  it("is starting while a check is in flight, then ready", async () => {
    const p = controllableProbe();
    const h = new UpstreamHealth("openai", p.probe);
    const done = h.check();
    expect(h.state).toBe("starting");
    expect(h.detail).toBe("checking openai");
    p.pass();
    await done;
    expect(h).toMatchObject({ state: "ready", detail: "" });
  });

  it("an upstream down at boot is unavailable, re-checked with doubling backoff, and ready once it answers", async () => {
    vi.useFakeTimers();
    const p = controllableProbe();
    const h = new UpstreamHealth("openai", p.probe, { retryMs: 100, maxRetryMs: 250 });
    const check = h.check();
    p.fail("openai unreachable: Unable to connect. Is the computer able to access the url?");
    await check;
    expect(h.state).toBe("unavailable");
    expect(h.detail).toBe("openai unreachable: Unable to connect. Is the computer able to access the url?");
    await vi.advanceTimersByTimeAsync(99);
    expect(p.probe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(p.probe).toHaveBeenCalledTimes(2);
    expect(h.state).toBe("starting");
    expect(h.detail).toMatch(/^checking openai again; last error: openai unreachable/);
    p.fail("openai unreachable: still");
    await vi.advanceTimersByTimeAsync(0);
    expect(h.state).toBe("unavailable");
    await vi.advanceTimersByTimeAsync(199); // doubled
    expect(p.probe).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(p.probe).toHaveBeenCalledTimes(3);
    p.fail("openai unreachable: still");
    await vi.advanceTimersByTimeAsync(250); // capped at maxRetryMs, not 400
    expect(p.probe).toHaveBeenCalledTimes(4);
    p.pass();
    await vi.advanceTimersByTimeAsync(0);
    expect(h).toMatchObject({ state: "ready", detail: "" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("marks a ready upstream failing after consecutive failures, and ready on the next success", () => {
    vi.useFakeTimers();
    const h = new UpstreamHealth("openai", async () => undefined, { failuresToFail: 3, retryMs: 60_000 }, "ready");
    h.failed(down());
    h.failed(down());
    expect(h.state).toBe("ready");
    h.succeeded(); // a success in between resets the count
    h.failed(down());
    h.failed(down());
    expect(h.state).toBe("ready");
    h.failed(down());
    expect(h.state).toBe("failing");
    expect(h.detail).toBe("the last 3 calls to openai failed; last error: openai answered 500: boom");
    expect(vi.getTimerCount()).toBe(1); // a re-check is due
    h.succeeded();
    expect(h).toMatchObject({ state: "ready", detail: "" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a failing upstream whose re-check fails stays failing; a call that succeeds during a check wins", async () => {
    vi.useFakeTimers();
    const p = controllableProbe();
    const h = new UpstreamHealth("espeak-ng", p.probe, { failuresToFail: 1, retryMs: 10 }, "ready");
    h.failed(new UpstreamError("espeak-ng: synthesis failed (x)", 503, false));
    await vi.advanceTimersByTimeAsync(10);
    expect(h.state).toBe("starting");
    p.fail("espeak-ng: synthesis failed (y)");
    await vi.advanceTimersByTimeAsync(0);
    expect(h.state).toBe("failing");
    await vi.advanceTimersByTimeAsync(20);
    expect(h.state).toBe("starting");
    h.succeeded();
    p.fail("late");
    await vi.advanceTimersByTimeAsync(0);
    expect(h.state).toBe("ready");
  });

  it("close() stops re-checking and leaves no timer behind", async () => {
    vi.useFakeTimers();
    const probe = vi.fn(async () => Promise.reject(new Error("down")));
    const h = new UpstreamHealth("openai", probe, { retryMs: 10 });
    await h.check();
    expect(vi.getTimerCount()).toBe(1);
    h.close();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(h.detail).toBe("openai: down");
  });

  it("counts outages, not refusals of one request or aborts", () => {
    expect(isOutage(new UpstreamError("x", 502, true))).toBe(true);
    expect(isOutage(new UpstreamError("x", 401, false))).toBe(true);
    expect(isOutage(new UpstreamError("x", 503, false))).toBe(true);
    expect(isOutage(new UpstreamError("x", 400, false))).toBe(false);
    expect(isOutage(new UpstreamError("x", 404, false))).toBe(false);
    expect(isOutage(new DOMException("aborted", "AbortError"))).toBe(false);
  });
});
