// Implements: Endpoints: sign-in routes (magic link and ID-token exchange).
// `requestLink` answers the same whatever the address: nothing tells an address that can sign in
// from one that cannot, or one that is rate-limited.
import { ApiError } from "../../shared/errors/api-error.ts";
import { normalizeEmail } from "../identity/id-token.ts";
import type { IdentityService } from "../identity/service.ts";
import { randomToken, sha256Hex } from "../identity/tokens.ts";
import type { Mailer } from "./mailer.ts";
import type { SignInLinkStore } from "./store.ts";

export interface SignInOptions {
  links: SignInLinkStore;
  identity: IdentityService;
  mailer: Mailer;
  /** Seconds a link stays redeemable; default 900. */
  linkTtlSeconds: number;
  /** At most this many links per address per window; default 5 per 900 s. */
  maxLinksPerWindow: number;
  windowSeconds: number;
  now: () => number;
  log: (msg: string, err?: unknown) => void;
}

/** Longest `next` kept; a longer one becomes `/` (it is stored with the link). */
export const NEXT_MAX_LENGTH = 2048;

/**
 * Only a same-origin path string of at most 2048 characters: a leading single slash, no scheme,
 * no backslash, no control characters. Anything else (a number, an object, a URL) becomes `/`.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== "string" || next.length > NEXT_MAX_LENGTH) return "/";
  if (!next.startsWith("/") || next.startsWith("//") || /[\\\p{Cc}]/u.test(next)) return "/";
  return next;
}

export class SignInService {
  constructor(private readonly opts: SignInOptions) {}

  /** Mails a single-use link to the address when it is an address and not over its limit. */
  async requestLink(rawEmail: string, next: unknown, baseUrl: string): Promise<void> {
    const email = normalizeEmail(rawEmail);
    if (!email) return;
    const now = this.nowSeconds();
    const recent = await this.opts.links.countSince(email, now - this.opts.windowSeconds);
    if (recent >= this.opts.maxLinksPerWindow) return;
    const token = randomToken();
    const expiresAt = now + this.opts.linkTtlSeconds;
    await this.opts.links.create({ id: await sha256Hex(token), email, next: safeNext(next), createdAt: now, expiresAt });
    await this.opts.links.purgeBefore(now - Math.max(this.opts.windowSeconds, this.opts.linkTtlSeconds) - 86_400);
    const link = new URL("/auth/callback", baseUrl);
    link.searchParams.set("token", token);
    const minutes = Math.round(this.opts.linkTtlSeconds / 60);
    try {
      await this.opts.mailer.send({
        to: email,
        subject: "Your sign-in link",
        text:
          `Open this link to sign in. It works once, for ${minutes} minutes:\n\n${link.href}\n\n` +
          "If you did not ask to sign in, ignore this mail.\n",
      });
    } catch (err) {
      // The answer stays neutral; the operator sees why no mail left.
      this.opts.log(`portal: sign-in mail to ${email} failed`, err);
    }
  }

  /** Redeems a link once; returns the session cookie value and where to go. */
  async redeem(token: string | undefined): Promise<{ cookie: string; expiresAt: number; next: string }> {
    const invalid = new ApiError(
      400,
      "invalid_link",
      "This sign-in link is not valid, was already used, or has expired. Ask for a new one.",
    );
    if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) throw invalid;
    const link = await this.opts.links.redeem(await sha256Hex(token), this.nowSeconds());
    if (!link) throw invalid;
    const session = await this.opts.identity.startSession(link.email, "link");
    return { ...session, next: link.next };
  }

  /** Trades a verified ID token for a portal session. */
  async exchange(idToken: string): Promise<{ email: string; cookie: string; expiresAt: number }> {
    const email = await this.opts.identity.verifyIdToken(idToken);
    if (!email) throw new ApiError(401, "invalid_api_key", "The ID token was not accepted.", "unwrapped");
    return { email, ...(await this.opts.identity.startSession(email, "id_token")) };
  }

  private nowSeconds(): number {
    return Math.floor(this.opts.now() / 1000);
  }
}
