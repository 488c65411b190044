// Implements: Consent records (upload attestation, publication terms, publication consent).
import { Type, type Static } from "@sinclair/typebox";
import { ATTESTED_SOURCE_KINDS } from "../../shared/avatar-tables/schema.ts";

export const UploadAttestation = Type.Object({
  consent_id: Type.String(),
  sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }),
  attested_at: Type.Integer(),
  source_kind: Type.Union(ATTESTED_SOURCE_KINDS.map((k) => Type.Literal(k))),
});
export type UploadAttestation = Static<typeof UploadAttestation>;

export const PublicationTermsRecord = Type.Object({
  version: Type.String(),
  text: Type.String(),
  sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }),
});
export type PublicationTermsRecord = Static<typeof PublicationTermsRecord>;

export const PublicationConsent = Type.Object({
  attestation_id: Type.String(),
  avatar_id: Type.String(),
  terms_version: Type.String(),
  terms_sha256: Type.String(),
  attested_at: Type.Integer(),
  withdrawn_at: Type.Union([Type.Integer(), Type.Null()]),
});
export type PublicationConsent = Static<typeof PublicationConsent>;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * An opaque random id: `prefix` + 32 alphanumerics (about 190 bits; rejection sampling keeps every
 * character equally likely). Upload attestations are `uc_...`, publication agreements `pc_...`.
 */
export function opaqueId(prefix: "uc_" | "pc_"): string {
  let out = prefix;
  while (out.length < prefix.length + 32) {
    for (const b of crypto.getRandomValues(new Uint8Array(40))) {
      if (b < 248 && out.length < prefix.length + 32) out += ALPHABET[b % 62];
    }
  }
  return out;
}
