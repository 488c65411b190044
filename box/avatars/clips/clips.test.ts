// Clips: the idle loop rendered by the real renderer and encoded by ffmpeg (ffprobe reads its
// duration and fps), a loop without a jump, and the clip refusals in the spec's order.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
import { recoverClipBuilds } from "./wire.ts";
import { ownerDir } from "../own/ids.ts";

let renderer: FaceRenderer;
let face: StockFace;

beforeAll(async () => {
  renderer = await FaceRenderer.load({ width: 256, height: 256 });
  [face] = await loadStockFaces(256);
});
afterAll(() => renderer?.dispose());

function probe(path: string) {
  const r = spawnSync(
    "/usr/bin/ffprobe",
    [
      "-v",
      "error",
      "-select_streams",
      "v:0",
      "-show_entries",
      "stream=codec_name,width,height,r_frame_rate,nb_frames:format=duration",
      "-of",
      "json",
      path,
    ],
    { encoding: "utf8" },
  );
  return JSON.parse(r.stdout) as {
    streams: { codec_name: string; width: number; height: number; r_frame_rate: string; nb_frames: string }[];
    format: { duration: string };
  };
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
      const step = (a: ReturnType<typeof at>, b: ReturnType<typeof at>) =>
        Math.hypot(a.headX - b.headX, a.headY - b.headY, 100 * (a.headRoll - b.headRoll), a.breathe - b.breathe);
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
    const err = (await p.then(
      () => null,
      (e) => e,
    )) as { status: number; code: string } | null;
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
    expect(s.list(t)).toEqual([
      { tone: "sad", state: "generating", variant_id: "ada__sad", duration_s: 0, updated_at: expect.any(Number), detail: "" },
    ]);
    const deadline = Date.now() + 30_000;
    while (s.list(t)[0].state === "generating" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(s.list(t)).toEqual([
      { tone: "sad", state: "generated", variant_id: "ada__sad", duration_s: 0.4, updated_at: expect.any(Number), detail: "" },
    ]);
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

  /** The real renderer; `onFrame` runs at each frame, so something can happen while a build runs. */
  const watched = (onFrame: () => void): FaceRenderer =>
    Object.assign(Object.create(renderer) as FaceRenderer, {
      render: (...a: Parameters<FaceRenderer["render"]>) => (onFrame(), renderer.render(...a)),
    });
  const settled = async (s: ClipService, t: ClipTarget) => {
    const deadline = Date.now() + 30_000;
    while (s.list(t).some((r) => r.state === "generating") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return s.list(t);
  };

  it("an erase order that appears while a build runs: the clip is discarded with a sentence, nothing goes to archiving, later requests are 404", async () => {
    let erased = false;
    const s = new ClipService({ enabled: true, renderer: async () => watched(() => (erased = true)), seconds: 0.4 });
    const archived: string[] = [];
    s.onGenerated((_t, tone) => archived.push(tone));
    const t: ClipTarget = { ...target("ok"), erased: async () => erased };
    expect((await s.request(t, "happy")).state).toBe("generating");
    expect(await settled(s, t)).toEqual([
      {
        tone: "happy",
        state: "failed",
        variant_id: "ada__happy",
        duration_s: 0,
        updated_at: expect.any(Number),
        detail: "The clip was discarded: the avatar was erased through the portal while it was being built.",
      },
    ]);
    expect(s.file(t, "happy")).toBeNull();
    expect(readdirSync(t.dir)).toEqual(["clips.json"]); // no MP4, no partial file
    expect(archived).toEqual([]);
    // Requested afterwards: refused before anything else (unknown_avatar is the first refusal).
    for (const tone of ["happy", "grumpy"]) {
      const err = (await s.request(t, tone).catch((e) => e)) as { status: number; code: string; message: string };
      expect({ status: err.status, code: err.code }).toEqual({ status: 404, code: "unknown_avatar" });
      expect(err.message).toMatch(/erased through the portal/);
    }
    expect(await refusal(s.buildAll(t, ["neutral"]))).toEqual({ status: 404, code: "unknown_avatar" });
    expect(readdirSync(t.dir)).toEqual(["clips.json"]);
  }, 60_000);

  it("a build whose avatar was deleted or replaced meanwhile keeps nothing and writes nothing into the folder", async () => {
    let current = true;
    const t: ClipTarget = { ...target("ok"), current: () => current };
    // Deleted at the build's first frame: the entry goes and so does its folder.
    const deleted = () => {
      if (current) rmSync(t.dir, { recursive: true, force: true });
      current = false;
    };
    const s = new ClipService({ enabled: true, renderer: async () => watched(deleted), seconds: 0.4 });
    const archived: string[] = [];
    s.onGenerated((_t, tone) => archived.push(tone));
    const [built] = await s.buildAll(t, ["sad"]);
    expect(built.row).toMatchObject({
      tone: "sad",
      state: "failed",
      detail: expect.stringMatching(/^The clip (was discarded|could not be built)/),
    });
    expect(existsSync(t.dir)).toBe(false); // not brought back by the build's journal
    expect(archived).toEqual([]);
  }, 60_000);

  it("at start, rows a cut-off build left generating become failed with a sentence, and partial files go", async () => {
    const data = mkdtempSync(join(tmpdir(), "clips-restart-"));
    const stock = join(data, "clips", "stock", "stock-ava");
    const own = join(data, "avatars", ownerDir("owner:ada@x.test"), "ada", "clips");
    const row = (tone: string, state: string) => ({
      tone,
      state,
      variant_id: `x__${tone}`,
      duration_s: state === "generated" ? 6 : 0,
      updated_at: 1,
      detail: "",
    });
    for (const dir of [stock, own]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "clips.json"), JSON.stringify({ happy: row("happy", "generating"), sad: row("sad", "generated") }));
      writeFileSync(join(dir, "clip-sad.mp4"), "mp4");
      writeFileSync(join(dir, "clip-happy.mp4.part-4242-1.part-4242.mp4"), "half an mp4");
      writeFileSync(join(dir, "clip-happy.mp4.part-4242.mp4"), "half an mp4");
    }
    recoverClipBuilds(data);
    for (const dir of [stock, own]) {
      const journal = JSON.parse(readFileSync(join(dir, "clips.json"), "utf8"));
      expect(journal.happy).toMatchObject({
        state: "failed",
        duration_s: 0,
        detail: "The build was cut off by a restart of the box; request the clip again.",
      });
      expect(journal.happy.updated_at).toBeGreaterThan(1);
      expect(journal.sad).toEqual(row("sad", "generated"));
      expect(readdirSync(dir).sort()).toEqual(["clip-sad.mp4", "clips.json"]);
    }
    // A second start changes nothing.
    const again = readFileSync(join(own, "clips.json"), "utf8");
    recoverClipBuilds(data);
    expect(readFileSync(join(own, "clips.json"), "utf8")).toBe(again);
    expect(existsSync(join(data, "clips", "stock", "stock-ava", "clips.json"))).toBe(true);
  });
});
