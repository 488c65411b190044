import { describe, expect, it } from "vitest";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import { DeepgramEngine } from "./deepgram.ts";
import { PocketsphinxEngine } from "./pocketsphinx.ts";
import { createAsr } from "./registry.ts";

describe("createAsr", () => {
  it("auto picks pocketsphinx when it is installed, none when it is not", () => {
    expect(createAsr({ engine: "auto" }).engine).toBeInstanceOf(PocketsphinxEngine);
    const absent = createAsr({ engine: "auto", pocketsphinx: { libraryPath: "/nonexistent/libpocketsphinx.so.3" } });
    expect(absent.engine).toBeNull();
    expect(absent.reason).toMatch(/not installed/);
  });

  it("none configures no engine (the socket refuses with 4001)", () => {
    const choice = createAsr({ engine: "none" });
    expect(choice.engine).toBeNull();
    expect(choice.reason).not.toBe("");
  });

  it("deepgram needs an API key or a self-hosted server's address; the URL defaults to Deepgram's", () => {
    expect(createAsr({ engine: "deepgram" }).engine).toBeNull();
    expect(createAsr({ engine: "deepgram", deepgram: { apiKey: "" } }).engine).toBeNull();
    // A self-hosted server speaking Deepgram's protocol may take no key.
    const selfHosted = createAsr({ engine: "deepgram", deepgram: { url: "ws://127.0.0.1:1", apiKey: "" } });
    expect(selfHosted.engine).toBeInstanceOf(DeepgramEngine);
    expect(selfHosted.reason).toBe("deepgram protocol at ws://127.0.0.1:1 (no key)");
    const chosen = createAsr({ engine: "deepgram", deepgram: { url: "ws://127.0.0.1:1", apiKey: "k" } });
    expect(chosen.engine).toBeInstanceOf(DeepgramEngine);
    expect(chosen.engine?.id).toBe("deepgram");
    expect(createAsr({ engine: "deepgram", deepgram: { apiKey: "k" } }).reason).toMatch(/api\.deepgram\.com/);
  });

  it("an explicit pocketsphinx that is missing is an engine that will not start (4005)", async () => {
    const choice = createAsr({ engine: "pocketsphinx", pocketsphinx: { dict: "/nonexistent.dict" } });
    expect(choice.engine?.id).toBe("pocketsphinx");
    expect(choice.reason).toMatch(/not installed/);
    await expect(choice.engine!.start({ sampleRate: 16000 })).rejects.toMatchObject({ status: 503 });
    await expect(choice.engine!.start({ sampleRate: 16000 })).rejects.toBeInstanceOf(UpstreamError);
  });
});
