// Implements: portrait generation behind one interface, with two implementations: the embedded
// drawing generator (this file: the project's own face drawing, shared/face-drawing/, rasterised by
// an injected SVG-to-PNG function) and an OpenAI-compatible image provider (openai-generator.ts).
// Web-standard: the rasteriser is the entry's (sharp under Bun/Node, portal/portraits/sharp-rasterise.ts).
import { UpstreamError } from "../../shared/errors/api-error.ts";
import { lookFromDescription } from "../../shared/face-drawing/describe.ts";
import { drawFaceSvg } from "../../shared/face-drawing/svg-face.ts";
import { sniffImage, type SniffedImage } from "./image-sniff.ts";
import type { PortraitGeneratorKind } from "../../shared/wire/portraits.ts";

/** SVG text to encoded PNG bytes at width x height. */
export type SvgRasteriser = (svg: string, width: number, height: number) => Promise<Uint8Array>;

export interface GeneratedPortrait extends SniffedImage {
  bytes: Uint8Array;
  /** The drawing seed (embedded) or null. */
  seed: number | null;
  /** The provider's model (image provider) or null. */
  model: string | null;
}

export interface PortraitGenerator {
  readonly kind: PortraitGeneratorKind;
  /**
   * One portrait for the description. `seed` picks the variation (the embedded generator draws
   * the same face for the same seed; a provider is asked afresh each time). Failures throw
   * UpstreamError: status 503 when the generator cannot be used or reached at all, 502 when it
   * answered with something that is not a portrait.
   */
  generate(description: string, seed: number): Promise<GeneratedPortrait>;
}

/** Side of the embedded generator's square PNG. */
export const EMBEDDED_PORTRAIT_SIZE = 768;

export class EmbeddedPortraitGenerator implements PortraitGenerator {
  readonly kind = "embedded" as const;

  constructor(
    private readonly rasterise: SvgRasteriser | null,
    private readonly size = EMBEDDED_PORTRAIT_SIZE,
  ) {}

  async generate(description: string, seed: number): Promise<GeneratedPortrait> {
    if (!this.rasterise) {
      throw new UpstreamError(
        "Portraits cannot be drawn here: this portal has no rasteriser and no image provider (PORTAL_IMAGE_BASE_URL).",
        503,
        false,
      );
    }
    const svg = drawFaceSvg(lookFromDescription(description, seed));
    let bytes: Uint8Array;
    try {
      bytes = await this.rasterise(svg, this.size, this.size);
    } catch (err) {
      throw new UpstreamError(
        `The portrait could not be drawn: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300),
        502,
        true,
      );
    }
    const image = sniffImage(bytes);
    if (!image) throw new UpstreamError("The portrait could not be drawn: the rasteriser did not produce a PNG or JPEG image.", 502, false);
    return { ...image, bytes, seed, model: null };
  }
}
