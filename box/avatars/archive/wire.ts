// Composition of archiving for boot.ts: the sink from BOX_ASSET_STORE/BOX_ASSET_DIR/BOX_S3_*,
// the owner of a credential subject (as the library records it), and the two moments media is
// finished: an own avatar becoming `ready` (its preview.png) and a clip build writing its MP4.
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { KeyTable } from "../../auth/key-table.ts";
import type { BoxEnv } from "../../env.ts";
import type { ClipService } from "../clips/clip-service.ts";
import { parseManifest } from "../own/manifest.ts";
import type { OwnAvatars } from "../own/own-avatars.ts";
import { ownerEmailOf } from "../own/shared-records.ts";
import { AvatarArchiver } from "./archiver.ts";
import { openArchiveSink } from "./sink.ts";
import { log as boxLog, type LogLevel } from "../../../shared/util/log.ts";

export interface ArchiveWiring {
  env: Pick<BoxEnv, "assetArchive">;
  keyTable: KeyTable | null;
  own: OwnAvatars | null;
  clips: ClipService;
}

const log = (level: LogLevel, msg: string, extra: Record<string, unknown>) => boxLog.at(level, msg, extra);

/**
 * The library's owner of a subject: the e-mail in `owner:<email>`, the key row's owner for a
 * portal-created API key (`key:<digest>`), else none (an open box, a static BOX_API_KEYS key).
 */
export function ownerResolver(keyTable: KeyTable | null): (subject: string) => Promise<string | null> {
  return async (subject) => {
    const email = ownerEmailOf(subject);
    if (email) return email;
    if (!subject.startsWith("key:") || !keyTable) return null;
    const row = await keyTable.lookup(subject.slice(4));
    return row?.owner ?? null;
  };
}

/** Starts archiving when a store is configured; null (and nothing hooked) when it is off. */
export function wireArchive(w: ArchiveWiring): AvatarArchiver | null {
  const sink = openArchiveSink(w.env.assetArchive);
  if (!sink) return null;
  const records = w.own?.opts.records ?? null;
  const archiver = new AvatarArchiver({
    sink,
    ownerOf: ownerResolver(w.keyTable),
    erasePending: records ? (subject, id) => records.erasePending(subject, id) : undefined,
  });
  log("info", "archiving finished portraits and clips", { to: sink.where });

  const own = w.own;
  own?.onChange((subject, id) => {
    if (own.get(subject, id)?.manifest.state !== "ready") return;
    void own.store
      .readPreview(subject, id)
      .then((png) => png && archiver.portrait(subject, id, png))
      .catch((err: Error) => log("error", "avatar media not archived", { avatar: id, what: "portrait", error: err.message }));
  });

  w.clips.onGenerated((target, tone, path) => {
    // An own avatar's clips sit beside its manifest (which names the subject); a stock face's have none.
    void (async () => {
      const manifest = parseManifest(await readFile(join(dirname(target.dir), "manifest.json"), "utf8").catch(() => ""));
      if (!manifest || manifest.avatar_id !== target.avatarId) return;
      const mp4 = new Uint8Array(await readFile(path));
      await archiver.clip(manifest.owner, manifest.avatar_id, tone, mp4);
    })().catch((err: Error) =>
      log("error", "avatar media not archived", { avatar: target.avatarId, what: `clip ${tone}`, error: err.message }),
    );
  });
  return archiver;
}
