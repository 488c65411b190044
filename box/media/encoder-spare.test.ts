import { afterEach, describe, expect, test } from "vitest";
import { EncoderSpare } from "./encoder-spare.ts";
import type { FfmpegEncoder } from "./encoder.ts";
import { isVp8KeyframeStart } from "./rtp-retimer.ts";
import { childPids, isAlive, waitFor } from "./testing/processes.ts";
import { syntheticSource } from "./testing/synthetic-source.ts";

const taken: FfmpegEncoder[] = [];
const spares: EncoderSpare[] = [];
afterEach(() => {
  taken.splice(0).forEach((e) => e.close());
  spares.splice(0).forEach((s) => s.close());
});

function spare(refillAfterMs = 200): EncoderSpare {
  const s = new EncoderSpare({ refillAfterMs });
  spares.push(s);
  return s;
}

describe("EncoderSpare", () => {
  test("take() hands over the primed, already warm process; nothing leaves before attach; its first real frame is a keyframe", async () => {
    const s = spare();
    s.prime();
    const pid = await s.sparePid();
    expect(pid).not.toBeNull();
    const encoder = await s.take();
    taken.push(encoder);
    expect(encoder.pid).toBe(pid);
    expect(s.counters).toEqual({ warm: 1, cold: 0 });
    await encoder.ready; // the warm-up frame was encoded while it waited
    expect(encoder.counters.packets).toBe(0);
    const sent: { index: number; key: boolean }[] = [];
    encoder.attach((packet, index) => sent.push({ index, key: isVp8KeyframeStart(packet) }));
    const source = syntheticSource();
    for (let i = 0; i < 3; i++) encoder.write(source(i).i420, i);
    await waitFor(() => sent.some((p) => p.index === 2), 10_000, "three frames encoded");
    expect(sent[0]).toEqual({ index: 0, key: true });
  });

  test("a new spare starts after a take, in its own process; close() stops the spare and not the taken one", async () => {
    const s = spare(100);
    s.prime();
    const first = await s.take();
    taken.push(first);
    await waitFor(() => childPids(process.pid, "ffmpeg").length === 2, 10_000, "the next spare started");
    const next = await s.sparePid();
    expect(next).not.toBeNull();
    expect(next).not.toBe(first.pid);
    s.close();
    await waitFor(() => !isAlive(next!), 5_000, "the spare exited");
    expect(isAlive(first.pid!)).toBe(true);
  });

  test("with no spare ready, take() starts an encoder at once (cold) instead of failing", async () => {
    const s = spare(60_000);
    const encoder = await s.take();
    taken.push(encoder);
    expect(encoder.pid).not.toBeNull();
    expect(s.counters).toEqual({ warm: 0, cold: 1 });
  });
});
