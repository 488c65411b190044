// The Bun entry end to end with the voice start contract: PORTAL_ELEVENLABS_BASE_URL and
// PORTAL_CARTESIA_BASE_URL point the key checks at the local protocol fakes; the saved key is
// sealed in the portal's database file.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPortalProcess, type PortalProcess } from "../testing/portal-process.ts";
import { startFakeCartesia, type FakeCartesia } from "./testing/fake-cartesia.ts";
import { startFakeElevenLabs, type FakeElevenLabs } from "./testing/fake-elevenlabs.ts";

const ELEVEN_KEY = "sk_e2eMarkerELEVEN_5b6a79880f1e2d3c4b5a6978";
const CARTESIA_KEY = "sk_car_e2eMarkerCARTESIA_Hq2Jk3Lm4Np5";

const dir = mkdtempSync(join(tmpdir(), "portal-voice-e2e-"));
const outbox = join(dir, "outbox");
let eleven: FakeElevenLabs;
let cartesia: FakeCartesia;
let portal: PortalProcess;
let cookie: string;

beforeAll(async () => {
  eleven = await startFakeElevenLabs({ acceptedKey: ELEVEN_KEY });
  cartesia = await startFakeCartesia({ acceptedKey: CARTESIA_KEY });
  portal = await startPortalProcess({
    PORTAL_DB_URL: pathToFileURL(join(dir, "portal.db")).href,
    PORTAL_DATA_DIR: dir,
    PORTAL_MAIL_OUTBOX: outbox,
    PORTAL_GPU_DRIVER: "none",
    PORTAL_ELEVENLABS_BASE_URL: eleven.url,
    PORTAL_CARTESIA_BASE_URL: `${cartesia.url}/`,
  });
  await fetch(`${portal.url}/auth/request-link`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "ada@example.com" }),
  });
  const mail = readFileSync(join(outbox, readdirSync(outbox)[0]), "utf8");
  const link = /(http:\/\/\S+\/auth\/callback\?token=[A-Za-z0-9_-]+)/.exec(mail)![1];
  cookie = (await fetch(link, { redirect: "manual" })).headers.get("set-cookie")!.split(";")[0];
});
afterAll(async () => {
  await portal?.stop();
  await eleven?.close();
  await cartesia?.close();
  rmSync(dir, { recursive: true, force: true });
});

const put = (path: string, body: unknown) =>
  fetch(`${portal.url}${path}`, { method: "PUT", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify(body) });

describe("bun portal/main.ts: voice settings", () => {
  it("checks keys at the configured base URLs, saves them, and switches engines", async () => {
    const saved = await put("/auth/voice/key", { provider: "elevenlabs", key: ELEVEN_KEY });
    expect(saved.status).toBe(200);
    expect(eleven.requests.at(-1)).toMatchObject({ method: "GET", path: "/v1/user" });
    expect((await put("/auth/voice/key", { provider: "cartesia", key: CARTESIA_KEY })).status).toBe(200);
    expect(cartesia.requests.at(-1)).toMatchObject({ method: "GET", path: "/voices" });
    const chosen = await put("/auth/voice/engine", { engine: "elevenlabs" });
    expect(chosen.status).toBe(200);
    const { voice } = await chosen.json();
    expect(voice.engine).toBe("elevenlabs");
    expect(voice.keys.map((k: { provider: string; masked: string }) => [k.provider, k.masked])).toEqual([
      ["cartesia", `${"\u2022".repeat(8)}${CARTESIA_KEY.slice(-4)}`],
      ["elevenlabs", `${"\u2022".repeat(8)}${ELEVEN_KEY.slice(-4)}`],
    ]);
  });

  it("refuses a rejected key (400) and a hanging provider (502) without storing either", async () => {
    const rejected = await put("/auth/voice/key", { provider: "cartesia", key: "sk_car_wrong_key_1234" });
    expect(rejected.status).toBe(400);
    expect((await rejected.json()).error.code).toBe("voice_key_rejected");
    eleven.options.hang = true;
    const started = Date.now();
    const hung = await put("/auth/voice/key", { provider: "elevenlabs", key: "sk_another_key_that_hangs" });
    eleven.options.hang = false;
    expect(hung.status).toBe(502);
    expect((await hung.json()).error.code).toBe("voice_key_check_failed");
    // The default timeout is 8 s.
    expect(Date.now() - started).toBeGreaterThan(7000);
    expect(Date.now() - started).toBeLessThan(20000);
    const { voice } = await (await fetch(`${portal.url}/auth/voice/settings`, { headers: { cookie } })).json();
    expect(voice.keys.map((k: { last4: string }) => k.last4)).toEqual([CARTESIA_KEY.slice(-4), ELEVEN_KEY.slice(-4)]);
  });

  it("leaves no plaintext key in the database file once the portal has stopped", async () => {
    expect(await portal.stop()).toBe(0);
    const files = readdirSync(dir).filter((f) => f.startsWith("portal.db"));
    expect(files).toContain("portal.db");
    for (const f of files) {
      const bytes = readFileSync(join(dir, f));
      for (const key of [ELEVEN_KEY, CARTESIA_KEY, "sk_car_wrong_key_1234", "sk_another_key_that_hangs"]) {
        expect(bytes.includes(Buffer.from(key.slice(0, 12)))).toBe(false);
      }
    }
  });
});
