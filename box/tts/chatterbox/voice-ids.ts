// Implements: the voice ids of the chatterbox engine (docs/providers.md §3.1: voices are file names in
// the server's `voices/` or `reference_audio/` folder). A predefined voice's id is its file name
// ("Emily.wav"); a cloned voice's id is `clone:` + its reference file name, so `/tts` knows the
// voice_mode without asking the server. Ids are checked before any request: the server joins
// them onto a folder path.
import { VoiceProviderError } from "../engine.ts";

export const CHATTERBOX_PROVIDER = "chatterbox";
export const CLONE_PREFIX = "clone:";
const MAX_ID = 128;

export type ChatterboxVoiceRef = { mode: "predefined"; file: string } | { mode: "clone"; file: string };

/** The file and voice_mode behind an id; a VoiceProviderError 404 (refused) when it is unusable. */
export function parseVoiceId(id: string): ChatterboxVoiceRef {
  const why = invalidReason(id);
  if (why) throw new VoiceProviderError(`Chatterbox voice ${shown(id)} is not a valid voice id (${why}).`, 404, false, "refused");
  return id.startsWith(CLONE_PREFIX) ? { mode: "clone", file: id.slice(CLONE_PREFIX.length) } : { mode: "predefined", file: id };
}

export function cloneVoiceId(file: string): string {
  return CLONE_PREFIX + file;
}

function invalidReason(id: string): string | null {
  if (typeof id !== "string" || id.length === 0) return "it is empty";
  if (id.length > MAX_ID) return `it is longer than ${MAX_ID} characters`;
  if (/[\u0000-\u001f\u007f]/.test(id)) return "it holds control characters";
  if (/[/\\]/.test(id) || id.includes("..")) return 'it may not hold "/", "\\" or ".."';
  const file = id.startsWith(CLONE_PREFIX) ? id.slice(CLONE_PREFIX.length) : id;
  if (file.trim() === "") return "it names no file";
  return null;
}

/** The id quoted for a message: control characters escaped, long ids cut. */
function shown(id: string): string {
  const s = JSON.stringify(String(id));
  return s.length > 60 ? `${s.slice(0, 57)}…"` : s;
}

/** Hex digits of the owner tag in a clone's file name (see clone-owners.ts). */
export const OWNER_TAG_LENGTH = 16;
const OWNED = new RegExp(`--([0-9a-f]{${OWNER_TAG_LENGTH}})-[0-9a-f]{8}\\.(wav|mp3)$`);
const UNOWNED = /--[0-9a-f]{8}\.(wav|mp3)$/;

/**
 * The reference file name an upload is stored under: the display name sanitized as the server does
 * (`utils.sanitize_filename`: `[A-Za-z0-9._-]`, space → `_`), then `--`, the uploader's owner tag
 * and a unique tag, because the server keeps an existing file instead of overwriting it. The owner
 * travels with the file, so a clone stays its uploader's whichever box lists it.
 */
export function referenceFileName(displayName: string, ext: "wav" | "mp3", unique: string, owner: string): string {
  const base =
    displayName
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^A-Za-z0-9_-]+/g, "_")
      .replace(/_+/g, "_")
      .replace(/-{2,}/g, "-")
      .replace(/^[_-]+|[_-]+$/g, "")
      .slice(0, 60) || "voice";
  return `${base}--${owner}-${unique}.${ext}`;
}

/**
 * Whose a reference file is: `{owner}` (its owner tag) when the box cloned it for a credential;
 * `unowned` when the box cloned it before clones had owners (`<name>--<8 hex>.wav`); `server` for a
 * file the box did not name (put on the server by its operator).
 */
export function referenceOwnerOf(file: string): { owner: string } | "unowned" | "server" {
  const owned = OWNED.exec(file);
  if (owned) return { owner: owned[1] };
  return UNOWNED.test(file) ? "unowned" : "server";
}

/** A person-readable name for a voice file: "my_voice--<owner>-1a2b3c4d.wav" → "my voice", "Emily.wav" → "Emily". */
export function displayNameOf(file: string): string {
  const stem = file.replace(/\.[A-Za-z0-9]{1,5}$/, "").replace(new RegExp(`--(?:[0-9a-f]{${OWNER_TAG_LENGTH}}-)?[0-9a-f]{8}$`), "");
  const words = stem.replace(/[_-]+/g, " ").trim();
  return words || file;
}
