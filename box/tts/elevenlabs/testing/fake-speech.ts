// The fake's "voice": a buzz with a moving pitch for letters and silence for spaces, `msPerChar`
// per character, cut into `/stream/with-timestamps` lines (docs/providers.md 1.2: snake_case keys,
// seconds, times absolute within the request, `normalized_alignment` beside `alignment`).

export interface FakeSpeechOptions {
  sampleRate: number;
  msPerChar: number;
  charsPerLine: number;
  /** Moves each line's last byte into the next line, so a sample straddles two lines. */
  oddByteSplit?: boolean;
  /** Restarts times at 0 on every line (what the WebSocket does; HTTP does not). */
  relativeTimes?: boolean;
}

export interface FakeSpeechLine {
  audio_base64: string;
  alignment: { characters: string[]; character_start_times_seconds: number[]; character_end_times_seconds: number[] };
  normalized_alignment: FakeSpeechLine["alignment"];
}

/** Samples of the whole utterance (s16). */
export function fakeSpeechPcm(chars: string[], sampleRate: number, samplesPerChar: number): Int16Array {
  const pcm = new Int16Array(chars.length * samplesPerChar);
  let phase = 0;
  for (let c = 0; c < chars.length; c++) {
    const ch = chars[c];
    if (ch.trim() === "") continue; // a pause between words
    const loud = /[aeiouy]/i.test(ch) ? 9000 : 4000;
    for (let i = 0; i < samplesPerChar; i++) {
      const n = c * samplesPerChar + i;
      const f0 = 120 + 30 * Math.sin((2 * Math.PI * n) / sampleRate);
      phase += (2 * Math.PI * f0) / sampleRate;
      const env = Math.sin((Math.PI * (i + 0.5)) / samplesPerChar);
      const wave = Math.sin(phase) + 0.5 * Math.sin(2 * phase) + 0.25 * Math.sin(3 * phase);
      pcm[n] = Math.round((loud * env * wave) / 1.75);
    }
  }
  return pcm;
}

export function fakeSpeechLines(text: string, o: FakeSpeechOptions): FakeSpeechLine[] {
  const chars = Array.from(text);
  const samplesPerChar = Math.max(1, Math.round((o.sampleRate * o.msPerChar) / 1000));
  const pcm = fakeSpeechPcm(chars, o.sampleRate, samplesPerChar);
  const bytes = new Uint8Array(pcm.buffer);
  const secs = (sample: number) => Math.round((sample / o.sampleRate) * 1000) / 1000;
  const lines: FakeSpeechLine[] = [];
  const perLine = Math.max(1, o.charsPerLine);
  for (let first = 0; first < chars.length; first += perLine) {
    const part = chars.slice(first, first + perLine);
    const last = first + part.length === chars.length;
    const shift = o.relativeTimes ? first * samplesPerChar : 0;
    const alignment = {
      characters: part,
      character_start_times_seconds: part.map((_, i) => secs((first + i) * samplesPerChar - shift)),
      character_end_times_seconds: part.map((_, i) => secs((first + i + 1) * samplesPerChar - shift)),
    };
    let from = first * samplesPerChar * 2;
    let to = (first + part.length) * samplesPerChar * 2;
    if (o.oddByteSplit) {
      if (first > 0) from -= 1;
      if (!last) to -= 1;
    }
    lines.push({
      audio_base64: Buffer.from(bytes.subarray(from, to)).toString("base64"),
      alignment,
      normalized_alignment: alignment,
    });
  }
  return lines;
}
