// Implements: the observations the portal's library reads of own avatars (spec "Loaded avatars"):
// each upload, state change and delete is written to the shared records with its consent; the
// shared database being down never fails the avatar. An erase order still pending for an id was
// made from the upload this one replaced, until this upload is listed (`replacesErased`).
import type { OwnManifest, OwnState } from "./manifest.ts";
import type { SharedRecords } from "./shared-records.ts";
import { log as boxLog, type LogLevel } from "../../../shared/util/log.ts";

const log = (level: LogLevel, msg: string, extra: Record<string, unknown> = {}) => boxLog.at(level, msg, extra);

export interface ObservationOptions {
  records: SharedRecords | null;
  /** The person's e-mail behind a subject, for the library's partition (undefined: the records' default). */
  ownerOf?: (subject: string) => Promise<string | null | undefined>;
}

export class LibraryObservations {
  /** Uploads whose observation has not landed yet: an erase order pending for their id is older. */
  private readonly unlisted = new WeakSet<OwnManifest>();

  constructor(private readonly o: ObservationOptions) {}

  /** A new upload of `m`: until its observation lands, an erase order for its id is the old upload's. */
  uploaded(m: OwnManifest): void {
    this.unlisted.add(m);
  }

  /** Writes the library observation; the shared database being down never fails the avatar. */
  async observe(m: OwnManifest & { state: OwnState }, upload: boolean): Promise<void> {
    const records = this.o.records;
    if (!records) return;
    try {
      let consentId: string | null = null;
      if (m.builds_planned && m.consent_token && m.source_kind !== "video") {
        consentId = (await records.checkConsent(m.consent_token, m.sha256)) === "ok" ? m.consent_token : null;
      }
      const owner = this.o.ownerOf ? await this.o.ownerOf(m.owner) : undefined;
      // Until an upload is listed, an erase order for its id was made from the upload it replaced.
      const replacesErased = this.unlisted.has(m);
      const r = await records.observe({
        subject: m.owner,
        avatarId: m.avatar_id,
        ...(owner !== undefined ? { owner } : {}),
        name: m.name,
        sourceKind: m.source_kind,
        state: m.state,
        detail: m.detail,
        consentId,
        upload: upload || replacesErased,
        replacesErased,
      });
      if (r === "written") this.unlisted.delete(m);
      else log("warn", "observation not written: an erase order for this avatar is pending", { avatar: m.avatar_id });
    } catch (err) {
      log("error", "avatar observation not written", { avatar: m.avatar_id, error: String((err as Error)?.message ?? err) });
    }
  }
}
