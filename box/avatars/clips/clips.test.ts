// Clips: the idle loop rendered by the real renderer and encoded by ffmpeg (ffprobe reads its
// duration and fps), a loop without a jump, and the clip refusals in the spec's order.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TONES, type Tone } from "../../../shared/wire/tones.ts";
import { FaceRenderer } from "../../render/face-renderer.ts";
import { IdleAnimator } from "../../live/idle-animator.ts";
import { restFrame } from "../../render/tone-rest.ts";
import { loadStockFaces, type StockFace } from "../stock/index.ts";
import { loopParams, renderIdleClip } from "./idle-clip.ts";
import { ClipService, type ClipTarget, type ConsentState } from "./clip-service.ts";

let renderer: FaceRenderer;
let face: StockFace;

beforeAll(async () => {
  renderer = await FaceRenderer.load({ width: 256, height: 256 });
  [face] = await loadStockFaces(256);
});
afterAll(() => renderer?.dispose());

function probe(path: string) {
  const r = spawnSync("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height,r_frame_rate,nb_frames:format=duration", "-of", "json", path], { encoding: "utf8" });
  return JSON.parse(r.stdout) as { streams: { codec_name: string; width: number; height: number; r_frame_rate: string; nb_frames: string }[]; format: { duration: string } };
}

describe("idle clip", () => {
  it("is an H.264 MP4 of the asked length at 25 fps", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "clip-")), "neutral.mp4");
    const r = await renderIdleClip(renderer, { face: face.face, tone: "happy", seconds: 2, fps: 25, motion: 1, seed: 7 }, out);
    expect(r).toEqual({ frames: 50, seconds: 2 });
    const info = probe(out);
    expect(info.streams[0]).toMatchObject({ codec_name: "h264", width: 256, height: 256, r_frame_rate: "25/1", nb_frames: "50" });
    expect(Number(info.format.duration)).toBeCloseTo(2, 1);
    expect(readFileSync(out).subarray(4, 8).toString()).toBe("ftyp");
  }, 60_000);

  it("loops without a jump: the last frame's parameters lead into the first", () => {
    const n = 150;
    const base = restFrame("neutral");
    let rawWorst = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const idle = new IdleAnimator({ fps: 25, seed });
      const at = (i: number) => loopParams(idle, base, i, n);
      const raw = (i: number) => ({ ...base, ...idle.params(i) });
      const step = (a: ReturnType<typeof at>, b: ReturnType<typeof at>) => Math.hypot(a.headX - b.headX, a.headY - b.headY, 100 * (a.headRoll - b.headRoll), a.breathe - b.breathe);
      const typical = Math.max(...Array.from({ length: n - 1 }, (_, i) => step(raw(i + 1), raw(i))));
      // The wrap from the last frame to frame 0 moves no more than an ordinary step does.
      expect(step(at(0), at(n - 1))).toBeLessThanOrEqual(typical * 1.2);
      rawWorst = Math.max(rawWorst, step(raw(0), raw(n - 1)) / typical);
    }
    // Without the blend the raw idle would jump at the wrap (so the check above can fail).
    expect(rawWorst).toBeGreaterThan(3);
  });
});

describe("clip service", () => {
  const target = (consent: ConsentState, tones: readonly Tone[] = TONES): ClipTarget => ({
    avatarId: "ada",
    dir: mkdtempSync(join(tmpdir(), "clips-")),
    tones,
    face: () => face.face,
    motion: 1,
    consent: async () => consent,
  });
  const service = (enabled = true) => new ClipService({ enabled, renderer: async () => renderer, seconds: 0.4 });
  const refusal = async (p: Promise<unknown>) => {
    const err = (await p.then(() => null, (e) => e)) as { status: number; code: string } | null;
    return err && { status: err.status, code: err.code };
  };

  it("refuses in the spec's order: unknown_tone, avatar_clips_unavailable, consent_required", async () => {
    expect(await refusal(service(false).request(target("missing"), "grumpy"))).toEqual({ status: 400, code: "unknown_tone" });
    expect(await refusal(service(false).request(target("missing", ["neutral"]), "happy"))).toEqual({ status: 400, code: "unknown_tone" });
    expect(await refusal(service(false).request(target("missing"), "happy"))).toEqual({ status: 501, code: "avatar_clips_unavailable" });
    expect(await refusal(service().request(target("missing"), "happy"))).toEqual({ status: 403, code: "consent_required" });
    expect(await refusal(service().request(target("mismatch"), "happy"))).toEqual({ status: 403, code: "consent_required" });
  });

  it("generating, then 409 for the same variant with no second build, then generated with an MP4", async () => {
    const s = service();
    const t = target("ok");
    expect(s.list(t)).toEqual([]); // a tone never requested is absent
    expect(await s.request(t, "sad")).toEqual({ avatar: "ada", tone: "sad", variant_id: "ada__sad", state: "generating" });
    expect(await refusal(s.request(t, "sad"))).toEqual({ status: 409, code: "clip_already_generating" });
    expect(s.list(t)).toEqual([{ tone: "sad", state: "generating", variant_id: "ada__sad", duration_s: 0, updated_at: expect.any(Number), detail: "" }]);
    const deadline = Date.now() + 30_000;
    while (s.list(t)[0].state === "generating" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(s.list(t)).toEqual([{ tone: "sad", state: "generated", variant_id: "ada__sad", duration_s: 0.4, updated_at: expect.any(Number), detail: "" }]);
    expect(s.file(t, "sad")?.bytes).toBeGreaterThan(1000);
    expect(s.file(t, "happy")).toBeNull();
    // The claim was released by the build: a new request builds again.
    expect((await s.request(t, "sad")).state).toBe("generating");
  }, 60_000);

  it("a build that fails is recorded failed with a readable detail, and frees its claim", async () => {
    const s = new ClipService({ enabled: true, renderer: async () => renderer, seconds: 0.4, ffmpegPath: "/usr/bin/ffmpeg" });
    const t = { ...target("ok"), face: () => ({ ...face.face, i420: new Uint8Array(10) }) };
    await s.request(t, "neutral");
    const deadline = Date.now() + 30_000;
    while (s.list(t)[0].state === "generating" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(s.list(t)[0]).toMatchObject({ state: "failed", detail: expect.stringMatching(/^The clip could not be built: .+/) });
    expect((await s.request(t, "neutral")).state).toBe("generating");
  }, 60_000);
});
