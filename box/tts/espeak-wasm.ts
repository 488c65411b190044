// Implements: the fallback of docs/architecture.md "Text to speech with timings": the npm WASM build
// `@echogarden/espeak-ng-emscripten` (~50-120 ms to load, ~150 ms per sentence; same events).
import type { EspeakBackend, EspeakChunkSink, EspeakRawVoice } from "./espeak-backend.ts";
import type { EspeakEventKind, EspeakRawEvent } from "./espeak-events.ts";

export const DEFAULT_ESPEAK_WASM_MODULE = "@echogarden/espeak-ng-emscripten";

interface WasmEvent {
  type: string;
  text_position: number;
  word_length: number;
  audio_position: number;
  id?: string | number;
}

interface WasmWorker {
  list_voices(): { name: string; identifier: string; languages: { priority: number; name: string }[] }[];
  set_voice(name: string): number;
  set_rate(wpm: number): void;
  set_pitch(pitch: number): void;
  get_samplerate(): number;
  synthesize(text: string, cb: (pcm: Int16Array, events: WasmEvent[]) => number | boolean | undefined): void;
}

const KINDS: Record<string, EspeakEventKind> = { word: "word", sentence: "sentence", phoneme: "phoneme", end: "end" };

class WasmEspeak implements EspeakBackend {
  readonly kind = "wasm";
  readonly version = "wasm";

  constructor(
    private readonly worker: WasmWorker,
    readonly sampleRate: number,
  ) {}

  listVoices(): EspeakRawVoice[] {
    // The WASM build reports no gender; espeak's language voices are male (the native
    // library reports 1 for every one of them).
    return this.worker.list_voices().map((v) => ({
      name: v.name,
      identifier: v.identifier,
      gender: 1,
      languages: v.languages.map((l) => ({ priority: l.priority, name: l.name })),
    }));
  }

  setVoice(identifier: string): boolean {
    return this.worker.set_voice(identifier) === 0;
  }

  setRate(wpm: number): void {
    this.worker.set_rate(Math.round(wpm));
  }

  setPitch(pitch: number): void {
    this.worker.set_pitch(Math.round(pitch));
  }

  // The WASM build fixes its own synthesis flags: `endPause` cannot be chosen here.
  synth(text: string, _endPause: boolean, sink: EspeakChunkSink): void {
    let failure: unknown = null;
    this.worker.synthesize(text, (pcm, events) => {
      try {
        const raw: EspeakRawEvent[] = events.map((e) => {
          const kind = KINDS[e.type] ?? "other";
          return {
            kind,
            audioMs: e.audio_position,
            textPosition: e.text_position,
            length: e.word_length,
            name: kind === "phoneme" ? String(e.id ?? "") : undefined,
          };
        });
        sink(Int16Array.from(pcm), raw);
        return 0;
      } catch (err) {
        failure = err;
        return 1;
      }
    });
    if (failure) throw failure;
  }
}

const loaded = new Map<string, Promise<EspeakBackend>>();

/** Throws when the package is missing or fails to start. */
export function openWasmEspeak(moduleSpecifier = DEFAULT_ESPEAK_WASM_MODULE): Promise<EspeakBackend> {
  let p = loaded.get(moduleSpecifier);
  if (!p) {
    p = (async () => {
      const mod = (await import(moduleSpecifier)) as { default: () => Promise<{ eSpeakNGWorker: new () => WasmWorker }> };
      const m = await mod.default();
      const worker = new m.eSpeakNGWorker();
      return new WasmEspeak(worker, worker.get_samplerate());
    })();
    p.catch(() => loaded.delete(moduleSpecifier));
    loaded.set(moduleSpecifier, p);
  }
  return p;
}
