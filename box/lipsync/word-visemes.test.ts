// A hosted voice's word timings mapped to visemes with the real espeak-ng: each word's phonemes
// land inside its interval, in order; an utterance without word texts keeps the audio path; and
// the mouth closes on a bilabial that the audio path leaves open.
import { beforeAll, describe, expect, it } from "vitest";
import type { Utterance } from "../tts/engine.ts";
import { EspeakEngine } from "../tts/espeak-engine.ts";
import { mouthTrackFromAudio } from "./audio-mouth.ts";
import { mouthTrackFromPhonemes } from "./mouth-track.ts";
import { WordPhonemizer, wordKey } from "./word-visemes.ts";

let espeak: EspeakEngine;
let phonemizer: WordPhonemizer;
beforeAll(async () => {
  espeak = await EspeakEngine.load();
  phonemizer = new WordPhonemizer(espeak);
});

describe("WordPhonemizer", () => {
  it("keeps a word's letters only", () => {
    expect(wordKey("Hello,")).toBe("hello");
    expect(wordKey("¿Qué?")).toBe("qué");
    expect(wordKey("isn't")).toBe("isn't");
    expect(wordKey("—")).toBe("");
  });

  it("spreads each word's phonemes over that word's interval, in order", async () => {
    const words = [
      { text: "Hello,", startMs: 100, endMs: 500 },
      { text: "—", startMs: 500, endMs: 520 },
      { text: "mum.", startMs: 700, endMs: 1100 },
    ];
    const phonemes = (await phonemizer.fromWords(words))!;
    expect(phonemes.length).toBeGreaterThanOrEqual(6);
    const first = phonemes.filter((p) => p.startMs < 500);
    const second = phonemes.filter((p) => p.startMs >= 700);
    expect(first.length + second.length).toBe(phonemes.length);
    expect(first[0].startMs).toBe(100);
    expect(first.at(-1)!.endMs).toBeCloseTo(500, 6);
    expect(second[0].phoneme).toBe("m");
    expect(second.at(-1)!.phoneme).toBe("m");
    expect(second.at(-1)!.endMs).toBeCloseTo(1100, 6);
    for (let i = 1; i < phonemes.length; i++) expect(phonemes[i].startMs).toBeGreaterThanOrEqual(phonemes[i - 1].endMs - 1e-6);
  });

  it("leaves an utterance without word texts, or with phonemes already, as it is", async () => {
    const bare: Utterance = {
      pcm: new Int16Array(1600),
      sampleRate: 16000,
      phonemes: [],
      words: [{ startMs: 0, endMs: 100 }],
      durationMs: 100,
    };
    expect(await phonemizer.withPhonemes(bare)).toBe(bare);
    const timed = await espeak.synthesize("mum");
    expect(await phonemizer.withPhonemes(timed)).toBe(timed);
  });

  it("closes the lips on the m of a word where the audio path keeps the mouth open", async () => {
    // A hosted voice's utterance stands in: espeak's audio and word timings, its phonemes dropped.
    const said = await espeak.synthesize("My mother makes more jam.");
    const hosted: Utterance = { ...said, phonemes: [] };
    const mapped = await phonemizer.withPhonemes(hosted);
    expect(mapped.phonemes.length).toBeGreaterThan(10);
    const fromWords = mouthTrackFromPhonemes(mapped.phonemes, said.durationMs, 25);
    const fromAudio = mouthTrackFromAudio(said.pcm, said.sampleRate, 25);
    const truth = mouthTrackFromPhonemes(said.phonemes, said.durationMs, 25);
    const err = (track: typeof truth) => truth.reduce((s, m, i) => s + Math.abs(m.open - (track[i]?.open ?? 0)), 0) / truth.length;
    expect(err(fromWords)).toBeLessThan(err(fromAudio));
  });
});
