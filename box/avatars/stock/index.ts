// Implements: the bundled stock avatars (spec "Avatars": `stock` groups, tone variants and
// `GET /api/avatar/preview` stills). Faces are drawn by our own code (SVG rasterised by
// ffmpeg's librsvg decoder) with the drawing code both planes share (shared/face-drawing/);
// their anchors are known by construction.
import type { FaceRenderer } from "../../render/face-renderer.ts";
import { prepareFace, scaleAnchors, type PreparedFace } from "../../render/prepared-face.ts";
import { encodePng } from "../../render/png.ts";
import { restFrame } from "../../render/tone-rest.ts";
import type { Tone } from "../../../shared/wire/tones.ts";
import { STOCK_LOOKS } from "./looks.ts";
import { rasteriseSvg, type RasteriseOptions } from "./rasterise.ts";
import { CANVAS, drawFaceSvg } from "../../../shared/face-drawing/svg-face.ts";
import { faceAnchors } from "./face-anchors.ts";

export { encodePng } from "../../render/png.ts";
export { i420ToRgba, rgbaToI420 } from "../../render/i420.ts";
export { TONE_REST, restFrame } from "../../render/tone-rest.ts";

export interface StockFace {
  id: string;
  label: string;
  face: PreparedFace;
}

/** Ids of the stock faces, available without rasterising anything. */
export const STOCK_FACE_IDS: readonly string[] = STOCK_LOOKS.map((l) => l.id);

const cache = new Map<number, Promise<StockFace[]>>();

/** The stock faces rendered at size x size (even), cached per size. */
export function loadStockFaces(size: number, opts: RasteriseOptions = {}): Promise<StockFace[]> {
  if (!Number.isInteger(size) || size < 64 || size % 2) throw new Error(`stock face size must be an even integer >= 64, got ${size}`);
  let hit = cache.get(size);
  if (!hit) {
    hit = Promise.all(
      STOCK_LOOKS.map(async (look) => {
        const rgba = await rasteriseSvg(drawFaceSvg(look), size, size, opts);
        const anchors = scaleAnchors(faceAnchors(look.geo), size / CANVAS);
        return { id: look.id, label: look.label, face: prepareFace(rgba, size, size, anchors) };
      }),
    );
    hit.catch(() => cache.delete(size));
    cache.set(size, hit);
  }
  return hit;
}

/** The SVG source of a stock face (for tooling and docs). */
export function stockFaceSvg(id: string): string | undefined {
  const look = STOCK_LOOKS.find((l) => l.id === id);
  return look && drawFaceSvg(look);
}

/** PNG still of a face in a tone: the face rendered with that tone's resting expression. */
export async function renderStillPng(renderer: FaceRenderer, face: PreparedFace, tone: Tone): Promise<Uint8Array> {
  const frame = await renderer.render(face, restFrame(tone), new Uint8Array(face.i420.length));
  return encodePng(frame, face.width, face.height);
}
