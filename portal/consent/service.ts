// Implements: Endpoints `POST /auth/consent`, `GET /auth/avatars/publication-terms`,
// `POST /auth/avatars/{id}/publication-consent`; Consent records.
import { ApiError } from "../../shared/errors/api-error.ts";
import { ATTESTED_SOURCE_KINDS, type AttestedSourceKind } from "../../shared/avatar-tables/schema.ts";
import { addressableAvatarId, avatarNotFound, isObject } from "../avatars/schema.ts";
import type { PublicationLedger } from "./ledger.ts";
import type { PublicationConsentRow } from "./ledger-schema.ts";
import { opaqueId, type PublicationConsent, type PublicationTermsRecord, type UploadAttestation } from "./schema.ts";
import type { UploadAttestationStore } from "./store.ts";
import type { TermsRegistry } from "./terms.ts";

export interface ConsentServiceOptions {
  uploads: UploadAttestationStore;
  ledger: PublicationLedger;
  terms: TermsRegistry;
  /** Does this person have a library row for this avatar id? */
  ownsAvatar: (owner: string, avatarId: string) => Promise<boolean>;
  /** Epoch seconds. */
  now: () => number;
}

function toConsent(row: PublicationConsentRow): PublicationConsent {
  return {
    attestation_id: row.attestationId,
    avatar_id: row.avatarId,
    terms_version: row.termsVersion,
    terms_sha256: row.termsSha256,
    attested_at: row.attestedAt,
    withdrawn_at: row.withdrawnAt,
  };
}

export class ConsentService {
  constructor(private readonly opts: ConsentServiceOptions) {}

  /** An upload attestation bound to the digest; it names no owner (the box checks bytes, not people). */
  /** `body`: the parsed JSON, or undefined when there was none or it was not JSON. */
  async attestUpload(raw: unknown): Promise<UploadAttestation> {
    if (!isObject(raw)) throw new ApiError(400, "invalid_body", "The request body must be a JSON object: {sha256, source_kind?}.");
    const body = raw;
    const sha256 = typeof body.sha256 === "string" && /^[0-9a-fA-F]{64}$/.test(body.sha256) ? body.sha256.toLowerCase() : null;
    if (sha256 === null) {
      throw new ApiError(400, "invalid_sha256", "`sha256` must be the SHA-256 of the exact bytes agreed to: 64 hexadecimal characters.");
    }
    const kind = body.source_kind ?? "image";
    if (typeof kind !== "string" || !(ATTESTED_SOURCE_KINDS as readonly string[]).includes(kind)) {
      throw new ApiError(400, "invalid_source_kind", `\`source_kind\` must be one of ${ATTESTED_SOURCE_KINDS.join(", ")} (default image).`);
    }
    const row = { consentId: opaqueId("uc_"), sha256, attestedAt: this.opts.now(), sourceKind: kind as AttestedSourceKind };
    await this.opts.uploads.insert(row);
    return { consent_id: row.consentId, sha256: row.sha256, attested_at: row.attestedAt, source_kind: row.sourceKind };
  }

  async currentTerms(): Promise<PublicationTermsRecord> {
    const terms = await this.opts.terms.get();
    return { version: terms!.version, text: terms!.text, sha256: terms!.sha256 };
  }

  /**
   * Records a new agreement to publish the caller's avatar under one terms version (default the
   * current). Checked in this order: the id (404), the version (400), the avatar is the caller's
   * (404), the ledger (503).
   */
  async agreeToPublish(owner: string, rawId: string, raw: unknown): Promise<PublicationConsent> {
    const avatarId = addressableAvatarId(rawId);
    if (avatarId === null) throw avatarNotFound();
    // No body at all means the current terms.
    if (raw !== undefined && !isObject(raw))
      throw new ApiError(400, "invalid_body", "The request body must be a JSON object: {terms_version?}.");
    const body = raw ?? {};
    const version = body.terms_version ?? this.opts.terms.current;
    const terms = typeof version === "string" ? await this.opts.terms.get(version) : null;
    if (!terms) {
      throw new ApiError(
        400,
        "unknown_terms_version",
        `No publication terms of that version; the current version is ${this.opts.terms.current} (GET /auth/avatars/publication-terms).`,
      );
    }
    if (!(await this.opts.ownsAvatar(owner, avatarId))) throw avatarNotFound();
    const row = await this.opts.ledger.record(owner, avatarId, terms);
    // Erased while we wrote: the agreement must not outlive the avatar (a later face under the same
    // id would inherit it). Withdraw it and answer like the erasure had come first.
    if (!(await this.opts.ownsAvatar(owner, avatarId))) {
      await this.opts.ledger.withdraw(owner, avatarId);
      throw avatarNotFound();
    }
    return toConsent(row);
  }
}
