// One avatar as the Avatars page shows it: the portal's library record (a past observation of a
// box: state, detail, visibility) merged with what the running box says now (`GET /api/avatars`:
// loaded groups, `preparing`, the `builds` journal). Pure: no DOM, no requests.
import type { LoadedAvatars } from "../../../../shared/client/index.ts";
import type { LibraryRecord, PublicLibraryRecord } from "../../../../shared/wire/library.ts";
import { elapsed, when } from "../words.ts";
import { avatarLabel } from "./words.ts";

export type { LibraryRecord, PublicLibraryRecord };
export type ShownState = "preparing" | "ready" | "failed";
/** What the running box says of an avatar; `unknown` while the box does not answer. */
export type OnBox = "ready" | "preparing" | "failed" | "absent" | "unknown";

/** One entry of the box's tone build journal (`builds[avatar_id]`). */
export interface BuildEntry {
  tone: string;
  variant_id: string;
  kind: string;
  state: string;
  at: number;
  detail: string;
}

export interface AvatarView {
  id: string;
  name: string;
  state: ShownState;
  onBox: OnBox;
  /** The box's failure sentence, or the record's detail. */
  detail: string;
  /** Tones loaded on the box (empty unless ready there). */
  tones: string[];
  /** Where the preparation is: `queued` or `preparing` (from the journal), else null. */
  phase: "queued" | "preparing" | null;
  /** From the box's journal (its clock, epoch seconds): when the last preparation was queued, and when it ended ready. */
  queuedAt: number | null;
  readyAt: number | null;
  visibility: "private" | "public" | null;
  sourceKind: string;
  createdAt: number | null;
  record: LibraryRecord | null;
}

function builds(box: LoadedAvatars, id: string): BuildEntry[] {
  const b = (box.builds as Record<string, unknown>)[id];
  return Array.isArray(b) ? (b as BuildEntry[]) : [];
}

/** When the journal's last preparation was queued, and when it ended ready (null: not journalled). */
function timesOf(journal: BuildEntry[]): { queuedAt: number | null; readyAt: number | null } {
  let queuedAt: number | null = null;
  let readyAt: number | null = null;
  let before = "";
  // One line per tone: a run starts at the first of its `queued` lines.
  for (const e of journal) {
    if (e.state === "queued" && before !== "queued") [queuedAt, readyAt] = [e.at, null];
    else if (e.state === "ready" && queuedAt !== null && readyAt === null) readyAt = e.at;
    before = e.state;
  }
  return { queuedAt, readyAt };
}

/** The box's word on one avatar id of the caller's. */
export function onBox(
  box: LoadedAvatars | null,
  id: string,
): { state: OnBox; detail: string; tones: string[]; phase: AvatarView["phase"]; queuedAt: number | null; readyAt: number | null } {
  if (!box) return { state: "unknown", detail: "", tones: [], phase: null, queuedAt: null, readyAt: null };
  const journal = builds(box, id);
  const times = timesOf(journal);
  const group = box.groups.find((g) => g.id === id && !g.stock);
  if (group) return { state: "ready", detail: "", tones: [...group.tones], phase: null, ...times };
  const last = journal[journal.length - 1];
  if (box.preparing.some((v) => v === id || v.startsWith(`${id}__`))) {
    return { state: "preparing", detail: "", tones: [], phase: last?.state === "preparing" ? "preparing" : "queued", ...times };
  }
  if (last) {
    const failed = [...journal].reverse().find((e) => e.state === "failed");
    return { state: "failed", detail: failed?.detail ?? "", tones: [], phase: null, ...times };
  }
  return { state: "absent", detail: "", tones: [], phase: null, ...times };
}

/**
 * The caller's avatars, newest first: every library record, plus the box's own uploads the
 * library has not recorded yet (the box writes its observation just after answering the upload).
 */
export function mergeAvatars(
  records: LibraryRecord[],
  box: LoadedAvatars | null,
  uploaded: ReadonlyMap<string, { name: string; at: number }> = new Map(),
): AvatarView[] {
  const views = new Map<string, AvatarView>();
  for (const r of records) {
    const b = onBox(box, r.avatar_id);
    const known = b.state === "ready" || b.state === "preparing" || b.state === "failed";
    views.set(r.avatar_id, {
      id: r.avatar_id,
      name: avatarLabel(r.name) || r.avatar_id,
      state: known ? (b.state as ShownState) : r.state,
      onBox: b.state,
      detail: (b.state === "failed" && b.detail) || r.detail,
      tones: b.tones,
      phase: b.phase,
      queuedAt: b.queuedAt,
      readyAt: b.readyAt,
      visibility: r.visibility,
      sourceKind: r.source_kind,
      createdAt: r.created_at,
      record: r,
    });
  }
  const boxOnly = new Set<string>([...uploaded.keys()]);
  if (box) {
    for (const g of box.groups) if (!g.stock) boxOnly.add(g.id);
    for (const id of Object.keys(box.builds ?? {})) boxOnly.add(id);
  }
  for (const id of boxOnly) {
    if (views.has(id)) continue;
    const b = onBox(box, id);
    const mine = uploaded.get(id);
    if (b.state === "absent" && !mine) continue;
    const group = box?.groups.find((g) => g.id === id);
    views.set(id, {
      id,
      name: (mine ? avatarLabel(mine.name) : "") || group?.label || id,
      state: b.state === "ready" || b.state === "failed" ? b.state : "preparing",
      onBox: b.state,
      detail: b.detail,
      tones: b.tones,
      phase: b.phase ?? (b.state === "unknown" || b.state === "absent" ? "queued" : null),
      queuedAt: b.queuedAt,
      readyAt: b.readyAt,
      visibility: null,
      sourceKind: "unknown",
      createdAt: mine?.at ?? null,
      record: null,
    });
  }
  return [...views.values()].sort((a, b) => (b.createdAt ?? Infinity) - (a.createdAt ?? Infinity) || a.id.localeCompare(b.id));
}

/**
 * Something on the page is still moving: a face the box is preparing, or an upload the library
 * has not recorded yet. (A record that says preparing of a box that is gone does not move.)
 */
export function anyPreparing(views: AvatarView[]): boolean {
  return views.some((v) => v.onBox === "preparing" || (v.record === null && v.state === "preparing"));
}

const KIND_WORDS: Record<string, string> = { photo: "from a photo", image: "from an image", video: "from a video", unknown: "" };

export function sourceWords(kind: string): string {
  return KIND_WORDS[kind] ?? "";
}

/** The state of one avatar, in words; times are the box's own measurements, never a guess. */
export function stateWords(v: AvatarView, nowMs = Date.now()): string {
  if (v.state === "preparing") {
    const sofar = v.queuedAt === null ? "" : ` (${elapsed(nowMs / 1000 - v.queuedAt)} so far)`;
    return v.phase === "preparing"
      ? `Preparing: the box is finding the face and making the avatar${sofar}.`
      : `Waiting: the box prepares it as soon as the avatars before it are done${sofar}.`;
  }
  if (v.state === "failed") {
    return `Could not be prepared${v.detail ? `: ${v.detail.replace(/\.?$/, ".")}` : "."} Upload another photo: one person, face to the camera, in good light.`;
  }
  if (v.onBox === "ready") {
    const took = v.queuedAt !== null && v.readyAt !== null ? ` (prepared in ${elapsed(v.readyAt - v.queuedAt)})` : "";
    return `Ready${took}: use it in the live studio.`;
  }
  if (v.onBox === "unknown") return "Ready when last seen by a box. The box is not answering now, so it cannot be used until it runs.";
  return "Ready when last seen by a box, but it is not on the running box (the box may have been replaced). Upload it again to use it here.";
}

/** When an avatar was added, as the studio writes every moment. */
export function addedWords(epochSeconds: number): string {
  return `added ${when(epochSeconds)}`;
}
