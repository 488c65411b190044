// Implements: Avatar asset (`GET /auth/avatars/{id}/assets`): the portrait and each generated clip
// a box archived for this person's avatar (key layout: shared/asset-layout/asset-keys.ts), each with
// a URL signed locally that dies after `expires_in` seconds. Not theirs, or no such avatar: 404
// `avatar_not_found` (fact 8), whatever the store holds.
import { ApiError } from "../../shared/errors/api-error.ts";
import { AVATAR_ID, assetFileKind, avatarPrefix, type AssetKind } from "../../shared/asset-layout/asset-keys.ts";
import type { AssetStore } from "../storage/asset-store.ts";
import type { AvatarOwnership } from "./store.ts";

/** Default lifetime of an asset URL (spec Limits: stated per response in `expires_in`). */
export const ASSET_URL_TTL_SECONDS = 900;

export interface AvatarAsset {
  kind: AssetKind;
  filename: string;
  size_bytes: number;
  updated_at: number;
  url: string;
}

export interface AvatarAssets {
  avatar_id: string;
  assets: AvatarAsset[];
  expires_in: number;
}

export interface AssetServiceOptions {
  ownership: AvatarOwnership;
  store: AssetStore;
  ttlSeconds?: number;
  log?: (msg: string, err?: unknown) => void;
}

export class AssetService {
  readonly ttlSeconds: number;

  constructor(private readonly o: AssetServiceOptions) {
    this.ttlSeconds = o.ttlSeconds ?? ASSET_URL_TTL_SECONDS;
  }

  async list(owner: string, avatarId: string): Promise<AvatarAssets> {
    // An id the box could never have made is nobody's avatar: the same 404, before any lookup.
    if (!AVATAR_ID.test(avatarId) || !(await this.o.ownership.owns(owner, avatarId))) {
      throw new ApiError(404, "avatar_not_found", `You have no avatar "${avatarId.slice(0, 80)}".`);
    }
    const prefix = await avatarPrefix(owner, avatarId);
    try {
      const found = (await this.o.store.list(prefix))
        .map((o) => ({ o, filename: o.key.slice(prefix.length), kind: assetFileKind(o.key.slice(prefix.length)) }))
        .filter((x): x is typeof x & { kind: NonNullable<typeof x.kind> } => x.kind !== null)
        .sort((a, b) => a.kind.order - b.kind.order);
      const assets = await Promise.all(
        found.map(async ({ o, filename, kind }) => ({
          kind: kind.kind,
          filename,
          size_bytes: o.size_bytes,
          updated_at: o.updated_at,
          url: await this.o.store.signedGetUrl(o.key, this.ttlSeconds),
        })),
      );
      return { avatar_id: avatarId, assets, expires_in: this.ttlSeconds };
    } catch (err) {
      // Listing or signing (an S3 credential chain with nothing in it, say) failed: the store's fault.
      this.o.log?.(`portal: the asset store failed for ${prefix}`, err);
      throw new ApiError(502, "asset_store_failed", "The media store did not answer; try again shortly.");
    }
  }
}
