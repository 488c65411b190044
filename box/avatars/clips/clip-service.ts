// Implements: Clip state row, Clip `state` (absent → generating → generated | failed; a second
// request while generating is 409 and the claim is released only by the build itself), and the
// clip refusals after `unknown_avatar`, in the spec's order: 400 unknown_tone, 501
// avatar_clips_unavailable, 403 consent_required, 409 clip_already_generating, 503
// clip_generator_unavailable. Builds run one at a time in a bounded queue, off the media path.
// Erasure (Avatar erasure `status`): an avatar with a pending erase order is 404 to clip requests,
// and a build whose avatar was erased, deleted or replaced meanwhile is discarded, unarchived.
import { execFile } from "node:child_process";
import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import { ApiError } from "../../../shared/errors/api-error.ts";
import { isTone, variantId, type Tone } from "../../../shared/wire/tones.ts";
import type { FaceRenderer } from "../../render/face-renderer.ts";
import type { PreparedFace } from "../../render/prepared-face.ts";
import { clipFile, clipRow, readJournal, stagedClipFile, writeJournalRow, type ClipRow, type ClipState } from "./clip-journal.ts";
import { renderIdleClip } from "./idle-clip.ts";

export type { ClipRow, ClipState } from "./clip-journal.ts";
export type ConsentState = "ok" | "missing" | "mismatch";

/** One avatar as the clip builder sees it. */
export interface ClipTarget {
  /** The avatar (group) id clients name. */
  avatarId: string;
  /** Folder of its clips and their journal (inside the volume). */
  dir: string;
  /** Tones this avatar builds. */
  tones: readonly Tone[];
  face(tone: Tone): PreparedFace;
  /** Head motion scale for the idle loop (gesture amplitude). */
  motion: number;
  /** Whether the source may be made into clips (an upload attestation matching the bytes). */
  consent(): Promise<ConsentState>;
  /** Whether the portal erased this avatar and the order is not drained yet (absent: never). */
  erased?(): Promise<boolean>;
  /** False once the avatar was deleted or replaced by a new upload (absent: always current). */
  current?(): boolean;
}

export interface ClipServiceOptions {
  enabled: boolean;
  /** The renderer builds use (its own session, so the live one keeps its clock). */
  renderer: () => Promise<FaceRenderer>;
  ffmpegPath?: string;
  seconds?: number;
  fps?: number;
  /** Builds waiting beyond this are refused 503. */
  maxQueued?: number;
}

/** A build whose output may not be kept; its message is the row's detail. */
class Discarded extends Error {}

export class ClipService {
  private readonly claims = new Set<string>();
  private readonly generated = new Set<(t: ClipTarget, tone: Tone, path: string) => void>();
  private queue: Promise<unknown> = Promise.resolve();
  private queued = 0;
  /** Whether ffmpeg has libx264, asked once (a "no" is asked again next time: ffmpeg may be fixed). */
  private encoderOk: Promise<boolean> | null = null;
  readonly seconds: number;
  readonly fps: number;

  constructor(private readonly o: ClipServiceOptions) {
    this.seconds = o.seconds ?? 6;
    this.fps = o.fps ?? 25;
  }

  get enabled(): boolean {
    return this.o.enabled;
  }

  /** Called after each build writes its MP4 (archiving: box/avatars/archive/). */
  onGenerated(listener: (t: ClipTarget, tone: Tone, path: string) => void): void {
    this.generated.add(listener);
  }

  /** The clip state rows of an avatar; a tone never requested is absent. */
  list(t: ClipTarget): ClipRow[] {
    const journal = this.read(t.dir);
    return t.tones.filter((tone) => journal[tone]).map((tone) => journal[tone]!);
  }

  /** The tone asked for, or 400 `unknown_tone`. */
  tone(t: ClipTarget, raw: unknown): Tone {
    if (typeof raw !== "string" || !isTone(raw))
      throw new ApiError(400, "unknown_tone", `"${String(raw).slice(0, 40)}" is not a tone this deployment builds.`, "nested");
    if (!t.tones.includes(raw))
      throw new ApiError(400, "unknown_tone", `The avatar "${t.avatarId}" does not build the tone "${raw}".`, "nested");
    return raw;
  }

  /** POST /api/avatar/clips/retry after the avatar was found: the refusals in order, then the build is queued. */
  async request(t: ClipTarget, rawTone: unknown): Promise<{ avatar: string; tone: Tone; variant_id: string; state: "generating" }> {
    await this.refuseErased(t);
    const tone = this.tone(t, rawTone);
    await this.admit(t, tone);
    void this.enqueue(t, tone).catch(() => undefined); // the journal records the outcome
    return { avatar: t.avatarId, tone, variant_id: variantId(t.avatarId, tone), state: "generating" };
  }

  /** Builds every tone and waits for them (POST /v1/photo_avatar.create). */
  async buildAll(t: ClipTarget, tones: readonly Tone[]) {
    await this.refuseErased(t);
    for (const tone of tones) await this.admit(t, tone);
    const rows = await Promise.all(
      tones.map((tone) =>
        this.enqueue(t, tone).catch((err: { row?: ClipRow }) => err.row ?? clipRow(t.avatarId, tone, "failed", 0, String(err))),
      ),
    );
    return rows.map((row, i) => ({ row, tone: tones[i], path: clipFile(t.dir, tones[i]) }));
  }

  /** The MP4 of a generated clip, or null. */
  file(t: ClipTarget, tone: Tone): { path: string; bytes: number } | null {
    const path = clipFile(t.dir, tone);
    if (this.read(t.dir)[tone]?.state !== "generated" || !existsSync(path)) return null;
    return { path, bytes: statSync(path).size };
  }

  /** 404 first (the spec's order): an erased avatar is no longer the caller's to build from. */
  private async refuseErased(t: ClipTarget): Promise<void> {
    if (await t.erased?.())
      throw new ApiError(
        404,
        "unknown_avatar",
        `The avatar "${t.avatarId}" was erased through the portal; it makes no more clips and leaves this box at its next start.`,
        "nested",
      );
  }

  /** Throws `Discarded` when the build's output may not be kept. */
  private async keepable(t: ClipTarget): Promise<void> {
    if (t.current?.() === false)
      throw new Discarded("The clip was discarded: the avatar was deleted or replaced by a new upload while it was being built.");
    // Unknown (the shared database is down) counts as not erased: the archiver asks again before it copies.
    const erased = await t.erased?.().catch(() => false);
    if (erased) throw new Discarded("The clip was discarded: the avatar was erased through the portal while it was being built.");
  }

  private async admit(t: ClipTarget, tone: Tone): Promise<void> {
    if (!this.o.enabled) throw new ApiError(501, "avatar_clips_unavailable", "This box does not generate avatar clips.", "nested");
    const consent = await t.consent();
    if (consent !== "ok") {
      const why =
        consent === "mismatch"
          ? "the photograph changed since its consent was recorded"
          : "no consent attestation is on record for this avatar's source";
      throw new ApiError(403, "consent_required", `A clip needs the subject's consent: ${why}.`, "nested");
    }
    // Asked before the claim check, so nothing asynchronous runs between that check and the claim.
    const encoder = await this.encoderAvailable();
    if (this.claims.has(key(t, tone)))
      throw new ApiError(409, "clip_already_generating", `The ${tone} clip of "${t.avatarId}" is already being generated.`, "nested");
    if (!encoder)
      throw new ApiError(
        503,
        "clip_generator_unavailable",
        "The clip generator is unavailable: ffmpeg with libx264 was not found on this box.",
        "nested",
      );
    if (this.queued >= (this.o.maxQueued ?? 32))
      throw new ApiError(503, "clip_generator_unavailable", "The clip generator is busy; try again in a minute.", "nested");
    // Claimed before anything asynchronous, so two racing requests cannot both pass.
    this.claims.add(key(t, tone));
    this.write(t, tone, "generating", 0, "");
  }

  /** Runs after the builds queued before it; the claim is released here only. */
  private enqueue(t: ClipTarget, tone: Tone): Promise<ClipRow> {
    this.queued++;
    const run = async (): Promise<ClipRow> => {
      let staged: string | null = null;
      try {
        await this.keepable(t); // erased or replaced while it waited: not rendered at all
        const renderer = await this.o.renderer();
        staged = stagedClipFile(t.dir, tone);
        const out = await renderIdleClip(
          renderer,
          { face: t.face(tone), tone, seconds: this.seconds, fps: this.fps, motion: t.motion, seed: seedOf(t.avatarId) },
          staged,
          this.o.ffmpegPath,
        );
        await this.keepable(t);
        renameSync(staged, clipFile(t.dir, tone));
        staged = null;
        const row = this.write(t, tone, "generated", out.seconds, "");
        for (const l of this.generated) {
          try {
            l(t, tone, clipFile(t.dir, tone));
          } catch {
            // A listener's failure is its own: it never fails the build.
          }
        }
        return row;
      } catch (err) {
        if (staged) rmSync(staged, { force: true });
        const detail = err instanceof Discarded ? err.message : `The clip could not be built: ${(err as Error).message}`;
        // A deleted or replaced avatar's folder is gone or another upload's: nothing is written there.
        const row = t.current?.() === false ? clipRow(t.avatarId, tone, "failed", 0, detail) : this.write(t, tone, "failed", 0, detail);
        throw Object.assign(new Error(row.detail), { row });
      } finally {
        this.queued--;
        this.claims.delete(key(t, tone));
      }
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => undefined);
    return p;
  }

  /** Asked without blocking the thread the live stream's frame clock shares. */
  private async encoderAvailable(): Promise<boolean> {
    this.encoderOk ??= new Promise((resolve) => {
      execFile(
        this.o.ffmpegPath ?? "/usr/bin/ffmpeg",
        ["-hide_banner", "-encoders"],
        { encoding: "utf8", timeout: 10_000 },
        (_err, stdout) => resolve(/\blibx264\b/.test(stdout ?? "")),
      );
    });
    const ok = await this.encoderOk;
    if (!ok) this.encoderOk = null;
    return ok;
  }

  private read(dir: string) {
    return readJournal(dir);
  }

  private write(t: ClipTarget, tone: Tone, state: ClipState, duration: number, detail: string): ClipRow {
    return writeJournalRow(t.dir, clipRow(t.avatarId, tone, state, duration, detail));
  }
}

const key = (t: ClipTarget, tone: Tone) => `${t.dir}\u0000${tone}`;

/** A stable seed per avatar: a rebuilt clip shows the same idle loop. */
function seedOf(id: string): number {
  let h = 2166136261;
  for (const c of id) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}
