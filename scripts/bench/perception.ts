// Benchmark (prints figures; not a test) of perception (docs/api-notes.md "Perception"):
// 1. CPU added by looking at a 640x480 camera sent at 5 fps (the client library's rate) and at 15 fps
//    (a client sending more), a still scene and a moving one: the ffmpeg decoder child (VP8 in,
//    <= 2 JPEG pictures a second out) plus this process's extra time (frame assembly, the black
//    check and the face models at ~1 look a second), over BENCH_SECONDS, against the same feed
//    with perception off. Goal (issue): <= 10 % of one core.
// 2. Added time to a turn's first reply chunk: an OpenAI-compatible stream to the local protocol
//    fake (0 ms model), first text event, with the latest picture in the request vs without.
//    Goal: <= 20 ms p50.
// Run: node_modules/.bin/tsx scripts/bench/perception.ts   env BENCH_SECONDS (20), BENCH_TURNS (60), BENCH_LOOK_MS (1000)
import { mkdtemp, rm } from "node:fs/promises";
import sharp from "sharp";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { singlePhoto } from "../../box/faces/testing/photos.ts";
import { FaceLandmarker } from "../../box/faces/face-landmarker.ts";
import { OpenAiProvider } from "../../box/llm/openai.ts";
import { ProbeCache } from "../../box/llm/probe-cache.ts";
import { FakeOpenAi } from "../../box/llm/testing/fake-openai.ts";
import type { ChatMessage } from "../../box/llm/types.ts";
import { Perception } from "../../box/perception/perception.ts";
import { CAMERA_MAX_FPS } from "../../shared/client/connect.ts";
import { rtpOf, vp8Clip } from "../../box/perception/testing/vp8-rtp.ts";
import { Vp8FrameAssembler } from "../../box/perception/vp8-frames.ts";
import { figureLine, machineLineOf, percentile, sleep } from "./bench-kit.ts";

const BENCH = "perception";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const TURNS = Number(process.env.BENCH_TURNS ?? 60);
/**
 * Camera frame rates played: the client library's (it sends the camera at CAMERA_MAX_FPS at most)
 * and a client that sends 15 (the box decodes every frame it is sent: VP8 frames depend on the ones before).
 */
const RATES = [CAMERA_MAX_FPS, 15];

const ticks = (pid: number) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, seconds
  } catch {
    return 0;
  }
};
const selfCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** Plays the camera's RTP in real time for SECONDS; returns CPU seconds of this process and the decoder child. */
async function play(
  packets: ReturnType<typeof rtpOf>,
  perception: Perception | null,
  fps: number,
): Promise<{ self: number; child: number; wall: number }> {
  const assembler = new Vp8FrameAssembler(
    (f) => perception?.decoderNow().push(f),
    () => {},
  );
  const perFrame = new Map<number, typeof packets>();
  for (const p of packets) perFrame.set(p.header.timestamp, [...(perFrame.get(p.header.timestamp) ?? []), p]);
  const frames = [...perFrame.values()];
  const start = performance.now();
  const cpu0 = selfCpu();
  let childPid: number | null = null;
  let childCpu = 0;
  let loop = 0;
  for (let i = 0; performance.now() - start < SECONDS * 1000; i++) {
    const frame = frames[i % frames.length]!;
    if (i > 0 && i % frames.length === 0) loop++;
    // Later loops: timestamps and sequence numbers move on as a live sender's would.
    for (const p of frame)
      assembler.push({
        header: {
          ...p.header,
          timestamp: (p.header.timestamp + loop * frames.length * (90_000 / fps)) >>> 0,
          sequenceNumber: (p.header.sequenceNumber + loop * packets.length) & 0xffff,
        },
        payload: p.payload,
      });
    childPid ??= perception?.decoderPid ?? null;
    await sleep(Math.max(0, start + ((i + 1) * 1000) / fps - performance.now()));
  }
  const self = selfCpu() - cpu0;
  // The child's CPU is read once, at the end (reading /proc every frame cost this process ~1 % of a core).
  if (childPid) childCpu = ticks(childPid);
  return { self, child: childCpu, wall: (performance.now() - start) / 1000 };
}

machineLineOf(BENCH, new Date().toISOString());
const photo = await singlePhoto();
// Two scenes: a still one (a person sitting still: the face models' answer stands until the picture
// changes) and a moving one (the camera drifting and zooming over the face: every look runs). The
// motion is the same in time at any frame rate (`t`, seconds).
const SCENES: Record<string, (fps: number) => string> = {
  still: () => "scale=640:480:force_original_aspect_ratio=decrease,pad=640:480:(ow-iw)/2:(oh-ih)/2",
  moving: (fps) => {
    const t = `(on*15/${fps})`;
    return `scale=640:480:force_original_aspect_ratio=increase,crop=640:480,zoompan=z='1.15+0.1*sin(${t}/4)':x='iw/2-(iw/zoom/2)+30*sin(${t}/3)':y='ih/2-(ih/zoom/2)+20*cos(${t}/5)':d=1:s=640x480:fps=${fps}`;
  },
};
// Loaded once per box (the box shares the photo path's), before any session: not part of a session's
// cost. So is the models' first run (~0.4 s compiling their kernels, once per box): one look first.
const loaded = await FaceLandmarker.load();
const { data: warmRgb, info: warmInfo } = await sharp(photo).resize(320).removeAlpha().raw().toBuffer({ resolveWithObject: true });
await loaded.detect(new Uint8Array(warmRgb), warmInfo.width, warmInfo.height, { iris: false, maxFaces: 1, rotation: false });
const photoLandmarker = async () => loaded;
const LOOK_MS = Number(process.env.BENCH_LOOK_MS ?? 1000);
for (const fps of RATES)
  for (const [scene, filter] of Object.entries(SCENES)) {
    const packets = rtpOf(vp8Clip(photo, { width: 640, height: 480, fps, seconds: 4, filter: filter(fps) }), fps);
    const off = await play(packets, null, fps);
    // BENCH_NO_LOOKS=1: the feed alone (decoder, pictures, black check), no face models.
    const landmarker = process.env.BENCH_NO_LOOKS === "1" ? undefined : photoLandmarker;
    const perception = new Perception({ landmarker, log: () => {}, lookEveryMs: LOOK_MS });
    const on = await play(packets, perception, fps);
    const { pictures, looks, stillSkips } = perception;
    const line = perception.contextLine();
    perception.close();
    const addedSelf = Math.max(0, on.self / on.wall - off.self / off.wall);
    const childShare = on.child / on.wall;
    const pct = (addedSelf + childShare) * 100;
    figureLine(BENCH, `cpu_added_pct_of_one_core_${scene}_${fps}fps`, pct, "%", "<= 10", pct <= 10, {
      seconds: Math.round(on.wall),
      decoder_pct: Math.round(childShare * 1000) / 10,
      box_added_pct: Math.round(addedSelf * 1000) / 10,
      camera: `640x480 VP8 at ${fps} fps, ${scene} scene`,
      look_every_ms: LOOK_MS,
      pictures_per_s: Math.round((pictures / on.wall) * 10) / 10,
      looks_per_s: Math.round((looks / on.wall) * 10) / 10,
      still_skips_per_s: Math.round((stillSkips / on.wall) * 10) / 10,
      line,
    });
  }

// 2. Time to the first reply chunk, with and without the picture.
const fake = await FakeOpenAi.start({ models: [{ id: "gpt-4o-mini" }] });
const dir = await mkdtemp(join(tmpdir(), "bench-perception-"));
try {
  const provider = new OpenAiProvider({ baseUrl: `${fake.url}/v1`, apiKey: "k", cache: new ProbeCache({ dir }) });
  // A picture of the size the decoder keeps (longest side 768 px, JPEG): the engine takes it as it is.
  const jpeg = await sharp(photo).resize(768, 768, { fit: "inside" }).jpeg({ quality: 80 }).toBuffer();
  const firstChunk = async (messages: ChatMessage[]) => {
    const t0 = performance.now();
    for await (const ev of provider.stream({ model: "gpt-4o-mini", system: "Be brief.", messages, maxTokens: 64 }))
      if (ev.type === "text") return performance.now() - t0;
    return NaN;
  };
  const without: number[] = [];
  const withPic: number[] = [];
  for (let i = 0; i < 5; i++) await firstChunk([{ role: "user", content: "warm up" }]);
  for (let i = 0; i < TURNS; i++) {
    without.push(await firstChunk([{ role: "user", content: "What do you see?" }]));
    withPic.push(await firstChunk([{ role: "user", content: "What do you see?", image: { mediaType: "image/jpeg", data: jpeg } }]));
  }
  const added = percentile(withPic, 50) - percentile(without, 50);
  figureLine(BENCH, "first_chunk_added_ms_p50", added, "ms", "<= 20", added <= 20, {
    turns: TURNS,
    without_p50_ms: Math.round(percentile(without, 50) * 100) / 100,
    with_p50_ms: Math.round(percentile(withPic, 50) * 100) / 100,
    jpeg_bytes: jpeg.length,
  });
} finally {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
}
process.exit(0);
