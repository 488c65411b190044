// The stored name of an uploaded audio file (POST /api/upload): derived from the upload's filename
// so that the same filename lands on the same name (and overwrites), always a plain file name
// inside the volume's `audio/` folder whatever the client sent.
import { createHash } from "node:crypto";
import { DEFAULT_CLIP } from "../live/audio-store.ts";

const MAX_STEM = 80;

/**
 * `../x.wav` → `x.wav`, `a/b.mp3` → `a-b.wav`, `Été 2024!.ogg` → `ete-2024.wav`:
 * the last extension is dropped, accents are folded, every run of anything but ASCII letters,
 * digits and `_` becomes one `-`, leading and trailing `-` go, lower case, at most 80 characters.
 * Nothing left (`.wav`, `日本語.mp3`, an empty name) → `audio-<12 hex of the bytes' sha256>`.
 * The default clip's name and `reply-…` (the box's own kinds) get an `upload-` prefix.
 */
export function storedAudioName(filename: string, bytes: Uint8Array): string {
  const base = filename.replace(/\.[A-Za-z0-9]{1,5}$/, "");
  let stem = base
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^A-Za-z0-9_]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .toLowerCase()
    .slice(0, MAX_STEM)
    .replace(/-+$/, "");
  if (!stem || /^_+$/.test(stem)) stem = `audio-${createHash("sha256").update(bytes).digest("hex").slice(0, 12)}`;
  if (!/^[a-z0-9]/.test(stem)) stem = `audio-${stem}`;
  if (`${stem}.wav` === DEFAULT_CLIP || stem.startsWith("reply-")) stem = `upload-${stem}`;
  return `${stem}.wav`;
}

/** The name another credential's upload (or a file not of this kind) pushes this one to. */
export function subjectTaggedName(name: string, subject: string): string {
  return name.replace(/\.wav$/, `-${createHash("sha256").update(subject).digest("hex").slice(0, 8)}.wav`);
}
