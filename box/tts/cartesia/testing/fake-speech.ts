// What the fake Cartesia "says": 60 ms of audio per character of the transcript, a voiced tone
// (a 160 Hz carrier whose loudness rises and falls inside each word) with silence for the spaces,
// and word timings in seconds that match the samples exactly.

export const MS_PER_CHAR = 60;

export interface FakeWord {
  text: string;
  /** Seconds from the first sample, as Cartesia sends them. */
  start: number;
  end: number;
}

export interface FakeSpeech {
  pcm: Int16Array;
  words: FakeWord[];
}

export function speak(transcript: string, sampleRate: number, msPerChar = MS_PER_CHAR): FakeSpeech {
  const perChar = Math.round((sampleRate * msPerChar) / 1000);
  const pcm = new Int16Array(transcript.length * perChar);
  const words: FakeWord[] = [];
  for (const m of transcript.matchAll(/\S+/g)) {
    const first = m.index * perChar;
    const count = m[0].length * perChar;
    words.push({ text: m[0], start: first / sampleRate, end: (first + count) / sampleRate });
    for (let i = 0; i < count; i++) {
      const envelope = Math.sin((Math.PI * i) / count);
      const t = (first + i) / sampleRate;
      pcm[first + i] = Math.round(12000 * envelope * Math.sin(2 * Math.PI * 160 * t) * (0.8 + 0.2 * Math.sin(2 * Math.PI * 5 * t)));
    }
  }
  return { pcm, words };
}

/** Little-endian bytes of the samples. */
export function pcmBytes(pcm: Int16Array): Buffer {
  const out = Buffer.alloc(pcm.length * 2);
  for (let i = 0; i < pcm.length; i++) out.writeInt16LE(pcm[i], i * 2);
  return out;
}

/** Byte ranges of `chunkMs` each; `odd` shifts every cut by one byte so samples straddle chunks. */
export function chunkRanges(bytes: number, sampleRate: number, chunkMs: number, odd: boolean): Array<[number, number]> {
  const size = Math.max(2, Math.round((sampleRate * chunkMs) / 1000) * 2);
  const out: Array<[number, number]> = [];
  for (let at = 0; at < bytes; ) {
    const end = Math.min(bytes, at + size + (odd && at === 0 ? 1 : 0));
    out.push([at, end]);
    at = end;
  }
  return out;
}
