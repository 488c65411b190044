import { afterAll, describe, expect, it } from "vitest";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import type { AsrStream } from "./asr.ts";
import { grammarToJsgf, isInstalled, PocketsphinxEngine } from "./pocketsphinx.ts";
import { chunks, concat, silence, speech16k } from "./testing/speech-audio.ts";

const SENTENCES = ["Please turn on the lights.", "The quick brown fox jumps over the lazy dog.", "Hello, how are you today?"];

const engine = new PocketsphinxEngine();
afterAll(() => engine.dispose());

function record(stream: AsrStream) {
  const log: { event: "partial" | "final"; text: string }[] = [];
  stream.on("partial", (text) => log.push({ event: "partial", text }));
  stream.on("final", (text) => log.push({ event: "final", text }));
  return log;
}

describe("PocketsphinxEngine", () => {
  it("is installed on this machine (the set-up script installs it)", () => {
    expect(isInstalled()).toBe(true);
  });

  it("recognises espeak speech exactly with a grammar of the expected sentences", async () => {
    const stream = await engine.start({ sampleRate: 16000, grammar: SENTENCES });
    const log = record(stream);
    for (const c of chunks(concat(silence(300), await speech16k("Please turn on the lights."), silence(300)))) stream.write(c);
    const text = await stream.finish();
    expect(text).toBe("please turn on the lights");
    expect(log.at(-1)).toEqual({ event: "final", text: "please turn on the lights" });
    const partials = log.filter((e) => e.event === "partial");
    expect(partials.length).toBeGreaterThan(0);
    expect(partials.at(-1)?.text).toBe("please turn on the lights"); // revised on the way, settled last
  });

  it("gives partials and a non-empty final with the general language model", async () => {
    const stream = await engine.start({ sampleRate: 16000, language: "en-US" });
    const log = record(stream);
    for (const c of chunks(await speech16k("The quick brown fox jumps over the lazy dog."))) stream.write(c);
    const text = await stream.finish();
    expect(text.length).toBeGreaterThan(0);
    expect(log.some((e) => e.event === "partial")).toBe(true);
    expect(log.filter((e) => e.event === "final").map((e) => e.text)).toEqual([text]);
  });

  it("finalize() settles the utterance at once, so words after a short gap start a new one", async () => {
    const stream = await engine.start({ sampleRate: 16000, grammar: SENTENCES });
    const log = record(stream);
    for (const c of chunks(concat(await speech16k("Please turn on the lights."), silence(200)))) stream.write(c);
    stream.finalize();
    for (const c of chunks(concat(await speech16k("Hello, how are you today?"), silence(300)))) stream.write(c);
    await stream.finish();
    expect(log.filter((e) => e.event === "final").map((e) => e.text)).toEqual(["please turn on the lights", "hello how are you today"]);
  });

  it("settles each utterance at the decoder's own endpoint on a long-lived stream", async () => {
    const stream = await engine.start({ sampleRate: 16000, grammar: SENTENCES });
    const finals: string[] = [];
    stream.on("final", (t) => finals.push(t));
    const a = await speech16k("Hello, how are you today?");
    const b = await speech16k("Please turn on the lights.");
    for (const c of chunks(concat(silence(300), a, silence(1500), b, silence(1500)))) stream.write(c);
    const text = await stream.finish();
    expect(finals).toEqual(["hello how are you today", "please turn on the lights"]);
    expect(text).toBe("hello how are you today please turn on the lights");
  });

  it("reuses its decoder after a stream closed mid-utterance", async () => {
    const first = await engine.start({ sampleRate: 16000, grammar: SENTENCES });
    first.write((await speech16k("The quick brown fox.")).subarray(0, 8000));
    first.close();
    const loaded = engine.decodersLoaded;
    const second = await engine.start({ sampleRate: 16000, grammar: SENTENCES });
    expect(engine.decodersLoaded).toBe(loaded);
    for (const c of chunks(await speech16k("The quick brown fox jumps over the lazy dog."))) second.write(c);
    expect(await second.finish()).toBe("the quick brown fox jumps over the lazy dog");
  });

  it("will not start (503) for a language it has no model for", async () => {
    const err = await engine.start({ sampleRate: 16000, language: "fr" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err).toMatchObject({ status: 503, retryable: false });
  });

  it("will not start (503) with grammar words outside its dictionary", async () => {
    const err = await engine.start({ sampleRate: 16000, grammar: ["zxqv florbnik"] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).status).toBe(503);
    expect((err as Error).message).toMatch(/zxqv/);
    const loaded = engine.decodersLoaded;
    const next = await engine.start({ sampleRate: 16000, grammar: SENTENCES });
    for (const c of chunks(await speech16k("Hello, how are you today?"))) next.write(c);
    expect(await next.finish()).toBe("hello how are you today"); // the refusal left the decoder usable
    expect(engine.decodersLoaded).toBe(loaded);
  });

  it("will not start (503) when its files are missing", async () => {
    const missing = new PocketsphinxEngine({ hmm: "/nonexistent/en-us" });
    const err = await missing.start({ sampleRate: 16000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err).toMatchObject({ status: 503, retryable: false });
    expect((err as Error).message).toMatch(/not installed/);
  });
});

describe("grammarToJsgf", () => {
  it("turns sentences into one public rule of lower-case words", () => {
    const { jsgf, words } = grammarToJsgf(["Don't stop!", "  Hello,   WORLD. ", "hello world"]);
    expect(jsgf).toContain("public <utterance> = don't stop | hello world;");
    expect(words).toEqual(["don't", "stop", "hello", "world"]);
    expect(() => grammarToJsgf(["?!"])).toThrow();
  });
});
