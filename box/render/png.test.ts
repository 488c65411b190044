import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { i420ToRgba, rgbaToI420, rgbToYuv } from "./i420.ts";
import { encodePng, PNG_SIGNATURE } from "./png.ts";

function gradient(w: number, h: number): Uint8Array {
  const rgba = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      rgba.set([(x * 255) / (w - 1), (y * 255) / (h - 1), ((x + y) * 127) / (w + h), 255], o);
    }
  }
  return rgba;
}

/** Decodes a PNG with ffmpeg (an independent decoder) into RGBA. */
function ffmpegDecode(png: Uint8Array): Uint8Array {
  const r = spawnSync(
    "ffmpeg",
    ["-hide_banner", "-loglevel", "error", "-f", "png_pipe", "-i", "pipe:0", "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"],
    {
      input: png,
      maxBuffer: 64 << 20,
    },
  );
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr.toString()}`);
  return new Uint8Array(r.stdout);
}

describe("encodePng", () => {
  it("writes the PNG signature and an IHDR with the image size", () => {
    const png = encodePng(gradient(40, 24), 40, 24);
    expect([...png.subarray(0, 8)]).toEqual([...PNG_SIGNATURE]);
    const view = new DataView(png.buffer, png.byteOffset);
    expect(new TextDecoder().decode(png.subarray(12, 16))).toBe("IHDR");
    expect(view.getUint32(16)).toBe(40);
    expect(view.getUint32(20)).toBe(24);
    expect(new TextDecoder().decode(png.subarray(png.length - 8, png.length - 4))).toBe("IEND");
  });

  it("round-trips RGBA through ffmpeg's PNG decoder exactly", () => {
    const rgba = gradient(64, 48);
    expect(Buffer.compare(Buffer.from(ffmpegDecode(encodePng(rgba, 64, 48))), Buffer.from(rgba))).toBe(0);
  });

  it("accepts I420 and encodes its RGBA conversion", () => {
    const i420 = rgbaToI420(gradient(64, 48), 64, 48);
    const decoded = ffmpegDecode(encodePng(i420, 64, 48));
    expect(Buffer.compare(Buffer.from(decoded), Buffer.from(i420ToRgba(i420, 64, 48)))).toBe(0);
  });

  it("rejects a buffer that is neither RGBA nor I420 for the size", () => {
    expect(() => encodePng(new Uint8Array(10), 4, 4)).toThrow(/neither RGBA nor I420/);
  });
});

describe("I420 conversion (BT.601 limited range)", () => {
  it("maps black, white and grey to the limited-range levels", () => {
    expect(rgbToYuv(0, 0, 0).map(Math.round)).toEqual([16, 128, 128]);
    expect(rgbToYuv(255, 255, 255).map(Math.round)).toEqual([235, 128, 128]);
  });

  it("round-trips flat colours within a couple of levels", () => {
    for (const c of [
      [200, 40, 60],
      [30, 160, 90],
      [240, 230, 220],
      [20, 20, 30],
    ]) {
      const rgba = new Uint8Array(8 * 8 * 4);
      for (let i = 0; i < 64; i++) rgba.set([...c, 255], i * 4);
      const back = i420ToRgba(rgbaToI420(rgba, 8, 8), 8, 8);
      for (let k = 0; k < 3; k++) expect(Math.abs(back[k] - c[k])).toBeLessThanOrEqual(2);
    }
  });

  it("refuses odd sizes", () => {
    expect(() => rgbaToI420(new Uint8Array(3 * 3 * 4), 3, 3)).toThrow(/even/);
  });
});
