// Implements: where Clip state rows live: per avatar a `clips.json` beside its MP4s, written to a
// temp name and renamed. A build renders into a `clip-<tone>.mp4.part-*` name and is renamed to
// `clip-<tone>.mp4` only when kept. At start no build runs, so a `generating` row and a `.part-*`
// file are what a kill -9 or a power cut left: the row becomes `failed` with a sentence (not
// rebuilt: a build is metered and was asked for once) and the file is removed.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isTone, variantId, type Tone } from "../../../shared/wire/tones.ts";

export type ClipState = "generated" | "generating" | "failed";

export interface ClipRow {
  tone: Tone;
  state: ClipState;
  variant_id: string;
  duration_s: number;
  updated_at: number;
  detail: string;
}

export type ClipJournal = Partial<Record<Tone, ClipRow>>;

const JOURNAL = "clips.json";
const PART = /^clip-[a-z]+\.mp4\.part-/;
export const CUT_OFF = "The build was cut off by a restart of the box; request the clip again.";

export const clipFile = (dir: string, tone: Tone) => join(dir, `clip-${tone}.mp4`);

let staged = 0;
/** A build's own output name until it is kept (unique within this process). */
export const stagedClipFile = (dir: string, tone: Tone) => `${clipFile(dir, tone)}.part-${process.pid}-${++staged}`;

export function readJournal(dir: string): ClipJournal {
  try {
    return JSON.parse(readFileSync(join(dir, JOURNAL), "utf8"));
  } catch {
    return {};
  }
}

export function clipRow(avatarId: string, tone: Tone, state: ClipState, duration: number, detail: string): ClipRow {
  return { tone, state, variant_id: variantId(avatarId, tone), duration_s: duration, updated_at: Math.floor(Date.now() / 1000), detail };
}

export function writeJournalRow(dir: string, row: ClipRow): ClipRow {
  mkdirSync(dir, { recursive: true });
  writeJournal(dir, { ...readJournal(dir), [row.tone]: row });
  return row;
}

function writeJournal(dir: string, journal: ClipJournal): void {
  const tmp = join(dir, `${JOURNAL}.tmp`);
  writeFileSync(tmp, JSON.stringify(journal));
  renameSync(tmp, join(dir, JOURNAL));
}

/** At start, before any build: cut-off rows become `failed`, partial files go. Returns what changed. */
export function recoverJournal(dir: string): { failed: Tone[]; removed: string[] } {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { failed: [], removed };
  }
  for (const f of names) {
    if (!PART.test(f) && f !== `${JOURNAL}.tmp`) continue;
    rmSync(join(dir, f), { force: true });
    removed.push(f);
  }
  const journal = readJournal(dir);
  const failed = (Object.keys(journal) as Tone[]).filter((tone) => isTone(tone) && journal[tone]?.state === "generating");
  if (failed.length) {
    const at = Math.floor(Date.now() / 1000);
    for (const tone of failed) journal[tone] = { ...journal[tone]!, state: "failed", duration_s: 0, updated_at: at, detail: CUT_OFF };
    writeJournal(dir, journal);
  }
  return { failed, removed };
}
