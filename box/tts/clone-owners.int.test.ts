// Integration (issue 22 item 3): a cloned voice belongs to the credential that uploaded it (the key,
// or the key a session token was minted from). Another credential does not find it in its
// catalogue (nor the name it was given), and using it answers as for a voice that does not exist:
// 404 on preview and prepare, 400 on /api/chat, /api/talk and the mic socket's config (spec fact 8).
// Chatterbox is the protocol fake; the reference clip is made with real ffmpeg.
import { createClient, type Client } from "@libsql/client";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateKeyTable } from "../../shared/key-table/migrate.ts";
import { sha256Hex } from "../auth/principal.ts";
import { FakeOpenAi } from "../llm/testing/fake-openai.ts";
import { WrtcClient } from "../media/testing/wrtc-client.ts";
import { WsClient } from "../sockets/testing/ws-client.ts";
import { FakeDeepgram } from "../stt/testing/fake-deepgram.ts";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";
import { FakeChatterbox } from "./chatterbox/testing/fake-chatterbox.ts";

const OPERATOR = "clone_owners_operator_key"; // BOX_API_KEYS: the box's own
const K = "clone_owners_key_k";
const K2 = "clone_owners_key_k2";
const LEGACY = "Old_Voice--0a1b2c3d.wav"; // cloned through the box before clones had owners
const HOUSE = "Gianna.wav"; // put on the server by its operator
const work = mkdtempSync(join(tmpdir(), "clone-owners-"));
let kt: Client;
let cb: FakeChatterbox;
let llm: FakeOpenAi;
let dg: FakeDeepgram;
let box: RunningBox;
let cloneId = "";
let kToken = "";

async function call(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; json: any; type: string }> {
  const r = await fetch(box.url + path, {
    method,
    headers: { "x-api-key": key, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = r.headers.get("content-type") ?? "";
  return { status: r.status, type, json: type.includes("json") ? await r.json() : null };
}

const ids = (catalogue: any) => catalogue.voices.map((v: any) => v.id) as string[];
const chatterboxIds = (catalogue: any) =>
  catalogue.groups.find((g: any) => g.provider === "chatterbox").voices.map((v: any) => v.id) as string[];
const cloneFile = () => cloneId.slice("clone:".length);
/** Requests that asked the server to speak with K's clone. */
const spokenWithClone = () => cb.requests.filter((r) => r.path === "/tts" && r.json?.reference_audio_filename === cloneFile()).length;

function refusal(r: { status: number; json: any }, status: number, code: string): string {
  expect(r.status, JSON.stringify(r.json)).toBe(status);
  expect(r.json).toMatchObject({ error: expect.any(String), code });
  return r.json.error;
}

beforeAll(async () => {
  execFileSync(
    "/usr/bin/ffmpeg",
    ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=220:sample_rate=44100:duration=10", join(work, "tone.wav")],
    { stdio: "ignore" },
  );
  const url = `file:${join(work, "keys.db")}`;
  kt = createClient({ url });
  await migrateKeyTable(kt);
  for (const [key, owner] of [
    [K, "karen@x.test"],
    [K2, "kim@x.test"],
  ]) {
    await kt.execute({
      sql: "INSERT INTO credentials (id, kind, scope, owner, created_at) VALUES (?, 'api_key', 'full', ?, 0)",
      args: [sha256Hex(key), owner],
    });
  }
  cb = await FakeChatterbox.start({ references: [HOUSE, LEGACY] });
  llm = await FakeOpenAi.start({ models: [{ id: "fake-chat" }], defaultScript: [{ text: "Hello there." }] });
  dg = await FakeDeepgram.start({ apiKey: "dg_key", utterances: [] });
  box = await spawnBox({
    BOX_TTS: "chatterbox",
    BOX_CHATTERBOX_URL: cb.url,
    BOX_API_KEYS: OPERATOR,
    BOX_KEY_TABLE_URL: url,
    BOX_OPENAI_BASE_URL: llm.url,
    BOX_ASR: "deepgram",
    BOX_DEEPGRAM_URL: dg.url,
    BOX_DEEPGRAM_API_KEY: "dg_key",
  });

  const form = new FormData();
  form.append("file", new File([new Uint8Array(readFileSync(join(work, "tone.wav")))], "karen.wav"));
  form.append("name", "Karen Keyholder");
  const up = await fetch(box.url + "/api/voice/upload", { method: "POST", headers: { "x-api-key": K }, body: form });
  const json = (await up.json()) as any;
  expect(up.status, JSON.stringify(json)).toBe(200);
  cloneId = json.voice_id;
  expect(json.voices.map((v: any) => v.id)).toContain(cloneId);
  const minted = await call("POST", "/v1/streaming.create_token", K, {});
  expect(minted.status).toBe(200);
  kToken = minted.json.data.token;
}, 120_000);
afterAll(async () => {
  await box?.stop();
  await cb?.close();
  await llm?.close();
  await dg?.stop();
  kt?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("a cloned voice belongs to the credential that uploaded it", () => {
  it("is listed for its uploader and for a token minted from it; absent for another key, name and all", async () => {
    expect(ids((await call("GET", "/api/voices?refresh=true", K)).json)).toContain(cloneId);
    expect(ids((await call("GET", "/api/voices", kToken)).json)).toContain(cloneId);
    const other = await call("GET", "/api/voices?refresh=true", K2);
    expect(other.status).toBe(200);
    expect(ids(other.json)).not.toContain(cloneId);
    expect(chatterboxIds(other.json)).not.toContain(cloneId);
    expect(JSON.stringify(other.json)).not.toMatch(/Karen|Keyholder/);
    // The server's own voices are still there for the other key.
    expect(chatterboxIds(other.json)).toEqual(expect.arrayContaining(["Emily.wav", `clone:${HOUSE}`]));
  });

  it("another key cannot preview, prepare or chat with it (404, 404, 400); nothing is spoken with it", async () => {
    const path = `/api/voice/preview?provider=chatterbox&voice=${encodeURIComponent(cloneId)}`;
    const before = spokenWithClone();
    refusal(await call("GET", path, K2), 404, "unknown_voice");
    refusal(await call("POST", "/api/voice/prepare", K2, { voice: cloneId }), 404, "unknown_voice");
    const chat = refusal(
      await call("POST", "/api/chat", K2, { message: "Say hello", voice: cloneId, voice_provider: "chatterbox" }),
      400,
      "unknown_voice",
    );
    // The same answer as for an id that exists nowhere (it only echoes what was sent).
    expect(chat).toMatch(/is not a voice of Chatterbox/);
    expect(chat).not.toMatch(/belongs|owner|another/i);
    // The same id on another engine does not reveal that it exists on this one.
    const elsewhere = refusal(
      await call("POST", "/api/chat", K2, { message: "Say hello", voice: cloneId, voice_provider: "espeak" }),
      400,
      "unknown_voice",
    );
    expect(elsewhere).not.toMatch(/Chatterbox/);
    expect(spokenWithClone()).toBe(before);

    // Its uploader can do all three.
    expect((await call("GET", path, K)).type).toBe("audio/wav");
    expect((await call("POST", "/api/voice/prepare", K, { voice: cloneId })).json).toMatchObject({ voice_id: cloneId, ready: true });
    expect((await call("POST", "/api/chat", K, { message: "Say hello", voice: cloneId, voice_provider: "chatterbox" })).status).toBe(200);
    expect(spokenWithClone()).toBeGreaterThan(before);
  });

  it("saved as another key's settings voice, it is not spoken: that key hears the engine's default", async () => {
    const saved = await call("POST", "/api/settings", K2, { tts_provider: "chatterbox", voice_id_chatterbox: cloneId });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const cat = await call("GET", "/api/voices", K2);
    expect(cat.json.current).not.toBe(cloneId);
    const before = spokenWithClone();
    expect((await call("POST", "/api/chat", K2, { message: "Say hello" })).status).toBe(200);
    expect(spokenWithClone()).toBe(before);
  });

  it("in a live session another key cannot talk with it (400) nor pick it on the mic socket; its uploader can", async () => {
    const media = new WrtcClient(4);
    let mic: WsClient | undefined;
    try {
      await media.connect(async (offer) => (await call("POST", "/connect", K, offer)).json);
      await media.waitForFirstFrame(20_000);
      const before = spokenWithClone();
      refusal(await call("POST", "/api/talk", K2, { text: "Not in her voice.", voice: cloneId }), 400, "unknown_voice");
      mic = new WsClient(box.url.replace("http", "ws") + "/api/voice/ws", { "x-api-key": K2 });
      await mic.opened;
      await mic.waitType("ready");
      mic.send({ type: "config", voice: cloneId, voice_provider: "chatterbox" });
      const error = await mic.waitFor((f) => f.type === "error" && /voice/.test(f.error));
      expect(error.error).toMatch(/is not a voice of Chatterbox/);
      expect(spokenWithClone()).toBe(before);
      expect((await call("POST", "/api/talk", K, { text: "In my own voice.", voice: cloneId })).status).toBe(200);
      expect(spokenWithClone()).toBeGreaterThan(before);
    } finally {
      mic?.close();
      media.close();
      await call("POST", "/disconnect", K);
    }
  }, 60_000);

  it("a clone made before clones had owners is the box operator's; a file the operator put on the server is everyone's", async () => {
    const operator = await call("GET", "/api/voices?refresh=true", OPERATOR);
    expect(chatterboxIds(operator.json)).toEqual(expect.arrayContaining([`clone:${LEGACY}`, `clone:${HOUSE}`]));
    expect(chatterboxIds(operator.json)).not.toContain(cloneId);
    for (const key of [K, K2, kToken]) {
      const cat = await call("GET", "/api/voices", key);
      expect(chatterboxIds(cat.json)).not.toContain(`clone:${LEGACY}`);
      expect(chatterboxIds(cat.json)).toContain(`clone:${HOUSE}`);
    }
    refusal(
      await call("GET", `/api/voice/preview?provider=chatterbox&voice=${encodeURIComponent(`clone:${LEGACY}`)}`, K),
      404,
      "unknown_voice",
    );
    expect(
      (await call("GET", `/api/voice/preview?provider=chatterbox&voice=${encodeURIComponent(`clone:${LEGACY}`)}`, OPERATOR)).type,
    ).toBe("audio/wav");
    expect((await call("GET", `/api/voice/preview?provider=chatterbox&voice=${encodeURIComponent(`clone:${HOUSE}`)}`, K2)).type).toBe(
      "audio/wav",
    );
  });
});
