// Integration: Voice session end — an idle window or a ceiling ends the live session itself, not
// just the socket that noticed: media stops, /api/talk is 409, a new mic socket is refused 4002,
// and every open socket hears `session_expired` with its close code.
import { afterEach, describe, expect, it } from "vitest";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";
import { WrtcClient } from "../media/testing/wrtc-client.ts";
import { WsClient } from "../sockets/testing/ws-client.ts";
import { childPids } from "../media/testing/processes.ts";
import { byStartTime } from "../testing/proc.ts";

const KEY = "end_key";
const H = { "x-api-key": KEY };
let box: RunningBox | null = null;
let media: WrtcClient | null = null;
/** The live session's video encoder (the oldest ffmpeg: the spare for the next /connect starts after it). */
let sessionEncoder = 0;
const open: WsClient[] = [];

afterEach(async () => {
  for (const ws of open.splice(0)) ws.close();
  media?.close();
  media = null;
  await box?.stop();
  box = null;
});

async function start(env: Record<string, string>) {
  box = await spawnBox({ BOX_API_KEYS: KEY, BOX_ASR: "pocketsphinx", BOX_SOCKET_CHECK_MS: "200", ...env });
  media = new WrtcClient(2);
  await media.connect(
    async (offer) =>
      (await (
        await fetch(box!.url + "/connect", {
          method: "POST",
          headers: { ...H, "content-type": "application/json" },
          body: JSON.stringify(offer),
        })
      ).json()) as any,
  );
  await media.waitForFirstFrame(20_000);
  sessionEncoder = byStartTime(childPids(box.child.pid!, "ffmpeg"))[0];
  expect(sessionEncoder).toBeGreaterThan(0);
  return box;
}

function socket(path: string, query = "") {
  const ws = new WsClient(box!.url.replace("http", "ws") + path + query, H);
  open.push(ws);
  return ws;
}

const talk = (text: string) =>
  fetch(box!.url + "/api/talk", { method: "POST", headers: { ...H, "content-type": "application/json" }, body: JSON.stringify({ text }) });

/** The session is over for the client: no new frames arrive, talk is 409, a new mic socket is 4002. */
async function expectSessionGone() {
  const deadline = Date.now() + 15_000;
  while (((await (await fetch(box!.url + "/health")).json()) as { speaking_face: string | null }).speaking_face !== null) {
    if (Date.now() > deadline) throw new Error("the live session never ended");
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 600)); // frames already in flight drain
  const before = media!.frames.length;
  await new Promise((r) => setTimeout(r, 1500));
  expect(media!.frames.length - before).toBe(0);
  // The session's encoder stopped with it; at most the warm spare for the next /connect is left.
  const left = childPids(box!.child.pid!, "ffmpeg");
  expect(left).not.toContain(sessionEncoder);
  expect(left.length).toBeLessThanOrEqual(1);
  const t = await talk("Are you still there?");
  expect(t.status).toBe(409);
  expect(await t.json()).toMatchObject({ error: expect.any(String) });
  const again = socket("/api/voice/ws");
  await again.closed;
  expect(again.closeCode).toBe(4002);
  expect(again.frames[0]).toMatchObject({ type: "error", fatal: true, code: 4002 });
}

describe("live session end", () => {
  it("idle: both sockets get session_expired idle then 4007, and the live session is released", async () => {
    await start({ BOX_IDLE_SECONDS: "5" });
    const mic = socket("/api/voice/ws");
    await mic.waitType("ready", 15_000);
    const control = socket("/api/session/ws");
    await control.waitType("session_ready", 10_000);
    for (const ws of [mic, control]) {
      expect(await ws.waitType("session_expired", 10_000)).toEqual({
        type: "session_expired",
        reason: "idle",
        message: expect.any(String),
        seconds: 5,
        code: 4007,
      });
      await ws.closed;
      expect(ws.closeCode).toBe(4007);
    }
    await expectSessionGone();
  }, 90_000);

  it("the box's ceiling ends a busy session (max_length, 4008); reopening the mic socket does not get around it", async () => {
    await start({ BOX_MAX_SESSION_SECONDS: "5" });
    const mic = socket("/api/voice/ws");
    await mic.waitType("ready", 15_000);
    // Activity all along: the ceiling, not the idle window, ends it.
    const keepBusy = setInterval(() => void talk("Still here."), 1000);
    try {
      expect(await mic.waitType("session_expired", 15_000)).toMatchObject({ reason: "max_length", seconds: 5, code: 4008 });
      await mic.closed;
      expect(mic.closeCode).toBe(4008);
    } finally {
      clearInterval(keepBusy);
    }
    await expectSessionGone();
  }, 90_000);

  it("with no socket open, the idle window still ends the live session (its encoders stop)", async () => {
    await start({ BOX_IDLE_SECONDS: "2" });
    await expectSessionGone();
  }, 90_000);

  it("a ceiling asked for on the control socket ends the live session; the mic socket hears why", async () => {
    await start({});
    const mic = socket("/api/voice/ws");
    await mic.waitType("ready", 15_000);
    const control = socket("/api/session/ws", "?max_session_length_seconds=2");
    await control.waitType("session_ready", 10_000);
    for (const ws of [control, mic]) {
      expect(await ws.waitType("session_expired", 10_000)).toMatchObject({ reason: "max_length", seconds: 2, code: 4008 });
      await ws.closed;
      expect(ws.closeCode).toBe(4008);
    }
    await expectSessionGone();
  }, 90_000);

  it("activity on the session keeps an idle mic socket open", async () => {
    await start({ BOX_IDLE_SECONDS: "3" });
    const mic = socket("/api/voice/ws");
    await mic.waitType("ready", 15_000);
    for (let i = 0; i < 6; i++) {
      expect((await talk("Hello.")).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(mic.types()).not.toContain("session_expired");
    expect(mic.closeCode).toBeNull();
  }, 90_000);
});
