// Integration: GET /api/voice/preview on the real box (spec Box: voices): WAV bytes of a short
// fixed sentence, cached per provider and voice; a provider the caller cannot use is 404; a voice
// the provider deleted is 404 with a readable error; a voice id that is not one (path characters,
// 10 KB) is refused before any provider is asked. The box boots on espeak with its own ElevenLabs
// key (the protocol fake); Cartesia has a base URL but no key, so nobody can use it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";
import { FakeCartesia } from "./cartesia/testing/fake-cartesia.ts";
import { FakeElevenLabs } from "./elevenlabs/testing/fake-elevenlabs.ts";
import { ADAM, GEORGE, LUCIA, RACHEL } from "./elevenlabs/testing/fake-voices.ts";
import { decodeWav } from "./wav.ts";

const EL_KEY = "sk_el_box_preview_4567";
let el: FakeElevenLabs;
let car: FakeCartesia;
let box: RunningBox;

interface Answer {
  status: number;
  type: string;
  bytes: Uint8Array;
  json: any;
}

async function preview(query: Record<string, string> = {}): Promise<Answer> {
  const qs = new URLSearchParams(query).toString();
  const r = await fetch(`${box.url}/api/voice/preview${qs ? `?${qs}` : ""}`);
  const type = r.headers.get("content-type") ?? "";
  const bytes = new Uint8Array(await r.arrayBuffer());
  return { status: r.status, type, bytes, json: type.includes("json") ? JSON.parse(new TextDecoder().decode(bytes)) : null };
}

/** Checks the RIFF header by hand (mono, 16-bit PCM) and answers the samples' RMS and length. */
function wavFacts(bytes: Uint8Array): { rms: number; seconds: number; sampleRate: number } {
  const ascii = (at: number, n: number) => String.fromCharCode(...bytes.subarray(at, at + n));
  expect(ascii(0, 4)).toBe("RIFF");
  expect(ascii(8, 4)).toBe("WAVE");
  expect(ascii(12, 4)).toBe("fmt ");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(view.getUint16(20, true)).toBe(1); // PCM
  expect(view.getUint16(22, true)).toBe(1); // mono
  expect(view.getUint16(34, true)).toBe(16);
  const { pcm, sampleRate } = decodeWav(bytes);
  expect(sampleRate).toBe(view.getUint32(24, true));
  let sum = 0;
  for (const s of pcm) sum += s * s;
  return { rms: Math.sqrt(sum / Math.max(1, pcm.length)), seconds: pcm.length / sampleRate, sampleRate };
}

function expectSpeech(a: Answer): void {
  expect(a.status, JSON.stringify(a.json)).toBe(200);
  expect(a.type).toBe("audio/wav");
  const f = wavFacts(a.bytes);
  // "Hello! This is how I sound when I talk with you." is a second or more of audible speech.
  expect(f.seconds).toBeGreaterThan(1);
  expect(f.rms).toBeGreaterThan(300);
}

/** A refusal in the flat envelope, with a sentence a person can read. */
function expectRefusal(a: Answer, statuses: number[]): string {
  expect(statuses).toContain(a.status);
  expect(a.type).toContain("json");
  expect(a.json).toMatchObject({ error: expect.any(String), code: expect.any(String) });
  expect(a.json.error.length).toBeGreaterThan(10);
  expect(a.json.error.length).toBeLessThan(400);
  expect(a.json.error).not.toMatch(/[\r\n]/);
  return a.json.error;
}

const speechCalls = () => el.of("speech").length;

beforeAll(async () => {
  el = await FakeElevenLabs.start({ apiKey: EL_KEY });
  car = await new FakeCartesia().listen();
  box = await spawnBox({
    BOX_TTS: "espeak",
    BOX_ASR: "none",
    BOX_ELEVENLABS_API_KEY: EL_KEY,
    BOX_ELEVENLABS_BASE_URL: el.url,
    BOX_CARTESIA_BASE_URL: car.url,
  });
}, 60_000);
afterAll(async () => {
  await box?.stop();
  await el?.close();
  await car?.close();
});

describe("GET /api/voice/preview", () => {
  it("speaks the session's default espeak voice when named nothing", async () => {
    const a = await preview();
    expectSpeech(a);
    expect(a.bytes).toEqual((await preview()).bytes);
  });

  it("speaks a named espeak voice, different from the default", async () => {
    const cat = (await (await fetch(`${box.url}/api/voices`)).json()) as any;
    const espeak = cat.groups.find((g: any) => g.provider === "espeak").voices as any[];
    const other =
      espeak.find((v) => v.id !== cat.current && v.gender === "female" && v.language.startsWith("en")) ??
      espeak.find((v) => v.id !== cat.current);
    expect(other).toBeDefined();
    // The catalogue's own preview path works as given.
    const viaRow = await fetch(box.url + other.preview);
    const named = {
      status: viaRow.status,
      type: viaRow.headers.get("content-type") ?? "",
      bytes: new Uint8Array(await viaRow.arrayBuffer()),
      json: null,
    };
    expectSpeech(named);
    const byDefault = await preview();
    expect(named.bytes).not.toEqual(byDefault.bytes);
    // Naming the provider explicitly is the same preview.
    expect((await preview({ provider: "espeak", voice: other.id })).bytes).toEqual(named.bytes);
  });

  it("speaks an ElevenLabs voice on the box's own key, once: the second identical request is served from the cache", async () => {
    const before = speechCalls();
    const first = await preview({ provider: "elevenlabs", voice: GEORGE });
    expectSpeech(first);
    const calls = el.of("speech").slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0].path).toBe(`/v1/text-to-speech/${GEORGE}/stream/with-timestamps`);
    expect(calls[0].headers["xi-api-key"]).toBe(EL_KEY);
    expect((calls[0].body as { text: string }).text).toMatch(/^Hello!/);

    const second = await preview({ provider: "elevenlabs", voice: GEORGE });
    expectSpeech(second);
    expect(second.bytes).toEqual(first.bytes);
    expect(speechCalls()).toBe(before + 1);

    // Cached per voice: another voice of the same provider is asked for.
    expectSpeech(await preview({ provider: "elevenlabs", voice: LUCIA }));
    expect(speechCalls()).toBe(before + 2);
  });

  it("a provider the caller cannot use is 404 and its server is never asked", async () => {
    const asked = car.requests.length;
    const cartesia = await preview({ provider: "cartesia", voice: "a0e99841-438c-4a64-b679-ae501e7d6091" });
    expect(expectRefusal(cartesia, [404])).toMatch(/Cartesia/);
    expect(cartesia.json.code).toBe("voice_provider_unavailable");
    expect(car.requests.length).toBe(asked);
    // With no voice named either.
    expectRefusal(await preview({ provider: "cartesia" }), [404]);
    // A provider that is not one at all.
    const polly = await preview({ provider: "polly", voice: "Joanna" });
    expect(expectRefusal(polly, [404])).toMatch(/polly/);
    expect(car.requests.length).toBe(asked);
  });

  it("a voice the provider deleted is 404 with a readable error", async () => {
    el.deleteVoice(RACHEL);
    const before = speechCalls();
    const gone = await preview({ provider: "elevenlabs", voice: RACHEL });
    const message = expectRefusal(gone, [404]);
    expect(gone.json.code).toBe("unknown_voice");
    expect(message).toContain(RACHEL);
    expect(message).toMatch(/ElevenLabs/);
    expect(speechCalls()).toBe(before + 1); // it did ask: the voice was in the list it read
    // A failure is not cached as if it were audio: asking again asks again, and still says 404.
    expectRefusal(await preview({ provider: "elevenlabs", voice: RACHEL }), [404]);
    // Another voice still speaks.
    expectSpeech(await preview({ provider: "elevenlabs", voice: ADAM }));
  });

  it("a voice id with path characters, control characters or 10 KB is refused without asking the provider", async () => {
    const before = el.requests.length;
    const odd = [
      "../../v1/user",
      "..%2F..%2Fv1%2Fuser",
      "JBFqnCBsd6RMkjVDRZzb/../../v1/user",
      "a\\b",
      "x".repeat(10 * 1024),
      "bad\u0000id",
      "line\nbreak",
    ];
    for (const voice of odd) {
      const r = await preview({ provider: "elevenlabs", voice });
      const message = expectRefusal(r, [400, 404]);
      // The message quotes at most a short piece of what was sent.
      expect(message.length, voice.slice(0, 20)).toBeLessThan(400);
    }
    expect(el.requests.length).toBe(before);
    const long = await preview({ provider: "elevenlabs", voice: "x".repeat(10 * 1024) });
    expect([long.status, long.json.code]).toEqual([400, "unknown_voice"]);
  });

  it("an espeak voice with path characters is not read as a file: 400 or 404, never speech", async () => {
    for (const voice of ["../../../../../../etc/passwd", "../../../../../../proc/self/environ", "/etc/hostname", "..\\..\\x"]) {
      const r = await preview({ provider: "espeak", voice });
      expectRefusal(r, [400, 404]);
      expect(r.json.code).toBe("unknown_voice");
    }
    // The box still speaks afterwards, and espeak's own names with a folder still work.
    expectSpeech(await preview({ provider: "espeak" }));
    expectSpeech(await preview({ provider: "espeak", voice: "gmw/en-US" }));
  });
});
