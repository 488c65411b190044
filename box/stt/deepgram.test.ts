import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import type { AsrStream } from "./asr.ts";
import { DeepgramEngine, listenUrl } from "./deepgram.ts";
import { FakeDeepgram, type FakeDeepgramOptions } from "./testing/fake-deepgram.ts";

const KEY = "dg-test-key";
let fake: FakeDeepgram | null = null;
afterEach(async () => {
  await fake?.stop();
  fake = null;
});

async function startFake(options: Partial<FakeDeepgramOptions> = {}): Promise<FakeDeepgram> {
  fake = await FakeDeepgram.start({ apiKey: KEY, utterances: ["hello there", "how are you"], msPerWord: 100, ...options });
  return fake;
}

function record(stream: AsrStream) {
  const log: string[] = [];
  stream.on("partial", (t) => log.push(`partial:${t}`));
  stream.on("final", (t) => log.push(`final:${t}`));
  return log;
}

/** 100 ms of 16 kHz audio per write. */
function writeMs(stream: AsrStream, ms: number): void {
  for (let i = 0; i < ms / 100; i++) stream.write(new Int16Array(1600).fill(i));
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

describe("DeepgramEngine against the fake", () => {
  it("streams audio and receives partials then finals in order; finish() returns the text", async () => {
    const dg = await startFake();
    const stream = await new DeepgramEngine({ url: dg.url, apiKey: KEY }).start({ sampleRate: 16000, language: "en" });
    const log = record(stream);
    writeMs(stream, 200);
    await until(() => log.includes("final:hello there")); // results arrive while the stream is open
    writeMs(stream, 300);
    const text = await stream.finish();
    expect(log).toEqual(["partial:hello", "final:hello there", "partial:how", "partial:how are", "final:how are you"]);
    expect(text).toBe("hello there how are you");
    const conn = dg.connections[0];
    expect(conn.authorization).toBe(`Token ${KEY}`);
    expect(conn.audioBytes).toBe(500 * 32);
    expect(Object.fromEntries(conn.query)).toMatchObject({
      encoding: "linear16",
      sample_rate: "16000",
      channels: "1",
      interim_results: "true",
      language: "en",
    });
    expect(conn.controls.at(-1)).toEqual({ type: "CloseStream" });
    expect(conn.sent.at(-1)).toMatchObject({ type: "Metadata" });
    await until(() => conn.closeCode === 1000);
  });

  it("works against a self-hosted server speaking the same protocol: no key, or a Bearer key", async () => {
    const open = await startFake({ auth: "none" });
    const plain = await new DeepgramEngine({ url: open.url }).start({ sampleRate: 16000 });
    writeMs(plain, 500);
    expect(await plain.finish()).toBe("hello there how are you");
    expect(open.connections[0].authorization).toBeUndefined();

    const keyed = await startFake({ auth: "bearer" });
    const bearer = await new DeepgramEngine({ url: keyed.url, apiKey: KEY, auth: "bearer" }).start({ sampleRate: 16000 });
    writeMs(bearer, 500);
    expect(await bearer.finish()).toBe("hello there how are you");
    expect(keyed.connections[0].authorization).toBe(`Bearer ${KEY}`);
    // The same server refuses Deepgram's own scheme: the choice is the operator's (BOX_DEEPGRAM_AUTH).
    const refused = await new DeepgramEngine({ url: keyed.url, apiKey: KEY }).start({ sampleRate: 16000 }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 503 });
  });

  it("asks Deepgram's own service for a key before connecting", async () => {
    await expect(new DeepgramEngine({}).start({ sampleRate: 16000 })).rejects.toMatchObject({
      message: expect.stringMatching(/no API key/),
    });
  });

  it("joins is_final pieces into one utterance and settles the rest on finish", async () => {
    const dg = await startFake({ utterances: [["one two", "three four"], "five six seven"] });
    const stream = await new DeepgramEngine({ url: dg.url, apiKey: KEY }).start({ sampleRate: 16000 });
    const log = record(stream);
    writeMs(stream, 500); // reveals "five" of the second utterance only
    const text = await stream.finish();
    expect(log).toEqual([
      "partial:one",
      "partial:one two",
      "partial:one two three",
      "final:one two three four",
      "partial:five",
      "final:five",
    ]);
    expect(text).toBe("one two three four five");
  });

  it("sends KeepAlive while no audio flows", async () => {
    const dg = await startFake();
    const stream = await new DeepgramEngine({ url: dg.url, apiKey: KEY, keepAliveMs: 40 }).start({ sampleRate: 16000 });
    await until(() => (dg.connections[0]?.controls.filter((c) => c.type === "KeepAlive").length ?? 0) >= 2);
    stream.close();
  });

  it("maps a refused key (401 at the upgrade) to UpstreamError 503, not retryable", async () => {
    const dg = await startFake();
    const err = await new DeepgramEngine({ url: dg.url, apiKey: "wrong" }).start({ sampleRate: 16000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err).toMatchObject({ status: 503, retryable: false });
    expect((err as Error).message).toMatch(/401.*INVALID_AUTH/);
    expect(dg.connections).toHaveLength(0);
  });

  it("maps a connection failure to UpstreamError 502, retryable", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const err = await new DeepgramEngine({ url: `ws://127.0.0.1:${port}`, apiKey: KEY })
      .start({ sampleRate: 16000 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err).toMatchObject({ status: 502, retryable: true });
  });

  it("reports a stream the server drops as an error event", async () => {
    const dg = await startFake();
    const stream = await new DeepgramEngine({ url: dg.url, apiKey: KEY }).start({ sampleRate: 16000 });
    const errors: UpstreamError[] = [];
    stream.on("error", (e) => errors.push(e));
    dg.dropAll();
    await until(() => errors.length === 1);
    expect(errors[0]).toMatchObject({ status: 502, retryable: true });
    expect(errors[0].message).toMatch(/1011/);
    await expect(stream.finish()).rejects.toBeInstanceOf(UpstreamError);
  });

  it("builds the listen address from an https base", () => {
    const url = new URL(listenUrl({ url: "https://api.example.test/", endpointingMs: 250 }, { sampleRate: 16000 }));
    expect(`${url.protocol}//${url.host}${url.pathname}`).toBe("wss://api.example.test/v1/listen");
    expect(url.searchParams.get("endpointing")).toBe("250");
    expect(url.searchParams.get("punctuate")).toBe("true");
  });
});
