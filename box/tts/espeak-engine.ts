// Implements: the embedded voice default (docs/architecture.md "Embedded defaults": espeak-ng, offline, many
// languages) with phoneme timings for lip-sync (docs/architecture.md "Text to speech with timings"), and
// the voice rule of "Language of a call" for this engine's catalogue.
import { UpstreamError } from "../../shared/errors/api-error.ts";
import type { SynthesizeOptions, Utterance, VoiceEngine } from "./engine.ts";
import { ESPEAK_DEFAULT_PITCH, ESPEAK_DEFAULT_WPM, type EspeakBackend } from "./espeak-backend.ts";
import { buildUtterance, type EspeakRawEvent } from "./espeak-events.ts";
import { DEFAULT_ESPEAK_LIBRARY, openNativeEspeak } from "./espeak-native.ts";
import { ESPEAK_PROVIDER, espeakVoiceRows, type EspeakVoiceRow } from "./espeak-voices.ts";
import { DEFAULT_ESPEAK_WASM_MODULE, openWasmEspeak } from "./espeak-wasm.ts";
import { canThread, EspeakThread } from "./espeak-thread.ts";
import { voiceForLanguage } from "./voice-language.ts";

export interface EspeakEngineOptions {
  /** "auto": the native library, else the WASM package. */
  backend?: "auto" | "native" | "wasm";
  libraryPath?: string;
  /** Folder holding `espeak-ng-data`; null = the library's built-in location. */
  dataPath?: string | null;
  wasmModule?: string;
  /** Row id (or espeak name) used when a call names no voice. */
  defaultVoice?: string;
  /** Trailing silence after the last clause (native only), so queued clauses do not run together. */
  endPause?: boolean;
  /** espeak variant giving each language a female row; null for none. */
  femaleVariant?: string | null;
  /**
   * Synthesise in a worker thread (Bun only; elsewhere ignored), so a clause never blocks the
   * thread that paces media. The catalogue is still read here.
   */
  thread?: boolean;
}

const DEFAULTS = {
  backend: "auto",
  libraryPath: DEFAULT_ESPEAK_LIBRARY,
  dataPath: null,
  wasmModule: DEFAULT_ESPEAK_WASM_MODULE,
  defaultVoice: "en-us",
  endPause: true,
  femaleVariant: "f3",
  thread: false,
} satisfies Required<EspeakEngineOptions>;

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const unavailable = (reason: string) => new UpstreamError(`espeak-ng: ${reason}`, 503, false);

// espeak-ng is one global, non-re-entrant state per process: every call goes through this chain.
let queue: Promise<unknown> = Promise.resolve();
function serialised<T>(work: () => T): Promise<T> {
  const run = queue.then(work);
  queue = run.catch(() => undefined);
  return run;
}

export class EspeakEngine implements VoiceEngine {
  readonly id = ESPEAK_PROVIDER;
  readonly ready = true;
  private readonly rows: EspeakVoiceRow[];
  private readonly byId: Map<string, EspeakVoiceRow>;
  /** The worker synthesising, when `thread` is on (null: this thread). */
  thread: EspeakThread | null;

  private constructor(
    private readonly backendImpl: EspeakBackend,
    private readonly options: Required<EspeakEngineOptions>,
    /** Milliseconds `load()` took. */
    readonly loadMs: number,
  ) {
    this.rows = espeakVoiceRows(backendImpl.listVoices(), options.femaleVariant);
    this.byId = new Map(this.rows.map((r) => [r.id, r]));
    this.thread = options.thread && canThread() ? new EspeakThread({ ...options, backend: backendImpl.kind }) : null;
  }

  /** Throws UpstreamError(503) when neither the library nor the WASM package can be started. */
  static async load(options: EspeakEngineOptions = {}): Promise<EspeakEngine> {
    const opts = { ...DEFAULTS, ...options } as Required<EspeakEngineOptions>;
    const started = performance.now();
    const failures: string[] = [];
    let backend: EspeakBackend | null = null;
    if (opts.backend !== "wasm") {
      try {
        backend = await serialised(() => openNativeEspeak(opts.libraryPath, opts.dataPath));
      } catch (err) {
        failures.push(`${opts.libraryPath}: ${message(err)}`);
      }
    }
    if (!backend && opts.backend !== "native") {
      try {
        backend = await openWasmEspeak(opts.wasmModule);
      } catch (err) {
        failures.push(`${opts.wasmModule}: ${message(err)}`);
      }
    }
    if (!backend) throw unavailable(`engine could not be loaded (${failures.join("; ")})`);
    const engine = new EspeakEngine(backend, opts, performance.now() - started);
    if (engine.rows.length === 0) throw unavailable("the engine lists no voices (is espeak-ng-data installed?)");
    // A worker that cannot start leaves synthesis on this thread (slower for the media clock, not wrong).
    await engine.thread?.start().catch(() => (engine.thread = null));
    return engine;
  }

  /** Which espeak build answered: the native library or the WASM package. */
  get backend(): "native" | "wasm" {
    return this.backendImpl.kind;
  }

  get sampleRate(): number {
    return this.backendImpl.sampleRate;
  }

  get defaultVoiceId(): string {
    return this.options.defaultVoice;
  }

  voices(): EspeakVoiceRow[] {
    return this.rows.slice();
  }

  /** The row for a row id or an espeak identifier; undefined when unknown. */
  voice(idOrIdentifier: string): EspeakVoiceRow | undefined {
    const key = idOrIdentifier.toLowerCase();
    return this.byId.get(key) ?? this.rows.find((r) => r.identifier.toLowerCase() === key);
  }

  /** "Language of a call": keep, else same gender, else lowest id; null when none speaks it. */
  voiceForLanguage(lang: string, currentVoice?: string | null): EspeakVoiceRow | null {
    const current = currentVoice ? (this.voice(currentVoice)?.id ?? null) : null;
    return voiceForLanguage(this.rows, lang, current) as EspeakVoiceRow | null;
  }

  synthesize(text: string, options: SynthesizeOptions = {}): Promise<Utterance> {
    const sampleRate = this.backendImpl.sampleRate;
    if (text.trim() === "") {
      return Promise.resolve({ pcm: new Int16Array(0), sampleRate, phonemes: [], words: [], durationMs: 0 });
    }
    if (this.thread) return this.thread.synthesize(text, options);
    const wanted = options.voice ?? this.options.defaultVoice;
    // Known rows map to espeak identifiers; anything else is tried as an espeak name.
    const name = this.voice(wanted)?.identifier ?? wanted;
    const wpm = clamp(ESPEAK_DEFAULT_WPM * factor(options.rate), 80, 450);
    const pitch = clamp(ESPEAK_DEFAULT_PITCH * factor(options.pitch), 0, 99);
    return serialised(() => {
      const b = this.backendImpl;
      if (!b.setVoice(name)) throw new UpstreamError(`espeak-ng has no voice "${wanted}"`, 404, false);
      b.setRate(wpm);
      b.setPitch(pitch);
      const chunks: Int16Array[] = [];
      const events: EspeakRawEvent[] = [];
      try {
        b.synth(text, this.options.endPause, (pcm, evs) => {
          if (pcm.length > 0) chunks.push(pcm);
          events.push(...evs);
        });
      } catch (err) {
        throw unavailable(`synthesis failed (${message(err)})`);
      }
      return buildUtterance(text, chunks, events, sampleRate);
    });
  }
}

const factor = (v: number | undefined) => (v !== undefined && Number.isFinite(v) && v > 0 ? v : 1);
const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
