// An incremental RIFF/WAVE reader (pure core, no I/O): bytes go in as they arrive, s16 mono PCM
// comes out. Chatterbox's streamed `/tts` sends one header whose RIFF and data sizes are unknown
// or oversized, then PCM blocks (docs/providers.md §3.1), so sizes are trusted only when asked and
// plausible. 16-bit PCM and 32-bit float, any channel count (averaged to mono).

export class NotWavError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotWavError";
  }
}

interface Format {
  float: boolean;
  channels: number;
  rate: number;
  bytesPerSample: number;
}

// A data size of 0 or near 4 GiB is a placeholder written before the length was known.
const PLACEHOLDER_SIZE = 0x7fff0000;
const MAX_HEADER = 64 * 1024;

export class WavStreamDecoder {
  private head: Uint8Array = new Uint8Array(0);
  private format: Format | null = null;
  private inData = false;
  /** PCM bytes still expected in the data chunk (Infinity when its size is not trusted). */
  private dataLeft = Infinity;
  /** Bytes of a partial frame carried to the next push. */
  private carry: Uint8Array = new Uint8Array(0);

  constructor(private readonly trustSizes = false) {}

  /** Set once the header has been read. */
  get sampleRate(): number | null {
    return this.inData && this.format ? this.format.rate : null;
  }

  /** Feeds bytes; answers the PCM they complete (empty while the header is still arriving). */
  push(bytes: Uint8Array): Int16Array {
    if (this.inData) return this.samples(bytes);
    this.head = concat(this.head, bytes);
    const start = this.readHeader();
    if (start < 0) {
      if (this.head.length > MAX_HEADER) throw new NotWavError("the WAVE header never ends");
      return new Int16Array(0);
    }
    const rest = this.head.subarray(start);
    this.head = new Uint8Array(0);
    return this.samples(rest);
  }

  /** At the end of the body: throws when no header came at all. */
  end(): void {
    if (this.inData) return;
    if (this.head.length === 0) throw new NotWavError("the answer was empty");
    this.readHeader();
    throw new NotWavError("the answer ended inside the WAVE header");
  }

  /** Offset of the first PCM byte once the data chunk is reached, else -1. */
  private readHeader(): number {
    const b = this.head;
    const tag = (o: number) => String.fromCharCode(b[o], b[o + 1], b[o + 2], b[o + 3]);
    checkMagic(b);
    if (b.length < 12) return -1;
    const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    let off = 12;
    while (off + 8 <= b.length) {
      const id = tag(off);
      const size = v.getUint32(off + 4, true);
      const body = off + 8;
      if (id === "data") {
        if (!this.format) throw new NotWavError("the WAVE data came before its format");
        this.inData = true;
        if (this.trustSizes && size > 0 && size < PLACEHOLDER_SIZE) this.dataLeft = size;
        return body;
      }
      if (body + size > b.length) return -1; // wait for the rest of this chunk
      if (id === "fmt ") this.format = readFormat(v, body, size);
      off = body + size + (size & 1);
    }
    return -1;
  }

  private samples(bytes: Uint8Array): Int16Array {
    const f = this.format!;
    let take = bytes;
    if (this.dataLeft !== Infinity) {
      take = bytes.subarray(0, Math.min(bytes.length, this.dataLeft));
      this.dataLeft -= take.length;
    }
    const all = this.carry.length ? concat(this.carry, take) : take;
    const frameBytes = f.bytesPerSample * f.channels;
    const frames = Math.floor(all.length / frameBytes);
    this.carry = all.slice(frames * frameBytes);
    const v = new DataView(all.buffer, all.byteOffset, all.byteLength);
    const out = new Int16Array(frames);
    for (let i = 0; i < frames; i++) {
      let sum = 0;
      for (let c = 0; c < f.channels; c++) {
        const at = (i * f.channels + c) * f.bytesPerSample;
        sum += f.float ? clampS16(v.getFloat32(at, true) * 32767) : v.getInt16(at, true);
      }
      out[i] = Math.round(sum / f.channels);
    }
    return out;
  }
}

function readFormat(v: DataView, body: number, size: number): Format {
  if (size < 16) throw new NotWavError("the WAVE format chunk is too short");
  let code = v.getUint16(body, true);
  const channels = v.getUint16(body + 2, true);
  const rate = v.getUint32(body + 4, true);
  const bits = v.getUint16(body + 14, true);
  // WAVE_FORMAT_EXTENSIBLE: the real code is the first two bytes of the sub-format GUID.
  if (code === 0xfffe && size >= 26) code = v.getUint16(body + 24, true);
  const pcm16 = code === 1 && bits === 16;
  const float32 = code === 3 && bits === 32;
  if (!pcm16 && !float32) throw new NotWavError(`the WAVE audio is neither 16-bit PCM nor 32-bit float (format ${code}, ${bits} bits)`);
  if (channels < 1 || rate < 1) throw new NotWavError("the WAVE format names no channels or no rate");
  return { float: float32, channels, rate, bytesPerSample: bits / 8 };
}

function checkMagic(b: Uint8Array): void {
  const ok = (prefixOf(b, "RIFF") || prefixOf(b, "RF64")) && (b.length < 12 || String.fromCharCode(b[8], b[9], b[10], b[11]) === "WAVE");
  if (!ok) throw new NotWavError("the answer is not a WAVE file");
}

/** True when `b` starts like `s` (as far as `b` goes). */
function prefixOf(b: Uint8Array, s: string): boolean {
  for (let i = 0; i < Math.min(b.length, s.length); i++) if (b[i] !== s.charCodeAt(i)) return false;
  return true;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b.slice();
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

const clampS16 = (x: number) => Math.max(-32768, Math.min(32767, Math.round(x)));
