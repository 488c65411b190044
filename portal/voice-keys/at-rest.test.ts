// The plaintext key never reaches the database file: the bytes of the main file and of its WAL are
// read after saves, a replacement and a delete, before and after a checkpoint.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, createTestPortal, type TestPortal } from "../testing/test-portal.ts";
import { startFakeCartesia, type FakeCartesia } from "./testing/fake-cartesia.ts";
import { startFakeElevenLabs, type FakeElevenLabs } from "./testing/fake-elevenlabs.ts";

const ELEVEN_KEY = "sk_plaintextMarkerELEVEN_4f1d2c3b4a5968778695a4b3c2d1e0f9";
const ELEVEN_KEY_2 = "sk_plaintextMarkerELEVEN_second_0f9e8d7c6b5a49382716";
const CARTESIA_KEY = "sk_car_plaintextMarkerCARTESIA_Zq8Xw7Vu6Ts5";

let eleven: FakeElevenLabs;
let cartesia: FakeCartesia;
let portal: TestPortal;
let path: string;
let cookie: string;

beforeAll(async () => {
  eleven = await startFakeElevenLabs({ acceptedKey: ELEVEN_KEY });
  cartesia = await startFakeCartesia({ acceptedKey: CARTESIA_KEY });
  const db = await createTestDb(false);
  path = fileURLToPath(db.url);
  portal = await createTestPortal({ voice: { elevenlabsBaseUrl: eleven.url, cartesiaBaseUrl: cartesia.url } }, db);
  cookie = await portal.signIn("ada@example.com");
});
afterAll(async () => {
  await portal.close();
  await eleven.close();
  await cartesia.close();
});

const put = (body: unknown) =>
  portal.app.request("/auth/voice/key", {
    method: "PUT",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** Every byte the database has on disk right now: the main file and, when present, its WAL. */
function databaseBytes(): { main: Buffer; wal: Buffer } {
  return { main: readFileSync(path), wal: existsSync(`${path}-wal`) ? readFileSync(`${path}-wal`) : Buffer.alloc(0) };
}

function expectAbsent(bytes: Buffer, secret: string) {
  for (const needle of [secret, secret.slice(0, 16), secret.slice(-16)]) {
    expect(bytes.includes(Buffer.from(needle, "utf8")), `"${needle}" in the file`).toBe(false);
    expect(bytes.includes(Buffer.from(needle, "utf16le")), `"${needle}" (UTF-16) in the file`).toBe(false);
  }
  // Nor any longer run of the key than the four characters shown as last4.
  for (let i = 0; i + 8 <= secret.length; i++) expect(bytes.includes(Buffer.from(secret.slice(i, i + 8), "utf8"))).toBe(false);
}

describe("voice keys at rest", () => {
  it("keeps only ciphertext in the database file and its WAL", async () => {
    expect((await put({ provider: "elevenlabs", key: ELEVEN_KEY })).status).toBe(200);
    expect((await put({ provider: "cartesia", key: CARTESIA_KEY })).status).toBe(200);

    const { rows } = await portal.client.execute(
      "SELECT nonce, ciphertext, last4 FROM voice_keys WHERE owner = 'ada@example.com' ORDER BY provider",
    );
    expect(rows).toHaveLength(2);
    const before = databaseBytes();
    const all = Buffer.concat([before.main, before.wal]);
    // The sealed form is there (so these are the right files) ...
    for (const row of rows) expect(all.includes(Buffer.from(String(row.ciphertext)))).toBe(true);
    // ... and the plaintext is not.
    expect(before.wal.length).toBeGreaterThan(0);
    for (const key of [ELEVEN_KEY, CARTESIA_KEY]) {
      expectAbsent(before.main, key);
      expectAbsent(before.wal, key);
    }

    await portal.client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    const after = databaseBytes();
    expect(after.wal.length).toBe(0);
    for (const row of rows) expect(after.main.includes(Buffer.from(String(row.ciphertext)))).toBe(true);
    for (const key of [ELEVEN_KEY, CARTESIA_KEY]) expectAbsent(after.main, key);
  });

  it("keeps neither the old nor the new plaintext after a replacement and a delete", async () => {
    eleven.options.acceptedKey = ELEVEN_KEY_2;
    expect((await put({ provider: "elevenlabs", key: ELEVEN_KEY_2 })).status).toBe(200);
    const del = await portal.app.request("/auth/voice/key/cartesia", { method: "DELETE", headers: { cookie } });
    expect(del.status).toBe(200);
    const { main, wal } = databaseBytes();
    for (const key of [ELEVEN_KEY, ELEVEN_KEY_2, CARTESIA_KEY]) {
      expectAbsent(main, key);
      expectAbsent(wal, key);
    }
    await portal.client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    for (const key of [ELEVEN_KEY, ELEVEN_KEY_2, CARTESIA_KEY]) expectAbsent(databaseBytes().main, key);
  });
});
