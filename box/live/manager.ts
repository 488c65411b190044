// Implements: fact 1 — one live session per box; a new /connect or /offer closes the previous
// one; POST /disconnect tears down synchronously.
import type { LiveControl } from "../system/live.ts";
import type { AvatarRegistry, ResolvedAvatar } from "../avatars/registry.ts";
import type { ClientContext } from "./client-context.ts";
import { LiveSession, type LiveSessionOptions } from "./live-session.ts";

export class LiveSessions implements LiveControl {
  current: LiveSession | null = null;
  private opening: Promise<unknown> = Promise.resolve();
  private readonly openedListeners = new Set<(s: LiveSession) => void>();

  constructor(
    private readonly registry: AvatarRegistry,
    private readonly options: LiveSessionOptions,
  ) {}

  /** Opens one after another, so connects racing each other still leave exactly one session. */
  open(offer: unknown, avatar: ResolvedAvatar, ctx: ClientContext) {
    const run = async () => {
      this.disconnect();
      const { session, answer } = await LiveSession.open(offer, avatar, ctx, this.options);
      this.current = session;
      this.registry.active = avatar.variant;
      void session.closedPromise.then(() => {
        if (this.current === session) this.current = null;
      });
      for (const l of this.openedListeners) l(session);
      return { session, answer };
    };
    const p = this.opening.then(run, run);
    this.opening = p.catch(() => undefined);
    return p;
  }

  onOpened(listener: (s: LiveSession) => void): void {
    this.openedListeners.add(listener);
  }

  live(): LiveSession | null {
    return this.current && !this.current.isClosed ? this.current : null;
  }

  disconnect(): void {
    const s = this.current;
    this.current = null;
    s?.close();
  }

  interrupt(): void {
    this.live()?.interrupt();
  }

  health() {
    const s = this.live();
    return { avatar: s ? s.avatar.avatarId : this.registry.activeGroup, speaking_face: s ? s.speakingFace : null };
  }
}
