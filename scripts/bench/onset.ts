// Benchmark (prints figures; never asserts) of speech onsets and frame pacing on the box's media
// clock (issue 23 item 4): a live session with the real renderer, the stock face, espeak through
// the Speaker and a libwebrtc client receiving it, in one process, so every frame's picture and
// audio are known as the clock takes them. Talks are queued as POST /api/talk queues them.
//   - onset_mouth_minus_audio_ms: at each utterance's start, (first frame whose picture was drawn
//     with the mouth open) − (first frame with loud audio), on the frame clock (40 ms a frame).
//     Goal: within ±40 ms. Also how many speech frames went out with a stale (not re-drawn) picture.
//   - frame_gap_during_talk_ms: the largest gap between two frames the clock took, from a talk's
//     request to 1 s after its first audio. Goal: ≤ 60 ms (25 fps is 40 ms).
//   - event_loop_lag_during_talk_ms: how late a 5 ms timer fired in the same windows.
// Run: node_modules/.bin/bun scripts/bench/onset.ts   (BENCH_TALKS 12; BENCH_ESPEAK_THREAD=0 keeps
// espeak on the media thread, to compare)
import { AvatarRegistry } from "../../box/avatars/registry.ts";
import { ClauseSplitter } from "../../box/text/clause-splitter.ts";
import { WordPhonemizer } from "../../box/lipsync/word-visemes.ts";
import { sanitizeClientContext } from "../../box/live/client-context.ts";
import { LiveSession } from "../../box/live/live-session.ts";
import type { FrameReport } from "../../box/live/session-types.ts";
import { Speaker } from "../../box/live/speaker.ts";
import { WrtcClient } from "../../box/media/testing/wrtc-client.ts";
import { FaceRenderer } from "../../box/render/face-renderer.ts";
import { VoiceAccounts } from "../../box/tts/accounts.ts";
import { EspeakEngine } from "../../box/tts/espeak-engine.ts";
import { emit, machine, sleep, summary } from "./bench-kit.ts";

const TALKS = Number(process.env.BENCH_TALKS ?? 12);
const THREAD = process.env.BENCH_ESPEAK_THREAD !== "0";
const TEXT =
  "Hello there, I am checking whether my mouth opens with my first sound. Then I keep talking for a while, so the next clause is made while this one plays.";
const LOUD = 1500;
const OPEN = 0.08;

machine({ bench: "onset", espeak_thread: THREAD });
const renderer = await FaceRenderer.load({ width: 512, height: 512 });
const registry = await AvatarRegistry.load(renderer);
const avatar = registry.resolveFor(null, "stock-ava")!;
const espeak = await EspeakEngine.load({ thread: THREAD });
const speaker = new Speaker(VoiceAccounts.single(espeak), 25, null, new WordPhonemizer(espeak));

const frames: FrameReport[] = [];
let lagMax: { at: number; lag: number }[] = [];
let expected = performance.now() + 5;
const lagTimer = setInterval(() => {
  const now = performance.now();
  lagMax.push({ at: now, lag: Math.max(0, now - expected) });
  if (lagMax.length > 4000) lagMax = lagMax.slice(-2000);
  expected = now + 5;
}, 5);

const client = new WrtcClient(4);
let session!: LiveSession;
await client.connect(async (offer) => {
  const opened = await LiveSession.open(offer, avatar, sanitizeClientContext({}), {
    renderer,
    loopbackOnly: true,
    fps: 25,
    onFrame: (r) => {
      frames.push(r);
      if (frames.length > 5000) frames.splice(0, 2500);
    },
  });
  session = opened.session;
  return opened.answer as { sdp: string; type: string };
});
await client.waitForFirstFrame(20_000);
await sleep(1500);

/** Queues a talk clause by clause, as POST /api/talk does. */
async function talk(text: string): Promise<void> {
  const splitter = new ClauseSplitter();
  for (const clause of [...splitter.push(text), ...splitter.flush()]) {
    const g = await speaker.live(clause, "neutral", { subject: "bench" }, session.interruptSignal);
    session.sayStream(g);
    await g.finished;
  }
}

const offsets: number[] = [];
const stale: number[] = [];
const gaps: number[] = [];
const lags: number[] = [];
const toAudio: number[] = [];
for (let k = -1; k < TALKS; k++) {
  const t0 = performance.now();
  const firstId = frames.at(-1)!.frame;
  const spoken = talk(TEXT);
  await spoken;
  await session.quiet(20_000);
  const mine = frames.filter((f) => f.frame > firstId);
  // Each utterance's onset: its first loud frame against its first open-mouth frame.
  const ids = [...new Set(mine.map((f) => f.utterance).filter((u): u is number => u !== null))];
  const firstLoud = mine.find((f) => f.peak > LOUD);
  for (const id of ids) {
    const own = mine.filter((f) => f.utterance === id);
    const loud = own.find((f) => f.peak > LOUD);
    const open = own.find((f) => f.open > OPEN);
    if (k >= 0 && loud && open) offsets.push((open.frame - loud.frame) * 40);
    if (k >= 0) stale.push(own.filter((f) => !f.fresh).length);
  }
  if (k >= 0 && firstLoud) {
    toAudio.push(firstLoud.at - t0);
    const window = mine.filter((f) => f.at <= firstLoud.at + 1000);
    let gap = 0;
    for (let i = 1; i < window.length; i++) gap = Math.max(gap, window[i].at - window[i - 1].at);
    gaps.push(gap);
    lags.push(Math.max(0, ...lagMax.filter((l) => l.at >= t0 && l.at <= firstLoud.at + 1000).map((l) => l.lag)));
  }
  await sleep(600);
}
clearInterval(lagTimer);
const within = offsets.filter((o) => Math.abs(o) <= 40).length;
emit("onset_mouth_minus_audio_ms", {
  ...summary(offsets, [5, 50, 95]),
  min: Math.min(...offsets),
  max: Math.max(...offsets),
  within_40ms: `${within}/${offsets.length}`,
  goal: "±40 ms",
  values: offsets,
});
emit("stale_speech_frames_per_utterance", { ...summary(stale), max: Math.max(...stale), utterances: stale.length });
emit("frame_gap_during_talk_ms", { ...summary(gaps), max: Math.round(Math.max(...gaps)), goal_ms: 60 });
emit("event_loop_lag_during_talk_ms", { ...summary(lags), max: Math.round(Math.max(...lags)) });
emit("talk_to_first_loud_frame_ms", summary(toAudio));
session.close();
client.close();
machine({ bench: "onset", at: "end" });
process.exit(0);
