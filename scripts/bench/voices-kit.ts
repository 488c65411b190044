// Helpers of the voices benchmark (scripts/bench/voices.ts): the clause, each hosted engine with
// its protocol fake at 0 ms latency, the same speech request sent raw with fetch (the fake's own
// first byte, so that "our overhead" is the engine's first PCM minus it), and the timers.
import type { Server } from "node:http";
import type { UtteranceChunk, VoiceEngine } from "../../box/tts/engine.ts";
import { CartesiaEngine } from "../../box/tts/cartesia/cartesia-engine.ts";
import { headersFor } from "../../box/tts/cartesia/cartesia-http.ts";
import {
  CARTESIA_DEFAULT_MODEL,
  CARTESIA_DEFAULT_SAMPLE_RATE,
  CARTESIA_VERSION,
  sseRequestBody,
} from "../../box/tts/cartesia/cartesia-wire.ts";
import { FAKE_CARTESIA_KEY, FAKE_VOICES, FakeCartesia } from "../../box/tts/cartesia/testing/fake-cartesia.ts";
import { ChatterboxEngine } from "../../box/tts/chatterbox/chatterbox-engine.ts";
import { FakeChatterbox } from "../../box/tts/chatterbox/testing/fake-chatterbox.ts";
import { ELEVENLABS_DEFAULTS, ElevenLabsEngine } from "../../box/tts/elevenlabs/elevenlabs-engine.ts";
import { FakeElevenLabs } from "../../box/tts/elevenlabs/testing/fake-elevenlabs.ts";

export const BENCH = "voices";
/** 12 words, no comma: one clause for the box's ClauseSplitter. */
export const CLAUSE = "Please remember to bring your umbrella because it might rain later today.";
export const HOSTED = ["elevenlabs", "cartesia", "chatterbox"] as const;
export type Hosted = (typeof HOSTED)[number];

const ELEVENLABS_KEY = "sk_bench_elevenlabs_0123456789";

/** A hosted engine on its fake: the engine, the raw request the engine sends, the box's env for it. */
export interface FakedEngine {
  id: Hosted;
  engine: VoiceEngine & { stream(text: string): AsyncIterable<UtteranceChunk> };
  /** The speech request as the engine sends it (same path, headers and body), for a raw fetch. */
  raw(text: string): { url: string; init: RequestInit };
  boxEnv: Record<string, string>;
  /** When each speech request reached the fake and when the fake had sent all of its answer. */
  speech: SpeechLog;
  close(): Promise<void>;
}

export interface SpeechLog {
  asked: number[];
  answered: number[];
}

/**
 * Stamps the fake's speech requests: a second `request` listener beside the fake's own. The fakes
 * keep their node:http server private, and none logs times, so the bench reaches in for it.
 */
function speechLog(fake: object, path: RegExp): SpeechLog {
  const log: SpeechLog = { asked: [], answered: [] };
  const server = (fake as unknown as { server?: Server }).server;
  if (!server) return log; // a fake that no longer has one: the live split is left out
  server.on("request", (req, res) => {
    if (!path.test((req.url ?? "").split("?")[0])) return;
    log.asked.push(performance.now());
    res.once("finish", () => log.answered.push(performance.now()));
  });
  return log;
}

// The fakes' speech: 60 ms of audio per character; ElevenLabs sends 10 characters a line, Cartesia 100 ms a chunk.
const MS_PER_CHAR = 60;
const CHARS_PER_LINE = 10;
const CARTESIA_CHUNK_MS = 100;

/**
 * Starts the fake of `id` with no latency. `speedup` 0: no pause between chunks (the issue's
 * setting); else each chunk follows the last after its audio length / speedup, as a provider
 * generating at `speedup` x real time would (Chatterbox pauses between sentences only, so not here).
 */
export async function fakedEngine(id: Hosted, speedup = 0): Promise<FakedEngine> {
  const gap = (audioMs: number) => (speedup > 0 ? audioMs / speedup : 0);
  if (id === "elevenlabs") {
    const fake = await FakeElevenLabs.start({
      apiKey: ELEVENLABS_KEY,
      latencyMs: 0,
      msPerChar: MS_PER_CHAR,
      charsPerLine: CHARS_PER_LINE,
      lineDelayMs: gap(MS_PER_CHAR * CHARS_PER_LINE),
    });
    const engine = new ElevenLabsEngine({ baseUrl: fake.url, apiKey: ELEVENLABS_KEY });
    const query = `output_format=${ELEVENLABS_DEFAULTS.outputFormat}`;
    return {
      id,
      engine,
      raw: (text) => ({
        url: `${fake.url}/v1/text-to-speech/${ELEVENLABS_DEFAULTS.defaultVoice}/stream/with-timestamps?${query}`,
        init: {
          method: "POST",
          headers: { "xi-api-key": ELEVENLABS_KEY, accept: "application/json", "content-type": "application/json" },
          body: JSON.stringify({ text, model_id: ELEVENLABS_DEFAULTS.modelId }),
        },
      }),
      boxEnv: { BOX_TTS: "elevenlabs", BOX_ELEVENLABS_BASE_URL: fake.url, BOX_ELEVENLABS_API_KEY: ELEVENLABS_KEY },
      speech: speechLog(fake, /^\/v1\/text-to-speech\/[^/]+\/stream\/with-timestamps$/),
      close: () => fake.close(),
    };
  }
  if (id === "cartesia") {
    const fake = await new FakeCartesia().listen();
    fake.mode = { latencyMs: 0, chunkMs: CARTESIA_CHUNK_MS, chunkDelayMs: gap(CARTESIA_CHUNK_MS) };
    const engine = new CartesiaEngine({ baseUrl: fake.url, apiKey: FAKE_CARTESIA_KEY });
    const conn = { baseUrl: fake.url, apiKey: FAKE_CARTESIA_KEY, timeoutMs: 10_000, version: CARTESIA_VERSION, fetch };
    return {
      id,
      engine,
      raw: (text) => ({
        url: `${fake.url}/tts/sse`,
        // The engine's first call lists the voices once and speaks with the first; the raw one names it.
        init: {
          method: "POST",
          headers: headersFor(conn, "text/event-stream", true),
          body: JSON.stringify(
            sseRequestBody({
              model: CARTESIA_DEFAULT_MODEL,
              transcript: text,
              voiceId: FAKE_VOICES[0].id,
              sampleRate: CARTESIA_DEFAULT_SAMPLE_RATE,
            }),
          ),
        },
      }),
      boxEnv: { BOX_TTS: "cartesia", BOX_CARTESIA_BASE_URL: fake.url, BOX_CARTESIA_API_KEY: FAKE_CARTESIA_KEY },
      speech: speechLog(fake, /^\/tts\/sse$/),
      close: () => fake.close(),
    };
  }
  const fake = (await FakeChatterbox.start({ msPerChar: MS_PER_CHAR })).set({ latencyMs: 0, streamGapMs: 0 });
  const engine = new ChatterboxEngine({ baseUrl: fake.url });
  return {
    id,
    engine,
    raw: (text) => ({
      url: `${fake.url}/tts`,
      // ChatterboxEngine's `/tts` body for the server's default voice, streamed.
      init: {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          text,
          voice_mode: "predefined",
          predefined_voice_id: "Emily.wav",
          output_format: "wav",
          split_text: true,
          chunk_size: 120,
          stream: true,
        }),
      },
    }),
    boxEnv: { BOX_TTS: "chatterbox", BOX_CHATTERBOX_URL: fake.url },
    speech: speechLog(fake, /^\/tts$/),
    close: () => fake.close(),
  };
}

/** ms from the call to the first chunk with samples, and to the end of the stream. */
export async function timeStream(chunks: AsyncIterable<UtteranceChunk>): Promise<{ first: number; end: number; samples: number }> {
  const t0 = performance.now();
  let first = NaN;
  let samples = 0;
  for await (const c of chunks) {
    if (c.pcm.length > 0 && Number.isNaN(first)) first = performance.now() - t0;
    samples += c.pcm.length;
  }
  return { first, end: performance.now() - t0, samples };
}

/** ms from fetch to the first body byte, and to the last (the body is read to its end). */
export async function timeRaw(req: { url: string; init: RequestInit }): Promise<{ first: number; end: number }> {
  const t0 = performance.now();
  const res = await fetch(req.url, req.init);
  if (res.status !== 200 || !res.body) throw new Error(`raw ${req.url}: ${res.status} ${await res.text()}`);
  const reader = res.body.getReader();
  let first = NaN;
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    if (Number.isNaN(first) && r.value.length > 0) first = performance.now() - t0;
  }
  return { first, end: performance.now() - t0 };
}

/** ms into `pcm` where a 10 ms window's RMS first exceeds `threshold` (what the client calls loud). */
export function onsetMs(pcm: Int16Array, sampleRate: number, threshold: number): number {
  const w = Math.round(sampleRate / 100);
  for (let at = 0; at + w <= pcm.length; at += w) {
    let sum = 0;
    for (let i = at; i < at + w; i++) sum += pcm[i] * pcm[i];
    if (Math.sqrt(sum / w) > threshold) return (at / sampleRate) * 1000;
  }
  return NaN;
}
