// Benchmark (prints figures; not a test) of a typed chat turn on the real box against the local
// OpenAI protocol fake with a 0 ms model: POST /api/chat {stream: true} -> first frame byte at the
// client, and the engine's own overhead = that time minus the time the fake held the request.
// Goal (issue, not asserted): engine overhead to the first chunk <= 5 ms p50.
// Two modes: no live session (reply_chunk frames, then a closing `reply` with a synthesised WAV),
// and a live session connected over WebRTC (reply_chunk frames; each clause spoken into it).
// Run: node_modules/.bin/bun scripts/bench/chat.ts      env BENCH_TURNS (200), BENCH_WARMUP (10)
import { FakeOpenAi } from "../../box/llm/testing/fake-openai.ts";
import type { FakeResponse, Frame } from "../../box/llm/testing/fake-server.ts";
import { spawnBox } from "../../box/testing/spawn-box.ts";
import { WrtcClient } from "../../box/media/testing/wrtc-client.ts";
import { emit, machine, sleep, summary } from "./bench-kit.ts";

const TURNS = Number(process.env.BENCH_TURNS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
// One clause in two deltas. A live turn whose clause is cut by an interrupt before it starts
// never ends (it waits for that clause's end), so each turn's only clause is heard first.
const REPLY = [{ text: "Hello there, " }, { text: "how can I help you today?" }];
const DRAIN_GUARD_MS = 5000;

type FakeTiming = { arrive: number; firstWrite: number; end: number };

/** The fake, unchanged, with its request arrival and writes timed from outside (same clock). */
class TimedFake extends FakeOpenAi {
  readonly timings: FakeTiming[] = [];
  private readonly arrivals: number[] = [];

  override async listen(): Promise<this> {
    await super.listen();
    // The fake keeps its server private; the first listener sees the request as headers land.
    (this as any).server.prependListener("request", (req: { method?: string; url?: string }) => {
      if (req.method === "POST" && req.url?.startsWith("/v1/chat/completions")) this.arrivals.push(performance.now());
    });
    return this;
  }

  protected override async play(res: FakeResponse, frames: Frame[]): Promise<void> {
    const t: FakeTiming = { arrive: this.arrivals.shift() ?? NaN, firstWrite: NaN, end: NaN };
    const write = res.write.bind(res) as (...a: unknown[]) => boolean;
    (res as any).write = (...a: unknown[]) => (Number.isNaN(t.firstWrite) && (t.firstWrite = performance.now()), write(...a));
    await super.play(res, frames);
    t.end = performance.now();
    this.timings.push(t);
  }
}

machine({ bench: "chat" });
const fake = await new TimedFake({ models: [{ id: "fake-chat" }], defaultScript: REPLY, latencyMs: 0 }).listen();
const box = await spawnBox({ BOX_OPENAI_BASE_URL: fake.url });

async function post(path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(box.url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

type Turn = { firstByte: number; firstType: string; fake: FakeTiming; hung: boolean };

/** One streamed turn; `afterFirst` runs once the first bytes are in (e.g. an interrupt). */
async function turn(afterFirst?: () => Promise<void>): Promise<Turn> {
  const before = fake.timings.length;
  const t0 = performance.now();
  const res = await fetch(box.url + "/api/chat", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message: "Hi, how are you?", stream: true }),
  });
  if (res.status !== 200) throw new Error(`/api/chat ${res.status} ${await res.text()}`);
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let text = "";
  let firstByte = NaN;
  let hung = false;
  for (;;) {
    const guard = Number.isNaN(firstByte) ? null : setTimeout(() => ((hung = true), void reader.cancel()), DRAIN_GUARD_MS);
    const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
    if (guard) clearTimeout(guard);
    if (done || !value) break;
    if (value.length && Number.isNaN(firstByte)) {
      firstByte = performance.now() - t0;
      await afterFirst?.();
    }
    text += dec.decode(value, { stream: true });
  }
  const firstType = JSON.parse(text.slice(0, text.indexOf("\n"))).type;
  const f = fake.timings[before];
  return { firstByte, firstType, hung, fake: { arrive: f.arrive - t0, firstWrite: f.firstWrite - t0, end: f.end - t0 } };
}

async function connectLive(): Promise<WrtcClient> {
  const client = new WrtcClient(4);
  await client.connect(async (offer) => {
    const r = await post("/connect", offer);
    if (r.status !== 200) throw new Error(`/connect ${r.status} ${JSON.stringify(r.json)}`);
    return { sdp: r.json.sdp, type: r.json.type };
  });
  await client.waitForFirstFrame(20_000);
  return client;
}

function report(mode: string, turns: Turn[]): void {
  const types = [...new Set(turns.map((t) => t.firstType))];
  emit(`chat_${mode}_first_byte`, {
    first_frame_types: types,
    ...summary(
      turns.map((t) => t.firstByte),
      [50, 99],
    ),
  });
  emit(
    `chat_${mode}_fake_model_time`,
    summary(
      turns.map((t) => t.fake.end - t.fake.arrive),
      [50, 99],
    ),
  );
  emit(`chat_${mode}_engine_overhead_to_first_byte`, {
    ...summary(
      turns.map((t) => t.firstByte - (t.fake.end - t.fake.arrive)),
      [50, 99],
    ),
    goal_p50_ms: 5,
  });
  emit(
    `chat_${mode}_post_to_model_request`,
    summary(
      turns.map((t) => t.fake.arrive),
      [50, 99],
    ),
  );
  emit(
    `chat_${mode}_model_done_to_first_byte`,
    summary(
      turns.map((t) => t.firstByte - t.fake.end),
      [50, 99],
    ),
  );
}

try {
  // No live session: one closing `reply` frame, its WAV synthesised before it is written.
  const oneShot: Turn[] = [];
  for (let i = 0; i < WARMUP + TURNS; i++) {
    const t = await turn();
    if (i >= WARMUP) oneShot.push(t);
  }
  report("one_shot", oneShot);

  // A live session: clauses stream as reply_chunk and are spoken into the session. Once the
  // clause is heard the turn is interrupted (which ends it) so turns do not wait out speech.
  let client = await connectLive();
  await sleep(1000);
  const live: Turn[] = [];
  let hung = 0;
  for (let i = 0; i < WARMUP + TURNS; i++) {
    // The previous clause's tail is still arriving after its interrupt; start from silence.
    await client.until(() => client.audioRmsOver(300) < 100, 3000, "silence").catch(() => null);
    const t = await turn(async () => {
      const from = performance.now();
      await client.until(() => client.audio.some((c) => c.at >= from && c.rms > 300), 3000, "clause audio").catch(() => null);
      await post("/api/interrupt");
    });
    if (t.hung) {
      // The turn did not end after the interrupt: a new session releases it.
      hung++;
      const old = client;
      client = await connectLive();
      old.close();
    }
    if (i >= WARMUP) live.push(t);
  }
  emit("chat_live_turns_not_ended_by_interrupt", { count: hung, of: WARMUP + TURNS, guard_ms: DRAIN_GUARD_MS });
  report("live", live);
  await post("/disconnect");
  client.close();
  machine({ bench: "chat", at: "end" });
} catch (err) {
  console.error(`bench failed: ${(err as Error).message}\nbox stderr (tail):\n${box.stderr().slice(-3000)}`);
  process.exitCode = 1;
} finally {
  await box.stop();
  await fake.close();
}
process.exit(process.exitCode ?? 0);
