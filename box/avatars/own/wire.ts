// Composition of own faces for boot.ts: the store on the volume, the shared database's records
// (observations, erase orders), the photo and video preparers, and the renderer for preview stills.
import type { Client } from "@libsql/client";
import type { KeyTable } from "../../auth/key-table.ts";
import type { BoxEnv } from "../../env.ts";
import { FRAMINGS, PhotoFaceError, type preparePhoto } from "../../faces/prepare-photo.ts";
import type { prepareVideo } from "../../faces/prepare-video.ts";
import { prepareInChild } from "../../faces/prepare-child.ts";
import type { FaceRenderer } from "../../render/face-renderer.ts";
import { renderStillPng } from "../stock/index.ts";
import { OwnAvatars } from "./own-avatars.ts";
import { openSharedRecords } from "./shared-records.ts";
import { log } from "../../../shared/util/log.ts";

export const FRAMING_VALUES: readonly string[] = Object.keys(FRAMINGS);

export interface OwnAvatarsWiring {
  env: Pick<BoxEnv, "dataDir" | "keyTableUrl" | "photoAvatar">;
  renderer: FaceRenderer;
  /** box.db's client: the avatar tables live there when no shared database is configured. */
  localDb: Client;
  keyTable: KeyTable | null;
}

export async function openOwnAvatars(w: OwnAvatarsWiring): Promise<OwnAvatars> {
  const records = await openSharedRecords(w.env.keyTableUrl, w.localDb).catch((err: Error) => {
    // The shared database being down must not keep the box from serving: no observations meanwhile.
    log.error("avatar tables unavailable; no library observations or erase orders this run", { error: err.message });
    return null;
  });
  return OwnAvatars.open({
    dataDir: w.env.dataDir,
    size: w.renderer.width,
    // In a child process: the landmark models would otherwise stall the live session's frame clock.
    preparePhoto: (bytes, opts) => prepareInChild<Awaited<ReturnType<typeof preparePhoto>>>("photo", bytes, opts),
    prepareVideo: (src, opts) => prepareInChild<Awaited<ReturnType<typeof prepareVideo>>>("video", src, opts),
    isPhotoError: (err) => err instanceof PhotoFaceError,
    renderStill: (face, tone) => renderStillPng(w.renderer, face, tone),
    photoAvatar: w.env.photoAvatar,
    framings: FRAMING_VALUES,
    records,
    // A portal-created API key's subject carries no e-mail: the key row's owner is the person.
    ownerOf: async (subject) => {
      if (!subject.startsWith("key:") || !w.keyTable) return undefined;
      const row = await w.keyTable.lookup(subject.slice(4));
      return row?.owner ?? undefined;
    },
  });
}
export { withCallers } from "./caller.ts";
