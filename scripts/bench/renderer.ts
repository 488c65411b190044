// Renderer throughput: frames per second of the built-in face warp at 512x512 on one CPU
// thread, on the whole frame and in crop mode (the model on the box around the head only), and
// on CUDA when onnxruntime-node has its CUDA provider. Prints figures only.
// Usage: bun scripts/bench/renderer.ts [--size 512] [--frames 400] [--threads 1]
import { loadStockFaces, type StockFace } from "../../box/avatars/stock/index.ts";
import { cudaProviderInstalled, FaceRenderer, type ExecutionProvider } from "../../box/render/face-renderer.ts";
import { talkingFrame } from "./bench-kit.ts";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const size = arg("size", 512);
const frames = arg("frames", 400);
const threads = arg("threads", 1);
/** Modes alternate in chunks this long, so a busy spell on the machine hits both alike. */
const CHUNK = 25;

interface Run {
  name: string;
  renderer: FaceRenderer;
  times: number[];
  wall: number;
  cpu: number;
}

async function chunk(run: Run, face: StockFace, from: number, n: number, out: Uint8Array): Promise<void> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = from; i < from + n; i++) {
    const s = performance.now();
    await run.renderer.render(face.face, talkingFrame(i), out);
    run.times.push(performance.now() - s);
  }
  run.wall += performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  run.cpu += (cpu.user + cpu.system) / 1000;
}

function report(run: Run, faceId: string, box: string): void {
  const times = [...run.times].sort((a, b) => a - b);
  const n = times.length;
  const pct = (p: number) => times[Math.min(n - 1, Math.floor(p * n))].toFixed(2);
  // CPU time per frame does not depend on what else loads the machine; wall time does.
  const cpuPerFrame = run.cpu / n;
  console.log(
    `  ${run.name.padEnd(4)} ${faceId} ${box}: ${(n / (run.wall / 1000)).toFixed(1)} fps wall, ` +
      `mean ${(run.wall / n).toFixed(2)} ms, p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms, min ${times[0].toFixed(2)} ms; ` +
      `cpu ${cpuPerFrame.toFixed(2)} ms/frame = ${(1000 / cpuPerFrame).toFixed(0)} fps per core`,
  );
}

async function bench(eps: ExecutionProvider[], faces: StockFace[]): Promise<void> {
  const load = (crop: boolean) => FaceRenderer.load({ width: size, height: size, threads, executionProviders: eps, crop });
  const [full, crop] = await Promise.all([load(false), load(true)]);
  console.log(`${full.executionProvider} ${size}x${size} threads=${threads}:`);
  const totals = { full: 0, crop: 0 };
  for (const face of faces) {
    const runs: Run[] = [
      { name: "full", renderer: full, times: [], wall: 0, cpu: 0 },
      { name: "crop", renderer: crop, times: [], wall: 0, cpu: 0 },
    ];
    const out = new Uint8Array(face.face.i420.length);
    for (const r of runs) for (let i = 0; i < 30; i++) await r.renderer.render(face.face, talkingFrame(i), out);
    for (let i = 0; i < frames; i += CHUNK) {
      for (const r of runs) await chunk(r, face, i, Math.min(CHUNK, frames - i), out);
    }
    const b = crop.cropBox(face.face);
    const share = b ? ((b.x1 - b.x0) * (b.y1 - b.y0)) / (size * size) : 1;
    report(runs[0], face.id, `${size}x${size}`);
    report(
      runs[1],
      face.id,
      b ? `box ${b.x1 - b.x0}x${b.y1 - b.y0} at ${b.x0},${b.y0} (${(share * 100).toFixed(0)}% of the frame)` : "no crop (whole frame)",
    );
    totals.full += runs[0].cpu / runs[0].times.length;
    totals.crop += runs[1].cpu / runs[1].times.length;
  }
  const [f, c] = [totals.full / faces.length, totals.crop / faces.length];
  console.log(
    `  mean over the faces: full ${f.toFixed(2)} ms/frame, crop ${c.toFixed(2)} ms/frame of CPU ` +
      `(${(((f - c) / f) * 100).toFixed(0)}% less; at 25 fps ${((f * 25) / 10).toFixed(1)}% vs ${((c * 25) / 10).toFixed(1)}% of one core)`,
  );
  await Promise.all([full.dispose(), crop.dispose()]);
}

const faces = await loadStockFaces(size);
console.log(`renderer bench: ${frames} frames per face and mode (alternating in chunks of ${CHUNK}), built-in face warp, stock faces`);
await bench(["cpu"], faces);
if (cudaProviderInstalled()) await bench(["cuda"], faces);
else console.log("cuda: unavailable (onnxruntime-node has no CUDA provider library installed on this machine)");
