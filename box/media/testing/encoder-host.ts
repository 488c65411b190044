// A stand-in box process for the parent-death test (run with bun, as the box is): starts a
// session's video encoder, fed at 25 fps, and an idle warm spare; prints {"video":pid,"spare":pid}
// once RTP flows from the first.
import { FfmpegEncoder } from "../encoder.ts";
import { EncoderSpare } from "../encoder-spare.ts";
import { syntheticSource } from "./synthetic-source.ts";

let seen = 0;
const video = await FfmpegEncoder.start({ onRtp: () => seen++ });
const spare = new EncoderSpare({});
spare.prime();
const source = syntheticSource({ toneFrames: 1_000_000 });
let frame = 0;
let announced = false;
setInterval(async () => {
  video.write(source(frame).i420, frame);
  frame++;
  const sparePid = await spare.sparePid();
  if (!announced && seen > 0 && sparePid !== null) {
    announced = true;
    console.log(JSON.stringify({ video: video.pid, spare: sparePid }));
  }
}, 40);
