// Integration: a live session on a box booted on a hosted voice engine (BOX_TTS=cartesia, then
// BOX_TTS=elevenlabs, the box's own key; the engines are the protocol fakes). A WebRTC client
// receives the stream: after POST /api/talk the audio is the engine's speech, the mouth region
// moves while it plays and rests after it (the measure of box/live/live.int.test.ts). Hosted
// engines give no phonemes, so the mouth follows the audio itself.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadStockFaces } from "../avatars/stock/index.ts";
import { WrtcClient, regionDiff, type Box } from "../media/testing/wrtc-client.ts";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";
import { FakeCartesia, FAKE_CARTESIA_KEY } from "./cartesia/testing/fake-cartesia.ts";
import { FakeElevenLabs } from "./elevenlabs/testing/fake-elevenlabs.ts";

const AVATAR = "stock-ava";
const SENTENCE = "Hello there! I speak through a hosted voice engine, and my mouth follows every word I say.";
const EL_KEY = "sk_el_box_lipsync_0000";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let mouthBox: Box = { x: 206, y: 290, width: 100, height: 60 };

beforeAll(async () => {
  const face = (await loadStockFaces(512)).find((f) => f.id === AVATAR)!;
  const m = face.face.anchors.mouth;
  mouthBox = {
    x: Math.round(m.x - m.width / 2),
    y: Math.round(m.y - m.width * 0.3),
    width: Math.round(m.width),
    height: Math.round(m.width * 0.6),
  };
}, 60_000);

/** Mean frame-to-frame change inside the mouth box over the frames received in [from, to). */
function mouthMotion(client: WrtcClient, from: number, to: number): number {
  const frames = client.recent.filter((f) => f.at >= from && f.at < to);
  let sum = 0;
  for (let i = 1; i < frames.length; i++) sum += regionDiff(frames[i - 1], frames[i], mouthBox);
  return frames.length > 1 ? sum / (frames.length - 1) : 0;
}

async function post(box: RunningBox, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(box.url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

async function connect(box: RunningBox): Promise<WrtcClient> {
  const client = new WrtcClient(250);
  await client.connect(async (offer) => {
    const r = await post(box, "/connect", { ...offer, avatar: AVATAR });
    if (r.status !== 200) throw new Error(`connect ${r.status} ${JSON.stringify(r.json)}`);
    expect(r.json.avatar).toBe(AVATAR);
    return { sdp: r.json.sdp, type: r.json.type };
  });
  return client;
}

/** Talks into the live session and checks the audio and the mouth: moving while it plays, resting after. */
async function talkAndWatch(box: RunningBox, speechRequests: () => number): Promise<void> {
  const client = await connect(box);
  try {
    await client.waitForFirstFrame(20_000);
    // Past the stream's first seconds, while the video's quality still ramps up (blurry frames
    // change little from one to the next, which would understate the mouth's movement).
    await sleep(3000);
    const idleMotion = mouthMotion(client, performance.now() - 1200, performance.now());
    const idleRms = client.audioRmsOver(800);

    const asked = speechRequests();
    const talk = await post(box, "/api/talk", { text: SENTENCE });
    expect(talk).toEqual({ status: 200, json: { ok: true, spoken: SENTENCE } });
    expect(speechRequests()).toBeGreaterThan(asked); // the hosted engine spoke, not a fallback

    await client.until(() => client.audioRmsOver(200) > 500, 10_000, "speech audio at the client");
    const speakFrom = performance.now();
    await sleep(1500);
    const speakRms = client.audioRmsOver(1200);
    const speakMotion = mouthMotion(client, speakFrom, performance.now());
    expect(speakRms).toBeGreaterThan(Math.max(300, idleRms * 5));
    expect(speakMotion, `mouth motion speaking ${speakMotion.toFixed(2)}, idle ${idleMotion.toFixed(2)}`).toBeGreaterThan(idleMotion * 3);

    // The sentence ends (about 5 s of the fake's speech): the stream goes quiet and the mouth rests.
    await client.until(() => client.audioRmsOver(800) < 100 && client.audio.at(-1)!.at > speakFrom + 2000, 20_000, "the end of the speech");
    await sleep(600);
    const restFrom = performance.now();
    await sleep(1200);
    const restMotion = mouthMotion(client, restFrom, performance.now());
    expect(client.audioRmsOver(1000)).toBeLessThan(100);
    expect(
      restMotion,
      `mouth motion after ${restMotion.toFixed(2)}, speaking ${speakMotion.toFixed(2)}, idle ${idleMotion.toFixed(2)}`,
    ).toBeLessThan(speakMotion / 3);
  } finally {
    client.close();
    await post(box, "/disconnect");
  }
}

describe("BOX_TTS=cartesia (the box's own key)", () => {
  let car: FakeCartesia;
  let box: RunningBox;
  beforeAll(async () => {
    car = await new FakeCartesia().listen();
    box = await spawnBox({ BOX_TTS: "cartesia", BOX_CARTESIA_API_KEY: FAKE_CARTESIA_KEY, BOX_CARTESIA_BASE_URL: car.url, BOX_ASR: "none" });
  }, 60_000);
  afterAll(async () => {
    await box?.stop();
    await car?.close();
  });

  it("the engine is Cartesia: readiness and the catalogue say so", async () => {
    const status = (await (await fetch(box.url + "/api/chat/status")).json()) as any;
    expect(status).toMatchObject({ tts: true, voice_provider: "cartesia", voice_origin: "box", voice_notice: "" });
    const cat = (await (await fetch(box.url + "/api/voices")).json()) as any;
    expect(cat).toMatchObject({ provider: "cartesia", current_provider: "cartesia", local: false, byo: false, engine_ready: true });
  });

  it("talks into the live session: Cartesia's audio at the client, the mouth moves with it and rests after", async () => {
    await talkAndWatch(box, () => car.speechRequests.length);
    const last = car.speechRequests.at(-1)!;
    expect(last.headers["x-api-key"] ?? last.headers.authorization).toMatch(new RegExp(FAKE_CARTESIA_KEY));
  }, 90_000);

  it("refuses a voice Cartesia does not have, or one that is a file path, with 400 and says nothing", async () => {
    const client = await connect(box);
    try {
      await client.waitForFirstFrame(20_000);
      const before = car.speechRequests.length;
      const path = await post(box, "/api/talk", { text: "Hi.", voice: "../../../../etc/passwd" });
      expect([path.status, path.json.code]).toEqual([400, "unknown_voice"]);
      expect(car.speechRequests.length).toBe(before);
      const gone = await post(box, "/api/talk", { text: "Hi.", voice: "00000000-0000-4000-8000-000000000000" });
      expect([gone.status, gone.json.code]).toEqual([400, "unknown_voice"]);
      expect(gone.json.error).toMatch(/Cartesia/);
      // Still speaking with a voice it has.
      expect((await post(box, "/api/talk", { text: "Still here.", voice: "b7d50908-b17c-442d-ad8d-810c63997ed9" })).status).toBe(200);
    } finally {
      client.close();
      await post(box, "/disconnect");
    }
  }, 60_000);
});

describe("BOX_TTS=elevenlabs (the box's own key)", () => {
  let el: FakeElevenLabs;
  let box: RunningBox;
  beforeAll(async () => {
    el = await FakeElevenLabs.start({ apiKey: EL_KEY });
    box = await spawnBox({ BOX_TTS: "elevenlabs", BOX_ELEVENLABS_API_KEY: EL_KEY, BOX_ELEVENLABS_BASE_URL: el.url, BOX_ASR: "none" });
  }, 60_000);
  afterAll(async () => {
    await box?.stop();
    await el?.close();
  });

  it("talks into the live session: ElevenLabs' audio at the client, the mouth moves with it and rests after", async () => {
    await talkAndWatch(box, () => el.of("speech").length);
    expect(el.of("speech").at(-1)!.headers["xi-api-key"]).toBe(EL_KEY);
  }, 90_000);
});
