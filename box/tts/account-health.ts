// Implements: the health of people's own voice accounts and every `voice_notice`: a person's key
// that failed (rejected, quota, unreachable, unreadable on this box) is remembered with why, and
// their speech goes to the box's engine with a notice until the key works again (re-tried at most
// every `retryMs`, at once when the saved key changes); the notice is non-empty exactly while replies
// are billed to the box's engine instead of the account the person chose. Apart from the router
// (accounts.ts), which asks it before routing to a person's key.
import { VoiceProviderError, type VoiceEngine } from "./engine.ts";
import type { ProviderEntry, VoicePick, VoiceRoute } from "./voice-route.ts";

/** A failure that says the account (not one request) cannot be used. */
export function accountProblem(err: unknown): boolean {
  return err instanceof VoiceProviderError && err.status !== 404;
}

export interface AccountHealthOptions {
  /** The box's own provider (BOX_TTS), which speaks while a person's key fails. */
  boot: ProviderEntry;
  /** The provider a route speaks through. */
  provider: (id: string) => ProviderEntry;
  /** A failing key is tried again after this long. */
  retryMs: number;
  now: () => number;
  log?: (line: Record<string, unknown>) => void;
}

export class AccountHealth {
  /** Accounts whose key failed: when, why, and the sealed key that failed. */
  private readonly failing = new Map<string, { at: number; reason: string; sealedAt: string }>();
  private readonly listeners = new Map<string, Set<(notice: string) => void>>();
  private readonly lastNotice = new Map<string, string>();
  /** When each person's key last passed its provider's key check. */
  private readonly verified = new Map<string, number>();

  constructor(private readonly o: AccountHealthOptions) {}

  /** Why `account`'s sealed key `sealedAt` failed, while it is not due to be tried again (else null). */
  failingReason(account: string, sealedAt: string): string | null {
    const failed = this.failing.get(account);
    if (failed && failed.sealedAt === sealedAt && this.o.now() - failed.at < this.o.retryMs) return failed.reason;
    return null;
  }

  /** A person's saved key for `p` cannot be opened on this box: remembered, the box speaks, the notice is set. */
  unreadable(p: ProviderEntry, account: string, sealedAt: string, reason: string, pick: VoicePick): VoiceRoute {
    this.failing.set(account, { at: this.o.now(), reason, sealedAt });
    const fallback = this.fallback(p, reason, pick);
    if (pick.subject) this.announce(pick.subject, fallback.notice);
    return fallback;
  }

  /**
   * Checks a person's key with its provider (the provider's cheapest call), at most once per
   * `retryMs` per key: readiness and the catalogue report a key that cannot be used before any
   * reply is spoken. Answers the route that will speak (the box's, with the notice, on failure).
   */
  async verify(route: VoiceRoute, subject: string | null): Promise<VoiceRoute> {
    const engine = route.engine as VoiceEngine & { checkKey?: () => Promise<unknown> };
    if (route.origin !== "user" || !engine.checkKey) return route;
    const mark = `${route.account}\u0000${route.sealedAt ?? ""}`;
    const at = this.verified.get(mark);
    if (at !== undefined && this.o.now() - at < this.o.retryMs) return route;
    try {
      await engine.checkKey();
      this.verified.set(mark, this.o.now());
      this.succeeded(route, subject);
      return route;
    } catch (err) {
      if (!accountProblem(err)) return route;
      return this.failed(route, err, subject);
    }
  }

  /** After a call on `route`: a person's account that failed is remembered (and the notice set). */
  failed(route: VoiceRoute, err: unknown, subject: string | null): VoiceRoute {
    if (route.origin !== "user") return route;
    const reason = (err as Error)?.message?.replace(/[.\s]+$/, "") ?? String(err);
    this.failing.set(route.account, { at: this.o.now(), reason, sealedAt: route.sealedAt ?? "" });
    for (const k of this.verified.keys()) if (k.startsWith(`${route.account}\u0000`)) this.verified.delete(k);
    this.o.log?.({ level: "warn", msg: "voice account failing; speaking with the box's engine", provider: route.provider, reason });
    const fallback = this.fallback(this.o.provider(route.provider), reason, { subject, voice: undefined });
    if (subject) this.announce(subject, fallback.notice);
    return fallback;
  }

  /** After a call on `route` worked: a person's account that was failing is well again. */
  succeeded(route: VoiceRoute, subject: string | null): void {
    if (route.origin === "user" && this.failing.delete(route.account) && subject) this.announce(subject, "");
    else if (subject && route.notice === "" && this.lastNotice.get(subject)) this.announce(subject, "");
  }

  /** Calls `listener` whenever `subject`'s notice changes (a socket's `voice_notice`/`warning`). */
  onNotice(subject: string, listener: (notice: string) => void): () => void {
    let set = this.listeners.get(subject);
    if (!set) this.listeners.set(subject, (set = new Set()));
    set.add(listener);
    return () => set!.delete(listener);
  }

  /** Tells `subject`'s listeners their notice, when it is not the one they were told last. */
  announce(subject: string, notice: string): void {
    if ((this.lastNotice.get(subject) ?? "") === notice) return;
    this.lastNotice.set(subject, notice);
    for (const l of this.listeners.get(subject) ?? []) l(notice);
  }

  /** The box's own route in place of a person's failing account for `p`, with the notice saying why. */
  fallback(p: ProviderEntry, reason: string, pick: VoicePick): VoiceRoute {
    const box = this.o.boot;
    const notice = `Your ${p.label} key could not be used (${reason.replace(/[.\s]+$/, "")}); replies are spoken with the box's own voice (${box.label}) until it works again.`;
    // The picked voice belongs to the failing provider: the box's engine speaks with its default.
    const voice = box.id === p.id ? pick.voice : undefined;
    return {
      engine: box.boxEngine!,
      provider: box.id,
      label: box.label,
      voice,
      origin: "box",
      account: "box",
      notice,
      subject: pick.subject,
    };
  }
}
