// `GET /auth/avatars` bodies kept per person while the database's data version stands (see
// LibraryReads.dataVersion): any commit by anyone (a box's observation, a visibility flip, an
// erasure) moves the version and drops every body, so the very next request reads the rows again.
// Web-standard.

/** Bodies of all people together, at most (a person with 1,000 avatars is ~260 KB). */
const MAX_BYTES = 32 * 1024 * 1024;

export class LibraryBodyCache {
  #version: number | null = null;
  #bodies = new Map<string, string>();
  #bytes = 0;

  constructor(private readonly maxBytes = MAX_BYTES) {}

  /** The body kept for `owner` under `version`; a new version drops them all. */
  get(owner: string, version: number): string | undefined {
    if (version !== this.#version) {
      this.#clear();
      this.#version = version;
      return undefined;
    }
    return this.#bodies.get(owner);
  }

  /** Keeps a body read after `get` saw `version` (a body of another version is not kept). */
  set(owner: string, version: number, body: string): void {
    if (version !== this.#version) return;
    const bytes = body.length * 2; // UTF-16 code units, an upper bound on what the string holds
    if (bytes > this.maxBytes) return;
    if (this.#bytes + bytes > this.maxBytes) this.#clear();
    this.#bytes += bytes - (this.#bodies.get(owner)?.length ?? 0) * 2;
    this.#bodies.set(owner, body);
  }

  #clear(): void {
    this.#bodies.clear();
    this.#bytes = 0;
  }
}
