// Prints speech-in figures (belongs with scripts/bench/): Silero VAD time per 32 ms window and
// pocketsphinx real-time factor (LM and grammar), with the event loop's worst stall meanwhile.
// Run: node_modules/.bin/bun scripts/bench/speech.ts   (or under vitest/tsx with Node)
import { monitorEventLoopDelay } from "node:perf_hooks";
import { PocketsphinxEngine } from "../../box/stt/pocketsphinx.ts";
import { SileroVad } from "../../box/stt/silero-vad.ts";
import { chunks, concat, silence, speech16k } from "../../box/stt/testing/speech-audio.ts";
import { VadFramer } from "../../box/stt/vad-segmenter.ts";

const SENTENCES = ["The quick brown fox jumps over the lazy dog.", "Please turn on the lights.", "Hello, how are you today?"];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpuMs = (start: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1000;
};

const parts: Int16Array[] = [];
for (const s of SENTENCES) parts.push(await speech16k(s), silence(700));
const audio = concat(...parts);
const audioMs = audio.length / 16;

const vad = await SileroVad.load();
const windows = new VadFramer().push(concat(audio, audio, audio));
const vadRuns: { wall: number; cpu: number }[] = [];
for (let run = 0; run < 3; run++) {
  vad.reset();
  const t = performance.now();
  const c = process.cpuUsage();
  for (const w of windows) await vad.process(w);
  vadRuns.push({ wall: (performance.now() - t) / windows.length, cpu: cpuMs(c) / windows.length });
}
console.log(
  `silero vad (${vad.executionProvider}, 1 thread): ${windows.length} windows, median ${median(vadRuns.map((r) => r.wall)).toFixed(3)} ms wall, ${median(vadRuns.map((r) => r.cpu)).toFixed(3)} ms cpu per 32 ms window`,
);

const engine = new PocketsphinxEngine();
await engine.warm();
for (const mode of ["language model", "grammar"] as const) {
  const runs: { wall: number; cpu: number; stall: number; text: string }[] = [];
  for (let run = 0; run < 3; run++) {
    const stream = await engine.start({ sampleRate: 16000, grammar: mode === "grammar" ? SENTENCES : undefined });
    const lag = monitorEventLoopDelay({ resolution: 5 });
    lag.enable();
    const t = performance.now();
    const c = process.cpuUsage();
    for (const chunk of chunks(audio, [320])) stream.write(chunk); // 20 ms socket frames
    const text = await stream.finish();
    const wall = performance.now() - t;
    lag.disable();
    runs.push({ wall: wall / audioMs, cpu: cpuMs(c) / audioMs, stall: lag.max / 1e6, text });
  }
  console.log(
    `pocketsphinx ${mode}: ${(audioMs / 1000).toFixed(1)} s audio, RTF median ${median(runs.map((r) => r.wall)).toFixed(3)} wall, ` +
      `${median(runs.map((r) => r.cpu)).toFixed(3)} cpu; worst event-loop stall ${median(runs.map((r) => r.stall)).toFixed(1)} ms; "${runs[0].text}"`,
  );
}
engine.dispose();
await vad.dispose();
