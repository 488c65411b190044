import sharp from "sharp";
import { describe, expect, test } from "vitest";
import { singlePhoto } from "../faces/testing/photos.ts";
import { waitFor } from "../media/testing/processes.ts";
import { FrameDecoder } from "./frame-decoder.ts";
import { rtpOf, vp8Clip } from "./testing/vp8-rtp.ts";
import { Vp8FrameAssembler, type Vp8Frame } from "./vp8-frames.ts";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("the camera's VP8 RTP, decoded", () => {
  test("a face photo sent as 720p VP8 RTP comes out as JPEGs no larger than 768 px, at most 2 a second; the child ends on close", async () => {
    const clip = vp8Clip(await singlePhoto(), { width: 720, height: 1246, fps: 15, seconds: 2 });
    const pictures: Buffer[] = [];
    const giveUps: string[] = [];
    const decoder = new FrameDecoder({ onPicture: (j) => pictures.push(j), onGiveUp: (w) => giveUps.push(w) });
    const frames: Vp8Frame[] = [];
    const assembler = new Vp8FrameAssembler(
      (f) => (frames.push(f), decoder.push(f)),
      () => {},
    );
    for (const p of rtpOf(clip, 15)) assembler.push(p);
    expect(frames.length, "every frame was put back together across the sequence and timestamp wrap").toBe(clip.length);
    expect(Buffer.compare(frames[5]!.data, clip[5]!)).toBe(0);
    await waitFor(() => pictures.length >= 2, 30_000, "pictures came out");
    const pid = decoder.pid!;
    const meta = await sharp(pictures[0]).metadata();
    expect(meta.format).toBe("jpeg");
    expect(Math.max(meta.width!, meta.height!)).toBe(768);
    expect(meta.width).toBeCloseTo((720 / 1246) * 768, -1);
    expect(pictures.length, "2 s of video at <= 2 pictures a second").toBeLessThanOrEqual(5);
    expect(giveUps).toEqual([]);
    decoder.close();
    await waitFor(() => !alive(pid), 5_000, "the decoder's child ended");
  });

  test("a keyframe of another size (a screen after a camera) is decoded at its own size, not squashed to the first", async () => {
    const photo = await singlePhoto();
    const sizes: { width: number; height: number }[] = [];
    const giveUps: string[] = [];
    const decoder = new FrameDecoder({
      onPicture: (j) =>
        void sharp(j)
          .metadata()
          .then((m) => sizes.push({ width: m.width!, height: m.height! })),
      onGiveUp: (w) => giveUps.push(w),
    });
    const feed = (clip: Buffer[], fps: number) => {
      const assembler = new Vp8FrameAssembler(
        (f) => decoder.push(f),
        () => {},
      );
      for (const p of rtpOf(clip, fps)) assembler.push(p);
    };
    feed(vp8Clip(photo, { width: 320, height: 240, fps: 10, seconds: 2, filter: "scale=320:240" }), 10);
    await waitFor(() => sizes.length >= 1, 30_000, "a picture of the camera");
    const firstPid = decoder.pid!;
    feed(vp8Clip(photo, { width: 640, height: 360, fps: 10, seconds: 2, filter: "scale=640:360" }), 10);
    await waitFor(() => sizes.some((s) => s.width === 640), 30_000, "a picture of the screen at its own size");
    expect(sizes[0]).toEqual({ width: 320, height: 240 });
    expect(sizes.filter((s) => s.width === 640).every((s) => s.height === 360)).toBe(true);
    expect(giveUps).toEqual([]);
    await waitFor(() => !alive(firstPid), 5_000, "the first child ended");
    decoder.close();
  });

  test("a lost packet drops frames until the next keyframe and asks the sender for one", async () => {
    const clip = vp8Clip(await singlePhoto(), { width: 320, height: 240, fps: 10, seconds: 3 });
    const packets = rtpOf(clip, 10);
    const frames: Vp8Frame[] = [];
    let asked = 0;
    const assembler = new Vp8FrameAssembler(
      (f) => frames.push(f),
      () => asked++,
    );
    const lost = packets.findIndex((p, i) => i > 3 && p.header.marker); // the end of an inter frame
    let beforeLoss = 0;
    packets.forEach((p, i) => {
      if (i === lost) beforeLoss = frames.length;
      else assembler.push(p);
    });
    expect(asked, "the sender was asked for a keyframe once").toBe(1);
    expect(frames[0]!.keyframe).toBe(true);
    expect(frames.length, "frames came again after the loss").toBeGreaterThan(beforeLoss);
    expect(frames[beforeLoss]!.keyframe, "the first frame after the loss is a keyframe").toBe(true);
    expect(frames.length).toBeLessThan(clip.length - 1);
  });

  test("frames too large to look at: the decoder gives up with a reason and starts no child", () => {
    const giveUps: string[] = [];
    const decoder = new FrameDecoder({ onPicture: () => {}, onGiveUp: (w) => giveUps.push(w) });
    // A VP8 keyframe header claiming 8000x6000.
    const huge = Buffer.from([0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, 8000 & 0xff, 8000 >> 8, 6000 & 0xff, 6000 >> 8, 0, 0]);
    decoder.push({ data: huge, timestamp: 0, keyframe: true });
    expect(giveUps).toEqual(["the camera's 8000x6000 frames are too large to look at"]);
    expect(decoder.pid).toBeNull();
  });
});
