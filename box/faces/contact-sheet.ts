// Implements: the contact sheet of talking frames (issue 10 item 10: "Save a contact sheet (PNG)
// of talking frames of each test photo ... so a person can look at the mouth").
import type { FaceRenderer } from "../render/face-renderer.ts";
import { NEUTRAL_FRAME, type FrameParams } from "../render/frame-params.ts";
import { i420ToRgba } from "../render/i420.ts";
import { encodePng } from "../render/png.ts";
import type { PreparedFace } from "../render/prepared-face.ts";
import { restFrame } from "../render/tone-rest.ts";

/** The frames on a sheet, left to right, top to bottom (the mouth zooms repeat them in order). */
export const CONTACT_SHEET_FRAMES: { label: string; params: FrameParams }[] = [
  { label: "rest", params: NEUTRAL_FRAME },
  { label: "open 0.35", params: { ...NEUTRAL_FRAME, open: 0.35 } },
  { label: "open 0.7", params: { ...NEUTRAL_FRAME, open: 0.7 } },
  { label: "open 1", params: { ...NEUTRAL_FRAME, open: 1 } },
  { label: "ee: open 0.3 wide 0.9", params: { ...NEUTRAL_FRAME, open: 0.3, wide: 0.9 } },
  { label: "oo: open 0.35 round 0.9", params: { ...NEUTRAL_FRAME, open: 0.35, round: 0.9 } },
  { label: "happy, open 0.5", params: { ...restFrame("happy"), open: 0.5 } },
  { label: "surprised, blink 1", params: { ...restFrame("surprised"), blink: 1 } },
];

const COLS = 4;

function blit(dst: Uint8Array, dw: number, src: Uint8Array, sw: number, sh: number, x0: number, y0: number): void {
  for (let y = 0; y < sh; y++) dst.set(src.subarray(y * sw * 4, (y + 1) * sw * 4), ((y0 + y) * dw + x0) * 4);
}

/** A square around the mouth of a frame, scaled to `tile` pixels (bilinear). */
function mouthZoom(rgba: Uint8Array, w: number, h: number, face: PreparedFace, tile: number): Uint8Array {
  const m = face.anchors.mouth;
  const side = m.width * 2.4;
  const x0 = m.x - side / 2;
  const y0 = m.y - side * 0.4;
  const out = new Uint8Array(tile * tile * 4);
  for (let v = 0; v < tile; v++) {
    for (let u = 0; u < tile; u++) {
      const sx = Math.min(w - 1, Math.max(0, x0 + ((u + 0.5) * side) / tile - 0.5));
      const sy = Math.min(h - 1, Math.max(0, y0 + ((v + 0.5) * side) / tile - 0.5));
      const xa = Math.floor(sx),
        ya = Math.floor(sy);
      const xb = Math.min(xa + 1, w - 1),
        yb = Math.min(ya + 1, h - 1);
      const fx = sx - xa,
        fy = sy - ya;
      for (let k = 0; k < 4; k++) {
        const t = rgba[(ya * w + xa) * 4 + k] * (1 - fx) + rgba[(ya * w + xb) * 4 + k] * fx;
        const b = rgba[(yb * w + xa) * 4 + k] * (1 - fx) + rgba[(yb * w + xb) * 4 + k] * fx;
        out[(v * tile + u) * 4 + k] = Math.round(t * (1 - fy) + b * fy);
      }
    }
  }
  return out;
}

/**
 * Renders the sheet's frames of `face` and lays them out: two rows of whole frames, then a row
 * of mouth close-ups (each frame's mouth at twice the tile density). Returns PNG bytes.
 */
export async function renderContactSheet(renderer: FaceRenderer, face: PreparedFace): Promise<Uint8Array> {
  const { width: w, height: h } = face;
  const zoom = Math.floor((w * COLS) / CONTACT_SHEET_FRAMES.length);
  const rows = Math.ceil(CONTACT_SHEET_FRAMES.length / COLS);
  const sheetW = w * COLS;
  const sheetH = h * rows + zoom;
  const sheet = new Uint8Array(sheetW * sheetH * 4).fill(255);
  const frame = new Uint8Array(face.i420.length);
  for (const [i, { params }] of CONTACT_SHEET_FRAMES.entries()) {
    await renderer.render(face, params, frame);
    const rgba = i420ToRgba(frame, w, h);
    blit(sheet, sheetW, rgba, w, h, (i % COLS) * w, Math.floor(i / COLS) * h);
    blit(sheet, sheetW, mouthZoom(rgba, w, h, face, zoom), zoom, zoom, i * zoom, rows * h);
  }
  return encodePng(sheet, sheetW, sheetH);
}
