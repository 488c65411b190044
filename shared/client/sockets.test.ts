// Both socket clients against a tiny local server speaking the box's wire: reconnect policy per
// close code, refused upgrades, credential renewal, tool frames, unknown types and reasons.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { AvatarClient } from "./avatar-client.ts";
import { AvatarApiError } from "./errors.ts";
import type { WebSocketCtor } from "./socket-base.ts";
import { TinySocketServer, type TinyConnection } from "./testing/tiny-socket-server.ts";

let server: TinySocketServer;
beforeEach(async () => (server = await new TinySocketServer().start()));
afterEach(() => server.close());

const client = (token: ConstructorParameters<typeof AvatarClient>[0]["token"] = "tok") =>
  new AvatarClient({
    baseUrl: server.url,
    token,
    WebSocket: WebSocket as unknown as WebSocketCtor,
    reconnect: { minDelayMs: 10, maxDelayMs: 40, attempts: 3 },
  });
const refuseThenReady = (code: number) => (c: TinyConnection) => {
  if (server.connections.length === 1) {
    c.send({ type: "error", error: `refused ${code}`, fatal: true, code });
    c.ws.close(code, `refused ${code}`);
  } else c.send({ type: "ready", sample_rate: 16000, voice_origin: "box" });
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("reconnect policy per close code (voice socket)", () => {
  for (const [code, reason] of [
    [4002, "no_live_session"],
    [4003, "mic_slot_taken"],
    [4006, "session_setup_failed"],
    [1000, "server_closed"],
  ] as const) {
    it(`${code} (${reason}) is retried with backoff`, async () => {
      server.onConnection = refuseThenReady(code);
      const voice = client().voice();
      const seen: { reason: string; willRetry: boolean }[] = [];
      voice.on({ disconnected: (d) => seen.push(d) });
      await voice.open();
      expect(server.connections).toHaveLength(2);
      expect(seen).toEqual([expect.objectContaining({ reason, willRetry: true })]);
      voice.close();
    });
  }

  for (const [code, reason] of [
    [4001, "no_speech_recognition"],
    [4004, "credential_revoked"],
    [4005, "speech_recognition_failed"],
    [4007, "idle_timeout"],
    [4008, "max_duration"],
  ] as const) {
    it(`${code} (${reason}) is not retried; open() rejects with the sentence and the code`, async () => {
      server.onConnection = refuseThenReady(code);
      const voice = client().voice();
      const err = (await voice.open().catch((e) => e)) as AvatarApiError;
      expect(err).toBeInstanceOf(AvatarApiError);
      expect(err).toMatchObject({ code: reason, message: `refused ${code}`, status: 0 });
      expect(err.closeCode).toBe(code);
      await sleep(100);
      expect(server.connections).toHaveLength(1);
    });
  }

  it("session_end is final: the close after it is not retried", async () => {
    server.onConnection = (c) => {
      c.send({ type: "ready", sample_rate: 16000, voice_origin: "box" });
      setTimeout(() => (c.send({ type: "session_end", reason: "ended_by_persona_request" }), c.ws.close(1000, "call ended")), 20);
    };
    const voice = client().voice();
    const disconnected = new Promise<any>((r) => voice.on({ disconnected: r }));
    await voice.open();
    expect(await disconnected).toMatchObject({ reason: "session_ended", willRetry: false });
    await sleep(80);
    expect(server.connections).toHaveLength(1);
  });

  it("gives up after the configured tries", async () => {
    server.onConnection = (c) => c.ws.close(4002, "no live session");
    const err = (await client()
      .voice()
      .open()
      .catch((e) => e)) as AvatarApiError;
    expect(err.code).toBe("no_live_session");
    expect(server.connections).toHaveLength(4); // the first try and three retries
  });
});

describe("credentials on sockets", () => {
  it("sends the credential as ?session_token= (a browser cannot set headers)", async () => {
    server.onConnection = (c) => c.send({ type: "session_ready", sessionId: "s", avatar: "a", tones: [] });
    const s = client("st_abc").session({ maxSessionLengthSeconds: 30 });
    await s.open();
    expect(server.connections[0]).toMatchObject({ path: "/api/session/ws", token: "st_abc" });
    expect(server.connections[0].query.get("max_session_length_seconds")).toBe("30");
    s.close();
  });

  it("a refused upgrade (HTTP 401) rejects with credential_refused; a provider is asked again and the retry gets in", async () => {
    server.refuse = (req) => (req.url?.includes("session_token=bad") ? 401 : null);
    server.onConnection = (c) => c.send({ type: "session_ready", sessionId: "s", avatar: "a", tones: [] });
    const err = (await client("bad")
      .session()
      .open()
      .catch((e) => e)) as AvatarApiError;
    expect(err).toMatchObject({ status: 401, code: "credential_refused" });
    expect(server.connections).toHaveLength(0);
    const tokens = ["bad", "good"];
    const s = client(() => tokens.shift()!).session();
    await s.open();
    expect(server.connections.map((c) => c.token)).toEqual(["good"]);
    s.close();
  });

  it("renews with `auth` before the token ages out, and again on auth_required", async () => {
    server.onConnection = (c) => c.send({ type: "session_ready", sessionId: "s", avatar: "a", tones: [] });
    let n = 0;
    const s = client(() => ({ token: `t${++n}`, expires_in: 2 })).session();
    await s.open();
    const conn = server.connections[0];
    expect(conn.token).toBe("t1");
    // A 2 s token is renewed at half its life.
    await server.until(() => conn.received.find((f) => f.type === "auth"), 2500, "auth before expiry");
    expect(conn.received.filter((f) => f.type === "auth")).toEqual([{ type: "auth", token: "t2" }]);
    const states: boolean[] = [];
    s.on({ auth_state: (f) => states.push(f.live) });
    conn.send({ type: "auth_required", message: "aged out" });
    await server.until(() => conn.received.some((f) => f.type === "auth" && f.token === "t3"), 2000, "auth after auth_required");
    conn.send({ type: "auth_state", live: true });
    await server.until(() => states.length === 1);
    s.close();
  });
});

describe("frames on sockets", () => {
  it("repeated call ids are answered once; an unknown failure reason and unknown types pass through", async () => {
    server.onConnection = (c) => c.send({ type: "session_ready", sessionId: "s", avatar: "a", tones: [] });
    const c0 = client();
    c0.registerTool("lookup", (args) => ({ found: args.id }));
    const s = c0.session();
    const failures: string[] = [];
    const unknown: string[] = [];
    s.on({ tool_call_failed: (f) => failures.push(f.reason), frame: (f) => f.type.startsWith("brand_new") && unknown.push(f.type) });
    await s.open();
    const conn = server.connections[0];
    const call = { type: "tool_call", call_id: "call_1", name: "lookup", args: { id: 7 }, mode: "await_result", timeout_seconds: 5 };
    conn.send(call);
    conn.send(call);
    conn.send({ type: "brand_new_event", x: 1 });
    conn.send({ type: "tool_call_failed", call_id: "call_2", name: "lookup", reason: "brand_new_reason" });
    await server.until(() => failures.length === 1);
    await sleep(50);
    expect(conn.received.filter((f) => f.type === "tool_result")).toEqual([
      { type: "tool_result", call_id: "call_1", ok: true, result: { found: 7 } },
    ]);
    expect(failures).toEqual(["brand_new_reason"]);
    expect(unknown).toEqual(["brand_new_event"]);
    s.close();
  });

  it("a non-fatal error settles the oldest waiting turn; a close rejects the rest with session_closed", async () => {
    server.onConnection = (c) => {
      c.send({ type: "session_ready", sessionId: "s", avatar: "a", tones: [] });
      c.ws.on("message", () => {
        if (c.received.length === 1) c.send({ type: "error", error: "content is blank.", fatal: false });
        if (c.received.length === 2) setTimeout(() => c.ws.close(4008, "max length"), 20);
      });
    };
    const s = client().session();
    await s.open();
    const first = s.message(" ").catch((e) => e);
    const second = s.message("hello").catch((e) => e);
    expect(await first).toMatchObject({ code: "turn_refused", message: "content is blank." });
    expect(await second).toMatchObject({ code: "session_closed" });
  });

  it("close() mid-call raises session_closed locally and rejects waiting turns; open() then connects again", async () => {
    server.onConnection = (c) => c.send({ type: "session_ready", sessionId: "s", avatar: "a", tones: [] });
    const c0 = client();
    c0.registerTool("slow", () => new Promise(() => {}));
    const s = c0.session();
    const failed: unknown[] = [];
    const reasons: string[] = [];
    s.on({ tool_call_failed: (f) => failed.push(f), disconnected: (d) => reasons.push(d.reason) });
    await s.open();
    server.connections[0].send({ type: "tool_call", call_id: "c9", name: "slow", args: {}, mode: "await_result", timeout_seconds: 5 });
    const turn = s.message("hello").catch((e) => e);
    await sleep(30);
    s.close();
    expect(failed).toEqual([{ type: "tool_call_failed", call_id: "c9", name: "slow", reason: "session_closed", local: true }]);
    expect(await turn).toMatchObject({ code: "session_closed" });
    expect(reasons).toEqual(["client"]);
    await s.open();
    expect(server.connections).toHaveLength(2);
    s.close();
  });

  it("voice: `metric` is the per-turn latency mark; a pause shows only on frames that carry `paused`", async () => {
    server.onConnection = (c) => c.send({ type: "ready", sample_rate: 16000, voice_origin: "box" });
    const voice = client().voice();
    const marks: unknown[] = [];
    const chunks: string[] = [];
    voice.on({ timing: (t) => t.mark === "turn_latency" && marks.push(t), reply_chunk: (f) => chunks.push(f.text) });
    await voice.open();
    const conn = server.connections[0];
    conn.send({ type: "action", name: "pause_conversation", label: "Pausing" });
    conn.send({ type: "metric", first_audio_ms: 420, spec: false });
    await server.until(() => marks.length === 1);
    expect(marks).toEqual([{ mark: "turn_latency", ms: 420, spec: false }]);
    expect(voice.paused).toBe(false);
    conn.send({ type: "action", name: "pause_conversation", label: "Pausing", paused: true, max_seconds: 90 });
    await server.until(() => voice.paused);
    conn.send({ type: "reply_chunk", text: "I'm back.", tone: "neutral" });
    await server.until(() => chunks.length === 1);
    expect(voice.paused).toBe(false);
    voice.close();
  });

  it("voice: config is sent again on every reconnect; PCM goes out as binary after ready", async () => {
    server.onConnection = (c) => {
      if (server.connections.length === 1) return void setTimeout(() => c.ws.close(4002, "no live session"), 20);
      c.send({ type: "ready", sample_rate: 16000, voice_origin: "box" });
    };
    const voice = client().voice({ config: { avatar: "ava" } });
    voice.mute(true);
    await voice.open();
    voice.sendPcm(new Int16Array([1, -1, 32767]));
    await server.until(() => server.connections[1]?.binary.length === 1);
    expect(server.connections.map((c) => c.received.slice(0, 2))).toEqual([
      [
        { type: "config", avatar: "ava" },
        { type: "mute", muted: true },
      ],
      [
        { type: "config", avatar: "ava" },
        { type: "mute", muted: true },
      ],
    ]);
    expect([...new Int16Array(new Uint8Array(server.connections[1].binary[0]).buffer)]).toEqual([1, -1, 32767]);
    voice.end();
    await server.until(() => server.connections[1].received.some((f) => f.type === "bye"));
  });

  it("voice: a `voice_onset` mark when the sent audio turns loud after 400 ms of quiet, not on every loud frame", async () => {
    server.onConnection = (c) => c.send({ type: "ready", sample_rate: 16000, voice_origin: "box" });
    const voice = client().voice();
    const onsets: number[] = [];
    voice.on({ timing: (t) => t.mark === "voice_onset" && onsets.push(t.ms) });
    await voice.open();
    const frame = (amp: number) => new Int16Array(320).map((_, i) => (i % 2 ? amp : -amp));
    voice.sendPcm(frame(50)); // quiet: no onset
    voice.sendPcm(frame(4000)); // loud: onset
    voice.sendPcm(frame(4000)); // still loud: none
    voice.sendPcm(frame(50));
    voice.sendPcm(frame(4000)); // loud again after a few ms of quiet: the same onset
    expect(onsets).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 450));
    voice.sendPcm(frame(4000)); // after 400 ms of quiet: a new onset
    expect(onsets).toHaveLength(2);
    expect(onsets[1]).toBeGreaterThan(onsets[0]);
    voice.close();
  });
});
