// Benchmark: a spoken turn on the voice socket, from the last voiced sample sent to the first
// reply audio heard at a WebRTC client, with a 0 ms protocol-fake model; split by the events the
// socket sends; and barge-in latency. Figures only, never assertions.
//
// Every turn is measured on its own milestones, in time order: last voiced sample → `final` →
// first `reply_chunk` → `metric` → first loud reply audio at the client. The splits are the gaps
// between consecutive milestones, so they add up to the total for every turn (checked and printed
// as `voice_turn_split_check`). Each turn waits for its own events (matched by text and order),
// and the barge-in turn is finished and silenced before the next turn starts, so no event or
// sound of one turn is counted in another.
// Run: node_modules/.bin/bun scripts/bench/voice-turn.ts   (BENCH_TURNS=20 by default)
import { energySpan, speech16k } from "../../box/stt/testing/speech-audio.ts";
import { openVoiceBench, type Frame } from "./voice-bench-kit.ts";
import { emit, machine, sleep, summary } from "./bench-kit.ts";

const TURNS = Number(process.env.BENCH_TURNS ?? 20);
/** The fake model's time to its first token: 0 measures our own overhead; 300-500 is a real hosted model. */
const MODEL_MS = Number(process.env.BENCH_MODEL_MS ?? 0);
const GRAMMAR = ["hello there", "please book a table for two"];
const LOUD = 500; // RMS (16-bit) of reply speech at the client; the idle face is silent
const SILENT = 300;

machine({ speculative_replies: process.env.BOX_SPECULATIVE_REPLIES ?? "default", model_ms: MODEL_MS });
const v = await openVoiceBench({
  reply: "Sure. This reply keeps talking for a little while so that it can be interrupted. And a bit more.",
  grammar: GRAMMAR,
  keepRecent: 10,
  modelMs: MODEL_MS,
  env: process.env.BOX_SPECULATIVE_REPLIES ? { BOX_SPECULATIVE_REPLIES: process.env.BOX_SPECULATIVE_REPLIES } : {},
});
const { media, ws, mic, when } = v;
try {
  const hello = await speech16k("hello there");
  const book = await speech16k("please book a table for two");
  // Measure from the last voiced sample, not from the synthesiser's trailing silence; and a
  // barge-in from the first voiced sample of the interruption.
  const helloTrailMs = hello.length / 16 - (energySpan(hello)?.endMs ?? hello.length / 16);
  const bookLeadMs = energySpan(book)?.startMs ?? 0;
  /** The first frame of `type` that arrived after `t` and matches. */
  const waitAfter = (type: string, t: number, what: string, pred: (f: Frame) => boolean = () => true, timeoutMs = 20_000) =>
    ws.waitFor((f) => f.type === type && when(f) > t && pred(f), timeoutMs, what);
  const firstLoudAfter = (t: number) => media.audio.find((c) => c.at > t && c.rms > LOUD)?.at;

  const total: number[] = [],
    eot: number[] = [],
    model: number[] = [],
    voice: number[] = [],
    transport: number[] = [],
    boxMetric: number[] = [];
  const barge: number[] = [],
    bargeDetect: number[] = [],
    bargeAfterEvent: number[] = [];
  let spec = 0,
    outOfOrder = 0,
    worstSumError = 0;
  for (let i = 0; i < TURNS; i++) {
    await media.until(() => media.audioRmsOver(300) < 100, 15_000, "quiet before the turn");
    const start = performance.now();
    mic.say(hello);
    await mic.drained();
    const tLast = mic.lastSpeechSentAt - helloTrailMs;
    const final = await waitAfter("final", start, "final of the turn", (f) => f.text === "hello there");
    const tFinal = when(final);
    const chunk = await waitAfter("reply_chunk", tFinal - 1, "first reply_chunk");
    const metric = await waitAfter("metric", start, "metric of the turn");
    const tAudio = await media.until(() => firstLoudAfter(Math.max(tLast, tFinal - 50)), 10_000, "reply audio at the client");
    // Milestones in the order they happened; consecutive gaps telescope to the total.
    const marks = [tLast, tFinal, when(chunk), when(metric), tAudio];
    const gaps = marks.slice(1).map((t, k) => t - marks[k]);
    if (gaps.some((g) => g < 0)) outOfOrder++;
    worstSumError = Math.max(worstSumError, Math.abs(gaps.reduce((a, b) => a + b, 0) - (tAudio - tLast)));
    total.push(tAudio - tLast);
    eot.push(gaps[0]);
    model.push(gaps[1]);
    voice.push(gaps[2]);
    transport.push(gaps[3]);
    boxMetric.push(metric.first_audio_ms);
    if (metric.spec === true) spec++;

    // Barge in while the reply plays: inside its long second clause, not in the pause after "Sure.".
    await sleep(1200);
    const tb = performance.now();
    mic.say(book);
    const onset = tb + bookLeadMs;
    const ev = await waitAfter("state", tb, "barge-in", (f) => f.bargein === true, 10_000).catch(() => null);
    if (ev) {
      const tEv = when(ev);
      await sleep(600);
      const loud = media.audio.filter((c) => c.at > onset && c.at < tEv + 600 && c.rms > SILENT).map((c) => c.at);
      const silentAt = loud.length ? Math.max(...loud) : onset;
      barge.push(silentAt - onset);
      bargeDetect.push(tEv - onset);
      bargeAfterEvent.push(silentAt - tEv);
    }
    // Finish the interruption's own turn (its final, its reply's end), then silence it, so the
    // next turn starts clean.
    const bookFinal = await waitAfter("final", tb, "final of the interruption", (f) => f.text === GRAMMAR[1]).catch(() => null);
    if (bookFinal)
      await waitAfter("state", when(bookFinal), "end of the interruption's reply", (f) => f.thinking === false).catch(() => null);
    await v.interrupt();
    await sleep(300);
  }
  emit("voice_turn_end_of_speech_to_first_audio_at_client", {
    ...summary(total),
    goal: "p50 <= 350 ms, p95 <= 450 ms",
    values: total.map(Math.round),
  });
  emit("voice_turn_split_end_of_turn_and_recognition", { ...summary(eot), values: eot.map(Math.round) });
  emit("voice_turn_split_final_to_first_reply_chunk", summary(model));
  emit("voice_turn_split_reply_chunk_to_first_audio_ready", summary(voice));
  emit("voice_turn_split_audio_ready_to_heard_at_client", summary(transport));
  emit("voice_turn_split_check", {
    turns: total.length,
    turns_with_a_negative_gap: outOfOrder,
    worst_abs_sum_minus_total_ms: +worstSumError.toFixed(3),
  });
  emit("voice_turn_box_metric_first_audio_ms", { ...summary(boxMetric), spec_true: spec, turns: total.length });
  emit("barge_in_speech_onset_to_silence_at_client", { ...summary(barge), goal: "p50 <= 200 ms" });
  emit("barge_in_speech_onset_to_detection_event", summary(bargeDetect));
  emit("barge_in_detection_event_to_silence_at_client", summary(bargeAfterEvent));
} finally {
  await v.close();
}
process.exit(0);
