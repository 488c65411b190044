// A live session with no peer, its frames asked for one by one as the media clock would, and a
// renderer that writes the frame's mouth opening into the picture's first byte: what the client
// would see and hear, frame by frame, without WebRTC.
import type { ResolvedAvatar } from "../../avatars/registry.ts";
import type { FaceRenderer } from "../../render/face-renderer.ts";
import { concat } from "../../stt/testing/speech-audio.ts";
import { LiveSession } from "../live-session.ts";
import type { SpeechEvent } from "../session-types.ts";

export interface Shot {
  frame: number;
  /** Mouth opening the picture shows, 0..200. */
  open: number;
  /** Peak |sample| of the frame's audio. */
  peak: number;
  pcm: Int16Array;
  /** Utterance scheduled on this frame (null: none). */
  playing: number | null;
  /** The schedule was waiting for a stream on this frame. */
  waiting: boolean;
}

/** A 2x2 face for rigs that read the mouth from the picture's first byte. */
export const rigAvatar = {
  avatarId: "rig",
  tone: "neutral",
  variant: "rig",
  face: { width: 2, height: 2, i420: new Uint8Array(6), anchors: {} },
} as unknown as ResolvedAvatar;

const renderer = {
  width: 2,
  height: 2,
  render: async (_face: unknown, p: { open: number }, out: Uint8Array) => {
    out[0] = Math.round(p.open * 200);
    return out;
  },
} as unknown as FaceRenderer;

const tick = () => new Promise<void>((r) => setImmediate(r));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class FrameRig {
  readonly session: LiveSession;
  readonly shots: Shot[] = [];
  readonly events: SpeechEvent[] = [];
  private readonly source: (i: number) => { i420: Uint8Array; pcm48k: Int16Array };
  private next = 0;

  constructor() {
    const { session, frame } = LiveSession.detached(rigAvatar, {}, { renderer, loopbackOnly: true });
    this.session = session;
    this.source = frame;
    session.onSpeech((e) => this.events.push(e));
  }

  /** Sends the next frame (the renderer's pictures for it are ready first). */
  async step(): Promise<Shot> {
    await tick();
    const i = this.next++;
    const f = this.source(i);
    const waiting = this.session.timeline.waitingFor !== null;
    let peak = 0;
    for (const v of f.pcm48k) peak = Math.max(peak, Math.abs(v));
    const shot = { frame: i, open: f.i420[0], peak, pcm: f.pcm48k.slice(), playing: this.session.timeline.at(i)?.id ?? null, waiting };
    this.shots.push(shot);
    return shot;
  }

  /** Frames until `done` holds (at most `max`); `paceMs` between frames gives the stream time (3 ms while nothing plays). */
  async until(done: (s: Shot) => boolean, max = 2000, paceMs = 0): Promise<Shot> {
    for (let n = 0; n < max; n++) {
      const s = await this.step();
      if (done(s)) return s;
      // Nothing to play yet (a voice still on its way): real time must pass for it to arrive, or
      // a busy machine's first audio comes after every frame was already asked for.
      if (paceMs || s.playing === null || s.waiting) await sleep(paceMs || 3);
    }
    throw new Error(`no frame matched within ${max} frames`);
  }

  /** The audio of utterance `id` as it was sent, in order. */
  audioOf(id: number): Int16Array {
    return concat(...this.shots.filter((s) => s.playing === id).map((s) => s.pcm));
  }

  close(): void {
    this.session.close();
  }
}
