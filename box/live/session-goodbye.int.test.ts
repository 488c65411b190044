// Integration: when the box ends a live session (POST /disconnect, a new /connect, the idle
// window, the ceiling) its client is told at the transport (RTCP BYE, DTLS close_notify), so a libwebrtc
// client's DTLS transport closes at once instead of ~30 s later when ICE consent runs out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";
import { WrtcClient } from "../media/testing/wrtc-client.ts";

const IDLE_SECONDS = 8;
const MAX_SECONDS = 6;
/** Far below the ~30 s the client took to notice before; wide enough for a loaded machine. */
const TOLD_WITHIN_MS = 5_000;
let box: RunningBox;
const clients: WrtcClient[] = [];

afterAll(() => {
  for (const c of clients) c.close();
});

async function post(path: string, body?: unknown) {
  const res = await fetch(box.url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as unknown };
}

async function connect(): Promise<WrtcClient> {
  const client = new WrtcClient(2);
  clients.push(client);
  await client.connect(async (offer) => {
    const r = await post("/connect", offer);
    if (r.status !== 200) throw new Error(`connect ${r.status} ${JSON.stringify(r.json)}`);
    const { sdp, type } = r.json as { sdp: string; type: string };
    return { sdp, type };
  });
  await client.waitForFirstFrame(20_000);
  expect(client.dtlsState).toBe("connected");
  return client;
}

const told = (client: WrtcClient) =>
  client.until(() => client.dtlsState === "closed", TOLD_WITHIN_MS, "the client's DTLS transport closed");

/** Waits until the box has no live session (a window ran out). */
async function sessionEnded(withinSeconds: number): Promise<void> {
  const deadline = Date.now() + withinSeconds * 1000;
  for (;;) {
    const health = (await (await fetch(box.url + "/health")).json()) as { speaking_face: string | null };
    if (health.speaking_face === null) return;
    if (Date.now() > deadline) throw new Error("the session never ended");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("the box ending a session tells its client at the transport", () => {
  beforeAll(async () => {
    box = await spawnBox({ BOX_IDLE_SECONDS: String(IDLE_SECONDS), BOX_SOCKET_CHECK_MS: "200" });
  }, 60_000);
  afterAll(() => box.stop());

  it("POST /disconnect: the client's DTLS transport closes", async () => {
    const client = await connect();
    expect(await post("/disconnect")).toEqual({ status: 200, json: { ok: true } });
    await told(client);
  }, 60_000);

  it("a new /connect: the displaced client's DTLS transport closes; the new one stays up", async () => {
    const first = await connect();
    const second = await connect();
    await told(first);
    expect(second.dtlsState).toBe("connected");
    await post("/disconnect");
  }, 60_000);

  it("the idle window: the released client's DTLS transport closes", async () => {
    const client = await connect();
    await sessionEnded(IDLE_SECONDS + 15);
    await told(client);
  }, 60_000);
});

describe("the box's ceiling on a session's length", () => {
  beforeAll(async () => {
    box = await spawnBox({ BOX_MAX_SESSION_SECONDS: String(MAX_SECONDS), BOX_SOCKET_CHECK_MS: "200" });
  }, 60_000);
  afterAll(() => box.stop());

  it("the ceiling: the client's DTLS transport closes when the session reaches its length", async () => {
    const client = await connect();
    await sessionEnded(MAX_SECONDS + 15);
    await told(client);
  }, 60_000);
});
