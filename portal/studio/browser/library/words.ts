// The Avatars page in words: an avatar's name as a person reads it, what a file is before it is sent, why an upload, a clip or a
// publication was refused, what an erasure did, and why the camera cannot be used. Pure functions
// (no DOM), so the page's tests can read them; everything else falls back to the studio's explain().
import { AvatarApiError } from "../../../../shared/client/index.ts";
import type { EraseResult } from "../../../../shared/wire/library.ts";
import { explain, when } from "../words.ts";

/** The box's `POST /api/avatar` body limit (box/avatars/own/upload-form.ts UPLOAD_LIMITS). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export type FileFamily = "image" | "video";
export type FileCheck = { ok: true; family: FileFamily } | { ok: false; text: string };

const EXTENSIONS: Record<string, FileFamily> = { png: "image", jpg: "image", jpeg: "image", mp4: "video", mov: "video", webm: "video" };
const ACCEPTED = "a PNG or JPG photo, or an MP4, MOV or WEBM video";

/** What the first bytes say the file is (the box sniffs the same way), or null. */
export function sniffFamily(head: Uint8Array): FileFamily | null {
  const at = (i: number, ...bytes: number[]) => bytes.every((b, k) => head[i + k] === b);
  if (at(0, 0x89, 0x50, 0x4e, 0x47)) return "image"; // PNG
  if (at(0, 0xff, 0xd8, 0xff)) return "image"; // JPEG
  if (at(4, 0x66, 0x74, 0x79, 0x70)) return "video"; // ISO media: MP4, MOV ("ftyp")
  if (at(4, 0x6d, 0x6f, 0x6f, 0x76) || at(4, 0x6d, 0x64, 0x61, 0x74) || at(4, 0x77, 0x69, 0x64, 0x65)) return "video"; // old QuickTime
  if (at(0, 0x1a, 0x45, 0xdf, 0xa3)) return "video"; // Matroska / WebM
  return null;
}

/** Checks a chosen file before anything is sent: its name, its size and its first bytes. */
export function checkFile(name: string, size: number, head: Uint8Array): FileCheck {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? "";
  const named = EXTENSIONS[ext];
  const shown = `“${name.length > 60 ? `${name.slice(0, 59)}…` : name}”`;
  if (!named) return { ok: false, text: `${shown} is not a photo or a video this studio takes. Choose ${ACCEPTED}.` };
  if (size === 0) return { ok: false, text: `${shown} is empty. Choose ${ACCEPTED}.` };
  if (size > MAX_UPLOAD_BYTES)
    return {
      ok: false,
      text: `${shown} is too big (${megabytes(size)}); at most 50 MB is taken. Use a smaller photo, or a shorter video.`,
    };
  const is = sniffFamily(head);
  if (!is)
    return {
      ok: false,
      text: `${shown} is named like ${named === "image" ? "a photo" : "a video"} but is not one (its contents are something else). Choose ${ACCEPTED}.`,
    };
  if (is !== named)
    return {
      ok: false,
      text: `${shown} is named like ${named === "image" ? "a photo" : "a video"} but is ${is === "image" ? "a photo" : "a video"}. Rename it with the right ending, or choose another file.`,
    };
  return { ok: true, family: is };
}

export function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** A refused upload (`POST /auth/consent` or the box's `POST /api/avatar`), in words. */
export function uploadRefusal(err: unknown): string {
  if (err instanceof AvatarApiError) {
    switch (err.code) {
      case "box_not_running":
      case "box_unreachable":
        return "The box is not running, so it cannot take the upload now (see the notice at the top of the page). Nothing was uploaded.";
      case "body_too_large":
        return "The file is too big for the box: at most 50 MB. Use a smaller photo, or a shorter video.";
      case "image_too_large":
        return `${err.message}`;
      case "unsupported_file":
      case "invalid_part":
        return `The box refused the file: ${err.message} Choose ${ACCEPTED}.`;
      case "preparation_queue_full":
        return "The box is busy preparing other avatars and its queue is full. Try again in a minute, when one of them is ready.";
      case "avatar_preparing":
        return "An avatar from a file of this name is still being prepared. Wait until it is ready or failed, or rename the file to make a new avatar.";
      case "insufficient_scope":
        return "This page's box credential may not upload. Reload the page and try again.";
      case "invalid_sha256":
      case "invalid_source_kind":
        return `Your agreement could not be recorded: ${err.message} Reload the page and try again.`;
    }
  }
  return explain(err).text;
}

/** A refused clip request or read, in words. */
export function clipRefusal(err: unknown): string {
  if (err instanceof AvatarApiError) {
    switch (err.code) {
      case "consent_required":
        return `${err.message} Upload the photo again with the consent box ticked, then make the clip.`;
      case "avatar_clips_unavailable":
        return "This box does not make tone clips (BOX_AVATAR_CLIPS is off). The avatar works live all the same.";
      case "clip_already_generating":
        return "This clip is already being made; it appears here when it is done.";
      case "clip_generator_unavailable":
        return `${err.message} The avatar works live all the same.`;
      case "unknown_avatar":
        return "This avatar is not on the running box (it may have been erased, or the box was replaced), so it has no clips here.";
    }
  }
  return explain(err).text;
}

/** A refused publish or unpublish, in words. */
export function visibilityRefusal(err: unknown): string {
  if (err instanceof AvatarApiError) {
    switch (err.code) {
      case "publication_consent_required":
        return "Publishing needs your agreement to the publication terms first, and none is on record (it may have been withdrawn). Press Publish again and agree to the terms.";
      case "publication_consent_unavailable":
        return "Publishing is not possible right now: the portal cannot record agreements (its consent ledger is not configured or not reachable). Try again later, or ask an administrator.";
      case "avatar_not_found":
        return "This avatar is no longer in your library (it was erased). Press Refresh.";
      case "unknown_terms_version":
        return "The publication terms changed while the dialog was open. Press Publish again to read the current ones.";
    }
  }
  return explain(err).text;
}

const ARTEFACT_WORDS: Record<string, string> = {
  registry_record: "the library entry",
  public_listing: "the public listing",
  archived_media: "the archived photo, video and clips",
  prepared_avatar: "the prepared face on the box",
};

const PENDING_WORDS: Record<string, string> = {
  registry_record: "the library entry (erase it again in a moment)",
  public_listing: "the public listing (erase it again in a moment)",
  archived_media: "the archived photo, video and clips: the store did not answer, press Erase again to finish",
  prepared_avatar: "the prepared face on the box's disk, which the box removes when it next starts",
};

const list = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;

/**
 * The erase result (`complete`, or `pending` with what is pending), in words. `box`: what the
 * running box said when asked to drop its prepared face now (null when it was not asked).
 */
export function eraseWords(name: string, r: EraseResult, box: "removed" | "absent" | "kept" | "stopped" | null = null): string {
  const erased = [...r.erased];
  let pending = [...r.pending];
  // Taken off the running box now: the order the portal keeps is only for copies on boxes that are off.
  if (box === "removed" && pending.includes("prepared_avatar")) {
    pending = pending.filter((a) => a !== "prepared_avatar");
    erased.push("prepared_avatar");
  }
  const gone = list(erased.map((a) => ARTEFACT_WORDS[a] ?? a));
  if (pending.length === 0) return `“${name}” is erased: ${gone} ${erased.length === 1 ? "is" : "are"} gone.`;
  const still = list(pending.map((a) => PENDING_WORDS[a] ?? a));
  const kept =
    box === "kept"
      ? " The running box could not drop it just now (it may be in a live call, or still being prepared), so it can show in the live studio until the box restarts."
      : "";
  return `“${name}” is erased from your library${erased.includes("public_listing") ? " and the public library" : ""}. Still to go: ${still}.${kept}`;
}

/** Why the camera cannot be used, with how to allow it. */
export function cameraProblem(err: unknown): string {
  const name = (err as { name?: string })?.name ?? "";
  switch (name) {
    case "NotAllowedError":
    case "SecurityError":
      return "The browser was not allowed to use the camera. Allow it for this site (the camera icon in the address bar, or the site settings), then press Use the camera again. Or choose a photo file instead.";
    case "NotFoundError":
    case "OverconstrainedError":
      return "No camera was found on this device. Connect one and press Use the camera again, or choose a photo file instead.";
    case "NotReadableError":
    case "AbortError":
      return "The camera is busy or could not start (another program or tab may be using it). Close that, then press Use the camera again.";
    case "insecure":
      return "The camera works only on a secure page (https, or this computer's own address). Open the studio over https, or choose a photo file instead.";
    default:
      return `The camera could not be started: ${(err as Error)?.message ?? String(err)}. Choose a photo file instead.`;
  }
}

/** A unique file name for a camera snapshot (the avatar id comes from it). */
export function snapshotName(at = new Date(), random = Math.random()): string {
  const p = (n: number) => String(n).padStart(2, "0");
  const stamp = `${at.getFullYear()}${p(at.getMonth() + 1)}${p(at.getDate())}-${p(at.getHours())}${p(at.getMinutes())}${p(at.getSeconds())}`;
  return `camera-${stamp}-${Math.floor(random * 0x10000)
    .toString(16)
    .padStart(4, "0")}.jpg`;
}

const MEDIA_ENDING = /\.(png|jpe?g|mp4|mov|webm|mkv)$/i;
const SNAPSHOT = /^camera-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-[0-9a-f]{4}$/;

/**
 * An avatar's name as people read it. The box keeps the uploaded file's name (`Grey Beard.png`),
 * so the studio shows it without the ending, with underscores (and the dashes of a name without
 * spaces) as spaces and a capital first letter (`grey_beard.png` → `Grey beard`); a camera snapshot is "Camera photo, <when>". "" stays "".
 */
export function avatarLabel(filename: string): string {
  const base = (filename.split(/[\\/]/).pop() ?? "").replace(MEDIA_ENDING, "");
  const snap = SNAPSHOT.exec(base);
  if (snap) {
    const [, y, mo, d, h, mi, s] = snap.map(Number);
    return `Camera photo, ${when(new Date(y, mo - 1, d, h, mi, s).getTime() / 1000)}`;
  }
  // A file-name style name (no spaces) reads its dashes as spaces too: `ada-lovelace` → `Ada lovelace`.
  const spaced = /\s/.test(base.trim()) ? base : base.replace(/-+/g, " ");
  const tidy = spaced.replace(/_+/g, " ").replace(/\s+/g, " ").trim();
  return tidy ? tidy[0].toLocaleUpperCase() + tidy.slice(1) : "";
}

/** The file name the box is sent so the avatar gets `name` (its id comes from it): the name plus the file's own ending. */
export function uploadFilename(name: string, original: string): string {
  const ending = MEDIA_ENDING.exec(original)?.[0]?.toLowerCase() ?? "";
  const clean = name.replace(/[\\/]/g, " ").replace(/\s+/g, " ").trim();
  return clean ? `${clean}${ending}` : original;
}
