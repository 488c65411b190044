// Key checks over real sockets against the local protocol fakes: the exact request each provider
// is sent, accepted / rejected / scoped keys, provider failures, a hanging provider, no provider.
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import { CARTESIA_VERSION, ProviderKeyChecker } from "./key-check.ts";
import { startFakeCartesia, type FakeCartesia } from "./testing/fake-cartesia.ts";
import { startFakeElevenLabs, type FakeElevenLabs } from "./testing/fake-elevenlabs.ts";

const ELEVEN_KEY = "sk_0123456789abcdef0123456789abcdef0123456789abcdef";
const ELEVEN_SCOPED = "sk_scoped_fedcba9876543210fedcba9876543210";
const CARTESIA_KEY = "sk_car_ABCDEFGHIJKLMNOPQRSTUVWXyz0123";

let eleven: FakeElevenLabs;
let cartesia: FakeCartesia;
let checker: ProviderKeyChecker;

beforeAll(async () => {
  eleven = await startFakeElevenLabs({ acceptedKey: ELEVEN_KEY, scopedKey: ELEVEN_SCOPED });
  cartesia = await startFakeCartesia({ acceptedKey: CARTESIA_KEY });
  checker = new ProviderKeyChecker({ elevenlabsBaseUrl: `${eleven.url}/`, cartesiaBaseUrl: cartesia.url, timeoutMs: 400 });
});
afterAll(async () => {
  await eleven.close();
  await cartesia.close();
});

const upstream = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamError);
  return err as UpstreamError;
};

describe("ElevenLabs: GET /v1/user with xi-api-key", () => {
  it("sends exactly the documented request and accepts the good key", async () => {
    const before = eleven.requests.length;
    expect(await checker.check("elevenlabs", ELEVEN_KEY)).toEqual({ accepted: true, restricted: false });
    const [req] = eleven.requests.slice(before);
    expect(req.method).toBe("GET");
    expect(req.path).toBe("/v1/user");
    expect(req.headers["xi-api-key"]).toBe(ELEVEN_KEY);
    expect(req.headers.authorization).toBeUndefined();
    expect(req.headers["x-api-key"]).toBeUndefined();
  });

  it("rejects another key with the provider's reason", async () => {
    expect(await checker.check("elevenlabs", "sk_wrong_wrong_wrong_wrong")).toEqual({ accepted: false, reason: "invalid_api_key" });
  });

  it("counts 401 missing_permissions as a valid key without user_read, not a bad key", async () => {
    expect(await checker.check("elevenlabs", ELEVEN_SCOPED)).toEqual({ accepted: true, restricted: true });
  });

  it("reports 429 and 500 as provider failures that say nothing about the key", async () => {
    for (const status of [429, 500]) {
      eleven.options.failWith = status;
      const err = await upstream(checker.check("elevenlabs", ELEVEN_KEY));
      expect(err.status).toBe(status);
      expect(err.retryable).toBe(true);
    }
    eleven.options.failWith = undefined;
  });

  it("gives up on a provider that hangs, within the timeout", async () => {
    eleven.options.hang = true;
    const started = Date.now();
    const err = await upstream(checker.check("elevenlabs", ELEVEN_KEY));
    eleven.options.hang = false;
    expect(Date.now() - started).toBeLessThan(3000);
    expect(err.status).toBe(504);
    expect(err.message).toMatch(/did not answer the key check within 0\.4 s/);
    expect(err.message).not.toContain(ELEVEN_KEY);
  });
});

describe("Cartesia: GET /voices?limit=1 with X-API-Key and Cartesia-Version", () => {
  it("sends exactly the documented request and accepts the good key", async () => {
    const before = cartesia.requests.length;
    expect(await checker.check("cartesia", CARTESIA_KEY)).toEqual({ accepted: true, restricted: false });
    const [req] = cartesia.requests.slice(before);
    expect(req.method).toBe("GET");
    expect(req.path).toBe("/voices");
    expect(req.query.get("limit")).toBe("1");
    expect(req.headers["x-api-key"]).toBe(CARTESIA_KEY);
    expect(req.headers["cartesia-version"]).toBe(CARTESIA_VERSION);
  });

  it("rejects another key", async () => {
    expect(await checker.check("cartesia", "sk_car_wrong")).toEqual({ accepted: false, reason: null });
  });

  it("the fake is as strict as the provider: version header required, Bearer accepted, plain-text errors before 2026-03-01", async () => {
    const noVersion = await fetch(`${cartesia.url}/voices?limit=1`, { headers: { "X-API-Key": CARTESIA_KEY } });
    expect(noVersion.status).toBe(400);
    const bearer = await fetch(`${cartesia.url}/voices?limit=1`, {
      headers: { authorization: `Bearer ${CARTESIA_KEY}`, "Cartesia-Version": "2025-11-04" },
    });
    expect(bearer.status).toBe(200);
    expect(await bearer.json()).toMatchObject({ data: [{ id: expect.any(String), name: "Katie" }], has_more: true });
    const oldError = await fetch(`${cartesia.url}/voices`, { headers: { "X-API-Key": "nope", "Cartesia-Version": "2024-11-13" } });
    expect(oldError.status).toBe(401);
    expect(await oldError.text()).toBe("Unauthorized: Invalid API key");
    expect(await (await fetch(`${cartesia.url}/`)).json()).toEqual({ ok: true, version: "2026-03-01" });
  });

  it("gives up on a provider that hangs, within the timeout", async () => {
    cartesia.options.hang = true;
    const err = await upstream(checker.check("cartesia", CARTESIA_KEY));
    cartesia.options.hang = false;
    expect(err.status).toBe(504);
  });

  it("reports a provider error status as a failure, not a rejection", async () => {
    cartesia.options.failWith = 503;
    expect((await upstream(checker.check("cartesia", CARTESIA_KEY))).status).toBe(503);
    cartesia.options.failWith = undefined;
  });
});

it("reports a provider nobody listens for as unreachable (502)", async () => {
  const port = await new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const nowhere = new ProviderKeyChecker({ elevenlabsBaseUrl: `http://127.0.0.1:${port}`, timeoutMs: 2000 });
  const err = await upstream(nowhere.check("elevenlabs", ELEVEN_KEY));
  expect(err.status).toBe(502);
  expect(err.message).toMatch(/could not be reached/);
});

it("gives up on a provider that sends its headers and then stalls the body", async () => {
  const stall = createHttpServer((_req, res) => {
    res.writeHead(401, { "content-type": "application/json" });
    res.write('{"detail":');
  });
  await new Promise<void>((r) => stall.listen(0, "127.0.0.1", r));
  try {
    const url = `http://127.0.0.1:${(stall.address() as { port: number }).port}`;
    const err = await upstream(new ProviderKeyChecker({ elevenlabsBaseUrl: url, timeoutMs: 300 }).check("elevenlabs", ELEVEN_KEY));
    expect(err.status).toBe(504);
  } finally {
    stall.closeAllConnections();
    await new Promise<void>((r) => stall.close(() => r()));
  }
});
