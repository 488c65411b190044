// Implements: Authentication: Plane B (identity-provider ID tokens as Bearer).
// Signature against the provider's JWKS, issuer, audience, expiry, and an asymmetric algorithm from
// a fixed list: `none` and shared-secret (HS*) tokens never verify.
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from "jose";

export const ALLOWED_ID_TOKEN_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];

export interface IdTokenOptions {
  issuer: string;
  audience: string | string[];
  /** The provider's JWKS: its URL (fetched and cached by jose) or a key resolver. */
  jwks: string | URL | JWTVerifyGetKey;
  /** Seconds of clock skew tolerated on `exp`/`nbf`/`iat`; default 30. */
  clockToleranceSeconds?: number;
  /** Milliseconds since epoch; tests move the clock. */
  now?: () => number;
}

export class IdTokenVerifier {
  readonly #keys: JWTVerifyGetKey;
  readonly #opts: IdTokenOptions;

  constructor(opts: IdTokenOptions) {
    this.#opts = opts;
    this.#keys =
      typeof opts.jwks === "function"
        ? opts.jwks
        : createRemoteJWKSet(new URL(String(opts.jwks)), { cooldownDuration: 30_000, cacheMaxAge: 600_000 });
  }

  /** The verified e-mail address, or null for any token that does not verify. */
  async verify(token: string): Promise<string | null> {
    try {
      const { payload } = await jwtVerify(token, this.#keys, {
        issuer: this.#opts.issuer,
        audience: this.#opts.audience,
        algorithms: ALLOWED_ID_TOKEN_ALGORITHMS,
        clockTolerance: this.#opts.clockToleranceSeconds ?? 30,
        requiredClaims: ["exp", "iat"],
        currentDate: this.#opts.now ? new Date(this.#opts.now()) : undefined,
      });
      // The identity is the address; a provider that says it is unverified does not vouch for it.
      if (payload.email_verified === false) return null;
      return normalizeEmail(payload.email);
    } catch {
      return null;
    }
  }
}

/** A plausible address, lowercased; null otherwise. */
export function normalizeEmail(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const email = value.trim().toLowerCase();
  if (email.length > 254 || !/^[^\s@<>()",;:\\[\]\p{Cc}]+@[^\s@<>()",;:\\[\]\p{Cc}]+\.[^\s@<>()",;:\\[\]\p{Cc}]+$/u.test(email)) {
    return null;
  }
  return email;
}
