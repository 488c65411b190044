// Benchmark (prints figures; never asserts) of first audio per voice engine for one 12-word clause
// (issue 12 item 9). espeak runs in process; ElevenLabs, Cartesia and Chatterbox against their
// protocol fakes with 0 ms latency, so what is left is our own overhead.
//   1. In process: espeak `synthesize()` (one call: the whole clause) and each hosted engine's
//      `stream()` to its first PCM chunk, beside a raw fetch of the same request to the fake's
//      first body byte; our overhead = engine first PCM - raw first byte, paired per run.
//      Goals: espeak first audio <= 30 ms; our overhead on a hosted engine <= 15 ms (both p50).
//      Also the steps box/live/speaker.ts takes before a clause can be queued: `synthesize()` (the
//      whole clause, not its first chunk), the mouth track, the resampling to 48 kHz.
//   2. Live stream: the real box per engine (BOX_TTS, pointed at the fake), a WebRTC client,
//      POST /api/talk -> first loud audio chunk at the client. Each talk is interrupted once its
//      audio is heard and the next starts after silence (so the run stays short). No goal.
// Run: node_modules/.bin/bun scripts/bench/voices.ts
//   env BENCH_RUNS (30 in-process runs after 5 warm-up), BENCH_TALKS (15 after 1 warm-up),
//   BENCH_ENGINES (espeak,elevenlabs,cartesia,chatterbox), BENCH_LIVE=0 skips part 2,
//   BENCH_FAKE_SPEEDUP (0: the fakes send the clause at once; N: ElevenLabs and Cartesia pace
//   their chunks as a provider generating at N x real time, to show what awaiting the whole
//   clause costs on the live stream)
import { mouthTrackForUtterance } from "../../box/lipsync/lip-sync.ts";
import { WrtcClient } from "../../box/media/testing/wrtc-client.ts";
import { spawnBox, type RunningBox } from "../../box/testing/spawn-box.ts";
import type { Utterance, VoiceEngine } from "../../box/tts/engine.ts";
import { EspeakEngine } from "../../box/tts/espeak-engine.ts";
import { to48k } from "../../box/tts/resample.ts";
import { figureLine, machineLineOf, percentile, sleep, summary } from "./bench-kit.ts";
import {
  BENCH,
  CLAUSE,
  fakedEngine,
  HOSTED,
  onsetMs,
  timeRaw,
  timeStream,
  type FakedEngine,
  type Hosted,
  type SpeechLog,
} from "./voices-kit.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARM = 5;
const TALKS = Number(process.env.BENCH_TALKS ?? 15);
const ENGINES = (process.env.BENCH_ENGINES ?? "espeak,elevenlabs,cartesia,chatterbox").split(",").map((s) => s.trim());
const LIVE = process.env.BENCH_LIVE !== "0";
const SPEEDUP = Number(process.env.BENCH_FAKE_SPEEDUP ?? 0);
const ESPEAK_GOAL_MS = 30;
const OVERHEAD_GOAL_MS = 15;

const p = (xs: number[], q: number) => +percentile(xs, q).toFixed(2);
const figure = (name: string, value: number, goal: string | null, met: boolean | null, extra: Record<string, unknown> = {}) =>
  figureLine(BENCH, name, value, "ms", goal, met, extra);

/** The clause as the engine speaks it for the live stream (box/live/speaker.ts `utterance`'s steps). */
class LivePathSteps {
  readonly synth: number[] = [];
  readonly mouth: number[] = [];
  readonly resample: number[] = [];
  source = "";
  last: Utterance | null = null;

  async run(engine: VoiceEngine, keep: boolean): Promise<void> {
    const t0 = performance.now();
    const u = await engine.synthesize(CLAUSE);
    const t1 = performance.now();
    this.source = mouthTrackForUtterance(u, 25).source;
    const t2 = performance.now();
    if (u.sampleRate !== 48_000) to48k(u.pcm, u.sampleRate);
    const t3 = performance.now();
    this.last = u;
    if (keep) this.synth.push(t1 - t0), this.mouth.push(t2 - t1), this.resample.push(t3 - t2);
  }

  emit(id: string): void {
    const total = this.synth.map((s, i) => s + this.mouth[i] + this.resample[i]);
    figure(`${id}_live_path_steps_in_process`, p(total, 50), null, null, {
      ...summary(total),
      synthesize_p50_ms: p(this.synth, 50),
      mouth_track_p50_ms: p(this.mouth, 50),
      resample_48k_p50_ms: p(this.resample, 50),
      mouth_from: this.source,
      clause_audio_ms: Math.round(this.last?.durationMs ?? NaN),
      note: "synthesize() (whole clause) + mouth track + to48k: what POST /api/talk does before queuing",
    });
  }
}

const utterances = new Map<string, Utterance>();

/** 1. espeak in process: `synthesize()` is one call, so its first audio is the whole clause. */
async function espeakInProcess(engine: EspeakEngine): Promise<void> {
  const ms: number[] = [];
  const steps = new LivePathSteps();
  for (let i = -WARM; i < RUNS; i++) {
    const t0 = performance.now();
    await engine.synthesize(CLAUSE);
    if (i >= 0) ms.push(performance.now() - t0);
    await steps.run(engine, i >= 0);
  }
  const v = p(ms, 50);
  figure("espeak_first_audio_in_process", v, `<= ${ESPEAK_GOAL_MS} (p50)`, v <= ESPEAK_GOAL_MS, {
    ...summary(ms),
    met_p95: p(ms, 95) <= ESPEAK_GOAL_MS,
    backend: engine.backend,
    load_ms: Math.round(engine.loadMs),
    note: "synthesize(): the whole clause in one call",
  });
  steps.emit("espeak");
  utterances.set("espeak", steps.last!);
}

/** 1. A hosted engine on its fake: raw first byte, engine first PCM (paired), the live path's steps. */
async function hostedInProcess(f: FakedEngine): Promise<void> {
  const raw: number[] = [],
    rawEnd: number[] = [],
    first: number[] = [],
    end: number[] = [],
    overhead: number[] = [];
  const steps = new LivePathSteps();
  let samples = 0;
  for (let i = -WARM; i < RUNS; i++) {
    // Alternate which goes first, so neither always meets a just-used connection or a GC.
    const r0 = i % 2 === 0 ? await timeRaw(f.raw(CLAUSE)) : null;
    const s = await timeStream(f.engine.stream(CLAUSE));
    const r = r0 ?? (await timeRaw(f.raw(CLAUSE)));
    await steps.run(f.engine, i >= 0);
    if (i < 0) continue;
    raw.push(r.first), rawEnd.push(r.end), first.push(s.first), end.push(s.end);
    overhead.push(s.first - r.first);
    samples = s.samples;
  }
  figure(`${f.id}_fake_raw_first_byte`, p(raw, 50), null, null, {
    ...summary(raw),
    raw_last_byte_p50_ms: p(rawEnd, 50),
    note: "fetch of the engine's own request to the fake's first body byte",
  });
  figure(`${f.id}_stream_first_audio_in_process`, p(first, 50), null, null, { ...summary(first), stream_end_p50_ms: p(end, 50), samples });
  const v = p(overhead, 50);
  figure(`${f.id}_our_overhead_first_audio`, v, `<= ${OVERHEAD_GOAL_MS} (p50)`, v <= OVERHEAD_GOAL_MS, {
    ...summary(overhead),
    met_p95: p(overhead, 95) <= OVERHEAD_GOAL_MS,
    note: "stream() first PCM minus raw first byte, paired per run",
  });
  steps.emit(f.id);
  utterances.set(f.id, steps.last!);
}

/** 2. The real box on `env`: POST /api/talk -> first loud audio chunk at a WebRTC client. */
async function liveFirstAudio(id: string, env: Record<string, string>, speech: SpeechLog | null): Promise<number> {
  let box: RunningBox | undefined;
  let client: WrtcClient | undefined;
  try {
    const b0 = performance.now();
    box = await spawnBox({ BOX_ASR: "none", ...env });
    const bootMs = performance.now() - b0;
    const post = async (path: string, body?: unknown) => {
      const res = await fetch(box!.url + path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as any };
    };
    client = new WrtcClient(2);
    await client.connect(async (offer) => {
      const r = await post("/connect", { ...offer, avatar: "stock-ava" });
      if (r.status !== 200) throw new Error(`/connect ${r.status} ${JSON.stringify(r.json)}`);
      return { sdp: r.json.sdp, type: r.json.type };
    });
    await client.waitForFirstFrame(20_000);
    await sleep(1500);
    const c = client;
    const idleRms = Math.max(0, ...c.audio.filter((a) => a.at > performance.now() - 1000).map((a) => a.rms));
    const loud = Math.max(300, idleRms * 5);
    const firstAudio: number[] = [],
      answer: number[] = [],
      queuedToAudio: number[] = [];
    const toProvider: number[] = [],
      providerAnswer: number[] = [],
      afterProvider: number[] = [];
    let cold: Record<string, number> = {};
    for (let k = -1; k < TALKS; k++) {
      const t0 = performance.now();
      const r = await post("/api/talk", { text: CLAUSE });
      if (r.status !== 200) throw new Error(`/api/talk ${r.status} ${JSON.stringify(r.json)}`);
      const tAnswer = performance.now();
      const answered = tAnswer - t0;
      const chunk = await c.until(() => c.audio.find((a) => a.at >= t0 && a.rms > loud), 5000, "speech audio").catch(() => null);
      const ms = chunk ? chunk.at - t0 : NaN;
      if (k < 0) cold = { talk_answer_ms: Math.round(answered), first_audio_ms: Math.round(ms) };
      else {
        firstAudio.push(ms), answer.push(answered), queuedToAudio.push(ms - answered);
        const asked = speech?.asked.find((a) => a >= t0);
        const done = speech?.answered.find((a) => a >= t0);
        if (asked !== undefined && done !== undefined)
          toProvider.push(asked - t0), providerAnswer.push(done - asked), afterProvider.push(tAnswer - done);
      }
      await sleep(300);
      await post("/api/interrupt");
      await c.until(() => c.audioRmsOver(300) < loud / 3, 5000, "silence").catch(() => null);
      await sleep(200);
    }
    const u = utterances.get(id);
    const onset = u ? onsetMs(u.pcm, u.sampleRate, loud) : NaN;
    const v = p(firstAudio, 50);
    figure(`${id}_talk_to_first_audio_at_client`, v, null, null, {
      ...summary(firstAudio),
      talk_answer_p50_ms: p(answer, 50),
      answer_to_first_audio_p50_ms: p(queuedToAudio, 50),
      // The talk's answer split at the fake: until its speech request arrives, until it has sent the
      // whole answer, and the box's work after that (decode tail, mouth track, 48 kHz, queue, reply).
      ...(speech
        ? {
            split_p50_ms: {
              to_provider_request: p(toProvider, 50),
              provider_answer: p(providerAnswer, 50),
              box_after_provider: p(afterProvider, 50),
            },
          }
        : {}),
      loud_onset_in_clause_ms: Math.round(onset),
      minus_onset_p50_ms: +(v - onset).toFixed(1),
      warm_up_excluded: cold,
      box_boot_ms: Math.round(bootMs),
      loud_rms: Math.round(loud),
      ...(speech && SPEEDUP > 0 ? { fake_speedup: SPEEDUP } : {}),
      note: "talk_answer: the box answers once the clause is synthesised whole and queued; answer_to_first_audio: the media path (frame clock, render, Opus, jitter buffer) plus loud_onset, where the clause's audio first passes loud_rms",
    });
    await post("/disconnect");
    return v;
  } catch (err) {
    console.log(JSON.stringify({ bench: BENCH, figure: `${id}_talk_to_first_audio_at_client`, error: (err as Error).message }));
    if (box) console.error(`${id}: box exit code ${box.child.exitCode}; box stderr (tail):\n${box.stderr().slice(-2000)}`);
    process.exitCode = 1;
    return NaN;
  } finally {
    client?.close();
    await box?.stop();
  }
}

machineLineOf(BENCH, "start", SPEEDUP > 0 ? { fake_speedup: SPEEDUP } : {});
const fakes = new Map<Hosted, FakedEngine>();
try {
  for (const id of HOSTED) if (ENGINES.includes(id)) fakes.set(id, await fakedEngine(id, SPEEDUP));
  if (ENGINES.includes("espeak")) await espeakInProcess(await EspeakEngine.load());
  for (const f of fakes.values()) await hostedInProcess(f);
  if (LIVE) {
    const live = new Map<string, number>();
    if (ENGINES.includes("espeak")) live.set("espeak", await liveFirstAudio("espeak", { BOX_TTS: "espeak" }, null));
    for (const f of fakes.values()) live.set(f.id, await liveFirstAudio(f.id, f.boxEnv, f.speech));
    const espeak = live.get("espeak");
    if (espeak !== undefined && live.size > 1) {
      const minus = Object.fromEntries([...live].filter(([id]) => id !== "espeak").map(([id, v]) => [id, +(v - espeak).toFixed(1)]));
      console.log(JSON.stringify({ bench: BENCH, figure: "live_first_audio_p50_minus_espeak", unit: "ms", by_engine: minus }));
    }
  }
  machineLineOf(BENCH, "end");
} catch (err) {
  console.error(`bench failed: ${(err as Error).stack ?? err}`);
  process.exitCode = 1;
} finally {
  for (const f of fakes.values()) await f.close();
}
process.exit(process.exitCode ?? 0);
