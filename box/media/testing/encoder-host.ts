// A stand-in box process for the parent-death test (run with bun, as the box is): starts both
// encoders, feeds them at 25 fps, prints {"video":pid,"audio":pid} once RTP flows from both.
import { FfmpegEncoder } from "../encoder.ts";
import { syntheticSource } from "./synthetic-source.ts";

const seen = { video: 0, audio: 0 };
const video = await FfmpegEncoder.start({ kind: "video", onRtp: () => seen.video++ });
const audio = await FfmpegEncoder.start({ kind: "audio", onRtp: () => seen.audio++ });
const source = syntheticSource({ toneFrames: 1_000_000 });
let frame = 0;
let announced = false;
setInterval(() => {
  const { i420, pcm48k } = source(frame);
  video.write(i420, frame);
  audio.write(new Uint8Array(pcm48k.buffer, 0, 1920), 2 * frame); // two 20 ms chunks per frame
  audio.write(new Uint8Array(pcm48k.buffer, 1920, 1920), 2 * frame + 1);
  frame++;
  if (!announced && seen.video > 0 && seen.audio > 0) {
    announced = true;
    console.log(JSON.stringify({ video: video.pid, audio: audio.pid }));
  }
}, 40);
