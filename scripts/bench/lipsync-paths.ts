// Issue 12: hosted voices give no phoneme timings. Which lip-sync path is closer to the truth:
// the audio itself (box/lipsync/audio-mouth.ts), or the provider's alignment mapped to visemes?
// Truth: espeak's own phoneme timings on espeak's audio (a proxy for real provider audio).
//   A  audio       mouthTrackFromAudio on the same PCM
//   B  words       espeak's word intervals (what Cartesia gives) + each word's phonemes said
//                  alone (no timings), stretched evenly (B_even) or by word-alone durations (B_dur)
//   C  characters  per-character times (what ElevenLabs gives) approximated by equal slices of
//                  the word interval; each phoneme takes the slices of its letter group
// Sensitivity of B_dur: word edges off by up to ±40 ms (B_dur_jitter40), and the word's phonemes
// from another accent of the language than the audio's (B_dur_accent: a provider's pronunciation
// is not espeak's).
// One JSON line per figure; nothing is asserted. Writes .cache/lipsync/paths.png.
// Run: node_modules/.bin/bun scripts/bench/lipsync-paths.ts
import { mkdirSync, writeFileSync } from "node:fs";
import { mouthTrackFromAudio } from "../../box/lipsync/audio-mouth.ts";
import { mouthTrackFromPhonemes } from "../../box/lipsync/mouth-track.ts";
import { visemeOf } from "../../box/lipsync/visemes.ts";
import type { MouthParams } from "../../box/render/frame-params.ts";
import { encodePng } from "../../box/render/png.ts";
import type { PhonemeTiming, Utterance } from "../../box/tts/engine.ts";
import { EspeakEngine } from "../../box/tts/espeak-engine.ts";
import { machineLineOf } from "./bench-kit.ts";
import {
  Canvas,
  meanAbsError,
  pearson,
  shifted,
  spreadOverLetters,
  stretchIntoWord,
  type Channel,
  type Rgb,
  type WordPhonemes,
} from "./lipsync-paths-kit.ts";

const BENCH = "lipsync-paths";
const FPS = 25;
/** `open` below this is a closed mouth (the renderer's lips touch at ~0.05). */
const CLOSED = 0.1;
const PATHS = ["A_audio", "B_even", "B_dur", "C_chars", "B_dur_jitter40", "B_dur_accent"] as const;
const OTHER_ACCENT: Record<string, string> = { "en-us": "en-gb-x-rp", es: "es-419", fr: "fr-be" };
const JITTER_MS = 40;
// mulberry32: the same jitter on every run.
let seed = 12;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
type Path = (typeof PATHS)[number];
const CHANNELS: Channel[] = ["open", "wide", "round"];

const SENTENCES: Record<string, string[]> = {
  "en-us": [
    "Hello there, how are you doing today?",
    "The quick brown fox jumps over the lazy dog.",
    "Please remember to bring your umbrella tomorrow morning.",
    "I think we should meet at the park, maybe around noon.",
    "She sells sea shells by the sea shore.",
    "Would you like a cup of coffee or some tea?",
    "My mother baked a blueberry pie for the family picnic.",
    "Wait. Let me check that for you, one moment please.",
    "Absolutely! That sounds like a wonderful idea.",
    "The museum opens early on weekdays and closes late on Fridays.",
    "Thank you so much for your patience.",
    "Could you spell your last name for me, please?",
    "Big problems need simple, practical answers.",
    "We watched the whales swim through the cold water.",
    "Oh no, I forgot my keys again!",
    "Our team will review the proposal and reply by Monday.",
    "Good morning. Welcome back to the show.",
    "Sometimes the smallest things take up the most room in your heart.",
    "Do you prefer mountains, beaches, or busy cities?",
    "Yes, I understand. Let's try it again, slowly this time.",
  ],
  es: [
    "Buenos días, ¿cómo estás hoy?",
    "Me gustaría reservar una mesa para dos personas.",
    "El perro corre por el parque con su pelota.",
    "Muchas gracias por tu paciencia, hasta mañana.",
  ],
  fr: [
    "Bonjour, comment allez-vous aujourd'hui ?",
    "Je voudrais un café et un croissant, s'il vous plaît.",
    "Le petit chat dort sur le canapé bleu.",
    "Merci beaucoup, à bientôt mes amis.",
  ],
};
const CHART_SENTENCE = SENTENCES["en-us"][6];

const line = (figure: string, value: number, unit: string, extra: Record<string, unknown> = {}) =>
  console.log(
    JSON.stringify({
      bench: BENCH,
      figure,
      value: Number.isFinite(value) ? +value.toFixed(3) : null,
      unit,
      goal: null,
      met: null,
      ...extra,
    }),
  );

machineLineOf(BENCH, "start", { fps: FPS });
const started = performance.now();
const engine = await EspeakEngine.load();

const alone = new Map<string, WordPhonemes>();
/** The word's phonemes as espeak says it alone: the "text to phonemes" a hosted path would run. */
async function wordPhonemes(voice: string, word: string): Promise<WordPhonemes> {
  const key = `${voice}|${word.toLowerCase()}`;
  let w = alone.get(key);
  if (!w) {
    const u = await engine.synthesize(word, { voice });
    const total = u.phonemes.reduce((s, p) => s + (p.endMs - p.startMs), 0);
    w = { names: u.phonemes.map((p) => p.phoneme), shares: u.phonemes.map((p) => (p.endMs - p.startMs) / total) };
    alone.set(key, w);
  }
  return w;
}

/** Word texts as the provider would send them: espeak's word events cut "isn't" to "isn". */
function providerWords(sentence: string, u: Utterance): string[] {
  const lower = sentence.toLowerCase();
  const at: number[] = [];
  let cursor = 0;
  for (const w of u.words) {
    const i = w.text ? lower.indexOf(w.text.toLowerCase(), cursor) : -1;
    at.push(i);
    if (i >= 0) cursor = i + w.text!.length;
  }
  return u.words
    .map((w, k) => {
      if (at[k] < 0) return w.text ?? "";
      let end = at[k];
      while (end < sentence.length && /[\p{L}'’]/u.test(sentence[end])) end++;
      const next = at.slice(k + 1).find((i) => i >= 0);
      return sentence.slice(at[k], next !== undefined ? Math.min(end, next) : end).replace(/['’]+$/, "");
    })
    .map((t) => t.trim());
}

interface Sample {
  lang: string;
  ref: MouthParams[];
  paths: Record<Path, MouthParams[]>;
  /** Frames whose centre lies in a p/b/m of the truth. */
  bilabial: boolean[];
  /** Frames between the first and the last sound (pauses inside the sentence, not the edges). */
  inside: boolean[];
}

async function measure(lang: string, sentence: string): Promise<Sample & { u: Utterance }> {
  const u = await engine.synthesize(sentence, { voice: lang });
  const ref = mouthTrackFromPhonemes(u.phonemes, u.durationMs, FPS);
  const texts = providerWords(sentence, u);
  const byWord: Record<Exclude<Path, "A_audio">, PhonemeTiming[]> = {
    B_even: [],
    B_dur: [],
    C_chars: [],
    B_dur_jitter40: [],
    B_dur_accent: [],
  };
  for (let k = 0; k < u.words.length; k++) {
    const w = u.words[k];
    if (!texts[k]) continue;
    const wp = await wordPhonemes(lang, texts[k]);
    byWord.B_even.push(...stretchIntoWord(wp, w, "even"));
    byWord.B_dur.push(...stretchIntoWord(wp, w, "durations"));
    const c = spreadOverLetters(wp, texts[k], w);
    byWord.C_chars.push(...c.phonemes);
    if (c.fellBack) fallbacks++;
    const jitter = () => (2 * random() - 1) * JITTER_MS;
    const startMs = Math.max(0, w.startMs + jitter());
    byWord.B_dur_jitter40.push(...stretchIntoWord(wp, { startMs, endMs: Math.max(startMs + 20, w.endMs + jitter()) }, "durations"));
    byWord.B_dur_accent.push(...stretchIntoWord(await wordPhonemes(OTHER_ACCENT[lang], texts[k]), w, "durations"));
    wordsSeen++;
  }
  const paths: Record<Path, MouthParams[]> = {
    A_audio: mouthTrackFromAudio(u.pcm, u.sampleRate, FPS),
    B_even: mouthTrackFromPhonemes(byWord.B_even, u.durationMs, FPS),
    B_dur: mouthTrackFromPhonemes(byWord.B_dur, u.durationMs, FPS),
    C_chars: mouthTrackFromPhonemes(byWord.C_chars, u.durationMs, FPS),
    B_dur_jitter40: mouthTrackFromPhonemes(byWord.B_dur_jitter40, u.durationMs, FPS),
    B_dur_accent: mouthTrackFromPhonemes(byWord.B_dur_accent, u.durationMs, FPS),
  };
  const frameMs = 1000 / FPS;
  const centre = (i: number) => (i + 0.5) * frameMs;
  const bilabial = ref.map((_, i) => u.phonemes.some((p) => visemeOf(p.phoneme) === "PP" && centre(i) >= p.startMs && centre(i) < p.endMs));
  const first = u.phonemes[0]?.startMs ?? 0;
  const last = u.phonemes.at(-1)?.endMs ?? 0;
  const inside = ref.map((_, i) => centre(i) > first && centre(i) < last);
  return { lang, ref, paths, bilabial, inside, u };
}

let fallbacks = 0;
let wordsSeen = 0;
const samples: Sample[] = [];
let chart: (Sample & { u: Utterance }) | null = null;
for (const [lang, list] of Object.entries(SENTENCES)) {
  for (const s of list) {
    const m = await measure(lang, s);
    for (const p of PATHS)
      if (m.paths[p].length !== m.ref.length) throw new Error(`${p}: ${m.paths[p].length} frames, reference ${m.ref.length}`);
    samples.push(m);
    if (s === CHART_SENTENCE) chart = m;
  }
}

function report(group: string, set: Sample[]): void {
  const frames = set.reduce((n, s) => n + s.ref.length, 0);
  const info = { group, sentences: set.length, frames };
  const col = (f: (s: Sample, i: number) => boolean, get: (s: Sample) => MouthParams[], c: Channel) =>
    set.flatMap((s) =>
      get(s)
        .filter((_, i) => f(s, i))
        .map((m) => m[c]),
    );
  const all = () => true;
  for (const c of CHANNELS) {
    const ref = col(all, (s) => s.ref, c);
    line(`${c}_ref_mean`, ref.reduce((a, v) => a + v, 0) / ref.length, "0..1", { path: "reference", ...info });
    for (const p of PATHS) {
      const got = col(all, (s) => s.paths[p], c);
      line(`${c}_mae`, meanAbsError(got, ref), "0..1", { path: p, ...info });
      line(`${c}_r`, pearson(got, ref), "pearson", { path: p, ...info });
      // MAE after the best gain (least squares through 0): what is left once the scale is right.
      const gain = got.reduce((a, v, i) => a + v * ref[i], 0) / got.reduce((a, v) => a + v * v, 0);
      line(
        `${c}_mae_best_gain`,
        meanAbsError(
          got.map((v) => v * gain),
          ref,
        ),
        "0..1",
        { path: p, gain: +gain.toFixed(2), ...info },
      );
      if (c === "open") line(`${c}_path_mean`, got.reduce((a, v) => a + v, 0) / got.length, "0..1", { path: p, ...info });
    }
  }
  for (const p of PATHS) {
    // Open in a pause inside the sentence (truth closed, not p b m), closed when the truth is open.
    const pairs = set.flatMap((s) => s.ref.map((r, i) => ({ r: r.open, g: s.paths[p][i].open, inside: s.inside[i], pp: s.bilabial[i] })));
    const closedIn = pairs.filter((x) => x.inside && !x.pp && x.r < CLOSED);
    const open = pairs.filter((x) => x.r >= CLOSED);
    const pp = pairs.filter((x) => x.pp);
    line("open_in_pause", closedIn.filter((x) => x.g >= CLOSED).length / closedIn.length, "share", {
      path: p,
      of_frames: closedIn.length,
      threshold: CLOSED,
      ...info,
    });
    line("closed_when_ref_open", open.filter((x) => x.g < CLOSED).length / open.length, "share", {
      path: p,
      of_frames: open.length,
      threshold: CLOSED,
      ...info,
    });
    line("bilabial_closed", pp.filter((x) => x.g < CLOSED).length / pp.length, "share", {
      path: p,
      of_frames: pp.length,
      truth: pp.filter((x) => x.r < CLOSED).length / pp.length,
      ...info,
    });
    // Is the gap timing (a constant lag) or shape? Best whole-frame lag of open, -3..3.
    let best = { lag: 0, r: -Infinity };
    for (let lag = -3; lag <= 3; lag++) {
      const got = set.flatMap((s) => shifted(s.paths[p], lag).map((m) => m.open));
      const r = pearson(
        got,
        set.flatMap((s) => s.ref.map((m) => m.open)),
      );
      if (r > best.r) best = { lag, r };
    }
    line("open_best_lag", best.lag * (1000 / FPS), "ms", { path: p, r_at_lag: +best.r.toFixed(3), ...info });
  }
}

report(
  "en",
  samples.filter((s) => s.lang === "en-us"),
);
report(
  "es+fr",
  samples.filter((s) => s.lang !== "en-us"),
);
report("all", samples);
line("words_without_letter_groups", fallbacks, "words", { of: wordsSeen, note: "C_chars fell back to an even stretch" });

// Strip chart of jaw opening on one sentence: waveform, then reference, A, B_dur, C, each over
// the reference in grey; word starts as faint lines.
if (chart) {
  const px = 8;
  const h = 90;
  const gap = 6;
  const rows: { values: number[]; color: Rgb }[] = [
    { values: chart.ref.map((m) => m.open), color: [0, 0, 0] },
    { values: chart.paths.A_audio.map((m) => m.open), color: [200, 40, 40] },
    { values: chart.paths.B_dur.map((m) => m.open), color: [30, 110, 210] },
    { values: chart.paths.C_chars.map((m) => m.open), color: [20, 150, 60] },
  ];
  const n = chart.ref.length;
  const canvas = new Canvas(n * px, (rows.length + 1) * (h + gap));
  const { pcm, sampleRate } = chart.u;
  const perFrame = sampleRate / FPS;
  for (let x = 0; x < canvas.width; x++) {
    let peak = 0;
    for (let j = Math.floor((x * perFrame) / px); j < Math.floor(((x + 1) * perFrame) / px) && j < pcm.length; j++)
      peak = Math.max(peak, Math.abs(pcm[j]) / 32768);
    canvas.line(x, h / 2 - peak * (h / 2), x, h / 2 + peak * (h / 2), [120, 120, 120]);
  }
  rows.forEach((row, k) => {
    const top = (k + 1) * (h + gap);
    canvas.rect(0, top, canvas.width, h, [246, 246, 246]);
    for (const w of chart!.u.words)
      canvas.line((w.startMs / 1000) * FPS * px, top, (w.startMs / 1000) * FPS * px, top + h - 1, [215, 215, 235]);
    for (const y of [0, CLOSED]) canvas.line(0, top + h - 1 - y * (h - 4), canvas.width - 1, top + h - 1 - y * (h - 4), [225, 225, 225]);
    if (k > 0) canvas.curve(rows[0].values, px, top, h, [170, 170, 170], 2);
    canvas.curve(row.values, px, top, h, row.color, 2);
  });
  mkdirSync(".cache/lipsync", { recursive: true });
  writeFileSync(".cache/lipsync/paths.png", encodePng(canvas.pixels, canvas.width, canvas.height));
  line("chart", n, "frames", {
    path_png: ".cache/lipsync/paths.png",
    sentence: CHART_SENTENCE,
    rows: "waveform, reference, A_audio, B_dur, C_chars (grey: reference)",
  });
}
line("run_time", (performance.now() - started) / 1000, "s", { sentences: samples.length, words_said_alone: alone.size });
