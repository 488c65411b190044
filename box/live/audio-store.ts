// Audio assets on the box volume (`audio/`): the default clip and replies synthesised for
// POST /offer. Each WAV has a sidecar JSON with what is said in it and its tone.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import type { Tone } from "../../shared/wire/tones.ts";
import { decodeWav, encodeWav } from "../voice/wav.ts";
import type { VoiceEngine } from "../voice/engine.ts";
import { ClauseSplitter } from "../chat/clause-splitter.ts";
import type { Speaker } from "./speaker.ts";

export interface Clip {
  name: string;
  pcm: Int16Array;
  sampleRate: number;
  /** What is said in it, when known. */
  text: string;
  tone: Tone | null;
}

export const DEFAULT_CLIP = "default-clip.wav";
export const DEFAULT_CLIP_TEXT = "Hello! I am your avatar. It is lovely to meet you.";
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.wav$/;

export class AudioStore {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** Writes the default clip once, spoken by the embedded engine. */
  async ensureDefault(engine: VoiceEngine | null): Promise<boolean> {
    if (existsSync(join(this.dir, DEFAULT_CLIP))) return true;
    if (!engine) return false;
    const u = await engine.synthesize(DEFAULT_CLIP_TEXT);
    this.put(DEFAULT_CLIP, u.pcm, u.sampleRate, DEFAULT_CLIP_TEXT, null);
    return true;
  }

  get(name: string): Clip | null {
    if (!SAFE_NAME.test(name)) return null;
    const path = join(this.dir, name);
    if (!existsSync(path)) return null;
    const { pcm, sampleRate } = decodeWav(new Uint8Array(readFileSync(path)));
    let meta: { text?: string; tone?: Tone | null } = {};
    try {
      meta = JSON.parse(readFileSync(path.replace(/\.wav$/, ".json"), "utf8"));
    } catch {}
    return { name, pcm, sampleRate, text: meta.text ?? "", tone: meta.tone ?? null };
  }

  put(name: string, pcm: Int16Array, sampleRate: number, text: string, tone: Tone | null): string {
    if (!SAFE_NAME.test(name)) throw new Error(`unsafe audio name ${name}`);
    writeFileSync(join(this.dir, name), encodeWav(pcm, sampleRate));
    writeFileSync(join(this.dir, name.replace(/\.wav$/, ".json")), JSON.stringify({ text, tone }));
    return name;
  }

  /** A reply spoken to a WAV (for POST /offer); returns its filename. */
  async synthesise(speaker: Pick<Speaker, "synthesize">, text: string, tone: Tone, voice?: string): Promise<string> {
    const splitter = new ClauseSplitter();
    const parts: Int16Array[] = [];
    let rate = 0;
    // Kept at the engine's own rate: /offer resamples when it plays the clip.
    for (const clause of [...splitter.push(text), ...splitter.flush()]) {
      const u = await speaker.synthesize(clause, voice);
      if (rate && u.sampleRate !== rate) throw new Error("the voice engine changed its sample rate mid-reply");
      rate = u.sampleRate;
      parts.push(u.pcm);
    }
    const pcm = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) (pcm.set(p, at), (at += p.length));
    return this.put(`reply-${Date.now()}-${randomBytes(4).toString("hex")}.wav`, pcm, rate || 48000, text, tone);
  }
}
