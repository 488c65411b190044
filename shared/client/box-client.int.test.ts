// Integration: every box route wrapper against the REAL box (spawned on a free port), its answers
// in the spec's shapes, and AvatarApiError read from the box's real refusals in each envelope;
// a typed turn's NDJSON stream with a custom tool answered through /api/chat/tool_result.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { FakeOpenAi } from "../../box/llm/testing/fake-openai.ts";
import { spawnBox, type RunningBox } from "../../box/testing/spawn-box.ts";
import { AvatarClient } from "./avatar-client.ts";
import { AvatarApiError } from "./errors.ts";
import type { WebSocketCtor } from "./socket-base.ts";
import { ToolError } from "./errors.ts";

const KEY = "client_full_key";
let fake: FakeOpenAi;
let box: RunningBox;
let full: AvatarClient;
let streamOnly: AvatarClient;

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => new Error("expected a refusal"),
    (e) => e,
  ) as Promise<AvatarApiError>;
const bytes = async (b: Blob) => new Uint8Array(await b.arrayBuffer());

beforeAll(async () => {
  fake = await FakeOpenAi.start({ models: [{ id: "fake-chat" }], defaultScript: [{ text: "ok" }] });
  const keyTable = `file:${join(mkdtempSync(join(tmpdir(), "client-kt-")), "keys.db")}`;
  box = await spawnBox({
    BOX_API_KEYS: KEY,
    BOX_KEY_TABLE_URL: keyTable,
    BOX_OPENAI_BASE_URL: fake.url,
    BOX_ASR: "none",
    BOX_PHOTO_AVATAR: "off",
    BOX_AVATAR_CLIPS: "off",
  });
  full = new AvatarClient({ baseUrl: box.url, token: KEY, WebSocket: WebSocket as unknown as WebSocketCtor });
  const minted = await full.createToken({ ttl_seconds: 120 });
  streamOnly = new AvatarClient({ baseUrl: box.url, token: () => minted, WebSocket: WebSocket as unknown as WebSocketCtor });
});
afterAll(async () => {
  await box?.stop();
  await fake?.close();
});

describe("box route wrappers (real box)", () => {
  it("cover every operation in GET /openapi.json", async () => {
    const doc = (await full.openapi()) as { paths: Record<string, Record<string, unknown>> };
    const ops = Object.entries(doc.paths).flatMap(([p, o]) => Object.keys(o).map((m) => `${m.toUpperCase()} ${p}`));
    const wrapped = new Set([
      "GET /",
      "GET /health",
      "GET /api/stats",
      "POST /disconnect",
      "POST /api/interrupt",
      "GET /openapi.json",
      "POST /v1/streaming.create_token",
      "GET /api/chat/status",
      "GET /api/settings",
      "POST /api/settings",
      "GET /conversations",
      "GET /conversations/{id}",
      "DELETE /conversations/{id}",
      "POST /api/chat/reset",
      "POST /api/avatar",
      "POST /api/avatar/delete",
      "POST /v1/photo_avatar.create",
      "GET /api/avatars",
      "GET /api/videos",
      "GET /api/avatar/preview",
      "GET /api/avatar/clips",
      "POST /api/avatar/clips/retry",
      "GET /api/avatar/clip",
      "POST /connect",
      "POST /offer",
      "POST /api/talk",
      "POST /api/upload",
      "GET /api/audios",
      "GET /api/voices",
      "GET /api/voice/preview",
      "POST /api/voice/upload",
      "POST /api/voice/prepare",
      "POST /api/chat",
      "POST /api/chat/tool_result",
      "GET /api/session/ws",
      "GET /api/voice/ws",
    ]);
    expect(ops.filter((op) => !wrapped.has(op))).toEqual([]);
  });

  it("system, tokens and readiness answer the spec's shapes", async () => {
    expect(await full.root()).toEqual({ service: expect.any(String), status: "ok", openapi: "/openapi.json" });
    expect(await full.health()).toEqual({ status: "ok", avatar: expect.any(String), speaking_face: null });
    expect(await full.stats()).toMatchObject({ cpu_percent: expect.any(Number), cpu_cores: expect.any(Number), gpus: expect.any(Array) });
    expect(await full.createToken()).toEqual({
      data: { token: expect.stringMatching(/^st_/), expires_at: expect.any(Number), scope: "tts" },
    });
    const status = await streamOnly.chatStatus();
    expect(status).toMatchObject({ ready: expect.any(Boolean), llm: true, tts: true, transcribe: false, reason: expect.any(String) });
    expect(await full.interrupt()).toEqual({ ok: true });
    expect(await full.disconnect()).toEqual({ ok: true });
  });

  it("unwrapped {code, message}: a session token on a full route, no credential, a bad one", async () => {
    const scope = await refusal(streamOnly.stats());
    expect(scope).toBeInstanceOf(AvatarApiError);
    expect(scope).toMatchObject({ status: 401, code: "insufficient_scope", message: expect.stringMatching(/session token/) });
    expect(await refusal(streamOnly.createToken())).toMatchObject({ status: 401, code: "insufficient_scope" });
    expect(await refusal(new AvatarClient({ baseUrl: box.url }).chatStatus())).toMatchObject({ status: 401, code: "missing_api_key" });
    expect(await refusal(new AvatarClient({ baseUrl: box.url, token: "wrong" }).chatStatus())).toMatchObject({
      status: 401,
      code: "invalid_api_key",
    });
    expect(await refusal(full.createToken({ ttl_seconds: "x" as never }))).toMatchObject({ status: 400, code: "invalid_body" });
  });

  it("settings read and write; the settings refusal {ok:false, error:{code,message}}", async () => {
    const env = await streamOnly.getSettings();
    expect(env).toMatchObject({
      settings: expect.any(Object),
      models: expect.any(Array),
      effort_levels: expect.arrayContaining(["low", "max"]),
      reasoning_levels: ["off", "low", "medium", "high"],
      persisted: expect.any(Boolean),
    });
    const saved = await full.saveSettings({ system_prompt: "You are terse." });
    expect(saved).toMatchObject({ ok: true, saved: expect.any(Boolean), settings: { system_prompt: "You are terse." } });
    const refused = await refusal(full.saveSettings({ model: "no.such.model" }));
    expect(refused).toMatchObject({ status: 400, code: "setting_refused" });
    expect(refused.body).toEqual({ ok: false, error: { code: "setting_refused", message: refused.message } });
  });

  it("a one-shot chat, then the conversation list, read, delete and reset", async () => {
    fake.enqueue([{ text: "Hello from the fake." }]);
    const reply = await full.chat({ message: "hi there" });
    expect(reply).toEqual({
      reply: "Hello from the fake.",
      tone: expect.any(String),
      audio: expect.stringMatching(/\.wav$/),
      identity: expect.any(String),
      tones: expect.any(Array),
      voice_notice: "",
    });
    const page = await full.listConversations({ limit: 5 });
    expect(page).toEqual({ items: [expect.objectContaining({ id: expect.any(String), title: "hi there", turns: 2 })], next_cursor: null });
    const rows = [];
    for await (const row of full.conversations()) rows.push(row);
    expect(rows.map((r) => r.id)).toEqual([page.items[0].id]);
    const one = await full.getConversation(page.items[0].id);
    expect(one).toMatchObject({
      id: page.items[0].id,
      turns: [
        { role: "user", text: "hi there", tone: null },
        { role: "assistant", text: "Hello from the fake." },
      ],
    });
    expect(await full.resetChat()).toEqual({ ok: true, data: { conversation_id: expect.any(String) } });
    expect(await full.deleteConversation(page.items[0].id)).toEqual({ ok: true, id: page.items[0].id });
    expect(await refusal(full.getConversation(page.items[0].id))).toMatchObject({ status: 404 });
    expect(await refusal(full.listConversations({ cursor: "forged" }))).toMatchObject({ status: 400, code: "invalid_cursor" });
  });

  it("flat {error, code}: /api/talk with no live session, a blank chat message", async () => {
    const e = await refusal(streamOnly.talk({ text: "Say this." }));
    expect(e).toMatchObject({ status: 409, code: "no_live_session", message: expect.stringMatching(/connect/) });
    expect(e.body).toEqual({ error: e.message, code: "no_live_session" });
    expect(await refusal(full.chat({ message: "   " }))).toMatchObject({ status: 400, code: "blank_message" });
  });

  it("a streamed typed turn: NDJSON frames, a custom tool answered by its handler, the reply", async () => {
    await full.saveSettings({
      tools: [
        {
          name: "lookup_order",
          description: "Find an order",
          mode: "await_result",
          timeout_seconds: 5,
          parameters: { type: "object", properties: { order: { type: "string" } } },
        },
      ],
    });
    const offTool = full.registerTool("lookup_order", async (args) => ({ order: args.order, status: "shipped" }));
    fake.enqueue([{ toolCall: { name: "lookup_order", args: { order: "A1" } } }], [{ text: "It has shipped." }]);
    const turn = full.chatStream({ message: "where is order A1" });
    const types: string[] = [];
    turn.on({ frame: (f) => types.push(f.type) });
    const reply = await turn.reply;
    expect(reply).toMatchObject({ type: "reply", reply: "It has shipped.", audio: expect.stringMatching(/\.wav$/) });
    expect(types).toEqual(expect.arrayContaining(["tool_call_started", "tool_call", "tool_call_completed", "reply"]));
    expect(JSON.stringify(fake.lastRequest!.body.messages)).toContain("shipped");
    const frames = [];
    for await (const f of turn) frames.push(f.type);
    expect(frames.at(-1)).toBe("reply");

    // A ToolError's message reaches the model; a tool call result sent twice is ignored the second time.
    offTool();
    full.registerTool("lookup_order", () => {
      throw new ToolError("Order numbers start with a letter.");
    });
    fake.enqueue([{ toolCall: { name: "lookup_order", args: { order: "9" } } }], [{ text: "Sorry." }]);
    const failed = full.chatStream({ message: "where is order 9" });
    const reasons: string[] = [];
    failed.on({ tool_call_failed: (f) => reasons.push(f.reason) });
    await failed.reply;
    expect(reasons).toEqual(["host_error"]);
    expect(JSON.stringify(fake.lastRequest!.body.messages)).toContain("Order numbers start with a letter.");
    const callId = (fake.lastRequest!.body.messages as { tool_call_id?: string }[]).find((m) => m.tool_call_id)?.tool_call_id ?? "call_x";
    expect(await full.sendToolResult({ type: "tool_result", call_id: callId, ok: true, result: 1 })).toEqual({
      ok: false,
      disposition: "ignored",
      reason: expect.any(String),
    });
  });

  it("closing a typed turn's stream mid-call fails the call session_closed locally and ends the turn", async () => {
    let signal: AbortSignal | null = null;
    const off = full.registerTool("lookup_order", (_a, call) => ((signal = call.signal), new Promise(() => {})));
    fake.enqueue([{ toolCall: { name: "lookup_order", args: { order: "C3" } } }], [{ text: "Never said." }]);
    const turn = full.chatStream({ message: "where is order C3" });
    const failed: { reason: string; local?: boolean }[] = [];
    turn.on({ tool_call: () => turn.abort(), tool_call_failed: (f) => failed.push(f) });
    expect(await turn.reply.catch((e) => e)).toMatchObject({ code: "aborted" });
    expect(failed).toEqual([expect.objectContaining({ reason: "session_closed", local: true })]);
    expect(signal!.aborted).toBe(true);
    off();
  });

  it("avatars, videos, previews and clips; nested {error:{code,message}} refusals", async () => {
    const loaded = await streamOnly.avatars();
    expect(loaded).toMatchObject({
      avatars: expect.any(Array),
      groups: expect.any(Array),
      preparing: expect.any(Array),
      active: expect.any(String),
      active_group: expect.any(String),
      builds: expect.any(Object),
    });
    expect(loaded.groups[0]).toMatchObject({
      id: expect.any(String),
      variants: expect.any(Array),
      tones: expect.any(Array),
      preview: expect.any(String),
      stock: true,
    });
    const videos = await streamOnly.videos();
    expect(videos).toMatchObject({ videos: expect.any(Array), active: loaded.active });
    expect(videos.videos[0]).toMatchObject({ id: expect.any(String), status: expect.any(String), deletable: false, registry_note: null });
    const png = await bytes(await streamOnly.avatarPreview(loaded.groups[0].preview));
    expect([...png.slice(1, 4)].map((c) => String.fromCharCode(c)).join("")).toBe("PNG");
    expect(await refusal(streamOnly.avatarPreview("nobody"))).toMatchObject({ status: 404, code: "unknown_avatar" });

    const unknown = await refusal(streamOnly.avatarClips("nobody"));
    expect(unknown).toMatchObject({ status: 404, code: "unknown_avatar" });
    expect(unknown.body).toEqual({ error: { code: "unknown_avatar", message: unknown.message } });
    expect(await streamOnly.avatarClips(loaded.active_group)).toEqual({ avatar: loaded.active_group, clips: expect.any(Array) });
    expect(await refusal(streamOnly.retryClip({ avatar: loaded.active_group, tone: "furious" }))).toMatchObject({
      status: 400,
      code: "unknown_tone",
    });
    expect(await refusal(streamOnly.retryClip({ avatar: loaded.active_group, tone: "happy" }))).toMatchObject({
      status: 501,
      code: "avatar_clips_unavailable",
    });
    expect(await refusal(streamOnly.avatarClip({ avatar: loaded.active_group, tone: "sad" }))).toMatchObject({ status: 404 });
    expect(await refusal(full.createPhotoAvatar({ file: new Blob([png]), filename: "me.png", avatar_id: "me" }))).toMatchObject({
      status: 501,
      code: "feature_disabled",
    });
    expect(await refusal(full.deleteAvatar(loaded.active_group))).toMatchObject({ status: 400, code: "stock_avatar" });
    expect(await refusal(streamOnly.uploadAvatar({ file: new Blob([png]), filename: "me.png" }))).toMatchObject({
      status: 401,
      code: "insufficient_scope",
    });
  });

  it("an avatar upload (multipart, full key) answers {avatar, status, tones, note, active}", async () => {
    const loaded = await full.avatars();
    const png = await full.avatarPreview(loaded.groups[0].preview);
    const up = await full.uploadAvatar({ file: png, filename: "client-test.png" });
    expect(up).toEqual({
      avatar: "client-test",
      status: expect.stringMatching(/^(preparing|ready)$/),
      tones: expect.any(Array),
      note: expect.any(String),
      active: expect.any(String),
    });
  });

  it("voices, a preview, audio upload for /offer; cloning refused on this engine", async () => {
    const cat = await streamOnly.voices();
    expect(cat).toMatchObject({
      groups: expect.any(Array),
      voices: expect.any(Array),
      current_provider: expect.any(String),
      engine_ready: expect.any(Boolean),
      voice_notice: "",
    });
    expect(cat.groups[0]).toMatchObject({
      provider: expect.any(String),
      state: expect.any(String),
      reason: expect.any(String),
      voices: expect.any(Array),
    });
    const wav = await streamOnly.voicePreview();
    expect(new TextDecoder().decode((await bytes(wav)).slice(0, 4))).toBe("RIFF");
    const up = await full.uploadAudio({ file: wav, filename: "hello.wav", transcript: "Hello! This is how I sound." });
    expect(up).toMatchObject({ ok: true, audio: expect.any(String), kind: "upload", sample_rate: expect.any(Number), replaced: false });
    const list = await full.audios();
    expect(list.audios.map((a) => a.name)).toContain(up.audio);
    expect(await refusal(full.uploadVoice({ file: wav, filename: "me.wav", name: "Me" }))).toMatchObject({
      status: 400,
      code: "voice_cloning_unavailable",
    });
    expect(await refusal(full.prepareVoice("any"))).toMatchObject({ status: 400, code: "voice_cloning_unavailable" });
  });

  it("the voice socket on a box without recognition: 4001, not retried", async () => {
    const voice = full.voice({ reconnect: { minDelayMs: 10 } });
    const err = (await voice.open().catch((e) => e)) as AvatarApiError;
    expect(err).toMatchObject({ code: "no_speech_recognition", status: 0, message: expect.stringMatching(/speech recognition/i) });
    expect(err.closeCode).toBe(4001);
  });
});
