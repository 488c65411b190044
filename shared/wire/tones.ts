// The delivery-tone vocabulary: the same list the portal's `/auth/avatars/tones` serves,
// the box builds avatar variants for, and the turn engine may infer.
export const TONES = ["neutral", "happy", "sad", "surprised", "thoughtful", "serious"] as const;
export type Tone = (typeof TONES)[number];
export const DEFAULT_TONE: Tone = "neutral";

export function isTone(v: unknown): v is Tone {
  return typeof v === "string" && (TONES as readonly string[]).includes(v);
}

/** Variant ids: the bare avatar id for `neutral`, `<avatar_id>__<tone>` otherwise. */
export function variantId(avatarId: string, tone: Tone): string {
  return tone === "neutral" ? avatarId : `${avatarId}__${tone}`;
}

export function parseVariantId(id: string): { avatarId: string; tone: string } {
  const i = id.indexOf("__");
  return i < 0 ? { avatarId: id, tone: "neutral" } : { avatarId: id.slice(0, i), tone: id.slice(i + 2) };
}

/** The closed set of call languages (`change_language`, `tool_phrases`). */
export const LANGUAGES = ["en", "es", "fr", "de", "it", "pt", "hi", "ja"] as const;
export type Language = (typeof LANGUAGES)[number];
