// Implements: own faces (docs/architecture.md "Own faces"; spec "Box: avatars and clips", "Loaded avatars",
// fact 8): the uploaded avatars of every credential subject, their preparation in a bounded
// queue, delete, and the observations the portal's library reads. One owner's avatar is
// invisible to every other caller: each query takes the caller's subject. A video's loops are
// prepared and read back by video-loops.ts, the library's observations written by
// observations.ts; this file keeps the entries, the intake and the preparation queue's job.
import { ApiError } from "../../../shared/errors/api-error.ts";
import { variantId, type Tone } from "../../../shared/wire/tones.ts";
import type { PreparedFace } from "../../render/prepared-face.ts";
import type { FrameSources } from "../frame-source.ts";
import { ownerDir } from "./ids.ts";
import { journal, type OwnManifest } from "./manifest.ts";
import { LibraryObservations } from "./observations.ts";
import { PrepareQueue } from "./prepare-queue.ts";
import type { PreparePhoto, PrepareVideo } from "./preparers.ts";
import { drainEraseOrders, type SharedRecords } from "./shared-records.ts";
import { OwnAvatarStore, sha256Hex } from "./store.ts";
import { loadLoops, prepareVideoLoops } from "./video-loops.ts";
import { log as boxLog, type LogLevel } from "../../../shared/util/log.ts";

export interface OwnAvatarsOptions {
  dataDir: string;
  /** Side of the square live video: faces are prepared at this size. */
  size: number;
  preparePhoto: PreparePhoto;
  /** Absent: a video upload fails ("not available on this box"). */
  prepareVideo?: PrepareVideo;
  /** True for the preparer's own refusals (no face, unreadable): their message is the detail as is. */
  isPhotoError: (err: unknown) => boolean;
  /** The neutral still of a prepared face, through the live renderer (what streams). */
  renderStill: (face: PreparedFace, tone: Tone) => Promise<Uint8Array>;
  /** BOX_PHOTO_AVATAR. */
  photoAvatar: boolean;
  /** Framing values the preparer accepts (null or absent: passed on unchecked). */
  framings?: readonly string[] | null;
  records: SharedRecords | null;
  /** The person's e-mail behind a subject, for the library's partition (undefined: the records' default). */
  ownerOf?: (subject: string) => Promise<string | null | undefined>;
  queueCapacity?: number;
  now?: () => number;
}

export interface OwnEntry {
  manifest: OwnManifest;
  /** Loaded only when `ready` (a video's: the first frame of its loop). */
  face: PreparedFace | null;
  /** A ready video's idle loops (frames read from the volume only while a live session holds them). */
  loops?: FrameSources | null;
}

const log = (level: LogLevel, msg: string, extra: Record<string, unknown> = {}) => boxLog.at(level, msg, extra);

export class OwnAvatars {
  readonly store: OwnAvatarStore;
  readonly queue: PrepareQueue;
  private readonly entries = new Map<string, OwnEntry>();
  /** Keys with an upload between its checks and its queueing (so two at once cannot both pass). */
  private readonly intake = new Set<string>();
  private readonly listeners = new Set<(owner: string, id: string) => void>();
  /** What the portal's library is told of each avatar. */
  private readonly observations: LibraryObservations;
  readonly now: () => number;

  private constructor(readonly opts: OwnAvatarsOptions) {
    this.store = new OwnAvatarStore(opts.dataDir);
    this.queue = new PrepareQueue(opts.queueCapacity ?? 16);
    this.now = opts.now ?? (() => Math.floor(Date.now() / 1000));
    this.observations = new LibraryObservations(opts);
  }

  /** At boot: sweep cut-off writes, drain erase orders, load every prepared face, re-queue the rest. */
  static async open(opts: OwnAvatarsOptions): Promise<OwnAvatars> {
    const own = new OwnAvatars(opts);
    await own.store.sweep();
    if (opts.records) {
      const done = await drainEraseOrders(
        opts.records,
        (o) => own.store.remove(o.subject, o.avatarId),
        (o, err) => log("error", "erase order not drained", { order: o.id, error: String(err) }),
      ).catch((err) => {
        log("error", "erase orders could not be read", { error: String(err) });
        return [];
      });
      if (done.length) log("info", "erase orders drained", { orders: done.map((o) => o.id) });
    }
    for (const m of await own.store.list((msg, path) => log("warn", msg, { path }))) {
      const entry: OwnEntry = { manifest: m, face: null };
      own.entries.set(keyOf(m.owner, m.avatar_id), entry);
      if (m.state === "ready") entry.face = await own.store.loadFace(m.owner, m.avatar_id, opts.size);
      if (entry.face && m.source_kind === "video") {
        // A video prepared before it kept its motion, or whose loop is damaged: prepare again.
        entry.loops = await loadLoops(own.store, m, entry.face, opts.size);
        if (!entry.loops) entry.face = null;
      }
      // Cut off mid-preparation, prepared files damaged, or made for another video size: prepare again.
      if (m.state === "preparing" || (m.state === "ready" && !entry.face)) {
        m.state = "preparing";
        m.detail = "Preparing again after a restart of the box.";
        own.queuePreparation(entry, true);
      }
    }
    return own;
  }

  /** Called with (owner, id) whenever an avatar's prepared face changes or goes. */
  onChange(listener: (owner: string, id: string) => void): void {
    this.listeners.add(listener);
  }

  private changed(m: OwnManifest): void {
    for (const l of this.listeners) l(m.owner, m.avatar_id);
  }

  /** The caller's avatar by id, or null: another subject's avatar is exactly as absent as none. */
  get(subject: string, id: string): OwnEntry | null {
    return this.entries.get(keyOf(subject, id)) ?? null;
  }

  /** The caller's avatars, oldest first. */
  of(subject: string): OwnEntry[] {
    const dir = ownerDir(subject);
    return [...this.entries.entries()]
      .filter(([k]) => k.startsWith(dir + "/"))
      .map(([, e]) => e)
      .sort((a, b) => a.manifest.created_at - b.manifest.created_at || a.manifest.avatar_id.localeCompare(b.manifest.avatar_id));
  }

  busy(subject: string, id: string): "intake" | "running" | "waiting" | null {
    const key = keyOf(subject, id);
    if (this.intake.has(key)) return "intake";
    if (this.queue.isRunning(key)) return "running";
    return this.queue.isWaiting(key) ? "waiting" : null;
  }

  /** Claims an id for an upload's checks; released by `commit` or `release`. */
  claim(subject: string, id: string): void {
    const busy = this.busy(subject, id);
    if (busy)
      throw new ApiError(
        409,
        "avatar_preparing",
        `The avatar "${id}" is still being prepared from an earlier upload; upload again once it is ready or failed.`,
      );
    if (this.queue.waitingCount + this.intake.size >= this.queue.capacity) {
      throw new ApiError(
        409,
        "preparation_queue_full",
        `${this.queue.waitingCount} avatars are already waiting to be prepared on this box; try again when one is ready.`,
      );
    }
    this.intake.add(keyOf(subject, id));
  }

  release(subject: string, id: string): void {
    this.intake.delete(keyOf(subject, id));
  }

  /** A checked upload, installed on the volume: record it, observe it, queue its preparation. */
  async commit(m: OwnManifest): Promise<{ done: Promise<void> }> {
    const key = keyOf(m.owner, m.avatar_id);
    try {
      const entry: OwnEntry = { manifest: m, face: null };
      this.entries.set(key, entry);
      this.changed(m);
      await this.store.saveManifest(m);
      this.observations.uploaded(m);
      void this.observations.observe(m, true);
      return { done: this.queuePreparation(entry, false) };
    } finally {
      this.intake.delete(key);
    }
  }

  private queuePreparation(entry: OwnEntry, atBoot: boolean): Promise<void> {
    const m = entry.manifest;
    const key = keyOf(m.owner, m.avatar_id);
    this.journalAll(m, "queued", atBoot ? "queued again after a restart" : "");
    return this.queue.enqueue(key, () => this.prepare(key), true);
  }

  private journalAll(m: OwnManifest, state: string, detail: string): void {
    const at = this.now();
    journal(
      m,
      m.tones.map((tone) => ({ tone, variant_id: variantId(m.avatar_id, tone as Tone), kind: "face", state, at, detail })),
    );
  }

  /** The queue's job: source → prepared face → `ready`; any failure → `failed`, nothing half-ready. */
  private async prepare(key: string): Promise<void> {
    const entry = this.entries.get(key);
    if (!entry) return; // deleted while waiting
    const m = entry.manifest;
    this.journalAll(m, "preparing", "");
    await this.store.saveManifest(m).catch(() => undefined);
    try {
      const bytes = await this.store.readSource(m);
      const sha = sha256Hex(bytes);
      if (sha !== m.sha256) m.sha256 = sha; // the file on the volume is the truth
      const framing = m.builds_planned && m.framing ? { framing: m.framing } : {};
      const r =
        m.source_kind === "video"
          ? await prepareVideoLoops(this.store, m, framing.framing, this.opts)
          : await this.opts.preparePhoto(bytes, { size: this.opts.size, ...framing });
      const size = this.opts.size;
      if (r.face.width !== size || r.face.height !== size || r.face.i420.length !== (size * size * 3) / 2) {
        throw new Error(`the preparer returned a ${r.face.width}x${r.face.height} face for a ${size}x${size} video`);
      }
      const preview = await this.opts.renderStill(r.face, "neutral");
      if (this.entries.get(key) !== entry) return; // deleted meanwhile
      await this.store.savePrepared(
        m.owner,
        m.avatar_id,
        r.face,
        { landmarks: r.landmarks, faces_found: r.facesFound, detail: r.detail },
        preview,
      );
      const loops = m.source_kind === "video" ? await loadLoops(this.store, m, r.face, this.opts.size) : null;
      if (m.source_kind === "video" && !loops) throw new Error("the prepared loop could not be read back from the volume");
      m.state = "ready";
      m.detail = r.detail;
      m.updated_at = this.now();
      this.journalAll(m, "ready", "");
      await this.store.saveManifest(m); // last: the manifest says ready only once every file is in place
      entry.face = r.face;
      entry.loops = loops;
    } catch (err) {
      if (this.entries.get(key) !== entry) return;
      const reason = err instanceof Error ? err.message : String(err);
      const detail = this.opts.isPhotoError(err) ? reason : `Preparation failed: ${reason}`;
      entry.face = null;
      entry.loops = null;
      m.state = "failed";
      m.detail = detail;
      m.updated_at = this.now();
      this.journalAll(m, "failed", detail);
      await this.store.clearPrepared(m.owner, m.avatar_id).catch(() => undefined);
      await this.store.saveManifest(m).catch((e) => log("error", "manifest not saved", { avatar: m.avatar_id, error: String(e) }));
      log("info", "own avatar failed to prepare", { avatar: m.avatar_id, detail });
    }
    this.changed(m);
    await this.observations.observe(m, false);
  }

  /**
   * Deletes an uploaded avatar: files and record. A job not started yet is dropped with it; one
   * running now answers 409 (it would write files back), as does a face on screen in the live session.
   */
  async delete(subject: string, id: string, onScreen: boolean): Promise<void> {
    const entry = this.get(subject, id);
    if (!entry) throw unknown(id);
    const key = keyOf(subject, id);
    if (this.intake.has(key) || this.queue.isRunning(key)) {
      throw new ApiError(
        409,
        "avatar_preparing",
        `The avatar "${id}" is being prepared right now; delete it once it is ready or failed (usually seconds).`,
      );
    }
    if (onScreen)
      throw new ApiError(
        409,
        "avatar_live",
        `The avatar "${id}" is on screen in the live session; disconnect (POST /disconnect) or switch avatar first.`,
      );
    this.queue.cancel(key);
    this.entries.delete(key);
    await this.store.remove(subject, id);
    this.changed(entry.manifest);
    const m = entry.manifest;
    void this.observations.observe(
      { ...m, state: "failed", detail: "Deleted from the box (POST /api/avatar/delete); the prepared face and its media are gone." },
      false,
    );
  }
}

export function keyOf(subject: string, id: string): string {
  return `${ownerDir(subject)}/${id}`;
}

export function unknown(id: string): ApiError {
  return new ApiError(404, "unknown_avatar", `No avatar "${id.slice(0, 80)}" on this box.`);
}
