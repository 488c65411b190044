// Implements: the binding of docs/architecture.md "Speech recognition offline": Debian's pocketsphinx
// 5prealpha (libpocketsphinx.so.3 + libsphinxbase.so.3) through koffi. Long calls (ps_init,
// ps_process_raw, ps_end_utt, ps_get_hyp) run on koffi's worker threads so the event loop keeps its frames.
import koffi from "koffi";

type NativeFn = ReturnType<ReturnType<typeof koffi.load>["func"]>;
/** An opaque C pointer as koffi gives it. */
export type Pointer = unknown;

export interface DecoderConfig {
  hmm: string;
  dict: string;
  /** Omitted for a grammar-only decoder (with -lm the language model would win over -jsgf). */
  lm?: string;
}

export class PocketsphinxNative {
  private constructor(private readonly fns: Record<string, NativeFn>) {}

  /** Throws when a library cannot be loaded. */
  static open(libraryPath: string, sphinxbasePath: string, log: boolean): PocketsphinxNative {
    const sb = koffi.load(sphinxbasePath);
    const ps = koffi.load(libraryPath);
    const fns: Record<string, NativeFn> = {
      setLogfp: sb.func("void err_set_logfp(void *fp)"),
      // Variadic, NULL-terminated name/value pairs.
      cmdLnInit: sb.func("void *cmd_ln_init(void *inout, void *defn, int strict, ...)"),
      cmdLnFree: sb.func("int cmd_ln_free_r(void *cmdln)"),
      ckdFree: sb.func("void ckd_free(void *ptr)"),
      args: ps.func("void *ps_args()"),
      init: ps.func("void *ps_init(void *config)"),
      free: ps.func("int ps_free(void *ps)"),
      startUtt: ps.func("int ps_start_utt(void *ps)"),
      processRaw: ps.func("int ps_process_raw(void *ps, const int16_t *data, size_t n, int no_search, int full_utt)"),
      endUtt: ps.func("int ps_end_utt(void *ps)"),
      getHyp: ps.func("const char *ps_get_hyp(void *ps, _Out_ int32_t *score)"),
      inSpeech: ps.func("uint8_t ps_get_in_speech(void *ps)"),
      setJsgf: ps.func("int ps_set_jsgf_string(void *ps, const char *name, const char *jsgf)"),
      setSearch: ps.func("int ps_set_search(void *ps, const char *name)"),
      getSearch: ps.func("const char *ps_get_search(void *ps)"),
      // Returns a malloc'd pronunciation (freed with ckd_free) or NULL.
      lookupWord: ps.func("void *ps_lookup_word(void *ps, const char *word)"),
    };
    // Without this, every decoder prints its whole configuration and model loading to stderr.
    if (!log) fns.setLogfp(null);
    return new PocketsphinxNative(fns);
  }

  /** A decoder; off the event loop (loading the models takes ~0.4-0.6 s). Throws when ps_init fails. */
  async createDecoder(config: DecoderConfig): Promise<Pointer> {
    const pairs: unknown[] = ["-hmm", config.hmm, "-dict", config.dict];
    if (config.lm) pairs.push("-lm", config.lm);
    const variadic = [...pairs, null].flatMap((value) => ["str", value]);
    const cmdln = this.fns.cmdLnInit(null, this.fns.args(), 1, ...variadic);
    if (!cmdln) throw new Error("cmd_ln_init refused the configuration");
    try {
      const decoder = await callAsync(this.fns.init, cmdln);
      if (!decoder) throw new Error(`ps_init failed (hmm ${config.hmm}, dict ${config.dict}, lm ${config.lm ?? "none"})`);
      return decoder;
    } finally {
      this.fns.cmdLnFree(cmdln); // ps_init holds its own reference
    }
  }

  freeDecoder(decoder: Pointer): void {
    this.fns.free(decoder);
  }

  startUtt(decoder: Pointer): void {
    check(this.fns.startUtt(decoder) as number, "ps_start_utt");
  }

  /** `samples` must stay untouched until the promise settles. */
  async processRaw(decoder: Pointer, samples: Int16Array): Promise<void> {
    check((await callAsync(this.fns.processRaw, decoder, samples, samples.length, 0, 0)) as number, "ps_process_raw");
  }

  async endUtt(decoder: Pointer): Promise<void> {
    check((await callAsync(this.fns.endUtt, decoder)) as number, "ps_end_utt");
  }

  /** Off the event loop: after ps_end_utt with a language model it runs the lattice search (~15 ms). */
  async hyp(decoder: Pointer): Promise<string> {
    return String((await callAsync(this.fns.getHyp, decoder, [0])) ?? "");
  }

  inSpeech(decoder: Pointer): boolean {
    return Boolean(this.fns.inSpeech(decoder));
  }

  /** Adds a JSGF search under `name`; false when the grammar does not compile. */
  addJsgf(decoder: Pointer, name: string, jsgf: string): boolean {
    return (this.fns.setJsgf(decoder, name, jsgf) as number) >= 0;
  }

  setSearch(decoder: Pointer, name: string): boolean {
    return (this.fns.setSearch(decoder, name) as number) >= 0;
  }

  search(decoder: Pointer): string {
    return String(this.fns.getSearch(decoder) ?? "");
  }

  hasWord(decoder: Pointer, word: string): boolean {
    const pron = this.fns.lookupWord(decoder, word);
    if (!pron) return false;
    this.fns.ckdFree(pron);
    return true;
  }
}

function check(rc: number, call: string): void {
  if (rc < 0) throw new Error(`${call} failed (${rc})`);
}

function callAsync(fn: NativeFn, ...args: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) => fn.async(...args, (err: unknown, result: unknown) => (err ? reject(err) : resolve(result))));
}
