// Implements: POST /api/upload and GET /api/audios (Box: avatars and clips), the audio that
// POST /offer lip-syncs. An upload is decoded (transcode.ts), stored whole under a name derived
// from its filename (audio-name.ts), and transcribed by the box's recogniser so that /offer can
// infer its tone from the words without waiting.
import { ApiError } from "../../shared/errors/api-error.ts";
import { isTone, type Tone } from "../../shared/wire/tones.ts";
import type { AsrEngine } from "../stt/asr.ts";
import type { AudioMeta, AudioRow, AudioStore } from "../live/audio-store.ts";
import { storedAudioName, subjectTaggedName } from "./audio-name.ts";
import { CLIP_SAMPLE_RATE, transcodeToClip } from "./transcode.ts";
import { transcribeClip } from "./transcribe.ts";
import { toneFromWords } from "../text/tone-from-words.ts";
import { log as boxLog } from "../../shared/util/log.ts";

export interface AudioUploadLimits {
  /** Whole request body. */
  maxBytes: number;
  maxSeconds: number;
  transcriptMaxChars: number;
  /** The upload answers after this long even when the recogniser is still at work. */
  transcriptWaitMs: number;
  /** Recognitions waiting beyond this many are skipped (`transcript_source: none`). */
  maxQueuedTranscripts: number;
}

export const UPLOAD_LIMITS: AudioUploadLimits = {
  maxBytes: 20 * 1024 * 1024,
  maxSeconds: 120,
  transcriptMaxChars: 4000,
  transcriptWaitMs: 15_000,
  maxQueuedTranscripts: 16,
};

export interface UploadInput {
  filename: string;
  bytes: Uint8Array;
  /** Replaces the filename as the source of the stored name. */
  name?: string;
  transcript?: string;
  tone?: string;
}

export type UploadAnswer = { ok: true; audio: string; replaced: boolean } & Omit<AudioRow, "name">;

export interface AudioUploadsOptions {
  store: AudioStore;
  /** The box's speech recogniser; null: uploads keep `transcript: ""` and tone neutral. */
  asr: AsrEngine | null;
  limits?: Partial<AudioUploadLimits>;
  ffmpegPath?: string;
  now?: () => number;
}

const log = (msg: string, extra: Record<string, unknown>) => boxLog.warn(msg, extra);

export class AudioUploads {
  readonly limits: AudioUploadLimits;
  private readonly store: AudioStore;
  private readonly asr: AsrEngine | null;
  private readonly now: () => number;
  /** Decode-and-store, one upload at a time: two cores, and same-name writes never interleave. */
  private lane: Promise<unknown> = Promise.resolve();
  /** Recognition, one clip at a time, behind the upload that asked for it. */
  private asrLane: Promise<unknown> = Promise.resolve();
  private queued = 0;
  private lastCreated = 0;

  constructor(private readonly o: AudioUploadsOptions) {
    this.store = o.store;
    this.asr = o.asr;
    this.now = o.now ?? Date.now;
    this.limits = { ...UPLOAD_LIMITS, ...o.limits };
    // Recognition cut short by a restart starts again (or, with no recogniser now, gives up).
    for (const { name, createdMs } of this.store.pendingUploads()) void this.transcribeLater(name, createdMs);
  }

  list(subject: string): AudioRow[] {
    return this.store.list(subject);
  }

  async upload(input: UploadInput, subject: string): Promise<UploadAnswer> {
    const tone = input.tone?.trim() || undefined;
    if (tone !== undefined && !isTone(tone))
      throw new ApiError(
        400,
        "unknown_tone",
        `"${tone.slice(0, 40)}" is not a tone (neutral, happy, sad, surprised, thoughtful, serious).`,
      );
    const transcript = input.transcript?.trim().replace(/\s+/g, " ") || undefined;
    if (transcript && transcript.length > this.limits.transcriptMaxChars) {
      throw new ApiError(
        400,
        "transcript_too_long",
        `transcript is ${transcript.length} characters; at most ${this.limits.transcriptMaxChars}.`,
      );
    }
    const stored = await this.inLane(async () => {
      const pcm = await transcodeToClip(input.bytes, { maxSeconds: this.limits.maxSeconds, ffmpegPath: this.o.ffmpegPath });
      const { name, replaced } = this.nameFor(input.name?.trim() || input.filename, input.bytes, subject);
      const created = (this.lastCreated = Math.max(this.now(), this.lastCreated + 1));
      const source = transcript ? "uploader" : this.asr ? "pending" : "none";
      const meta: AudioMeta = {
        text: transcript ?? "",
        // Stored only once known: an explicit one, else read from the words (neutral when unsure).
        tone: (tone as Tone | undefined) ?? (source === "pending" ? null : toneFromWords(transcript ?? "")),
        kind: "upload",
        subject,
        created_ms: created,
        transcript_source: source,
      };
      this.store.put(name, pcm, CLIP_SAMPLE_RATE, meta);
      return { name, replaced, created, pending: source === "pending" };
    });
    if (stored.pending) {
      const done = this.transcribeLater(stored.name, stored.created);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([done, new Promise((r) => (timer = setTimeout(r, this.limits.transcriptWaitMs)))]);
      clearTimeout(timer);
    }
    const row = this.store.row(stored.name);
    if (!row) throw new ApiError(500, "internal_error", "The upload was stored but could not be read back.");
    const { name, ...rest } = row;
    return { ok: true, audio: name, ...rest, replaced: stored.replaced };
  }

  /** The stored name: the caller's own upload of that name is replaced; anything else is never touched. */
  private nameFor(source: string, bytes: Uint8Array, subject: string): { name: string; replaced: boolean } {
    const plain = storedAudioName(source, bytes);
    for (const name of [plain, subjectTaggedName(plain, subject)]) {
      if (!this.store.has(name)) return { name, replaced: false };
      const meta = this.store.metaOf(name);
      if (meta?.kind === "upload" && meta.subject === subject) return { name, replaced: true };
    }
    throw new ApiError(
      409,
      "audio_name_taken",
      "Another audio asset already has this name; upload it under another filename (or a `name` part).",
    );
  }

  /** Recognises a stored upload's words and writes them (and the tone they suggest) into its sidecar. */
  private transcribeLater(name: string, createdMs: number): Promise<void> {
    const finish = (patch: Pick<AudioMeta, "text" | "transcript_source">) => {
      // An explicit tone was stored with the upload; otherwise the words decide.
      const tone = (this.store.metaOf(name)?.tone as Tone | null | undefined) ?? toneFromWords(patch.text);
      this.store.updateUpload(name, createdMs, { ...patch, tone });
    };
    const asr = this.asr;
    if (!asr || this.queued >= this.limits.maxQueuedTranscripts) {
      if (asr) log("upload transcription skipped: queue full", { audio: name });
      finish({ text: "", transcript_source: "none" });
      return Promise.resolve();
    }
    this.queued++;
    const job = this.asrLane.then(async () => {
      const clip = this.store.metaOf(name)?.created_ms === createdMs ? this.store.get(name) : null;
      if (!clip) return; // replaced or gone meanwhile
      try {
        const seconds = clip.pcm.length / clip.sampleRate;
        const text = await transcribeClip(asr, clip.pcm, clip.sampleRate, { timeoutMs: 30_000 + seconds * 2000 });
        finish({ text, transcript_source: "recogniser" });
      } catch (err) {
        log("upload transcription failed", { audio: name, engine: asr.id, error: (err as Error).message });
        finish({ text: "", transcript_source: "none" });
      }
    });
    const settled = job.finally(() => void this.queued--);
    this.asrLane = settled.catch(() => undefined);
    return settled.catch(() => undefined);
  }

  private inLane<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lane.then(work, work);
    this.lane = run.catch(() => undefined);
    return run;
  }
}
