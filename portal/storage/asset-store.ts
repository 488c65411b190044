// Implements: Avatar asset (storage behind one interface) and the `archived_media` artefact of an
// avatar erasure. Two implementations: `file` (file-store.ts, the embedded default; memory-store.ts
// is the same thing without a disk, for the Web-standard core and tests) served by the portal at
// signed paths (signed-path.ts, routes.ts), and `s3` (s3-store.ts) with presigned GET URLs.
// Web-standard: no Bun or Node imports here.
import { avatarPrefix } from "../../shared/asset-layout/asset-keys.ts";

export interface AssetObject {
  key: string;
  size_bytes: number;
  /** Epoch seconds of the last write. */
  updated_at: number;
}

export interface AssetStore {
  readonly kind: "file" | "memory" | "s3";
  /** Writes (or replaces) one object. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Every object whose key starts with `prefix`, sorted by key. */
  list(prefix: string): Promise<AssetObject[]>;
  /** Removes every object whose key starts with `prefix` (nothing there is not an error). */
  delete(prefix: string): Promise<void>;
  /** A URL anyone holding it may GET for `expiresIn` seconds; relative (`/auth/assets/...`) for stores the portal serves. */
  signedGetUrl(key: string, expiresIn: number): Promise<string>;
}

/** One object opened for serving: read `body` once (all of it, or an inclusive byte range), or `close`. */
export interface AssetHandle {
  size: number;
  /** Epoch seconds of the last write. */
  updatedAt: number;
  body(range?: { start: number; end: number }): ReadableStream<Uint8Array> | Uint8Array;
  close(): Promise<void>;
}

/** A store whose objects the portal itself serves at signed paths (`file`, `memory`). */
export interface ServedAssetStore extends AssetStore {
  /** The object, or null when there is none. */
  open(key: string): Promise<AssetHandle | null>;
}

export function isServed(store: AssetStore): store is ServedAssetStore {
  return typeof (store as Partial<ServedAssetStore>).open === "function";
}

/** A store failure, as the outbound failure callers retry on (docs/architecture.md "Conventions in the code"). */
export class AssetStoreError extends Error {
  readonly status = 502;
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "AssetStoreError";
  }
}

/**
 * The shape erasure asks for (portal/avatars/archived-media.ts): removes a person's archived media
 * of one avatar. `subjects` are not needed: the layout keys media by the owner's e-mail.
 */
export interface ArchivedMedia {
  erase(owner: string, avatarId: string, subjects?: readonly string[]): Promise<void>;
}

/**
 * `archived_media` for DELETE /auth/avatars/{id}: the avatar's whole folder (portrait and every
 * clip). An id that is not an avatar id has no folder, so there is nothing to erase.
 */
export function archivedMediaOf(store: AssetStore): ArchivedMedia {
  return {
    async erase(owner, avatarId) {
      let prefix: string;
      try {
        prefix = await avatarPrefix(owner, avatarId);
      } catch {
        return;
      }
      await store.delete(prefix);
    },
  };
}
