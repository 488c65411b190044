import { beforeAll, describe, expect, it } from "vitest";
import { loadStockFaces, type StockFace } from "../avatars/stock/index.ts";
import { FaceRenderer } from "./face-renderer.ts";
import { NEUTRAL_FRAME, type FrameParams } from "./frame-params.ts";
import type { PreparedFace } from "./prepared-face.ts";

const SIZE = 512;
let renderer: FaceRenderer;
let faces: StockFace[];

beforeAll(async () => {
  [renderer, faces] = await Promise.all([FaceRenderer.load({ width: SIZE, height: SIZE }), loadStockFaces(SIZE)]);
}, 120_000);

async function render(face: PreparedFace, p: Partial<FrameParams> = {}): Promise<Uint8Array> {
  return renderer.render(face, { ...NEUTRAL_FRAME, ...p }, new Uint8Array(face.i420.length));
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Mean absolute luma difference inside a box. */
function meanDiff(a: Uint8Array, b: Uint8Array, box: Box): number {
  let sum = 0;
  let n = 0;
  for (let y = Math.round(box.y0); y < Math.round(box.y1); y++) {
    for (let x = Math.round(box.x0); x < Math.round(box.x1); x++) {
      sum += Math.abs(a[y * SIZE + x] - b[y * SIZE + x]);
      n++;
    }
  }
  return sum / n;
}

/** Row of the darkest luma in column x between rows y0 and y1 (the lip seam, the lash line). */
function darkestRow(img: Uint8Array, x: number, y0: number, y1: number): number {
  let best = y0;
  for (let y = Math.round(y0); y < Math.round(y1); y++) {
    if (img[y * SIZE + Math.round(x)] < img[best * SIZE + Math.round(x)]) best = y;
  }
  return best;
}

function mouthBox(f: PreparedFace): Box {
  const m = f.anchors.mouth;
  return { x0: m.x - m.width * 0.7, x1: m.x + m.width * 0.7, y0: m.y - m.width * 0.3, y1: m.y + m.width * 0.8 };
}

function eyeBox(f: PreparedFace, side: "leftEye" | "rightEye"): Box {
  const e = f.anchors[side];
  return { x0: e.x - e.width * 0.6, x1: e.x + e.width * 0.6, y0: e.y - e.height, y1: e.y + e.height };
}

describe("FaceRenderer (built-in face warp)", () => {
  it("runs on the CPU here and returns an I420 frame of the output size", async () => {
    expect(["cpu", "cuda"]).toContain(renderer.executionProvider);
    const frame = await render(faces[0].face, { open: 0.5 });
    expect(frame.length).toBe((SIZE * SIZE * 3) / 2);
  });

  it("returns the input image when every parameter is zero", async () => {
    for (const { face } of faces) {
      const frame = await render(face);
      let worst = 0;
      for (let i = 0; i < frame.length; i++) worst = Math.max(worst, Math.abs(frame[i] - face.i420[i]));
      expect(worst).toBeLessThanOrEqual(1);
    }
  });

  it("gives byte-identical frames for the same inputs", async () => {
    const p = { open: 0.6, smile: 0.4, blink: 0.3, headX: 2.5, headRoll: 0.02, breathe: 0.7 };
    const a = await render(faces[1].face, p);
    await render(faces[0].face, { open: 1 });
    const b = await render(faces[1].face, p);
    expect(Buffer.compare(Buffer.from(a), Buffer.from(b))).toBe(0);
  });

  it("changes the mouth region more the wider the mouth opens", async () => {
    for (const { face } of faces) {
      const neutral = await render(face);
      const diffs: number[] = [];
      for (const open of [0.2, 0.4, 0.6, 0.8, 1]) diffs.push(meanDiff(await render(face, { open }), neutral, mouthBox(face)));
      for (let i = 1; i < diffs.length; i++) expect(diffs[i]).toBeGreaterThan(diffs[i - 1]);
      expect(diffs[0]).toBeGreaterThan(1);
    }
  });

  it("paints a dark mouth interior between the parted lips", async () => {
    for (const { face } of faces) {
      const m = face.anchors.mouth;
      const open = await render(face, { open: 1 });
      const neutral = await render(face);
      // Halfway down the opening, below the teeth and above the tongue.
      const y = Math.round(m.y + m.width * 0.16);
      const at = (img: Uint8Array) => img[y * SIZE + Math.round(m.x)];
      expect(at(open)).toBeLessThan(70);
      expect(at(neutral)).toBeGreaterThan(70);
    }
  });

  it("raises the lip corners for a smile and lowers them for a frown", async () => {
    for (const { face } of faces) {
      const m = face.anchors.mouth;
      const range = [m.y - m.width * 0.25, m.y + m.width * 0.25] as const;
      for (const side of [-1, 1]) {
        const x = m.x + side * m.width * 0.38;
        const rest = darkestRow(await render(face), x, ...range);
        const smile = darkestRow(await render(face, { smile: 1 }), x, ...range);
        const frown = darkestRow(await render(face, { smile: -1 }), x, ...range);
        expect(smile).toBeLessThanOrEqual(rest - 2);
        expect(frown).toBeGreaterThanOrEqual(rest + 2);
      }
    }
  });

  it("closes the eyes on a blink and leaves the mouth alone", async () => {
    for (const { face } of faces) {
      const neutral = await render(face);
      const closed = await render(face, { blink: 1 });
      for (const side of ["leftEye", "rightEye"] as const) {
        const box = eyeBox(face, side);
        expect(meanDiff(closed, neutral, box)).toBeGreaterThan(10);
        // The white of the eye is gone: few bright pixels remain in the opening.
        const e = face.anchors[side];
        const bright = (img: Uint8Array) => {
          let n = 0;
          for (let y = Math.round(e.y - e.height / 2); y < e.y + e.height / 2; y++) {
            for (let x = Math.round(e.x - e.width / 2); x < e.x + e.width / 2; x++) if (img[y * SIZE + x] > 200) n++;
          }
          return n;
        };
        expect(bright(closed)).toBeLessThan(bright(neutral) * 0.2);
      }
      expect(meanDiff(closed, neutral, mouthBox(face))).toBe(0);
    }
  });

  it("lifts the brows for brow > 0 and lowers them for brow < 0", async () => {
    const face = faces[0].face;
    const b = face.anchors.leftBrow;
    const range = [b.y - 20, b.y + 8] as const;
    const rest = darkestRow(await render(face), b.x, ...range);
    expect(darkestRow(await render(face, { brow: 1 }), b.x, ...range)).toBeLessThan(rest - 3);
    expect(darkestRow(await render(face, { brow: -1 }), b.x + 8, ...range)).toBeGreaterThan(
      darkestRow(await render(face), b.x + 8, ...range),
    );
  });

  it("moves the head with headX and keeps the frame corners still", async () => {
    const face = faces[1].face;
    const e = face.anchors.leftEye;
    const shifted = await render(face, { headX: 6 });
    const neutral = await render(face);
    // The eye region shifted by 6 px matches the original.
    const box = eyeBox(face, "leftEye");
    let sum = 0,
      n = 0;
    for (let y = Math.round(box.y0); y < box.y1; y++) {
      for (let x = Math.round(box.x0); x < box.x1; x++) {
        sum += Math.abs(shifted[y * SIZE + x + 6] - neutral[y * SIZE + x]);
        n++;
      }
    }
    expect(sum / n).toBeLessThan(2);
    expect(meanDiff(shifted, neutral, eyeBox(face, "leftEye"))).toBeGreaterThan(5);
    expect(meanDiff(shifted, neutral, { x0: 0, y0: 0, x1: 16, y1: 16 })).toBe(0);
    expect(meanDiff(shifted, neutral, { x0: 0, y0: SIZE - 16, x1: SIZE, y1: SIZE })).toBe(0);
    expect(e.x).toBeGreaterThan(0);
  });

  it("refuses a face of another size", async () => {
    const small = (await loadStockFaces(256))[0].face;
    await expect(renderer.render(small, NEUTRAL_FRAME)).rejects.toThrow(/256x256/);
  });
});

describe("FaceRenderer rest-frame copies", () => {
  it("a face at rest is its own image, copied without running the model", async () => {
    const face = faces[2].face;
    const first = await render(face); // may run the model once, to learn the warp is identity here
    const runs = renderer.modelRuns;
    const again = await render(face);
    expect(renderer.modelRuns, "the model did not run for a frame at rest").toBe(runs);
    expect(Buffer.compare(first, face.i420.subarray(0, first.length))).toBe(0);
    expect(Buffer.compare(again, first)).toBe(0);
  });

  it("the same face and parameters again are a byte-exact copy of the model's frame", async () => {
    const [face, other] = [faces[0].face, faces[1].face];
    const p = { open: 0.4, wide: 0.1, headX: 1.3, headY: -0.7, breathe: 0.6, blink: 0.2 };
    const rendered = await render(face, p);
    const runs = renderer.modelRuns;
    const copy = await render(face, p);
    expect(renderer.modelRuns, "served from the copy").toBe(runs);
    expect(Buffer.compare(copy, rendered)).toBe(0);
    copy.fill(0); // the caller reusing its buffer does not touch the renderer's copy
    expect(Buffer.compare(await render(face, p), rendered)).toBe(0);
    expect(renderer.modelRuns).toBe(runs);
    // Anything else runs the model: another parameter, another face with the same parameters.
    const moved = await render(face, { ...p, open: 0.41 });
    expect(renderer.modelRuns).toBe(runs + 1);
    expect(Buffer.compare(moved, rendered)).not.toBe(0);
    const otherFace = await render(other, p);
    expect(renderer.modelRuns).toBe(runs + 2);
    expect(Buffer.compare(otherFace, rendered)).not.toBe(0);
    // And back: the model's frame again, identical to the first render.
    expect(Buffer.compare(await render(face, p), rendered)).toBe(0);
    expect(renderer.modelRuns).toBe(runs + 3);
  });
});
