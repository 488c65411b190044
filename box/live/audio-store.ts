// Audio assets on the box volume (`audio/`): the default clip, replies synthesised for POST /offer
// and uploaded audio (POST /api/upload). Each WAV has a sidecar JSON with what is said in it, its
// tone, its kind and (replies, uploads) the credential subject that made it: replies for their
// retention, both so that another credential's audio answers like a missing one (fact 8).
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import type { Tone } from "../../shared/wire/tones.ts";
import { decodeWav, encodeWav } from "../tts/wav.ts";
import type { VoiceEngine } from "../tts/engine.ts";
import { ClauseSplitter } from "../text/clause-splitter.ts";
import type { Speaker } from "./speaker.ts";
import type { VoicePick } from "../tts/accounts.ts";
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

/**
 * Where `text` came from: `speech` (the words the box's voice engine spoke: default clip, replies),
 * `uploader` (the upload's `transcript` part), `recogniser` (the box's speech recogniser),
 * `pending` (the recogniser is still at work), `none` (no recogniser, or it failed: text is "").
 */
export type TranscriptSource = "speech" | "uploader" | "recogniser" | "pending" | "none";

/** The sidecar JSON beside each WAV. */
export interface AudioMeta {
  text: string;
  tone: Tone | null;
  kind: AudioKind;
  /** The credential subject that made a reply or an upload. */
  subject?: string;
  /** Written at, ms since the epoch. */
  created_ms?: number;
  /** Uploads only (the others are `speech`). */
  transcript_source?: TranscriptSource;
}

/** One row of GET /api/audios. */
export interface AudioRow {
  name: string;
  kind: AudioKind;
  duration_s: number;
  sample_rate: number;
  /** Size of the WAV file. */
  bytes: number;
  /** Epoch seconds. */
  created_at: number;
  tone: Tone | null;
  transcript: string;
  transcript_source: TranscriptSource;
}

export const DEFAULT_CLIP = "default-clip.wav";
export const DEFAULT_CLIP_TEXT = "Hello! I am your avatar. It is lovely to meet you.";
export const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.wav$/;
/** Replies written before sidecars carried a kind are still recognised by their name. */
const REPLY_NAME = /^reply-(\d+)-[0-9a-f]+\.wav$/;
/** Written first under this prefix, then renamed: never a SAFE_NAME, so never listed or served. */
const PARTIAL_PREFIX = ".partial-";
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
    for (const name of readdirSync(dir)) {
      // A write cut short by a crash is never finished: its leftovers go.
      if (name.startsWith(PARTIAL_PREFIX)) rmSync(join(dir, name), { force: true });
      else if (SAFE_NAME.test(name)) this.index(name);
    }
    // One scan at start: what is over age or over a cap (a lowered setting too) goes now.
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

  /** A clip by name; with `subject`, another credential's reply or upload is null (as a missing one). */
  get(name: string, subject?: string): Clip | null {
    if (!SAFE_NAME.test(name)) return null;
    // A reply past its age is gone, even before the next write sweeps it.
    if (this.replies.expired(name)) this.remove(this.replies.sweep([]));
    const path = join(this.dir, name);
    if (!existsSync(path)) return null;
    const meta = this.meta(name) ?? {};
    if (subject !== undefined && !visibleTo(meta, subject)) return null;
    const { pcm, sampleRate } = decodeWav(new Uint8Array(readFileSync(path)));
    return { name, pcm, sampleRate, text: meta.text ?? "", tone: meta.tone ?? null };
  }

  has(name: string): boolean {
    return SAFE_NAME.test(name) && existsSync(join(this.dir, name));
  }

  /** The sidecar of a clip (null when it has none or is not a clip). */
  metaOf(name: string): Partial<AudioMeta> | null {
    return this.has(name) ? this.meta(name) : null;
  }

  /**
   * Every audio asset `subject` may play: the default clip, its own replies and uploads, and
   * files placed on the volume by hand (no subject recorded). Newest first.
   */
  list(subject: string): AudioRow[] {
    const rows: AudioRow[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!SAFE_NAME.test(name) || this.replies.expired(name)) continue;
      const meta = this.meta(name) ?? {};
      if (!visibleTo(meta, subject)) continue;
      const row = this.row(name, meta);
      if (row) rows.push(row);
    }
    return rows.sort((a, b) => b.created_at - a.created_at || a.name.localeCompare(b.name));
  }

  /** A listing row for one clip (null when it vanished or is not a readable WAV). */
  row(name: string, meta: Partial<AudioMeta> = this.meta(name) ?? {}): AudioRow | null {
    const path = join(this.dir, name);
    let size: number;
    let mtimeMs: number;
    try {
      ({ size, mtimeMs } = statSync(path));
    } catch {
      return null; // removed between the listing and now
    }
    const info = wavHeader(path, size);
    if (!info) return null;
    const kind = kindOf(name, meta);
    return {
      name,
      kind,
      duration_s: Math.round(info.seconds * 100) / 100,
      sample_rate: info.sampleRate,
      bytes: size,
      created_at: Math.floor((typeof meta.created_ms === "number" ? meta.created_ms : mtimeMs) / 1000),
      tone: meta.tone ?? null,
      transcript: meta.text ?? "",
      transcript_source: meta.transcript_source ?? (kind === "upload" ? (meta.text ? "uploader" : "none") : "speech"),
    };
  }

  /** Writes a clip and its sidecar; each lands whole (temporary name, then rename), sidecar first. */
  put(name: string, pcm: Int16Array, sampleRate: number, meta: AudioMeta): string {
    if (!SAFE_NAME.test(name)) throw new Error(`unsafe audio name ${name}`);
    const wav = encodeWav(pcm, sampleRate);
    const json = JSON.stringify(meta);
    this.writeWhole(sidecarOf(name), json);
    this.writeWhole(name, wav);
    if (meta.kind === "reply") {
      const subject = meta.subject ?? "";
      this.replies.add({ name, subject, bytes: wav.byteLength + Buffer.byteLength(json), at: meta.created_ms ?? this.now() });
      this.remove(this.replies.sweep([subject]));
    }
    return name;
  }

  /**
   * Rewrites the sidecar of an upload (its transcript, once recognised), only while it is still the
   * upload written at `createdMs` (a later upload under the same name keeps its own).
   */
  updateUpload(name: string, createdMs: number, patch: Partial<Pick<AudioMeta, "text" | "tone" | "transcript_source">>): boolean {
    const meta = this.metaOf(name);
    if (meta?.kind !== "upload" || meta.created_ms !== createdMs) return false;
    this.writeWhole(sidecarOf(name), JSON.stringify({ ...meta, ...patch }));
    return true;
  }

  /** Uploads whose transcript was still being recognised (e.g. when the box stopped). */
  pendingUploads(): { name: string; createdMs: number }[] {
    const out: { name: string; createdMs: number }[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!SAFE_NAME.test(name)) continue;
      const meta = this.meta(name);
      if (meta?.kind === "upload" && meta.transcript_source === "pending" && typeof meta.created_ms === "number")
        out.push({ name, createdMs: meta.created_ms });
    }
    return out;
  }

  /** A reply spoken to a WAV (for POST /offer), kept under the retention of `subject`; returns its filename. */
  async synthesise(speaker: Pick<Speaker, "synthesize">, text: string, tone: Tone, pick: VoicePick & { subject: string }): Promise<string> {
    const subject = pick.subject;
    const splitter = new ClauseSplitter();
    const parts: Int16Array[] = [];
    let rate = 0;
    // Kept at the engine's own rate: /offer resamples when it plays the clip.
    for (const clause of [...splitter.push(text), ...splitter.flush()]) {
      const u = await speaker.synthesize(clause, pick);
      if (rate && u.sampleRate !== rate) throw new Error("the voice engine changed its sample rate mid-reply");
      rate = u.sampleRate;
      parts.push(u.pcm);
    }
    const pcm = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) pcm.set(p, at), (at += p.length);
    const now = this.now();
    return this.put(`reply-${now}-${randomBytes(4).toString("hex")}.wav`, pcm, rate || 48000, {
      text,
      tone,
      kind: "reply",
      subject,
      created_ms: now,
    });
  }

  private writeWhole(name: string, data: string | Uint8Array): void {
    const partial = join(this.dir, `${PARTIAL_PREFIX}${randomBytes(6).toString("hex")}-${name}`);
    try {
      writeFileSync(partial, data);
      renameSync(partial, join(this.dir, name));
    } catch (err) {
      rmSync(partial, { force: true });
      throw err;
    }
  }

  private meta(name: string): Partial<AudioMeta> | null {
    try {
      const v = JSON.parse(readFileSync(join(this.dir, sidecarOf(name)), "utf8"));
      return v && typeof v === "object" && !Array.isArray(v) ? v : null;
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
    this.replies.add({
      name,
      subject: typeof meta?.subject === "string" ? meta.subject : "",
      bytes: size(name) + size(sidecarOf(name)),
      at,
    });
  }

  private remove(names: string[]): void {
    for (const name of names) {
      rmSync(join(this.dir, name), { force: true });
      rmSync(join(this.dir, sidecarOf(name)), { force: true });
    }
  }
}

function kindOf(name: string, meta: Partial<AudioMeta>): AudioKind {
  if (meta.kind === "default" || meta.kind === "reply" || meta.kind === "upload") return meta.kind;
  return name === DEFAULT_CLIP ? "default" : REPLY_NAME.test(name) ? "reply" : "upload";
}

/** The default clip and files with no recorded subject are everybody's; the rest their maker's. */
function visibleTo(meta: Partial<AudioMeta>, subject: string): boolean {
  return meta.kind === "default" || typeof meta.subject !== "string" || meta.subject === subject;
}

/** Rate and length from a WAV's header, without reading its samples (null: not a PCM WAVE). */
function wavHeader(path: string, fileSize: number): { sampleRate: number; seconds: number } | null {
  const head = Buffer.alloc(Math.min(fileSize, 64 * 1024));
  const fd = openSync(path, "r");
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (head.length < 12 || head.toString("latin1", 0, 4) !== "RIFF" || head.toString("latin1", 8, 12) !== "WAVE") return null;
  let off = 12;
  let rate = 0;
  let blockAlign = 0;
  while (off + 8 <= head.length) {
    const id = head.toString("latin1", off, off + 4);
    const size = head.readUInt32LE(off + 4);
    if (id === "fmt " && off + 24 <= head.length) {
      rate = head.readUInt32LE(off + 12);
      blockAlign = head.readUInt16LE(off + 20);
    }
    if (id === "data") {
      if (!rate || !blockAlign) return null;
      const bytes = Math.min(size, fileSize - off - 8);
      return { sampleRate: rate, seconds: Math.floor(bytes / blockAlign) / rate };
    }
    off += 8 + size + (size & 1);
  }
  return null;
}
