// Implements: the request bodies of `/auth/portraits*`, the approval answer and portrait ids (the
// Portrait record itself: shared/wire/portraits.ts).
import { Type, type Static } from "@sinclair/typebox";
import { PORTRAIT_ID } from "../../shared/asset-layout/asset-keys.ts";
import { PortraitRecord } from "../../shared/wire/portraits.ts";
import { ApiError } from "../../shared/errors/api-error.ts";
import { UploadAttestation } from "../consent/schema.ts";

export const PortraitApproval = Type.Object({ portrait: PortraitRecord, consent: UploadAttestation });
export type PortraitApproval = Static<typeof PortraitApproval>;

/** Longest description accepted, in characters (code points), after trimming. */
export const DESCRIPTION_MAX_CHARS = 1000;

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A new portrait id: `p_` + 32 lowercase letters and digits (about 165 bits; rejection sampling
 * keeps every character equally likely). Lowercase, so the id is a storage key segment as it is.
 */
export function portraitId(): string {
  let out = "p_";
  while (out.length < 34) {
    for (const b of crypto.getRandomValues(new Uint8Array(40))) {
      if (b < 252 && out.length < 34) out += ALPHABET[b % 36];
    }
  }
  return out;
}

/** Not yours, never existed, or not an id at all: one answer (fact 8). */
export function portraitNotFound(): ApiError {
  return new ApiError(404, "portrait_not_found", "No such portrait of yours.");
}

/** The id as looked up, or null when no portrait can have it (slashes, dots, upper case, unicode ...). */
export function addressablePortraitId(raw: string | undefined): string | null {
  return typeof raw === "string" && PORTRAIT_ID.test(raw) ? raw : null;
}

const invalid = (message: string) => new ApiError(400, "invalid_body", message);

/** A persona description: a string, trimmed, 1 to 1000 characters, no control characters. */
export function parseDescription(raw: unknown, field = "description"): string {
  if (typeof raw !== "string")
    throw invalid(
      `Send the persona as the string field \`${field}\`, e.g. {"description": "a friendly woman in her forties with short grey hair and glasses"}.`,
    );
  const text = raw.trim();
  if (text.length === 0)
    throw invalid(`\`${field}\` is empty: describe the person to draw (hair, skin, eyes, age, glasses, beard, clothes, mood).`);
  const chars = [...text].length;
  if (chars > DESCRIPTION_MAX_CHARS) throw invalid(`\`${field}\` is ${chars} characters long; at most ${DESCRIPTION_MAX_CHARS}.`);
  if (/[\p{Cc}\u2028\u2029]/u.test(text))
    throw invalid(`\`${field}\` contains control characters (a line break, tab or similar); send one line of text.`);
  return text;
}

/** `{sha256}`: the digest of the exact bytes the person looked at, 64 hexadecimal characters. */
export function parseDigest(raw: unknown): string {
  if (typeof raw !== "string" || !/^[0-9a-fA-F]{64}$/.test(raw)) {
    throw invalid(
      "`sha256` must be the SHA-256 of the portrait bytes you looked at (the X-Portrait-Sha256 header of GET /auth/portraits/{id}): 64 hexadecimal characters.",
    );
  }
  return raw.toLowerCase();
}
