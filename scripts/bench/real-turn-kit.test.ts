// The realistic-turn benchmark's parts: splits that add up, a model fake that streams the reply and
// stamps its own wire, voice fakes that are stamped and point the box at env variables it reads.
// Behaviour only: no timing is asserted (the machine is shared).
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { chain, FIRST_PHRASE, PacedModel, pacedVoice, REPLY, TOKENS, type PacedVoice } from "./real-turn-kit.ts";

describe("chain", () => {
  it("gives splits that add up to the turn, never negative, when a stage started before its predecessor", () => {
    const c = chain([
      ["end_of_speech", 1000],
      ["final", 1250],
      ["model_request", 1100],
      ["model_first_token", 1400],
      ["voice_first_byte", undefined],
      ["client_audio", 1700],
    ]);
    expect(c.total).toBe(700);
    expect(c.splits).toEqual({
      end_of_speech_to_final: 250,
      final_to_model_request: 0,
      model_request_to_model_first_token: 150,
      model_first_token_to_client_audio: 300,
    });
    expect(Object.values(c.splits).reduce((a, b) => a + b, 0)).toBe(c.total);
    expect(c.early).toEqual(["model_request"]);
    expect(c.at.model_request).toBe(100);
  });
});

describe("paced fakes", () => {
  let model: PacedModel | undefined;
  let voice: PacedVoice | undefined;
  afterEach(async () => {
    await model?.close();
    await voice?.close();
    model = voice = undefined;
  });

  it("streams the reply as OpenAI SSE tokens and stamps the first token and the first phrase", async () => {
    model = await PacedModel.paced(0, 1000);
    const res = await fetch(`${model.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "fake-chat", stream: true, messages: [{ role: "user", content: "hi" }] }),
    });
    const body = await res.text();
    const words = body
      .split("\n\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => JSON.parse(l.slice(6)).choices[0]?.delta?.content ?? "")
      .join("");
    expect(words).toBe(TOKENS.join(""));
    expect(words.endsWith(REPLY)).toBe(true);
    expect(body.trim().endsWith("data: [DONE]")).toBe(true);
    const [call] = model.calls;
    expect(call.cut).toBe(false);
    for (const t of [call.firstToken, call.phraseEnd, call.end]) expect(Number.isFinite(t)).toBe(true);
    expect(call.arrive <= call.firstToken && call.firstToken <= call.phraseEnd && call.phraseEnd <= call.end).toBe(true);
    expect(REPLY.startsWith(FIRST_PHRASE)).toBe(true);
  });

  it("marks a stream the client left before its end as cut", async () => {
    model = await PacedModel.paced(0, 20);
    const ac = new AbortController();
    const res = await fetch(`${model.url}/v1/chat/completions`, {
      method: "POST",
      signal: ac.signal,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "fake-chat", stream: true, messages: [] }),
    });
    const reader = res.body!.getReader();
    let seen = "";
    while (!seen.includes('"content":"[tone:"')) seen += new TextDecoder().decode((await reader.read()).value);
    ac.abort();
    await expect.poll(() => model!.calls[0]?.cut, { timeout: 10_000 }).toBe(true);
  });

  it.each(["elevenlabs", "cartesia"] as const)(
    "%s: the speech request and its first byte are stamped, the answer carries alignment, the box env is read by the box",
    async (id) => {
      voice = await pacedVoice(id, 0, 1000);
      const envSource = readFileSync(new URL("../../box/env.ts", import.meta.url), "utf8");
      for (const key of Object.keys(voice.boxEnv)) expect(envSource).toContain(key);
      const t0 = performance.now();
      const text = "Hello there.";
      const req =
        id === "elevenlabs"
          ? ([
              `${voice.boxEnv.BOX_ELEVENLABS_BASE_URL}/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM/stream/with-timestamps?output_format=pcm_24000`,
              { "xi-api-key": voice.boxEnv.BOX_ELEVENLABS_API_KEY },
              { text, model_id: "eleven_flash_v2_5" },
            ] as const)
          : ([
              `${voice.boxEnv.BOX_CARTESIA_BASE_URL}/tts/sse`,
              { "x-api-key": voice.boxEnv.BOX_CARTESIA_API_KEY, "cartesia-version": "2026-03-01" },
              {
                model_id: "sonic-2",
                transcript: text,
                voice: { mode: "id", id: "a0e99841-438c-4a64-b679-ae501e7d6091" },
                output_format: { container: "raw", encoding: "pcm_s16le", sample_rate: 24000 },
              },
            ] as const);
      const res = await fetch(req[0], {
        method: "POST",
        headers: { "content-type": "application/json", ...req[1] },
        body: JSON.stringify(req[2]),
      });
      const answer = await res.text();
      expect(res.status).toBe(200);
      expect(answer).toContain(id === "elevenlabs" ? "character_start_times_seconds" : "word_timestamps");
      const seen = voice.wire.after(t0);
      expect(seen.asked).toBeDefined();
      expect(seen.firstByte).toBeDefined();
      expect(seen.firstByte!).toBeGreaterThanOrEqual(seen.asked!);
    },
  );
});
