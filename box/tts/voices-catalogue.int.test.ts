// Integration: GET /api/voices on the real box against the protocol fakes of every provider
// (spec "Voice catalogue", Box: voices, Limits "Voice catalogue cache"). The box boots on espeak
// and holds its own ElevenLabs and Cartesia keys and a Chatterbox server: four groups, each ready;
// one provider failing or hanging only changes its own group; answers are cached (5 min ok,
// 30 s failed) and `refresh=true` refetches.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";
import { FakeCartesia, FAKE_CARTESIA_KEY } from "./cartesia/testing/fake-cartesia.ts";
import { FakeChatterbox } from "./chatterbox/testing/fake-chatterbox.ts";
import { FakeElevenLabs } from "./elevenlabs/testing/fake-elevenlabs.ts";
import { ADAM, GEORGE, fakeVoices } from "./elevenlabs/testing/fake-voices.ts";

const EL_KEY = "sk_el_box_catalogue_0123";
const PROVIDERS = ["espeak", "chatterbox", "elevenlabs", "cartesia"];
const ZED = "d1f0e2a3-0000-4000-8000-00000000beef";
let el: FakeElevenLabs;
let car: FakeCartesia;
let cb: FakeChatterbox;
let box: RunningBox;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function voices(query = ""): Promise<{ status: number; json: any }> {
  const r = await fetch(`${box.url}/api/voices${query}`);
  return { status: r.status, json: await r.json() };
}

const group = (cat: any, provider: string) => cat.groups.find((g: any) => g.provider === provider);
const ids = (cat: any, provider: string) =>
  group(cat, provider)
    .voices.map((v: any) => v.id)
    .sort();
/** Voice-list requests each fake has seen so far. */
const listCalls = () => ({
  elevenlabs: el.of("voices").length,
  cartesia: car.requests.filter((r) => r.method === "GET" && r.path === "/voices").length,
  chatterbox: cb.requests.filter((r) => r.path === "/get_predefined_voices" || r.path === "/get_reference_files").length,
});

beforeAll(async () => {
  el = await FakeElevenLabs.start({ apiKey: EL_KEY });
  car = await new FakeCartesia().listen();
  cb = await FakeChatterbox.start();
  box = await spawnBox({
    BOX_TTS: "espeak",
    BOX_ASR: "none",
    BOX_ELEVENLABS_API_KEY: EL_KEY,
    BOX_ELEVENLABS_BASE_URL: el.url,
    BOX_CARTESIA_API_KEY: FAKE_CARTESIA_KEY,
    BOX_CARTESIA_BASE_URL: car.url,
    BOX_CHATTERBOX_URL: cb.url,
  });
}, 60_000);
afterAll(async () => {
  await box?.stop();
  await el?.close();
  await car?.close();
  await cb?.close();
});

describe("GET /api/voices with every provider configured", () => {
  it("has every top-level field of the spec, four ready groups, and rows flattened espeak first then by name", async () => {
    const { status, json } = await voices();
    expect(status).toBe(200);
    expect(Object.keys(json).sort()).toEqual(
      [
        "byo",
        "current",
        "current_provider",
        "engine_ready",
        "groups",
        "local",
        "provider",
        "provider_label",
        "requires_env",
        "voice_notice",
        "voices",
        "voices_from",
      ].sort(),
    );
    expect(json).toMatchObject({
      current: expect.any(String),
      current_provider: "espeak",
      engine_ready: true,
      provider: "espeak",
      provider_label: expect.stringMatching(/espeak/i),
      requires_env: null,
      voices_from: "espeak",
      local: true,
      byo: false,
      voice_notice: "",
    });
    expect(Array.isArray(json.groups) && Array.isArray(json.voices)).toBe(true);

    expect(json.groups.map((g: any) => g.provider).sort()).toEqual([...PROVIDERS].sort());
    for (const g of json.groups) {
      expect(Object.keys(g).sort()).toEqual(["label", "local", "provider", "reason", "state", "voices"]);
      expect(g, g.provider).toMatchObject({ state: "ready", reason: "", label: expect.any(String), local: expect.any(Boolean) });
      expect(g.voices.length, g.provider).toBeGreaterThan(0);
      for (const v of g.voices) expect(v.provider).toBe(g.provider);
    }
    expect(group(json, "espeak").local).toBe(true);
    expect(group(json, "chatterbox").local).toBe(true);
    expect(group(json, "elevenlabs").local).toBe(false);
    expect(group(json, "cartesia").local).toBe(false);
    // What each fake lists, no more and no fewer.
    expect(ids(json, "elevenlabs")).toEqual(
      fakeVoices()
        .map((v) => v.voice_id)
        .sort(),
    );
    expect(ids(json, "cartesia")).toEqual(car.voices.map((v) => v.id).sort());
    expect(ids(json, "chatterbox")).toEqual(["Abigail.wav", "Emily.wav", "Thomas.wav", "clone:Gianna.wav"]);

    // voices[]: every group's rows, the built-in engine's first, then by name.
    const all = json.voices as any[];
    expect(all.length).toBe(json.groups.reduce((n: number, g: any) => n + g.voices.length, 0));
    const nEspeak = group(json, "espeak").voices.length;
    expect(all.slice(0, nEspeak).every((v) => v.provider === "espeak")).toBe(true);
    expect(all.slice(nEspeak).some((v) => v.provider === "espeak")).toBe(false);
    for (const part of [all.slice(0, nEspeak), all.slice(nEspeak)]) {
      for (let i = 1; i < part.length; i++)
        expect(part[i - 1].name.localeCompare(part[i].name), `${part[i - 1].name} before ${part[i].name}`).toBeLessThanOrEqual(0);
    }
    // The current voice is the one marked recommended, and it is an espeak row.
    const recommended = all.filter((v) => v.recommended);
    expect(recommended.map((v) => [v.provider, v.id])).toEqual([["espeak", json.current]]);
  });

  it("every row has the spec's fields and no sample URL, timestamp or provider model id", async () => {
    const { json } = await voices();
    for (const v of json.voices) {
      const at = `${v.provider}/${v.id}`;
      for (const f of ["provider", "id", "name", "language", "gender", "description"]) expect(typeof v[f], `${at} ${f}`).toBe("string");
      expect(v.id.length, at).toBeGreaterThan(0);
      expect(v.name.length, at).toBeGreaterThan(0);
      expect(typeof v.recommended, at).toBe("boolean");
      expect(v.preview, at).toBe(`/api/voice/preview?provider=${encodeURIComponent(v.provider)}&voice=${encodeURIComponent(v.id)}`);
      // gender: the provider's own lowercase word; language: a tag, never a country code.
      expect(v.gender, at).toBe(v.gender.toLowerCase());
      expect(v.language, at).not.toMatch(/^[A-Z]{2}$/);
      for (const k of Object.keys(v)) expect(k, at).not.toMatch(/url|sample|model|created|_at$|_unix$|timestamp/i);
    }
    // Nothing of the providers' sample URLs or model ids leaks through any other field either.
    const text = JSON.stringify(json);
    expect(text).not.toMatch(/https?:\/\//);
    expect(text).not.toMatch(/eleven_(multilingual|flash|turbo)/);
    expect(text).not.toContain("preview.mp3");
    expect(text).not.toContain(EL_KEY);
    expect(text).not.toContain(FAKE_CARTESIA_KEY);
    // Provider fields that are the provider's own are kept (e.g. Cartesia's owner flag).
    expect(json.voices.find((v: any) => v.provider === "cartesia" && v.name === "Nova")).toMatchObject({ is_owner: true, language: "fr" });
    expect(json.voices.find((v: any) => v.id === GEORGE)).toMatchObject({
      name: "George",
      gender: "male",
      language: expect.stringMatching(/^en/),
    });
  });

  it("serves a second call from the cache; refresh=true refetches and shows the providers' changes", async () => {
    const before = await voices();
    const calls = listCalls();
    // Every hosted and self-hosted provider changes its list.
    car.voices.push({ id: ZED, name: "Zed", description: "Added later", language: "en", gender: "masculine" });
    el.deleteVoice(ADAM);
    cb.deleteVoice("Thomas.wav");

    const cached = await voices();
    expect(cached.status).toBe(200);
    expect(listCalls()).toEqual(calls); // no provider was asked
    for (const p of ["elevenlabs", "cartesia", "chatterbox"]) expect(ids(cached.json, p)).toEqual(ids(before.json, p));
    expect(ids(cached.json, "cartesia")).not.toContain(ZED);
    expect(ids(cached.json, "elevenlabs")).toContain(ADAM);

    const fresh = await voices("?refresh=true");
    expect(fresh.status).toBe(200);
    const after = listCalls();
    expect(after.elevenlabs).toBeGreaterThan(calls.elevenlabs);
    expect(after.cartesia).toBeGreaterThan(calls.cartesia);
    expect(after.chatterbox).toBeGreaterThan(calls.chatterbox);
    expect(ids(fresh.json, "cartesia")).toContain(ZED);
    expect(ids(fresh.json, "elevenlabs")).not.toContain(ADAM);
    expect(ids(fresh.json, "chatterbox")).not.toContain("Thomas.wav");
    expect(fresh.json.voices.find((v: any) => v.id === ZED)).toMatchObject({
      provider: "cartesia",
      name: "Zed",
      preview: `/api/voice/preview?provider=cartesia&voice=${ZED}`,
    });

    // And the refreshed answer is what is cached now.
    const again = await voices();
    expect(listCalls()).toEqual(after);
    expect(ids(again.json, "cartesia")).toContain(ZED);
  });

  it("a provider answering 500 is `refused` with a one-line reason; the others stay ready; the failure is cached 30 s", async () => {
    car.mode = { fail: 500 };
    const r = await voices("?refresh=true");
    expect(r.status).toBe(200);
    const c = group(r.json, "cartesia");
    expect(c).toMatchObject({ state: "refused", voices: [] });
    expect(c.reason).toMatch(/Cartesia/);
    expect(c.reason).not.toMatch(/[\r\n]/);
    expect(c.reason.length).toBeGreaterThan(10);
    for (const p of ["espeak", "chatterbox", "elevenlabs"]) expect(group(r.json, p).state, p).toBe("ready");
    expect(r.json.voices.some((v: any) => v.provider === "cartesia")).toBe(false);
    expect(r.json.voices.some((v: any) => v.provider === "elevenlabs")).toBe(true);

    // The provider recovers: within 30 s the failure is still what the box says, without asking.
    car.mode = {};
    const asked = listCalls().cartesia;
    const cached = await voices();
    expect(group(cached.json, "cartesia").state).toBe("refused");
    expect(listCalls().cartesia).toBe(asked);
    // Past the 30 s a failure is kept, the box asks again by itself (no refresh).
    await sleep(30_500);
    const later = await voices();
    expect(group(later.json, "cartesia")).toMatchObject({ state: "ready", reason: "" });
    expect(listCalls().cartesia).toBeGreaterThan(asked);
  }, 90_000);

  it("a Chatterbox server answering 500 is `refused` too, with FastAPI's detail in one line", async () => {
    cb.set({ fail: { status: 500, detail: "CUDA out of memory.\nTraceback (most recent call last): ..." } });
    try {
      const r = await voices("?refresh=true");
      expect(r.status).toBe(200);
      const g = group(r.json, "chatterbox");
      expect(g).toMatchObject({ state: "refused", voices: [] });
      expect(g.reason).toMatch(/Chatterbox/);
      expect(g.reason).not.toMatch(/[\r\n]/);
      for (const p of ["espeak", "elevenlabs", "cartesia"]) expect(group(r.json, p).state, p).toBe("ready");
    } finally {
      cb.set({ fail: null });
    }
    expect(group((await voices("?refresh=true")).json, "chatterbox").state).toBe("ready");
  });

  it("a provider that never answers is `timed_out` within the box's per-provider limit; the call is still 200", async () => {
    el.fault = "hang";
    el.faultOn = "voices";
    try {
      const r = await voices("?refresh=true");
      expect(r.status).toBe(200);
      const g = group(r.json, "elevenlabs");
      expect(g).toMatchObject({ state: "timed_out", voices: [] });
      expect(g.reason).toMatch(/ElevenLabs/);
      expect(g.reason).not.toMatch(/[\r\n]/);
      for (const p of ["espeak", "chatterbox", "cartesia"]) expect(group(r.json, p).state, p).toBe("ready");
    } finally {
      el.fault = null;
      el.faultOn = "all";
    }
    const back = await voices("?refresh=true");
    expect(group(back.json, "elevenlabs")).toMatchObject({ state: "ready", reason: "" });
  }, 60_000);
});
