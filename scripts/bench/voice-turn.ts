// Benchmark: a spoken turn on the voice socket, from the last speech sample sent to the first
// reply audio at a WebRTC client, with a 0 ms protocol-fake model; split by the events the
// socket sends; and barge-in latency. Figures only, never assertions.
// Run: node_modules/.bin/bun scripts/bench/voice-turn.ts   (or BENCH_TURNS=20)
import { FakeOpenAi } from "../../box/llm/testing/fake-openai.ts";
import { spawnBox } from "../../box/testing/spawn-box.ts";
import { WrtcClient } from "../../box/media/testing/wrtc-client.ts";
import { energySpan, speech16k } from "../../box/speech/testing/speech-audio.ts";
import { WsClient } from "../../box/sockets/testing/ws-client.ts";
import { Mic } from "../../box/sockets/testing/mic.ts";
import { emit, machine, sleep, summary } from "./bench-kit.ts";

const TURNS = Number(process.env.BENCH_TURNS ?? 20);
const KEY = "bench_key";
const GRAMMAR = ["hello there", "please book a table for two"];

machine();
const fake = await FakeOpenAi.start({ models: [{ id: "fake-chat" }], latencyMs: 0, defaultScript: [{ text: "Sure. This reply keeps talking for a little while so that it can be interrupted. And a bit more." }] });
const box = await spawnBox({ BOX_API_KEYS: KEY, BOX_OPENAI_BASE_URL: fake.url, BOX_ASR: "pocketsphinx", BOX_ASR_GRAMMAR: JSON.stringify(GRAMMAR), BOX_IDLE_SECONDS: "600" });
const media = new WrtcClient(10);
try {
  await media.connect(async (offer) => {
    const r = (await (await fetch(box.url + "/connect", { method: "POST", headers: { "x-api-key": KEY, "content-type": "application/json" }, body: JSON.stringify(offer) })).json()) as { sdp: string; type: string };
    return r;
  });
  await media.waitForFirstFrame(20_000);
  const ws = new WsClient(box.url.replace("http", "ws") + "/api/voice/ws", { "x-api-key": KEY });
  await ws.waitType("ready", 15_000);
  const mic = new Mic(ws);
  mic.start();
  const hello = await speech16k("hello there");
  // Measure from the last voiced sample, not from the synthesiser's trailing silence.
  const trailingMs = hello.length / 16 - (energySpan(hello)?.endMs ?? hello.length / 16);
  const book = await speech16k("please book a table for two");
  const at = new Map<object, number>();
  const origPush = ws.frames.push.bind(ws.frames);
  ws.frames.push = (...fs) => (fs.forEach((f) => at.set(f, performance.now())), origPush(...fs));
  const firstAfter = (type: string, t: number, pred: (f: any) => boolean = () => true) => ws.frames.find((f) => f.type === type && (at.get(f) ?? 0) > t && pred(f));

  const total: number[] = [], eot: number[] = [], model: number[] = [], voice: number[] = [], transport: number[] = [], boxMetric: number[] = [];
  const barge: number[] = [], bargeDetect: number[] = [], bargeAfterEvent: number[] = [];
  for (let i = 0; i < TURNS; i++) {
    await media.until(() => media.audioRmsOver(300) < 100, 10_000, "quiet before the turn");
    const start = performance.now();
    mic.say(hello);
    await mic.drained();
    const tLast = mic.lastSpeechSentAt - trailingMs;
    const metric = await ws.waitFor((f) => f.type === "metric" && (at.get(f) ?? 0) > start, 20_000, "metric");
    await media.until(() => media.audio.some((c) => c.at > tLast && c.rms > 500), 10_000, "reply audio");
    const tAudio = media.audio.find((c) => c.at > tLast && c.rms > 500)!.at;
    const tFinal = at.get(firstAfter("final", start, (f) => f.text === "hello there")!)!;
    const tChunk = at.get(firstAfter("reply_chunk", tFinal)!)!;
    const tMetric = at.get(metric)!;
    total.push(tAudio - tLast);
    eot.push(tFinal - tLast);
    model.push(tChunk - tFinal);
    voice.push(tMetric - tChunk);
    transport.push(tAudio - tMetric);
    boxMetric.push(metric.first_audio_ms);
    // Barge in while the reply plays.
    await sleep(400);
    const tb = performance.now();
    mic.say(book);
    const ev = await ws.waitFor((f) => f.type === "state" && f.bargein === true && (at.get(f) ?? 0) > tb, 10_000, "barge-in").catch(() => null);
    if (ev) {
      const tEv = at.get(ev)!;
      await sleep(600);
      const loud = media.audio.filter((c) => c.at > tb && c.rms > 300).map((c) => c.at);
      const silentAt = loud.length ? Math.max(...loud) : tEv;
      barge.push(silentAt - tb);
      bargeDetect.push(tEv - tb);
      bargeAfterEvent.push(Math.max(0, silentAt - tEv));
    }
    // Let the barge-in turn (its reply) finish, then interrupt it so the next turn starts clean.
    await ws.waitFor((f) => f.type === "state" && f.thinking === false && (at.get(f) ?? 0) > tb, 20_000, "turn end").catch(() => null);
    await fetch(box.url + "/api/interrupt", { method: "POST", headers: { "x-api-key": KEY } });
    await sleep(300);
  }
  emit("voice_turn_end_of_speech_to_first_audio_at_client", summary(total));
  emit("voice_turn_split_end_of_turn_and_recognition", summary(eot));
  emit("voice_turn_split_model_to_first_clause", summary(model));
  emit("voice_turn_split_voice_and_render_to_first_audio_ready", summary(voice));
  emit("voice_turn_split_encode_transport_decode", summary(transport));
  emit("voice_turn_box_metric_first_audio_ms", summary(boxMetric));
  emit("barge_in_speech_onset_to_silence_at_client", summary(barge));
  emit("barge_in_speech_onset_to_detection_event", summary(bargeDetect));
  emit("barge_in_detection_to_silence_at_client", summary(bargeAfterEvent));
  mic.stop();
  ws.close();
} finally {
  media.close();
  await box.stop();
  await fake.close();
}
process.exit(0);
