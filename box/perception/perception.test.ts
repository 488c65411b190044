import sharp from "sharp";
import { describe, expect, test } from "vitest";
import { landscapePhoto, singlePhoto } from "../faces/testing/photos.ts";
import { FaceLandmarker } from "../faces/face-landmarker.ts";
import { waitFor } from "../media/testing/processes.ts";
import { Perception } from "./perception.ts";
import { vp8Clip } from "./testing/vp8-rtp.ts";

let loaded: Promise<FaceLandmarker> | undefined;
/** One landmarker for the file (the box shares the photo path's the same way). */
const photoLandmarker = () => (loaded ??= FaceLandmarker.load());

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Plays `frames` into the perception at `fps` in real time (the decoder keeps <= 2 a second). */
async function play(p: Perception, frames: Buffer[], fps: number): Promise<void> {
  for (let i = 0; i < frames.length; i++) {
    p.decoderNow().push({ data: frames[i]!, timestamp: Math.round((i * 90_000) / fps), keyframe: i % (fps * 2) === 0 });
    await new Promise((r) => setTimeout(r, 1000 / fps));
  }
}

describe("embedded perception", () => {
  test("a face on camera: the model's line says the person is looking and smiling; the session's end kills the decoder and drops the picture", async () => {
    const p = new Perception({ landmarker: photoLandmarker, log: () => {} });
    try {
      await play(p, vp8Clip(await singlePhoto(), { width: 480, height: 830, fps: 10, seconds: 3 }), 10);
      await waitFor(() => p.contextLine() !== null, 10_000, "the face models looked");
      expect(p.contextLine()).toBe("The person is looking at you and smiling.");
      expect(p.picture()?.jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      expect(p.awayForMs()).toBe(0);
      const pid = p.decoderPid!;
      p.close();
      expect(p.picture(), "the picture is dropped at the end").toBeNull();
      await waitFor(() => !alive(pid), 5_000, "the decoder's child ended with the session");
    } finally {
      p.close();
    }
  });

  test("an empty room: the line says nobody is there, and the person counts as away", async () => {
    let t = Date.now();
    const p = new Perception({ landmarker: photoLandmarker, log: () => {} });
    try {
      await play(p, vp8Clip(await landscapePhoto(), { width: 640, height: 480, fps: 10, seconds: 3 }), 10);
      await waitFor(() => p.contextLine() !== null, 10_000, "the face models looked");
      expect(p.contextLine()).toBe("The person's camera is on but nobody is in front of it.");
      t = Date.now();
      await waitFor(() => p.awayForMs() > 0 || Date.now() - t > 2_000, 5_000, "away time grows");
      expect(p.awayForMs()).toBeGreaterThan(0);
    } finally {
      p.close();
    }
  });

  test("a still scene is not looked at again (what the face models saw stands); a changed scene is", async () => {
    const p = new Perception({ landmarker: photoLandmarker, log: () => {}, lookEveryMs: 400 });
    try {
      await play(p, vp8Clip(await singlePhoto(), { width: 480, height: 830, fps: 10, seconds: 4 }), 10);
      await waitFor(() => p.looks + p.stillSkips >= 4, 10_000, "several pictures were considered");
      expect(p.looks, "one look at the still face").toBe(1);
      expect(p.stillSkips).toBeGreaterThanOrEqual(3);
      expect(p.contextLine()).toBe("The person is looking at you and smiling.");
      await play(p, vp8Clip(await landscapePhoto(), { width: 640, height: 480, fps: 10, seconds: 3 }), 10);
      await waitFor(
        () => p.contextLine() === "The person's camera is on but nobody is in front of it.",
        10_000,
        "the changed scene was looked at",
      );
      expect(p.looks).toBeGreaterThanOrEqual(2);
    } finally {
      p.close();
    }
  });

  test("a moving scene with the same answer is looked at half as often; a changed answer brings the full rate back", async () => {
    const p = new Perception({ landmarker: photoLandmarker, log: () => {}, lookEveryMs: 300 });
    // The camera drifts and zooms over the face: every picture differs, so the still-scene skip never applies.
    const drifting =
      "scale=480:830,zoompan=z='1.1+0.08*sin(on/3)':x='iw/2-(iw/zoom/2)+25*sin(on/2)':y='ih/2-(ih/zoom/2)':d=1:s=480x830:fps=10";
    try {
      expect(p.lookEveryMs()).toBe(300);
      await play(p, vp8Clip(await singlePhoto(), { width: 480, height: 830, fps: 10, seconds: 5, filter: drifting }), 10);
      await waitFor(() => p.looks >= 4, 10_000, "four looks at the moving face");
      expect(p.stillSkips, "the scene moved").toBe(0);
      expect(p.contextLine()).toBe("The person is looking at you and smiling.");
      expect(p.lookEveryMs(), "the same answer three times: half the rate").toBe(600);
      let rateWhenChanged = 0;
      const changed = () => {
        const left = p.contextLine() === "The person's camera is on but nobody is in front of it.";
        if (left) rateWhenChanged = p.lookEveryMs();
        return left;
      };
      const room = play(p, vp8Clip(await landscapePhoto(), { width: 640, height: 480, fps: 10, seconds: 3 }), 10);
      await waitFor(changed, 10_000, "the empty room was looked at");
      await room;
      expect(rateWhenChanged, "a changed answer: the full rate again").toBe(300);
    } finally {
      p.close();
    }
  }, 60_000); // 8 s of real-time video, and looks that take longer on a busy machine

  test("a black camera and a frozen one are 'no picture', with a log line", async () => {
    let clock = Date.now();
    const logs: string[] = [];
    const p = new Perception({ log: (m) => logs.push(m), now: () => clock });
    try {
      const black = new Uint8Array(
        await sharp({ create: { width: 64, height: 48, channels: 3, background: "#000" } })
          .png()
          .toBuffer(),
      );
      const frames = vp8Clip(black, { width: 640, height: 480, fps: 10, seconds: 2 });
      const feed = async () => {
        for (let i = 0; i < frames.length; i++) {
          p.decoderNow().push({ data: frames[i]!, timestamp: Math.round((i * 90_000) / 10), keyframe: i === 0 });
          clock += 100;
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      await feed();
      await waitFor(() => logs.some((l) => l.includes("black")), 10_000, "the black picture was noticed");
      expect(p.picture()).toBeNull();
      expect(p.pictures).toBeGreaterThan(0);
      clock += 10_000; // a frozen track: nothing new for 10 s
      expect(p.picture()).toBeNull();
    } finally {
      p.close();
    }
  });
});
