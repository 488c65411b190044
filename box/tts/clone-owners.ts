// Implements: fact 8 ("a resource that belongs to somebody else answers 404") for voices cloned with
// POST /api/voice/upload. A clone is its uploader's: the credential's subject (a key, the key a
// session token was minted from, or the person behind a portal credential), recorded as a tag in
// the clone's file name on the Chatterbox server. Other credentials neither list it nor speak it.
import { createHash } from "node:crypto";
import { sha256Hex } from "../auth/principal.ts";
import { CHATTERBOX_PROVIDER, CLONE_PREFIX, OWNER_TAG_LENGTH, referenceOwnerOf } from "./chatterbox/voice-ids.ts";

/** The tag a subject's clones carry: a digest, so no file name shows a key or an e-mail address. */
export function ownerTag(subject: string): string {
  return createHash("sha256").update(`clone-owner\u0000${subject}`).digest("hex").slice(0, OWNER_TAG_LENGTH);
}

export class CloneOwners {
  /**
   * `operators`: the subjects of the box's own keys (BOX_API_KEYS) and of an open box. Clones made
   * before clones had owners are theirs: nobody knows whose voice they are, so no other key may use them.
   */
  constructor(private readonly operators: ReadonlySet<string>) {}

  /** The owners of a box given these keys in BOX_API_KEYS. */
  static forBox(apiKeys: readonly string[]): CloneOwners {
    return new CloneOwners(new Set(["open", ...apiKeys.map((k) => `key:${sha256Hex(k)}`)]));
  }

  /** Whether `subject` (null: the box itself) may list and speak `voice` of `provider`. */
  mayUse(subject: string | null, provider: string, voice: string): boolean {
    if (provider !== CHATTERBOX_PROVIDER || !voice.startsWith(CLONE_PREFIX)) return true;
    const whose = referenceOwnerOf(voice.slice(CLONE_PREFIX.length));
    if (whose === "server") return true; // the operator's own reference files: shared like predefined voices
    if (subject === null) return false;
    if (whose === "unowned") return this.operators.has(subject);
    return whose.owner === ownerTag(subject);
  }
}
