// Parts of the realistic-turn benchmark (scripts/bench/real-turn.ts; a script, not a test): a model
// fake paced like a hosted model, the ElevenLabs and Cartesia fakes paced like a hosted voice, each
// stamping its own wire on the bench's clock, and the milestone chain whose splits add up to each
// turn's total. No WebRTC or box here (real-turn-live.ts), so its test runs on Node.
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { FakeOpenAi } from "../../box/llm/testing/fake-openai.ts";
import type { FakeResponse, Frame } from "../../box/llm/testing/fake-server.ts";
import type { Script } from "../../box/llm/testing/script.ts";
import { FakeCartesia, FAKE_CARTESIA_KEY } from "../../box/tts/cartesia/testing/fake-cartesia.ts";
import { FakeElevenLabs } from "../../box/tts/elevenlabs/testing/fake-elevenlabs.ts";

export const BENCH = "real-turn";

// The reply: the box asks for a tone tag by default (emotion_responsive), so a model that obeys
// spends its first tokens on it; then a first phrase of four words at a comma, then longer clauses.
const MARKER = ["[tone:", "happy", "] "];
// Short enough that a turn whose interrupt is missed (see real-turn.ts) still ends soon.
export const REPLY =
  "The museum opens daily, from nine in the morning until five in the evening, and on weekends it stays open an hour longer.";
/** What the floor counts as the first natural phrase (issue 23: a few words at a comma). */
export const FIRST_PHRASE = "The museum opens daily,";
/** The reply as model tokens: words with their leading space, punctuation on its own. */
export const TOKENS = [...MARKER, ...(REPLY.match(/\s*[\w']+|\s*[^\w\s]/g) ?? [])];
/** Tokens up to and including the first phrase's comma (the tone tag first). */
export const PHRASE_TOKENS = MARKER.length + (FIRST_PHRASE.match(/\s*[\w']+|\s*[^\w\s]/g) ?? []).length;

export interface ModelCall {
  arrive: number;
  /** The first write with words in it (the role-only opening chunk does not count). */
  firstToken: number;
  /** The write that completed FIRST_PHRASE. */
  phraseEnd: number;
  end: number;
  /** The box closed the stream before its end (a dropped speculation, an interrupt). */
  cut: boolean;
}

/**
 * The OpenAI protocol fake (unchanged wire) with a hosted model's pace: `firstTokenMs` to the first
 * token, then `tokensPerS`. Pauses are kept on absolute deadlines from the request's arrival, so a
 * late timer on a loaded machine does not slow every later token; every write is stamped.
 */
export class PacedModel extends FakeOpenAi {
  readonly calls: ModelCall[] = [];
  private readonly arrivals: number[] = [];

  static async paced(firstTokenMs: number, tokensPerS: number): Promise<PacedModel> {
    const gap = 1000 / tokensPerS;
    const script: Script = [
      { delayMs: firstTokenMs },
      ...TOKENS.flatMap((text, i) => (i === 0 ? [{ text }] : [{ delayMs: gap }, { text }])),
    ];
    return new PacedModel({ models: [{ id: "fake-chat" }], latencyMs: 0, defaultScript: script }).listen();
  }

  override async listen(): Promise<this> {
    await super.listen();
    (this as unknown as { server: Server }).server.prependListener("request", (req) => {
      if (req.method === "POST" && req.url?.startsWith("/v1/chat/completions")) this.arrivals.push(performance.now());
    });
    return this;
  }

  protected override async play(res: FakeResponse, frames: Frame[]): Promise<void> {
    const call: ModelCall = { arrive: this.arrivals.shift() ?? performance.now(), firstToken: NaN, phraseEnd: NaN, end: NaN, cut: false };
    this.calls.push(call);
    const w = res as unknown as {
      write(b: string | Uint8Array): boolean;
      end(): void;
      destroyed: boolean;
      writableEnded: boolean;
      socket?: Socket | null;
    };
    let words = "";
    let due = call.arrive;
    for (const f of frames) {
      if (w.destroyed || w.writableEnded) return void (call.cut = true);
      if (typeof f === "object" && "delayMs" in f) {
        due += f.delayMs;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        continue;
      }
      if (typeof f === "object" && "disconnect" in f) return void w.socket?.destroy();
      w.write(f);
      const text = typeof f === "string" ? /"content":"((?:[^"\\]|\\.)+)"/.exec(f)?.[1] : undefined;
      if (text) {
        const now = performance.now();
        if (Number.isNaN(call.firstToken)) call.firstToken = now;
        words += JSON.parse(`"${text}"`);
        if (Number.isNaN(call.phraseEnd) && words.includes(FIRST_PHRASE)) call.phraseEnd = now;
      }
    }
    if (!w.destroyed && !w.writableEnded) w.end();
    call.end = performance.now();
  }
}

/**
 * A voice fake's wire, stamped on the bench's clock: when speech was asked for (an HTTP speech
 * request arriving; on a WebSocket, each message from the box) and when the fake sent bytes (an
 * HTTP answer's first body write; every WebSocket write after the handshake).
 */
export class VoiceWire {
  readonly asked: number[] = [];
  readonly sent: number[] = [];

  constructor(server: Server | undefined, speechPath: RegExp) {
    if (!server) return; // a fake that no longer keeps one: the voice milestones are left out
    server.prependListener("request", (req, res) => {
      if (!speechPath.test((req.url ?? "").split("?")[0])) return;
      this.asked.push(performance.now());
      const write = res.write.bind(res) as (...a: unknown[]) => boolean;
      let first = true;
      (res as unknown as { write: typeof write }).write = (...a: unknown[]) => {
        if (first) (first = false), this.sent.push(performance.now());
        return write(...a);
      };
    });
    // Input-streaming sockets (ElevenLabs stream-input, Cartesia contexts), if a fake speaks them.
    server.prependListener("upgrade", (req, socket: Socket) => {
      if (!speechPath.test((req.url ?? "").split("?")[0])) return;
      const write = socket.write.bind(socket) as (...a: unknown[]) => boolean;
      let handshake = true;
      (socket as unknown as { write: typeof write }).write = (...a: unknown[]) => {
        if (!handshake) this.sent.push(performance.now());
        handshake = false;
        return write(...a);
      };
      socket.on("data", () => this.asked.push(performance.now()));
    });
  }

  /** The first ask at or after `t`, and the fake's first bytes after that ask. */
  after(t: number): { asked?: number; firstByte?: number } {
    const asked = this.asked.find((a) => a >= t);
    return { asked, firstByte: asked === undefined ? undefined : this.sent.find((s) => s >= asked) };
  }
}

export type HostedVoice = "elevenlabs" | "cartesia";

export interface PacedVoice {
  id: HostedVoice;
  boxEnv: Record<string, string>;
  wire: VoiceWire;
  close(): Promise<void>;
}

const ELEVENLABS_KEY = "sk_bench_elevenlabs_0123456789";
// Both fakes speak 60 ms of audio per character; ElevenLabs 10 characters a line, Cartesia 100 ms a chunk.
const MS_PER_CHAR = 60;
const CHARS_PER_LINE = 10;
const CARTESIA_CHUNK_MS = 100;

/** The fake of `id` over a real socket: `firstByteMs` before it answers, then `speedup` x real time, with alignment. */
export async function pacedVoice(id: HostedVoice, firstByteMs: number, speedup: number): Promise<PacedVoice> {
  if (id === "elevenlabs") {
    const fake = await FakeElevenLabs.start({
      apiKey: ELEVENLABS_KEY,
      latencyMs: firstByteMs,
      msPerChar: MS_PER_CHAR,
      charsPerLine: CHARS_PER_LINE,
      lineDelayMs: (MS_PER_CHAR * CHARS_PER_LINE) / speedup,
    });
    return {
      id,
      boxEnv: { BOX_TTS: "elevenlabs", BOX_ELEVENLABS_BASE_URL: fake.url, BOX_ELEVENLABS_API_KEY: ELEVENLABS_KEY },
      wire: new VoiceWire((fake as unknown as { server?: Server }).server, /\/text-to-speech\//),
      close: () => fake.close(),
    };
  }
  const fake = await new FakeCartesia().listen();
  fake.mode = { latencyMs: firstByteMs, chunkMs: CARTESIA_CHUNK_MS, chunkDelayMs: CARTESIA_CHUNK_MS / speedup };
  return {
    id,
    boxEnv: { BOX_TTS: "cartesia", BOX_CARTESIA_BASE_URL: fake.url, BOX_CARTESIA_API_KEY: FAKE_CARTESIA_KEY },
    wire: new VoiceWire((fake as unknown as { server?: Server }).server, /^\/tts\//),
    close: () => fake.close(),
  };
}

/** One turn's milestones in their expected order; absent ones (undefined or NaN) are left out. */
export type Mark = [name: string, at: number | undefined];

/**
 * The splits of a turn: each milestone counts from the later of itself and the one before it
 * (a stage that started early, e.g. a speculative model request before the final, waited 0 after
 * it), so the splits are never negative and add up to last - first exactly. `early` names the
 * milestones that came before their predecessor, and `at` is each one's raw time from the first.
 */
export function chain(marks: Mark[]): { total: number; splits: Record<string, number>; at: Record<string, number>; early: string[] } {
  const present = marks.filter((m): m is [string, number] => m[1] !== undefined && Number.isFinite(m[1]));
  const t0 = present[0][1];
  const splits: Record<string, number> = {};
  const at: Record<string, number> = {};
  const early: string[] = [];
  let prev = present[0];
  let eff = t0;
  for (const m of present.slice(1)) {
    if (m[1] < prev[1]) early.push(m[0]);
    const next = Math.max(eff, m[1]);
    splits[`${prev[0]}_to_${m[0]}`] = round(next - eff);
    at[m[0]] = round(m[1] - t0);
    eff = next;
    prev = m;
  }
  return { total: round(eff - t0), splits, at, early };
}

export const round = (x: number) => Math.round(x * 10) / 10;
