// Benchmark (prints figures; not a test): `bun box/media/testing/measure.ts [seconds] [runs]`.
// Per run: connect -> first decoded frame, fps received, CPU of each ffmpeg child (one core = 100%),
// A/V offsets at the box and at the receiver. Calm picture: grey with a small moving square.
import { readFileSync } from "node:fs";
import { MediaSession } from "../../box/media/media-session.ts";
import { createAnswerPeer } from "../../box/media/peer.ts";
import { syntheticSource } from "../../box/media/testing/synthetic-source.ts";
import { WrtcClient } from "../../box/media/testing/wrtc-client.ts";

const seconds = Number(process.argv[2] ?? 10);
const runs = Number(process.argv[3] ?? 2);
const TICKS = 100; // USER_HZ on Linux

const cpuTicks = (pid: number | null): number => {
  if (pid === null) return NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return Number(fields[11]) + Number(fields[12]); // utime + stime
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (let run = 1; run <= runs; run++) {
  const markers = Array.from({ length: Math.floor(seconds / 1.4) }, (_, k) => 50 + 35 * k);
  const departures = new Map<string, number>();
  const client = new WrtcClient();
  let session!: MediaSession;
  await client.connect(async (offer) => {
    const peer = await createAnswerPeer(offer, { loopbackOnly: true });
    session = await MediaSession.start(peer, syntheticSource({ markerFrames: markers }), {
      onSend: (kind, i) => departures.has(`${kind}:${i}`) || departures.set(`${kind}:${i}`, performance.now()),
    });
    return peer.answer;
  });
  const first = await client.waitForFirstFrame();
  await new Promise((r) => setTimeout(r, 1_000));
  const video = session.encoderPid; // Opus is encoded in this process: its cost is in the process's own CPU
  const [v0, t0, f0] = [cpuTicks(video), performance.now(), client.frames.length];
  await new Promise((r) => setTimeout(r, seconds * 1_000));
  const wall = (performance.now() - t0) / 1_000;
  const cpu = (ticks: number) => ((100 * ticks) / TICKS / wall).toFixed(1);
  const box = markers
    .filter((f) => departures.has(`video:${f}`) && departures.has(`audio:${2 * f}`))
    .map((f) => departures.get(`audio:${2 * f}`)! - departures.get(`video:${f}`)!);
  const played = client.measureAvOffset();
  console.log(
    `run ${run}: first frame ${Math.round(first.at - client.connectStartedAt)} ms after the offer;` +
      ` ${((client.frames.length - f0) / wall).toFixed(1)} fps received;` +
      ` CPU vp8 ${cpu(cpuTicks(video) - v0)}%;` +
      ` A/V at the box median ${median(box)?.toFixed(1)} ms (n=${box.length}), at the receiver median ${median(played)?.toFixed(1)} ms (n=${played.length})`,
  );
  session.close();
  client.close();
  await new Promise((r) => setTimeout(r, 500));
}
process.exit(0);
