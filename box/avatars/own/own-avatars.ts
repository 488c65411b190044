// Implements: own faces (docs/architecture.md "Own faces"; spec "Box: avatars and clips", "Loaded avatars",
// fact 8): the uploaded avatars of every credential subject, their preparation in a bounded
// queue, delete, and the observations the portal's library reads. One owner's avatar is
// invisible to every other caller: each query takes the caller's subject.
import { ApiError } from "../../../shared/errors/api-error.ts";
import { variantId, type Tone } from "../../../shared/wire/tones.ts";
import { anchorsToVector, type FaceAnchors, type PreparedFace } from "../../render/prepared-face.ts";
import type { FrameSource, FrameSources } from "../frame-source.ts";
import { FrameLoop, anchorsFromVector } from "./frame-loop.ts";
import { ownerDir } from "./ids.ts";
import { journal, type LoopMeta, type OwnManifest, type OwnState } from "./manifest.ts";
import { PrepareQueue } from "./prepare-queue.ts";
import { drainEraseOrders, type SharedRecords } from "./shared-records.ts";
import { OwnAvatarStore, sha256Hex } from "./store.ts";
import type { VideoSource } from "../../faces/prepare-video.ts";
import { BadVideo, probeVideo } from "./video.ts";
import { log as boxLog, type LogLevel } from "../../../shared/util/log.ts";

export interface PhotoPrepared {
  face: PreparedFace;
  facesFound: number;
  detail: string;
  landmarks: { x: number; y: number }[];
}
export type PreparePhoto = (bytes: Uint8Array, opts: { size: number; framing?: string }) => Promise<PhotoPrepared>;

/** A video's idle loop as the preparer hands it over (box/faces/prepare-video.ts). */
export interface VideoPrepared {
  /** The loop's first frame. */
  face: PreparedFace;
  /** I420 frames at the video size; frames[0] is face.i420. */
  frames: Uint8Array[];
  anchors: FaceAnchors[];
  landmarks: { x: number; y: number }[];
  facesFound: number;
  detail: string;
  loop: { startS: number; seconds: number; fps: number };
}
/** `width`/`height`: the size the frames are shown at (ffprobe, rotation applied). */
export type PrepareVideo = (src: VideoSource, opts: { size: number; framing?: string }) => Promise<VideoPrepared>;

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
  /** Uploads whose observation has not landed yet: an erase order pending for their id is older. */
  private readonly unlisted = new WeakSet<OwnManifest>();
  readonly now: () => number;

  private constructor(readonly opts: OwnAvatarsOptions) {
    this.store = new OwnAvatarStore(opts.dataDir);
    this.queue = new PrepareQueue(opts.queueCapacity ?? 16);
    this.now = opts.now ?? (() => Math.floor(Date.now() / 1000));
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
        entry.loops = await own.loadLoops(m, entry.face);
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
      this.unlisted.add(m);
      void this.observe(m, true);
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
          ? await this.prepareVideoLoops(m, framing.framing)
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
      const loops = m.source_kind === "video" ? await this.loadLoops(m, r.face) : null;
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
    await this.observe(m, false);
  }

  /**
   * A video's idle loops: the base video's, then one per `take__<tone>` (the first take of a tone
   * that yields a loop; a tone whose takes all fail plays the base video). Every loop is on the
   * volume before this returns; the base loop's meta, written last, lists the tones with takes.
   */
  private async prepareVideoLoops(m: OwnManifest, framing: string | undefined): Promise<PhotoPrepared> {
    const prepare = this.opts.prepareVideo;
    if (!prepare) throw new Error("video preparation is not available on this box");
    const loopOf = async (file: string) => {
      const path = this.store.fileIn(m, file);
      const info = await probeVideo(path);
      return prepare(
        { path, demuxer: info.demuxer, width: info.displayWidth, height: info.displayHeight, durationS: info.durationS },
        { size: this.opts.size, framing },
      );
    };
    const base = await loopOf(m.source_file);
    const notes = [base.detail.replace(/\.?$/, ".")];
    const takeTones: string[] = [];
    const tones = [...new Set(m.takes.map((t) => t.tone))].filter((t) => m.tones.includes(t));
    for (const tone of tones) {
      const why: string[] = [];
      for (const take of m.takes.filter((t) => t.tone === tone).sort((a, b) => a.n - b.n)) {
        const name = `take__${tone}${take.n ? `__${take.n}` : ""}`;
        try {
          const v = await loopOf(take.file);
          await this.store.saveLoop(m.owner, m.avatar_id, tone, v.frames, loopMeta(v, take.file, []));
          takeTones.push(tone);
          notes.push(`${tone}: its own idle loop from ${name} (${v.loop.seconds.toFixed(1)} s from ${v.loop.startS.toFixed(1)} s).`);
          break;
        } catch (err) {
          if (!this.opts.isPhotoError(err) && !(err instanceof BadVideo)) throw err;
          why.push(`${name}: ${(err as Error).message}`);
        }
      }
      if (why.length && !takeTones.includes(tone))
        notes.push(`${tone}: no take could be used (${why.join(" ")}), so it plays the base video with the ${tone} resting expression.`);
    }
    await this.store.saveLoop(m.owner, m.avatar_id, null, base.frames, loopMeta(base, m.source_file, takeTones));
    return { face: base.face, facesFound: base.facesFound, landmarks: base.landmarks, detail: notes.join(" ") };
  }

  /** The loops of a ready video as the live session plays them, or null when one is missing or damaged. */
  private async loadLoops(m: OwnManifest, still: PreparedFace): Promise<FrameSources | null> {
    const size = this.opts.size;
    const source = async (tone: string | null, meta: LoopMeta): Promise<FrameSource | null> => {
      const first =
        tone === null
          ? still
          : await this.store
              .readLoopFrame(m.owner, m.avatar_id, tone, 0, meta.frame_bytes)
              .then((i420) => i420 && { width: size, height: size, i420, anchors: anchorsFromVector(meta.anchors[0]) });
      if (!first) return null;
      return new FrameLoop(meta.count, meta.anchors.map(anchorsFromVector), first, size, () =>
        this.store.readLoopFrames(m.owner, m.avatar_id, tone),
      );
    };
    const baseMeta = await this.store.loadLoopMeta(m.owner, m.avatar_id, null, size);
    const base = baseMeta && (await source(null, baseMeta));
    if (!baseMeta || !base) return null;
    const takes: FrameSources["takes"] = {};
    for (const tone of baseMeta.take_tones) {
      const meta = await this.store.loadLoopMeta(m.owner, m.avatar_id, tone, size);
      const take = meta && (await source(tone, meta));
      if (!take) return null;
      takes[tone] = take;
    }
    return { base, takes };
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
    void this.observe(
      { ...m, state: "failed", detail: "Deleted from the box (POST /api/avatar/delete); the prepared face and its media are gone." },
      false,
    );
  }

  /** Writes the library observation; the shared database being down never fails the avatar. */
  private async observe(m: OwnManifest & { state: OwnState }, upload: boolean): Promise<void> {
    const records = this.opts.records;
    if (!records) return;
    try {
      let consentId: string | null = null;
      if (m.builds_planned && m.consent_token && m.source_kind !== "video") {
        consentId = (await records.checkConsent(m.consent_token, m.sha256)) === "ok" ? m.consent_token : null;
      }
      const owner = this.opts.ownerOf ? await this.opts.ownerOf(m.owner) : undefined;
      // Until an upload is listed, an erase order for its id was made from the upload it replaced.
      const replacesErased = this.unlisted.has(m);
      const r = await records.observe({
        subject: m.owner,
        avatarId: m.avatar_id,
        ...(owner !== undefined ? { owner } : {}),
        name: m.name,
        sourceKind: m.source_kind,
        state: m.state,
        detail: m.detail,
        consentId,
        upload: upload || replacesErased,
        replacesErased,
      });
      if (r === "written") this.unlisted.delete(m);
      else log("warn", "observation not written: an erase order for this avatar is pending", { avatar: m.avatar_id });
    } catch (err) {
      log("error", "avatar observation not written", { avatar: m.avatar_id, error: String((err as Error)?.message ?? err) });
    }
  }
}

function loopMeta(v: VideoPrepared, from: string, takeTones: string[]): LoopMeta {
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    version: 1,
    width: v.face.width,
    height: v.face.height,
    fps: v.loop.fps,
    count: v.frames.length,
    frame_bytes: v.face.i420.length,
    play: "pingpong",
    from,
    start_s: round(v.loop.startS),
    seconds: round(v.loop.seconds),
    anchors: v.anchors.map((a) => Array.from(anchorsToVector(a), round)),
    take_tones: takeTones,
    detail: v.detail,
  };
}

export function keyOf(subject: string, id: string): string {
  return `${ownerDir(subject)}/${id}`;
}

export function unknown(id: string): ApiError {
  return new ApiError(404, "unknown_avatar", `No avatar "${id.slice(0, 80)}" on this box.`);
}
