// The mouth (box/render/README.md "The mouth"): the interior in the face's own colours, a soft
// edge with no drawn outline, the jaw turning rigidly, a picture's open mouth closed at rest.
// Stock faces and real photos (face-api's demo pictures via box/faces/testing/photos.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadStockFaces } from "../avatars/stock/index.ts";
import { preparePhoto } from "../faces/prepare-photo.ts";
import { demoPhoto, singlePhoto } from "../faces/testing/photos.ts";
import { FaceRenderer } from "./face-renderer.ts";
import { MOUTH } from "./face-warp/terms-mouth.ts";
import { NEUTRAL_FRAME, type FrameParams } from "./frame-params.ts";
import {
  DEFAULT_MOUTH_PALETTE,
  mouthInterior,
  mouthVector,
  MOUTH_INPUT_SIZE,
  sampleMouthPalette,
  type MouthPalette,
  type Yuv,
} from "./mouth-palette.ts";
import type { PreparedFace } from "./prepared-face.ts";

const SIZE = 512;
let renderer: FaceRenderer;
let full: FaceRenderer;
/** Stock faces, a photo with closed lips (sample2's largest face) and one taken smiling with teeth (single). */
let faces: { id: string; face: PreparedFace }[];
let closedPhoto: PreparedFace;
let teethPhoto: PreparedFace;

beforeAll(async () => {
  [renderer, full] = await Promise.all([
    FaceRenderer.load({ width: SIZE, height: SIZE }),
    FaceRenderer.load({ width: SIZE, height: SIZE, crop: false }),
  ]);
  const stock = await loadStockFaces(SIZE);
  closedPhoto = (await preparePhoto(demoPhoto(2), { size: SIZE })).face;
  teethPhoto = (await preparePhoto(await singlePhoto(), { size: SIZE })).face;
  faces = [
    ...stock.map((s) => ({ id: s.id, face: s.face })),
    { id: "photo closed", face: closedPhoto },
    { id: "photo teeth", face: teethPhoto },
  ];
}, 120_000);

afterAll(async () => {
  await Promise.all([renderer?.dispose(), full?.dispose()]);
});

const render = async (face: PreparedFace, p: Partial<FrameParams> = {}, r = renderer) =>
  (await r.render(face, { ...NEUTRAL_FRAME, ...p }, new Uint8Array(face.i420.length))).slice();

const paletteOf = (f: PreparedFace) => f.palette ?? sampleMouthPalette(f.i420, f.width, f.height, f.anchors);

/** Mean Y, U, V over a box of luma pixels (chroma of the 2x2 blocks it covers). */
function meanYuv(img: Uint8Array, x0: number, y0: number, x1: number, y1: number): Yuv {
  const c = SIZE / 2;
  const s: Yuv = [0, 0, 0];
  let n = 0;
  for (let y = Math.round(y0); y < Math.round(y1); y++) {
    for (let x = Math.round(x0); x < Math.round(x1); x++, n++) {
      const k = (y >> 1) * c + (x >> 1);
      s[0] += img[y * SIZE + x];
      s[1] += img[SIZE * SIZE + k];
      s[2] += img[SIZE * SIZE + c * c + k];
    }
  }
  return [s[0] / n, s[1] / n, s[2] / n];
}

/** The middle of the opening at open 0.7: below the upper teeth, above the tongue. */
function cavityBox(f: PreparedFace): [number, number, number, number] {
  const m = f.anchors.mouth;
  return [m.x - 0.15 * m.width, m.y + 0.09 * m.width, m.x + 0.15 * m.width, m.y + 0.15 * m.width];
}

describe("mouth palette", () => {
  it("is sampled from the face's own pixels: lip line darker than the lips, teeth lit like the face", () => {
    for (const { id, face } of faces) {
      const p = paletteOf(face);
      expect(p.line[0], id).toBeLessThan(p.lip[0]);
      expect(p.lip[0], id).toBeLessThan(p.skin[0] + 10);
      expect(p.teeth[0], id).toBeGreaterThan(p.skin[0]);
      expect(p.teeth[0], id).toBeLessThan(225);
      // prepareFace stores what the renderer would sample itself.
      expect(face.palette, id).toEqual(sampleMouthPalette(face.i420, SIZE, SIZE, face.anchors));
    }
    // The photos' colours are their own, not the stock faces'.
    expect(Math.abs(paletteOf(closedPhoto).lip[2] - paletteOf(faces[0].face).lip[2])).toBeGreaterThan(10);
  });

  it("derives a cavity darker than the lip line, a subdued tongue, and falls back for a mouth off the frame", () => {
    for (const { face } of faces) {
      const p = paletteOf(face);
      const c = mouthInterior(p);
      expect(c.back[0]).toBeLessThan(p.line[0]);
      expect(c.tongue[0]).toBeLessThan(p.lip[0]);
      expect(Math.hypot(c.tongue[1] - 128, c.tongue[2] - 128)).toBeLessThan(Math.hypot(p.lip[1] - 128, p.lip[2] - 128) + 1);
    }
    const off = { ...faces[0].face.anchors, mouth: { x: -50, y: 10, width: 40 } };
    expect(sampleMouthPalette(faces[0].face.i420, SIZE, SIZE, off)).toEqual(DEFAULT_MOUTH_PALETTE);
    const v = mouthVector(DEFAULT_MOUTH_PALETTE, Number.NaN);
    expect(v).toHaveLength(MOUTH_INPUT_SIZE);
    expect(v[MOUTH_INPUT_SIZE - 1]).toBe(0);
  });
});

describe("mouth interior", () => {
  it("is darker than the lips at open 0.7 and takes the hue the palette gives it", async () => {
    for (const { id, face } of faces) {
      const p = paletteOf(face);
      const cav = meanYuv(await render(face, { open: 0.7 }), ...cavityBox(face));
      expect(cav[0], id).toBeLessThan(p.lip[0] - 25);
      const back = mouthInterior(p).back;
      expect(Math.abs(cav[1] - back[1]), id).toBeLessThan(8);
      expect(Math.abs(cav[2] - back[2]), id).toBeLessThan(8);
      // Another palette (bluer, less red lip line and lips): the cavity follows it.
      const shift = (c: Yuv): Yuv => [c[0], c[1] + 20, c[2] - 20];
      const bluer: MouthPalette = { ...p, line: shift(p.line), lip: shift(p.lip) };
      const cav2 = meanYuv(await render({ ...face, palette: bluer }, { open: 0.7 }), ...cavityBox(face));
      expect(cav2[1] - cav[1], id).toBeGreaterThan(10);
      expect(cav[2] - cav2[2], id).toBeGreaterThan(10);
    }
  });

  it("paints teeth no brighter than the face's own teeth colour (a picture's own teeth: no brighter than in it), never paper white", async () => {
    for (const { id, face } of faces) {
      const m = face.anchors.mouth;
      const brightest = (img: Uint8Array, below: number) => {
        let top = 0;
        for (let y = Math.round(m.y - 0.06 * m.width); y < m.y + below; y++) {
          for (let x = Math.round(m.x - 0.2 * m.width); x < m.x + 0.2 * m.width; x++) top = Math.max(top, img[y * SIZE + x]);
        }
        return top;
      };
      const top = brightest(await render(face, { open: 0.7 }), 0.03 * m.width);
      // A picture taken with its teeth showing opens onto those teeth (photo-mouth.ts).
      const own = m.gap ? brightest(face.i420, m.gap) : 0;
      expect(top, id).toBeLessThanOrEqual(Math.max(paletteOf(face).teeth[0] + 2, own));
      expect(top, id).toBeLessThan(226);
      expect(top, id).toBeGreaterThan(paletteOf(face).skin[0] - 20);
    }
  });

  it("has no dark outline: below the darkest row the opening only lightens towards the lower lip", async () => {
    for (const { id, face } of faces) {
      const m = face.anchors.mouth;
      const img = await render(face, { open: 0.7 });
      const x = Math.round(m.x);
      const col: number[] = [];
      for (let y = Math.round(m.y + 0.03 * m.width); y < m.y + 0.5 * m.width; y++) col.push(img[y * SIZE + x]);
      const darkest = col.indexOf(Math.min(...col));
      // From the darkest row down to the lower lip (where the column reaches the lips' colour).
      const lip = paletteOf(face).lip[0];
      let dip = 0;
      let best = col[darkest];
      for (const v of col.slice(darkest)) {
        if (v >= lip - 5) break;
        best = Math.max(best, v);
        dip = Math.max(dip, best - v);
      }
      expect(dip, id).toBeLessThan(10);
    }
  });

  it("is the same for a face without a stored palette (sampled from its pixels) and byte-identical at rest", async () => {
    for (const { id, face } of faces) {
      const bare: PreparedFace = { ...face, palette: undefined };
      expect(
        Buffer.compare(
          Buffer.from(await render(bare, { open: 0.6, smile: 0.3 })),
          Buffer.from(await render(face, { open: 0.6, smile: 0.3 })),
        ),
        id,
      ).toBe(0);
      if (face.anchors.mouth.gap) continue;
      expect(Buffer.compare(Buffer.from(await render(face)), Buffer.from(face.i420)), id).toBe(0);
    }
  });
});

/** The integer shift s (0..maxShift) that best maps rest[y - s] onto open[y] over a box, and its mean error. */
function bestShift(rest: Uint8Array, open: Uint8Array, x0: number, y0: number, x1: number, y1: number, maxShift: number) {
  let best = { s: 0, err: Infinity };
  for (let s = 0; s <= maxShift; s++) {
    let sum = 0,
      n = 0;
    for (let y = Math.round(y0); y < Math.round(y1); y++) {
      for (let x = Math.round(x0); x < Math.round(x1); x++, n++) sum += Math.abs(open[(y + s) * SIZE + x] - rest[y * SIZE + x]);
    }
    if (sum / n < best.err) best = { s, err: sum / n };
  }
  return best;
}

describe("jaw", () => {
  it("drops the chin rigidly at full opening, by at most 12% of the face height, and leaves the collar", async () => {
    for (const { id, face } of faces.filter((f) => !f.face.anchors.mouth.gap)) {
      const { x: fx, width: fW, height: fH } = face.anchors.face;
      const chin = face.anchors.face.y + fH / 2;
      const rest = await render(face);
      const open = await render(face, { open: 1 });
      // The chin (below where the lower lip hands over to the jaw, down to just under its tip)
      // reappears lower, unbent.
      const m = face.anchors.mouth;
      const top = Math.max(chin - 0.1 * fH, m.y + MOUTH.jawBlend[1] * m.width);
      // Under the mouth (the chin of a face turned a little is off the cheeks' midpoint).
      const shift = bestShift(rest, open, m.x - 0.06 * fW, top, m.x + 0.06 * fW, chin + 0.01 * fH, Math.ceil(0.2 * fH));
      expect(shift.err, id).toBeLessThan(2.5);
      expect(shift.s, id).toBeGreaterThan(0.05 * fH);
      expect(shift.s, id).toBeLessThanOrEqual(MOUTH.jawCap * fH + 1);
      // Below the squeezed band under the chin nothing moves.
      const below = meanYuv(open, fx - 0.4 * fW, chin + 0.23 * fH, fx + 0.4 * fW, Math.min(SIZE, chin + 0.4 * fH));
      const belowRest = meanYuv(rest, fx - 0.4 * fW, chin + 0.23 * fH, fx + 0.4 * fW, Math.min(SIZE, chin + 0.4 * fH));
      expect(below, id).toEqual(belowRest);
    }
  });
});

describe("a picture taken with the lips apart", () => {
  /** Bright, nearly grey pixels (teeth, not the lit skin around the lips) between the lips around the seam. */
  function teethPixels(img: Uint8Array, f: PreparedFace): number {
    const m = f.anchors.mouth;
    const p = paletteOf(f);
    const greyer = 0.6 * Math.hypot(p.skin[1] - 128, p.skin[2] - 128);
    let n = 0;
    for (let y = Math.round(m.y - 0.05 * m.width); y < m.y + (m.gap ?? 0) + 0.05 * m.width; y++) {
      for (let x = Math.round(m.x - 0.3 * m.width); x < m.x + 0.3 * m.width; x++) {
        const [, u, v] = meanYuv(img, x, y, x + 1, y + 1);
        if (img[y * SIZE + x] > p.skin[0] + 15 && Math.hypot(u - 128, v - 128) < greyer) n++;
      }
    }
    return n;
  }

  it("is measured when preparing the photo (the teeth photo), not for closed lips", () => {
    const m = teethPhoto.anchors.mouth;
    expect(m.gap).toBeGreaterThan(0.12 * m.width);
    expect(m.gap).toBeLessThan(0.3 * m.width);
    expect(closedPhoto.anchors.mouth.gap).toBeUndefined();
  });

  it("closes at rest (its teeth hidden) and opens from there like any face", async () => {
    const rest = await render(teethPhoto);
    const before = teethPixels(teethPhoto.i420, teethPhoto);
    expect(before).toBeGreaterThan(200);
    expect(teethPixels(rest, teethPhoto)).toBeLessThan(before * 0.15);
    // Opening paints its own interior: dark in the middle, as for a closed-mouth face.
    const cav = meanYuv(await render(teethPhoto, { open: 0.7 }), ...cavityBox(teethPhoto));
    expect(cav[0]).toBeLessThan(paletteOf(teethPhoto).lip[0] - 25);
    // The same face told its lips are closed keeps its picture at rest.
    const asIs: PreparedFace = { ...teethPhoto, anchors: { ...teethPhoto.anchors, mouth: { ...teethPhoto.anchors.mouth, gap: 0 } } };
    expect(Buffer.compare(Buffer.from(await render(asIs)), Buffer.from(teethPhoto.i420))).toBe(0);
  });

  it("opens onto its own teeth: under the parted upper lip the picture's own pixels, not painted ones", async () => {
    const m = teethPhoto.anchors.mouth;
    const img = await render(teethPhoto, { open: 0.35 });
    // The photo's band under its upper lip (its upper teeth) found again in the frame, at most a
    // few pixels higher (the upper lip lifts a little as the mouth opens).
    const x0 = m.x - 0.2 * m.width,
      x1 = m.x + 0.2 * m.width;
    let best = Infinity;
    for (let s = -Math.ceil(0.06 * m.width); s <= 0; s++) {
      let sum = 0,
        n = 0;
      for (let y = Math.round(m.y); y < m.y + 0.05 * m.width; y++) {
        for (let x = Math.round(x0); x < x1; x++, n++) sum += Math.abs(img[(y + s) * SIZE + x] - teethPhoto.i420[y * SIZE + x]);
      }
      best = Math.min(best, sum / n);
    }
    expect(best).toBeLessThan(5);
  });

  it("renders in crop mode what the whole frame does (closing reaches no further than opening)", async () => {
    const stock = faces[0].face;
    const gapped: PreparedFace = {
      ...stock,
      anchors: { ...stock.anchors, mouth: { ...stock.anchors.mouth, gap: 0.3 * stock.anchors.mouth.width } },
    };
    for (const face of [gapped, teethPhoto]) {
      for (const p of [{}, { open: 0.2 }, { open: 1, smile: 0.5 }, { headX: 8, headY: -8, headRoll: 0.06, breathe: 1 }]) {
        const a = await render(face, p);
        const b = await render(face, p, full);
        let worst = 0;
        for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
        expect(worst).toBeLessThanOrEqual(2);
      }
    }
  });
});
