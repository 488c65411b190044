// `/auth/voice/*`: the settings record, saving a key (checked with the provider first, sealed, only
// last4/masked leave), deleting it (idempotent, engine falls back), choosing an engine (409
// voice_key_required without a key), bad input, partitions, and the engine/key invariant under races.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, createTestPortal, TEST_SECRET, type TestPortal } from "../testing/test-portal.ts";
import { VoiceKeyCipher, VoiceKeyUnreadable } from "../../shared/voice-keys/crypto.ts";
import { VoiceStore } from "./store.ts";
import { drizzle } from "drizzle-orm/libsql";
import { startFakeCartesia, type FakeCartesia } from "./testing/fake-cartesia.ts";
import { startFakeElevenLabs, type FakeElevenLabs } from "./testing/fake-elevenlabs.ts";

const ELEVEN_KEY = "sk_0123456789abcdef0123456789abcdef0123456789ab5e7c";
const CARTESIA_KEY = "sk_car_ABCDEFGHIJKLMNOPQRSTUVWXyz9w3q";
const MASK = "\u2022".repeat(8);

let eleven: FakeElevenLabs;
let cartesia: FakeCartesia;
let portal: TestPortal;
const logs: string[] = [];
let ada: string;
let bob: string;

beforeAll(async () => {
  eleven = await startFakeElevenLabs({ acceptedKey: ELEVEN_KEY });
  cartesia = await startFakeCartesia({ acceptedKey: CARTESIA_KEY });
  portal = await createTestPortal(
    {
      voice: { elevenlabsBaseUrl: eleven.url, cartesiaBaseUrl: cartesia.url, timeoutMs: 500 },
      log: (msg, err) => logs.push(`${msg} ${err instanceof Error ? err.stack : String(err ?? "")}`),
    },
    await createTestDb(false),
  );
  ada = await portal.signIn("ada@example.com");
  bob = await portal.signIn("bob@example.com");
});
afterAll(async () => {
  // Nothing the portal logged carries a key.
  for (const line of logs) for (const k of [ELEVEN_KEY, CARTESIA_KEY]) expect(line).not.toContain(k);
  await portal.close();
  await eleven.close();
  await cartesia.close();
});
beforeEach(() => {
  eleven.options.hang = false;
  eleven.options.failWith = undefined;
  cartesia.options.hang = false;
});

const call = async (cookie: string, method: string, path: string, body?: unknown) => {
  const res = await portal.app.request(path, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : null };
};
const settings = async (cookie: string) => (await call(cookie, "GET", "/auth/voice/settings")).json.voice;
const saveKey = (cookie: string, body: unknown) => call(cookie, "PUT", "/auth/voice/key", body);
const deleteKey = (cookie: string, provider: string) => call(cookie, "DELETE", `/auth/voice/key/${provider}`);
const choose = (cookie: string, body: unknown) => call(cookie, "PUT", "/auth/voice/engine", body);
const expectError = (res: { status: number; json: unknown }, status: number, code: string) => {
  expect(res.status).toBe(status);
  expect(res.json).toEqual({ error: { code, message: expect.any(String) } });
  expect((res.json as { error: { message: string } }).error.message.length).toBeGreaterThan(10);
};

describe("GET /auth/voice/settings", () => {
  it("starts on the built-in engine with the three engines and no keys", async () => {
    const carol = await portal.signIn("carol@example.com");
    const res = await call(carol, "GET", "/auth/voice/settings");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      voice: {
        engine: "espeak",
        engines: [
          { id: "espeak", label: expect.any(String), byo: false, provider: null, note: expect.stringMatching(/no key/) },
          {
            id: "elevenlabs",
            label: "ElevenLabs",
            byo: true,
            provider: "elevenlabs",
            note: expect.stringMatching(/Needs your own ElevenLabs API key/),
          },
          {
            id: "cartesia",
            label: "Cartesia",
            byo: true,
            provider: "cartesia",
            note: expect.stringMatching(/Needs your own Cartesia API key/),
          },
        ],
        keys: [],
      },
    });
  });

  it("answers 401 without a signed-in person", async () => {
    const res = await portal.app.request("/auth/voice/settings");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: "missing_api_key", message: expect.any(String) });
  });
});

describe("PUT /auth/voice/key", () => {
  it("checks the key with ElevenLabs, saves it sealed, and shows only last4 and masked", async () => {
    const before = eleven.requests.length;
    const res = await saveKey(ada, { provider: "elevenlabs", key: ELEVEN_KEY });
    expect(res.status).toBe(200);
    expect(eleven.requests.length).toBe(before + 1);
    expect(eleven.requests[before].headers["xi-api-key"]).toBe(ELEVEN_KEY);
    const { voice } = res.json;
    expect(voice.keys).toEqual([
      {
        provider: "elevenlabs",
        last4: "5e7c",
        masked: `${MASK}5e7c`,
        created_at: expect.any(Number),
        updated_at: expect.any(Number),
        validated: true,
        validated_at: expect.any(Number),
      },
    ]);
    expect(Math.abs(voice.keys[0].validated_at - Date.now() / 1000)).toBeLessThan(5);
    expect(voice.engines[1].note).toContain(`${MASK}5e7c`);
    expect(voice.engine).toBe("espeak"); // saving a key does not switch engines
    expect(res.text).not.toContain(ELEVEN_KEY);
    expect(res.text).not.toContain(ELEVEN_KEY.slice(0, 12));
    // The stored row opens, with the portal's secret, to the key that was sent.
    const store = new VoiceStore(drizzle(portal.client), portal.client);
    const sealed = await store.sealedKey("ada@example.com", "elevenlabs");
    expect(await (await VoiceKeyCipher.fromSecret(TEST_SECRET)).open("ada@example.com", "elevenlabs", sealed!)).toBe(ELEVEN_KEY);
  });

  it("checks the key with Cartesia and lists both keys", async () => {
    const res = await saveKey(ada, { provider: "cartesia", key: ` ${CARTESIA_KEY} ` });
    expect(res.status).toBe(200);
    expect(res.json.voice.keys.map((k: { provider: string; last4: string }) => [k.provider, k.last4])).toEqual([
      ["cartesia", "9w3q"],
      ["elevenlabs", "5e7c"],
    ]);
    expect(cartesia.requests.at(-1)!.headers["x-api-key"]).toBe(CARTESIA_KEY);
  });

  it("replacing a key keeps created_at and moves updated_at", async () => {
    const first = (await settings(ada)).keys.find((k: { provider: string }) => k.provider === "elevenlabs");
    await new Promise((r) => setTimeout(r, 1100));
    const again = (await saveKey(ada, { provider: "elevenlabs", key: ELEVEN_KEY })).json.voice.keys.find(
      (k: { provider: string }) => k.provider === "elevenlabs",
    );
    expect(again.created_at).toBe(first.created_at);
    expect(again.updated_at).toBeGreaterThan(first.updated_at);
  });

  it("refuses a key the provider rejects with 400 voice_key_rejected and never stores it", async () => {
    const dan = await portal.signIn("dan@example.com");
    for (const provider of ["elevenlabs", "cartesia"]) {
      const res = await saveKey(dan, { provider, key: "sk_not_a_real_key_0000" });
      expectError(res, 400, "voice_key_rejected");
      expect(res.text).not.toContain("sk_not_a_real_key_0000");
    }
    expect((await settings(dan)).keys).toEqual([]);
    // A rejected replacement leaves the saved key alone.
    const before = await settings(ada);
    expectError(await saveKey(ada, { provider: "elevenlabs", key: "sk_wrong_replacement_key" }), 400, "voice_key_rejected");
    expect(await settings(ada)).toEqual(before);
  });

  it("answers 502 voice_key_check_failed when the provider hangs, and stores nothing", async () => {
    const erin = await portal.signIn("erin@example.com");
    for (const fake of [eleven, cartesia]) fake.options.hang = true;
    for (const [provider, key] of [
      ["elevenlabs", ELEVEN_KEY],
      ["cartesia", CARTESIA_KEY],
    ]) {
      const started = Date.now();
      const res = await saveKey(erin, { provider, key });
      expect(Date.now() - started).toBeLessThan(3000);
      expectError(res, 502, "voice_key_check_failed");
      expect(res.json.error.message).toMatch(/did not answer .* within 0\.5 s.*not saved/);
    }
    expect((await settings(erin)).keys).toEqual([]);
    // Nor does a hanging check touch a key already saved.
    const before = await settings(ada);
    expectError(await saveKey(ada, { provider: "elevenlabs", key: ELEVEN_KEY }), 502, "voice_key_check_failed");
    expect(await settings(ada)).toEqual(before);
  });

  it("answers 502 voice_key_check_failed when the provider fails (429, 500)", async () => {
    const fay = await portal.signIn("fay@example.com");
    for (const status of [429, 500]) {
      eleven.options.failWith = status;
      expectError(await saveKey(fay, { provider: "elevenlabs", key: ELEVEN_KEY }), 502, "voice_key_check_failed");
    }
    expect((await settings(fay)).keys).toEqual([]);
  });

  const badKeys: [string, unknown][] = [
    ["missing", undefined],
    ["a number", 42],
    ["empty", ""],
    ["only spaces", "    "],
    ["10 KB", "k".repeat(10 * 1024)],
    ["513 characters", "k".repeat(513)],
    ["a NUL", "sk_abc\u0000def"],
    ["a newline", "sk_abc\ndef"],
    ["a trailing newline", `${ELEVEN_KEY}\n`],
    ["a tab", "sk_abc\tdef"],
    ["an escape", "\u001b[31msk_red"],
    ["a DEL", "sk_abc\u007fdef"],
    ["a line separator", "sk_abc\u2028def"],
    ["a space inside", "sk_abc def"],
    ["non-ASCII", "sk_clé_secrète"],
  ];
  for (const [what, key] of badKeys) {
    it(`refuses a key that is ${what} with 400 invalid_voice_key before asking the provider`, async () => {
      const before = eleven.requests.length;
      const res = await saveKey(bob, { provider: "elevenlabs", ...(key === undefined ? {} : { key }) });
      expectError(res, 400, "invalid_voice_key");
      expect(eleven.requests.length).toBe(before);
      expect((await settings(bob)).keys).toEqual([]);
    });
  }

  it("sends a 512-character key to the provider (the limit is inclusive)", async () => {
    const before = eleven.requests.length;
    expectError(await saveKey(bob, { provider: "elevenlabs", key: "k".repeat(512) }), 400, "voice_key_rejected");
    expect(eleven.requests.length).toBe(before + 1);
  });

  const badProviders: unknown[] = [undefined, "", "espeak", "ElevenLabs", "elevenlabs ", "openai", 7, null, ["elevenlabs"]];
  for (const provider of badProviders) {
    it(`refuses provider ${JSON.stringify(provider)} with 400 unknown_voice_provider`, async () => {
      expectError(await saveKey(bob, { provider, key: ELEVEN_KEY }), 400, "unknown_voice_provider");
    });
  }

  it("refuses a body that is not a JSON object with 400 invalid_body", async () => {
    for (const body of ["{provider:", "[]", '"elevenlabs"', "null"]) expectError(await saveKey(bob, body), 400, "invalid_body");
  });

  it("refuses a change started by another site (409 cross_site_request) without asking the provider", async () => {
    const before = eleven.requests.length;
    const res = await portal.app.request("/auth/voice/key", {
      method: "PUT",
      headers: { cookie: bob, "content-type": "application/json", "sec-fetch-site": "cross-site" },
      body: JSON.stringify({ provider: "elevenlabs", key: ELEVEN_KEY }),
    });
    expect(res.status).toBe(409);
    expect(eleven.requests.length).toBe(before);
  });
});

describe("PUT /auth/voice/engine", () => {
  it("chooses the built-in engine at any time", async () => {
    const res = await choose(bob, { engine: "espeak" });
    expect(res.status).toBe(200);
    expect(res.json.voice.engine).toBe("espeak");
  });

  it("refuses a hosted provider without a saved key with 409 voice_key_required", async () => {
    for (const engine of ["elevenlabs", "cartesia"]) expectError(await choose(bob, { engine }), 409, "voice_key_required");
    expect((await settings(bob)).engine).toBe("espeak");
  });

  it("chooses a hosted provider once its key is saved", async () => {
    const res = await choose(ada, { engine: "cartesia" });
    expect(res.status).toBe(200);
    expect(res.json.voice.engine).toBe("cartesia");
    expect((await settings(ada)).engine).toBe("cartesia");
  });

  for (const engine of [undefined, "", "ESPEAK", "chatterbox", "openai", 1, null, true]) {
    it(`refuses engine ${JSON.stringify(engine)} with 400 unknown_voice_engine`, async () => {
      const before = (await settings(ada)).engine;
      expectError(await choose(ada, engine === undefined ? {} : { engine }), 400, "unknown_voice_engine");
      expect((await settings(ada)).engine).toBe(before);
    });
  }

  it("refuses a body that is not a JSON object with 400 invalid_body", async () => {
    expectError(await choose(ada, "espeak"), 400, "invalid_body");
  });
});

describe("DELETE /auth/voice/key/{provider}", () => {
  it("removes the key; the engine falls back to espeak when it was that provider", async () => {
    await choose(ada, { engine: "cartesia" });
    const res = await deleteKey(ada, "cartesia");
    expect(res.status).toBe(200);
    expect(res.json.voice.engine).toBe("espeak");
    expect(res.json.voice.keys.map((k: { provider: string }) => k.provider)).toEqual(["elevenlabs"]);
    expect(res.json.voice.engines[2].note).toMatch(/Needs your own Cartesia/);
    // The row is gone, not hidden.
    const rows = await portal.client.execute({
      sql: "SELECT count(*) AS n FROM voice_keys WHERE owner = ? AND provider = ?",
      args: ["ada@example.com", "cartesia"],
    });
    expect(rows.rows[0].n).toBe(0);
    // And the provider cannot be chosen again until a key is saved.
    expectError(await choose(ada, { engine: "cartesia" }), 409, "voice_key_required");
  });

  it("is idempotent: deleting a key that is not there answers 200 with the settings", async () => {
    const again = await deleteKey(ada, "cartesia");
    expect(again.status).toBe(200);
    expect(again.json.voice).toEqual(await settings(ada));
  });

  it("keeps the engine when another provider's key is deleted", async () => {
    expect((await saveKey(ada, { provider: "cartesia", key: CARTESIA_KEY })).status).toBe(200);
    await choose(ada, { engine: "elevenlabs" });
    const res = await deleteKey(ada, "cartesia");
    expect(res.json.voice.engine).toBe("elevenlabs");
  });

  it("dot segments resolve to another path before routing (404 not_found) and delete nothing", async () => {
    for (const segment of ["..", "%2e%2e", "."]) {
      expectError(await deleteKey(ada, segment), 404, "not_found");
    }
    expect((await settings(ada)).keys.map((k: { provider: string }) => k.provider)).toContain("elevenlabs");
  });

  for (const provider of [
    "espeak",
    "openai",
    "ElevenLabs",
    "eleven%2Flabs",
    "elevenlabs.",
    "%65levenlabs%2F",
    "%E2%80%A8",
    "elevenlabs%00",
    "k".repeat(300),
  ]) {
    it(`refuses provider segment ${provider} with 400 unknown_voice_provider`, async () => {
      expectError(await deleteKey(ada, provider), 400, "unknown_voice_provider");
      expect((await settings(ada)).keys.map((k: { provider: string }) => k.provider)).toContain("elevenlabs");
    });
  }

  it("answers other methods with 405 in the nested envelope", async () => {
    for (const [method, path] of [
      ["POST", "/auth/voice/settings"],
      ["GET", "/auth/voice/key"],
      ["POST", "/auth/voice/key"],
      ["DELETE", "/auth/voice/key"],
      ["GET", "/auth/voice/key/elevenlabs"],
      ["PUT", "/auth/voice/key/elevenlabs"],
      ["GET", "/auth/voice/engine"],
      ["POST", "/auth/voice/engine"],
    ]) {
      const res = await call(ada, method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.json.error.code).toBe("method_not_allowed");
    }
  });
});

describe("partitions", () => {
  it("one person never sees, uses or removes another's key", async () => {
    const gus = await portal.signIn("gus@example.com");
    const adaBefore = await settings(ada);
    expect(adaBefore.keys.length).toBeGreaterThan(0);
    const mine = await settings(gus);
    expect(mine.keys).toEqual([]);
    expect(JSON.stringify(mine)).not.toContain(adaBefore.keys[0].last4);
    expect(mine.engines.every((e: { note: string }) => !e.note.includes(MASK))).toBe(true);
    // Ada's saved ElevenLabs key does not let Gus pick ElevenLabs.
    expectError(await choose(gus, { engine: "elevenlabs" }), 409, "voice_key_required");
    // Gus deleting "his" ElevenLabs key leaves Ada's and her engine alone.
    expect((await deleteKey(gus, "elevenlabs")).status).toBe(200);
    // Gus saving and choosing his own changes nothing for Ada.
    expect((await saveKey(gus, { provider: "cartesia", key: CARTESIA_KEY })).status).toBe(200);
    expect((await choose(gus, { engine: "cartesia" })).status).toBe(200);
    expect(await settings(ada)).toEqual(adaBefore);
  });

  it("a row copied to another owner does not decrypt there", async () => {
    await portal.client.execute({ sql: "DELETE FROM voice_keys WHERE owner = ?", args: ["hal@example.com"] });
    await portal.client.execute({
      sql: `INSERT INTO voice_keys (owner, provider, key_id, nonce, ciphertext, last4, created_at, updated_at, validated_at)
            SELECT 'hal@example.com', provider, key_id, nonce, ciphertext, last4, created_at, updated_at, validated_at
            FROM voice_keys WHERE owner = 'ada@example.com' AND provider = 'elevenlabs'`,
      args: [],
    });
    const store = new VoiceStore(drizzle(portal.client), portal.client);
    const cipher = await VoiceKeyCipher.fromSecret(TEST_SECRET);
    const copied = await store.sealedKey("hal@example.com", "elevenlabs");
    await expect(cipher.open("hal@example.com", "elevenlabs", copied!)).rejects.toBeInstanceOf(VoiceKeyUnreadable);
    expect(await cipher.open("ada@example.com", "elevenlabs", copied!)).toBe(ELEVEN_KEY);
  });
});

describe("the engine never points at a missing key", () => {
  it("holds while deletes race engine choices", async () => {
    const ivy = await portal.signIn("ivy@example.com");
    for (let round = 0; round < 10; round++) {
      expect((await saveKey(ivy, { provider: "elevenlabs", key: ELEVEN_KEY })).status).toBe(200);
      const results = await Promise.all([
        choose(ivy, { engine: "elevenlabs" }),
        deleteKey(ivy, "elevenlabs"),
        choose(ivy, { engine: "elevenlabs" }),
      ]);
      for (const r of results) expect([200, 409]).toContain(r.status);
      const now = await settings(ivy);
      const keyed = new Set(now.keys.map((k: { provider: string }) => k.provider));
      expect(now.engine === "espeak" || keyed.has(now.engine)).toBe(true);
      const row = await portal.client.execute({
        sql: "SELECT engine FROM voice_engine_choices WHERE owner = ?",
        args: ["ivy@example.com"],
      });
      const engine = (row.rows[0]?.engine as string | undefined) ?? "espeak";
      expect(engine === "espeak" || keyed.has(engine)).toBe(true);
    }
  });
});
