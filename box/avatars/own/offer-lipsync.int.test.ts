// Integration: POST /offer lip-syncs uploaded audio on a face made from a real photograph. A
// WebRTC client receives it; the mouth region opens (its cavity darkens) while the audio is loud
// and rests in the pause between the two sentences. A contact sheet of received frames is saved.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeWav, encodeWav } from "../../tts/wav.ts";
import { encodePng } from "../../render/png.ts";
import { i420ToRgba } from "../../render/i420.ts";
import { WrtcClient, meanLuma, type ReceivedFrame } from "../../media/testing/wrtc-client.ts";
import { spawnBox, type RunningBox } from "../../testing/spawn-box.ts";
import { sha256Hex } from "../../auth/principal.ts";
import { ownerDir } from "./ids.ts";

const KEY = "lipsync_key";
const H = { "x-api-key": KEY };
const PHOTO = new Uint8Array(readFileSync(new URL("../../../node_modules/@vladmandic/face-api/demo/sample2.jpg", import.meta.url)));
const work = mkdtempSync(join(tmpdir(), "offer-lipsync-"));
let box: RunningBox;

/** Two spoken sentences with 1.5 s of silence between them, as one WAV. */
function speechWithPause(): Uint8Array {
  const say = (text: string) => {
    const out = join(work, `${text.length}.wav`);
    const r = spawnSync("espeak-ng", ["-w", out, text]);
    if (r.status !== 0) throw new Error(`espeak-ng failed: ${r.stderr}`);
    return decodeWav(new Uint8Array(readFileSync(out)));
  };
  const a = say("Hello there, it is lovely to see you again today.");
  const b = say("Shall we talk about the weather for a while?");
  const gap = new Int16Array(Math.round(a.sampleRate * 1.5));
  const pcm = new Int16Array(a.pcm.length + gap.length + b.pcm.length);
  pcm.set(a.pcm, 0);
  pcm.set(b.pcm, a.pcm.length + gap.length);
  return encodeWav(pcm, a.sampleRate);
}

beforeAll(async () => {
  box = await spawnBox({ BOX_API_KEYS: KEY, BOX_ASR: "none" });
  const f = new FormData();
  f.append("file", new File([PHOTO as Uint8Array<ArrayBuffer>], "lena.jpg"));
  f.append("tones", "neutral");
  expect((await fetch(box.url + "/api/avatar", { method: "POST", headers: H, body: f })).status).toBe(200);
  const deadline = Date.now() + 90_000;
  while (
    !((await (await fetch(box.url + "/api/avatars", { headers: H })).json()) as { groups: { id: string }[] }).groups.some(
      (g) => g.id === "lena",
    )
  ) {
    if (Date.now() > deadline) throw new Error("the photo avatar never became ready");
    await new Promise((r) => setTimeout(r, 250));
  }
  const a = new FormData();
  a.append("file", new File([speechWithPause() as Uint8Array<ArrayBuffer>], "two-sentences.wav"));
  expect((await fetch(box.url + "/api/upload", { method: "POST", headers: H, body: a })).status).toBe(200);
}, 180_000);

afterAll(async () => {
  await box?.stop();
});

describe("/offer on a photo avatar", () => {
  it("the mouth opens with the audio and rests in its pause", async () => {
    const anchors = JSON.parse(
      readFileSync(join(box.dataDir, "avatars", ownerDir(`key:${sha256Hex(KEY)}`), "lena", "face.json"), "utf8"),
    ).anchors;
    const m = anchors.mouth as { x: number; y: number; width: number };
    // The inner mouth: between the corners, a band around the seam where the cavity shows.
    const inner = {
      x: Math.round(m.x - m.width * 0.3),
      y: Math.round(m.y - m.width * 0.1),
      width: Math.round(m.width * 0.6),
      height: Math.max(2, Math.round(m.width * 0.35)),
    };
    const media = new WrtcClient(400);
    try {
      await media.connect(async (offer) => {
        const r = await fetch(box.url + "/offer", {
          method: "POST",
          headers: { ...H, "content-type": "application/json" },
          body: JSON.stringify({ ...offer, avatar: "lena", audio: "two-sentences.wav", tone: "neutral" }),
        });
        expect(r.status).toBe(200);
        const body = (await r.json()) as { sdp: string; type: string; avatar: string; transcript: string };
        expect(body).toMatchObject({ avatar: "lena", transcript: "" });
        return body;
      });
      await media.waitForFirstFrame(20_000);
      const loud = await media.until(() => media.audio.find((c) => c.rms > 800), 20_000, "speech at the client");
      // Wait for the whole clip: the first sentence, the pause, and the second.
      await media.until(
        () => media.audio.some((c) => c.at > loud.at + 4000 && c.rms > 800) && media.audio.at(-1)!.at > loud.at + 7000,
        30_000,
        "the second sentence",
      );

      // Where was it loud, where quiet (100 ms windows of the received audio)?
      const level = (t: number) => {
        const near = media.audio.filter((c) => Math.abs(c.at - t) <= 50);
        return near.length ? Math.max(...near.map((c) => c.rms)) : 0;
      };
      const frames = media.recent.filter((f) => f.at >= loud.at - 500);
      // Open lips show a dark cavity and bright teeth: the spread of luma inside the mouth grows.
      const lumaOf = (f: ReceivedFrame) => {
        const mean = meanLuma(f, inner);
        let sq = 0;
        for (let y = inner.y; y < inner.y + inner.height; y++)
          for (let x = inner.x; x < inner.x + inner.width; x++) sq += (f.data[y * f.width + x] - mean) ** 2;
        return Math.sqrt(sq / (inner.width * inner.height));
      };
      // The face at rest: its preview still (a PNG of the prepared face), as luma.
      const png = new Uint8Array(await (await fetch(box.url + "/api/avatar/preview?avatar=lena", { headers: H })).arrayBuffer());
      const { data: rgb, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const still = new Uint8Array(info.width * info.height);
      for (let i = 0; i < still.length; i++)
        still[i] = Math.round(16 + (65.481 * rgb[i * 3] + 128.553 * rgb[i * 3 + 1] + 24.966 * rgb[i * 3 + 2]) / 255);
      const rest = lumaOf({ at: 0, width: info.width, height: info.height, data: still });
      // The longest quiet stretch after the first speech is the pause.
      let best = { from: 0, to: 0 };
      let start = 0;
      for (let t = loud.at; t < media.audio.at(-1)!.at; t += 20) {
        if (level(t) > 300) start = 0;
        else if (!start) start = t;
        else if (t - start > best.to - best.from) best = { from: start, to: t };
      }
      expect(best.to - best.from).toBeGreaterThan(1000);
      const inPause = frames.filter((f) => f.at > best.from + 350 && f.at < best.to - 350);
      const speaking = frames.filter((f) => f.at < best.from - 100 && level(f.at) > 1500);
      expect(inPause.length).toBeGreaterThan(5);
      expect(speaking.length).toBeGreaterThan(5);
      // A contact sheet of received frames (speaking and pausing) for a person to look at.
      const pick = [...speaking.filter((_, i) => i % Math.ceil(speaking.length / 4) === 0).slice(0, 4), ...inPause.slice(0, 2)];
      const w = pick[0].width;
      const h = pick[0].height;
      const sheet = new Uint8Array(w * pick.length * h * 4);
      pick.forEach((f, k) => {
        const rgba = i420ToRgba(f.data, w, h);
        for (let y = 0; y < h; y++) sheet.set(rgba.subarray(y * w * 4, (y + 1) * w * 4), (y * w * pick.length + k * w) * 4);
      });
      mkdirSync(join(process.cwd(), ".cache", "faces"), { recursive: true });
      writeFileSync(join(process.cwd(), ".cache", "faces", "offer-received.png"), encodePng(sheet, w * pick.length, h));
      const opened = speaking.filter((f) => lumaOf(f) > rest + 10).length / speaking.length;
      const restingInPause = inPause.filter((f) => Math.abs(lumaOf(f) - rest) < 5).length / inPause.length;
      expect(opened).toBeGreaterThan(0.4);
      expect(restingInPause).toBeGreaterThan(0.8);
    } finally {
      media.close();
    }
  }, 120_000);
});
