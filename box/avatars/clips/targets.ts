// Implements: which avatars may have clips, as the clip builder sees them (Box: avatars and
// clips; Consent records, the upload attestation). A stock face is drawn by our code and needs no
// consent; an uploaded photo needs an attestation whose digest matches the stored bytes; a video
// upload keeps an owner and no attestation, so it may not generate a clip. An uploaded avatar with
// a pending erase order (Avatar erasure `status`) builds and keeps no clips.
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { TONES, type Tone } from "../../../shared/wire/tones.ts";
import { OWNER_DIR, SAFE_ID } from "../own/ids.ts";
import type { AvatarRegistry } from "../registry.ts";
import type { SharedRecords } from "../own/shared-records.ts";
import type { ClipTarget, ConsentState } from "./clip-service.ts";

export function clipTargets(registry: AvatarRegistry, dataDir: string, records: () => SharedRecords | null) {
  return (subject: string, avatarId: string): ClipTarget | null => {
    const stock = registry.resolveFor(null, avatarId);
    if (stock) {
      return {
        avatarId,
        dir: join(dataDir, "clips", "stock", avatarId),
        tones: TONES,
        face: () => stock.face,
        motion: 1,
        consent: async () => "ok",
      };
    }
    const own = registry.own;
    const entry = own?.get(subject, avatarId);
    if (!own || !entry?.face || entry.manifest.state !== "ready") return null;
    const m = entry.manifest;
    const face = entry.face;
    return {
      avatarId,
      dir: join(own.store.dirOf(m.owner, m.avatar_id), "clips"),
      tones: m.tones as Tone[],
      face: () => face,
      motion: m.gesture_amplitude ?? 1,
      consent: async (): Promise<ConsentState> => {
        const r = records();
        if (m.source_kind === "video" || !m.consent_token || !r) return "missing";
        // The photograph as it is now: gone or changed since the attestation is a mismatch.
        const bytes = await readFile(own.store.sourcePath(m)).catch(() => null);
        return r.checkConsent(m.consent_token, bytes ? createHash("sha256").update(bytes).digest("hex") : null);
      },
      erased: async () => (await records()?.erasePending(m.owner, m.avatar_id)) ?? false,
      // A new upload under the id is a new entry; a delete removes it.
      current: () => own.get(subject, avatarId) === entry,
    };
  };
}

/** Every clip folder on the volume: stock faces' and uploaded avatars' (read at start). */
export function clipDirs(dataDir: string): string[] {
  const sub = (dir: string, ok: RegExp) => {
    try {
      return readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory() && ok.test(d.name))
        .map((d) => join(dir, d.name));
    } catch {
      return [];
    }
  };
  const stock = sub(join(dataDir, "clips", "stock"), /^[^.]/);
  // The own-avatar store's layout: <dataDir>/avatars/<owner-dir>/<avatar_id>/clips.
  const own = sub(join(dataDir, "avatars"), OWNER_DIR)
    .flatMap((o) => sub(o, SAFE_ID))
    .map((d) => join(d, "clips"));
  return [...stock, ...own];
}
