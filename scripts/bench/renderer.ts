// Renderer throughput: frames per second of the built-in face warp at 512x512 on one CPU
// thread, and on CUDA when onnxruntime-node has its CUDA provider. Prints figures only.
// Usage: bun scripts/bench/renderer.ts [--size 512] [--frames 400] [--threads 1]
import { loadStockFaces } from "../../box/avatars/stock/index.ts";
import { cudaProviderInstalled, FaceRenderer, type ExecutionProvider } from "../../box/render/face-renderer.ts";
import { NEUTRAL_FRAME, type FrameParams } from "../../box/render/frame-params.ts";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const size = arg("size", 512);
const frames = arg("frames", 400);
const threads = arg("threads", 1);

/** A talking, blinking, moving face: every parameter changes every frame. */
function frameAt(i: number): FrameParams {
  const t = i / 25;
  return {
    ...NEUTRAL_FRAME,
    open: Math.max(0, Math.sin(t * 9)) * 0.8,
    wide: Math.max(0, Math.sin(t * 5)) * 0.4,
    round: Math.max(0, Math.cos(t * 4)) * 0.3,
    smile: 0.3 * Math.sin(t * 0.7),
    blink: i % 90 < 4 ? 1 : 0,
    brow: 0.3 * Math.sin(t * 1.3),
    headX: 3 * Math.sin(t * 0.9),
    headY: 2 * Math.sin(t * 1.1),
    headRoll: 0.03 * Math.sin(t * 0.6),
    breathe: 0.5 + 0.5 * Math.sin(t * 1.6),
  };
}

async function bench(eps: ExecutionProvider[]): Promise<void> {
  const renderer = await FaceRenderer.load({ width: size, height: size, threads, executionProviders: eps });
  const [face] = await loadStockFaces(size);
  for (let i = 0; i < 30; i++) await renderer.render(face.face, frameAt(i));
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < frames; i++) {
    const s = performance.now();
    await renderer.render(face.face, frameAt(i));
    times.push(performance.now() - s);
  }
  const total = performance.now() - t0;
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(2);
  // CPU time per frame does not depend on what else loads the machine; wall time does.
  const cpu = process.cpuUsage(cpu0);
  const cpuPerFrame = (cpu.user + cpu.system) / 1000 / frames;
  console.log(
    `${renderer.executionProvider} ${size}x${size} threads=${threads}: ${(frames / (total / 1000)).toFixed(1)} fps wall, ` +
      `mean ${(total / frames).toFixed(2)} ms, p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms, min ${times[0].toFixed(2)} ms; ` +
      `cpu ${cpuPerFrame.toFixed(2)} ms/frame = ${(1000 / cpuPerFrame).toFixed(0)} fps per core`,
  );
  await renderer.dispose();
}

console.log(`renderer bench: ${frames} frames, built-in face warp, stock face`);
await bench(["cpu"]);
if (cudaProviderInstalled()) await bench(["cuda"]);
else console.log("cuda: unavailable (onnxruntime-node has no CUDA provider library installed on this machine)");
