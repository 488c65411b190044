// Implements: the voice ids of the chatterbox engine (PROVIDERS.md §3.1: voices are file names in
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

/**
 * The reference file name an upload is stored under: the display name sanitized as the server does
 * (`utils.sanitize_filename`: `[A-Za-z0-9._-]`, space → `_`), then `--` and a unique tag, because
 * the server keeps an existing file instead of overwriting it.
 */
export function referenceFileName(displayName: string, ext: "wav" | "mp3", tag: string): string {
  const base =
    displayName
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^A-Za-z0-9_-]+/g, "_")
      .replace(/_+/g, "_")
      .replace(/-{2,}/g, "-")
      .replace(/^[_-]+|[_-]+$/g, "")
      .slice(0, 60) || "voice";
  return `${base}--${tag}.${ext}`;
}

/** A person-readable name for a voice file: "my_voice--1a2b3c4d.wav" → "my voice", "Emily.wav" → "Emily". */
export function displayNameOf(file: string): string {
  const stem = file.replace(/\.[A-Za-z0-9]{1,5}$/, "").replace(/--[0-9a-f]{8}$/, "");
  const words = stem.replace(/[_-]+/g, " ").trim();
  return words || file;
}
