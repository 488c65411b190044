// Implements: Authentication points 6-7 from the client's side. A credential is a token string
// or a token provider (called again whenever a fresh one is needed); a provider's grant may say
// when it ages out, and then sockets are handed a fresh one with `auth` before it does.
import { AvatarApiError } from "./errors.ts";

/** What a provider may answer: a bare token, or the shapes the box and the portal mint. */
export type TokenGrant =
  | string
  | { token?: string; secret?: string; expires_at?: number; expires_in?: number; data?: TokenGrantObject; credential?: TokenGrantObject };
type TokenGrantObject = { token?: string; secret?: string; expires_at?: number; expires_in?: number };
/** Called with the token in hand (null at first); answers a fresh one. */
export type TokenProvider = (current: string | null) => TokenGrant | Promise<TokenGrant>;
export type CredentialOption = string | TokenProvider;

interface Held {
  token: string;
  /** Wall-clock ms when it ages out; null when the grant did not say. */
  expiresAtMs: number | null;
  obtainedAtMs: number;
}

/** Reads any grant shape; `expires_in` (relative) wins over `expires_at` (another machine's clock). */
export function readGrant(grant: TokenGrant, nowMs: number): Held {
  if (typeof grant === "string") return { token: grant, expiresAtMs: null, obtainedAtMs: nowMs };
  const g: TokenGrantObject = grant?.data ?? grant?.credential ?? grant ?? {};
  const token = g.token ?? g.secret;
  if (typeof token !== "string" || !token)
    throw new AvatarApiError(
      0,
      "invalid_token_grant",
      "The token provider answered no token (expected a string, {token}, {data: {token}} or {credential: {secret}}).",
      { source: "local" },
    );
  const expiresAtMs =
    typeof g.expires_in === "number" ? nowMs + g.expires_in * 1000 : typeof g.expires_at === "number" ? g.expires_at * 1000 : null;
  return { token, expiresAtMs, obtainedAtMs: nowMs };
}

/** When to renew, in ms after obtaining: 20% of the lifetime ahead (5 s to 60 s), at most half of it. */
export function renewDelayMs(lifetimeMs: number): number {
  const margin = Math.min(lifetimeMs / 2, Math.max(5_000, Math.min(60_000, lifetimeMs * 0.2)));
  return Math.max(1_000, lifetimeMs - margin);
}

export class Credentials {
  private held: Held | null = null;
  private inflight: Promise<string | null> | null = null;
  private readonly renewedListeners = new Set<(token: string) => void>();
  private readonly errorListeners = new Set<(err: unknown) => void>();
  private holds = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private option: CredentialOption | undefined,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** True when a provider can be asked for a fresh token. */
  get renewable(): boolean {
    return typeof this.option === "function";
  }

  /** The token in hand (null before the first `current()` of a provider). */
  get token(): string | null {
    return this.held?.token ?? (typeof this.option === "string" ? this.option : null);
  }

  /** A token to present now: the one in hand unless it is about to age out. */
  async current(): Promise<string | null> {
    if (this.option === undefined) return null;
    if (this.held && !(this.renewable && this.held.expiresAtMs !== null && this.now() >= this.held.expiresAtMs - 1_000))
      return this.held.token;
    return this.refresh();
  }

  /** Asks the provider again (one call however many ask at once); a plain string stays as it is. */
  refresh(): Promise<string | null> {
    const option = this.option;
    if (option === undefined) return Promise.resolve(null);
    if (typeof option === "string") {
      this.held ??= readGrant(option, this.now());
      return Promise.resolve(option);
    }
    this.inflight ??= (async () => {
      try {
        const held = readGrant(await option(this.held?.token ?? null), this.now());
        this.accept(held);
        return held.token;
      } finally {
        this.inflight = null;
      }
    })();
    return this.inflight;
  }

  /** The application hands a token (or a whole new provider) itself; open sockets are told. */
  set(credential: CredentialOption | TokenGrant): void {
    if (typeof credential === "function") {
      this.option = credential;
      this.held = null;
      void this.refresh().catch((err) => this.fail(err));
      return;
    }
    const held = readGrant(credential, this.now());
    if (typeof credential === "string") this.option = typeof this.option === "function" ? this.option : credential;
    this.accept(held);
  }

  /** Called with each fresh token (sockets send it as `auth`). */
  onRenewed(fn: (token: string) => void): () => void {
    this.renewedListeners.add(fn);
    return () => void this.renewedListeners.delete(fn);
  }

  /** Called when the provider failed during a scheduled renewal. */
  onError(fn: (err: unknown) => void): () => void {
    this.errorListeners.add(fn);
    return () => void this.errorListeners.delete(fn);
  }

  /** Keeps renewal ahead of expiry running while something (an open socket) holds it. */
  hold(): () => void {
    this.holds++;
    this.schedule();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0) this.clearTimer();
    };
  }

  private accept(held: Held): void {
    const changed = held.token !== this.held?.token;
    this.held = held;
    this.schedule(changed ? 0 : 5_000);
    if (changed) for (const fn of [...this.renewedListeners]) fn(held.token);
  }

  private fail(err: unknown): void {
    for (const fn of [...this.errorListeners]) fn(err);
  }

  private schedule(atLeastMs = 0): void {
    this.clearTimer();
    const held = this.held;
    if (this.holds === 0 || !this.renewable || !held || held.expiresAtMs === null) return;
    const due = held.obtainedAtMs + renewDelayMs(held.expiresAtMs - held.obtainedAtMs);
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.refresh().catch((err) => {
          this.fail(err);
          if (this.holds > 0 && !this.timer) this.timer = setTimeout(() => this.schedule(), 5_000);
        });
      },
      Math.max(atLeastMs, 1_000, due - this.now()),
    );
    (this.timer as { unref?: () => void }).unref?.();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * A provider for the studio or any page served from the portal's own origin: mints a portal
 * session credential (`POST /auth/session/credential`, the signed-in person's cookie).
 */
export function portalCredentialProvider(
  options: { portalUrl?: string; fetch?: (input: string, init?: RequestInit) => Promise<Response> } = {},
): TokenProvider {
  const doFetch = options.fetch ?? ((input: string, init?: RequestInit) => fetch(input, init));
  const url = `${(options.portalUrl ?? "").replace(/\/+$/, "")}/auth/session/credential`;
  return async () => {
    const res = await doFetch(url, { method: "POST", credentials: "include", headers: { accept: "application/json" } });
    if (!res.ok) throw await AvatarApiError.fromResponse(res);
    return (await res.json()) as TokenGrant;
  };
}
