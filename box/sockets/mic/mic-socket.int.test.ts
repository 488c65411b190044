// Integration: the microphone socket on the real box, fed espeak speech and silence; the model
// is the OpenAI protocol fake; recognition is pocketsphinx with a grammar (exact words).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeOpenAi } from "../../llm/testing/fake-openai.ts";
import { spawnBox, type RunningBox } from "../../testing/spawn-box.ts";
import { WrtcClient } from "../../media/testing/wrtc-client.ts";
import { speech16k } from "../../stt/testing/speech-audio.ts";
import { WsClient } from "../testing/ws-client.ts";
import { Mic } from "../testing/mic.ts";

const KEY = "voice_key";
const GRAMMAR = [
  "hello there",
  "please book a table for two",
  "goodbye for now",
  "let me think",
  "give me a moment",
  "can we speak spanish",
];
/**
 * Answers every generation request with `always` while it is set. A speculative reply starts at
 * the voice's first quiet window; when the recogniser then revises its words ("give me a moment"
 * became "give" on this grammar), that speculation is dropped and the turn asks again: a one-shot
 * queued script would have gone to the dropped request.
 */

let fake: FakeOpenAi;
let box: RunningBox;
let media: WrtcClient;

const H = { "x-api-key": KEY };
const wsUrl = (b: RunningBox) => b.url.replace("http", "ws") + "/api/voice/ws";

async function connectMedia(b: RunningBox) {
  const c = new WrtcClient(10);
  await c.connect(async (offer) => {
    const r = (await (
      await fetch(b.url + "/connect", {
        method: "POST",
        headers: { ...H, "content-type": "application/json" },
        body: JSON.stringify(offer),
      })
    ).json()) as any;
    return { sdp: r.sdp, type: r.type };
  });
  await c.waitForFirstFrame(20_000);
  return c;
}

async function openMic() {
  const ws = new WsClient(wsUrl(box), H);
  await ws.opened;
  await ws.waitType("ready", 15_000);
  const mic = new Mic(ws);
  mic.start();
  return { ws, mic };
}

beforeAll(async () => {
  fake = await new FakeOpenAi({ models: [{ id: "fake-chat" }], defaultScript: [{ text: "ok" }] }).listen();
  box = await spawnBox({
    BOX_API_KEYS: KEY,
    BOX_OPENAI_BASE_URL: fake.url,
    BOX_ASR: "pocketsphinx",
    BOX_ASR_GRAMMAR: JSON.stringify(GRAMMAR),
    BOX_PAUSE_MAX_SECONDS: "2",
    BOX_SOCKET_CHECK_MS: "100",
  });
  media = await connectMedia(box);
}, 90_000);
afterAll(async () => {
  media?.close();
  await box.stop();
  await fake.close();
});

describe("voice socket refusals", () => {
  it("401 at upgrade for a bad credential, no socket", async () => {
    const ws = new WsClient(wsUrl(box), { "x-api-key": "nope" });
    const err = (await ws.opened.catch((e) => e)) as { status: number; body: string };
    expect(err.status).toBe(401);
    expect(JSON.parse(err.body)).toEqual({ code: "invalid_api_key", message: expect.any(String) });
  });

  it("4003 while another socket holds the mic slot: error event first, same sentence and code", async () => {
    const { ws, mic } = await openMic();
    const second = new WsClient(wsUrl(box), H);
    await second.closed;
    expect(second.closeCode).toBe(4003);
    expect(second.frames).toEqual([{ type: "error", error: expect.any(String), fatal: true, code: 4003 }]);
    expect(second.closeReason).toBe(second.frames[0].error);
    mic.stop();
    ws.close();
    await ws.closed;
  });

  it("4001 without recognition, 4002 without a live session", async () => {
    const noAsr = await spawnBox({ BOX_API_KEYS: KEY, BOX_ASR: "none" });
    try {
      const ws = new WsClient(wsUrl(noAsr), H);
      await ws.closed;
      expect(ws.closeCode).toBe(4001);
      expect(ws.frames[0]).toMatchObject({ type: "error", fatal: true, code: 4001 });
    } finally {
      await noAsr.stop();
    }
    const noLive = await spawnBox({ BOX_API_KEYS: KEY, BOX_ASR: "pocketsphinx" });
    try {
      const ws = new WsClient(wsUrl(noLive), H);
      await ws.closed;
      expect(ws.closeCode).toBe(4002);
      expect(ws.frames[0]).toMatchObject({ type: "error", fatal: true, code: 4002 });
    } finally {
      await noLive.stop();
    }
  }, 60_000);
});

describe("a spoken turn", () => {
  it("ready once; partial, endpoint, final, state thinking, reply_chunk, metric, reply, state done", async () => {
    const { ws, mic } = await openMic();
    try {
      expect(ws.frames.filter((f) => f.type === "ready")).toEqual([{ type: "ready", sample_rate: 16000, voice_origin: "box" }]);
      fake.enqueue([{ text: "Hello to you too! How can I help?" }]);
      mic.say(await speech16k("hello there"));
      await ws.waitType("reply", 20_000);
      await ws.waitFor((f) => f.type === "state" && f.thinking === false, 10_000);
      const t = ws.types();
      expect(t).toContain("partial");
      expect(t).toContain("endpoint");
      const final = ws.frames.find((f) => f.type === "final")!;
      expect(final).toEqual({ type: "final", text: "hello there", continues: false });
      const i = (type: string, pred: (f: any) => boolean = () => true) => ws.frames.findIndex((f) => f.type === type && pred(f));
      expect(i("final")).toBeLessThan(i("state", (f) => f.thinking === true));
      expect(i("state", (f) => f.thinking === true)).toBeLessThan(i("reply_chunk"));
      expect(i("reply_chunk")).toBeLessThan(i("reply"));
      expect(i("reply")).toBeLessThan(i("state", (f) => f.thinking === false));
      expect(ws.frames.find((f) => f.type === "reply_chunk")).toEqual({ type: "reply_chunk", text: "Hello to you too!", tone: "neutral" });
      expect(ws.frames.find((f) => f.type === "reply")).toMatchObject({
        reply: "Hello to you too! How can I help?",
        tone: "neutral",
        avatar: expect.any(String),
      });
      const metric = await ws.waitType("metric", 10_000);
      // Speculation is on by default: the reply was prepared during the end-of-turn wait.
      expect(metric).toEqual({ type: "metric", first_audio_ms: expect.any(Number), spec: true });
      expect(metric.first_audio_ms).toBeGreaterThan(0);
      expect(fake.lastRequest!.body.messages.at(-1)).toMatchObject({ role: "user", content: "hello there" });
      const tools = fake.lastRequest!.body.tools.map((t: any) => t.function.name);
      expect(tools).toEqual(expect.arrayContaining(["end_call", "skip_turn", "pause_conversation", "change_language"]));
    } finally {
      mic.stop();
      ws.close();
      await ws.closed;
    }
  }, 60_000);

  it("barge-in: talking over the avatar stops its speech and says bargein", async () => {
    const { ws, mic } = await openMic();
    try {
      fake.enqueue([
        { text: "This is a long answer that keeps going for a while. " },
        { text: "It has several sentences so that there is time to talk over it. And one more after that." },
      ]);
      mic.say(await speech16k("hello there"));
      await ws.waitFor((f) => f.type === "state" && f.speaking === true, 20_000);
      await media.until(() => media.audioRmsOver(200) > 500, 5000, "avatar speech");
      mic.say(await speech16k("please book a table for two"));
      const barge = await ws.waitFor((f) => f.type === "state" && f.bargein === true, 10_000);
      expect(barge).toEqual({ type: "state", speaking: false, bargein: true });
      const t0 = performance.now();
      await new Promise((r) => setTimeout(r, 700));
      const loud = media.audio.filter((c) => c.at > t0 + 300 && c.rms > 300);
      expect(loud).toHaveLength(0);
    } finally {
      mic.stop();
      ws.close();
      await ws.closed;
    }
  }, 60_000);
});

describe("system tools", () => {
  it("pause_conversation: holding line, paused frame, resume; then a timeout", async () => {
    const { ws, mic } = await openMic();
    try {
      fake.always = [{ toolCall: { name: "pause_conversation", args: {} } }];
      mic.say(await speech16k("give me a moment"));
      const first = await ws.waitFor((f) => f.type === "action" && f.name === "pause_conversation", 20_000);
      expect(first).toEqual({ type: "action", name: "pause_conversation", label: expect.any(String) });
      expect(await ws.waitFor((f) => f.type === "action" && f.paused === true, 15_000)).toMatchObject({ max_seconds: 90 });
      ws.send({ type: "resume" });
      expect(await ws.waitFor((f) => f.type === "action" && f.paused === false)).toMatchObject({ reason: "resumed" });

      mic.say(await speech16k("give me a moment"));
      await ws.waitFor(
        (f) => f.type === "action" && f.paused === true && ws.frames.indexOf(f) > ws.frames.findIndex((g) => g.reason === "resumed"),
        20_000,
      );
      expect(await ws.waitFor((f) => f.type === "action" && f.reason === "timed_out", 10_000)).toMatchObject({ paused: false });
      const n = ws.frames.length;
      ws.send({ type: "resume" }); // nothing paused: still answered
      await ws.waitFor((f) => ws.frames.indexOf(f) >= n && f.type === "action" && f.reason === "resumed");
    } finally {
      fake.always = null;
      mic.stop();
      ws.close();
      await ws.closed;
    }
  }, 90_000);

  it("skip_turn stays silent and the words join the next final (continues)", async () => {
    const { ws, mic } = await openMic();
    try {
      fake.enqueue([{ toolCall: { name: "skip_turn", args: {} } }], [{ text: "Sure, two people it is." }]);
      mic.say(await speech16k("let me think"));
      await ws.waitFor((f) => f.type === "action" && f.name === "skip_turn", 20_000);
      await ws.waitFor((f) => f.type === "state" && f.thinking === false, 10_000);
      expect(ws.frames.some((f) => f.type === "reply" || f.type === "reply_error")).toBe(false);
      mic.say(await speech16k("please book a table for two"));
      const finals = () => ws.frames.filter((f) => f.type === "final");
      await ws.waitFor(() => finals().length >= 2, 20_000);
      expect(finals()[1]).toEqual({ type: "final", text: "please book a table for two", continues: true });
      await ws.waitType("reply", 20_000);
      expect(fake.lastRequest!.body.messages.at(-1).content).toBe("let me think please book a table for two");
    } finally {
      mic.stop();
      ws.close();
      await ws.closed;
    }
  }, 90_000);

  it("change_language to a language the recogniser cannot hear is refused (applied: false)", async () => {
    const { ws, mic } = await openMic();
    try {
      fake.always = [{ toolCall: { name: "change_language", args: { language: "es" } } }];
      mic.say(await speech16k("can we speak spanish"));
      await ws.waitFor((f) => f.type === "action" && f.name === "change_language", 20_000);
      expect(await ws.waitFor((f) => f.type === "action" && f.applied !== undefined, 15_000)).toMatchObject({
        name: "change_language",
        language: "es",
        applied: false,
      });
      const settings = (await (await fetch(box.url + "/api/settings", { headers: H })).json()) as any;
      expect(JSON.stringify(settings.settings)).not.toContain('"es"');
    } finally {
      fake.always = null;
      mic.stop();
      ws.close();
      await ws.closed;
    }
  }, 60_000);

  it("end_call: action while the goodbye plays, then session_end and the socket closes", async () => {
    const { ws, mic } = await openMic();
    try {
      fake.enqueue([{ text: "Goodbye! " }, { toolCall: { name: "end_call", args: {} } }]);
      mic.say(await speech16k("goodbye for now"));
      const action = await ws.waitFor((f) => f.type === "action" && f.name === "end_call", 20_000);
      expect(action).toEqual({ type: "action", name: "end_call", label: expect.any(String) });
      expect(await ws.waitType("session_end", 20_000)).toEqual({ type: "session_end", reason: "ended_by_persona_request" });
      expect(ws.frames.findIndex((f) => f.type === "action")).toBeLessThan(ws.frames.findIndex((f) => f.type === "session_end"));
      await ws.closed;
      expect(ws.closeCode).toBe(1000);
    } finally {
      mic.stop();
    }
  }, 60_000);
});

describe("bad input and the hosted recogniser", () => {
  // end_call above ended the live session: go live again.
  beforeAll(async () => {
    media.close();
    media = await connectMedia(box);
  }, 60_000);

  it("answers junk text with an error event, an odd-length frame once, ignores unknown types, keeps going", async () => {
    const { ws, mic } = await openMic();
    try {
      ws.send("not json");
      expect(await ws.waitType("error")).toMatchObject({ error: expect.any(String) });
      expect(ws.frames.find((f) => f.type === "error")!.fatal).toBeUndefined();
      ws.send(Buffer.from([1, 2, 3]));
      ws.send(Buffer.from([1, 2, 3]));
      await new Promise((r) => setTimeout(r, 300));
      expect(ws.frames.filter((f) => f.type === "error")).toHaveLength(2);
      ws.send({ type: "no_such_thing" });
      ws.send({ type: "config", voice: "definitely-not-a-voice" });
      await ws.waitFor((f) => f.type === "error" && /voice/.test(f.error));
      ws.send({ type: "tool_result", call_id: "forged", ok: true, result: {} });
      fake.enqueue([{ text: "Still listening." }]);
      mic.say(await speech16k("hello there"));
      expect(await ws.waitType("reply", 20_000)).toMatchObject({ reply: "Still listening." });
      expect(ws.closeCode).toBeNull();
    } finally {
      mic.stop();
      ws.close();
      await ws.closed;
    }
  }, 60_000);

  it("mute drops the words heard and clears the caption", async () => {
    const { ws, mic } = await openMic();
    try {
      const speech = await speech16k("please book a table for two");
      mic.say(speech.subarray(0, Math.floor(speech.length * 0.7)));
      await ws.waitType("partial", 15_000);
      ws.send({ type: "mute", muted: true });
      expect(await ws.waitType("caption_clear", 5000)).toEqual({ type: "caption_clear" });
      await new Promise((r) => setTimeout(r, 1500));
      expect(ws.frames.some((f) => f.type === "final")).toBe(false);
    } finally {
      mic.stop();
      ws.close();
      await ws.closed;
    }
  }, 60_000);

  it("works with the hosted streaming recogniser (Deepgram protocol), and 4005 when it will not start", async () => {
    const { FakeDeepgram } = await import("../../stt/testing/fake-deepgram.ts");
    const dg = await FakeDeepgram.start({ apiKey: "dg-key", utterances: ["hello there box"], msPerWord: 150 });
    const dgBox = await spawnBox({
      BOX_API_KEYS: KEY,
      BOX_OPENAI_BASE_URL: fake.url,
      BOX_ASR: "deepgram",
      BOX_DEEPGRAM_URL: dg.url,
      BOX_DEEPGRAM_API_KEY: "dg-key",
    });
    const badBox = await spawnBox({ BOX_API_KEYS: KEY, BOX_ASR: "deepgram", BOX_DEEPGRAM_URL: dg.url, BOX_DEEPGRAM_API_KEY: "wrong" });
    const m1 = await connectMedia(dgBox);
    const m2 = await connectMedia(badBox);
    try {
      const ws = new WsClient(wsUrl(dgBox), H);
      await ws.waitType("ready", 15_000);
      const mic = new Mic(ws);
      mic.start();
      fake.enqueue([{ text: "Hi box friend." }]);
      mic.say(await speech16k("hello there"));
      expect(await ws.waitType("final", 20_000)).toEqual({ type: "final", text: "hello there box", continues: false });
      await ws.waitType("reply", 20_000);
      mic.stop();
      ws.close();
      expect(dg.connections[0].authorization).toBe("Token dg-key");
      const refused = new WsClient(wsUrl(badBox), H);
      await refused.closed;
      expect(refused.closeCode).toBe(4005);
      expect(refused.frames[0]).toMatchObject({ type: "error", fatal: true, code: 4005 });
    } finally {
      m1.close();
      m2.close();
      await dgBox.stop();
      await badBox.stop();
      await dg.stop();
    }
  }, 90_000);
});

describe("voice socket session end", () => {
  it("max length from the upgrade query (4008), and a revoked credential (4004)", async () => {
    const { createClient } = await import("@libsql/client");
    const { migrateKeyTable } = await import("../../../shared/key-table/migrate.ts");
    const { sha256Hex } = await import("../../auth/principal.ts");
    const { mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const url = `file:${join(mkdtempSync(join(tmpdir(), "kt-")), "keys.db")}`;
    const kt = createClient({ url });
    await migrateKeyTable(kt);
    await kt.execute({
      sql: "INSERT INTO credentials (id, kind, scope, owner, created_at) VALUES (?, 'api_key', 'full', 'dev@x.test', 0)",
      args: [sha256Hex("table_key")],
    });
    const b = await spawnBox({ BOX_KEY_TABLE_URL: url, BOX_ASR: "pocketsphinx", BOX_SOCKET_CHECK_MS: "100" });
    let m = new WrtcClient(5);
    const goLive = async () => {
      m = new WrtcClient(5);
      await m.connect(
        async (offer) =>
          (await (
            await fetch(b.url + "/connect", {
              method: "POST",
              headers: { "x-api-key": "table_key", "content-type": "application/json" },
              body: JSON.stringify(offer),
            })
          ).json()) as any,
      );
      await m.waitForFirstFrame(20_000);
    };
    try {
      await goLive();
      const short = new WsClient(wsUrl(b) + "?max_session_length_seconds=1", { "x-api-key": "table_key" });
      await short.waitType("ready", 15_000);
      expect(await short.waitType("session_expired", 5000)).toMatchObject({ reason: "max_length", seconds: 1, code: 4008 });
      await short.closed;
      expect(short.closeCode).toBe(4008);
      // The ceiling ended the live session: go live again first.
      m.close();
      await goLive();

      const ws = new WsClient(wsUrl(b) + "?session_token=table_key");
      await ws.waitType("ready", 15_000);
      await kt.execute({ sql: "UPDATE credentials SET revoked_at = 1 WHERE id = ?", args: [sha256Hex("table_key")] });
      expect(await ws.waitFor((f) => f.type === "error" && f.fatal === true, 5000)).toMatchObject({ code: 4004 });
      await ws.closed;
      expect(ws.closeCode).toBe(4004);
      // Revocation ends the voice session itself: nothing streams on.
      const health = (await (await fetch(b.url + "/health")).json()) as { speaking_face: string | null };
      expect(health.speaking_face).toBeNull();
    } finally {
      m.close();
      await b.stop();
      kt.close();
    }
  }, 60_000);
});
