// Implements: docs/api-notes.md "Perception": which picture, if any, goes with a turn's words:
// the session's latest (prepared before the turn: no decoding here), only when it is recent and
// the caller's chosen model reads images. Nothing when perception is off or no video was sent.
import type { ImagePart } from "../llm/types.ts";
import { acceptsImages } from "../llm/vision-models.ts";
import type { Picture } from "./perception.ts";

export interface Sight {
  picture(): Picture | null;
}

export function pictureFor(sight: Sight | null | undefined, modelId: string, visionModels: readonly string[]): ImagePart | undefined {
  if (!sight || !acceptsImages(modelId, visionModels)) return undefined;
  const p = sight.picture();
  return p ? { mediaType: "image/jpeg", data: p.jpeg } : undefined;
}
