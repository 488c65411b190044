// Integration: barge-in in two steps (barge-in.ts) on the real box: a short voiced burst (a
// cough) and a lone "yeah" over the speaking avatar pause it and it goes on with the whole reply;
// a real sentence interrupts it as before. The model is the OpenAI protocol fake; recognition is
// pocketsphinx with a grammar; the avatar's audio is read at a WebRTC client.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeOpenAi } from "../../llm/testing/fake-openai.ts";
import { spawnBox, type RunningBox } from "../../testing/spawn-box.ts";
import { WrtcClient } from "../../media/testing/wrtc-client.ts";
import { energySpan, speech16k } from "../../stt/testing/speech-audio.ts";
import { WsClient } from "../testing/ws-client.ts";
import { Mic } from "../testing/mic.ts";

const KEY = "barge_key";
const H = { "x-api-key": KEY };
const GRAMMAR = ["hello there", "please book a table for two", "yeah"];
// One clause with no stops: espeak's own pauses inside it stay short (~130 ms).
const REPLY =
  "This answer keeps on talking in one long sentence so that there is plenty of time to make a little noise over it and carry on.";
const LOUD = 300;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let fake: FakeOpenAi;
let box: RunningBox;
let media: WrtcClient;
let ws: WsClient;
let mic: Mic;

beforeAll(async () => {
  fake = await FakeOpenAi.start({ models: [{ id: "fake-chat" }], defaultScript: [{ text: REPLY }] });
  box = await spawnBox({
    BOX_API_KEYS: KEY,
    BOX_OPENAI_BASE_URL: fake.url,
    BOX_ASR: "pocketsphinx",
    BOX_ASR_GRAMMAR: JSON.stringify(GRAMMAR),
    BOX_SPECULATIVE_REPLIES: "off",
  });
  media = new WrtcClient(4);
  await media.connect(
    async (offer) =>
      (await (
        await fetch(box.url + "/connect", {
          method: "POST",
          headers: { ...H, "content-type": "application/json" },
          body: JSON.stringify(offer),
        })
      ).json()) as any,
  );
  await media.waitForFirstFrame(20_000);
  ws = new WsClient(box.url.replace("http", "ws") + "/api/voice/ws", H);
  await ws.waitType("ready", 15_000);
  mic = new Mic(ws);
  mic.start();
}, 90_000);
afterAll(async () => {
  mic?.stop();
  ws?.close();
  media?.close();
  await box?.stop();
  await fake?.close();
});

/** A cough: the first 150 ms of a voiced "ugh" (shorter than speech; Silero hears a voice in it). */
async function cough(): Promise<Int16Array> {
  const ugh = await speech16k("ugh");
  const at = energySpan(ugh)!.startMs * 16;
  return ugh.slice(at, at + 150 * 16);
}

/**
 * One turn of REPLY; `over` is played over it once it speaks. Returns the socket's frames of the
 * turn and the reply's audio at the client: its loud and its quiet 10 ms chunks (first to last loud).
 */
async function turnWith(over: Int16Array | null) {
  await media.until(() => media.audioRmsOver(300) < 100, 15_000, "quiet before the turn");
  const from = ws.frames.length;
  const requests = fake.requests.length;
  mic.say(await speech16k("hello there"));
  await ws.waitFor((f) => ws.frames.indexOf(f) >= from && f.type === "state" && f.speaking === true, 20_000, "speaking");
  const t0 = performance.now();
  await media.until(() => media.audioRmsOver(200) > LOUD, 5000, "avatar speech");
  if (over) {
    await sleep(700);
    mic.say(over);
  }
  await ws.waitFor((f) => ws.frames.indexOf(f) >= from && f.type === "state" && f.thinking === false, 30_000, "turn end");
  await sleep(1500); // late words, a turn they might start
  const frames = ws.frames.slice(from);
  const chunks = media.audio.filter((c) => c.at >= t0);
  const loud = chunks.filter((c) => c.rms > LOUD);
  const first = chunks.indexOf(loud[0]);
  const last = chunks.indexOf(loud.at(-1)!);
  const loudMs = loud.length * 10;
  return {
    frames,
    loudMs,
    quietMs: (last - first + 1) * 10 - loudMs,
    newRequests: fake.requests.slice(requests).filter((r: any) => r.body?.messages),
  };
}

describe("barge-in in two steps", () => {
  it("a cough pauses the avatar and it goes on: the whole reply is said, no bargein", async () => {
    const plain = await turnWith(null);
    const coughed = await turnWith(await cough());
    for (const t of [plain, coughed]) {
      expect(t.frames.some((f) => f.type === "state" && f.bargein === true)).toBe(false);
      expect(t.frames.find((f) => f.type === "reply")).toMatchObject({ reply: REPLY });
      expect(t.frames.filter((f) => f.type === "final")).toEqual([{ type: "final", text: "hello there", continues: false }]);
    }
    // Paused: the same sentence took longer, by a silence at least the hold's quiet wait ...
    const figures = JSON.stringify({ plain: [plain.loudMs, plain.quietMs], coughed: [coughed.loudMs, coughed.quietMs] });
    expect(coughed.quietMs - plain.quietMs, figures).toBeGreaterThanOrEqual(120);
    // ... and nothing lost or said twice: as much speech as without the cough.
    expect(Math.abs(coughed.loudMs - plain.loudMs), figures).toBeLessThan(plain.loudMs * 0.1);
  }, 90_000);

  it("a lone 'yeah' over the avatar: it goes on, no bargein, no turn for the 'yeah'", async () => {
    const t = await turnWith(await speech16k("yeah"));
    expect(t.frames.some((f) => f.type === "state" && f.bargein === true)).toBe(false);
    expect(t.frames.find((f) => f.type === "reply")).toMatchObject({ reply: REPLY });
    expect(t.frames.filter((f) => f.type === "final").map((f) => f.text)).toEqual(["hello there"]);
    expect(t.newRequests).toHaveLength(1);
    expect(t.newRequests[0].body.messages.at(-1)).toMatchObject({ role: "user", content: "hello there" });
  }, 90_000);

  it("a real sentence over the avatar interrupts it as before: state {speaking: false, bargein: true}, then its turn", async () => {
    const from = ws.frames.length;
    fake.enqueue([{ text: REPLY }], [{ text: "Booked." }]);
    await media.until(() => media.audioRmsOver(300) < 100, 15_000, "quiet before the turn");
    mic.say(await speech16k("hello there"));
    await ws.waitFor((f) => ws.frames.indexOf(f) >= from && f.type === "state" && f.speaking === true, 20_000, "speaking");
    await media.until(() => media.audioRmsOver(200) > LOUD, 5000, "avatar speech");
    await sleep(500);
    mic.say(await speech16k("please book a table for two"));
    const barge = await ws.waitFor((f) => ws.frames.indexOf(f) >= from && f.type === "state" && f.bargein === true, 15_000, "bargein");
    expect(barge).toEqual({ type: "state", speaking: false, bargein: true });
    // Cut, not held: the rest of the reply never plays (as the one-step barge-in test checks).
    const t0 = performance.now();
    await sleep(1000);
    expect(media.audio.filter((c) => c.at > t0 + 300 && c.rms > LOUD)).toHaveLength(0);
    const final = await ws.waitFor((f) => ws.frames.indexOf(f) > ws.frames.indexOf(barge) && f.type === "final", 20_000, "final");
    expect(final.text).toBe("please book a table for two");
    await ws.waitFor((f) => f.type === "reply" && f.reply === "Booked.", 20_000, "the new turn's reply");
  }, 90_000);
});
