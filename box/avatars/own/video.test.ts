// ffprobe's view of an uploaded video: the size its frames are shown at, which is what the video
// preparer decodes to (a phone's portrait video is stored turned, with a rotation to apply).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DecodeError, rgbFrames } from "../../faces/video-decode.ts";
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
    const plain = make("plain.mp4", [
      "-f",
      "lavfi",
      "-i",
      "testsrc2=size=96x64:rate=10",
      "-t",
      "0.5",
      "-pix_fmt",
      "yuv420p",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
    ]);
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

  it("refuses a DASH manifest posing as QuickTime instead of following its URLs to another file", async () => {
    // Someone else's video on the volume, and a file that starts with `free` at offset 4 but is an MPD.
    mkdirSync(join(work, "victim"), { recursive: true });
    mkdirSync(join(work, "attacker"), { recursive: true });
    const victim = make("victim/source.mp4", [
      "-f",
      "lavfi",
      "-i",
      "testsrc2=size=64x48:rate=10",
      "-t",
      "1",
      "-pix_fmt",
      "yuv420p",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
    ]);
    for (const [name, url] of [
      ["relative.mp4", "../victim/source.mp4"],
      ["absolute.mp4", `file://${victim}`],
    ]) {
      const path = join(work, "attacker", name);
      writeFileSync(path, mpdPointingAt(url));
      const err = await probeVideo(path).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BadVideo);
      expect((err as Error).message).not.toContain(work); // the sentence names "the file", not the volume
      const frames: Uint8Array[] = [];
      const decoded = (async () => {
        for await (const f of rgbFrames({ path, demuxer: "mov" }, { filters: "scale=64:48", width: 64, height: 48, maxFrames: 2 }))
          frames.push(f);
      })();
      await expect(decoded).rejects.toThrow(DecodeError);
      expect(frames).toHaveLength(0);
    }
  });

  it("opens a file only as the container its bytes say, and names no path when refusing", async () => {
    const webm = make("real.webm", [
      "-f",
      "lavfi",
      "-i",
      "testsrc2=size=64x48:rate=10",
      "-t",
      "0.5",
      "-c:v",
      "libvpx",
      "-deadline",
      "realtime",
    ]);
    expect(await probeVideo(webm)).toMatchObject({ demuxer: "matroska", width: 64 });
    const text = join(work, "notes.mp4");
    writeFileSync(text, "just some words, not a video at all");
    await expect(probeVideo(text)).rejects.toThrow(/not an MP4, MOV or WEBM video/);
    const cut = join(work, "cut.mp4");
    writeFileSync(cut, Buffer.from("\0\0\0\x18ftypisom\0\0\0\0isommp41", "latin1"));
    const err = (await probeVideo(cut).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(BadVideo);
    expect(err.message).toMatch(/could not be read/);
    expect(err.message).not.toContain(work);
  });
});

/** A DASH manifest whose first line makes the QuickTime sniff see a `free` atom. */
function mpdPointingAt(url: string): string {
  return `<!--free-->
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT1S" minBufferTime="PT1S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011">
 <Period><AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="100000" width="64" height="48">
  <BaseURL>${url}</BaseURL>
 </Representation></AdaptationSet></Period>
</MPD>
`;
}
