// Integration: speculative replies on the microphone socket (issue 14). The real box, espeak speech
// recognised by pocketsphinx with a grammar (exact words), the OpenAI protocol fake answering by
// the words it was asked about, so a reply prepared during the end-of-turn wait and one started
// after it get the same script however many times the words were revised.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeOpenAi } from "../../llm/testing/fake-openai.ts";
import type { FakeRequest, FakeResponse } from "../../llm/testing/fake-server.ts";
import type { RecordedRequest, Script } from "../../llm/testing/script.ts";
import { spawnBox, type RunningBox } from "../../testing/spawn-box.ts";
import { WrtcClient } from "../../media/testing/wrtc-client.ts";
import { concat, energySpan, silence, speech16k } from "../../stt/testing/speech-audio.ts";
import { WsClient } from "../testing/ws-client.ts";
import { Mic } from "../testing/mic.ts";

const KEY = "turns_key";
const H = { "x-api-key": KEY };
const GRAMMAR = [
  "hello there",
  "book a table and",
  "for two please",
  "please book a table for two",
  "goodbye for now",
  "book a table",
  "book a table for two please",
];
const TOOL = {
  name: "book_table",
  description: "Book a table",
  mode: "fire_and_forget",
  parameters: { type: "object", properties: { people: { type: "integer" } }, required: ["people"] },
};

/** Answers a person's words with the script set for them (the default otherwise); tool rounds use the queue. */
class WordsFake extends FakeOpenAi {
  readonly answers = new Map<string, Script>();
  protected override handle(req: FakeRequest, rec: RecordedRequest, res: FakeResponse) {
    const last = rec.body?.messages?.at(-1);
    const script = last?.role === "user" ? this.answers.get(String(last.content)) : undefined;
    if (script) this.queue.unshift(script);
    return super.handle(req, rec, res);
  }
  /** The person's words of every generation request so far. */
  asked(): string[] {
    return this.requests
      .map((r) => r.body?.messages?.at(-1))
      .filter((m) => m?.role === "user")
      .map((m) => String(m.content));
  }
}

let fake: WordsFake;
const boxes: RunningBox[] = [];
const medias: WrtcClient[] = [];

async function startBox(env: Record<string, string> = {}) {
  const box = await spawnBox({
    BOX_API_KEYS: KEY,
    BOX_OPENAI_BASE_URL: fake.url,
    BOX_ASR: "pocketsphinx",
    BOX_ASR_GRAMMAR: JSON.stringify(GRAMMAR),
    ...env,
  });
  boxes.push(box);
  const media = new WrtcClient(10);
  medias.push(media);
  await media.connect(async (offer) => {
    const r = (await (
      await fetch(box.url + "/connect", {
        method: "POST",
        headers: { ...H, "content-type": "application/json" },
        body: JSON.stringify(offer),
      })
    ).json()) as any;
    return { sdp: r.sdp, type: r.type };
  });
  await media.waitForFirstFrame(20_000);
  return box;
}

/** Runs `body` with a voice socket open on `box` and its microphone sending; closes both after. */
async function withMic(box: RunningBox, body: (m: { ws: WsClient; mic: Mic }) => Promise<void>): Promise<void> {
  const ws = new WsClient(box.url.replace("http", "ws") + "/api/voice/ws", H);
  await ws.opened;
  const mic = new Mic(ws);
  try {
    await ws.waitType("ready", 15_000);
    mic.start();
    await body({ ws, mic });
  } finally {
    mic.stop();
    ws.close();
    await ws.closed;
  }
}

/** The voiced part of `words` (espeak's leading and trailing silence cut off). */
async function voiced(words: string): Promise<Int16Array> {
  const pcm = await speech16k(words);
  const span = energySpan(pcm)!;
  return pcm.subarray(16 * span.startMs, 16 * span.endMs);
}

const idx = (ws: WsClient, pred: (f: Record<string, any>) => boolean) => ws.frames.findIndex(pred);

async function transcript(box: RunningBox): Promise<{ role: string; text: string }[]> {
  const list = (await (await fetch(box.url + "/conversations", { headers: H })).json()) as { items: { id: string }[] };
  const turns: { role: string; text: string }[] = [];
  for (const c of list.items)
    turns.push(...((await (await fetch(`${box.url}/conversations/${c.id}`, { headers: H })).json()) as any).turns);
  return turns;
}

let box: RunningBox;

beforeAll(async () => {
  fake = await new WordsFake({ models: [{ id: "fake-chat" }], defaultScript: [{ text: "ok" }] }).listen();
  box = await startBox();
  const r = await fetch(box.url + "/api/settings", {
    method: "POST",
    headers: { ...H, "content-type": "application/json" },
    body: JSON.stringify({ tools: [TOOL] }),
  });
  expect(r.status).toBe(200);
}, 90_000);
afterAll(async () => {
  for (const m of medias) m.close();
  for (const b of boxes) await b.stop();
  await fake?.close();
});

describe("speculative replies", () => {
  it("a reply prepared during the end-of-turn wait goes out after final, with metric.spec true", async () => {
    await withMic(box, async ({ ws, mic }) => {
      fake.answers.set("hello there", [{ text: "Hello to you too! How can I help?" }]);
      mic.say(await speech16k("hello there"));
      await ws.waitType("reply", 20_000);
      await ws.waitFor((f) => f.type === "state" && f.thinking === false, 10_000);
      const metric = await ws.waitType("metric", 10_000);
      expect(metric).toEqual({ type: "metric", first_audio_ms: expect.any(Number), spec: true });
      expect(ws.frames.filter((f) => f.type === "final")).toEqual([{ type: "final", text: "hello there", continues: false }]);
      const final = idx(ws, (f) => f.type === "final");
      // Everything of the reply comes after the final that confirmed it, in the usual order.
      expect(final).toBeLessThan(idx(ws, (f) => f.type === "state" && f.thinking === true));
      expect(idx(ws, (f) => f.type === "state" && f.thinking === true)).toBeLessThan(idx(ws, (f) => f.type === "reply_chunk"));
      expect(final).toBeLessThan(idx(ws, (f) => f.type === "metric"));
      expect(idx(ws, (f) => f.type === "reply_chunk")).toBeLessThan(idx(ws, (f) => f.type === "reply"));
      expect(ws.frames.find((f) => f.type === "reply")).toMatchObject({ reply: "Hello to you too! How can I help?" });
      expect(ws.frames.filter((f) => f.type === "state" && f.thinking === true)).toHaveLength(1);
      expect(fake.asked()).toContain("hello there");
    });
  }, 60_000);

  it("the person going on drops the speculation: no frame, no tool call, no transcript; the turn answers all the words", async () => {
    await withMic(box, async ({ ws, mic }) => {
      const before = fake.asked().length;
      // Prepared on the first words: a clause and a tool call, neither of which may ever surface.
      fake.answers.set("book a table", [{ text: "Dropped clause here. " }, { toolCall: { name: "book_table", args: { people: 9 } } }]);
      fake.answers.set("book a table for two please", [{ text: "Two it is." }]);
      // "book a table" looks complete: its first quiet window starts the speculation; the voice
      // comes back 180 ms later, inside the 220 ms end-of-turn wait.
      mic.say(concat(await voiced("book a table"), silence(180), await voiced("for two please"), silence(400)));
      const reply = await ws.waitType("reply", 30_000);
      await ws.waitFor((f) => f.type === "state" && f.thinking === false, 10_000);
      expect(reply).toMatchObject({ reply: "Two it is." });
      // The speculation did run on the first words, and was dropped.
      expect(fake.asked().slice(before)).toContain("book a table");
      expect(fake.lastRequest!.body.messages.at(-1)).toMatchObject({ role: "user", content: "book a table for two please" });
      expect(ws.frames.filter((f) => f.type === "final")).toEqual([
        { type: "final", text: "book a table for two please", continues: false },
      ]);
      expect(JSON.stringify(ws.frames)).not.toContain("Dropped clause");
      expect(ws.frames.filter((f) => f.type.startsWith("tool"))).toEqual([]);
      expect(ws.frames.filter((f) => f.type === "reply_error")).toEqual([]);
      expect(ws.frames.filter((f) => f.type === "state" && f.thinking === true)).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 300));
      const turns = await transcript(box);
      expect(turns.map((t) => t.text)).not.toContain("book a table");
      expect(JSON.stringify(turns)).not.toContain("Dropped clause");
      expect(turns).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ role: "user", text: "book a table for two please" }),
          expect.objectContaining({ role: "assistant", text: "Two it is." }),
        ]),
      );
    });
  }, 60_000);

  it("words that do not look complete start no model request: after 'and' the turn waits, then answers all the words", async () => {
    await withMic(box, async ({ ws, mic }) => {
      const before = fake.asked().length;
      fake.answers.set("book a table and", [{ text: "Never asked for." }]);
      fake.answers.set("book a table and for two please", [{ text: "Two it is." }]);
      // "and" holds the turn ~1.2 s: the 600 ms pause ends the voice but not the turn.
      mic.say(concat(await speech16k("book a table and"), silence(600), await speech16k("for two please")));
      const reply = await ws.waitType("reply", 30_000);
      await ws.waitFor((f) => f.type === "state" && f.thinking === false, 10_000);
      expect(reply).toMatchObject({ reply: "Two it is." });
      expect(fake.asked().slice(before)).not.toContain("book a table and");
      expect(fake.asked().slice(before)).toContain("book a table and for two please");
      expect(ws.frames.filter((f) => f.type === "final")).toEqual([
        { type: "final", text: "book a table and for two please", continues: false },
      ]);
      expect(JSON.stringify(ws.frames)).not.toContain("Never asked");
    });
  }, 60_000);

  it("a speculative turn's tool call reaches the application only after final", async () => {
    await withMic(box, async ({ ws, mic }) => {
      fake.answers.set("please book a table for two", [{ toolCall: { name: "book_table", args: { people: 2 } } }]);
      fake.enqueue([{ text: "Booked for two." }]); // the round after the tool result
      mic.say(await speech16k("please book a table for two"));
      const call = await ws.waitType("tool_call", 20_000);
      expect(call).toMatchObject({ name: "book_table", args: { people: 2 }, mode: "fire_and_forget" });
      await ws.waitType("reply", 20_000);
      expect(idx(ws, (f) => f.type === "final")).toBeGreaterThanOrEqual(0);
      expect(idx(ws, (f) => f.type === "final")).toBeLessThan(idx(ws, (f) => f.type === "tool_call_started"));
      expect(ws.frames.filter((f) => f.type === "tool_call")).toHaveLength(1);
      // It was the speculative turn that called it (prepared early, confirmed by the final).
      expect(await ws.waitType("metric", 10_000)).toMatchObject({ spec: true });
    });
  }, 60_000);
});

describe("end of turn", () => {
  it("a voiced sound too short for speech after held words makes the wait start again from its end", async () => {
    await withMic(box, async ({ ws, mic }) => {
      fake.answers.set("book a table and for two please", [{ text: "Two it is." }]);
      // "and" holds 1200 ms. A 140 ms "ah" 500 ms into that silence (under the VAD's 250 ms of
      // speech) restarts the wait from its end, so words 900 ms after it still join this turn;
      // counted from the end of "and", the turn would have been taken before them.
      const ah = (await speech16k("ah")).subarray(0, 16 * 140);
      mic.say(concat(await speech16k("book a table and"), silence(500), ah, silence(900), await speech16k("for two please")));
      await ws.waitType("reply", 30_000);
      expect(ws.frames.filter((f) => f.type === "final")).toEqual([
        { type: "final", text: "book a table and for two please", continues: false },
      ]);
    });
  }, 60_000);
});

describe("speculation switched off (BOX_SPECULATIVE_REPLIES=0)", () => {
  it("no reply starts before the turn ends: metric.spec is false", async () => {
    const off = await startBox({ BOX_SPECULATIVE_REPLIES: "0" });
    await withMic(off, async ({ ws, mic }) => {
      const before = fake.asked().length;
      fake.answers.set("goodbye for now", [{ text: "See you soon." }]);
      mic.say(await speech16k("goodbye for now"));
      await ws.waitType("reply", 20_000);
      expect(await ws.waitType("metric", 10_000)).toEqual({ type: "metric", first_audio_ms: expect.any(Number), spec: false });
      // One model request for these words: the one made after the final.
      expect(
        fake
          .asked()
          .slice(before)
          .filter((w) => w === "goodbye for now"),
      ).toHaveLength(1);
    });
  }, 90_000);
});
