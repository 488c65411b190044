// Implements: Authentication: Plane B. A request resolves to an e-mail identity from an ID token in
// `Authorization: Bearer` or from the portal session cookie; without one it is a 401 (unwrapped).
import { ApiError } from "../../shared/errors/api-error.ts";
import type { IdTokenVerifier } from "./id-token.ts";
import { decodeSessionCookie, encodeSessionCookie } from "./session-cookie.ts";
import type { SessionStore } from "./store.ts";
import { randomToken, timingSafeEqual, type Signer } from "./tokens.ts";

export interface Identity {
  email: string;
  via: "cookie" | "id_token";
}

export interface IdentityServiceOptions {
  sessions: SessionStore;
  signer: Signer;
  idTokens: IdTokenVerifier | null;
  sessionTtlSeconds: number;
  /** Milliseconds since epoch. */
  now: () => number;
}

const SIGN_IN_HINT = "Sign in first: send an identity-provider ID token as Bearer, or the portal session cookie.";

export class IdentityService {
  constructor(private readonly opts: IdentityServiceOptions) {}

  get sessionTtlSeconds(): number {
    return this.opts.sessionTtlSeconds;
  }

  /** The caller's identity, or a 401 `{code, message}`: a presented but bad credential is never skipped over. */
  async resolve(authorization: string | undefined, cookie: string | undefined): Promise<Identity> {
    if (authorization !== undefined) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      const email = m ? await this.verifyIdToken(m[1]) : null;
      if (!email) throw new ApiError(401, "invalid_api_key", "The ID token was not accepted. " + SIGN_IN_HINT, "unwrapped");
      return { email, via: "id_token" };
    }
    if (cookie !== undefined && cookie !== "") {
      const email = await this.sessionEmail(cookie);
      if (!email) throw new ApiError(401, "invalid_api_key", "The session has ended or is not valid. " + SIGN_IN_HINT, "unwrapped");
      return { email, via: "cookie" };
    }
    throw new ApiError(401, "missing_api_key", SIGN_IN_HINT, "unwrapped");
  }

  async verifyIdToken(token: string): Promise<string | null> {
    return this.opts.idTokens ? this.opts.idTokens.verify(token) : null;
  }

  /** A new stored session; returns the cookie value to set. */
  async startSession(email: string, method: "link" | "id_token"): Promise<{ cookie: string; expiresAt: number }> {
    const token = randomToken();
    const signature = await this.opts.signer.sign("session", token);
    const now = Math.floor(this.opts.now() / 1000);
    const expiresAt = now + this.opts.sessionTtlSeconds;
    // The row is keyed by the signature: the database never holds the token a cookie needs.
    await this.opts.sessions.create({ id: signature, email, createdAt: now, expiresAt, method });
    // Expired rows are dead already; clearing them here keeps the table small without a timer.
    await this.opts.sessions.purgeExpired(now);
    return { cookie: encodeSessionCookie(token, signature), expiresAt };
  }

  /** Ends the session behind a cookie value (no-op for a value that is not one). */
  async endSession(cookie: string | undefined): Promise<void> {
    const id = cookie ? await this.sessionId(cookie) : null;
    if (id) await this.opts.sessions.delete(id);
  }

  /** The session row id of a well-formed, correctly signed cookie; null otherwise. */
  private async sessionId(cookie: string): Promise<string | null> {
    const parts = decodeSessionCookie(cookie);
    if (!parts) return null;
    const expected = await this.opts.signer.sign("session", parts.token);
    return timingSafeEqual(expected, parts.signature) ? expected : null;
  }

  private async sessionEmail(cookie: string): Promise<string | null> {
    const id = await this.sessionId(cookie);
    return id ? this.opts.sessions.find(id, Math.floor(this.opts.now() / 1000)) : null;
  }
}
