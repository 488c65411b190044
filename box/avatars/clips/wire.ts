// Composition of clips for boot.ts: the build service with its own renderer session (so a build
// never waits behind the live session's frames), the routes, and photo_avatar.create's clip objects.
import type { Tone } from "../../../shared/wire/tones.ts";
import { variantId } from "../../../shared/wire/tones.ts";
import { ApiError } from "../../../shared/errors/api-error.ts";
import { FaceRenderer } from "../../render/face-renderer.ts";
import type { AvatarRegistry } from "../registry.ts";
import { recoverJournal } from "./clip-journal.ts";
import { ClipService } from "./clip-service.ts";
import { clipRoutes } from "./routes.ts";
import { clipDirs, clipTargets } from "./targets.ts";
import { log } from "../../../shared/util/log.ts";

export interface ClipWiring {
  enabled: boolean;
  dataDir: string;
  registry: AvatarRegistry;
  size: number;
  renderModelPath?: string;
}

export function openClips(w: ClipWiring) {
  recoverClipBuilds(w.dataDir);
  let renderer: Promise<FaceRenderer> | null = null;
  const clips = new ClipService({
    enabled: w.enabled,
    // Loaded at the first build: a box that never builds a clip never pays for a second session.
    renderer: () => (renderer ??= FaceRenderer.load({ width: w.size, height: w.size, threads: 1, modelPath: w.renderModelPath })),
  });
  const targets = clipTargets(w.registry, w.dataDir, () => w.registry.own?.opts.records ?? null);
  return {
    clips,
    routes: clipRoutes({ clips, target: (p, id) => targets(p.subject, id), defaultTone: "neutral" }),
    /** POST /v1/photo_avatar.create: every tone's clip, rendered before the answer. */
    async buildClips(subject: string, avatarId: string, tones: readonly string[]) {
      const t = targets(subject, avatarId);
      if (!t) throw new ApiError(404, "unknown_avatar", `No avatar "${avatarId}" of yours is on this box.`);
      const built = await clips.buildAll(t, tones as Tone[]);
      return built.map(({ row, tone }) => ({
        tone,
        template: "idle_loop",
        path: `/api/avatar/clip?avatar=${encodeURIComponent(avatarId)}&tone=${tone}`,
        duration_s: row.duration_s,
        fps: clips.fps,
        loop_frame: 0,
        avatar_id: variantId(avatarId, tone),
        queued: row.state !== "generated",
      }));
    },
    async dispose() {
      await (await renderer)?.dispose().catch(() => undefined);
    },
  };
}

/** At start no build runs: what a build cut off by kill -9 or a power cut left is settled. */
export function recoverClipBuilds(dataDir: string): void {
  for (const dir of clipDirs(dataDir)) {
    const { failed, removed } = recoverJournal(dir);
    if (failed.length || removed.length) log.warn("clip builds cut off by a restart marked failed", { dir, tones: failed, removed });
  }
}
