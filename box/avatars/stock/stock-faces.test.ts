import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { TONES } from "../../../shared/wire/tones.ts";
import { FaceRenderer } from "../../render/face-renderer.ts";
import { i420Size } from "../../render/i420.ts";
import { encodePng, i420ToRgba, loadStockFaces, renderStillPng, STOCK_FACE_IDS, type StockFace } from "./index.ts";

let faces: StockFace[];
let renderer: FaceRenderer;

beforeAll(async () => {
  [faces, renderer] = await Promise.all([loadStockFaces(256), FaceRenderer.load({ width: 256, height: 256 })]);
});

function decodePng(png: Uint8Array): Uint8Array {
  const r = spawnSync(
    "ffmpeg",
    ["-hide_banner", "-loglevel", "error", "-f", "png_pipe", "-i", "pipe:0", "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"],
    {
      input: png,
      maxBuffer: 64 << 20,
    },
  );
  if (r.status !== 0) throw new Error(r.stderr.toString());
  return new Uint8Array(r.stdout);
}

describe("stock faces", () => {
  it("bundles at least two faces with distinct ids and labels", () => {
    expect(faces.length).toBeGreaterThanOrEqual(2);
    expect(new Set(faces.map((f) => f.id)).size).toBe(faces.length);
    expect(new Set(faces.map((f) => f.label)).size).toBe(faces.length);
    expect(faces.map((f) => f.id)).toEqual([...STOCK_FACE_IDS]);
  });

  it("are I420 images of the asked size with anchors inside the image", () => {
    for (const { face } of faces) {
      expect(face.width).toBe(256);
      expect(face.height).toBe(256);
      expect(face.i420.length).toBe(i420Size(256, 256));
      const a = face.anchors;
      for (const p of [a.face, a.mouth, a.leftEye, a.rightEye, a.leftBrow, a.rightBrow]) {
        expect(p.x).toBeGreaterThan(0);
        expect(p.x).toBeLessThan(256);
        expect(p.y).toBeGreaterThan(0);
        expect(p.y).toBeLessThan(256);
      }
      // Plausible layout: brows over eyes over mouth, eyes either side of the mouth.
      expect(a.leftBrow.y).toBeLessThan(a.leftEye.y);
      expect(a.leftEye.y).toBeLessThan(a.mouth.y);
      expect(a.leftEye.x).toBeLessThan(a.mouth.x);
      expect(a.rightEye.x).toBeGreaterThan(a.mouth.x);
      expect(a.mouth.y).toBeLessThan(a.face.y + a.face.height / 2);
    }
  });

  it("draw the features where the anchors say", () => {
    for (const { face } of faces) {
      const y = face.i420;
      // Anchors are continuous coordinates (pixel centres at i + 0.5).
      const at = (x: number, yy: number) => y[Math.floor(yy) * 256 + Math.floor(x)];
      const e = face.anchors.leftEye;
      const m = face.anchors.mouth;
      // The pupil is dark; the lip seam is darker than the lips just above and below it.
      expect(at(e.x, e.y)).toBeLessThan(60);
      const seam = Math.min(at(m.x, m.y - 1), at(m.x, m.y), at(m.x, m.y + 1));
      expect(seam).toBeLessThan(at(m.x, m.y - m.width * 0.08) - 10);
      expect(seam).toBeLessThan(at(m.x, m.y + m.width * 0.1) - 10);
    }
  });

  it("are lit and textured like a photograph, not flat fills", () => {
    for (const { id, face } of faces) {
      const y = face.i420;
      const at = (x: number, yy: number) => y[Math.floor(yy) * 256 + Math.floor(x)];
      const mean = (x0: number, y0: number, r: number) => {
        let s = 0;
        for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) s += at(x0 + dx, y0 + dy);
        return s / (2 * r + 1) ** 2;
      };
      // Mean distance of a pixel from the mean of its four neighbours: 0 on a flat or smooth fill.
      const grain = (x0: number, y0: number, r: number) => {
        let s = 0;
        for (let dy = -r; dy <= r; dy++) {
          for (let dx = -r; dx <= r; dx++) {
            const [x, yy] = [x0 + dx, y0 + dy];
            s += Math.abs(at(x, yy) - (at(x - 1, yy) + at(x + 1, yy) + at(x, yy - 1) + at(x, yy + 1)) / 4);
          }
        }
        return s / (2 * r + 1) ** 2;
      };
      const a = face.anchors;
      // One key light from the image-left: the image-right cheek falls into shade.
      const cheekY = a.leftEye.y + a.face.height * 0.16;
      const lit = mean(a.face.x - a.face.width * 0.3, cheekY, 4);
      const shaded = mean(a.face.x + a.face.width * 0.3, cheekY, 4);
      expect(lit - shaded, id).toBeGreaterThan(10);
      // Skin has texture, and the background has a photograph's grain.
      expect(grain(a.face.x, a.leftBrow.y - 14, 5), id).toBeGreaterThan(0.6);
      expect(grain(14, 14, 8), id).toBeGreaterThan(0.4);
    }
  });

  it("look different from each other", () => {
    let diff = 0;
    for (let i = 0; i < 256 * 256; i++) diff += Math.abs(faces[0].face.i420[i] - faces[1].face.i420[i]);
    expect(diff / (256 * 256)).toBeGreaterThan(15);
  });

  it("are cached per size", async () => {
    expect(await loadStockFaces(256)).toBe(faces);
  });
});

describe("preview stills", () => {
  it("encode a PNG of the face in each tone's resting expression", async () => {
    const face = faces[0].face;
    const neutral = decodePng(await renderStillPng(renderer, face, "neutral"));
    expect(Buffer.compare(Buffer.from(neutral), Buffer.from(i420ToRgba(face.i420, 256, 256)))).toBe(0);
    for (const tone of TONES.filter((t) => t !== "neutral")) {
      const still = decodePng(await renderStillPng(renderer, face, tone));
      expect(still.length).toBe(256 * 256 * 4);
      expect(Buffer.compare(Buffer.from(still), Buffer.from(neutral))).not.toBe(0);
    }
  });

  it("encodePng is exported for the preview route", () => {
    const png = encodePng(faces[1].face.i420, 256, 256);
    expect(decodePng(png).length).toBe(256 * 256 * 4);
  });
});
