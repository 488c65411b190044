// Implements: Consent records (publication terms) and `GET /auth/avatars/publication-terms`.
// Terms are append-only: a published version's text never changes (its digest is what agreements
// are bound to); a new text gets a new version, appended last, and becomes the current one.
import { sha256Hex } from "../identity/tokens.ts";

export interface TermsText {
  version: string;
  text: string;
}

export interface PublicationTerms extends TermsText {
  /** Lower-case hex SHA-256 of `text` encoded as UTF-8. */
  sha256: string;
}

export const PUBLICATION_TERMS: readonly TermsText[] = [
  {
    version: "2025-06-01",
    text:
      "Publishing this avatar puts it in the shared public library of this service, where every signed-in " +
      "person can see its name and details and use it. I confirm that the face is mine, or that I have the " +
      "permission of the person shown to publish it, and that it does not break anyone's rights. I can make " +
      "it private again at any time, which withdraws this agreement; erasing the avatar withdraws it too.",
  },
];

/** The known versions with their digests; the last one is current. */
export class TermsRegistry {
  readonly #byVersion: Map<string, Promise<PublicationTerms>>;
  readonly current: string;

  constructor(texts: readonly TermsText[] = PUBLICATION_TERMS) {
    if (texts.length === 0) throw new Error("at least one publication terms version is needed");
    this.#byVersion = new Map(texts.map((t) => [t.version, sha256Hex(t.text).then((sha256) => ({ ...t, sha256 }))]));
    this.current = texts[texts.length - 1].version;
  }

  /** The terms of that version (default the current one), or null when no such version exists. */
  async get(version: string = this.current): Promise<PublicationTerms | null> {
    return (await this.#byVersion.get(version)) ?? null;
  }
}
