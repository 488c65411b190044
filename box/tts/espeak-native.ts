// Implements: docs/architecture.md "Text to speech with timings": Debian's libespeak-ng.so.1 through
// koffi, synchronous output mode, phoneme events in IPA (~10 ms per sentence).
// espeak-ng keeps one global state per process, so one backend per library file is shared.
import koffi, { type LibraryHandle, type TypeObject } from "koffi";
import type { EspeakBackend, EspeakChunkSink, EspeakRawVoice } from "./espeak-backend.ts";
import { eventKind, type EspeakRawEvent } from "./espeak-events.ts";

export const DEFAULT_ESPEAK_LIBRARY = "/usr/lib/x86_64-linux-gnu/libespeak-ng.so.1";

// speak_lib.h constants.
const AUDIO_OUTPUT_SYNCHRONOUS = 2;
const INIT_PHONEME_EVENTS = 0x0001;
const INIT_PHONEME_IPA = 0x0002;
const INIT_DONT_EXIT = 0x8000; // without it a missing data folder calls exit()
const CHARS_UTF8 = 1;
const ENDPAUSE = 0x1000;
const POS_CHARACTER = 1;
const PARAM_RATE = 1;
const PARAM_PITCH = 3;
const BUFFER_MS = 200; // fewer, larger callbacks
const EE_ERRORS: Record<number, string> = { [-1]: "internal error", 1: "buffer full", 2: "not found" };

type NativeFn = ReturnType<LibraryHandle["func"]>;
interface Types {
  event: TypeObject;
  voice: TypeObject;
  callback: TypeObject;
}

// koffi names types globally: define them once per process.
let types: Types | null = null;
function defineTypes(): Types {
  if (types) return types;
  const id = koffi.union("espeak_EVENT_ID", { number: "int", name: "const char *", string: koffi.array("uint8", 8) });
  const event = koffi.struct("espeak_EVENT", {
    type: "int",
    unique_identifier: "uint",
    text_position: "int",
    length: "int",
    audio_position: "int",
    sample: "int",
    user_data: "void *",
    id,
  });
  const voice = koffi.struct("espeak_VOICE", {
    name: "const char *",
    languages: "void *", // (priority byte, NUL-terminated name)* then a 0 byte
    identifier: "const char *",
    gender: "uint8",
    age: "uint8",
    variant: "uint8",
    xx1: "uint8",
    score: "int",
    spare: "void *",
  });
  const callback = koffi.proto("int espeak_SynthCallback(void *wav, int numsamples, void *events)");
  types = { event, voice, callback };
  return types;
}

interface EventStruct {
  type: number;
  text_position: number;
  length: number;
  audio_position: number;
  id: { string: ArrayLike<number> };
}

interface VoiceStruct {
  name: string;
  languages: bigint | null;
  identifier: string;
  gender: number;
}

class NativeEspeak implements EspeakBackend {
  readonly kind = "native";
  private sink: EspeakChunkSink | null = null;
  private failure: unknown = null;

  private constructor(
    readonly sampleRate: number,
    readonly version: string,
    private readonly fns: Record<string, NativeFn>,
    private readonly types: Types,
  ) {}

  static open(libraryPath: string, dataPath: string | null): NativeEspeak {
    const types = defineTypes();
    const lib = koffi.load(libraryPath);
    const fns = {
      initialize: lib.func("int espeak_Initialize(int output, int buflength, const char *path, int options)"),
      setCallback: lib.func("void espeak_SetSynthCallback(espeak_SynthCallback *cb)"),
      setVoiceByName: lib.func("int espeak_SetVoiceByName(const char *name)"),
      setParameter: lib.func("int espeak_SetParameter(int parameter, int value, int relative)"),
      synth: lib.func(
        "int espeak_Synth(const char *text, size_t size, uint position, int position_type, uint end_position, uint flags, void *unique_identifier, void *user_data)",
      ),
      listVoices: lib.func("void *espeak_ListVoices(void *voice_spec)"),
      info: lib.func("const char *espeak_Info(void *path_data)"),
    };
    const rate = fns.initialize(
      AUDIO_OUTPUT_SYNCHRONOUS,
      BUFFER_MS,
      dataPath,
      INIT_PHONEME_EVENTS | INIT_PHONEME_IPA | INIT_DONT_EXIT,
    ) as number;
    if (rate <= 0) throw new Error(`espeak_Initialize failed (${rate}); is espeak-ng-data installed?`);
    const engine = new NativeEspeak(rate, String(fns.info(null) ?? ""), fns, types);
    // Registered once for the life of the process: espeak keeps the pointer.
    const cb = koffi.register(
      (wav: bigint | null, n: number, events: bigint | null) => engine.onChunk(wav, n, events),
      koffi.pointer(types.callback),
    );
    fns.setCallback(cb);
    return engine;
  }

  private onChunk(wav: bigint | null, n: number, eventsPtr: bigint | null): number {
    try {
      const pcm = wav && n > 0 ? new Int16Array(koffi.view(wav, n * 2).slice(0)) : new Int16Array(0);
      const events: EspeakRawEvent[] = [];
      const size = koffi.sizeof(this.types.event);
      for (let off = 0; eventsPtr; off += size) {
        const e = koffi.decode(eventsPtr, off, this.types.event) as EventStruct;
        if (e.type === 0) break; // espeakEVENT_LIST_TERMINATED
        const kind = eventKind(e.type);
        events.push({
          kind,
          audioMs: e.audio_position,
          textPosition: e.text_position,
          length: e.length,
          name: kind === "phoneme" ? Buffer.from(Array.from(e.id.string)).toString("utf8") : undefined,
        });
      }
      this.sink?.(pcm, events);
      return 0;
    } catch (err) {
      this.failure = err;
      return 1; // non-zero aborts the synthesis
    }
  }

  listVoices(): EspeakRawVoice[] {
    const list = this.fns.listVoices(null) as bigint | null;
    const out: EspeakRawVoice[] = [];
    for (let i = 0; list; i++) {
      const p = koffi.decode(list, i * 8, "void *") as bigint | null;
      if (!p) break;
      const v = koffi.decode(p, this.types.voice) as VoiceStruct;
      const languages: EspeakRawVoice["languages"] = [];
      for (let off = 0; v.languages; ) {
        const priority = koffi.decode(v.languages, off, "uint8") as number;
        if (priority === 0) break;
        const name = koffi.decode.string(v.languages + BigInt(off + 1));
        languages.push({ priority, name });
        off += 1 + Buffer.byteLength(name) + 1;
      }
      out.push({ name: v.name, identifier: v.identifier, gender: v.gender, languages });
    }
    return out;
  }

  setVoice(identifier: string): boolean {
    return this.fns.setVoiceByName(identifier) === 0;
  }

  setRate(wpm: number): void {
    this.fns.setParameter(PARAM_RATE, Math.round(wpm), 0);
  }

  setPitch(pitch: number): void {
    this.fns.setParameter(PARAM_PITCH, Math.round(pitch), 0);
  }

  synth(text: string, endPause: boolean, sink: EspeakChunkSink): void {
    this.sink = sink;
    this.failure = null;
    try {
      const flags = CHARS_UTF8 | (endPause ? ENDPAUSE : 0);
      const rc = this.fns.synth(text, Buffer.byteLength(text) + 1, 0, POS_CHARACTER, 0, flags, null, null) as number;
      if (this.failure) throw this.failure;
      if (rc !== 0) throw new Error(`espeak_Synth: ${EE_ERRORS[rc] ?? `error ${rc}`}`);
    } finally {
      this.sink = null;
    }
  }
}

const opened = new Map<string, NativeEspeak>();

/** Throws when the library or its data cannot be loaded. */
export function openNativeEspeak(libraryPath = DEFAULT_ESPEAK_LIBRARY, dataPath: string | null = null): EspeakBackend {
  let engine = opened.get(libraryPath);
  if (!engine) {
    engine = NativeEspeak.open(libraryPath, dataPath);
    opened.set(libraryPath, engine);
  }
  return engine;
}
