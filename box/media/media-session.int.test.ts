// End to end in one process: werift peer + ffmpeg encoders + paced session, received by libwebrtc.
// An integration test (run alone): it counts dropped frames on a real-time clock, which the unit
// project's parallel CPU-bound files (the renderer's realism checks, perception) would disturb.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MediaSession, type MediaPeer } from "./media-session.ts";
import { createAnswerPeer } from "./peer.ts";
import { childPids, openUdpSockets, waitFor } from "./testing/processes.ts";
import { GREY, syntheticSource } from "./testing/synthetic-source.ts";
import { regionDiff, WrtcClient } from "./testing/wrtc-client.ts";

const TONE_FRAMES = 100; // 0-4 s: 440 Hz; silence afterwards except the marker beeps
const MARKERS = [150, 185, 220, 255, 290]; // white frame + beep onset on one timeline index

let client: WrtcClient;
let session: MediaSession;
let udpBefore = 0;
const departures = new Map<string, number>(); // "video:F" / "audio:K" -> first packet handed to the peer
const asked: number[] = []; // frame indices the source was called with

beforeAll(async () => {
  udpBefore = openUdpSockets().length;
  client = new WrtcClient();
  await client.connect(async (offer) => {
    const peer = await createAnswerPeer(offer, { loopbackOnly: true });
    const source = syntheticSource({ toneFrames: TONE_FRAMES, markerFrames: MARKERS });
    session = await MediaSession.start(peer, (i) => (asked.push(i), source(i)), {
      onSend: (kind, index) => departures.has(`${kind}:${index}`) || departures.set(`${kind}:${index}`, performance.now()),
    });
    return peer.answer;
  });
});

afterAll(() => {
  session?.close();
  client?.close();
});

describe("MediaSession, received by a WebRTC client", () => {
  test("the first frame arrives, 512x512, and the square moves", async () => {
    const first = await client.waitForFirstFrame();
    console.log(`connect -> first decoded frame: ${Math.round(first.at - client.connectStartedAt)} ms`);
    expect([first.width, first.height]).toEqual([512, 512]);
    await client.until(() => client.frames.length >= 30, 20_000, "30 frames decoded");
    const band = { x: 0, y: 224, width: 512, height: 64 }; // the row the square travels along
    expect(regionDiff(first, client.recent.at(-1)!, band), "the picture changes where the square moves").toBeGreaterThan(5);
    const corner = { x: 0, y: 0, width: 64, height: 64 };
    expect(regionDiff(first, client.recent.at(-1)!, corner), "the still background stays still").toBeLessThan(4);
    expect(Math.abs(client.recent.at(-1)!.data[10 * 512 + 10] - GREY)).toBeLessThan(10);
  });

  test("audio is loud while the tone plays and silent after it", async () => {
    await client.until(() => client.audioRmsOver(200) > 2000, 20_000, "the tone was heard (RMS > 2000)");
    await client.until(() => session.counters.framesSent > TONE_FRAMES + 25, 20_000, "the tone ended a second ago");
    await client.until(() => client.audioRmsOver(300) < 100, 10_000, "silence was heard (RMS < 100)");
  });

  test("audio and video of one timeline index leave together and play together", async () => {
    const last = MARKERS.at(-1)!;
    await client.until(() => session.counters.framesSent > last + 40, 30_000, "the last marker was sent");
    await new Promise((r) => setTimeout(r, 1_000)); // let the receiver play it out
    // At the box: the RTP of white frame F and of audio sample F*1920 (chunk 2F) reach the peer together.
    const sent = MARKERS.map((f) => departures.get(`audio:${2 * f}`)! - departures.get(`video:${f}`)!);
    console.log(`A/V offset at the box (audio - video, ms): ${sent.map(Math.round).join(" ")}`);
    for (const offset of sent) {
      expect(
        Math.abs(offset),
        `marker audio left ${Math.round(offset)} ms after its video frame: the A/V clock is broken`,
      ).toBeLessThanOrEqual(40);
    }
    // At the receiver, libwebrtc's jitter buffers add their own (load-dependent) delays on top.
    const played = client.measureAvOffset();
    console.log(`A/V offset at the receiver (beep - flash, ms): ${played.map(Math.round).join(" ")}`);
    expect(played.length, "most markers were seen and heard").toBeGreaterThanOrEqual(3);
    const median = played.sort((a, b) => a - b)[Math.floor(played.length / 2)];
    expect(Math.abs(median), `median A/V offset at the receiver is ${Math.round(median)} ms`).toBeLessThanOrEqual(150);
    expect(
      asked.every((f, k) => f === k),
      "the source was asked for each frame once, in order",
    ).toBe(true);
    expect(session.counters).toMatchObject({ framesDropped: 0, badFrames: 0, sourceErrors: 0 });
  });

  test("a killed video encoder is restarted and the stream goes on", async () => {
    process.kill(session.encoderPid!, "SIGKILL");
    await client.until(() => session.counters.videoRestarts === 1 && session.encoderPid !== null, 10_000, "the encoder restarted");
    const frames = client.frames.length;
    const audioPackets = session.counters.audioPackets;
    await client.until(() => client.frames.length >= frames + 25, 20_000, "25 more frames decoded after the restart");
    expect(session.counters.audioPackets).toBeGreaterThan(audioPackets);
    expect(client.fpsOver(1_000)).toBeGreaterThan(0);
  });

  test("close() leaves no ffmpeg child and no UDP socket", async () => {
    // One process per session: Opus is encoded in the box.
    expect(childPids(process.pid, "ffmpeg")).toEqual([session.encoderPid]);
    session.close();
    client.close();
    await waitFor(() => childPids(process.pid, "ffmpeg").length === 0, 5_000, "no ffmpeg child is left");
    expect(session.encoderPid).toBeNull();
    // libwebrtc keeps some process-wide descriptors after close; UDP sockets are what a session owns.
    await waitFor(() => openUdpSockets().length <= udpBefore, 5_000, `UDP sockets back to ${udpBefore}: ${openUdpSockets()}`);
  });
});

describe("MediaSession without a client", () => {
  test("a client that never connects is given up: encoders gone, onEnded told why", async () => {
    const silent = new WrtcClient();
    let session!: MediaSession;
    const ended = new Promise<string>((resolve) => {
      // The offer is answered but the answer never reaches the client, so ICE never starts.
      void silent
        .connect(async (offer) => {
          const peer = await createAnswerPeer(offer, { loopbackOnly: true });
          session = await MediaSession.start(peer, syntheticSource(), { connectTimeoutMs: 1_500, onEnded: resolve });
          throw new Error("answer dropped on purpose");
        })
        .catch(() => {});
    });
    try {
      expect(await ended).toMatch(/did not connect within 1500 ms/);
      expect(session.encoderPid).toBeNull();
      await expect(session.started).rejects.toThrow(/did not connect/);
      expect(session.counters.framesSent).toBe(0);
    } finally {
      silent.close();
    }
  });
});

describe("MediaSession encoder warm-up", () => {
  test("an encoder that never warms up does not hold media back for longer than warmUpWaitMs", async () => {
    const { mkdtempSync, writeFileSync, chmodSync, rmSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    // A stand-in "ffmpeg" that reads its input and never sends a packet.
    const dir = mkdtempSync(join(tmpdir(), "mute-ffmpeg-"));
    const ffmpegPath = join(dir, "ffmpeg");
    writeFileSync(ffmpegPath, "#!/bin/sh\nexec cat > /dev/null\n");
    chmodSync(ffmpegPath, 0o755);
    const ignore = { writeRtp: () => {} } as unknown as MediaPeer["video"];
    const peer: MediaPeer = { video: ignore, audio: ignore, connected: Promise.resolve(), close: () => {} };
    const session = await MediaSession.start(peer, syntheticSource(), { ffmpegPath, warmUpWaitMs: 300 });
    try {
      await session.started;
      await waitFor(() => session.counters.framesSent >= 5, 10_000, "frames were written although the encoder never warmed up");
      expect(session.counters.videoPackets).toBe(0);
    } finally {
      session.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
