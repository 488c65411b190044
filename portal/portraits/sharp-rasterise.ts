// The embedded portrait generator's rasteriser under Bun and Node: sharp's bundled libvips reads
// SVG with librsvg (the same renderer the box's stock faces go through, via ffmpeg). Not imported by
// the Web-standard core: portal/server.ts hands it in.
import type { SvgRasteriser } from "./generator.ts";

/** SVG text to a PNG of exactly width x height, drawn at that resolution (not scaled up from 512). */
export const sharpRasterise: SvgRasteriser = async (svg, width, height) => {
  const { default: sharp } = await import("sharp");
  const drawn = Number(/<svg[^>]*\swidth="(\d+(?:\.\d+)?)"/.exec(svg)?.[1] ?? 512);
  const density = Math.min(2400, (72 * Math.max(width, height)) / drawn);
  const png = await sharp(Buffer.from(svg), { density }).resize(width, height, { fit: "fill" }).png({ compressionLevel: 9 }).toBuffer();
  return new Uint8Array(png.buffer, png.byteOffset, png.length);
};
