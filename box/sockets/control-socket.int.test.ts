// Integration: the SDK control socket on the real box — events per turn, talk/talkstream,
// interrupt, auth renewal, lapse and revocation, idle and maximum length, tools, refusals.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type Client } from "@libsql/client";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateKeyTable } from "../../shared/key-table/migrate.ts";
import { sha256Hex } from "../auth/principal.ts";
import { FakeOpenAi } from "../llm/testing/fake-openai.ts";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";
import { WrtcClient } from "../media/testing/wrtc-client.ts";
import { WsClient } from "./testing/ws-client.ts";

const KEY = "control_key";
const now = () => Math.floor(Date.now() / 1000);
let fake: FakeOpenAi;
let box: RunningBox;
let kt: Client;

const wsUrl = (query = "") => box.url.replace("http", "ws") + "/api/session/ws" + query;
async function open(query = "", headers: Record<string, string> = { "x-api-key": KEY }) {
  const c = new WsClient(wsUrl(query), headers);
  await c.opened;
  await c.waitType("session_ready");
  return c;
}
const insert = (secret: string, kind: string, expires: number | null) =>
  kt.execute({
    sql: "INSERT INTO credentials (id, kind, scope, owner, created_at, expires_at) VALUES (?,?,?,?,?,?)",
    args: [sha256Hex(secret), kind, "full", "dev@x.test", now(), expires],
  });

beforeAll(async () => {
  fake = await FakeOpenAi.start({ models: [{ id: "fake-chat" }], defaultScript: [{ text: "ok" }] });
  const ktUrl = `file:${join(mkdtempSync(join(tmpdir(), "kt-")), "keys.db")}`;
  kt = createClient({ url: ktUrl });
  await migrateKeyTable(kt);
  box = await spawnBox({
    BOX_API_KEYS: KEY,
    BOX_KEY_TABLE_URL: ktUrl,
    BOX_OPENAI_BASE_URL: fake.url,
    BOX_SOCKET_CHECK_MS: "100",
    BOX_IDLE_SECONDS: "60",
  });
  const r = await fetch(box.url + "/api/settings", {
    method: "POST",
    headers: { "x-api-key": KEY, "content-type": "application/json" },
    body: JSON.stringify({
      tools: [
        {
          name: "lookup_order",
          description: "Find an order",
          mode: "await_result",
          timeout_seconds: 5,
          parameters: { type: "object", properties: { order: { type: "string" } } },
        },
      ],
    }),
  });
  expect(r.status).toBe(200);
});
afterAll(async () => {
  await box.stop();
  await fake.close();
  kt.close();
});

describe("control socket /api/session/ws", () => {
  it("refuses a bad credential at upgrade with HTTP 401 {code, message} and no socket", async () => {
    const c = new WsClient(wsUrl(), { "x-api-key": "wrong" });
    const err = (await c.opened.catch((e) => e)) as { status: number; body: string };
    expect(err.status).toBe(401);
    expect(JSON.parse(err.body)).toEqual({ code: "invalid_api_key", message: expect.any(String) });
    const none = new WsClient(wsUrl());
    expect(((await none.opened.catch((e) => e)) as { status: number }).status).toBe(401);
  });

  it("sends session_ready first, then per message turn: user_message, warning, message_stream…, message", async () => {
    const c = await open();
    expect(c.frames[0]).toEqual({
      type: "session_ready",
      sessionId: expect.any(String),
      avatar: expect.any(String),
      tones: expect.arrayContaining(["neutral", "happy"]),
    });
    fake.enqueue([{ text: "First clause here. " }, { text: "Second one." }]);
    c.send({ type: "message", content: "hello", correlationId: "turn-1" });
    const last = await c.waitType("message");
    expect(c.types().slice(1)).toEqual(["user_message", "warning", "message_stream", "message_stream", "message"]);
    expect(c.frames[1]).toEqual({ type: "user_message", id: expect.any(String), role: "user", content: "hello", correlationId: "turn-1" });
    const streams = c.frames.filter((f) => f.type === "message_stream");
    expect(streams.map((s) => [s.contentIndex, s.endOfSpeech, s.content])).toEqual([
      [0, false, "First clause here."],
      [1, true, "Second one."],
    ]);
    expect(streams[0]).toMatchObject({ role: "assistant", tone: "neutral", correlationId: "turn-1" });
    expect(last).toMatchObject({
      role: "assistant",
      content: "First clause here. Second one.",
      tone: "neutral",
      avatar: expect.any(String),
      correlationId: "turn-1",
    });
    c.close();
  });

  it("talk and talkstream answer with message (nothing committed); interrupt is always acknowledged; unknown types ignored", async () => {
    const c = await open();
    const before = (await (await fetch(box.url + "/conversations", { headers: { "x-api-key": KEY } })).json()) as any;
    c.send({ type: "talk", content: "Say this.", correlationId: "t1" });
    expect(await c.waitFor((f) => f.type === "message" && f.correlationId === "t1")).toMatchObject({ content: "Say this." });
    c.send({ type: "talkstream", content: "Part one, ", startOfSpeech: true, endOfSpeech: false, correlationId: "s1" });
    c.send({ type: "talkstream", content: "part two.", startOfSpeech: false, endOfSpeech: true, correlationId: "s1" });
    expect(await c.waitFor((f) => f.type === "message" && f.correlationId === "s1")).toMatchObject({ content: "Part one, part two." });
    c.send({ type: "definitely_not_a_type", x: 1 });
    c.send({ type: "interrupt" });
    await c.waitType("interrupted");
    const after = (await (await fetch(box.url + "/conversations", { headers: { "x-api-key": KEY } })).json()) as any;
    expect(after.items.map((i: any) => i.turns)).toEqual(before.items.map((i: any) => i.turns));
    expect(c.frames.some((f) => f.type === "error")).toBe(false);
    c.send("not json at all");
    expect(await c.waitType("error")).toMatchObject({ fatal: false });
    c.close();
  });

  it("renews the credential with auth (auth_state), reports a lapse once, and ends on revocation with 4004", async () => {
    await insert("cred_short", "session_credential", now() + 2);
    const c = await open("", { "x-api-key": "cred_short" });
    c.send({ type: "auth", token: "garbage" });
    expect(await c.waitType("auth_state")).toEqual({ type: "auth_state", live: false });
    await c.waitType("auth_required", 6000);
    await new Promise((r) => setTimeout(r, 600));
    expect(c.frames.filter((f) => f.type === "auth_required")).toHaveLength(1);
    expect(c.closeCode).toBeNull(); // an aged-out credential does not end the session
    await insert("cred_fresh", "session_credential", now() + 600);
    c.send({ type: "auth", token: "cred_fresh" });
    await c.waitFor((f) => f.type === "auth_state" && f.live === true);
    await kt.execute({ sql: "UPDATE credentials SET revoked_at = ? WHERE id = ?", args: [now(), sha256Hex("cred_fresh")] });
    const err = await c.waitFor((f) => f.type === "error" && f.fatal === true, 5000);
    expect(err).toMatchObject({ code: 4004, error: expect.any(String) });
    await c.closed;
    expect(c.closeCode).toBe(4004);
  });

  it("session_expired max_length from the upgrade query, then close with the same code", async () => {
    const c = await open("?max_session_length_seconds=1");
    const exp = await c.waitType("session_expired", 5000);
    expect(exp).toEqual({ type: "session_expired", reason: "max_length", message: expect.any(String), seconds: 1, code: 4008 });
    await c.closed;
    expect(c.closeCode).toBe(4008);
  });

  it("delivers custom tool calls on the socket; a socket closing mid-call yields session_closed", async () => {
    const c = await open();
    fake.enqueue([{ toolCall: { name: "lookup_order", args: { order: "A1" } } }], [{ text: "Found it." }]);
    c.send({ type: "message", content: "where is my order" });
    const call = await c.waitType("tool_call");
    expect(call).toMatchObject({ name: "lookup_order", args: { order: "A1" }, mode: "await_result", timeout_seconds: 5 });
    c.send({ type: "tool_result", call_id: call.call_id, ok: true, result: { status: "shipped" } });
    await c.waitType("tool_call_completed");
    await c.waitType("message");

    fake.enqueue([{ toolCall: { name: "lookup_order", args: { order: "B2" } } }], [{ text: "Could not check." }]);
    c.send({ type: "message", content: "and the other one" });
    await c.waitFor((f) => f.type === "tool_call" && f.args.order === "B2");
    c.close();
    await c.closed;
    const deadline = Date.now() + 5000;
    while (!JSON.stringify(fake.lastRequest?.body?.messages ?? []).includes("session_closed") && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(JSON.stringify(fake.lastRequest!.body.messages)).toContain("session_closed");
  });

  it("with a media session: avatar_speech_started and _ended carry the correlationId", async () => {
    const client = new WrtcClient(10);
    await client.connect(async (offer) => {
      const r = (await (
        await fetch(box.url + "/connect", {
          method: "POST",
          headers: { "x-api-key": KEY, "content-type": "application/json" },
          body: JSON.stringify(offer),
        })
      ).json()) as any;
      return { sdp: r.sdp, type: r.type };
    });
    try {
      await client.waitForFirstFrame(20_000);
      const c = await open();
      c.send({ type: "talk", content: "Hello from the control socket.", correlationId: "speak-1" });
      expect(await c.waitType("avatar_speech_started", 10_000)).toEqual({ type: "avatar_speech_started", correlationId: "speak-1" });
      expect(await c.waitType("avatar_speech_ended", 15_000)).toEqual({ type: "avatar_speech_ended", correlationId: "speak-1" });
      expect(c.frames.some((f) => f.type === "warning")).toBe(false);
      c.close();
    } finally {
      client.close();
      await fetch(box.url + "/disconnect", { method: "POST", headers: { "x-api-key": KEY } });
    }
  });
});

describe("idle window", () => {
  it("heartbeats are not activity: session_expired idle, then close 4007", async () => {
    const idleBox = await spawnBox({ BOX_API_KEYS: KEY, BOX_IDLE_SECONDS: "2", BOX_SOCKET_CHECK_MS: "100" });
    try {
      const c = new WsClient(idleBox.url.replace("http", "ws") + "/api/session/ws?session_token=" + KEY);
      await c.opened;
      const beat = setInterval(() => c.send({ type: "heartbeat" }), 300);
      const exp = await c.waitType("session_expired", 6000);
      clearInterval(beat);
      expect(exp).toMatchObject({ reason: "idle", seconds: 2, code: 4007 });
      await c.closed;
      expect(c.closeCode).toBe(4007);
    } finally {
      await idleBox.stop();
    }
  });
});
