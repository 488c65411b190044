// Implements: POST /api/avatar "the avatar id is derived from the filename" — the one place a
// filename or a credential subject becomes a name on the volume.
import { createHash } from "node:crypto";
import { STOCK_FACE_IDS } from "../stock/index.ts";

/** Every id on the volume matches this: lowercase ASCII letters, digits and single hyphens. */
export const SAFE_ID = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,63}$/;
export const MAX_ID_LENGTH = 64;
const STEM_LENGTH = 48;

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** True for ids a stock face owns or could own (`stock`, `stock-*`): uploads never take them. */
export function isReservedId(id: string): boolean {
  return id === "stock" || id.startsWith("stock-") || STOCK_FACE_IDS.includes(id);
}

/**
 * The avatar id for an uploaded filename. Deterministic, so the same filename is the same avatar:
 * the last path segment (`a/b.jpg` → `b`, `..\x.png` → `x`), its extension dropped, accents
 * folded (NFKD), lowercased, every run of other characters one hyphen, at most 48 characters.
 * Nothing left (`.png`, `写真.jpg`) → `avatar-` + 10 hex of the filename's SHA-256. An id a stock
 * face owns (`stock-*`) gets `my-` in front, so an upload never shadows a stock face.
 */
export function avatarIdFromFilename(filename: string): string {
  const name = filename.normalize("NFC");
  const base = name.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  const stem = dot >= 0 ? base.slice(0, dot) : base;
  let id = stem
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, STEM_LENGTH)
    .replace(/^-+|-+$/g, "");
  if (!id) id = `avatar-${sha256(base || name).slice(0, 10)}`;
  if (isReservedId(id)) id = `my-${id}`;
  return id;
}

/** An explicit id (`avatar_id` of /v1/photo_avatar.create): safe exactly as given (no trimming), or null. */
export function explicitAvatarId(raw: string): string | null {
  return SAFE_ID.test(raw) ? raw : null;
}

/**
 * The folder of one credential subject under the avatars folder: `o-` + 32 hex of SHA-256 of the
 * subject, so no subject text (an e-mail address, a key digest) becomes a path, and one owner's
 * `me.jpg` never meets another's.
 */
export function ownerDir(subject: string): string {
  return `o-${sha256(subject).slice(0, 32)}`;
}

export const OWNER_DIR = /^o-[0-9a-f]{32}$/;
