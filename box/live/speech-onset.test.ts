// Speech starts with its mouth (issue 23 item 4): an utterance whose first picture is not drawn
// when the media clock takes its first frame waits a frame (silent, the last picture held) rather
// than sending its first sound under a closed mouth; it waits at most three frames.
import { afterEach, describe, expect, it } from "vitest";
import type { FaceRenderer } from "../render/face-renderer.ts";
import { LiveSession } from "./live-session.ts";
import type { UtteranceInput } from "./speech-timeline.ts";
import { rigAvatar as avatar } from "./testing/frame-rig.ts";

/** Draws the mouth opening into the first byte; while `held`, renders wait for `release()`. */
function gatedRenderer() {
  let held = false;
  let waiting: (() => void)[] = [];
  const renderer = {
    width: 2,
    height: 2,
    render: async (_face: unknown, p: { open: number }, out: Uint8Array) => {
      if (held) await new Promise<void>((r) => waiting.push(r));
      out[0] = Math.round(p.open * 200);
      return out;
    },
  } as unknown as FaceRenderer;
  return {
    renderer,
    hold: () => (held = true),
    release: () => {
      held = false;
      for (const r of waiting) r();
      waiting = [];
    },
  };
}

const tick = () => new Promise<void>((r) => setImmediate(r));
const peakOf = (pcm: Int16Array) => pcm.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
/** Loud from the first sample, mouth open on every frame. */
const speech = (frames: number): UtteranceInput => ({
  text: "a",
  tone: "neutral",
  pcm48k: new Int16Array(frames * 1920).fill(8000),
  mouth: Array.from({ length: frames }, () => ({ open: 0.5, wide: 0, round: 0 })),
});

let session: LiveSession | null = null;
afterEach(() => session?.close());

describe("speech onset waits for its picture", () => {
  it("sends the first sound one frame later, with the mouth already open, when its picture was late", async () => {
    const gate = gatedRenderer();
    const d = LiveSession.detached(avatar, {}, { renderer: gate.renderer, loopbackOnly: true });
    session = d.session;
    for (let i = 0; i < 4; i++) await tick(), d.frame(i);
    gate.hold();
    const s = session.say(speech(10));
    expect(s.startFrame).toBe(4);
    const late = d.frame(4);
    expect(peakOf(late.pcm48k)).toBe(0);
    expect(late.i420[0]).toBe(0);
    gate.release();
    await tick();
    await tick();
    const first = d.frame(5);
    expect(peakOf(first.pcm48k)).toBe(8000);
    expect(first.i420[0]).toBe(100);
    // Nothing was lost: the utterance plays all ten frames from there.
    let loud = 1;
    for (let i = 6; i < 20; i++) {
      await tick();
      if (peakOf(d.frame(i).pcm48k) > 0) loud++;
    }
    expect(loud).toBe(10);
  });

  it("waits at most three frames for a picture, then speaks", async () => {
    const gate = gatedRenderer();
    const d = LiveSession.detached(avatar, {}, { renderer: gate.renderer, loopbackOnly: true });
    session = d.session;
    for (let i = 0; i < 3; i++) await tick(), d.frame(i);
    gate.hold();
    session.say(speech(10));
    const peaks = [3, 4, 5, 6, 7].map((i) => peakOf(d.frame(i).pcm48k));
    expect(peaks).toEqual([0, 0, 0, 8000, 8000]);
    gate.release();
  });

  it("does not wait when the picture is ready", async () => {
    const gate = gatedRenderer();
    const d = LiveSession.detached(avatar, {}, { renderer: gate.renderer, loopbackOnly: true });
    session = d.session;
    for (let i = 0; i < 3; i++) await tick(), d.frame(i);
    const s = session.say(speech(5));
    for (let k = 0; k < 4; k++) await tick();
    const f = d.frame(s.startFrame);
    expect(peakOf(f.pcm48k)).toBe(8000);
    expect(f.i420[0]).toBe(100);
  });
});
