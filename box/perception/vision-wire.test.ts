import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { AnthropicProvider } from "../llm/anthropic.ts";
import { BedrockProvider } from "../llm/bedrock.ts";
import { OpenAiProvider } from "../llm/openai.ts";
import { ProbeCache } from "../llm/probe-cache.ts";
import { baseRequest, collect } from "../llm/testing/collect.ts";
import { FakeAnthropic } from "../llm/testing/fake-anthropic.ts";
import { FakeBedrock } from "../llm/testing/fake-bedrock.ts";
import { FakeOpenAi } from "../llm/testing/fake-openai.ts";
import type { ChatMessage } from "../llm/types.ts";
import { acceptsImages, DEFAULT_VISION_MODELS } from "../llm/vision-models.ts";
import { pictureFor } from "./turn-picture.ts";

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);
const b64 = JPEG.toString("base64");
const withPicture: ChatMessage[] = [{ role: "user", content: "What am I holding?", image: { mediaType: "image/jpeg", data: JPEG } }];
const camera = { picture: () => ({ jpeg: JPEG, at: Date.now() }) };

let dir: string;
beforeEach(async () => void (dir = await mkdtemp(join(tmpdir(), "vision-wire-"))));
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe("the person's picture on each provider's wire", () => {
  test("OpenAI-compatible: an image_url data URL beside the words", async () => {
    const fake = await FakeOpenAi.start({ models: [{ id: "gpt-4o-mini" }] });
    try {
      const p = new OpenAiProvider({ baseUrl: `${fake.url}/v1`, apiKey: "k", cache: new ProbeCache({ dir }) });
      await collect(p.stream(baseRequest("gpt-4o-mini", { messages: withPicture })));
      const user = fake.lastRequest!.body.messages.at(-1);
      expect(user).toEqual({
        role: "user",
        content: [
          { type: "text", text: "What am I holding?" },
          { type: "image_url", image_url: { url: `data:image/jpeg;base64,${b64}` } },
        ],
      });
      await collect(p.stream(baseRequest("gpt-4o-mini")));
      expect(fake.lastRequest!.body.messages.at(-1), "no picture: the plain string content of today").toEqual({
        role: "user",
        content: "Hello",
      });
    } finally {
      await fake.close();
    }
  });

  test("Anthropic: a base64 image block before the text block", async () => {
    const fake = await FakeAnthropic.start({ models: [{ id: "claude-small" }] });
    try {
      const p = new AnthropicProvider({ baseUrl: fake.url, apiKey: "k", cache: new ProbeCache({ dir }) });
      await collect(p.stream(baseRequest("claude-small", { messages: withPicture })));
      expect(fake.lastRequest!.body.messages.at(-1)).toEqual({
        role: "user",
        content: [
          { type: "image", source: { type: "base64", media_type: "image/jpeg", data: b64 } },
          { type: "text", text: "What am I holding?" },
        ],
      });
      await collect(p.stream(baseRequest("claude-small")));
      expect(fake.lastRequest!.body.messages.at(-1)).toEqual({ role: "user", content: [{ type: "text", text: "Hello" }] });
    } finally {
      await fake.close();
    }
  });

  test("Bedrock Converse: an image block with the JPEG's bytes", async () => {
    const model = "au.anthropic.claude-sonnet-4-5-20250929-v1:0";
    const fake = await FakeBedrock.start({ models: [{ id: model }] });
    try {
      const p = new BedrockProvider({
        region: "ap-southeast-2",
        endpoint: fake.url,
        credentials: { accessKeyId: "AKIDFAKE", secretAccessKey: "x" },
        cache: new ProbeCache({ dir }),
      });
      await collect(p.stream(baseRequest(model, { messages: withPicture })));
      // On the wire (JSON), Converse carries the bytes base64-encoded.
      expect(fake.lastRequest!.body.messages.at(-1)).toEqual({
        role: "user",
        content: [{ image: { format: "jpeg", source: { bytes: b64 } } }, { text: "What am I holding?" }],
      });
      await collect(p.stream(baseRequest(model)));
      expect(fake.lastRequest!.body.messages.at(-1)).toEqual({ role: "user", content: [{ text: "Hello" }] });
    } finally {
      await fake.close();
    }
  });
});

describe("which turns carry a picture", () => {
  test("only a recent picture, only for a model that reads images; none when perception is off or no video was sent", () => {
    expect(pictureFor(camera, "gpt-4o-mini", DEFAULT_VISION_MODELS)?.data).toBe(JPEG);
    expect(pictureFor(camera, "claude-sonnet-4-5", DEFAULT_VISION_MODELS)).toBeDefined();
    expect(pictureFor(camera, "au.anthropic.claude-sonnet-4-5-20250929-v1:0", DEFAULT_VISION_MODELS)).toBeDefined();
    expect(pictureFor(camera, "llama3.2:3b", DEFAULT_VISION_MODELS), "a text-only model").toBeUndefined();
    expect(pictureFor(null, "gpt-4o-mini", DEFAULT_VISION_MODELS), "perception off: the session has none").toBeUndefined();
    expect(pictureFor({ picture: () => null }, "gpt-4o-mini", DEFAULT_VISION_MODELS), "no video sent, or a frozen one").toBeUndefined();
    expect(pictureFor(camera, "gpt-4o-mini", []), "BOX_VISION_MODELS empty").toBeUndefined();
  });

  test("BOX_VISION_MODELS patterns: * is any run, the rest literal, case-insensitive", () => {
    expect(acceptsImages("My-Llava:13B", ["my-llava*"])).toBe(true);
    expect(acceptsImages("gpt-4o", ["gpt-4.1*"])).toBe(false);
    expect(acceptsImages("gpt-4x1", ["gpt-4.1*"]), "a dot is a dot").toBe(false);
  });
});
