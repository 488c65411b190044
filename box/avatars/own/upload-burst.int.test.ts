// Integration (issue 10, bad input "50 uploads in a row"): the real Bun box with its real preparer
// takes fifty photo uploads one after another while a live session streams. Each upload is either
// accepted (200) or refused with 409 `preparation_queue_full` and a sentence; every accepted one
// ends `ready`, no refused one leaves a file or a row behind, and the live stream keeps sending
// frames throughout (frames keep arriving; no figure is asserted).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WrtcClient } from "../../media/testing/wrtc-client.ts";
import { spawnBox, type RunningBox } from "../../testing/spawn-box.ts";
import { sha256Hex } from "../../auth/principal.ts";
import { ownerDir } from "./ids.ts";

const KEY = "burst_int_key";
const SAMPLE = new URL("../../../node_modules/@vladmandic/face-api/demo/sample1.jpg", import.meta.url).pathname;
const UPLOADS = 50;
const work = mkdtempSync(join(tmpdir(), "upload-burst-"));
const dataDir = join(work, "volume");
let box: RunningBox;
let photo: Uint8Array;

async function call(method: string, path: string, body?: FormData | object): Promise<{ status: number; json: Record<string, any> }> {
  const headers: Record<string, string> = { "x-api-key": KEY };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body) (payload = JSON.stringify(body)), (headers["content-type"] = "application/json");
  const res = await fetch(box.url + path, { method, headers, body: payload });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

beforeAll(async () => {
  // A small photograph keeps fifty preparations short.
  const out = join(work, "small.jpg");
  const r = spawnSync("ffmpeg", ["-v", "error", "-y", "-i", SAMPLE, "-vf", "scale=320:-2", out], { timeout: 60_000 });
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
  photo = new Uint8Array(readFileSync(out));
  box = await spawnBox({ BOX_API_KEYS: KEY }, { dataDir });
});
afterAll(async () => {
  await box?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("fifty uploads in a row during a live session", () => {
  it("accepts what the queue holds, refuses the rest with 409 and a sentence, prepares every accepted one, and the stream never stops", async () => {
    const media = new WrtcClient(4);
    try {
      await media.connect(
        async (offer) => (await call("POST", "/connect", { ...offer, avatar: "stock-mei" })).json as { sdp: string; type: string },
      );
      await media.waitForFirstFrame(20_000);
      const accepted: string[] = [];
      const refused: string[] = [];
      let framesBefore = media.frames.length;
      let stalls = 0;
      for (let i = 0; i < UPLOADS; i++) {
        const form = new FormData();
        form.append("file", new File([photo as Uint8Array<ArrayBuffer>], `burst ${i}.jpg`));
        form.append("tones", "neutral");
        const r = await call("POST", "/api/avatar", form);
        if (r.status === 200) {
          expect(r.json).toMatchObject({ avatar: `burst-${i}`, status: expect.any(String), tones: ["neutral"] });
          accepted.push(r.json.avatar);
        } else {
          expect([r.status, r.json.code], `upload ${i}`).toEqual([409, "preparation_queue_full"]);
          expect(r.json.error).toMatch(/already waiting to be prepared/);
          refused.push(`burst-${i}`);
        }
        if (i % 10 === 9) {
          // Every ten uploads, the stream has sent more frames since the last look.
          await media.until(() => media.frames.length > framesBefore, 5_000, "frames during the uploads").catch(() => stalls++);
          framesBefore = media.frames.length;
        }
      }
      expect(stalls).toBe(0);
      expect(accepted.length).toBeGreaterThanOrEqual(16);
      expect(accepted.length + refused.length).toBe(UPLOADS);
      expect(refused.length).toBeGreaterThan(0);

      // Every accepted upload ends ready; nothing is left preparing; the refused left no trace.
      const deadline = Date.now() + 240_000;
      let avatars: Record<string, any> = {};
      for (;;) {
        avatars = (await call("GET", "/api/avatars")).json;
        if (avatars.preparing.length === 0) break;
        if (Date.now() > deadline) throw new Error(`still preparing: ${avatars.preparing.join(", ")}`);
        await new Promise((r) => setTimeout(r, 500));
      }
      const videos = (await call("GET", "/api/videos")).json.videos as Record<string, any>[];
      for (const id of accepted) {
        expect(
          videos.find((v) => v.id === id),
          id,
        ).toMatchObject({ status: "ready" });
        expect(avatars.builds[id].at(-1), id).toMatchObject({ state: "ready" });
      }
      for (const id of refused) {
        expect(
          videos.some((v) => v.id === id),
          id,
        ).toBe(false);
        expect(avatars.builds[id], id).toBeUndefined();
      }
      const onVolume = readdirSync(join(dataDir, "avatars", ownerDir(`key:${sha256Hex(KEY)}`))).sort();
      expect(onVolume).toEqual([...accepted].sort());
      await media.until(() => media.frames.length > framesBefore, 5_000, "frames after the uploads");
    } finally {
      media.close();
      await call("POST", "/disconnect");
    }
  }, 400_000);
});
