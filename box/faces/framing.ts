// Implements: the `framing` field of avatar uploads (spec "Box: avatars and clips": "Crop and
// framing for generated clips"): how much of the person the square frame shows.

export interface Framing {
  name: FramingName;
  /** Face height (hairline to chin) as a fraction of the frame height. */
  faceHeight: number;
  /** Where the face's middle (halfway hairline to chin) sits, as a fraction of the frame height from the top. */
  faceCentreY: number;
}

export type FramingName = "head" | "face" | "bust";

/**
 * The accepted values. Stock faces (box/avatars/stock) are drawn at about 55% and 0.47.
 * - `head` (default): head and shoulders, face about 45% of the frame height.
 * - `face`: tighter, face about 58% (little neck; hair may be cut at the top).
 * - `bust`: wider, face about 33%, head, shoulders and chest.
 */
export const FRAMINGS: Record<FramingName, Framing> = {
  head: { name: "head", faceHeight: 0.45, faceCentreY: 0.43 },
  face: { name: "face", faceHeight: 0.58, faceCentreY: 0.47 },
  bust: { name: "bust", faceHeight: 0.33, faceCentreY: 0.36 },
};

export const DEFAULT_FRAMING: FramingName = "head";

/** The framing for a field value (case and surrounding spaces ignored); `note` says when the value was not understood. */
export function parseFraming(value: string | undefined): { framing: Framing; note?: string } {
  const v = (value ?? "").trim().toLowerCase();
  if (v === "") return { framing: FRAMINGS[DEFAULT_FRAMING] };
  if (v in FRAMINGS) return { framing: FRAMINGS[v as FramingName] };
  return {
    framing: FRAMINGS[DEFAULT_FRAMING],
    note: `framing "${value!.trim().slice(0, 40)}" is not one of ${Object.keys(FRAMINGS).join(", ")}; "${DEFAULT_FRAMING}" was used`,
  };
}
