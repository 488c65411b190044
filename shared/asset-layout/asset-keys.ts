// Implements: Avatar asset (the archived media's place in the store). The key layout both planes
// agree on: a box writes the portrait and each generated clip under these keys (box/avatars/archive/),
// the portal lists and signs them (portal/assets/, portal/storage/). Web-standard (WebCrypto only).
//
//   avatars/<sha256 hex of the owner's e-mail>/<avatar_id>/portrait.png
//   avatars/<sha256 hex of the owner's e-mail>/<avatar_id>/clip-<tone>.mp4
//   portraits/<sha256 hex of the owner's e-mail>/<portrait_id>.<png|jpg>   (portal only: generated portraits)
//
// One folder per (person, avatar id): the library's unit (fact 8's partition). The e-mail is hashed
// so that no address ever appears in a key or in a URL handed to a browser.
import { TONES, isTone, type Tone } from "../wire/tones.ts";

/** An avatar id as the box makes them (box/avatars/own/ids.ts SAFE_ID): anything else is nobody's. */
export const AVATAR_ID = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,63}$/;

const SEGMENT = "[a-z0-9](?:[a-z0-9_-]|\\.(?=[a-z0-9])){0,127}";
/**
 * A storage key: 1 to 8 `/`-separated segments of lowercase letters, digits, `_`, `-` and single
 * inner dots. No empty segment, no `.` or `..`, no leading dot, nothing that needs percent-encoding:
 * a key is a path inside the store as it is, and the path of its signed URL as it is.
 */
export const ASSET_KEY = new RegExp(`^${SEGMENT}(?:/${SEGMENT}){0,7}$`);
export const MAX_KEY_LENGTH = 512;

export function isAssetKey(key: unknown): key is string {
  return typeof key === "string" && key.length <= MAX_KEY_LENGTH && ASSET_KEY.test(key);
}

export const PORTRAIT_FILE = "portrait.png";
export const clipFile = (tone: Tone) => `clip-${tone}.mp4`;

const folders = new Map<string, string>();

/** The owner's folder name: hex SHA-256 of the e-mail as the library stores it (trimmed, lowercase). */
export async function ownerFolder(owner: string): Promise<string> {
  const known = folders.get(owner);
  if (known) return known;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(owner.trim().toLowerCase()));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  // Remembered: the asset route asks on every request. Bounded; a forgotten one is just hashed again.
  if (folders.size >= 10_000) folders.clear();
  folders.set(owner, hex);
  return hex;
}

/** `avatars/<owner>/<avatar_id>/`: everything archived for one avatar of one person. */
export async function avatarPrefix(owner: string, avatarId: string): Promise<string> {
  if (!AVATAR_ID.test(avatarId)) throw new Error(`not an avatar id: ${JSON.stringify(avatarId).slice(0, 80)}`);
  return `avatars/${await ownerFolder(owner)}/${avatarId}/`;
}

export async function portraitKey(owner: string, avatarId: string): Promise<string> {
  return (await avatarPrefix(owner, avatarId)) + PORTRAIT_FILE;
}

export async function clipKey(owner: string, avatarId: string, tone: Tone): Promise<string> {
  return (await avatarPrefix(owner, avatarId)) + clipFile(tone);
}

/** A generated portrait's id (portal/portraits/): `p_` and 32 lowercase letters and digits. */
export const PORTRAIT_ID = /^p_[a-z0-9]{32}$/;

/** `portraits/<owner>/<portrait_id>.<ext>`: the bytes of one generated portrait, written once. */
export async function portraitImageKey(owner: string, portraitId: string, ext: "png" | "jpg"): Promise<string> {
  if (!PORTRAIT_ID.test(portraitId)) throw new Error(`not a portrait id: ${JSON.stringify(portraitId).slice(0, 80)}`);
  return `portraits/${await ownerFolder(owner)}/${portraitId}.${ext}`;
}

export type AssetKind = "image" | "video";

/** What a file of an avatar's folder is, or null for a name the layout does not have (ignored). */
export function assetFileKind(filename: string): { kind: AssetKind; order: number } | null {
  if (filename === PORTRAIT_FILE) return { kind: "image", order: 0 };
  const m = /^clip-([a-z]+)\.mp4$/.exec(filename);
  if (m && isTone(m[1])) return { kind: "video", order: 1 + TONES.indexOf(m[1]) };
  return null;
}

/** The Content-Type a key is served with (by its extension). */
export function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf(".") + 1);
  return CONTENT_TYPES[ext] ?? "application/octet-stream";
}

const CONTENT_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  mp4: "video/mp4",
  webm: "video/webm",
};
