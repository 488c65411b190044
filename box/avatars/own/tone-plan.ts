// Implements: POST /api/avatar `tones` and the rule on when consent_token, framing and
// gesture_amplitude are read: "only when tone builds are actually planned; with photo avatar
// creation disabled, or a video upload carrying neither takes nor ai_generated, they are accepted
// and never used. The returned tones are those actually coming (possibly fewer than asked) and
// note says why. ... without takes or ai_generated the response tones is the base idle face alone."
import { DEFAULT_TONE, TONES, isTone, type Tone } from "../../../shared/wire/tones.ts";
import type { Family } from "./sniff.ts";

export interface TonePlanInput {
  family: Family;
  /** BOX_PHOTO_AVATAR. */
  photoAvatar: boolean;
  aiGenerated: boolean;
  /** The `tones` part as sent (undefined when absent). */
  tonesField: string | undefined;
  /** Tone names of the take parts (as sent, lowercased). */
  takeTones: string[];
}

export interface TonePlan {
  /** Tone builds planned: the only case the build parameters are read. */
  buildsPlanned: boolean;
  /** Names in `tones`, trimmed, lowercased, deduplicated. */
  asked: string[];
  /** Tones actually coming, in the vocabulary's order; the base (neutral) always. */
  tones: Tone[];
  /** Take tones that are used (a take for an unknown tone, or on a still, is not). */
  takeTones: Tone[];
  note: string;
}

const list = (ts: string[]) => ts.join(", ");
const inOrder = (set: Set<string>): Tone[] => TONES.filter((t) => set.has(t));

export function parseTones(field: string | undefined): string[] {
  return [
    ...new Set(
      (field ?? "")
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

export function planTones(i: TonePlanInput): TonePlan {
  const asked = parseTones(i.tonesField);
  const notes: string[] = [];
  const unknown = asked.filter((t) => !isTone(t));
  if (unknown.length) notes.push(`Not tones this box builds: ${list(unknown)} (the tones are ${list([...TONES])}).`);
  const valid = asked.filter(isTone);
  // No `tones` part (or nothing in it): every tone, since each is a resting expression of one face.
  const wanted = new Set<string>(asked.length ? valid : TONES);
  const coming = new Set<string>([DEFAULT_TONE]);
  let takeTones: Tone[] = [];

  if (i.family === "image") {
    if (i.takeTones.length) notes.push("take__ parts are footage for a video upload; they were ignored for a still image.");
    if (!i.photoAvatar) {
      const dropped = valid.filter((t) => t !== DEFAULT_TONE);
      if (dropped.length)
        notes.push(`Photo avatar creation is off on this box, so only the base face is prepared; not coming: ${list(dropped)}.`);
      return { buildsPlanned: false, asked, tones: [DEFAULT_TONE], takeTones, note: notes.join(" ") };
    }
    for (const t of wanted) coming.add(t);
    return { buildsPlanned: true, asked, tones: inOrder(coming), takeTones, note: notes.join(" ") };
  }

  const unknownTakes = [...new Set(i.takeTones.filter((t) => !isTone(t)))];
  if (unknownTakes.length)
    notes.push(`Takes for tones this box does not build were ignored: ${list(unknownTakes.map((t) => `take__${t}`))}.`);
  takeTones = inOrder(new Set(i.takeTones.filter(isTone)));
  if (!takeTones.length && !i.aiGenerated) {
    const dropped = valid.filter((t) => t !== DEFAULT_TONE);
    if (dropped.length)
      notes.push(
        `A video without take__<tone> footage or ai_generated keeps the motion it was filmed with, so only its base idle face is prepared; not coming: ${list(dropped)}.`,
      );
    return { buildsPlanned: false, asked, tones: [DEFAULT_TONE], takeTones, note: notes.join(" ") };
  }
  for (const t of takeTones) coming.add(t);
  if (i.aiGenerated) for (const t of wanted) coming.add(t);
  else {
    const noTake = (asked.length ? valid : []).filter((t) => t !== DEFAULT_TONE && !takeTones.includes(t));
    if (noTake.length) notes.push(`No take__<tone> footage was sent for: ${list(noTake)}; those tones are not coming.`);
    const unasked = takeTones.filter((t) => asked.length && !valid.includes(t));
    if (unasked.length) notes.push(`Takes were sent for tones not named in tones (${list(unasked)}); they are built too.`);
  }
  return { buildsPlanned: true, asked, tones: inOrder(coming), takeTones, note: notes.join(" ") };
}

/** `gesture_amplitude`: a number 0..2 (1 is the stock faces' motion) or none/low/medium/normal/high. */
export const GESTURE_WORDS: Record<string, number> = { none: 0, low: 0.5, medium: 1, normal: 1, high: 1.5 };

export function parseGestureAmplitude(raw: string | undefined): number | null | "invalid" {
  const v = (raw ?? "").trim().toLowerCase();
  if (v === "") return null;
  if (v in GESTURE_WORDS) return GESTURE_WORDS[v];
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 && n <= 2 ? n : "invalid";
}
