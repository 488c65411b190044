// Which portrait generator a portal uses: the OpenAI-compatible image provider when one is
// configured (PORTAL_IMAGE_BASE_URL), else the embedded drawing generator with the entry's
// rasteriser; with neither, every generation answers 503 `portrait_generator_unavailable`.
import { EmbeddedPortraitGenerator, type PortraitGenerator, type SvgRasteriser } from "./generator.ts";
import { OpenAiImageGenerator, type ImageProviderOptions } from "./openai-generator.ts";

export interface PortraitOptions {
  /** SVG to PNG for the embedded drawing generator (sharp under Bun/Node); none: it cannot draw. */
  rasterise?: SvgRasteriser | null;
  /** An OpenAI-compatible image provider, used instead of the drawing generator. */
  imageProvider?: ImageProviderOptions | null;
  /** Side of the drawn square PNG; default 768. */
  size?: number;
}

export function createPortraitGenerator(o: PortraitOptions = {}): PortraitGenerator {
  if (o.imageProvider) return new OpenAiImageGenerator(o.imageProvider);
  return new EmbeddedPortraitGenerator(o.rasterise ?? null, o.size);
}
