// Audio assets on the box volume (`audio/`): the default clip and replies synthesised for
// POST /offer. Each WAV has a sidecar JSON with what is said in it, its tone and its kind;
// generated replies also record the credential subject that made them, for their retention.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import type { Tone } from "../../shared/wire/tones.ts";
import { decodeWav, encodeWav } from "../voice/wav.ts";
import type { VoiceEngine } from "../voice/engine.ts";
import { ClauseSplitter } from "../chat/clause-splitter.ts";
import type { Speaker } from "./speaker.ts";
import { ReplyRetention, type ReplyRetentionOptions } from "./reply-retention.ts";

export interface Clip {
  name: string;
  pcm: Int16Array;
  sampleRate: number;
  /** What is said in it, when known. */
  text: string;
  tone: Tone | null;
}

/** `reply`: made by POST /api/chat, swept by the retention policy; every other kind stays until deleted. */
export type AudioKind = "default" | "reply" | "upload";

/** The sidecar JSON beside each WAV. */
export interface AudioMeta {
  text: string;
  tone: Tone | null;
  kind: AudioKind;
  /** The credential subject that made a reply. */
  subject?: string;
  /** Written at, ms since the epoch. */
  created_ms?: number;
}

export const DEFAULT_CLIP = "default-clip.wav";
export const DEFAULT_CLIP_TEXT = "Hello! I am your avatar. It is lovely to meet you.";
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.wav$/;
/** Replies written before sidecars carried a kind are still recognised by their name. */
const REPLY_NAME = /^reply-(\d+)-[0-9a-f]+\.wav$/;
/** Defaults: a day, 50 MB per subject. */
export const DEFAULT_REPLY_RETENTION: ReplyRetentionOptions = { maxAgeSeconds: 86_400, maxBytesPerSubject: 50 * 1024 * 1024 };

const sidecarOf = (name: string) => name.replace(/\.wav$/, ".json");

export class AudioStore {
  private readonly replies: ReplyRetention;

  constructor(
    private readonly dir: string,
    retention: ReplyRetentionOptions = DEFAULT_REPLY_RETENTION,
    private readonly now: () => number = Date.now,
  ) {
    mkdirSync(dir, { recursive: true });
    this.replies = new ReplyRetention(retention, now);
    // One scan at start: what is over age or over a cap (a lowered setting too) goes now.
    for (const name of readdirSync(dir)) if (SAFE_NAME.test(name)) this.index(name);
    this.remove(this.replies.sweep());
  }

  /** Writes the default clip once, spoken by the embedded engine. */
  async ensureDefault(engine: VoiceEngine | null): Promise<boolean> {
    if (existsSync(join(this.dir, DEFAULT_CLIP))) return true;
    if (!engine) return false;
    const u = await engine.synthesize(DEFAULT_CLIP_TEXT);
    this.put(DEFAULT_CLIP, u.pcm, u.sampleRate, { text: DEFAULT_CLIP_TEXT, tone: null, kind: "default" });
    return true;
  }

  get(name: string): Clip | null {
    if (!SAFE_NAME.test(name)) return null;
    // A reply past its age is gone, even before the next write sweeps it.
    if (this.replies.expired(name)) this.remove(this.replies.sweep([]));
    const path = join(this.dir, name);
    if (!existsSync(path)) return null;
    const { pcm, sampleRate } = decodeWav(new Uint8Array(readFileSync(path)));
    const meta = this.meta(name) ?? {};
    return { name, pcm, sampleRate, text: meta.text ?? "", tone: meta.tone ?? null };
  }

  put(name: string, pcm: Int16Array, sampleRate: number, meta: AudioMeta): string {
    if (!SAFE_NAME.test(name)) throw new Error(`unsafe audio name ${name}`);
    const wav = encodeWav(pcm, sampleRate);
    const json = JSON.stringify(meta);
    writeFileSync(join(this.dir, name), wav);
    writeFileSync(join(this.dir, sidecarOf(name)), json);
    if (meta.kind === "reply") {
      const subject = meta.subject ?? "";
      this.replies.add({ name, subject, bytes: wav.byteLength + Buffer.byteLength(json), at: meta.created_ms ?? this.now() });
      this.remove(this.replies.sweep([subject]));
    }
    return name;
  }

  /** A reply spoken to a WAV (for POST /offer), kept under the retention of `subject`; returns its filename. */
  async synthesise(speaker: Pick<Speaker, "synthesize">, text: string, tone: Tone, voice: string | undefined, subject: string): Promise<string> {
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
    const now = this.now();
    return this.put(`reply-${now}-${randomBytes(4).toString("hex")}.wav`, pcm, rate || 48000, { text, tone, kind: "reply", subject, created_ms: now });
  }

  private meta(name: string): Partial<AudioMeta> | null {
    try {
      return JSON.parse(readFileSync(join(this.dir, sidecarOf(name)), "utf8"));
    } catch {
      return null;
    }
  }

  /** Start-up: a WAV whose sidecar says `reply` (or an older reply by its name) joins the retention. */
  private index(name: string): void {
    const meta = this.meta(name);
    const legacy = REPLY_NAME.exec(name);
    if (meta?.kind ? meta.kind !== "reply" : !legacy) return;
    const size = (f: string) => (existsSync(join(this.dir, f)) ? statSync(join(this.dir, f)).size : 0);
    const at = typeof meta?.created_ms === "number" ? meta.created_ms : legacy ? Number(legacy[1]) : statSync(join(this.dir, name)).mtimeMs;
    this.replies.add({ name, subject: typeof meta?.subject === "string" ? meta.subject : "", bytes: size(name) + size(sidecarOf(name)), at });
  }

  private remove(names: string[]): void {
    for (const name of names) {
      rmSync(join(this.dir, name), { force: true });
      rmSync(join(this.dir, sidecarOf(name)), { force: true });
    }
  }
}
