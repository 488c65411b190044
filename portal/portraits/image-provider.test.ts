// Portraits from an OpenAI-compatible image provider (a local fake of `POST /v1/images/generations`
// over a real socket): the request the provider gets, the image kept as answered, and every failure
// (wrong key, 500, hang, not an image, no image, unreachable) answered with a readable reason, the
// key never in it, and nothing stored.
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryAssetStore } from "../storage/memory-store.ts";
import { createTestPortal, type TestPortal } from "../testing/test-portal.ts";
import { sniffImage } from "./image-sniff.ts";
import { generationsUrl, OpenAiImageGenerator, PORTRAIT_INSTRUCTION } from "./openai-generator.ts";
import { sha256Hex } from "./service.ts";
import { startFakeImageProvider, type FakeImageProvider } from "./testing/fake-image-provider.ts";

const KEY = "sk-proj-TESTKEY0123456789abcdefghijklmnopqrstuvwxyz";
const TIMEOUT_MS = 600;

let fake: FakeImageProvider;
let portal: TestPortal;
let store: MemoryAssetStore;
let ada: string;
const logs: string[] = [];

beforeAll(async () => {
  fake = await startFakeImageProvider({ acceptedKey: KEY });
  portal = await createTestPortal({
    portraits: { imageProvider: { baseUrl: fake.url, apiKey: KEY, model: "gpt-image-1", timeoutMs: TIMEOUT_MS } },
    assetStore: (urls) => (store = new MemoryAssetStore(urls)),
    log: (msg, err) => logs.push(`${msg} ${err instanceof Error ? `${err.message} ${err.stack}` : String(err ?? "")}`),
  });
  ada = await portal.signIn("ada@example.com");
});
afterAll(async () => {
  for (const line of logs) expect(line).not.toContain(KEY);
  await portal.close();
  await fake.close();
});
beforeEach(() => {
  fake.options.mode = "ok";
});

async function post(path: string, body: unknown, on = portal, cookie = ada) {
  const res = await on.app.request(path, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) };
}
const rows = async (p = portal) => Number((await p.client.execute("SELECT count(*) AS n FROM portraits")).rows[0].n);

describe("image provider", () => {
  it("asks for one 1024x1024 portrait with the bearer key and keeps the PNG it answers", async () => {
    const res = await post("/auth/portraits", { description: "a cheerful nurse with short black hair" });
    expect(res.status).toBe(201);
    const p = res.json.portrait;
    expect(p).toMatchObject({ generator: "image_provider", content_type: "image/png", width: 64, height: 64, regenerated_from: null });

    const sent = fake.bodies.at(-1)!;
    expect(sent).toEqual({
      model: "gpt-image-1",
      prompt: PORTRAIT_INSTRUCTION + "a cheerful nurse with short black hair",
      n: 1,
      size: "1024x1024",
    });
    expect(String(sent.prompt)).toMatch(
      /front-facing head-and-shoulders portrait photo.*one person.*looking straight at the camera.*mouth closed.*neutral background/,
    );
    const req = fake.requests.at(-1)!;
    expect([req.method, req.path, req.headers.authorization]).toEqual(["POST", "/v1/images/generations", `Bearer ${KEY}`]);

    const image = await portal.app.request(p.url, { headers: { cookie: ada } });
    const bytes = new Uint8Array(await image.arrayBuffer());
    expect(Buffer.compare(Buffer.from(bytes), Buffer.from(fake.served.at(-1)!))).toBe(0);
    expect(await sha256Hex(bytes)).toBe(p.sha256);

    const again = await post(`${p.url}/regenerate`, {});
    expect(again.status).toBe(201);
    expect(again.json.portrait).toMatchObject({ generator: "image_provider", regenerated_from: p.portrait_id });
    expect(again.json.portrait.sha256).not.toBe(p.sha256);
  });

  it("a wrong key: 502 portrait_generation_failed naming the provider's 401, the key never repeated, nothing stored", async () => {
    const wrong = "sk-proj-WRONGKEY9876543210zyxwvutsrqponmlkjihgfedcba";
    const other = await createTestPortal({ portraits: { imageProvider: { baseUrl: fake.url, apiKey: wrong, timeoutMs: TIMEOUT_MS } } });
    try {
      const res = await post("/auth/portraits", { description: "a man" }, other, await other.signIn("ada@example.com"));
      expect(res.status).toBe(502);
      expect(res.json.error.code).toBe("portrait_generation_failed");
      expect(res.json.error.message).toMatch(/^The image provider answered 401: Incorrect API key provided/);
      expect(res.text).not.toContain(wrong);
      expect(res.text).not.toContain(wrong.slice(-4) + ".");
      expect(res.text).not.toMatch(/sk-[A-Za-z]/);
      expect(await rows(other)).toBe(0);
    } finally {
      await other.close();
    }
  });

  it("a provider that hangs: 503 portrait_generator_unavailable within the timeout", async () => {
    fake.options.mode = "hang";
    const before = await rows();
    const started = Date.now();
    const res = await post("/auth/portraits", { description: "a woman" });
    const took = Date.now() - started;
    expect(res.status).toBe(503);
    expect(res.json.error).toEqual({
      code: "portrait_generator_unavailable",
      message: expect.stringMatching(/did not answer within 0\.6 s/),
    });
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(took).toBeLessThan(TIMEOUT_MS + 3000);
    expect(await rows()).toBe(before);
  });

  it("a 500, bytes that are not an image, or no image at all: 502 with what happened; nothing stored", async () => {
    const before = await rows();
    const objects = (await store.list("portraits/")).length;
    const cases: [FakeImageProvider["options"]["mode"], RegExp][] = [
      ["fail500", /answered 500: The server had an error.*Try again later/],
      ["not_image", /not a PNG or JPEG image/],
      ["no_data", /held no image/],
    ];
    for (const [mode, message] of cases) {
      fake.options.mode = mode;
      const res = await post("/auth/portraits", { description: "a man" });
      expect(res.status, mode).toBe(502);
      expect(res.json.error.code).toBe("portrait_generation_failed");
      expect(res.json.error.message).toMatch(message);
    }
    expect(await rows()).toBe(before);
    expect((await store.list("portraits/")).length).toBe(objects);
  });

  it("a provider that cannot be reached: 503 portrait_generator_unavailable", async () => {
    const gone = await startFakeImageProvider({ acceptedKey: KEY });
    await gone.close();
    const other = await createTestPortal({ portraits: { imageProvider: { baseUrl: gone.url, apiKey: KEY, timeoutMs: 5000 } } });
    try {
      const res = await post("/auth/portraits", { description: "a man" }, other, await other.signIn("ada@example.com"));
      expect(res.status).toBe(503);
      expect(res.json.error.message).toMatch(/could not be reached/);
      expect(await rows(other)).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe("OpenAiImageGenerator", () => {
  it("does not double /v1, and asks other models for b64_json", async () => {
    expect(generationsUrl("https://api.openai.com")).toBe("https://api.openai.com/v1/images/generations");
    expect(generationsUrl("https://api.openai.com/v1/")).toBe("https://api.openai.com/v1/images/generations");
    expect(generationsUrl("http://127.0.0.1:9/proxy")).toBe("http://127.0.0.1:9/proxy/v1/images/generations");
    const gen = new OpenAiImageGenerator({ baseUrl: `${fake.url}/v1`, apiKey: KEY, model: "dall-e-3", timeoutMs: 2000 });
    const made = await gen.generate("a woman");
    expect(made).toMatchObject({ contentType: "image/png", model: "dall-e-3", seed: null });
    expect(fake.requests.at(-1)!.path).toBe("/v1/images/generations");
    expect(fake.bodies.at(-1)).toMatchObject({ model: "dall-e-3", response_format: "b64_json" });
  });
});

describe("sniffImage", () => {
  it("knows PNG and JPEG by their bytes, with their size, and nothing else", async () => {
    const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    const jpeg = await sharp({ create: { width: 31, height: 21, channels: 3, background: "#fff" } })
      .jpeg()
      .toBuffer();
    const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } })
      .webp()
      .toBuffer();
    expect(sniffImage(new Uint8Array(png))).toEqual({ contentType: "image/png", width: 30, height: 20 });
    expect(sniffImage(new Uint8Array(jpeg))).toEqual({ contentType: "image/jpeg", width: 31, height: 21 });
    expect(sniffImage(new Uint8Array(webp))).toBeNull();
    expect(sniffImage(new TextEncoder().encode("<html>not an image</html>"))).toBeNull();
    expect(sniffImage(new Uint8Array(png.subarray(0, 12)))).toBeNull();
    expect(sniffImage(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
  });
});
