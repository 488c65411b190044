// Implements: the self-hosted voice engine (docs/architecture.md "Voice engines"; spec "Voice
// catalogue", `POST /api/voice/upload`, `POST /api/voice/prepare`) over devnen/Chatterbox-TTS-Server's
// `/tts` protocol (docs/providers.md §3.1, decided in §3.3). No timings: the box lip-syncs from the audio.
import { randomBytes } from "node:crypto";
import {
  VoiceProviderError,
  type ProviderClientOptions,
  type SynthesizeOptions,
  type Utterance,
  type UtteranceChunk,
  type VoiceEngine,
  type VoiceEngineInfo,
  type VoiceRow,
} from "../engine.ts";
import { ChatterboxHttp, garbage } from "./chatterbox-http.ts";
import { ReferenceClipError } from "./reference-clip.ts";
import { CHATTERBOX_PROVIDER, cloneVoiceId, displayNameOf, parseVoiceId, referenceFileName } from "./voice-ids.ts";
import { NotWavError, WavStreamDecoder } from "./wav-stream.ts";
import { warmConnection } from "../../net/warm-connection.ts";

export interface ChatterboxEngineOptions extends ProviderClientOptions {
  /** Voice id used when a call names none; default: the server's "Emily.wav", else its first predefined voice. */
  defaultVoice?: string;
  /** Sent as `language` on every request (matters only with the Multilingual model loaded). */
  language?: string;
  /** Generation knobs sent when set (clamped to the server's documented ranges); else config.yaml's defaults. */
  temperature?: number;
  exaggeration?: number;
  cfgWeight?: number;
  seed?: number;
  /** `chunk_size`, 50–500 (default 120): the server splits longer text on sentences. */
  chunkSize?: number;
  /** Spoken by `prepareVoice` (the server has no warm-up route). */
  warmupText?: string;
}

/** A call may also name the language (multilingual model); `signal` aborts the request. */
export interface ChatterboxSynthesizeOptions extends SynthesizeOptions {
  language?: string;
  signal?: AbortSignal;
}

/** `GET /api/model-info` as the server sends it (engine.py `get_model_info`). */
export interface ChatterboxModelInfo {
  loaded: boolean;
  type?: "turbo" | "original" | "multilingual" | string | null;
  class_name?: string | null;
  device?: string | null;
  sample_rate?: number | null;
  supports_multilingual?: boolean;
  supported_languages?: Record<string, string>;
  supports_paralinguistic_tags?: boolean;
  available_paralinguistic_tags?: string[];
  [field: string]: unknown;
}

export interface ChatterboxVoiceRow extends VoiceRow {
  /** `/tts` voice_mode: a file in `voices/` or a clone from `reference_audio/`. */
  mode: "predefined" | "clone";
  /** The file name on the server. */
  file: string;
}

/** What `POST /api/voice/prepare` passes through. */
export interface PreparedVoice {
  voice_id: string;
  ready: true;
  /** How long the warm-up synthesis took. */
  ms: number;
}

export const CHATTERBOX_SAMPLE_RATE = 24_000;
const SHIPPED_DEFAULT_VOICE = "Emily.wav"; // config.yaml tts_engine.default_voice_id

export class ChatterboxEngine implements VoiceEngine {
  readonly id = CHATTERBOX_PROVIDER;
  readonly info: VoiceEngineInfo = { label: "Chatterbox (self-hosted)", local: true, byo: false, clone: true, prepare: true };
  private readonly http: ChatterboxHttp;
  /** Last word from the server on its model: null until it has said. */
  private loaded: boolean | null = null;
  private serverDefault: string | null = null;

  constructor(private readonly options: ChatterboxEngineOptions) {
    this.http = new ChatterboxHttp({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? 10_000,
      fetch: options.fetch ?? globalThis.fetch,
    });
  }

  /** False once the server has said its model is not loaded (model info, or a 503), until it speaks again. */
  get ready(): boolean {
    return this.loaded !== false;
  }

  async synthesize(text: string, options: ChatterboxSynthesizeOptions = {}): Promise<Utterance> {
    const parts: Int16Array[] = [];
    let sampleRate = CHATTERBOX_SAMPLE_RATE;
    for await (const chunk of this.speech(text, options, false)) {
      parts.push(chunk.pcm);
      sampleRate = chunk.sampleRate;
    }
    const pcm = joinPcm(parts);
    return { pcm, sampleRate, phonemes: [], words: [], durationMs: (pcm.length / sampleRate) * 1000 };
  }

  /** PCM as the WAV bytes arrive (`stream: true`; a server before v2.0.0 sends the whole file, read the same way). */
  warm(): Promise<void> {
    const send = this.options.fetch ?? globalThis.fetch;
    return warmConnection((url, init) => send(url, init), `${this.options.baseUrl.replace(/\/+$/, "")}/health`);
  }

  stream(text: string, options: ChatterboxSynthesizeOptions = {}): AsyncIterable<UtteranceChunk> {
    return this.speech(text, options, true);
  }

  async voices(): Promise<ChatterboxVoiceRow[]> {
    const [predefined, references, model] = await Promise.all([
      this.http.json<unknown>("the voice list request", "/get_predefined_voices"),
      this.http.json<unknown>("the reference-file list request", "/get_reference_files"),
      this.modelInfo().catch(() => null), // languages only; the lists decide the outcome
    ]);
    if (!Array.isArray(predefined)) throw garbage("the voice list request", "it is not a list");
    if (!Array.isArray(references)) throw garbage("the reference-file list request", "it is not a list");
    const multilingual =
      model?.supports_multilingual === true && model.supported_languages && Object.keys(model.supported_languages).length > 0;
    const languages = multilingual ? Object.keys(model!.supported_languages!) : ["en"];
    const language = languages.includes("en") ? "en" : languages[0];
    const rows: ChatterboxVoiceRow[] = [];
    const add = (id: string, name: string, mode: ChatterboxVoiceRow["mode"], file: string) => {
      if (!usable(id)) return; // a file the server lists but /tts could not be asked for safely
      const description = mode === "predefined" ? "predefined voice" : "cloned from a reference clip";
      rows.push({ provider: CHATTERBOX_PROVIDER, id, name, language, gender: "", description, languages: languages.slice(), mode, file });
    };
    for (const v of predefined as { filename?: unknown; display_name?: unknown }[]) {
      if (typeof v?.filename !== "string") continue;
      add(
        v.filename,
        typeof v.display_name === "string" && v.display_name ? v.display_name : displayNameOf(v.filename),
        "predefined",
        v.filename,
      );
    }
    for (const f of references) if (typeof f === "string") add(cloneVoiceId(f), displayNameOf(f), "clone", f);
    return rows;
  }

  /** The readiness probe (`GET /api/model-info`): `loaded: false` means the server is up without a model. */
  async modelInfo(signal?: AbortSignal): Promise<ChatterboxModelInfo> {
    const info = await this.http.json<Partial<ChatterboxModelInfo> | null>(
      "the model-info request",
      "/api/model-info",
      { method: "GET" },
      signal,
    );
    if (!info || typeof info !== "object" || typeof info.loaded !== "boolean")
      throw garbage("the model-info request", "it has no `loaded` field");
    this.loaded = info.loaded;
    return info as ChatterboxModelInfo;
  }

  /**
   * Stores a reference clip (WAV or MP3, e.g. `prepareReferenceClip(...).wav`) on the server under a
   * unique name that carries `owner`, the uploader's tag (clone-owners.ts), and answers the new
   * voice id (`clone:<file>`).
   */
  async uploadReference(name: string, audio: Uint8Array, filename: string, owner: string): Promise<string> {
    const ext = audioKind(audio);
    if (!ext) throw new ReferenceClipError("not_audio", "not audio: Chatterbox takes WAV or MP3 reference clips");
    const display = name.trim() || filename.replace(/^.*[/\\]/, "").replace(/\.[^.]*$/, "");
    const file = referenceFileName(display, ext, randomBytes(4).toString("hex"), owner);
    const form = new FormData();
    form.append("files", new Blob([new Uint8Array(audio)], { type: ext === "wav" ? "audio/wav" : "audio/mpeg" }), file);
    const what = "the reference upload";
    const answer = await this.http.json<{ uploaded_files?: unknown; errors?: { filename?: unknown; error?: unknown }[] }>(
      what,
      "/upload_reference",
      { method: "POST", form },
    );
    const ours = answer?.errors?.find((e) => e?.filename === file);
    if (ours)
      throw new VoiceProviderError(
        `Chatterbox refused ${what} (${String(ours.error ?? "no reason given").replace(/\.$/, "")}).`,
        400,
        false,
        "refused",
      );
    const stored = Array.isArray(answer?.uploaded_files) ? answer.uploaded_files.filter((f): f is string => typeof f === "string") : [];
    // The server answers the name it stored (sanitized); with one file sent, one comes back.
    const kept = stored.includes(file) ? file : stored.length === 1 ? stored[0] : null;
    if (!kept || !usable(cloneVoiceId(kept))) throw garbage(what, "it does not name the stored file");
    return cloneVoiceId(kept);
  }

  /** The warm-up of `POST /api/voice/prepare`: devnen has no warm-up route, so a short throwaway synthesis. */
  async prepareVoice(voiceId: string, signal?: AbortSignal): Promise<PreparedVoice> {
    parseVoiceId(voiceId);
    const started = performance.now();
    const u = await this.synthesize(this.options.warmupText ?? "Hello.", { voice: voiceId, signal });
    if (u.pcm.length === 0) throw garbage("the warm-up", "it holds no audio");
    return { voice_id: voiceId, ready: true, ms: Math.round(performance.now() - started) };
  }

  private async *speech(text: string, options: ChatterboxSynthesizeOptions, stream: boolean): AsyncGenerator<UtteranceChunk> {
    if (text.trim() === "") return;
    const voice = parseVoiceId(options.voice ?? this.options.defaultVoice ?? (await this.defaultVoice(options.signal)));
    const what = "the speech request";
    let answer;
    try {
      answer = await this.http.open(what, "/tts", { method: "POST", json: this.ttsBody(text, voice, options, stream) }, options.signal);
    } catch (err) {
      if (err instanceof VoiceProviderError && err.status === 503) this.loaded = false;
      throw err;
    }
    this.loaded = true;
    // A whole file (stream:false) may carry chunks after its data; a stream's sizes are placeholders.
    const wav = new WavStreamDecoder(!stream);
    let samples = 0;
    try {
      for await (const bytes of answer.chunks()) {
        const pcm = wav.push(bytes);
        const rate = wav.sampleRate;
        if (rate !== null && (rate < 8000 || rate > 192_000)) throw new NotWavError(`a sample rate of ${rate} Hz`);
        if (pcm.length === 0) continue;
        samples += pcm.length;
        yield { pcm, sampleRate: rate!, phonemes: [], words: [] };
      }
      wav.end();
    } catch (err) {
      if (err instanceof NotWavError) throw garbage(what, err.message);
      throw err;
    }
    if (samples === 0) throw garbage(what, "the WAVE file holds no audio");
  }

  /** `/tts` body as docs/providers.md §3.1 documents it; unset knobs fall back to the server's config. */
  private ttsBody(
    text: string,
    voice: ReturnType<typeof parseVoiceId>,
    options: ChatterboxSynthesizeOptions,
    stream: boolean,
  ): Record<string, unknown> {
    const o = this.options;
    const body: Record<string, unknown> = { text, voice_mode: voice.mode };
    if (voice.mode === "predefined") body.predefined_voice_id = voice.file;
    else body.reference_audio_filename = voice.file;
    body.output_format = "wav";
    body.split_text = true;
    body.chunk_size = Math.round(clamp(o.chunkSize ?? 120, 50, 500));
    if (o.temperature !== undefined) body.temperature = clamp(o.temperature, 0, 1.5);
    if (o.exaggeration !== undefined) body.exaggeration = clamp(o.exaggeration, 0.25, 2);
    if (o.cfgWeight !== undefined) body.cfg_weight = clamp(o.cfgWeight, 0.2, 1);
    if (o.seed !== undefined) body.seed = Math.max(0, Math.round(o.seed));
    if (options.rate !== undefined && Number.isFinite(options.rate) && options.rate > 0) body.speed_factor = clamp(options.rate, 0.25, 4);
    const language = options.language ?? o.language;
    if (language) body.language = language;
    body.stream = stream;
    return body;
  }

  private async defaultVoice(signal?: AbortSignal): Promise<string> {
    if (this.serverDefault) return this.serverDefault;
    const list = await this.http.json<unknown>("the voice list request", "/get_predefined_voices", { method: "GET" }, signal);
    const files = Array.isArray(list)
      ? list.map((v: { filename?: unknown }) => v?.filename).filter((f): f is string => typeof f === "string" && usable(f))
      : [];
    const pick = files.includes(SHIPPED_DEFAULT_VOICE) ? SHIPPED_DEFAULT_VOICE : files[0];
    if (!pick) throw new VoiceProviderError("Chatterbox lists no predefined voices, so a voice must be chosen.", 404, false, "refused");
    return (this.serverDefault = pick);
  }
}

function usable(id: string): boolean {
  try {
    parseVoiceId(id);
    return true;
  } catch {
    return false;
  }
}

/** The two formats `/upload_reference` takes, by their first bytes. */
function audioKind(b: Uint8Array): "wav" | "mp3" | null {
  const ascii = (at: number, s: string) => b.length >= at + s.length && [...s].every((c, i) => b[at + i] === c.charCodeAt(0));
  if ((ascii(0, "RIFF") || ascii(0, "RF64")) && ascii(8, "WAVE")) return "wav";
  if (ascii(0, "ID3")) return "mp3";
  if (b.length >= 4 && b[0] === 0xff && (b[1] & 0xe0) === 0xe0 && (b[1] & 0x06) !== 0) return "mp3";
  return null;
}

function joinPcm(parts: Int16Array[]): Int16Array {
  if (parts.length === 1) return parts[0];
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
