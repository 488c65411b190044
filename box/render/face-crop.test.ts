import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadStockFaces, type StockFace } from "../avatars/stock/index.ts";
import { FaceRenderer } from "./face-renderer.ts";
import { DEFAULT_CROP_ENVELOPE } from "./face-warp/crop-box.ts";
import { GraphBuilder } from "./face-warp/graph-builder.ts";
import { IO } from "./face-warp/io.ts";
import { NEUTRAL_FRAME, type FrameParams } from "./frame-params.ts";

const SIZE = 512;
const { shift, roll } = DEFAULT_CROP_ENVELOPE;
let full: FaceRenderer;
let crop: FaceRenderer;
let faces: StockFace[];

beforeAll(async () => {
  [full, crop, faces] = await Promise.all([
    FaceRenderer.load({ width: SIZE, height: SIZE, crop: false }),
    FaceRenderer.load({ width: SIZE, height: SIZE }),
    loadStockFaces(SIZE),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([full.dispose(), crop.dispose()]);
});

/** Every kind of motion at its extreme, head motion at the edge of the crop's envelope. */
const CASES: Record<string, Partial<FrameParams>> = {
  neutral: {},
  open: { open: 1 },
  "open round": { open: 1, round: 1 },
  "open wide smile": { open: 1, wide: 1, smile: 1 },
  smile: { smile: 1 },
  frown: { smile: -1, open: 0.5 },
  blink: { blink: 1 },
  "brows up": { brow: 1 },
  "brows down": { brow: -1 },
  "head right down": { headX: shift, headY: shift, headRoll: roll, open: 1, breathe: 1 },
  "head left up": { headX: -shift, headY: -shift, headRoll: -roll, open: 1, round: 1, breathe: -1 },
  "head right up": { headX: shift, headY: -shift, smile: -1, blink: 1 },
  "head left down": { headX: -shift, headY: shift, smile: 1, brow: 1 },
  roll: { headRoll: roll },
  breathe: { breathe: 1 },
  "breathe out": { breathe: -1 },
  talking: { open: 0.7, wide: 0.3, smile: 0.5, blink: 0.5, brow: 0.5, headX: 3, headY: -2, headRoll: 0.02, breathe: 0.6 },
};

/** Largest difference on the luma plane and on the chroma planes. */
function maxDiff(a: Uint8Array, b: Uint8Array): { y: number; uv: number } {
  let y = 0;
  let uv = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (i < SIZE * SIZE) y = Math.max(y, d);
    else uv = Math.max(uv, d);
  }
  return { y, uv };
}

describe("FaceRenderer crop mode", () => {
  it("is on for the built-in model and runs the model on a box well inside the frame", () => {
    expect(crop.crop).toBe(true);
    expect(full.crop).toBe(false);
    for (const { face } of faces) {
      const b = crop.cropBox(face);
      expect(b).toBeDefined();
      const area = (b!.x1 - b!.x0) * (b!.y1 - b!.y0);
      expect(area).toBeLessThan(0.9 * SIZE * SIZE);
      for (const v of [b!.x0, b!.x1, b!.y0, b!.y1]) expect(v % 2).toBe(0);
    }
  });

  it("renders what the whole-frame render does, seams included, for every motion", async () => {
    // One buffer reused across faces and cases, dirtied first: every byte must be rewritten.
    const reused = new Uint8Array((SIZE * SIZE * 3) / 2).fill(7);
    const worst = { y: 0, uv: 0 };
    for (const { face } of faces) {
      for (const p of Object.values(CASES)) {
        const params = { ...NEUTRAL_FRAME, ...p };
        const expected = await full.render(face, params, new Uint8Array(reused.length));
        const d = maxDiff(await crop.render(face, params, reused), expected);
        worst.y = Math.max(worst.y, d.y);
        worst.uv = Math.max(worst.uv, d.uv);
      }
    }
    // Rounding only (the same field sampled on another grid size in float32): 1 measured.
    expect(worst.y).toBeLessThanOrEqual(2);
    expect(worst.uv).toBeLessThanOrEqual(2);
  });

  it("renders head motion beyond the crop's envelope on the whole frame", async () => {
    const face = faces[0].face;
    for (const p of [{ headX: 3 * shift }, { headY: -2 * shift }, { headRoll: 3 * roll }]) {
      const params = { ...NEUTRAL_FRAME, ...p, open: 0.5 };
      const a = await crop.render(face, params, new Uint8Array((SIZE * SIZE * 3) / 2));
      const b = await full.render(face, params, new Uint8Array(a.length));
      expect(Buffer.compare(Buffer.from(a), Buffer.from(b))).toBe(0);
    }
  });

  it("gives a custom model the whole frame unless it opts in, and refuses a fixed-size one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "render-crop-"));
    const model = (dims: (number | string)[], path: string) => {
      const g = new GraphBuilder();
      const y = g.input(IO.y, "uint8", [1, 1, ...dims]);
      const uv = g.input(IO.uv, "uint8", [1, 2, "Hc", "Wc"]);
      g.output(y, IO.yOut, "uint8", [1, 1, ...dims]);
      g.output(uv, IO.uvOut, "uint8", [1, 2, "Hc", "Wc"]);
      writeFileSync(path, g.encode({ name: "identity", doc: "", metadata: {} }));
      return path;
    };
    const anySize = model(["H", "W"], join(dir, "any.onnx"));
    const custom = await FaceRenderer.load({ modelPath: anySize, width: SIZE, height: SIZE });
    expect(custom.crop).toBe(false);
    expect(custom.cropBox(faces[0].face)).toBeUndefined();
    const optIn = await FaceRenderer.load({ modelPath: anySize, width: SIZE, height: SIZE, crop: true });
    expect(optIn.cropBox(faces[0].face)).toBeDefined();
    const out = await optIn.render(faces[0].face, NEUTRAL_FRAME, new Uint8Array(faces[0].face.i420.length));
    expect(Buffer.compare(Buffer.from(out), Buffer.from(faces[0].face.i420))).toBe(0);
    await Promise.all([custom.dispose(), optIn.dispose()]);
    const fixed = model([SIZE, SIZE], join(dir, "fixed.onnx"));
    await expect(FaceRenderer.load({ modelPath: fixed, width: SIZE, height: SIZE, crop: true })).rejects.toThrow(/any H\/W/);
  });
});
