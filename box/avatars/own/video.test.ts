// ffprobe's view of an uploaded video: the size its frames are shown at, which is what the video
// preparer decodes to (a phone's portrait video is stored turned, with a rotation to apply).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BadVideo, probeVideo } from "./video.ts";

const work = mkdtempSync(join(tmpdir(), "probe-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function make(name: string, args: string[]): string {
  const out = join(work, name);
  const r = spawnSync("/usr/bin/ffmpeg", ["-v", "error", "-y", ...args, out], { timeout: 30_000 });
  if (r.status !== 0) throw new Error(String(r.stderr));
  return out;
}

describe("probeVideo", () => {
  it("answers the displayed size: rotation applied, non-square pixels made square", async () => {
    const plain = make("plain.mp4", ["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10", "-t", "0.5", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast"]);
    expect(await probeVideo(plain)).toMatchObject({ width: 96, height: 64, displayWidth: 96, displayHeight: 64 });
    const stored = make("stored.mp4", ["-i", plain, "-vf", "transpose=1", "-c:v", "libx264", "-preset", "ultrafast"]);
    const phone = make("phone.mp4", ["-i", stored, "-c", "copy", "-metadata:s:v:0", "rotate=90"]);
    expect(await probeVideo(phone)).toMatchObject({ width: 64, height: 96, displayWidth: 96, displayHeight: 64 });
    const wide = make("wide.mp4", ["-i", plain, "-vf", "setsar=2", "-c:v", "libx264", "-preset", "ultrafast"]);
    expect(await probeVideo(wide)).toMatchObject({ width: 96, height: 64, displayWidth: 192, displayHeight: 64 });
  });

  it("refuses a file without a video stream with a sentence", async () => {
    const sound = make("sound.m4a", ["-f", "lavfi", "-i", "sine=frequency=440:duration=0.5", "-c:a", "aac"]);
    await expect(probeVideo(sound)).rejects.toThrow(BadVideo);
    await expect(probeVideo(sound)).rejects.toThrow(/no video stream/);
  });
});
