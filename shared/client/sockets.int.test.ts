// Integration: the socket clients and connect() against the REAL box and the REAL portal (one key
// table): control-socket turns as promises, custom tools by the client-library rules, credential
// renewal with `auth` (box session tokens minted from short-lived portal credentials), WebRTC
// through @roamhq/wrtc with a refused autoplay, the voice socket's 4002 and 4003 retries, /offer.
import { createClient } from "@libsql/client";
import wrtc from "@roamhq/wrtc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { FakeOpenAi } from "../../box/llm/testing/fake-openai.ts";
import { spawnBox, type RunningBox } from "../../box/testing/spawn-box.ts";
import { createTestDb, createTestPortal, type TestPortal } from "../../portal/testing/test-portal.ts";
import { AvatarClient } from "./avatar-client.ts";
import { BoxClient } from "./box-client.ts";
import type { MediaElementLike } from "./connect.ts";
import { portalCredentialProvider, type TokenGrant } from "./credentials.ts";
import { AvatarApiError, ToolError } from "./errors.ts";
import type { WebSocketCtor } from "./socket-base.ts";
import { GENERIC_TOOL_FAILURE } from "./tools.ts";

const KEY = "client_socket_key";
const WS = WebSocket as unknown as WebSocketCtor;
const Peer = (wrtc as unknown as { RTCPeerConnection: typeof RTCPeerConnection }).RTCPeerConnection;
let fake: FakeOpenAi;
let box: RunningBox;
let shortPortal: TestPortal; // credentials live 3 s
let longPortal: TestPortal; // same database, credentials live 10 minutes
let client: AvatarClient;

const lastModelInput = () => JSON.stringify(fake.lastRequest?.body?.messages ?? []);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A browser's portal credential provider, its fetch carrying the signed-in person's cookie. */
async function credentialProvider(portal: TestPortal, email: string) {
  const cookie = await portal.signIn(email);
  return portalCredentialProvider({
    fetch: async (url, init) => portal.app.request(url, { ...init, headers: { ...(init?.headers as object), cookie } }),
  });
}
/** What an integrator's backend does: a stream-only token minted with a full credential. */
async function mintWith(credential: TokenGrant): Promise<{ data: { token: string; expires_at: number } }> {
  const secret = typeof credential === "string" ? credential : (credential as { credential: { secret: string } }).credential.secret;
  return new BoxClient({ baseUrl: box.url, token: secret }).createToken({ ttl_seconds: 60 });
}

beforeAll(async () => {
  fake = await FakeOpenAi.start({ models: [{ id: "fake-chat" }], defaultScript: [{ text: "ok" }] });
  const db = await createTestDb(false);
  shortPortal = await createTestPortal({ credentialTtlSeconds: 3 }, db);
  const second = createClient({ url: db.url, timeout: 5000 });
  longPortal = await createTestPortal({ credentialTtlSeconds: 600 }, { client: second, url: db.url, dispose: () => second.close() });
  box = await spawnBox({
    BOX_API_KEYS: KEY,
    BOX_KEY_TABLE_URL: db.url,
    BOX_OPENAI_BASE_URL: fake.url,
    BOX_SOCKET_CHECK_MS: "100",
    BOX_ASR: "pocketsphinx",
  });
  client = new AvatarClient({
    baseUrl: box.url,
    token: KEY,
    WebSocket: WS,
    RTCPeerConnection: Peer,
    reconnect: { minDelayMs: 100, maxDelayMs: 400, attempts: 40 },
  });
  await client.saveSettings({
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
});
afterAll(async () => {
  await box?.stop();
  await fake?.close();
  await longPortal?.close();
  await shortPortal?.close();
});

describe("control socket turns (real box)", () => {
  it("a turn's promise resolves with the reply, its clauses and its correlationId", async () => {
    const s = client.session();
    const warnings: string[] = [];
    s.on({ warning: (w) => warnings.push(w.message) });
    await s.open();
    expect(s.session).toMatchObject({
      sessionId: expect.any(String),
      avatar: expect.any(String),
      tones: expect.arrayContaining(["neutral"]),
    });
    fake.enqueue([{ text: "First clause here. " }, { text: "Second one." }]);
    const turn = await s.message("hello", { correlationId: "turn-1" });
    expect(turn.message).toMatchObject({
      type: "message",
      role: "assistant",
      content: "First clause here. Second one.",
      correlationId: "turn-1",
    });
    expect(turn.chunks.map((c) => [c.contentIndex, c.endOfSpeech])).toEqual([
      [0, false],
      [1, true],
    ]);
    expect(turn.firstChunkMs).toEqual(expect.any(Number));
    expect(warnings).toEqual([expect.stringMatching(/No media session/)]);
    const refused = await s.message("   ").catch((e) => e);
    expect(refused).toMatchObject({ code: "turn_refused", message: "content is blank." });
    s.close();
  });
});

describe("custom tools on the control socket (real box)", () => {
  /** One turn whose model calls lookup_order once, then says `after`; answers what the model was given. */
  async function toolTurn(handler: ((args: Record<string, unknown>) => unknown) | null) {
    const off = handler ? client.registerTool("lookup_order", handler) : () => {};
    const s = client.session();
    const failed: string[] = [];
    const handlerErrors: unknown[] = [];
    s.on({ tool_call_failed: (f) => failed.push(f.reason), tool_handler_error: (e) => handlerErrors.push(e.error) });
    try {
      await s.open();
      fake.enqueue([{ toolCall: { name: "lookup_order", args: { order: "A1" } } }], [{ text: "Done." }]);
      await s.message("where is my order");
      return { failed, handlerErrors, modelSaw: lastModelInput() };
    } finally {
      off();
      s.close();
    }
  }

  it("a handler's result reaches the model", async () => {
    const r = await toolTurn((args) => ({ order: args.order, status: "shipped on Tuesday" }));
    expect(r.failed).toEqual([]);
    expect(r.modelSaw).toContain("shipped on Tuesday");
  });

  it("no handler: answered ok:false at once (the box reports host_error)", async () => {
    const r = await toolTurn(null);
    expect(r.failed).toEqual(["host_error"]);
    expect(r.modelSaw).toContain("No handler is registered for the tool");
  });

  it("a ToolError's message is sent; any other failure sends the generic sentence", async () => {
    const told = await toolTurn(() => {
      throw new ToolError("That order number does not exist.");
    });
    expect(told.modelSaw).toContain("That order number does not exist.");
    const hidden = await toolTurn(() => {
      throw new Error("db password wrong");
    });
    expect(hidden.modelSaw).toContain(GENERIC_TOOL_FAILURE);
    expect(hidden.modelSaw).not.toContain("db password");
    expect(hidden.handlerErrors).toEqual([expect.objectContaining({ message: "db password wrong" })]);
  });

  it("a result over 256 KB of JSON is not sent: ok:false", async () => {
    const r = await toolTurn(() => ({ rows: "x".repeat(300 * 1024) }));
    expect(r.failed).toEqual(["host_error"]);
    expect(r.modelSaw).toContain("too large to send");
    expect(r.modelSaw).not.toContain("xxxxxxxxxx");
  });

  it("the box closing the socket mid-call raises session_closed locally and stops the handler", async () => {
    let signal: AbortSignal | null = null;
    const off = client.registerTool("lookup_order", (_a, call) => ((signal = call.signal), new Promise(() => {})));
    const s = client.session({ maxSessionLengthSeconds: 1 });
    const failed: { reason: string; local?: boolean }[] = [];
    const ended = new Promise<{ reason: string; willRetry: boolean }>((r) => s.on({ disconnected: r }));
    s.on({ tool_call_failed: (f) => failed.push(f) });
    await s.open();
    fake.enqueue([{ toolCall: { name: "lookup_order", args: { order: "B2" } } }], [{ text: "Could not check." }]);
    const turn = s.message("and the other one").catch((e) => e);
    expect(await ended).toMatchObject({ reason: "max_duration", willRetry: false });
    expect(failed).toEqual([expect.objectContaining({ reason: "session_closed", local: true })]);
    expect(signal!.aborted).toBe(true);
    expect(await turn).toMatchObject({ code: "session_closed" });
    off();
  });
});

describe("credential renewal with `auth` (box session tokens from portal credentials)", () => {
  it("renews before the token ages out (a provider with expiry), and on auth_required (one without)", async () => {
    // Ahead of expiry: every token dies with its 3 s portal credential; each renewal mints anew.
    const adaCredential = await credentialProvider(shortPortal, "ada@example.com");
    const ahead = new AvatarClient({ baseUrl: box.url, WebSocket: WS, token: async () => mintWith(await adaCredential(null)) }).session();
    // On auth_required: a bare token (no expiry known); the fresh one was minted from a 10-minute credential.
    const bobShort = await credentialProvider(shortPortal, "bob@example.com");
    const bobLong = await credentialProvider(longPortal, "bob@example.com");
    const first = (await mintWith(await bobShort(null))).data.token;
    const fresh = (await mintWith(await bobLong(null))).data.token;
    const bobTokens = [first, fresh];
    const onLapse = new AvatarClient({ baseUrl: box.url, WebSocket: WS, token: () => bobTokens.shift()! }).session();

    const log = { ahead: [] as string[], onLapse: [] as string[] };
    ahead.on({
      auth_required: () => log.ahead.push("auth_required"),
      auth_state: (f) => log.ahead.push(`live:${f.live}`),
      disconnected: (d) => log.ahead.push(d.reason),
    });
    onLapse.on({
      auth_required: () => log.onLapse.push("auth_required"),
      auth_state: (f) => log.onLapse.push(`live:${f.live}`),
      disconnected: (d) => log.onLapse.push(d.reason),
    });
    await Promise.all([ahead.open(), onLapse.open()]);
    // Both first tokens age out within 3 s; the lapse is reported on the box's next check.
    for (let i = 0; i < 120 && !log.onLapse.includes("live:true"); i++) await sleep(50);
    await sleep(300);
    expect(log.onLapse).toEqual(["auth_required", "live:true"]);
    expect(log.ahead.length).toBeGreaterThanOrEqual(1);
    expect(log.ahead.every((e) => e === "live:true")).toBe(true);
    // Still usable on the renewed credential.
    fake.enqueue([{ text: "Still here." }]);
    expect((await onLapse.message("still there?")).message.content).toBe("Still here.");
    ahead.close();
    onLapse.close();
  });
});

describe("live media and the voice socket (real box, @roamhq/wrtc)", () => {
  it("connect() plays on one element, reports a refused autoplay, resumes from a click; the voice socket retries 4002 then 4003", async () => {
    const voice = client.voice();
    const voiceLog: string[] = [];
    voice.on({ disconnected: (d) => voiceLog.push(d.reason) });
    const voiceReady = voice.open();

    const plays: boolean[] = [];
    const el: MediaElementLike = {
      srcObject: null,
      muted: false,
      play() {
        plays.push(this.muted);
        if (!this.muted && plays.length === 1)
          return Promise.reject(Object.assign(new Error("play() needs a gesture"), { name: "NotAllowedError" }));
        return Promise.resolve();
      },
    };
    const events: string[] = [];
    let frameMs: (ms: number) => void = () => {};
    const firstFrame = new Promise<number>((r) => (frameMs = r));
    const media = await client.connect({
      video: el,
      clientContext: { timezone: "Australia/Sydney" },
      on: {
        autoplay_blocked: (b) => events.push(`blocked:${b.videoPlaying}`),
        playing: (p) => events.push(`playing:${p.muted}`),
        timing: (t) => t.mark === "first_frame" && frameMs(t.ms),
      },
    });
    expect(media.answer).toEqual({
      sdp: expect.stringContaining("v=0"),
      type: "answer",
      avatar: expect.any(String),
      silence: expect.any(String),
      idle_stand_in: false,
    });
    expect(el.srcObject).toBe(media.stream);
    await new Promise((r) => setTimeout(r, 50));
    expect(media.autoplayBlocked).toBe(true);
    await media.resumeMedia();
    expect(events).toEqual(["blocked:true", "playing:false"]);
    expect(plays).toEqual([false, true, false]);
    expect(el.muted).toBe(false);
    expect(await firstFrame).toBeGreaterThan(0);

    await voiceReady;
    expect(voiceLog[0]).toBe("no_live_session");
    expect(voice.ready).toMatchObject({ sample_rate: 16000, voice_origin: "box" });
    voice.sendPcm(new Int16Array(320));

    // A second mic socket waits for the slot (4003) and gets in once the first one ends.
    const second = client.voice();
    const secondLog: string[] = [];
    second.on({ disconnected: (d) => secondLog.push(d.reason) });
    const secondReady = second.open();
    while (!secondLog.includes("mic_slot_taken")) await sleep(20);
    voice.end();
    await secondReady;

    // The control socket: the first audio of a spoken turn is timed.
    const s = client.session();
    await s.open();
    const firstAudio = new Promise<{ ms: number; correlationId?: string }>((r) =>
      s.on({ timing: (t) => t.mark === "first_audio" && r(t) }),
    );
    const talk = await s.talk("Hello from the client library.");
    expect(talk.message.content).toBe("Hello from the client library.");
    expect(await firstAudio).toEqual({ mark: "first_audio", ms: expect.any(Number), correlationId: talk.correlationId });
    s.close();
    second.close();
    await media.disconnect();
  });

  it("a call the box ends (another connect takes its place) reports connection_state closed at once", async () => {
    const states: string[] = [];
    const first = await client.connect({ on: { connection_state: ({ state }) => states.push(state) } });
    while (!states.includes("connected")) await sleep(20);
    const second = await client.connect();
    try {
      // The box's close_notify closes the first call's DTLS transport (ICE consent would take ~30 s).
      for (let i = 0; i < 250 && !states.includes("closed"); i++) await sleep(20);

      expect(states).toContain("closed");
      expect(states.filter((s) => s === "closed")).toHaveLength(1);
    } finally {
      first.close();
      await second.disconnect();
    }
  });

  it("POST /offer: a one-shot session's answer shape", async () => {
    const pc = new Peer();
    pc.addTransceiver("video", { direction: "recvonly" });
    pc.addTransceiver("audio", { direction: "recvonly" });
    await pc.setLocalDescription(await pc.createOffer());
    while (pc.iceGatheringState !== "complete") await sleep(20);
    try {
      const answer = await client.offer({ sdp: pc.localDescription!.sdp, type: "offer", tone: "happy" });
      expect(answer).toEqual({
        sdp: expect.stringContaining("v=0"),
        type: "answer",
        avatar: expect.any(String),
        emotion: "happy",
        transcript: "",
      });
      const bad = await client.offer({ sdp: pc.localDescription!.sdp, type: "offer", audio: "missing.wav" }).catch((e) => e);
      expect(bad).toBeInstanceOf(AvatarApiError);
      expect(bad).toMatchObject({ status: 404, code: "unknown_audio" });
    } finally {
      pc.close();
      await client.disconnect();
    }
  });
});
