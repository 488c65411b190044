// Implements: Avatar asset, the box's side: when a box finishes preparing an avatar (its neutral
// portrait, `preview.png`) and after each clip build, it copies the file into the portal's store
// under the shared key layout, so the portal can list and sign it after this box is gone. Only
// avatars of a person (an e-mail behind the credential subject, as in the library) are archived:
// nothing else is ever listed. The box never calls `/auth/*` for this (fact 3): it writes the store
// with its own access. A failure is logged and retried a little, never raised: a build never fails
// because its archive did. Avatar erasure `status`: nothing is archived for an avatar with a pending
// erase order (the portal has erased its archived media), and a file that lands as an order is
// made is taken back out.
import { clipKey, portraitKey } from "../../../shared/asset-layout/asset-keys.ts";
import type { Tone } from "../../../shared/wire/tones.ts";
import type { ArchiveSink } from "./sink.ts";
import { log, type LogLevel } from "../../../shared/util/log.ts";

export interface AvatarArchiverOptions {
  sink: ArchiveSink;
  /** The person's e-mail behind a credential subject, or null when there is none. */
  ownerOf: (subject: string) => Promise<string | null>;
  /** Whether an erase order for (subject, avatar id) waits to be drained (absent: never). */
  erasePending?: (subject: string, avatarId: string) => Promise<boolean>;
  /** Pauses before the 2nd, 3rd ... attempt, in milliseconds. */
  retryDelaysMs?: readonly number[];
  log?: (level: "info" | "warn" | "error", msg: string, extra: Record<string, unknown>) => void;
}

const defaultLog: NonNullable<AvatarArchiverOptions["log"]> = (level, msg, extra) => log.at(level as LogLevel, msg, extra);

export class AvatarArchiver {
  private readonly pending = new Set<Promise<unknown>>();
  /** The last write asked for per key: an older one still retrying gives way to it. */
  private readonly latest = new Map<string, symbol>();
  private readonly chains = new Map<string, Promise<boolean>>();

  constructor(private readonly o: AvatarArchiverOptions) {}

  get where(): string {
    return this.o.sink.where;
  }

  /** Archives an avatar's portrait (PNG); resolves true once stored, false when skipped or failed. */
  portrait(subject: string, avatarId: string, png: Uint8Array): Promise<boolean> {
    return this.track(this.archive(subject, avatarId, "portrait", (owner) => portraitKey(owner, avatarId), png, "image/png"));
  }

  /** Archives one tone's idle clip (MP4). */
  clip(subject: string, avatarId: string, tone: Tone, mp4: Uint8Array): Promise<boolean> {
    return this.track(this.archive(subject, avatarId, `clip ${tone}`, (owner) => clipKey(owner, avatarId, tone), mp4, "video/mp4"));
  }

  /** Resolves when every archive started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  private track(p: Promise<boolean>): Promise<boolean> {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
    return p;
  }

  private async archive(
    subject: string,
    avatarId: string,
    what: string,
    keyOf: (owner: string) => Promise<string>,
    bytes: Uint8Array,
    contentType: string,
  ): Promise<boolean> {
    const log = this.o.log ?? defaultLog;
    let key = "";
    try {
      const owner = await this.o.ownerOf(subject);
      if (!owner) return false; // no person behind it: no library row would ever list it
      key = await keyOf(owner);
    } catch (err) {
      log("error", "avatar media not archived", { avatar: avatarId, what, error: messageOf(err) });
      return false;
    }
    // Writes of one key go one after another, and only the newest asked for is written: an
    // older portrait can never land over a newer one.
    const mine = Symbol(key);
    this.latest.set(key, mine);
    const before = this.chains.get(key) ?? Promise.resolve(true);
    const run = before.then(() => this.write(key, mine, subject, avatarId, what, bytes, contentType));
    this.chains.set(key, run);
    void run.finally(() => {
      if (this.chains.get(key) === run) this.chains.delete(key);
      if (this.latest.get(key) === mine) this.latest.delete(key);
    });
    return run;
  }

  private async write(
    key: string,
    mine: symbol,
    subject: string,
    avatarId: string,
    what: string,
    bytes: Uint8Array,
    contentType: string,
  ): Promise<boolean> {
    const log = this.o.log ?? defaultLog;
    const delays = this.o.retryDelaysMs ?? [1000, 5000];
    const erased = () => this.o.erasePending?.(subject, avatarId) ?? Promise.resolve(false);
    for (let attempt = 0; ; attempt++) {
      if (this.latest.get(key) !== mine) return false; // a newer file for this key is queued behind
      try {
        // Asked before every attempt: an unreadable answer is a failed attempt, never a write.
        if (await erased()) {
          log("info", "avatar media not archived: the avatar was erased through the portal", { avatar: avatarId, what });
          return false;
        }
        await this.o.sink.put(key, bytes, contentType);
        // An order made while the file travelled came after the portal's own erase of the media.
        if (await erased().catch(() => false)) {
          await this.withdraw(key, avatarId, what);
          return false;
        }
        log("info", "avatar media archived", { avatar: avatarId, what, key, bytes: bytes.length, to: this.o.sink.where });
        return true;
      } catch (err) {
        if (attempt >= delays.length) {
          log("error", "avatar media not archived", {
            avatar: avatarId,
            what,
            key,
            to: this.o.sink.where,
            attempts: attempt + 1,
            error: messageOf(err),
          });
          return false;
        }
        log("warn", "avatar media archive failed; retrying", { avatar: avatarId, what, key, attempt: attempt + 1, error: messageOf(err) });
        await new Promise((r) => setTimeout(r, delays[attempt]));
      }
    }
  }

  private async withdraw(key: string, avatarId: string, what: string): Promise<void> {
    const log = this.o.log ?? defaultLog;
    try {
      await this.o.sink.remove(key);
      log("info", "avatar media withdrawn: the avatar was erased through the portal while it was archived", {
        avatar: avatarId,
        what,
        key,
      });
    } catch (err) {
      log("error", "avatar media of an erased avatar could not be withdrawn; repeat the erasure to remove it", {
        avatar: avatarId,
        what,
        key,
        to: this.o.sink.where,
        error: messageOf(err),
      });
    }
  }
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
