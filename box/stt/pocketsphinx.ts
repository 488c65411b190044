// Implements: the embedded offline speech recognition default (docs/architecture.md "Speech recognition
// offline": pocketsphinx + pocketsphinx-en-us through koffi) behind the AsrEngine seam of
// "Voice socket `WSS /api/voice/ws`". Weak on open speech; exact with a JSGF grammar.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { ASR_SAMPLE_RATE, AsrStreamBase, asrUnavailable, asUpstream, type AsrEngine, type AsrStartOptions, type AsrStream } from "./asr.ts";
import { PocketsphinxNative, type Pointer } from "./pocketsphinx-native.ts";

export const POCKETSPHINX_ID = "pocketsphinx";
const MODEL_DIR = "/usr/share/pocketsphinx/model/en-us";
const DEFAULT_SEARCH = "_default"; // the language model's search (PS_DEFAULT_SEARCH)

export interface PocketsphinxOptions {
  libraryPath?: string;
  sphinxbasePath?: string;
  /** Acoustic model folder. */
  hmm?: string;
  /** Language model; used when a stream has no grammar. */
  lm?: string;
  dict?: string;
  /** Audio handed to the decoder per call. */
  chunkMs?: number;
  /** Settle an utterance when the decoder's own voice detector hears it end (~0.5 s of silence). */
  endpointing?: boolean;
  /** Let pocketsphinx write its logs to stderr. */
  log?: boolean;
  /** Decoders kept loaded between streams (loading one takes ~0.5 s). */
  idleDecoders?: number;
}

const DEFAULTS: Required<PocketsphinxOptions> = {
  libraryPath: "/usr/lib/x86_64-linux-gnu/libpocketsphinx.so.3",
  sphinxbasePath: "/usr/lib/x86_64-linux-gnu/libsphinxbase.so.3",
  hmm: `${MODEL_DIR}/en-us`,
  lm: `${MODEL_DIR}/en-us.lm.bin`,
  dict: `${MODEL_DIR}/cmudict-en-us.dict`,
  chunkMs: 100,
  endpointing: true,
  log: false,
  idleDecoders: 1,
};

/** The files pocketsphinx needs, and which of them are missing. */
export function missingFiles(options: PocketsphinxOptions = {}): string[] {
  const o = { ...DEFAULTS, ...options };
  return [o.libraryPath, o.sphinxbasePath, `${o.hmm}/mdef`, o.lm, o.dict].filter((p) => !existsSync(p));
}

export function isInstalled(options: PocketsphinxOptions = {}): boolean {
  return missingFiles(options).length === 0;
}

/** Expected sentences → a JSGF grammar of them and the words it uses (lower case, letters and '). */
export function grammarToJsgf(sentences: readonly string[]): { jsgf: string; words: string[] } {
  const lines = sentences
    .map((s) =>
      s
        .toLowerCase()
        .replace(/[^\p{L}']+/gu, " ")
        .replace(/(^|\s)'+|'+(?=\s|$)/g, "$1")
        .trim()
        .replace(/\s+/g, " "),
    )
    .filter(Boolean);
  if (!lines.length) throw new Error("the grammar has no words");
  const words = [...new Set(lines.flatMap((l) => l.split(" ")))];
  return { jsgf: `#JSGF V1.0;\ngrammar box;\npublic <utterance> = ${[...new Set(lines)].join(" | ")};\n`, words };
}

interface Decoder {
  handle: Pointer;
  /** JSGF searches already added, by grammar text. */
  searches: Map<string, string>;
}

export class PocketsphinxEngine implements AsrEngine {
  readonly id = POCKETSPHINX_ID;
  private readonly o: Required<PocketsphinxOptions>;
  private native: PocketsphinxNative | null = null;
  private readonly idle: Decoder[] = [];
  /** Streams closing: their decoders come back to the pool when these settle. */
  private readonly returning = new Set<Promise<void>>();
  private loaded = 0;

  constructor(options: PocketsphinxOptions = {}) {
    this.o = { ...DEFAULTS, ...options };
  }

  /** Loads one decoder ahead of the first stream; throws UpstreamError(503) as start() would. */
  async warm(): Promise<void> {
    if (this.idle.length) return;
    this.release(await this.acquire());
  }

  async start(options: AsrStartOptions): Promise<AsrStream> {
    if (options.sampleRate !== ASR_SAMPLE_RATE) throw asrUnavailable(this.id, `only ${ASR_SAMPLE_RATE} Hz audio`);
    if (options.language && !/^en(\b|[-_])/i.test(options.language)) {
      throw asrUnavailable(this.id, `no model for language "${options.language}" (only en-us is installed)`);
    }
    const decoder = await this.acquire();
    try {
      this.useSearch(decoder, options.grammar?.length ? options.grammar : null);
    } catch (err) {
      this.release(decoder); // a refused grammar leaves the decoder as it was
      throw asUpstream(this.id, err, 503, false);
    }
    try {
      this.native!.startUtt(decoder.handle);
    } catch (err) {
      this.discard(decoder);
      throw asUpstream(this.id, err, 503, false);
    }
    return new PocketsphinxStream(this.native!, decoder, this.o, {
      giveBack: (d, healthy) => (healthy ? this.release(d) : this.discard(d)),
      track: (ending) => {
        this.returning.add(ending);
        const done = () => void this.returning.delete(ending);
        ending.then(done, done);
      },
    });
  }

  /** Decoders created so far (each load reads the models: ~0.5 s). */
  get decodersLoaded(): number {
    return this.loaded;
  }

  /** Frees the idle decoders (streams still open keep theirs until they end). */
  dispose(): void {
    for (const d of this.idle.splice(0)) this.native?.freeDecoder(d.handle);
  }

  private async acquire(): Promise<Decoder> {
    // A stream that was just closed hands its decoder back within milliseconds: wait for it.
    if (!this.idle.length && this.returning.size) await Promise.allSettled([...this.returning]);
    const pooled = this.idle.pop();
    if (pooled) return pooled;
    const missing = missingFiles(this.o);
    if (missing.length) throw asrUnavailable(this.id, `not installed (missing ${missing.join(", ")})`);
    try {
      this.native ??= PocketsphinxNative.open(this.o.libraryPath, this.o.sphinxbasePath, this.o.log);
      const handle = await this.native.createDecoder({ hmm: this.o.hmm, dict: this.o.dict, lm: this.o.lm });
      this.loaded++;
      return { handle, searches: new Map() };
    } catch (err) {
      throw asUpstream(this.id, err, 503, false);
    }
  }

  private useSearch(decoder: Decoder, grammar: string[] | null): void {
    const native = this.native!;
    if (!grammar) {
      if (!native.setSearch(decoder.handle, DEFAULT_SEARCH)) throw new Error("the language model search is missing");
      return;
    }
    const { jsgf, words } = grammarToJsgf(grammar);
    let name = decoder.searches.get(jsgf);
    if (!name) {
      const unknown = words.filter((w) => !native.hasWord(decoder.handle, w));
      if (unknown.length) throw new Error(`grammar words not in the dictionary: ${unknown.join(", ")}`);
      name = `g${createHash("sha1").update(jsgf).digest("hex").slice(0, 12)}`;
      if (!native.addJsgf(decoder.handle, name, jsgf)) throw new Error("the grammar did not compile");
      decoder.searches.set(jsgf, name);
    }
    if (!native.setSearch(decoder.handle, name)) throw new Error(`search ${name} missing`);
  }

  private release(decoder: Decoder): void {
    if (this.idle.length < this.o.idleDecoders) this.idle.push(decoder);
    else this.discard(decoder);
  }

  private discard(decoder: Decoder): void {
    this.native?.freeDecoder(decoder.handle);
  }
}

class PocketsphinxStream extends AsrStreamBase {
  private readonly chunk: Int16Array;
  private filled = 0;
  private queue: Promise<void> = Promise.resolve();
  private heardSpeech = false;
  private failure: Error | null = null;
  private returned = false;
  /** The engine started the first utterance before handing the decoder over. */
  private inUtterance = true;

  constructor(
    private readonly native: PocketsphinxNative,
    private readonly decoder: Decoder,
    private readonly o: Required<PocketsphinxOptions>,
    private readonly pool: { giveBack: (decoder: Decoder, healthy: boolean) => void; track: (ending: Promise<void>) => void },
  ) {
    super();
    this.chunk = new Int16Array(Math.round((ASR_SAMPLE_RATE * o.chunkMs) / 1000));
  }

  write(pcm: Int16Array): void {
    if (this.state !== "open") return;
    let at = 0;
    while (at < pcm.length) {
      const n = Math.min(pcm.length - at, this.chunk.length - this.filled);
      this.chunk.set(pcm.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === this.chunk.length) this.flushChunk();
    }
  }

  async finish(): Promise<string> {
    if (this.state === "open") {
      this.state = "finishing";
      this.flushChunk();
      this.enqueue(() => this.endUtterance());
    }
    await this.queue;
    await this.end();
    if (this.failure) throw asUpstream(POCKETSPHINX_ID, this.failure, 502, false);
    return this.transcript();
  }

  finalize(): void {
    if (this.state !== "open") return;
    this.flushChunk();
    this.enqueue(async () => {
      if (!this.inUtterance) return;
      this.heardSpeech = false;
      await this.endUtterance();
      this.native.startUtt(this.decoder.handle);
      this.inUtterance = true;
    });
  }

  close(): void {
    if (this.state === "closed") return;
    this.state = "closed";
    this.pool.track(this.queue.then(() => this.end()));
  }

  private flushChunk(): void {
    if (!this.filled) return;
    const samples = this.chunk.slice(0, this.filled); // kept alive until the native call returns
    this.filled = 0;
    this.enqueue(() => this.decode(samples));
  }

  private async decode(samples: Int16Array): Promise<void> {
    const { native } = this;
    const ps = this.decoder.handle;
    await native.processRaw(ps, samples);
    if (this.state === "closed") return;
    this.partial(await native.hyp(ps));
    if (!this.o.endpointing) return;
    if (native.inSpeech(ps)) {
      this.heardSpeech = true;
    } else if (this.heardSpeech) {
      // The decoder's voice detector heard the utterance end: settle it and listen for the next.
      this.heardSpeech = false;
      await this.endUtterance();
      native.startUtt(ps);
      this.inUtterance = true;
    }
  }

  private async endUtterance(): Promise<void> {
    this.inUtterance = false;
    await this.native.endUtt(this.decoder.handle);
    this.settle(await this.native.hyp(this.decoder.handle));
  }

  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(async () => {
      if (this.failure || this.state === "closed") return;
      try {
        await work();
      } catch (err) {
        this.failure = err instanceof Error ? err : new Error(String(err));
        this.fail(asUpstream(POCKETSPHINX_ID, err, 502, false));
        await this.end(); // the failed decoder is freed, not pooled
      }
    });
  }

  /** Hands the decoder back once, after the last native call, with no utterance open. */
  private async end(): Promise<void> {
    this.state = "closed";
    if (this.returned) return;
    this.returned = true;
    let healthy = !this.failure;
    if (healthy && this.inUtterance) {
      try {
        await this.native.endUtt(this.decoder.handle);
      } catch {
        healthy = false;
      }
    }
    this.pool.giveBack(this.decoder, healthy);
  }
}
