// Benchmark (prints figures; never asserts) of the realistic case (issue 23 item 6): the real box,
// a WebRTC client and the voice socket, with a model fake that waits 300 ms to its first token and
// then streams 50 tokens/s, and hosted-voice fakes (ElevenLabs and Cartesia protocols, real
// sockets) with a 120 ms first byte that then stream at 4x real time with alignment.
//   voice turn: the last voiced sample sent on the voice socket -> first loud reply audio at the client
//   typed turn: POST /api/chat {stream: true} with the live session -> first loud audio at the client
//   talk:       POST /api/talk (a 12-word clause) -> first loud audio at the client
// One JSON line per turn, with milestones seen from outside (the voice socket, the fakes' own wire,
// the client) and splits between them that add up to the turn's total (see `chain`), and the turn's
// floor: model first token + the model's time to the first phrase + the voice's first byte + 40 ms
// transport, each as this turn's fakes measured it; ours = measured - floor. A talk's floor is the
// voice's first byte + 40 ms. Summaries compare with the goals (goal, measured, met).
// Each turn is interrupted once its audio is heard, and the next starts from silence.
// Run: node_modules/.bin/bun scripts/bench/real-turn.ts
//   env BENCH_TURNS (10 per path and voice, after 1 warm-up), BENCH_VOICES (elevenlabs,cartesia),
//   BENCH_PATHS (voice,typed,talk), BENCH_MODEL_FIRST_TOKEN_MS (300), BENCH_MODEL_TOKENS_PER_S (50),
//   BENCH_VOICE_FIRST_BYTE_MS (120), BENCH_VOICE_SPEEDUP (4); box env (e.g. BOX_SPECULATIVE_REPLIES) passes through
import { energySpan, speech16k } from "../../box/stt/testing/speech-audio.ts";
import { figureLine, machineLineOf, percentile, sleep, summary } from "./bench-kit.ts";
import {
  BENCH,
  chain,
  PacedModel,
  pacedVoice,
  PHRASE_TOKENS,
  round,
  TOKENS,
  type HostedVoice,
  type ModelCall,
  type PacedVoice,
} from "./real-turn-kit.ts";
import { openLive } from "./real-turn-live.ts";

const TURNS = Number(process.env.BENCH_TURNS ?? 10);
const VOICES = (process.env.BENCH_VOICES ?? "elevenlabs,cartesia").split(",").map((s) => s.trim()) as HostedVoice[];
const PATHS = (process.env.BENCH_PATHS ?? "voice,typed,talk").split(",").map((s) => s.trim());
const MODEL_MS = Number(process.env.BENCH_MODEL_FIRST_TOKEN_MS ?? 300);
const TPS = Number(process.env.BENCH_MODEL_TOKENS_PER_S ?? 50);
const VOICE_MS = Number(process.env.BENCH_VOICE_FIRST_BYTE_MS ?? 120);
const SPEEDUP = Number(process.env.BENCH_VOICE_SPEEDUP ?? 4);
const TRANSPORT_MS = 40;
const GRAMMAR = ["hello there", "please book a table for two"];
const TALK = "Please remember to bring your umbrella because it might rain later today.";
const LOUD = 500; // s16 RMS of a 10 ms chunk at the client: speech (the idle face is silent)
const PASS_ENV = ["BOX_SPECULATIVE_REPLIES", "BOX_BARGE_PAUSE"];
/** The floor with the fakes' nominal timings (the per-turn floor uses what each turn measured). */
const NOMINAL_FLOOR = MODEL_MS + ((PHRASE_TOKENS - 1) * 1000) / TPS + VOICE_MS + TRANSPORT_MS;

type Turn = { total: number; floor: number; ours: number; splits: Record<string, number>; at: Record<string, number>; early: string[] };

const missed = new Map<string, number>();
const line = (o: Record<string, unknown>) => console.log(JSON.stringify({ bench: BENCH, ...o }));
const finite = (...xs: (number | undefined)[]) => xs.every((x) => x !== undefined && Number.isFinite(x));

/**
 * One turn's JSON line (its milestones, splits, floor and ours, then `extra`) and, after the
 * warm-up, its figures for the summary.
 */
function recordTurn(
  figure: string,
  i: number,
  c: ReturnType<typeof chain>,
  floor: number,
  extra: Record<string, unknown>,
  turns: Turn[],
): void {
  const turn: Turn = { total: c.total, floor, ours: c.total - floor, splits: c.splits, at: c.at, early: c.early };
  line({
    figure,
    turn: i,
    warm_up: i < 0,
    total_ms: c.total,
    floor_ms: round(floor),
    ours_ms: round(turn.ours),
    splits_ms: c.splits,
    split_sum_ms: round(Object.values(c.splits).reduce((a, b) => a + b, 0)),
    milestones_ms: c.at,
    before_predecessor: c.early,
    ...extra,
  });
  if (i >= 0) turns.push(turn);
}

/** This turn's floor from what its fakes measured, or NaN where one was not seen. */
function floorOf(m: ModelCall | undefined, voice: { asked?: number; firstByte?: number }): number {
  if (!m || !finite(m.firstToken, m.phraseEnd, voice.asked, voice.firstByte)) return NaN;
  return m.firstToken - m.arrive + (m.phraseEnd - m.firstToken) + (voice.firstByte! - voice.asked!) + TRANSPORT_MS;
}

/** Summaries of one path: total, floor, ours, every split; goals compared, never asserted. */
function report(voice: string, path: string, turns: Turn[], goals: { p50?: number; p95?: number; oursP50?: number }): void {
  const total = turns.map((t) => t.total),
    floor = turns.map((t) => t.floor),
    ours = turns.map((t) => t.ours);
  const p50 = percentile(total, 50),
    p95 = percentile(total, 95),
    o50 = percentile(ours, 50);
  const goal: string[] = [],
    met: boolean[] = [];
  if (goals.p50 !== undefined) goal.push(`p50 <= ${goals.p50}`), met.push(p50 <= goals.p50);
  if (goals.p95 !== undefined) goal.push(`p95 <= ${goals.p95}`), met.push(p95 <= goals.p95);
  if (goals.oursP50 !== undefined) goal.push(`ours p50 <= ${goals.oursP50}`), met.push(o50 <= goals.oursP50);
  const names = [...new Set(turns.flatMap((t) => Object.keys(t.splits)))];
  const splits = Object.fromEntries(
    names.map((n) => [
      n,
      round(
        percentile(
          turns.map((t) => t.splits[n] ?? NaN),
          50,
        ),
      ),
    ]),
  );
  const at = Object.fromEntries(
    [...new Set(turns.flatMap((t) => Object.keys(t.at)))].map((n) => [
      n,
      round(
        percentile(
          turns.map((t) => t.at[n] ?? NaN),
          50,
        ),
      ),
    ]),
  );
  figureLine(
    BENCH,
    `${voice}_${path}_to_first_audio_at_client`,
    p50,
    "ms",
    goal.join(", ") || null,
    met.length ? met.every(Boolean) : null,
    {
      ...summary(total),
      goals: { p50: goals.p50 ?? null, p95: goals.p95 ?? null, ours_p50: goals.oursP50 ?? null },
      measured: { p50: round(p50), p95: round(p95), ours_p50: round(o50) },
      met_each: met,
      floor: { ...summary(floor), nominal_ms: round(path === "talk" ? VOICE_MS + TRANSPORT_MS : NOMINAL_FLOOR) },
      ours: summary(ours),
      split_p50_ms: splits,
      milestone_p50_ms_from_start: at,
      // A speculative model request before the final is expected; anything else out of order is suspect.
      turns_missed: missed.get(`${voice}_${path}`) ?? 0,
      turns_out_of_order: turns.filter((t) => t.early.some((m) => m !== "model_request")).length,
    },
  );
}

async function main(v: PacedVoice, model: PacedModel): Promise<void> {
  const env = {
    BOX_OPENAI_BASE_URL: model.url,
    ...v.boxEnv,
    ...Object.fromEntries(PASS_ENV.filter((k) => process.env[k]).map((k) => [k, process.env[k]!])),
  };
  const b0 = performance.now();
  const live = await openLive(env, GRAMMAR);
  line({
    figure: `${v.id}_box_ready`,
    value: Math.round(performance.now() - b0),
    unit: "ms",
    note: "spawn, /connect, first frame, voice socket ready",
  });
  const { media, ws, mic, when, post } = live;
  // Half a second of silence: the last turn's speech has ended, not merely paused between words.
  const quiet = () => media.until(() => media.audioRmsOver(500) < 100, 20_000, "quiet before the turn");
  const loudAfter = (t: number) => media.audio.find((c) => c.at > t && c.rms > LOUD)?.at;
  const callAfter = (t: number, before: number) => model.calls.filter((c) => c.arrive >= t && c.arrive <= before).at(-1);
  /** One turn; a turn that fails (a timeout on a loaded machine) is printed, counted, and the next starts. */
  const attempt = async (name: string, i: number, turn: () => Promise<void>) => {
    try {
      await turn();
    } catch (err) {
      line({ figure: `${name}_missed`, turn: i, error: (err as Error).message.slice(0, 300) });
      missed.set(name, (missed.get(name) ?? 0) + 1);
      await post("/api/interrupt").catch(() => null);
      await sleep(1000);
    }
  };
  try {
    if (PATHS.includes("voice")) {
      const hello = await speech16k("hello there");
      const trailMs = hello.length / 16 - (energySpan(hello)?.endMs ?? hello.length / 16);
      const turns: Turn[] = [];
      for (let i = -1; i < TURNS; i++)
        await attempt(`${v.id}_voice_turn`, i, async () => {
          await quiet();
          const start = performance.now();
          mic.say(hello);
          await mic.drained();
          const tLast = mic.lastSpeechSentAt - trailMs;
          // Any final: on a loaded machine the recogniser may hear other words; the line shows them.
          const final = await ws.waitFor((f) => f.type === "final" && when(f) > start, 20_000, "final");
          const tAudio = await media.until(() => loudAfter(Math.max(tLast, when(final) - 50)), 15_000, "reply audio at the client");
          const chunk = ws.frames.find((f) => f.type === "reply_chunk" && when(f) > when(final) - 1);
          const metric = ws.frames.find((f) => f.type === "metric" && when(f) > start);
          const m = callAfter(start, chunk ? when(chunk) : tAudio);
          const voice = v.wire.after(m?.firstToken ?? when(final));
          const c = chain([
            ["end_of_speech", tLast],
            ["final", when(final)],
            ["model_request", m?.arrive],
            ["model_first_token", m?.firstToken],
            ["model_first_phrase", m?.phraseEnd],
            ["voice_request", voice.asked],
            ["voice_first_byte", voice.firstByte],
            ["client_audio", tAudio],
          ]);
          const floor = floorOf(m, voice);
          const requests = model.calls.filter((x) => x.arrive >= start && x.arrive <= tAudio).length;
          recordTurn(
            `${v.id}_voice_turn`,
            i,
            c,
            floor,
            {
              reply_chunk_ms: chunk ? round(when(chunk) - tLast) : null,
              heard: final.text,
              first_clause: chunk?.text ?? null,
              metric_first_audio_ms: metric?.first_audio_ms ?? null,
              spec: metric?.spec ?? null,
              model_requests: requests,
            },
            turns,
          );
          await post("/api/interrupt");
          // An interrupt that comes after the model's last token does not stop clauses still being
          // synthesised (today's box), so the turn may speak on: wait for its end either way.
          await ws
            .waitFor((f) => f.type === "state" && f.thinking === false && when(f) > when(final), 30_000, "end of the turn")
            .catch(() => null);
          await sleep(300);
        });
      report(v.id, "voice_turn", turns, { p50: 650, p95: 800, oursP50: 80 });
    }

    if (PATHS.includes("typed")) {
      const turns: Turn[] = [];
      let hung = 0;
      for (let i = -1; i < TURNS; i++)
        await attempt(`${v.id}_typed_turn`, i, async () => {
          await quiet();
          const t0 = performance.now();
          const res = await post("/api/chat", { message: "hello there", stream: true });
          if (res.status !== 200) throw new Error(`/api/chat ${res.status} ${await res.text()}`);
          const reader = res.body!.getReader();
          let firstChunk: { at: number; text: string } | undefined;
          let text = "";
          const read = (async () => {
            const dec = new TextDecoder();
            for (;;) {
              const r = await reader.read().catch(() => ({ done: true, value: undefined }));
              if (r.done || !r.value) return;
              text += dec.decode(r.value, { stream: true });
              if (!firstChunk) {
                const f = text
                  .split("\n")
                  .slice(0, -1)
                  .map((l) => JSON.parse(l))
                  .find((x) => x.type === "reply_chunk");
                if (f) firstChunk = { at: performance.now(), text: f.text };
              }
            }
          })();
          const tAudio = await media.until(() => loudAfter(t0), 15_000, "typed reply audio at the client");
          const m = callAfter(t0, tAudio);
          const voice = v.wire.after(m?.firstToken ?? t0);
          const c = chain([
            ["send", t0],
            ["model_request", m?.arrive],
            ["model_first_token", m?.firstToken],
            ["model_first_phrase", m?.phraseEnd],
            ["voice_request", voice.asked],
            ["voice_first_byte", voice.firstByte],
            ["client_audio", tAudio],
          ]);
          const floor = floorOf(m, voice);
          recordTurn(
            `${v.id}_typed_turn`,
            i,
            c,
            floor,
            {
              reply_chunk_ms: firstChunk ? round(firstChunk.at - t0) : null,
              first_clause: firstChunk?.text ?? null,
            },
            turns,
          );
          await post("/api/interrupt");
          // The stream ends with the turn (see the voice turn's note); one that outlives the guard is cancelled and counted.
          const ended = await Promise.race([read.then(() => true), sleep(30_000).then(() => false)]);
          if (!ended) hung++, await reader.cancel().catch(() => null);
          await sleep(300);
        });
      report(v.id, "typed_turn", turns, { p50: 600 });
      if (hung) line({ figure: `${v.id}_typed_streams_not_ended_by_interrupt`, count: hung, guard_ms: 30_000 });
    }

    if (PATHS.includes("talk")) {
      const turns: Turn[] = [];
      for (let i = -1; i < TURNS; i++)
        await attempt(`${v.id}_talk`, i, async () => {
          await quiet();
          const t0 = performance.now();
          const res = await post("/api/talk", { text: TALK });
          const tAnswer = performance.now();
          if (res.status !== 200) throw new Error(`/api/talk ${res.status} ${await res.text()}`);
          const tAudio = await media.until(() => loudAfter(t0), 15_000, "talk audio at the client");
          const voice = v.wire.after(t0);
          const c = chain([
            ["talk", t0],
            ["voice_request", voice.asked],
            ["voice_first_byte", voice.firstByte],
            ["client_audio", tAudio],
          ]);
          const floor = finite(voice.asked, voice.firstByte) ? voice.firstByte! - voice.asked! + TRANSPORT_MS : NaN;
          recordTurn(
            `${v.id}_talk`,
            i,
            c,
            floor,
            {
              talk_answer_ms: round(tAnswer - t0),
            },
            turns,
          );
          await sleep(300);
          await post("/api/interrupt");
          await sleep(200);
        });
      report(v.id, "talk", turns, { p50: 250 });
    }
  } catch (err) {
    line({ figure: `${v.id}_error`, error: (err as Error).message });
    console.error(`${v.id}: box exit code ${live.box.child.exitCode}; box stderr (tail):\n${live.box.stderr().slice(-2000)}`);
    process.exitCode = 1;
  } finally {
    await live.close();
  }
}

machineLineOf(BENCH, "start", {
  model_first_token_ms: MODEL_MS,
  model_tokens_per_s: TPS,
  voice_first_byte_ms: VOICE_MS,
  voice_speedup: SPEEDUP,
  transport_ms: TRANSPORT_MS,
  reply_tokens: TOKENS.length,
  first_phrase_tokens: PHRASE_TOKENS,
  nominal_floor_ms: NOMINAL_FLOOR,
  speculative_replies: process.env.BOX_SPECULATIVE_REPLIES ?? "default",
});
const model = await PacedModel.paced(MODEL_MS, TPS);
try {
  for (const id of VOICES) {
    const v = await pacedVoice(id, VOICE_MS, SPEEDUP);
    try {
      await main(v, model);
    } finally {
      await v.close();
    }
  }
  machineLineOf(BENCH, "end");
} finally {
  await model.close();
}
process.exit(process.exitCode ?? 0);
