// Implements: fact 1 — one live session per box; a new /connect or /offer closes the previous
// one; POST /disconnect tears down synchronously. Voice session end: the idle window and the
// box's ceiling end the live session itself (media stops, /api/talk is 409, a new mic socket
// is refused 4002), whatever sockets are open or not.
import type { LiveControl } from "../system/live.ts";
import type { AvatarRegistry, ResolvedAvatar } from "../avatars/registry.ts";
import type { ClientContext } from "../../shared/wire/client-context.ts";
import { LiveSession } from "./live-session.ts";
import type { LiveSessionOptions } from "./session-types.ts";
import { EncoderSpare } from "../media/encoder-spare.ts";
import { prepareOpus } from "../media/opus-rtp.ts";
import { windowRunOut, type SessionExpiry, type SessionWindows } from "./session-end.ts";

export class LiveSessions implements LiveControl {
  current: LiveSession | null = null;
  private opening: Promise<unknown> = Promise.resolve();
  private readonly openedListeners = new Set<(s: LiveSession) => void>();
  /** One video encoder kept warm for the next /connect (its own process; a session's dies with it). */
  readonly spare: EncoderSpare;

  constructor(
    private readonly registry: AvatarRegistry,
    private readonly options: LiveSessionOptions,
    private readonly windows: SessionWindows = { idleSeconds: 300, maxSeconds: 3600, checkEveryMs: 1000 },
  ) {
    this.spare = new EncoderSpare({
      width: options.renderer.width,
      height: options.renderer.height,
      fps: options.fps,
      ffmpegPath: options.ffmpegPath,
    });
    this.options = { ...options, videoEncoder: () => this.spare.take() };
  }

  /** Readies what the first /connect would otherwise wait for: the Opus encoder's code and a warm video encoder. */
  prepare(): void {
    prepareOpus();
    this.spare.prime();
  }

  /** The box stops: the session ends and the spare encoder goes. */
  close(): void {
    this.disconnect();
    this.spare.close();
  }

  /** Opens one after another, so connects racing each other still leave exactly one session. */
  open(offer: unknown, avatar: ResolvedAvatar, ctx: ClientContext) {
    const run = async () => {
      this.disconnect();
      const { session, answer } = await LiveSession.open(offer, avatar, ctx, this.options);
      this.current = session;
      this.registry.active = avatar.variant;
      const watchdog = setInterval(() => {
        const ran = windowRunOut(Date.now(), session, this.windows);
        if (ran) this.expire(session, ran);
      }, this.windows.checkEveryMs);
      watchdog.unref?.();
      void session.closedPromise.then(() => {
        clearInterval(watchdog);
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

  /** A window ran out (the box's, or one a socket asked for): the session ends and says why. */
  expire(session: LiveSession, expiry: SessionExpiry): void {
    if (this.current === session) this.current = null;
    session.close(expiry);
  }

  interrupt(): void {
    this.live()?.interrupt();
  }

  /** Public: a live uploaded face is named only to its uploader; anyone else sees the stock face. */
  health() {
    const s = this.live();
    if (!s) return { avatar: this.registry.activeGroup, speaking_face: null };
    return { avatar: this.registry.shownAs(s.avatar, s.avatar.avatarId), speaking_face: this.registry.shownAs(s.avatar, s.speakingFace) };
  }
}
