// Integration: warm connections at /connect (issue 23 item 1). A box booted on a hosted voice (the
// ElevenLabs protocol fake) with a model provider (the OpenAI protocol fake): opening a live
// session sends each of them one HEAD request without credentials (a connection for the first
// turn to reuse), and nothing is generated or billed by it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeOpenAi } from "../llm/testing/fake-openai.ts";
import { WrtcClient } from "../media/testing/wrtc-client.ts";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";
import { FakeElevenLabs } from "../tts/elevenlabs/testing/fake-elevenlabs.ts";

const KEY = "box-warm-key";
const EL_KEY = "sk_el_warm_up_0000";
let box: RunningBox;
let model: FakeOpenAi;
let voice: FakeElevenLabs;

const call = (path: string, body?: unknown) =>
  fetch(box.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` },
    body: JSON.stringify(body ?? {}),
  });

beforeAll(async () => {
  model = await FakeOpenAi.start({ models: [{ id: "fake-chat" }], defaultScript: [{ text: "ok" }] });
  voice = await FakeElevenLabs.start({ apiKey: EL_KEY });
  box = await spawnBox({
    BOX_API_KEYS: KEY,
    BOX_OPENAI_BASE_URL: model.url,
    BOX_TTS: "elevenlabs",
    BOX_ELEVENLABS_API_KEY: EL_KEY,
    BOX_ELEVENLABS_BASE_URL: voice.url,
    BOX_ASR: "none",
  });
  expect((await call("/api/settings", { model: "fake-chat" })).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await box?.stop();
  await model?.close();
  await voice?.close();
});

describe("warm connections at /connect", () => {
  it("opens a connection to the caller's model and voice providers, with no credentials and nothing generated", async () => {
    const heads = () => ({
      model: model.requests.filter((r) => r.method === "HEAD"),
      voice: voice.requests.filter((r) => r.method === "HEAD"),
    });
    expect(heads().model).toHaveLength(0);
    expect(heads().voice).toHaveLength(0);
    const generated = { model: model.requests.filter((r) => r.method === "POST").length, voice: voice.of("speech").length };
    const client = new WrtcClient(4);
    try {
      await client.connect(async (offer) => {
        const r = await call("/connect", offer);
        expect(r.status).toBe(200);
        const j = await r.json();
        return { sdp: j.sdp, type: j.type };
      });
      const deadline = Date.now() + 10_000;
      while ((heads().model.length === 0 || heads().voice.length === 0) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const { model: m, voice: v } = heads();
      expect(m).toHaveLength(1);
      expect(m[0].path).toBe("/v1/models");
      expect(m[0].headers.authorization).toBeUndefined();
      expect(v).toHaveLength(1);
      expect(v[0].headers["xi-api-key"]).toBeUndefined();
      expect(model.requests.filter((r) => r.method === "POST").length).toBe(generated.model);
      expect(voice.of("speech").length).toBe(generated.voice);
    } finally {
      client.close();
      await call("/disconnect");
    }
  });
});
