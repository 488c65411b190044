// Minimal RIFF/WAVE (PCM s16le) reader and writer for clips on the volume.

export function encodeWav(pcm: Int16Array, sampleRate: number, channels = 1): Uint8Array {
  const data = pcm.length * 2;
  const buf = new ArrayBuffer(44 + data);
  const v = new DataView(buf);
  const str = (o: number, s: string) => [...s].forEach((c, i) => v.setUint8(o + i, c.charCodeAt(0)));
  str(0, "RIFF");
  v.setUint32(4, 36 + data, true);
  str(8, "WAVE");
  str(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, channels, true);
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * channels * 2, true);
  v.setUint16(32, channels * 2, true);
  v.setUint16(34, 16, true);
  str(36, "data");
  v.setUint32(40, data, true);
  new Int16Array(buf, 44).set(pcm);
  return new Uint8Array(buf);
}

/** PCM s16le mono (stereo is averaged); throws on anything else. */
export function decodeWav(bytes: Uint8Array): { pcm: Int16Array; sampleRate: number } {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (o: number) => String.fromCharCode(...bytes.subarray(o, o + 4));
  if (bytes.length < 12 || tag(0) !== "RIFF" || tag(8) !== "WAVE") throw new Error("not a WAVE file");
  let off = 12;
  let fmt: { channels: number; rate: number; bits: number; format: number } | null = null;
  while (off + 8 <= bytes.length) {
    const id = tag(off);
    const size = v.getUint32(off + 4, true);
    const body = off + 8;
    if (id === "fmt ")
      fmt = {
        format: v.getUint16(body, true),
        channels: v.getUint16(body + 2, true),
        rate: v.getUint32(body + 4, true),
        bits: v.getUint16(body + 14, true),
      };
    if (id === "data") {
      if (fmt?.format !== 1 || fmt.bits !== 16) throw new Error("only 16-bit PCM WAVE is supported");
      const n = Math.floor(Math.min(size, bytes.length - body) / 2);
      const all = new Int16Array(n);
      for (let i = 0; i < n; i++) all[i] = v.getInt16(body + i * 2, true);
      if (fmt.channels === 1) return { pcm: all, sampleRate: fmt.rate };
      const frames = Math.floor(n / fmt.channels);
      const mono = new Int16Array(frames);
      for (let i = 0; i < frames; i++) {
        let s = 0;
        for (let c = 0; c < fmt.channels; c++) s += all[i * fmt.channels + c];
        mono[i] = Math.round(s / fmt.channels);
      }
      return { pcm: mono, sampleRate: fmt.rate };
    }
    off = body + size + (size & 1);
  }
  throw new Error("WAVE file has no data chunk");
}
