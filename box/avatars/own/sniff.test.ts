import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { encodePng } from "../../render/png.ts";
import { jpegHeader, pngHeader, sniff } from "./sniff.ts";

const JPG = new Uint8Array(readFileSync(new URL("../../../node_modules/@vladmandic/face-api/demo/sample1.jpg", import.meta.url)));
const png = (w: number, h: number) => encodePng(new Uint8Array(w * h * 4).fill(200), w, h);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, at), (at += p.length);
  return out;
};
const ZIP = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Array(200).fill(7)]);

describe("sniff", () => {
  it("names images and videos by their bytes", () => {
    expect(sniff(png(4, 4))).toBe("png");
    expect(sniff(JPG)).toBe("jpeg");
    expect(sniff(new Uint8Array([0, 0, 0, 0x20, ...Buffer.from("ftypisom")]))).toBe("mp4");
    expect(sniff(new Uint8Array([0, 0, 0, 0x14, ...Buffer.from("ftypqt  ")]))).toBe("mov");
    expect(sniff(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, ...Buffer.from("....webm")]))).toBe("webm");
    expect(sniff(ZIP)).toBeNull();
    expect(sniff(new Uint8Array())).toBeNull();
  });
});

describe("pngHeader", () => {
  it("reads the size of a whole PNG", () => {
    expect(pngHeader(png(6, 4))).toEqual({ width: 6, height: 4 });
  });
  it("refuses a truncated PNG and one with a file glued on", () => {
    const p = png(32, 32);
    expect(() => pngHeader(p.subarray(0, p.length - 20))).toThrow(/truncated/);
    expect(() => pngHeader(concat(p, ZIP))).toThrow(/after the end/);
    expect(pngHeader(concat(p, new Uint8Array(64)))).toEqual({ width: 32, height: 32 }); // zero padding is fine
  });
});

describe("jpegHeader", () => {
  it("walks a real JPEG to its end", () => {
    const h = jpegHeader(JPG);
    expect(h.width).toBeGreaterThan(100);
    expect(h.height).toBeGreaterThan(100);
  });
  it("refuses a truncated JPEG and a JPEG with a zip glued on", () => {
    expect(() => jpegHeader(JPG.subarray(0, Math.floor(JPG.length * 0.6)))).toThrow(/truncated/);
    expect(() => jpegHeader(concat(JPG, ZIP))).toThrow(/after the end/);
    expect(() => jpegHeader(JPG.subarray(0, 200))).toThrow();
  });
});
