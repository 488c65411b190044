// espeak-ng off the media thread (issue 23 item 4): under Bun the engine synthesises in a worker
// thread and answers exactly what it answers in-thread (audio, phonemes, words, a refused voice);
// under Node (no TypeScript workers) it stays in-thread.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUN } from "../testing/spawn-box.ts";
import { EspeakEngine } from "./espeak-engine.ts";

describe("espeak synthesis thread", () => {
  it("speaks in a worker thread, with the same audio and timings as in-thread", () => {
    const probe = (...args: string[]) => {
      const out = execFileSync(BUN, [join(import.meta.dirname, "testing/espeak-thread-probe.ts"), ...args], {
        encoding: "utf8",
        timeout: 60_000,
      });
      return JSON.parse(out.trim().split("\n").at(-1)!);
    };
    const threaded = probe("thread");
    const inline = probe();
    expect(threaded.threadId).toBeGreaterThan(0);
    expect(inline.threadId).toBe(0);
    expect(threaded.said[0].samples).toBeGreaterThan(22050);
    expect(threaded.said[0].phonemes.length).toBeGreaterThan(10);
    expect(threaded.said).toEqual(inline.said);
    expect(threaded.said[2]).toMatchObject({ error: "UpstreamError", status: 404 });
  });

  it("stays in-thread where workers cannot run TypeScript (Node)", async () => {
    const e = await EspeakEngine.load({ thread: true });
    expect(e.thread).toBeNull();
    expect((await e.synthesize("Hello.")).pcm.length).toBeGreaterThan(0);
  });
});
