// Integration: a Node WebRTC client (@roamhq/wrtc) on the real box over loopback: frames,
// audio, lip-sync during /api/talk, interrupt, one session per box, no leaked encoders.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";
import { byStartTime, childrenNamed } from "../testing/proc.ts";
import { waitFor } from "../media/testing/processes.ts";
import { WrtcClient, regionDiff, type ReceivedFrame } from "../media/testing/wrtc-client.ts";
import { loadStockFaces } from "../avatars/stock/index.ts";

let box: RunningBox;
let mouthBox = { x: 206, y: 290, width: 100, height: 60 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function post(path: string, body?: unknown) {
  const res = await fetch(box.url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

async function connect(extra: Record<string, unknown> = {}) {
  const client = new WrtcClient(200);
  let answerBody: any;
  await client.connect(async (offer) => {
    const r = await post("/connect", { ...offer, ...extra });
    if (r.status !== 200) throw new Error(`connect ${r.status} ${JSON.stringify(r.json)}`);
    answerBody = r.json;
    return { sdp: r.json.sdp, type: r.json.type };
  });
  return { client, answer: answerBody };
}

/** Mean frame-to-frame change inside the mouth box over the frames received in [from, to). */
function mouthMotion(client: WrtcClient, from: number, to: number): number {
  const frames = client.recent.filter((f) => f.at >= from && f.at < to);
  let sum = 0;
  for (let i = 1; i < frames.length; i++) sum += regionDiff(frames[i - 1], frames[i], mouthBox);
  return frames.length > 1 ? sum / (frames.length - 1) : 0;
}

beforeAll(async () => {
  box = await spawnBox();
  const faces = await loadStockFaces(512);
  const m = faces[0].face.anchors.mouth;
  mouthBox = {
    x: Math.round(m.x - m.width / 2),
    y: Math.round(m.y - m.width * 0.3),
    width: Math.round(m.width),
    height: Math.round(m.width * 0.6),
  };
}, 60_000);
afterAll(() => box.stop());

describe("live session over WebRTC", () => {
  it("answers /connect, streams 512x512 frames, talks with lip-sync, and interrupts within 200 ms", async () => {
    const { client, answer } = await connect({
      avatar: "stock-ava",
      client_context: { timezone: "Europe/Paris", name: "Ada", locale: "xx_bad!" },
    });
    try {
      expect(answer).toMatchObject({ type: "answer", avatar: "stock-ava", silence: expect.any(String), idle_stand_in: false });
      expect(answer.sdp).toMatch(/^v=0/);
      const first: ReceivedFrame = await client.waitForFirstFrame(20_000);
      expect([first.width, first.height]).toEqual([512, 512]);
      await sleep(1500);
      const idleFrom = performance.now() - 1200;
      const idleMotion = mouthMotion(client, idleFrom, performance.now());
      const idleRms = client.audioRmsOver(800);

      const talk = await post("/api/talk", {
        text: "Hello there! I am a talking avatar, and my mouth follows what I say. Isn't that lovely?",
        tone: "happy",
      });
      expect(talk).toEqual({ status: 200, json: { ok: true, spoken: expect.stringContaining("Hello there") } });
      await client.until(() => client.audioRmsOver(200) > 500, 5000, "speech audio");
      const speakFrom = performance.now();
      await sleep(1500);
      const speakRms = client.audioRmsOver(1200);
      const speakMotion = mouthMotion(client, speakFrom, performance.now());
      expect(speakRms).toBeGreaterThan(Math.max(300, idleRms * 5));
      expect(speakMotion).toBeGreaterThan(idleMotion * 3);
      expect((await (await fetch(box.url + "/health")).json()) as any).toMatchObject({
        avatar: "stock-ava",
        speaking_face: "stock-ava__happy",
      });

      const t0 = performance.now();
      expect(await post("/api/interrupt")).toEqual({ status: 200, json: { ok: true } });
      await sleep(800);
      const loudAfter = client.audio.filter((c) => c.at > t0 && c.rms > 300).map((c) => c.at - t0);
      const lastLoud = loudAfter.length ? Math.max(...loudAfter) : 0;
      expect(lastLoud, `audio still loud ${lastLoud.toFixed(0)} ms after interrupt`).toBeLessThan(200);
      expect(client.audioRmsOver(400)).toBeLessThan(200);
    } finally {
      client.close();
      await post("/disconnect");
    }
  }, 90_000);

  it("refuses bad input with the spec's statuses and keeps serving", async () => {
    expect((await post("/api/talk", { text: "hi" })).status).toBe(409);
    expect((await post("/connect", { sdp: "garbage", type: "offer" })).json.code).toBe("invalid_sdp");
    expect((await post("/connect", { sdp: 5 })).status).toBe(400);
    const unknown = await post("/connect", { sdp: "v=0\r\n", type: "offer", avatar: "nobody" });
    expect(unknown.status).toBe(404);
    expect((await fetch(box.url + "/api/avatar/preview?avatar=nobody")).status).toBe(404);
    const { client } = await connect();
    try {
      await client.waitForFirstFrame(20_000);
      expect((await post("/api/talk", { text: "   " })).json.code).toBe("blank_text");
      expect((await post("/api/talk", { content: "x".repeat(100 * 1024) })).json.code).toBe("text_too_long");
      expect((await post("/api/talk", { text: "hi", tone: "furious" })).json.code).toBe("unknown_tone");
      expect((await post("/api/talk", { text: "hi", voice: "no-such-voice" })).status).toBe(400);
      await Promise.all(Array.from({ length: 30 }, () => post("/api/interrupt")));
      expect((await post("/api/talk", { content: "Still here." })).status).toBe(200);
    } finally {
      client.close();
    }
  }, 90_000);

  it("a second /connect ends the first; /disconnect ends it; no encoder is leaked (one warm spare waits)", async () => {
    const a = await connect();
    await a.client.waitForFirstFrame(20_000);
    const b = await connect();
    await b.client.waitForFirstFrame(20_000);
    await sleep(1000);
    const aCount = a.client.frames.length;
    await sleep(1500);
    expect(a.client.frames.length - aCount).toBeLessThanOrEqual(2);
    // a's encoder is gone; b's runs, and the spare started after b took one waits for the next /connect.
    const during = byStartTime(childrenNamed(box.child.pid!, "ffmpeg"));
    expect(during).toHaveLength(2);
    expect(await post("/disconnect")).toEqual({ status: 200, json: { ok: true } });
    const bCount = b.client.frames.length;
    await sleep(1500);
    expect(b.client.frames.length - bCount).toBeLessThanOrEqual(2);
    expect(childrenNamed(box.child.pid!, "ffmpeg"), "b's encoder stopped; only the spare is left").toEqual([during[1]]);
    a.client.close();
    b.client.close();
    expect(await post("/disconnect")).toEqual({ status: 200, json: { ok: true } });
  }, 90_000);

  it("connects in a tight loop leave exactly one session: its encoder and one warm spare", async () => {
    const clients = await Promise.all(Array.from({ length: 4 }, () => connect().catch(() => null)));
    await waitFor(() => childrenNamed(box.child.pid!, "ffmpeg").length === 2, 10_000, "the session's encoder and a spare");
    await sleep(1000);
    const during = byStartTime(childrenNamed(box.child.pid!, "ffmpeg"));
    expect(during).toHaveLength(2);
    for (const c of clients) c?.client.close();
    await post("/disconnect");
    await sleep(300);
    expect(childrenNamed(box.child.pid!, "ffmpeg"), "the session's encoder stopped; only the spare is left").toEqual([during[1]]);
  }, 90_000);

  it("/offer plays the default clip on the stream", async () => {
    const client = new WrtcClient(50);
    let body: any;
    await client.connect(async (offer) => {
      const r = await post("/offer", { ...offer, tone: "sad" });
      body = r.json;
      return { sdp: r.json.sdp, type: r.json.type };
    });
    try {
      expect(body).toMatchObject({ type: "answer", avatar: "stock-ava__sad", emotion: "sad", transcript: "" });
      await client.until(() => client.audioRmsOver(200) > 500, 15_000, "default clip audio");
      expect((await post("/offer", { sdp: "v=0", type: "offer", audio: "missing.wav" })).status).toBe(404);
    } finally {
      client.close();
      await post("/disconnect");
    }
  }, 90_000);
});
