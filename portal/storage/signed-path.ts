// Implements: Avatar asset `url` for the stores the portal serves itself (`file`, `memory`):
//   /auth/assets/<key>?exp=<epoch seconds>&sig=<base64url HMAC-SHA256>
// The signature covers the path and the expiry under the portal secret (the `asset-url` purpose of
// the portal's signer: Web Crypto, or node:crypto at a Bun/Node entry), so it is the credential: a
// changed path, a changed expiry, a signature moved to another path, or a link past its expiry is
// refused. Web-standard.
import { isAssetKey } from "../../shared/asset-layout/asset-keys.ts";
import { timingSafeEqual, type Signer } from "../identity/tokens.ts";

export const ASSET_PATH_PREFIX = "/auth/assets/";
/** The longest a signed URL may live (S3's own ceiling for presigned URLs: 7 days). */
export const MAX_URL_SECONDS = 7 * 24 * 3600;
const PURPOSE = "asset-url";

export type AssetUrlCheck = { ok: true; key: string; expiresAt: number } | { ok: false; reason: "invalid" | "expired" };

export class AssetUrlSigner {
  constructor(
    private readonly signer: Signer,
    /** Epoch seconds. */
    private readonly now: () => number,
  ) {}

  /** A path-and-query URL for `key`, valid for `expiresIn` seconds (1 .. 7 days). */
  async url(key: string, expiresIn: number): Promise<string> {
    if (!isAssetKey(key)) throw new Error(`not an asset key: ${JSON.stringify(key).slice(0, 80)}`);
    if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_URL_SECONDS)
      throw new Error(`expiresIn must be 1..${MAX_URL_SECONDS} seconds`);
    const path = ASSET_PATH_PREFIX + key;
    const exp = this.now() + expiresIn;
    return `${path}?exp=${exp}&sig=${await this.sign(path, exp)}`;
  }

  /** Checks a request's raw (undecoded) path and its `exp`/`sig` query values. */
  async check(rawPath: string, exp: string | null | undefined, sig: string | null | undefined): Promise<AssetUrlCheck> {
    if (!rawPath.startsWith(ASSET_PATH_PREFIX) || !exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{16,128}$/.test(sig))
      return { ok: false, reason: "invalid" };
    const key = rawPath.slice(ASSET_PATH_PREFIX.length);
    if (!isAssetKey(key)) return { ok: false, reason: "invalid" };
    const expiresAt = Number(exp);
    if (!timingSafeEqual(await this.sign(rawPath, expiresAt), sig)) return { ok: false, reason: "invalid" };
    if (this.now() > expiresAt) return { ok: false, reason: "expired" };
    return { ok: true, key, expiresAt };
  }

  private async sign(path: string, exp: number): Promise<string> {
    return this.signer.sign(PURPOSE, `${path}\n${exp}`);
  }
}
