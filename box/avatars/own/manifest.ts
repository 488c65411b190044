// Implements: the own-avatar record on the volume (`manifest.json` beside the source and the
// prepared face); the spec's library record fields (source_kind, state, detail, times) plus what
// the box needs to prepare again after a restart.
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

export const SourceKind = Type.Union([Type.Literal("photo"), Type.Literal("image"), Type.Literal("video")]);
export type SourceKind = Static<typeof SourceKind>;
export const OwnState = Type.Union([Type.Literal("preparing"), Type.Literal("ready"), Type.Literal("failed")]);
export type OwnState = Static<typeof OwnState>;

/** One line of the `builds` journal (GET /api/avatars), per tone. */
export const BuildEntry = Type.Object({
  tone: Type.String(),
  variant_id: Type.String(),
  /** `face`: the tone's resting face; clip builds add their own kind. */
  kind: Type.String(),
  state: Type.String(),
  at: Type.Integer(),
  detail: Type.String(),
});
export type BuildEntry = Static<typeof BuildEntry>;

export const Take = Type.Object({
  tone: Type.String(),
  n: Type.Integer(),
  file: Type.String(),
  bytes: Type.Integer(),
  duration_s: Type.Number(),
});
export type Take = Static<typeof Take>;

export const OwnManifest = Type.Object({
  version: Type.Literal(1),
  avatar_id: Type.String(),
  /** Credential subject of the uploader (`key:<digest>`, `owner:<email>`, `open`). */
  owner: Type.String(),
  /** The filename as uploaded (display only; never a path). */
  name: Type.String(),
  source_kind: SourceKind,
  /** `source.<ext>` in the avatar's folder. */
  source_file: Type.String(),
  source_bytes: Type.Integer(),
  sha256: Type.String(),
  /** Tones named in `tones` (as sent, deduplicated). */
  tones_asked: Type.Array(Type.String()),
  /** Tones actually coming (neutral first). */
  tones: Type.Array(Type.String()),
  note: Type.String(),
  state: OwnState,
  detail: Type.String(),
  /** True when tone builds were planned, the only case consent_token/framing/gesture_amplitude are read. */
  builds_planned: Type.Boolean(),
  consent_token: Type.Union([Type.String(), Type.Null()]),
  framing: Type.Union([Type.String(), Type.Null()]),
  gesture_amplitude: Type.Union([Type.Number(), Type.Null()]),
  ai_generated: Type.Boolean(),
  takes: Type.Array(Take),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
  builds: Type.Array(BuildEntry),
});
export type OwnManifest = Static<typeof OwnManifest>;

export function parseManifest(text: string): OwnManifest | null {
  try {
    const v = JSON.parse(text);
    return Value.Check(OwnManifest, v) ? v : null;
  } catch {
    return null;
  }
}

/** What `face.json` holds beside `face.i420`. */
export const FaceMeta = Type.Object({
  width: Type.Integer(),
  height: Type.Integer(),
  i420_bytes: Type.Integer(),
  anchors: Type.Unknown(),
  landmarks: Type.Array(Type.Object({ x: Type.Number(), y: Type.Number() })),
  faces_found: Type.Integer(),
  detail: Type.String(),
});
export type FaceMeta = Static<typeof FaceMeta>;

export function parseFaceMeta(text: string): FaceMeta | null {
  try {
    const v = JSON.parse(text);
    return Value.Check(FaceMeta, v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * What `loop.json` (the base video) or `loop-<tone>.json` (a `take__<tone>`) holds beside its
 * `.i420`: the idle loop of a video face, `count` I420 frames of `frame_bytes` back to back,
 * played ping-pong, with the renderer's 19 anchors per frame (box/render/README.md order).
 */
export const LoopMeta = Type.Object({
  version: Type.Literal(1),
  width: Type.Integer(),
  height: Type.Integer(),
  fps: Type.Number(),
  count: Type.Integer({ minimum: 1 }),
  frame_bytes: Type.Integer(),
  play: Type.Literal("pingpong"),
  /** The file the loop was cut from (`source.<ext>` or `takes/<tone>__<n>.<ext>`). */
  from: Type.String(),
  start_s: Type.Number(),
  seconds: Type.Number(),
  anchors: Type.Array(Type.Array(Type.Number(), { minItems: 19, maxItems: 19 })),
  /** Base loop only: the tones whose take became their own loop. */
  take_tones: Type.Array(Type.String()),
  detail: Type.String(),
});
export type LoopMeta = Static<typeof LoopMeta>;

export function parseLoopMeta(text: string): LoopMeta | null {
  try {
    const v = JSON.parse(text);
    return Value.Check(LoopMeta, v) && v.anchors.length === v.count ? v : null;
  } catch {
    return null;
  }
}

/** The journal keeps the last entries only: a face re-uploaded a hundred times stays small. */
export const JOURNAL_MAX = 60;

export function journal(m: OwnManifest, entries: BuildEntry[]): void {
  m.builds.push(...entries);
  if (m.builds.length > JOURNAL_MAX) m.builds.splice(0, m.builds.length - JOURNAL_MAX);
}
