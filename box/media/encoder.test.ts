import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, test } from "vitest";
import { Writable } from "node:stream";
import { FfmpegEncoder, InputPool } from "./encoder.ts";
import { isVp8KeyframeStart } from "./rtp-retimer.ts";
import { isAlive, waitFor } from "./testing/processes.ts";
import { syntheticSource } from "./testing/synthetic-source.ts";

const open: FfmpegEncoder[] = [];
afterEach(() => open.splice(0).forEach((e) => e.close()));

type Sent = { index: number; ts: number; key: boolean };

async function videoEncoder(sent: Sent[]): Promise<{ encoder: FfmpegEncoder; feed: () => () => void }> {
  const encoder = await FfmpegEncoder.start({
    onRtp: (p, index) => sent.push({ index, ts: p.readUInt32BE(4), key: isVp8KeyframeStart(p) }),
  });
  open.push(encoder);
  const source = syntheticSource();
  let frame = 0;
  const feed = () => {
    const timer = setInterval(() => encoder.write(source(frame).i420, frame++), 40);
    return () => clearInterval(timer);
  };
  return { encoder, feed };
}

describe("FfmpegEncoder", () => {
  test("a killed ffmpeg is restarted, starts on a keyframe, and the RTP timeline continues", async () => {
    const sent: Sent[] = [];
    const { encoder, feed } = await videoEncoder(sent);
    const stop = feed();
    try {
      await waitFor(() => sent.some((s) => s.index >= 10), 15_000, "ten frames were encoded");
      const first = encoder.pid!;
      process.kill(first, "SIGKILL");
      await waitFor(() => encoder.counters.restarts === 1 && encoder.pid !== null && encoder.pid !== first, 10_000, "ffmpeg was restarted");
      const before = sent.length;
      await waitFor(() => sent.length > before + 20, 15_000, "packets flowed after the restart");
      const resumed = sent.slice(before);
      expect(resumed[0].key, "the new process's first frame is a keyframe").toBe(true);
      // Timestamp = base + index * 3600 for every packet, before and after the restart.
      const base = (sent[0].ts - sent[0].index * 3600) >>> 0;
      expect(sent.filter((s) => (s.ts - s.index * 3600) >>> 0 !== base)).toEqual([]);
      expect(resumed[0].index).toBeGreaterThan(sent[before - 1].index);
    } finally {
      stop();
    }
  });

  test("the warm-up frame is encoded at spawn and dropped; the first real frame leaves as a keyframe", async () => {
    const sent: Sent[] = [];
    const { encoder } = await videoEncoder(sent);
    // Nothing written yet: ffmpeg has already encoded the warm-up frame, and none of it left.
    await encoder.ready; // resolves with the warm-up frame's first packet
    expect(encoder.counters.warmUpPackets).toBeGreaterThan(0);
    expect(sent).toEqual([]);
    const source = syntheticSource();
    for (let i = 0; i < 7; i++) {
      expect(encoder.write(source(i).i420, i)).toBe(true);
      await new Promise((r) => setTimeout(r, 40));
    }
    await waitFor(() => sent.some((s) => s.index === 6), 15_000, "seven frames were encoded");
    expect(sent[0]).toMatchObject({ index: 0, key: true });
    expect(new Set(sent.map((s) => s.index))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6]));
    // The fast start goes on from the first real frame: keyframes at 0 and 5.
    expect(sent.filter((s) => s.key).map((s) => s.index)).toEqual([0, 5]);
    expect(encoder.counters.keyframes).toBe(2);
  });

  test("without a fast start the first real frame is still a keyframe", async () => {
    const sent: Sent[] = [];
    const encoder = await FfmpegEncoder.start({
      fastStartFrames: 0,
      onRtp: (p, index) => sent.push({ index, ts: p.readUInt32BE(4), key: isVp8KeyframeStart(p) }),
    });
    open.push(encoder);
    const source = syntheticSource();
    for (let i = 0; i < 3; i++) expect(encoder.write(source(i).i420, i)).toBe(true);
    await waitFor(() => sent.some((s) => s.index === 2), 15_000, "three frames were encoded");
    expect(sent.filter((s) => s.key).map((s) => s.index)).toEqual([0]);
  });

  test("close() kills the child and the encoder refuses further input", async () => {
    const { encoder } = await videoEncoder([]);
    const pid = encoder.pid!;
    expect(isAlive(pid)).toBe(true);
    encoder.close();
    await waitFor(() => !isAlive(pid), 5_000, `ffmpeg ${pid} exited`);
    expect(encoder.write(new Uint8Array(512 * 512 * 1.5), 0)).toBe(false);
    expect(encoder.counters.restarts).toBe(0);
  });

  test("a missing ffmpeg binary fails start() instead of leaving a dead encoder", async () => {
    await expect(FfmpegEncoder.start({ ffmpegPath: "/nonexistent/ffmpeg", onRtp: () => {} })).rejects.toThrow(
      /cannot start \/nonexistent\/ffmpeg/,
    );
  });

  // The box runs on Bun; the host is a stand-in box process that we kill.
  for (const signal of ["SIGKILL", "SIGTERM"] as const) {
    test(`ffmpeg children exit when the box process gets ${signal}`, async () => {
      const host = spawn("node_modules/.bin/bun", ["box/media/testing/encoder-host.ts"], { stdio: ["ignore", "pipe", "inherit"] });
      try {
        const line = await new Promise<string>((resolve, reject) => {
          createInterface({ input: host.stdout! }).once("line", resolve);
          host.once("exit", (code) => reject(new Error(`encoder host exited early (${code})`)));
          setTimeout(() => reject(new Error("encoder host printed nothing in 20 s")), 20_000);
        });
        const pids = JSON.parse(line) as { video: number; spare: number };
        expect(isAlive(pids.video) && isAlive(pids.spare)).toBe(true);
        host.kill(signal);
        await waitFor(() => !isAlive(pids.video) && !isAlive(pids.spare), 10_000, "both ffmpeg children exited");
      } finally {
        host.kill("SIGKILL");
      }
    });
  }
});

describe("InputPool", () => {
  test("a reused buffer is never overwritten while the pipe still holds it, and buffers are reused", async () => {
    const received: Buffer[] = [];
    // A slow pipe: each chunk is taken 5 ms after it was handed over, several queued at once.
    const sink = new Writable({
      highWaterMark: 1 << 20,
      write(chunk: Buffer, _enc, done) {
        setTimeout(() => (received.push(Buffer.from(chunk)), done()), 5);
      },
    });
    const pool = new InputPool();
    const frame = new Uint8Array(4096); // the caller's one buffer, rewritten for every frame
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 4; i++) {
        frame.fill(round * 4 + i);
        pool.write(sink, frame);
      }
      await new Promise((r) => sink.write(Buffer.alloc(0), r)); // let the queue drain
    }
    expect(received.filter((b) => b.length).map((b) => [b.length, b[0], b.every((x) => x === b[0])])).toEqual(
      Array.from({ length: 20 }, (_, k) => [4096, k, true]),
    );
    expect(pool.allocations, "buffers came back to the pool and were reused").toBeLessThanOrEqual(5);
  });
});
